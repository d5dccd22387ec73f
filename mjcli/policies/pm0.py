"""The definitions and the Hong Kong PM0 machinery of seed ``000_0655bb32b8765f27.txt`` (MahjongJoy).

Written once for every variant of that seed (Riichi now, Hong Kong and Red later). Hands are 34
counts of the player's closed hand (``hand``); ``exposed`` are the 34 counts of the "exposed tiles"
(Fichas Expuestas): every river tile, the tiles of the open combinations, and in Riichi the dora
indicators. A tile kind's *pool* is ``4 - exposed``: the copies that are in the own hand or still
unseen, the only ones that can ever join the hand.

The seed's definitions, and the reading of each:

1. Exposed tiles: see above. The seed names the open combinations "of the other players"; the
   caller also counts the player's own open melds, which are just as visible and just as gone.
2. Dead tile: a hand tile that can no longer be part of any combination (chow, pong, kong, pair):
   fewer than two copies in its pool and every chow through it needs a kind whose pool is empty.
3. Problematic tile: a single honour of which 1 or 2 copies are exposed; a single number tile that
   can no longer be part of a chow but can still pair ("can only form part of a pair").
4. Unique tile: an honour held once; a number tile held once with no tile of its suit within 2.
5. Minor tile, a number tile that is not unique and whose discard keeps the maximum number of
   concealed combinations (see :func:`is_free`), and either (a) lies one tile beyond an incomplete
   two-tile run (``4`` in ``124``, ``2`` in ``245``: it "differs by 1" from the run's missing tile)
   or (b) is not itself a tile of an incomplete chow (``D1``/``D4`` of ``D1234``). This reading is
   the one that gives both of the seed's examples: minor ``B4 C2`` in ``B1 B2 B4 C2 C4 C5``, and
   minor ``B4 D1 D4`` in ``B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN`` (bullet (b) alone would make
   every tile of the first example minor, as no combination is complete).
6. Dead incomplete chow: two consecutive number tiles in hand whose completing kinds (below and
   above) have empty pools.
7. Dead pair: a kind held exactly twice whose other two copies are exposed.
8. Incomplete chow: two consecutive number tiles "without the third" (neither completing kind in
   hand) or two tiles two apart without the middle one; a tile counts as an incomplete-chow tile
   only when discarding it keeps the maximum of concealed combinations, so a tile of a complete
   chow (the 3 of 1235) is not one.

"Maximum number of concealed combinations" (bullet 5b) counts chows, pongs, kongs and pairs, at
most one same-kind group per kind; :func:`is_free` also asks that the number of complete sets stay
the same, because the priority list never offers tiles of complete chows or pongs: breaking 555
into 55 keeps the literal count but is not treated as minor. The claim rule counts only chows,
pongs and kongs, as the seed says.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from mjcli.tiles import is_honor, number_of, tile_name

# ---------------------------------------------------------------- kinds and pools


def _same_suit(a: int, b: int) -> bool:
    return 0 <= b < 27 and 0 <= a < 27 and a // 9 == b // 9


def _runs_with(k: int) -> list[tuple[int, int, int]]:
    if is_honor(k):
        return []
    n = number_of(k)
    base = k - (n - 1)
    return [(base + s - 1, base + s, base + s + 1) for s in range(max(1, n - 2), min(n, 7) + 1)]


def pool(k: int, exposed: Sequence[int]) -> int:
    """Copies of ``k`` that are in the own hand or unseen (4 minus the exposed ones)."""
    return max(0, 4 - exposed[k])


def chow_possible(k: int, exposed: Sequence[int]) -> bool:
    """Can some chow through ``k`` still be completed (every other kind of it has a copy left)?"""
    return any(all(pool(x, exposed) >= 1 for x in run if x != k) for run in _runs_with(k))


# ---------------------------------------------------------------- definitions 2-8


def is_dead(k: int, hand: Sequence[int], exposed: Sequence[int]) -> bool:
    """Definition 2: no pair, pong, kong or chow can ever contain this hand tile."""
    return hand[k] >= 1 and pool(k, exposed) < 2 and not chow_possible(k, exposed)


def is_problematic(k: int, hand: Sequence[int], exposed: Sequence[int]) -> bool:
    """Definition 3 (see the module notes)."""
    if hand[k] != 1 or is_dead(k, hand, exposed):
        return False
    if is_honor(k):
        return exposed[k] in (1, 2)
    return not chow_possible(k, exposed)


def dead_incomplete_chows(hand: Sequence[int], exposed: Sequence[int]) -> list[tuple[int, int]]:
    """Definition 6: consecutive pairs of number kinds in hand that no tile can complete."""
    out = []
    for a in range(27):
        b = a + 1
        if not _same_suit(a, b) or not (hand[a] and hand[b]):
            continue
        below = pool(a - 1, exposed) if _same_suit(a, a - 1) else 0
        above = pool(b + 1, exposed) if _same_suit(b, b + 1) else 0
        if below == 0 and above == 0:
            out.append((a, b))
    return out


def is_dead_pair(k: int, hand: Sequence[int], exposed: Sequence[int]) -> bool:
    """Definition 7: a pair whose pong can no longer be completed."""
    return hand[k] == 2 and pool(k, exposed) < 3


def is_unique(k: int, hand: Sequence[int]) -> bool:
    """Definition 4: an honour held once; a number held once with no tile of its suit within 2."""
    if hand[k] != 1:
        return False
    if is_honor(k):
        return True
    return not any(_same_suit(k, k + d) and hand[k + d] for d in (-2, -1, 1, 2))


def incomplete_chows(hand: Sequence[int]) -> list[tuple[int, int]]:
    """Definition 8: two-tile runs without their third tile in hand (``12`` without 3, ``35`` without 4)."""
    out = []
    for base in (0, 9, 18):
        v = hand[base : base + 9]
        for i in range(9):
            if not v[i]:
                continue
            if i + 1 < 9 and v[i + 1]:
                below = i > 0 and v[i - 1]
                above = i + 2 < 9 and v[i + 2]
                if not below and not above:
                    out.append((base + i, base + i + 1))
            if i + 2 < 9 and v[i + 2] and not v[i + 1]:
                out.append((base + i, base + i + 2))
    return out


@lru_cache(maxsize=1 << 16)
def _group_max(vec: tuple[int, ...], runs: bool, pairs: bool) -> tuple[int, int]:
    """(sets, sets+pairs) maximised lexicographically by combinations for one suit (or the honours)."""
    i = 0
    while i < len(vec) and vec[i] == 0:
        i += 1
    if i == len(vec):
        return (0, 0)
    best = (-1, -1)
    c = vec[i]
    groups = [(0, 0, 0)]  # (tiles used, sets, pairs)
    if pairs and c >= 2:
        groups.append((2, 0, 1))
    if c >= 3:
        groups.append((3, 1, 0))
    if c >= 4:
        groups.append((4, 1, 0))
    for used, s, p in groups:
        left = c - used
        max_runs = 0
        if runs and i + 2 < len(vec):
            max_runs = min(left, vec[i + 1], vec[i + 2])
        for r in range(max_runs + 1):
            rest = list(vec)
            rest[i] = 0
            if r:
                rest[i + 1] -= r
                rest[i + 2] -= r
            sub_sets, sub_all = _group_max(tuple(rest), runs, pairs)
            cand = (s + r + sub_sets, s + r + p + sub_all)
            # maximise the number of combinations first, then the number of complete sets
            if (cand[1], cand[0]) > (best[1], best[0]):
                best = cand
    return best


_STARTS = (0, 9, 18, 27)


def _group_vecs(hand: Sequence[int]) -> list[tuple[int, ...]]:
    return [tuple(hand[0:9]), tuple(hand[9:18]), tuple(hand[18:27]), tuple(hand[27:34])]


def _counts(vec: tuple[int, ...], g: int) -> tuple[int, int]:
    """(most combinations with pairs, most complete sets) of one group (g = 3 for the honours)."""
    runs = g < 3
    return _group_max(vec, runs, True)[1], _group_max(vec, runs, False)[0]


def max_combinations(hand: Sequence[int], pairs: bool = True) -> int:
    """The maximum number of concealed combinations: chows, pongs, kongs (and pairs if ``pairs``)."""
    return sum(_counts(vec, g)[0 if pairs else 1] for g, vec in enumerate(_group_vecs(hand)))


def max_sets(hand: Sequence[int]) -> int:
    """The maximum number of complete concealed sets (chow, pong, kong): the claim rule's count."""
    return max_combinations(hand, pairs=False)


