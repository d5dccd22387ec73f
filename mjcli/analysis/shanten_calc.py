"""Shanten of a hand given as 34 counts: one hand in pure Python, or a numpy batch.

The number is the same as ``mahjong``'s ``Shanten.calculate_shanten`` (tests check this): -1 complete,
0 tenpai, k tiles from tenpai otherwise; the minimum of the regular form (n melds and a pair for a
hand of 3n+1 or 3n+2 tiles, the missing melds being open ones), seven pairs and thirteen orphans,
the last two only for hands of 13 or 14 tiles. Legal sizes are 1, 2, 4, 5, 7, 8, 10, 11, 13 and 14.

How it is fast (see :mod:`mjcli.analysis.tables` for the tables):

* one hand: the counts become 34 bytes, cut into the four groups (man, pin, sou, honours). Each 9-
  or 7-byte slice is looked up in a dict that gives one int packing the group's row id and the
  group's counts for seven pairs and thirteen orphans (see ``_VALUE_CACHE``). Once a process has
  looked up a few hundred slices, the dict is seeded with every slice of at most 7 tiles (14k of
  them, most likely first so that the slices most lookups hit lie together in memory; see ``_seed``);
  it fills as other slices are met; a miss costs a base-5 code and a lookup in a precomputed array.
  It is bounded (see ``_VALUE_CACHE_LIMIT``). The four row ids are combined with three ``combine``
  lookups, and the packed counts are summed, giving seven pairs and thirteen orphans with one more
  lookup.
* batch: every group's base-5 code from one matrix product, and the same lookups become numpy
  gathers over the whole batch.

Nothing is loaded at import: the tables are read and their lookup forms built on the first lookup
(``_load``, from the miss path, so the hot path pays nothing for it), and the seed comes later still.
A command that asks one hand's shanten pays for neither the seed nor anything unused (the import
went from about 180 ms to 1 ms on a quiet machine; the seed alone is about 25 ms). The single-hand
path needs no numpy at all: the tables come as bytes (:func:`mjcli.analysis.tables.load_raw`, about
7 ms) and a slice's packed facts are counted from its bytes on a miss; numpy (about 120 ms to import)
is imported by the batch path only (``tests/test_startup.py`` checks a quick command never loads it).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from math import comb
from typing import TYPE_CHECKING

from mjcli.analysis import tables as _tables
from mjcli.errors import InvalidHandError
from mjcli.tiles import NUM_KINDS, SANMA_ABSENT, TERMINALS_AND_HONORS, counts_to_kinds, tile_name, to_mpsz

if TYPE_CHECKING:
    import numpy as np

HAND_SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
AGARI = -1
TENPAI = 0

#: melds needed (besides the pair) for a hand of that many tiles; None marks an illegal size
_MELDS_FOR_SIZE: tuple[int | None, ...] = tuple(n // 3 if n in HAND_SIZES else None for n in range(64))
_GROUP_STARTS = (0, 9, 18, 27)

# The lookup forms of the tables, all set by _load() on the first lookup (see the module docstring).
#: _FINAL[melds][row id] = regular shanten of a whole hand whose combined row is that id
_FINAL: list[list[int]]
#: the same by number of tiles; None for an illegal size
_FINAL_BY_SIZE: list[list[int] | None]
# Rows of ``combine`` as bytes (ids are below 256): a small working set keeps the lookups in cache.
_COMBINE: list[bytes]
# base-5 code of a 5-, 4- or 2-byte slice of counts (each 0..4); a slice with a 5+ is missing
_CODE5: dict[bytes, int]
_CODE4: dict[bytes, int]
_CODE2: dict[bytes, int]
#: row id of each base-5 code of a suit (9 kinds) or honour (7 kinds) slice, one byte each
_SUIT_IDS: bytes
_HONOR_IDS: bytes

# What the single-hand path knows about one group (a 9-byte suit or 7-byte honour slice of the
# counts), packed in one int so that the four groups' facts add up in one sum:
#   bits  0-5   tiles in the group
#   bits  6-9   kinds held 2+ times      (seven pairs)
#   bits 10-13  kinds held               (seven pairs)
#   bits 14-17  terminal/honour kinds held         (thirteen orphans)
#   bits 18-21  terminal/honour kinds held 2+ times (thirteen orphans)
#   bits 22-    the group's distance-row id (read per group, never summed)
# Only groups of at most 14 tiles are cached, so for a hand of at most 14 tiles no field overflows
# into the next, and a larger hand is caught from the tile count field (at most 4 x 14 < 64).
_ID_SHIFT = 22
_SIZE_MASK = 63
_VALUE_CACHE: dict[bytes, int] = {}

# The slice caches (_VALUE_CACHE, _DRAW_CACHE below) are module-level on purpose: an entry is a pure
# function of the bytes of one slice (the tables never change after import), so it cannot go stale,
# and every caller in the process may share it: threads (a lost write is only a later miss) and
# worker processes (each fills its own copy) alike. They are bounded all the same, so that no input
# can grow them without end: a miss that finds a cache at its limit first puts it back as it was
# after import (the seeded slices, or empty); the check is made on a miss only, never on the hot
# path. Replaying 200 distinct simulated hanchan through every policy ends with 17.5k slices (14k
# of them seeded) and 3.4k draw rows. A miss is cheap (all the misses of that run, 35k slices and
# 21k draw rows, cost 0.2 s of its 21 s of CPU), so the limits stay close to that: about 3 MB and
# 5 MB at most, where 1 << 17 and 1 << 15 allowed 13 and 20 MB to a long run (bench row "peak
# memory by hanchan replayed").
_VALUE_CACHE_LIMIT = 1 << 15
_DRAW_CACHE_LIMIT = 1 << 13


#: the packed facts (no row id) that one kind held 0..4 times adds to its group's: plain, terminal/honour
_PART = tuple(c | (c >= 2) << 6 | (c >= 1) << 10 for c in range(5))
_PART_TERMINAL = tuple(p | (c >= 1) << 14 | (c >= 2) << 18 for c, p in enumerate(_PART))
#: the parts of each kind of a suit slice (1 and 9 are terminals), of an honour slice, of sanma's
#: manzu (1m and 9m looked up as two honour-like kinds)
_SUIT_PARTS = (_PART_TERMINAL, *[_PART] * 7, _PART_TERMINAL)
_HONOR_PARTS = (_PART_TERMINAL,) * 7


def _slice_value(key: bytes, parts: tuple[tuple[int, ...], ...], ids: bytes, code: int) -> int:
    """The packed value of a group slice (counts 0..4, base-5 ``code``): facts summed, row id above."""
    value = ids[code] << _ID_SHIFT
    for c, part in zip(key, parts):  # noqa: B905  (a sanma manzu key is 2 of the honour parts)
        value += part[c]
    return value


def _packed_values(num_kinds: int, row_ids: np.ndarray, terminals: tuple[int, ...]) -> np.ndarray:
    """The packed value of every group code, as uint32, its tile count capped at 15.

    Every field is a sum over the kinds of the group, so the table for 9 kinds is built as an outer
    sum of per-kind contributions, kind by kind (code = sum count[i] * 5**i: kind i varies slowest
    after i steps, hence ``add.outer(contribution of kind i, table so far)``). A group of 15+ tiles
    never occurs in a legal hand; its count is capped so that the sum of four groups stays inside its
    6 bits (and still reads as an illegal size). All in uint32 and in place: no int64 copy of the 2M
    suit codes (about 40 ms less of the batch's start, bench row ``shanten - --json --fields ...``).
    """
    import numpy as np

    values = np.zeros(1, dtype=np.uint32)
    counts = np.arange(5, dtype=np.uint32)
    for i in range(num_kinds):
        part = counts | (counts >= 2) << 6 | (counts >= 1) << 10
        if i in terminals:
            part = part | (counts >= 1) << 14 | (counts >= 2) << 18
        values = np.add.outer(part.astype(np.uint32), values).reshape(-1)
    excess = values & np.uint32(_SIZE_MASK)
    excess -= np.minimum(excess, np.uint32(15))
    values -= excess
    ids = row_ids.astype(np.uint32)
    ids <<= np.uint32(_ID_SHIFT)
    values |= ids
    return values


#: slices put in the cache up front: all of at most this many tiles (about 14k, 25 ms at import)
SEED_MAX_TILES = 7


def _seed() -> dict[bytes, int]:
    """Every slice of at most SEED_MAX_TILES tiles with its packed value, most likely slices first.

    The order is what makes the single-hand path fast when other code runs between calls (and
    pushes the dict out of the CPU cache): a dict keeps its entries in insertion order, and the key
    bytes are allocated in that order too, so the few thousand slices that make most of the
    lookups sit together in a few hundred KB instead of spread over the 1.5 MB of the whole dict.
    "Likely" is the chance of the slice in a random 13- or 14-tile hand: the product of
    C(4, count) over its kinds, times the ways to draw the other tiles from outside the group.
    The values are interned (a few hundred distinct ints) for the same reason.
    """
    ways_per_count = (1, 4, 6, 4, 1)
    weighted = []
    for parts, ids in ((_SUIT_PARTS, _SUIT_IDS), (_HONOR_PARTS, _HONOR_IDS)):
        num_kinds = len(parts)
        # (counts, tiles, base-5 code, ways to pick those tiles, summed facts), one kind more a step
        level: list[tuple[tuple[int, ...], int, int, int, int]] = [((), 0, 0, 1, 0)]
        for i in range(num_kinds):
            level = [
                ((*counts, c), n + c, code + c * 5**i, ways * ways_per_count[c], facts + parts[i][c])
                for counts, n, code, ways, facts in level
                for c in range(min(4, SEED_MAX_TILES - n) + 1)
            ]
        outside = 136 - 4 * num_kinds
        rest = [comb(outside, 13 - n) + comb(outside, 14 - n) for n in range(SEED_MAX_TILES + 1)]
        for counts, n, code, ways, facts in level:
            weighted.append((-ways * rest[n], num_kinds, code, counts, facts + (ids[code] << _ID_SHIFT)))
    weighted.sort()  # ties in a fixed order (kinds, then code): the same dict on every run
    # the bytes made only now, in that order, so that they lie in memory in that order too
    return {bytes(counts): _intern(value) for *_, counts, value in weighted}


#: one int object per distinct packed value, shared by every cache entry that has it
_INTERNED: dict[int, int] = {}


def _intern(value: int) -> int:
    return _INTERNED.setdefault(value, value)


#: the seeded slices and the interned values after seeding; built once, on the SEED_AFTER-th miss
_SEEDED: dict[bytes, int] | None = None
_SEEDED_INTERNED: dict[int, int] = {}
#: misses before the cache is seeded: a process that looks up many hands meets them in its first
#: few hands, and a command that looks up one hand never builds the seed (about 25 ms saved)
SEED_AFTER = 256
_misses = 0


def reset_cache() -> None:
    """Empty the slice caches and seed them again with every small slice (benchmarks use this):
    the state of a process that has looked up a few hands."""
    _load()
    _DRAW_CACHE.clear()
    _INTERNED.clear()
    _reset_values()


def _reset_values() -> None:
    global _SEEDED, _SEEDED_INTERNED
    if _SEEDED is None:
        _SEEDED = _seed()
        _SEEDED_INTERNED = dict(_INTERNED)
    # in place: the single-hand path holds the dict itself
    _VALUE_CACHE.clear()
    _VALUE_CACHE.update(_SEEDED)  # a copy of the seeded dict, in its order
    _INTERNED.update(_SEEDED_INTERNED)


def _special_table() -> bytes:
    """1 + min(seven pairs, thirteen orphans) for each value of the 16 summed bits after the tile count
    (bytes, so that the 64k entries stay in cache; hence the + 1; wrapped to a byte like a uint8).

    The low byte holds the seven-pairs fields (pairs, kinds) and the high byte the orphans fields
    (terminal kinds, terminal pairs), so the table is 256 rows of 256: one row per orphans count,
    built once per distinct count (a few ms in pure Python, no numpy)."""
    # exactly as `mahjong` counts them (a kind held 3 or 4 times is one pair)
    chiitoi = [-1 if (lo & 15) == 7 else 6 - (lo & 15) + max(7 - (lo >> 4), 0) for lo in range(256)]
    kokushi = [13 - (hi & 15) - ((hi >> 4) > 0) for hi in range(256)]
    row_of = {k: bytes((min(c, k) + 1) & 255 for c in chiitoi) for k in set(kokushi)}
    return b"".join(row_of[k] for k in kokushi)


_SPECIAL_PLUS_1: bytes


def _codes(length: int) -> dict[bytes, int]:
    """The base-5 code of every slice of ``length`` counts 0..4. ``product`` varies its last digit
    fastest, so the reversed tuple's code is its position: no arithmetic per entry (3 ms less)."""
    return {bytes(t[::-1]): code for code, t in enumerate(product(range(5), repeat=length))}


def _load() -> None:
    """Read the tables and build their lookup forms, once (called from the miss paths only)."""
    global _FINAL, _FINAL_BY_SIZE, _COMBINE, _CODE5, _CODE4, _CODE2, _SUIT_IDS, _HONOR_IDS, _SPECIAL_PLUS_1
    if "_SPECIAL_PLUS_1" in globals():
        return
    raw = _tables.load_raw()
    size = raw.size
    # rows[10 * id + 2 * melds + pairs]: the distance with the pair, less one, is the shanten
    _FINAL = [[raw.rows[10 * i + 2 * m + 1] - 1 for i in range(size)] for m in range(5)]
    _FINAL_BY_SIZE = [None if m is None else _FINAL[m] for m in _MELDS_FOR_SIZE]
    _COMBINE = [raw.combine[size * i : size * (i + 1)] for i in range(size)]
    _CODE5, _CODE4, _CODE2 = (_codes(n) for n in (5, 4, 2))
    _SUIT_IDS = raw.suit_ids
    _HONOR_IDS = raw.honor_ids
    _SPECIAL_PLUS_1 = _special_table()  # last: its presence marks the whole load as done


# ---------------------------------------------------------------- input checks


def _describe(values: Sequence[int]) -> str:
    try:
        return f"hand {to_mpsz(counts_to_kinds(values))}"
    except Exception:  # counts too broken to print; the caller's message says what is wrong
        return "hand"


def _coerce(counts34: object) -> bytes:
    """Slow path of the input check: turn anything list-like into 34 bytes or raise a clear error."""
    try:
        values = [int(x) for x in counts34]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise InvalidHandError(f"counts must be 34 integers, got {counts34!r}") from None
    if len(values) != NUM_KINDS:
        raise InvalidHandError(f"counts have {len(values)} entries; expected 34 (one per tile kind)")
    for k, c in enumerate(values):
        if not 0 <= c <= 4:
            raise InvalidHandError(f"counts have {c} copies of {tile_name(k)} (0 to 4 allowed)")
    return bytes(values)


def _bad_size(b: bytes) -> InvalidHandError:
    sizes = ", ".join(map(str, HAND_SIZES))
    return InvalidHandError(f"{_describe(list(b))} has {sum(b)} tiles; expected {sizes}")


def hand_bytes(counts34: Sequence[int] | bytes | np.ndarray) -> bytes:
    """The 34 counts as bytes, checked (0..4 copies each, a legal hand size)."""
    b = _coerce(counts34)
    if sum(b) > 14 or _MELDS_FOR_SIZE[sum(b)] is None:
        raise _bad_size(b)
    return b


def _code(key: bytes) -> int:
    """Base-5 code of a 9-byte (suit) or 7-byte (honour) slice; KeyError if a count is above 4."""
    if len(key) == 9:
        return _CODE5[key[:5]] + 3125 * _CODE4[key[5:]]
    return _CODE5[key[:5]] + 3125 * _CODE2[key[5:]]


def _group_value(key: bytes, start: int) -> int:
    """The packed facts of one group slice (see above), cached; raises for 5+ copies or 15+ tiles."""
    value = _VALUE_CACHE.get(key)
    if value is not None:
        return value
    global _misses
    _load()
    _misses += 1
    if _misses == SEED_AFTER and _SEEDED is None:
        _reset_values()
    try:
        code = _code(key)
    except KeyError:
        i = max(range(len(key)), key=lambda j: key[j])
        copies = f"{key[i]} copies of {tile_name(start + i)}"
        raise InvalidHandError(f"counts have {copies} (0 to 4 allowed)") from None
    if start == 27:
        value = _slice_value(key, _HONOR_PARTS, _HONOR_IDS, code)
    else:
        value = _slice_value(key, _SUIT_PARTS, _SUIT_IDS, code)
    if value & _SIZE_MASK > 14:
        raise _bad_size(bytes(start) + key + bytes(NUM_KINDS - start - len(key)))
    if len(_VALUE_CACHE) >= _VALUE_CACHE_LIMIT:
        _reset_values()
    value = _VALUE_CACHE[key] = _intern(value)
    return value


def _group_values(b: bytes) -> tuple[int, int, int, int]:
    return (
        _group_value(b[0:9], 0),
        _group_value(b[9:18], 9),
        _group_value(b[18:27], 18),
        _group_value(b[27:34], 27),
    )


# ---------------------------------------------------------------- one hand


def shanten(counts34: Sequence[int] | bytes | np.ndarray, seven_pairs: bool = True) -> int:
    """Shanten of one hand: min of regular, seven pairs and thirteen orphans (those two at 13/14 tiles).
    ``seven_pairs=False``: the regular form and thirteen orphans only, the winning shapes of Hong Kong
    mahjong (the orphans then read from the summed fields, bits 14-21, in the same pass).

    ``counts34`` holds how many of each kind 0..33 the hand has (a list, tuple, bytes or numpy row).
    Raises :class:`InvalidHandError` for a count outside 0..4 or an illegal number of tiles.
    """
    # The hot path, all inline: the input checks come from the lookups failing (a slice with a count
    # above 4 or more than 14 tiles is never cached, and the size check reads the summed tile count).
    try:
        b = bytes(bytearray(counts34))  # faster than bytes(list) for a list of ints
    except (TypeError, ValueError):
        b = _coerce(counts34)
    if len(b) != 34:
        b = _coerce(counts34)
    cache = _VALUE_CACHE
    try:
        va = cache[b[0:9]]
        vp = cache[b[9:18]]
        vs = cache[b[18:27]]
        vh = cache[b[27:34]]
    except KeyError:
        va, vp, vs, vh = _group_values(b)
    total = va + vp + vs + vh
    n = total & 63
    final = _FINAL_BY_SIZE[n]
    if final is None:
        raise _bad_size(b)
    comb = _COMBINE
    best = final[comb[comb[va >> 22][vp >> 22]][comb[vs >> 22][vh >> 22]]]
    if n < 13:
        return best
    if seven_pairs:
        special = _SPECIAL_PLUS_1[total >> 6 & 0xFFFF] - 1
    else:
        special = 13 - (total >> 14 & 15) - ((total >> 18 & 15) > 0)
    return special if special < best else best


def shanten_regular(counts34: Sequence[int] | bytes | np.ndarray) -> int:
    """Shanten of the regular form only (n melds and a pair), for every legal hand size."""
    try:
        b = bytes(bytearray(counts34))  # faster than bytes(list) for a list of ints
    except (TypeError, ValueError):
        b = _coerce(counts34)
    if len(b) != 34:
        b = _coerce(counts34)
    cache = _VALUE_CACHE  # the cached path of shanten(), for the engines that ask it every turn
    try:
        va = cache[b[0:9]]
        vp = cache[b[9:18]]
        vs = cache[b[18:27]]
        vh = cache[b[27:34]]
    except KeyError:
        va, vp, vs, vh = _group_values(b)
    melds = _MELDS_FOR_SIZE[(va + vp + vs + vh) & 63]
    if melds is None:
        raise _bad_size(b)
    comb = _COMBINE
    return _FINAL[melds][comb[comb[va >> 22][vp >> 22]][comb[vs >> 22][vh >> 22]]]


# ---------------------------------------------------------------- three-player (sanma)
#
# A three-player hand holds no 2m-8m, so its manzu are 1m and 9m alone: they make triplets and
# pairs, never runs, exactly like two honour kinds. The four-player table would let a fourth 1m (or
# 9m) join a 123m run that sanma cannot make (1111m counts as two melds less two tiles there, one
# meld and a useless tile here), so the manzu group of a sanma hand is looked up in the honour table
# instead: code = count(1m) + 5 * count(9m). The other three groups are the same as in four-player.


def sanma_bytes(counts34: Sequence[int] | bytes | np.ndarray) -> bytes:
    """The 34 counts as bytes, checked as a three-player hand: no 2m-8m (and 0..4 copies each)."""
    b = _coerce(counts34)
    bad = [k for k in SANMA_ABSENT if b[k]]
    if bad:
        raise InvalidHandError(
            f"{_describe(list(b))} holds {tile_name(bad[0])}: three-player mahjong has no 2m-8m"
        )
    return b


def _sanma_man_value(b: bytes) -> int:
    """The packed facts of the manzu group of a sanma hand (1m and 9m as two honour-like kinds)."""
    _load()
    return _slice_value(bytes((b[0], b[8])), _HONOR_PARTS, _HONOR_IDS, b[0] + 5 * b[8])


def _sanma_values(b: bytes) -> tuple[int, int, int, int]:
    return (
        _sanma_man_value(b),
        _group_value(b[9:18], 9),
        _group_value(b[18:27], 18),
        _group_value(b[27:34], 27),
    )


def shanten_sanma(counts34: Sequence[int] | bytes | np.ndarray) -> int:
    """Shanten of a three-player hand (see above); :class:`InvalidHandError` for 2m-8m in it."""
    b = sanma_bytes(counts34)
    va, vp, vs, vh = _sanma_values(b)
    total = va + vp + vs + vh
    n = total & _SIZE_MASK
    final = _FINAL_BY_SIZE[n]
    if final is None:
        raise _bad_size(b)
    comb = _COMBINE
    best = final[comb[comb[va >> _ID_SHIFT][vp >> _ID_SHIFT]][comb[vs >> _ID_SHIFT][vh >> _ID_SHIFT]]]
    if n < 13:
        return best
    special = _SPECIAL_PLUS_1[total >> 6 & 0xFFFF] - 1
    return special if special < best else best


def _sanma_man_draws(b: bytes) -> tuple[tuple[int, int, int], ...]:
    """:func:`_draws` for the manzu of a sanma hand: only 1m and 9m can be drawn."""
    code = b[0] + 5 * b[8]
    out = []
    for i, step in ((0, 1), (8, 5)):
        c = b[i]
        if c < 4:
            out.append((i, _HONOR_IDS[code + step], _GROW_TERMINAL[c]))
    return tuple(out)


# ---------------------------------------------------------------- after one more tile (ukeire)

_POW5 = tuple(5**i for i in range(9))
_TERMINAL_SET = frozenset(TERMINALS_AND_HONORS)
# change of the summed seven-pairs / orphans fields when a kind held c times gets one more tile:
# a new kind (c == 0) or a new pair (c == 1); terminal and honour kinds count for the orphans too
_GROW = (1 << 4, 1, 0, 0)
_GROW_TERMINAL = (1 << 4 | 1 << 8, 1 | 1 << 12, 0, 0)


_DRAW_CACHE: dict[bytes, tuple[tuple[int, int, int], ...]] = {}


def _draws(key: bytes, start: int) -> tuple[tuple[int, int, int], ...]:
    """Per kind of a group slice that can still be drawn: (index in the group, row id after the draw,
    change of the seven pairs / orphans facts). The same for any suit, so keyed by the slice alone."""
    found = _DRAW_CACHE.get(key)
    if found is not None:
        return found
    ids = _HONOR_IDS if start == 27 else _SUIT_IDS
    code = _code(key)
    out = []
    for i, c in enumerate(key):
        if c < 4:
            grow = _GROW_TERMINAL[c] if start + i in _TERMINAL_SET else _GROW[c]
            out.append((i, ids[code + _POW5[i]], grow))
    if len(_DRAW_CACHE) >= _DRAW_CACHE_LIMIT:
        _DRAW_CACHE.clear()
    found = _DRAW_CACHE[key] = tuple(out)
    return found


def shanten_after_each_draw(b: bytes, sanma: bool = False) -> tuple[int, list[int | None]]:
    """Shanten of a 3n+1 hand (34 counts as bytes) and, per kind, of the hand with one more tile of it.

    Used by :mod:`mjcli.analysis.ukeire` and by the policies (keep the signature). Raises
    :class:`InvalidHandError` for a count above 4 or a hand that is not 1, 4, 7, 10 or 13 tiles.

    ``None`` where the hand already holds all four copies. The other three groups are combined once
    per group, and what a draw does to a group is cached per group slice, so a draw costs two list
    lookups (plus one for seven pairs / orphans at 13+ tiles). ``sanma``: a three-player hand (no
    2m-8m in it, none to draw: their entries stay ``None``).
    """
    if sanma:
        b = sanma_bytes(b)
        values = _sanma_values(b)
        man_draws: tuple[tuple[int, int, int], ...] | None = _sanma_man_draws(b)
    else:
        if len(b) != NUM_KINDS:
            b = _coerce(b)
        values = _group_values(b)
        man_draws = None
    ids = [v >> _ID_SHIFT for v in values]
    total = values[0] + values[1] + values[2] + values[3]
    n = total & _SIZE_MASK
    if n % 3 != 1 or n > 13:
        raise InvalidHandError(f"{_describe(list(b))} has {n} tiles; one more tile needs 1, 4, 7, 10 or 13")
    comb = _COMBINE
    current = _FINAL[n // 3][comb[comb[ids[0]][ids[1]]][comb[ids[2]][ids[3]]]]
    if n >= 13:
        current = min(current, _SPECIAL_PLUS_1[total >> 6 & 0xFFFF] - 1)
    after: list[int | None] = [None] * NUM_KINDS
    final = _FINAL[(n + 1) // 3]
    full = n + 1 >= 13
    fields = total >> 6 & 0xFFFF
    special = _SPECIAL_PLUS_1
    for g, start in enumerate(_GROUP_STARTS):
        o1, o2, o3 = (ids[j] for j in range(4) if j != g)
        with_rest = comb[comb[comb[o1][o2]][o3]]  # combine is symmetric
        if g == 0 and man_draws is not None:
            draws = man_draws
        else:
            draws = _draws(b[start : start + (7 if g == 3 else 9)], start)
        if full:
            for i, row, grow in draws:
                s = final[with_rest[row]]
                sp = special[fields + grow] - 1
                after[start + i] = sp if sp < s else s
        else:
            for i, row, _ in draws:
                after[start + i] = final[with_rest[row]]
    return current, after


# ---------------------------------------------------------------- batch


class _BatchTables:
    """numpy forms of the tables for the batch path, built on first use (a fraction of a second).

    Kept small (uint8/uint32) on purpose: the gathers hit these tables at random, and a 100k batch
    runs in a few milliseconds only while they stay in the CPU cache.
    """

    def __init__(self) -> None:
        import numpy as np

        _load()
        t = _tables.load()
        size = len(t.rows)
        # per group code: the summable facts of the single-hand path (tile count, seven pairs and
        # orphans fields; see _group_value) in the low 22 bits and the row id above them
        # the group codes come from one matrix product with these weights (5**i for kind i of a group)
        w = np.zeros((NUM_KINDS, 4), dtype=np.float32)
        for k in range(NUM_KINDS):
            g = min(k // 9, 3)
            w[k, g] = 5 ** (k - _GROUP_STARTS[g])
        self.weights = w
        self.suit = _packed_values(9, t.suit_ids, (0, 8))
        self.honor = _packed_values(7, t.honor_ids, tuple(range(7)))
        self.combine = t.combine.astype(np.uint8 if size <= 256 else np.uint16)
        # final[left, right, n]: regular shanten of a hand of n tiles whose man+pin row is ``left``
        # and sou+honour row is ``right``; 127 marks an illegal size
        whole = t.rows[t.combine.astype(np.intp)]  # (K, K, 5, 2)
        final = np.full((size, size, 64), 127, dtype=np.int8)
        for n in HAND_SIZES:
            final[:, :, n] = whole[:, :, n // 3, 1] - 1
        self.final = final
        # per 16 bits of summed facts above the tile count: min(seven pairs, orphans), which count
        # at 13 or 14 tiles only (see _special); 64k entries, not one per 22-bit sum (80 ms to build)
        self.special = (np.frombuffer(_SPECIAL_PLUS_1, dtype=np.uint8).astype(np.int16) - 1).astype(np.int8)
        # the sizes at which seven pairs and thirteen orphans count
        self.full = np.zeros(64, dtype=bool)
        self.full[[13, 14]] = True

    def special_of(self, facts: np.ndarray, regular: np.ndarray, tiles: np.ndarray) -> np.ndarray:
        """``regular`` lowered to seven pairs / thirteen orphans where the hand has 13 or 14 tiles."""
        import numpy as np

        special = self.special[(facts >> 6) & 0xFFFF]
        return np.where(self.full[tiles], np.minimum(regular, special), regular)


_batch_tables: _BatchTables | None = None


def _check_batch(arr: np.ndarray) -> None:
    import numpy as np

    if arr.ndim != 2 or arr.shape[1] != NUM_KINDS:
        raise InvalidHandError(f"batch must have shape (N, 34), got {arr.shape}")
    if arr.dtype.kind not in "iub":
        raise InvalidHandError(f"batch must hold integer counts, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() > 4):
        bad_rows = np.nonzero((arr < 0).any(axis=1) | (arr > 4).any(axis=1))[0]
        row = int(bad_rows[0])
        k = int(np.argmax((arr[row] < 0) | (arr[row] > 4)))
        copies = f"{int(arr[row, k])} copies of {tile_name(k)}"
        raise InvalidHandError(f"batch row {row} has {copies} (0 to 4 allowed)")


# Rows per matrix product in _group_codes_batch: OpenBLAS runs a product of M x 34 x 4 on one thread
# while M * 34 * 4 <= 262144; threads help nothing this small and cost a lot on a busy machine.
_CODE_CHUNK = 1536


def _group_codes_batch(arr: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Base-5 codes of the four groups of every row, shape (4, N): a float32 matrix product (exact:
    every code is below 5**9 < 2**24), done in chunks that stay in the CPU cache and on one thread."""
    import numpy as np

    out = np.empty((len(arr), 4), dtype=np.float32)
    for i in range(0, len(arr), _CODE_CHUNK):
        np.matmul(arr[i : i + _CODE_CHUNK].astype(np.float32), weights, out=out[i : i + _CODE_CHUNK])
    return out.T.astype(np.intp)


def shanten_batch(hands: np.ndarray, sanma: bool = False) -> np.ndarray:
    """Shanten of each row of an ``(N, 34)`` array of counts, as int8; same numbers as :func:`shanten`
    (with ``sanma``, as :func:`shanten_sanma`: three-player hands, a row holding 2m-8m is an error).

    Rows may have different legal sizes. Raises :class:`InvalidHandError` naming the first bad row.
    """
    import numpy as np

    arr = np.asarray(hands)
    _check_batch(arr)
    if len(arr) == 0:
        return np.zeros(0, dtype=np.int8)
    out = shanten_rows(arr, sanma)
    if out.max() == 127:
        bad = int(np.argmax(out == 127))
        sizes = ", ".join(map(str, HAND_SIZES))
        what = f"batch row {bad} ({_describe(arr[bad].tolist())})"
        raise InvalidHandError(f"{what} has {int(arr[bad].sum())} tiles; expected {sizes}")
    return out


def shanten_rows(arr: np.ndarray, sanma: bool = False) -> np.ndarray:
    """:func:`shanten_batch` of rows already known to hold 0..4 copies each (not checked), with 127
    for a row of an illegal size instead of an error (``sanma``: three-player rows, 2m-8m refused)."""
    import numpy as np

    global _batch_tables
    bt = _batch_tables or _BatchTables()
    _batch_tables = bt
    man, pin, sou, honor = _group_codes_batch(arr, bt.weights)
    if sanma:
        absent = arr[:, list(SANMA_ABSENT)]
        if absent.any():
            row = int(np.argmax(absent.any(axis=1)))
            k = SANMA_ABSENT[int(np.argmax(absent[row] > 0))]
            what = f"batch row {row} ({_describe(arr[row].tolist())})"
            raise InvalidHandError(f"{what} holds {tile_name(k)}: three-player mahjong has no 2m-8m")
        man = bt.honor[arr[:, 0].astype(np.intp) + 5 * arr[:, 8].astype(np.intp)]
    else:
        man = bt.suit[man]
    pin = bt.suit[pin]
    sou = bt.suit[sou]
    honor = bt.honor[honor]
    # uint32 sums may wrap in the id bits; the facts below them are exact
    facts = (man + pin + sou + honor) & np.uint32((1 << _ID_SHIFT) - 1)
    comb = bt.combine
    left = comb[man >> _ID_SHIFT, pin >> _ID_SHIFT]
    right = comb[sou >> _ID_SHIFT, honor >> _ID_SHIFT]
    tiles = facts & _SIZE_MASK
    return bt.special_of(facts, bt.final[left, right, tiles], tiles)


def shanten_after_draws_rows(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows of 3n+1 hands (0..4 copies each, legal sizes; not checked): the shanten of each,
    ``(N,)`` int8, and after drawing each kind, ``(N, 34)`` int8 (meaningless where a row holds
    four of the kind: the caller masks those).

    A draw changes one group only, so the other three groups are looked up once per row and a draw
    costs a lookup of its group's new code, one ``combine`` with the other group of its pair (man
    with pin, sou with honours) and the final lookup, instead of a whole hand's lookups per draw
    (3-4x less work than 34 rows through :func:`shanten_rows`)."""
    import numpy as np

    global _batch_tables
    bt = _batch_tables or _BatchTables()
    _batch_tables = bt
    n = len(arr)
    codes = _group_codes_batch(arr, bt.weights)  # (4, N)
    values = np.stack([bt.suit[codes[0]], bt.suit[codes[1]], bt.suit[codes[2]], bt.honor[codes[3]]])
    low = np.uint32((1 << _ID_SHIFT) - 1)
    facts = values & low  # (4, N)
    ids = (values >> _ID_SHIFT).astype(np.intp)
    total = facts.sum(axis=0, dtype=np.uint32)
    size = bt.combine.shape[0]
    comb = bt.combine
    left = comb[ids[0], ids[1]].astype(np.intp)
    right = comb[ids[2], ids[3]].astype(np.intp)
    tiles = (total & _SIZE_MASK).astype(np.intp)
    final = bt.final
    current = bt.special_of(total, final[left, right, tiles], tiles)
    # per kind: its group, the base-5 step of one more of it, the group paired with it
    t = _draw_layout()
    # the group's code after the draw (a kind held 4 times gives a wrong code, clipped into the
    # table: the caller masks those); suits and honours each gather from their own table only
    new_codes = codes[t.group] + t.step[:, None]  # (34, N)
    new_values = np.empty((NUM_KINDS, n), dtype=np.uint32)
    np.take(bt.suit, np.minimum(new_codes[:27], len(bt.suit) - 1), out=new_values[:27])
    np.take(bt.honor, np.minimum(new_codes[27:], len(bt.honor) - 1), out=new_values[27:])
    new_ids = (new_values >> _ID_SHIFT).astype(np.intp)
    # the draw's group with the other group of its pair (man-pin or sou-honours), then the whole
    # hand with the other pair: flat indices into combine and final
    pair = bt.combine.ravel()[new_ids * size + ids[t.partner]].astype(np.intp)
    after_tiles = tiles + 1
    index = np.empty((NUM_KINDS, n), dtype=np.intp)
    index[:18] = (pair[:18] * size + right) * 64 + after_tiles
    index[18:] = (left * size + pair[18:]) * 64 + after_tiles
    regular = final.ravel()[index]
    new_facts = total[None, :] - facts[t.group] + (new_values & low)
    after = bt.special_of(new_facts, regular, after_tiles[None, :])

    return current, np.ascontiguousarray(after.T)


def improving_after_draws_rows(arr: np.ndarray, kinds_first: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """For rows of 3n+1 hands (0..4 copies each, legal sizes; not checked): the shanten of each,
    ``(N,)`` int8, and which kinds lower it when drawn, ``(N, 34)`` bool, or ``(34, N)`` with
    ``kinds_first`` (the layout the draws are computed in: no transpose; see below) (a kind held four times
    never): ``after < current`` of :func:`shanten_after_draws_rows` (and of the one-hand path), with
    less work, for callers that need no more than that (ukeire, a discard table).

    Where the work goes and what is saved (bench row ``shanten - --json --fields
    hand,size,shanten,ukeire,discards``: 0.8 -> 0.45 s CPU of the 654k rows of 100k hands):

    * a draw changes one group and lowers the shanten by at most one, so only the regular form is
      looked up per draw, and in narrow tables (row ids as bytes, ``combine`` and the final shanten by
      melds: 162 KB, cache-resident) with the other group's and the other pair's part of each flat
      index added once per row; seven pairs and thirteen orphans after a draw follow from the row's
      own counts and the drawn kind's copies (:class:`_DrawTables`, ``special``): one gather in a
      160-entry table instead of the packed facts' sum and lookup per draw;
    * the draws are laid out kind by kind, rows innermost (numpy's loops run over the rows, not over
      a kind's 9 draws), in steps of :data:`_IMPROVING_CHUNK` rows;
    * ``kinds_first`` keeps that layout in the answer: turning it into rows of kinds is a byte-by-byte
      strided copy, ~0.08 s of CPU for the 654k rows of 100k hands, that a caller needing only a sum
      over the kinds (the ukeire of each discard) does without.
    """
    import numpy as np

    global _batch_tables, _draw_tables
    bt = _batch_tables or _BatchTables()
    _batch_tables = bt
    dt = _draw_tables or _DrawTables()
    _draw_tables = dt
    n = len(arr)
    size = dt.size
    codes = _group_codes_batch(arr, bt.weights)  # (4, N)
    values = np.empty((4, n), dtype=np.uint32)
    np.take(bt.suit, codes[:3], out=values[:3])
    np.take(bt.honor, codes[3], out=values[3])
    ids = (values >> _ID_SHIFT).astype(np.intp)
    facts = (values & np.uint32((1 << _ID_SHIFT) - 1)).sum(axis=0, dtype=np.uint32)
    tiles = (facts & _SIZE_MASK).astype(np.intp)
    pairs, kinds, end_kinds, end_pairs = (
        ((facts >> shift) & 15).astype(np.int16) for shift in (6, 10, 14, 18)
    )
    left = dt.combine[ids[0] * size + ids[1]].astype(np.intp)
    right = dt.combine[ids[2] * size + ids[3]].astype(np.intp)
    melds = (tiles // 3) * (size * size)  # a draw keeps the melds needed: 3n+1 -> 3n+2 tiles
    regular = dt.regular[melds + left * size + right]
    seven_pairs = 6 - pairs + np.maximum(7 - kinds, 0)
    orphans = 13 - end_kinds - (end_pairs > 0)
    full = tiles == 13  # the special forms count at 13 tiles, and at the 14 after a draw
    current = np.where(full, np.minimum(regular, np.minimum(seven_pairs, orphans)), regular).astype(np.int8)
    # a draw lowers seven pairs or orphans by at most one: only where that form is the row's shanten
    # can it be what improves (see _DrawTables.special for the four bits)
    special_row = (
        (full & (seven_pairs == current)) * 8
        + (kinds < 7) * 4
        + (full & (orphans == current)) * 2
        + (end_pairs == 0)
    ).astype(np.uint8) * 10
    # per group drawn into: the flat index of `combine` is the new id's part (_DrawTables.new_ids) +
    # the other group of its pair's part, and that of `regular` the pair's part + the other pair's
    partner = np.stack([ids[1], ids[0] * size, ids[3], ids[2] * size])
    rest_left, rest_right = melds + right, melds + left * size
    rest = (rest_left, rest_left, rest_right, rest_right)
    improving = np.empty((NUM_KINDS, n) if kinds_first else (n, NUM_KINDS), dtype=bool)
    for i in range(0, n, _IMPROVING_CHUNK):
        j = i + _IMPROVING_CHUNK
        held = np.ascontiguousarray(arr[i:j].T)  # (34, rows)
        now = current[i:j]
        lower = np.empty(held.shape, dtype=bool)
        for g, (start, end) in enumerate(_GROUP_SPANS):
            # a kind held four times gives a meaningless code here (clipped into the table): masked below
            new = np.take(dt.new_ids[g], codes[g, i:j] + dt.steps[g], mode="clip")
            pair = np.take(dt.pair_of[g], new + partner[g, i:j])
            np.less(np.take(dt.regular, pair + rest[g][i:j]), now, out=lower[start:end])
        better = np.take(dt.special, special_row[i:j] + (held + dt.special_column))
        better |= lower
        better &= held < 4
        if kinds_first:
            improving[:, i:j] = better
        else:
            improving[i:j] = better.T
    return current, improving


#: rows per step of improving_after_draws_rows: 34 draws each, ~140k a step, whose temporaries stay in
#: the CPU cache
_IMPROVING_CHUNK = 4096
_GROUP_SPANS = ((0, 9), (9, 18), (18, 27), (27, NUM_KINDS))


class _DrawTables:
    """The narrow tables of :func:`improving_after_draws_rows` (built on first use, ~6 MB).

    * ``new_ids[g]``: the row id of each code of group g, times the step that places it in the flat
      index of ``combine`` (the man and sou ids come first in their pair: times K; pin and honours
      second: times 1), as uint16 / uint8;
    * ``pair_of[g]``: ``combine`` flat, its ids times the step that places them in ``regular``'s flat
      index (the man-pin pair first: times K; sou-honours second: times 1);
    * ``regular[m, left, right]``: the regular shanten of a hand needing m melds and a pair whose two
      pairs of groups have those row ids (int8, flat);
    * ``special[row bits * 10 + 5 * (terminal or honour) + copies held]``: whether drawing a kind held
      that many times lowers seven pairs or thirteen orphans below the row's shanten. Row bits:
      8 seven pairs is the shanten (at 13 tiles), 4 fewer than seven kinds held, 2 orphans is the
      shanten, 1 no terminal pair. As `mahjong` counts: seven pairs = 6 - pairs + max(0, 7 - kinds)
      drops by one when a single becomes a pair, or a new kind comes while fewer than seven are held;
      orphans = 13 - terminal kinds - (a terminal pair) drops when a new terminal kind comes, or a
      terminal single becomes the first pair. A kind held four times is never drawn.
    """

    def __init__(self) -> None:
        import numpy as np

        t = _tables.load()
        size = self.size = len(t.rows)
        id_type = np.uint16 if size * size <= 1 << 16 else np.uint32
        suit_ids = t.suit_ids.astype(np.uint8 if size <= 256 else np.uint16)
        honor_ids = t.honor_ids.astype(suit_ids.dtype)
        combine = t.combine.astype(id_type).ravel()
        self.new_ids = (suit_ids.astype(id_type) * size, suit_ids, suit_ids.astype(id_type) * size, honor_ids)
        self.pair_of = (combine * size, combine * size, combine, combine)
        self.combine = combine
        whole = t.rows[t.combine.astype(np.intp)]  # (K, K, melds, pairs)
        self.regular = np.ascontiguousarray(np.moveaxis(whole[:, :, :, 1], 2, 0)).astype(np.int8).ravel() - 1
        self.steps = [
            np.array([5**i for i in range(end - start)], dtype=np.intp)[:, None]
            for start, end in _GROUP_SPANS
        ]
        column = np.zeros((NUM_KINDS, 1), dtype=np.uint8)
        column[list(TERMINALS_AND_HONORS)] = 5
        self.special_column = column
        special = np.zeros((16, 2, 5), dtype=bool)
        for bits in range(16):
            pairs_tight, few_kinds, orphans_tight, no_end_pair = (bits >> s & 1 for s in (3, 2, 1, 0))
            for end in range(2):
                for held in range(4):
                    pairs_lower = pairs_tight and (held == 1 or (held == 0 and few_kinds))
                    orphans_lower = end and orphans_tight and (held == 0 or (held == 1 and no_end_pair))
                    special[bits, end, held] = bool(pairs_lower or orphans_lower)
        self.special = special.ravel()


_draw_tables: _DrawTables | None = None


class _DrawLayout:
    def __init__(self) -> None:
        import numpy as np

        group = [min(k // 9, 3) for k in range(NUM_KINDS)]
        self.group = np.array(group, dtype=np.intp)
        self.step = np.array([5 ** (k - _GROUP_STARTS[g]) for k, g in enumerate(group)], dtype=np.intp)
        self.partner = np.array([g ^ 1 for g in group], dtype=np.intp)


_draw_layout_cached: _DrawLayout | None = None


def _draw_layout() -> _DrawLayout:
    global _draw_layout_cached
    if _draw_layout_cached is None:
        _draw_layout_cached = _DrawLayout()
    return _draw_layout_cached
