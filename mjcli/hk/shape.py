"""Hong Kong hand shapes: shanten, completeness and waits, with or without Red jokers.

Winning shapes are four sets and a pair (the regular form) and thirteen orphans; seven pairs is
not one (the default table has no such item). The regular form comes from
:func:`mjcli.analysis.shanten_regular` (the project's tables: ``mahjong``'s numbers), thirteen
orphans from its own count, only for a hand without melds and without jokers.

Jokers (Red) stand for any tile, with no limit of four copies (the Red design in
:mod:`mjcli.hk.rules`). The regular shanten of a hand with ``j`` jokers is
``max(floor, shanten(H + D) - j)``, where ``H`` are the real tiles, ``D`` are ``j`` isolated
dummy tiles (kinds absent from ``H``, with no tile of their suit within two: they join no set,
pair or partial set) and ``floor`` is -1 for a hand with a tile to discard (3n+2 tiles) and 0
otherwise. Why: putting one tile in place of another changes the regular shanten by at most
one, so ``j`` jokers cannot do better than ``-j``; and while the hand is above the floor there
is always a tile that lowers it (without the four-copy limit), which a joker can be, so each
joker does lower it by one. ``tests/test_hk_shape.py`` checks this against
trying every kind for every joker.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from mjcli.analysis import shanten_regular
from mjcli.analysis.shanten_calc import shanten as table_shanten
from mjcli.errors import InvalidHandError
from mjcli.tiles import NUM_KINDS

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


_ORPHAN_COUNTS = itemgetter(*ORPHANS)


def orphans_shanten(counts: Sequence[int]) -> int:
    """Thirteen-orphans shanten of a hand of 13 or 14 tiles (no melds)."""
    # the 13 counts fetched at once (the engine asks this for most hands at every discard)
    held = _ORPHAN_COUNTS(counts)
    return 13 - (13 - held.count(0)) - (max(held) >= 2)


def _dummies(counts: Sequence[int], n: int) -> list[int]:
    """``n`` distinct kinds absent from the hand that can join nothing: honours first, then number
    kinds with no tile of their suit (held or chosen) within two."""
    out: list[int] = [k for k in range(27, NUM_KINDS) if not counts[k]][:n]
    taken = [c > 0 for c in counts]
    k = 0
    while len(out) < n and k < 27:
        lo, hi = k - k % 9, k - k % 9 + 8
        if not any(taken[x] for x in range(max(lo, k - 2), min(hi, k + 2) + 1)):
            out.append(k)
            taken[k] = True
        k += 1
    if len(out) < n:  # cannot happen for a hand of at most 14 tiles: kept as a clear error
        raise InvalidHandError("no room for the jokers' dummy tiles")
    return out


def regular_shanten(counts: Sequence[int], jokers: int = 0) -> int:
    """Regular-form shanten of the concealed tiles (34 counts) and jokers; the size (with the
    jokers) is 3n+1 or 3n+2, the missing sets being the hand's melds."""
    if not jokers:
        return shanten_regular(counts)
    hand = list(counts)
    for k in _dummies(counts, jokers):
        hand[k] += 1
    floor = -1 if (sum(counts) + jokers) % 3 == 2 else 0
    return max(floor, shanten_regular(hand) - jokers)


def shanten(counts: Sequence[int], jokers: int = 0, melds: int = 0) -> int:
    """Shanten of a Hong Kong hand: the regular form, and thirteen orphans when it may apply."""
    if not melds and not jokers:
        # both forms in one lookup pass (the orphans at 13 or 14 tiles, as below): the engine asks
        # this of a hand at every discard
        return table_shanten(counts, seven_pairs=False)
    value = regular_shanten(counts, jokers)
    if not melds and not jokers and sum(counts) >= 13:
        value = min(value, orphans_shanten(counts))
    return value


def is_complete(counts: Sequence[int], jokers: int = 0, melds: int = 0) -> bool:
    """Four sets and a pair (with the melds), or thirteen orphans: 3n+2 concealed tiles."""
    return shanten(counts, jokers, melds) == -1


def _candidates(counts: Sequence[int], melds: int) -> list[int]:
    """Kinds that may complete a hand without jokers: held kinds, the number kinds within two of
    a held one, and every orphan when thirteen orphans may apply."""
    near = set()
    for k, c in enumerate(counts):
        if c:
            near.add(k)
            if k < 27:
                base = k - k % 9
                near.update(range(max(base, k - 2), min(base + 8, k + 2) + 1))
    if not melds:
        near.update(ORPHANS)
    return sorted(near)


def waits(counts: Sequence[int], jokers: int = 0, melds: int = 0) -> frozenset[int]:
    """Kinds that complete a hand of 3n+1 tiles (a kind held four times cannot come again)."""
    if shanten(counts, jokers, melds) != 0:
        return frozenset()
    hand = list(counts)
    out = []
    for k in range(NUM_KINDS) if jokers else _candidates(counts, melds):
        if hand[k] >= 4:
            continue
        hand[k] += 1
        if shanten(hand, jokers, melds) == -1:
            out.append(k)
        hand[k] -= 1
    return frozenset(out)