def free_kinds(hand: Sequence[int]) -> frozenset[int]:
    """The kinds one copy of which can go while both the combinations and the sets stay at their most.

    Suits are independent, so only the group of the discarded kind is counted again.
    """
    out = set()
    for g, vec in enumerate(_group_vecs(hand)):
        base = _counts(vec, g)
        for i, c in enumerate(vec):
            if not c:
                continue
            less = list(vec)
            less[i] -= 1
            if _counts(tuple(less), g) == base:
                out.add(_STARTS[g] + i)
    return frozenset(out)


def is_free(k: int, hand: Sequence[int]) -> bool:
    """Does discarding one ``k`` keep both the combinations and the complete sets at their maximum?"""
    return k in free_kinds(hand)


def is_incomplete_chow_tile(
    k: int,
    hand: Sequence[int],
    chows: Sequence[tuple[int, int]] | None = None,
    free: frozenset[int] | None = None,
) -> bool:
    """A tile of an incomplete chow (definition 8) that no complete combination needs.

    ``chows`` and ``free`` may be passed precomputed (:func:`incomplete_chows`, :func:`free_kinds`).
    """
    chows = incomplete_chows(hand) if chows is None else chows
    if not any(k in pair for pair in chows):
        return False
    return k in (free_kinds(hand) if free is None else free)


