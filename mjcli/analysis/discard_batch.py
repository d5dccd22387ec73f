"""The discard figures of many hands at once, in numpy: what ``replay`` asks of every hand of a log.

For an ``(N, 34)`` batch of 3n+2 four-player hands, :func:`discard_shanten_batch` gives the shanten
of each hand and the shanten left by discarding each kind held (the 3n+1 hand ``hand - kind``);
:func:`improving_batch` gives, for 3n+1 hands, their shanten and the kinds that lower it (the
improving kinds of :mod:`mjcli.analysis.ukeire`: a kind held four times is never one). The numbers
are those of the one-hand functions (:func:`~mjcli.analysis.shanten` and
:func:`~mjcli.analysis.shanten_calc.shanten_after_each_draw`): the same tables
(:func:`mjcli.analysis.tables.load`), looked up in numpy steps instead of one Python call per hand.

Why: a log's decision points are all known before any policy is asked, so their hands can be worked
out together (about 0.1 us a row in numpy against 25 us a hand one by one in Python). The lookups
read the distance tables through a form of their own (:func:`_lookup`, ~8 MB, built once a process
in ~15 ms): :func:`~mjcli.analysis.shanten_calc.shanten_batch`'s forms cost ~20 MB, and ~45 MB
while they are built, in every replay process. The drawn hands' group codes come from the hand's
by one addition, and the rows go through in chunks that keep the temporaries small.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from mjcli.analysis import tables

#: shanten after a discard of a kind the hand does not hold
NO_DISCARD = 127
#: rows per numpy step: small enough for the temporaries (a few hundred KB) to stay in the CPU cache,
#: and for OpenBLAS to run the codes' matrix product on one thread
_CHUNK = 1536


def _weights() -> np.ndarray:
    """(34, 4) float32: the base-5 code of each group is one matrix product (exact in float32: every
    code is below 5**9 < 2**24)."""
    w = np.zeros((34, 4), dtype=np.float32)
    for k in range(34):
        g = min(k // 9, 3)
        w[k, g] = 5 ** (k - 9 * g)
    return w


_ID_SHIFT = 22
_TILES_SHIFT = 16


def _group_values(num_kinds: int, row_ids: np.ndarray, ends: tuple[int, ...]) -> np.ndarray:
    """Per base-5 code of a group, its facts packed in a uint32: bits 0-3 the kinds held twice or
    more, 4-7 the kinds held, 8-11 the terminal or honour kinds held, 12-15 those held twice or more
    (seven pairs and thirteen orphans as `mahjong` counts them: a kind held three or four times is
    one pair), 16-21 the tiles, and from bit 22 the group's distance-row id. Every field but the id
    adds up over the four groups of a legal hand (at most 14 tiles: no field overflows).

    Built kind by kind as an outer sum (code = sum count[i] * 5**i), as the one-hand path's tables,
    and in place after that (the transient memory of a process counts: this is ~8 MB)."""
    values = np.zeros(1, dtype=np.uint32)
    counts = np.arange(5, dtype=np.uint32)
    for i in range(num_kinds):
        end = np.uint32(i in ends)
        two, one = (counts >= 2).astype(np.uint32), (counts >= 1).astype(np.uint32)
        part = two | one << 4 | (end & one) << 8 | (end & two) << 12 | counts << _TILES_SHIFT
        values = np.add.outer(part, values).reshape(-1)
    ids = row_ids.astype(np.uint32)
    ids <<= _ID_SHIFT
    values |= ids
    return values


def _special() -> np.ndarray:
    """min(seven pairs, thirteen orphans) shanten for each value of the packed facts' low 16 bits."""
    fields = np.arange(1 << 16)
    pairs, kinds, t_kinds, t_pairs = ((fields >> s) & 15 for s in (0, 4, 8, 12))
    chiitoi = np.where(pairs == 7, -1, 6 - pairs + np.maximum(7 - kinds, 0))
    kokushi = 13 - t_kinds - (t_pairs > 0)
    return np.minimum(chiitoi, kokushi).astype(np.int8)


_WEIGHTS = _weights()
#: the four groups: their first kind and their number of kinds
_GROUPS = ((0, 9), (9, 9), (18, 9), (27, 7))
#: (9,) intp: what one more tile of a group's i-th kind adds to the group's code
_POW5 = 5 ** np.arange(9, dtype=np.intp)
#: rows per step of the table lookups (their temporaries stay in the CPU cache)
_LOOKUP_CHUNK = 8192
#: hands per step of improving_batch's drawn lookups (up to 9 drawn hands each: ~300 KB temporaries,
#: and a replayed hanchan's ~3000 hands in one step; a third faster than 910 hands a step: replay,
#: 4 policies, one core)
_DRAW_CHUNK = 4096


