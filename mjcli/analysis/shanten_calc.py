"""Shanten of a hand given as 34 counts: one hand in pure Python, or a numpy batch.

The number is the same as ``mahjong``'s ``Shanten.calculate_shanten`` (tests check this): -1 complete,
0 tenpai, k tiles from tenpai otherwise; the minimum of the regular form (n melds and a pair for a
hand of 3n+1 or 3n+2 tiles, the missing melds being open ones), seven pairs and thirteen orphans,
the last two only for hands of 13 or 14 tiles. Legal sizes are 1, 2, 4, 5, 7, 8, 10, 11, 13 and 14.

How it is fast (see :mod:`mjcli.analysis.tables` for the tables):

* one hand: ``bytes(counts)`` is cut into the four groups (man, pin, sou, honours) and each 9- or
  7-byte slice is looked up in a dict from slice to distance-row id. The dicts start empty and fill
  as slices are met (a miss costs one base-5 code); they hold at most the 405k suit and 78k honour
  patterns that a hand can have. The row ids are combined with three lookups in ``combine``.
* batch: one float32 matrix product gives every group's base-5 code and the tile count, then the
  same lookups are numpy gathers over the whole batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numpy as np

from mjcli.analysis import tables as _tables
from mjcli.errors import InvalidHandError
from mjcli.tiles import NUM_KINDS, TERMINALS_AND_HONORS, counts_to_kinds, tile_name, to_mpsz

HAND_SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
AGARI = -1
TENPAI = 0

#: melds needed (besides the pair) for a hand of that many tiles; None marks an illegal size
_MELDS_FOR_SIZE: tuple[int | None, ...] = tuple(n // 3 if n in HAND_SIZES else None for n in range(64))
_GROUP_STARTS = (0, 9, 18, 27)

_TABLES = _tables.load()
#: _FINAL[melds][row id] = regular shanten of a whole hand whose combined row is that id
_FINAL: list[list[int]] = [(_TABLES.rows[:, m, 1].astype(int) - 1).tolist() for m in range(5)]
_COMBINE: list[list[int]] = _TABLES.combine.tolist()
_SUIT_ID_OF_CODE: list[int] = _TABLES.suit_ids.tolist()
_HONOR_ID_OF_CODE: list[int] = _TABLES.honor_ids.tolist()

# base-5 code of a 5-, 4- or 2-byte slice of counts (each 0..4); a slice with a 5+ is missing
_CODE5 = {bytes(d): sum(c * 5**i for i, c in enumerate(d)) for d in product(range(5), repeat=5)}
_CODE4 = {bytes(d): sum(c * 5**i for i, c in enumerate(d)) for d in product(range(5), repeat=4)}
_CODE2 = {bytes(d): sum(c * 5**i for i, c in enumerate(d)) for d in product(range(5), repeat=2)}

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


def _special(fields: int) -> int:
    """min(seven pairs, thirteen orphans) from the 16 summed bits after the tile count."""
    pairs, kinds, t_kinds, t_pairs = (fields >> s & 15 for s in (0, 4, 8, 12))
    # exactly as `mahjong` counts them (a kind held 3 or 4 times is one pair)
    chiitoi = -1 if pairs == 7 else 6 - pairs + (7 - kinds if kinds < 7 else 0)
    kokushi = 13 - t_kinds - (1 if t_pairs else 0)
    return min(chiitoi, kokushi)


_SPECIAL: list[int] = [_special(f) for f in range(1 << 16)]


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
    try:
        code = _code(key)
    except KeyError:
        i = max(range(len(key)), key=lambda j: key[j])
        copies = f"{key[i]} copies of {tile_name(start + i)}"
        raise InvalidHandError(f"counts have {copies} (0 to 4 allowed)") from None
    size = sum(key)
    if size > 14:
        raise _bad_size(bytes(start) + key + bytes(NUM_KINDS - start - len(key)))
    if start < 27:
        row = _SUIT_ID_OF_CODE[code]
        term = key[0:1] + key[8:9]
    else:
        row = _HONOR_ID_OF_CODE[code]
        term = key
    pairs = sum(1 for c in key if c >= 2)
    kinds = sum(1 for c in key if c)
    t_pairs = sum(1 for c in term if c >= 2)
    t_kinds = sum(1 for c in term if c)
    value = size | pairs << 6 | kinds << 10 | t_kinds << 14 | t_pairs << 18 | row << _ID_SHIFT
    _VALUE_CACHE[key] = value
    return value


def _group_values(b: bytes) -> tuple[int, int, int, int]:
    return (
        _group_value(b[0:9], 0),
        _group_value(b[9:18], 9),
        _group_value(b[18:27], 18),
        _group_value(b[27:34], 27),
    )


def group_codes(b: bytes) -> tuple[int, int, int, int]:
    """Base-5 codes of man, pin, sou and honours (``b`` already checked)."""
    return _code(b[0:9]), _code(b[9:18]), _code(b[18:27]), _code(b[27:34])


# ---------------------------------------------------------------- one hand


def shanten(counts34: Sequence[int] | bytes | np.ndarray) -> int:
    """Shanten of one hand: min of regular, seven pairs and thirteen orphans (those two at 13/14 tiles).

    ``counts34`` holds how many of each kind 0..33 the hand has (a list, tuple, bytes or numpy row).
    Raises :class:`InvalidHandError` for a count outside 0..4 or an illegal number of tiles.
    """
    # The hot path, all inline: the input checks come from the lookups failing (a slice with a count
    # above 4 or more than 14 tiles is never cached, and the size check reads the summed tile count).
    try:
        b = bytes(counts34)
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
    melds = _MELDS_FOR_SIZE[n]
    if melds is None:
        raise _bad_size(b)
    comb = _COMBINE
    best = _FINAL[melds][comb[comb[va >> 22][vp >> 22]][comb[vs >> 22][vh >> 22]]]
    if n < 13:
        return best
    special = _SPECIAL[total >> 6 & 0xFFFF]
    return special if special < best else best


def shanten_regular(counts34: Sequence[int] | bytes | np.ndarray) -> int:
    """Shanten of the regular form only (n melds and a pair), for every legal hand size."""
    try:
        b = bytes(counts34)
    except (TypeError, ValueError):
        b = _coerce(counts34)
    if len(b) != 34:
        b = _coerce(counts34)
    va, vp, vs, vh = _group_values(b)
    melds = _MELDS_FOR_SIZE[(va + vp + vs + vh) & 63]
    if melds is None:
        raise _bad_size(b)
    comb = _COMBINE
    return _FINAL[melds][comb[comb[va >> 22][vp >> 22]][comb[vs >> 22][vh >> 22]]]


# ---------------------------------------------------------------- after one more tile (ukeire)

_POW5 = tuple(5**i for i in range(9))
_TERMINAL_SET = frozenset(TERMINALS_AND_HONORS)
# change of the summed seven-pairs / orphans fields when a kind held c times gets one more tile:
# a new kind (c == 0) or a new pair (c == 1); terminal and honour kinds count for the orphans too
_GROW = (1 << 4, 1, 0, 0)
_GROW_TERMINAL = (1 << 4 | 1 << 8, 1 | 1 << 12, 0, 0)


def shanten_after_each_draw(b: bytes) -> tuple[int, list[int | None]]:
    """Shanten of a checked 3n+1 hand and, per kind, of the hand with one more tile of that kind.

    ``None`` where the hand already holds all four copies. The other three groups are combined once
    per group, so each draw costs one code lookup and one ``combine`` lookup.
    """
    values = _group_values(b)
    ids = [v >> _ID_SHIFT for v in values]
    total = sum(values)
    n = total & _SIZE_MASK
    after: list[int | None] = [None] * NUM_KINDS
    final = _FINAL[(n + 1) // 3]
    comb = _COMBINE
    codes = group_codes(b)
    full = n + 1 >= 13
    fields = total >> 6 & 0xFFFF
    for g, start in enumerate(_GROUP_STARTS):
        others = [ids[j] for j in range(4) if j != g]
        rest = comb[comb[others[0]][others[1]]][others[2]]
        id_of_code = _HONOR_ID_OF_CODE if g == 3 else _SUIT_ID_OF_CODE
        code = codes[g]
        for i in range(7 if g == 3 else 9):
            k = start + i
            c = b[k]
            if c == 4:
                continue
            best = final[comb[id_of_code[code + _POW5[i]]][rest]]
            if full:
                # one more tile: a new kind (c == 0) or a new pair (c == 1), maybe of a terminal kind
                grow = _GROW_TERMINAL[c] if k in _TERMINAL_SET else _GROW[c]
                special = _SPECIAL[fields + grow]
                if special < best:
                    best = special
            after[k] = best
    return shanten(b), after


# ---------------------------------------------------------------- batch


class _BatchTables:
    """numpy forms of the tables for the batch path, built on first use (about 0.1 s)."""

    def __init__(self) -> None:
        t = _TABLES
        self.suit_ids = t.suit_ids.astype(np.intp)
        self.honor_ids = t.honor_ids.astype(np.intp)
        self.combine = t.combine.astype(np.intp)
        # final[row, n]: regular shanten of a whole hand of n tiles; 127 marks an illegal size
        final = np.full((len(t.rows), 64), 127, dtype=np.int8)
        for n in HAND_SIZES:
            final[:, n] = t.rows[:, n // 3, 1] - 1
        self.final = final
        # one matrix product gives the four group codes
        w = np.zeros((NUM_KINDS, 4), dtype=np.float32)
        for k in range(NUM_KINDS):
            g = min(k // 9, 3)
            w[k, g] = 5 ** (k - _GROUP_STARTS[g])
        self.weights = w
        # per group code, the summable facts of the single-hand path (tile count, seven pairs and
        # orphans fields; see _group_value), and per sum of them, min(seven pairs, orphans) for a
        # hand of 13 or 14 tiles and 127 (no effect) for any other size
        self.suit_feat = self._features(_tables._digits(9), terminal_cols=(0, 8))
        self.honor_feat = self._features(_tables._digits(7), terminal_cols=tuple(range(7)))
        index = np.arange(1 << 22)
        size = index & _SIZE_MASK
        special = np.array(_SPECIAL, dtype=np.int8)[index >> 6]
        self.special = np.where((size == 13) | (size == 14), special, 127).astype(np.int8)

    @staticmethod
    def _features(digits: np.ndarray, terminal_cols: tuple[int, ...]) -> np.ndarray:
        d = digits.astype(np.int64)
        term = d[:, list(terminal_cols)]
        # groups of 15+ tiles never occur in a legal hand; cap them so that sums stay in their fields
        size = np.minimum(d.sum(1), 15)
        pairs = (d >= 2).sum(1)
        kinds = (d >= 1).sum(1)
        t_kinds = (term >= 1).sum(1)
        t_pairs = (term >= 2).sum(1)
        return (size | pairs << 6 | kinds << 10 | t_kinds << 14 | t_pairs << 18).astype(np.intp)


_batch_tables: _BatchTables | None = None


def _check_batch(arr: np.ndarray) -> None:
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


def shanten_batch(hands: np.ndarray) -> np.ndarray:
    """Shanten of each row of an ``(N, 34)`` array of counts, as int8; same numbers as :func:`shanten`.

    Rows may have different legal sizes. Raises :class:`InvalidHandError` naming the first bad row.
    """
    global _batch_tables
    bt = _batch_tables or _BatchTables()
    _batch_tables = bt
    arr = np.asarray(hands)
    _check_batch(arr)
    if len(arr) == 0:
        return np.zeros(0, dtype=np.int8)
    # float32 is exact here: every code is below 5**9 < 2**24
    codes = (arr.astype(np.float32) @ bt.weights).astype(np.intp)
    man, pin, sou, honor = codes.T
    sid = bt.suit_ids
    comb = bt.combine
    row = comb[comb[sid[man], sid[pin]], comb[sid[sou], bt.honor_ids[honor]]]
    feat = bt.suit_feat[man] + bt.suit_feat[pin] + bt.suit_feat[sou] + bt.honor_feat[honor]
    out = np.minimum(bt.final[row, feat & _SIZE_MASK], bt.special[feat])
    if out.max() == 127:
        bad = int(np.argmax(out == 127))
        sizes = ", ".join(map(str, HAND_SIZES))
        what = f"batch row {bad} ({_describe(arr[bad].tolist())})"
        raise InvalidHandError(f"{what} has {int(arr[bad].sum())} tiles; expected {sizes}")
    return out