def is_minor(
    k: int,
    hand: Sequence[int],
    chows: Sequence[tuple[int, int]] | None = None,
    free: frozenset[int] | None = None,
) -> bool:
    """Definition 5 (see the module notes for the reading)."""
    if is_honor(k) or not hand[k] or is_unique(k, hand):
        return False
    if k not in (free_kinds(hand) if free is None else free):
        return False
    chows = incomplete_chows(hand) if chows is None else chows
    for a, b in chows:
        if (
            b == a + 1
            and k not in (a, b)
            and ((k == a - 2 and _same_suit(a, k)) or (k == b + 2 and _same_suit(b, k)))
        ):
            return True
    return not any(k in pair for pair in chows)


# ---------------------------------------------------------------- the discard priorities

#: the seed's "Prioridades para descartar", in order (level names used in reasons)
PRIORITIES = (
    "dead tile",
    "problematic tile",
    "tile of a dead incomplete chow",
    "tile of a dead pair (more than one dead pair in hand)",
    "unique tile (not an honour)",
    "unique tile (dragon or wind)",
    "minor tile",
    "tile of an incomplete chow",
    "tile of a dead pair",
    "tile of a pair",
)
#: not in the seed: what is left (tiles of complete concealed chows and pongs), see discard_levels
BEYOND = "tile of a concealed chow or pong (beyond the priority list)"


def discard_levels(hand: Sequence[int], exposed: Sequence[int]) -> Iterator[tuple[str, list[int]]]:
    """Every priority level with the kinds of the hand in it, in priority order (lazily).

    A kind may appear at several levels; a policy takes the first level with a candidate and the
    first tile of it in hand order, so later levels are only computed when asked for. The last
    level (:data:`BEYOND`) holds, for hands where every tile belongs to a complete combination, the
    kinds whose discard keeps the most combinations, then every kind.
    """
    kinds = [k for k in range(34) if hand[k]]
    dead_pairs = [k for k in kinds if is_dead_pair(k, hand, exposed)]
    yield PRIORITIES[0], [k for k in kinds if is_dead(k, hand, exposed)]
    yield PRIORITIES[1], [k for k in kinds if is_problematic(k, hand, exposed)]
    yield PRIORITIES[2], sorted({k for pair in dead_incomplete_chows(hand, exposed) for k in pair})
    yield PRIORITIES[3], dead_pairs if len(dead_pairs) > 1 else []
    yield PRIORITIES[4], [k for k in kinds if not is_honor(k) and is_unique(k, hand)]
    yield PRIORITIES[5], [k for k in kinds if is_honor(k) and is_unique(k, hand)]
    chows = incomplete_chows(hand)
    free = free_kinds(hand)
    yield PRIORITIES[6], [k for k in kinds if is_minor(k, hand, chows, free)]
    yield PRIORITIES[7], [k for k in kinds if is_incomplete_chow_tile(k, hand, chows, free)]
    yield PRIORITIES[8], dead_pairs
    yield PRIORITIES[9], [k for k in kinds if hand[k] == 2]
    yield BEYOND, [k for k in kinds if k in free] + [k for k in kinds if k not in free]


def describe_kinds(kinds: Sequence[int]) -> str:
    return " ".join(tile_name(k) for k in kinds)