@dataclass(frozen=True, slots=True)
class _Lookup:
    suit: np.ndarray  # (5**9,) uint32: packed values of a suit code
    honor: np.ndarray  # (5**7,) uint32: packed values of an honour code
    combine: np.ndarray  # (K * K,) uint8: row id of two groups' rows together
    size: int  # K
    regular: np.ndarray  # (K * 5,) int8: regular shanten of a whole hand's row at m melds (and a pair)
    special: np.ndarray  # (65536,) int8: see _special
    # (5 * K * K,) int8: at m * K * K + i * K + j, the regular shanten at m melds of rows i and j
    # together (``regular`` of ``combine``'s row, in one table read: ~160 KB)
    regular_of_pair: np.ndarray
    # (2 * 65536,) int8: ``special``, then 127 throughout (for hands under 13 tiles: one table read)
    special_or_none: np.ndarray


@functools.lru_cache(maxsize=1)
def _lookup() -> _Lookup:
    """The lookup forms of :func:`mjcli.analysis.tables.load`, built once a process (~8 MB)."""
    t = tables.load()
    size = len(t.rows)
    combine = t.combine.astype(np.uint8 if size <= 256 else np.uint16).reshape(-1)
    regular = t.rows[:, :, 1].astype(np.int8) - 1  # (K, 5)
    special = _special()
    return _Lookup(
        suit=_group_values(9, t.suit_ids, (0, 8)),
        honor=_group_values(7, t.honor_ids, tuple(range(7))),
        combine=combine,
        size=size,
        regular=regular.reshape(-1),
        special=special,
        regular_of_pair=np.ascontiguousarray(regular[combine].T).reshape(-1),
        special_or_none=np.concatenate([special, np.full(len(special), 127, dtype=np.int8)]),
    )


def shanten_of_rows(rows: np.ndarray) -> np.ndarray:
    """Shanten of each row of an ``(M, 34)`` uint8 array of four-player hands (0..4 copies, 1..14
    tiles, 3n+1 or 3n+2: not checked), as int8: :func:`mjcli.analysis.shanten` of each."""
    return _shanten_of_codes(_lookup(), _codes(rows))


def _codes(rows: np.ndarray) -> np.ndarray:
    """``(M, 4)`` intp: the base-5 code of each group of each row (a float32 matrix product, in
    chunks that OpenBLAS runs on one thread)."""
    out = np.empty((len(rows), 4), dtype=np.float32)
    for i in range(0, len(rows), _CHUNK):
        np.matmul(rows[i : i + _CHUNK].astype(np.float32), _WEIGHTS, out=out[i : i + _CHUNK])
    return out.astype(np.intp)


def _shanten_of_codes(lk: _Lookup, codes: np.ndarray) -> np.ndarray:
    out = np.empty(len(codes), dtype=np.int8)
    for i in range(0, len(codes), _LOOKUP_CHUNK):
        out[i : i + _LOOKUP_CHUNK] = _shanten_chunk(lk, codes[i : i + _LOOKUP_CHUNK])
    return out


def _shanten_chunk(lk: _Lookup, codes: np.ndarray) -> np.ndarray:
    v0, v1, v2 = lk.suit[codes[:, 0]], lk.suit[codes[:, 1]], lk.suit[codes[:, 2]]
    return _shanten_of_values(lk, v0, v1, v2, lk.honor[codes[:, 3]])


def _shanten_of_values(
    lk: _Lookup, v0: np.ndarray, v1: np.ndarray, v2: np.ndarray, v3: np.ndarray
) -> np.ndarray:
    """Shanten of hands given the packed values of their four groups."""
    facts = _facts([v0, v1, v2, v3])
    k = lk.size
    comb = lk.combine
    left = comb[(v0 >> _ID_SHIFT) * k + (v1 >> _ID_SHIFT)].astype(np.intp)
    right = comb[(v2 >> _ID_SHIFT) * k + (v3 >> _ID_SHIFT)]
    n = facts >> _TILES_SHIFT
    # the regular form at n // 3 melds and a pair; seven pairs and thirteen orphans at 13-14 tiles
    regular = lk.regular_of_pair[(n // 3) * (k * k) + left * k + right]
    special = lk.special_or_none[(facts & 0xFFFF) + np.where(n >= 13, 0, len(lk.special))]
    return np.minimum(regular, special)


@dataclass(frozen=True, slots=True)
class DiscardShanten:
    """What :func:`discard_shanten_batch` gives: per hand its shanten, and per (hand, kind held), in
    hand then kind order, the shanten of the hand left by discarding that kind."""

    shanten: np.ndarray  # (N,) int8: each hand's shanten
    hand: np.ndarray  # (M,) intp: the hand of each row (ascending)
    kind: np.ndarray  # (M,) intp: the kind discarded (ascending within a hand)
    after: np.ndarray  # (M,) int8: the shanten of the hand left
    left: np.ndarray  # (M, 34) uint8: the hand left
    least: np.ndarray  # (N,) int8: each hand's least shanten after a discard


def discard_shanten_batch(hands: np.ndarray) -> DiscardShanten:
    """For an ``(N, 34)`` batch of 3n+2 hands (0..4 copies each, 2..14 tiles: not checked): their
    shanten and the shanten after discarding each kind held (:class:`DiscardShanten`)."""
    hands = np.asarray(hands, dtype=np.uint8)
    rows, kinds = np.nonzero(hands)  # one 3n+1 row per (hand, kind held), row-major
    left = hands[rows]
    left[np.arange(len(rows)), kinds] -= 1
    after = shanten_of_rows(left)
    least = np.full(len(hands), NO_DISCARD, dtype=np.int8)
    np.minimum.at(least, rows, after)
    return DiscardShanten(shanten_of_rows(hands), rows, kinds, after, left, least)


def improving_batch(hands: np.ndarray) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """For an ``(N, 34)`` batch of 3n+1 hands (0..4 copies each, 1..13 tiles: not checked): the
    shanten of each, ``(N,)`` int8, and the kinds that lower it, a tuple per hand in kind order (kinds
    held four times excluded): :meth:`HandMath.improving_of
    <mjcli.riichi.policies.hand_math.HandMath.improving_of>` of every hand."""
    current, better = improving_masks(hands)
    return current, kinds_by_row(better)


def improving_masks(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`improving_batch` with the kinds that lower each hand's shanten as an ``(N, 34)`` bool
    row (True for such a kind), for sums over them in numpy (:func:`kinds_by_row` makes them tuples)."""
    hands = np.asarray(hands, dtype=np.uint8)
    lk = _lookup()
    codes = _codes(hands)
    current = _shanten_of_codes(lk, codes)
    # a draw adds one to one digit of one group's code, so only that group's value changes: the
    # drawn hands of each group are looked up from the hand's other three values as they are (one
    # table read a drawn hand, not four, and no (N, 34, 4) codes: replay, 4 policies, one core); a
    # kind held four times is not drawn (its code is left as is, and its value never read)
    can_draw = hands < 4
    after = np.empty((len(hands), 34), dtype=np.int8)
    step = _DRAW_CHUNK
    for i in range(0, len(hands), step):
        c = codes[i : i + step]
        own = [lk.suit[c[:, 0]], lk.suit[c[:, 1]], lk.suit[c[:, 2]], lk.honor[c[:, 3]]]
        tiles = _facts(own) >> _TILES_SHIFT
        for g, (first, n) in enumerate(_GROUPS):
            code = c[:, g, None]
            drawn = code + _POW5[:n] * can_draw[i : i + step, first : first + n]
            values = (lk.honor if g == 3 else lk.suit)[drawn]
            regular, special = _drawn_parts(lk, [v for j, v in enumerate(own) if j != g], tiles + 1)
            # the other three groups' row and facts worked out once a hand, the drawn group's added
            # in one table read each (regular_of_pair, special_or_none), where _shanten_of_values
            # made ~25 passes over the drawn hands (prepare_hands of 8 hanchan: 622 -> 547 M
            # instructions, callgrind; bench_speed: "replay, 4 policies, one core")
            np.minimum(
                lk.regular_of_pair[(values >> _ID_SHIFT) + regular],
                lk.special_or_none[(values & 0xFFFF) + special],
                out=after[i : i + step, first : first + n],
            )
    return current, (after < current[:, None]) & can_draw


def _facts(values: list[np.ndarray]) -> np.ndarray:
    """The packed values of groups added up, without their ids (whose sum may wrap: unread)."""
    total = values[0]
    for v in values[1:]:
        total = total + v
    return total & np.uint32((1 << _ID_SHIFT) - 1)


def _drawn_parts(lk: _Lookup, others: list[np.ndarray], tiles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For hands of which one group is drawn to, given the packed values of the other three groups
    ``(N,)`` each and the hands' tiles after the draw: the ``(N, 1)`` offsets that the drawn
    group's row id and low facts are added to in ``regular_of_pair`` and ``special_or_none`` (the
    three groups' row and the melds after the draw; their seven pairs / thirteen orphans facts, or
    the table's 127s for a hand under 13 tiles)."""
    k = lk.size
    a, b, c = (v >> _ID_SHIFT for v in others)
    rest = lk.combine[lk.combine[a * k + b].astype(np.intp) * k + c].astype(np.intp)
    regular = (tiles // 3).astype(np.intp) * (k * k) + rest * k
    special = (_facts(others) & 0xFFFF).astype(np.intp) + np.where(tiles >= 13, 0, len(lk.special))
    return regular[:, None], special[:, None]


def kinds_by_row(better: np.ndarray) -> list[tuple[int, ...]]:
    """The kinds (columns) set in each row of an ``(N, 34)`` bool array, a tuple per row."""
    rows, kinds = np.nonzero(better)
    # split the flat list of kinds by hand, in Python slices (no per-row numpy call)
    ends = np.cumsum(np.bincount(rows, minlength=len(better))).tolist()
    flat = kinds.tolist()
    out: list[tuple[int, ...]] = []
    start = 0
    for end in ends:
        out.append(tuple(flat[start:end]))
        start = end
    return out
