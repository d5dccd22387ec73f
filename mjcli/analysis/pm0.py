"""The definitions and the Hong Kong PM0 machinery of seed ``000_0655bb32b8765f27.txt`` (MahjongJoy).

Written once for every variant of that seed and shared by the games that play it: the Riichi
bot (:mod:`mjcli.riichi.policies.mahjongjoy`) and the Hong Kong and Red bots
(:mod:`mjcli.hk.policies`). It knows tiles only, no game: hands are 34 counts of the player's
closed hand (``hand``); ``exposed`` are the 34 counts of the "exposed tiles" (Fichas Expuestas),
which each game gathers from its own table (see ``exposed_counts`` in either policy module).
A tile kind's *pool* is ``4 - exposed``: the copies that are in the own hand or still unseen, the
only ones that can ever join the hand.

The seed's definitions ("Definiciones" 1-8), quoted, and the reading of each:

1. "Fichas Expuestas son todas las fichas de descartes abiertos (Río) y de las combinaciones
   abiertas de otros jugadores (en las versiones Riichi esto incluye fichas Dora, Kan-Dora y Ura
   Kan-Dora)": gathered by the caller. Read literally: the player's own open melds are not
   exposed tiles.
2. "Una Ficha Muerta es una ficha en una mano propia cerrada que ya no puede formar parte de
   ninguna combinación mahjong [...] tampoco puede formar parte de una pareja": a hand tile with
   fewer than two copies in its pool (no pair, so no pong either) and every chow through it
   needing a kind whose pool is empty.
3. "Ficha Problemática": "cualquier ficha de Viento o de Dragón si una de esas fichas está en la
   mano al tiempo que las Fichas Expuestas contienen 1 o 2 de esas fichas" (a single honour with 1
   or 2 copies exposed); "cualquier ficha de número si una de esas fichas está en la mano y solo
   puede formar parte de una pareja": a single number tile that can join no chow (every chow
   through it needs a kind whose pool is empty) and no pong, but can still pair: its pool is
   exactly 2, i.e. exactly one copy is still unseen (2 copies exposed). Like the honour rule, it
   singles out a tile of which few copies are left.
4. "Ficha Única": an honour "cuando la mano cerrada solo contiene una de esas fichas"; a number
   tile "cuando la mano cerrada no contiene la misma ficha o una ficha que difiera en 1 o 2 de esa
   ficha": held once, with no tile of its suit within 2.
5. "Ficha Menor", two bullets, both for number tiles that are not unique:
   (a) "cualquier ficha de número que difiera en 1 de un Chow incompleto": a tile one beyond the
   missing end of a two-tile run (``4`` in ``124``: the run ``12`` misses ``3``; ``2`` in ``245``).
   (b) "cualquier ficha de número descartada que no disminuya el número máximo de combinaciones
   ocultas (Chow, Pong, Kong, Pareja)": counted with pairs, as the seed lists them, and nothing
   else: the ``5m`` of ``555m`` is minor (555 -> 55 keeps one combination).
   Read alone, (b) would make every tile of the seed's first example (``B1 B2 B4 C2 C4 C5``, no
   combination at all) minor, but the seed says "B1 B3 - una combinación incompleta así que B1 y
   B3 no son ni fichas únicas ni fichas menores" (there is no B3 in the hand: read as B1 B2, the
   incomplete chow next to the minor B4). So the seed's examples win: (b) leaves out the tiles
   of incomplete chows (definition 8), and (a) takes any tile beyond a run, even one of a
   two-apart shape (``B4`` of ``B2 B4``). (a) also asks that the discard keep the maximum of
   combinations, so that no complete chow is broken for it (the ``4`` of ``12456``). This gives
   both of the seed's examples: minor ``B4 C2`` in ``B1 B2 B4 C2 C4 C5``, and minor ``B4 D1 D4``
   in ``B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN``.
6. "Chow Incompleto Muerto": "dos fichas de número consecutivas de la mano cerrada que no pueden
   completarse como chow": two consecutive number tiles in hand whose completing kinds (below and
   above) have empty pools. Literally consecutive only: a two-apart shape is never a dead one.
7. "Pareja Muerta": a kind held exactly twice whose pong cannot be completed (pool below 3).
8. "Chow Incompleto": "dos fichas de número consecutivas sin la tercera o dos fichas de número que
   difieran en 2": two consecutive kinds without a completing kind in hand, or two kinds two apart
   without the middle one. As a priority level ("Fichas de Chow incompleto") a tile counts when
   discarding one copy keeps the maximum number of complete concealed sets (chow, pong, kong), so
   no tile of a complete chow goes there (the ``3`` of ``1235``); pairs are not looked at, so the
   ``2m`` of ``223m`` is a tile of the incomplete chow ``23m``.

"Maximum number of concealed combinations" counts, per suit, chows, pongs, kongs and (where the
seed lists them) pairs, at most one same-kind group per kind, maximised over every way to split the
hand. The claim rule (PM0 4, "solo Chow, Pong, Kong") counts complete sets only.

The discard priorities ("Prioridades para descartar") are :data:`PRIORITIES`, in the seed's order.

"La primera ficha" of a level needs an order of the hand. Every hand the seed writes is in one:
"B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN", "B1 B2 B4 C2 C4 C5": bamboo (sou), characters (man),
dots (pin), then the winds in the game's order (VS before VN: not alphabetical). The dragons never
appear in an example; they come after the winds, as the seed names the winds first ("ficha de
Viento o de Dragón"). That order is :func:`seed_rank`; the functions below that list kinds take it
as ``order`` (default: the kind order m, p, s, honours; both MahjongJoy bots, Riichi and Hong Kong,
pass :func:`seed_rank`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import compress, repeat
from operator import eq

from mjcli.tiles import is_honor, runs_with

#: entries of each memo below. They hold what a hand's groups were a moment before, so a few thousand
#: recent ones keep nearly every hit: replaying the shared Tenhou logs, 8192 entries keep the hits of
#: 65536 (within 0.4%), and on 100 distinct simulated hanchan within 3.5% (``_best_groups``) and
#: 1% (the others). Each entry costs 100-150 bytes, so 65536 filled as more distinct games were
#: read (~20 MB at 200 hanchan): bench row "peak memory by hanchan replayed"; CPU the same within
#: the noise (replay, 4 policies, one core).
MEMO_ENTRIES = 1 << 13

# ---------------------------------------------------------------- kinds and pools


def seed_rank(k: int) -> int:
    """A kind's place in the seed's hand order: B (sou) 1-9, C (man) 1-9, D (pin) 1-9, East South
    West North, White Green Red (0 first). See the module notes."""
    if k >= 27:
        return k
    suit, number = divmod(k, 9)
    return (1, 2, 0)[suit] * 9 + number  # man is C (second), pin D (third), sou B (first)


#: :func:`seed_rank` of every kind, read from a table (the same ranks; no call a kind compared; a
#: list's ``__getitem__``, quicker than a tuple's method wrapper: replay, 4 policies, one core).
#: Both MahjongJoy bots order their candidates by it.
SEED_RANK: Callable[[int], int] = [seed_rank(k) for k in range(34)].__getitem__


def _same_suit(a: int, b: int) -> bool:
    return 0 <= b < 27 and 0 <= a < 27 and a // 9 == b // 9


def pool(k: int, exposed: Sequence[int]) -> int:
    """Copies of ``k`` that are in the own hand or unseen (4 minus the exposed ones)."""
    return max(0, 4 - exposed[k])


#: for each kind, the other two kinds of every chow through it (none for an honour); the policies
#: ask these definitions at every decision, so the shapes are worked out once here
_RUN_OTHERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(x for x in run if x != k) for run in runs_with(k)) for k in range(34)
)
#: for each number kind k but a 9, the kinds that would complete the run k, k + 1 below and above
#: it (-1 where the suit ends); None for a 9 and an honour
_CHOW_SIDES: tuple[tuple[int, int] | None, ...] = tuple(
    ((k - 1 if k % 9 else -1), (k + 2 if k % 9 < 7 else -1)) if k < 27 and k % 9 < 8 else None
    for k in range(34)
)
#: for each number kind, the kinds of its suit within two of it (for definition 4)
_NEAR2: tuple[tuple[int, ...], ...] = tuple(
    tuple(k + d for d in (-2, -1, 1, 2) if _same_suit(k, k + d)) for k in range(34)
)


def chow_possible(k: int, exposed: Sequence[int]) -> bool:
    """Can some chow through ``k`` still be completed (every other kind of it has a copy left)?"""
    # a loop, not any() over a generator: asked for many tiles at every decision
    for a, b in _RUN_OTHERS[k]:  # noqa: SIM110
        if exposed[a] < 4 and exposed[b] < 4:
            return True
    return False


# ---------------------------------------------------------------- definitions 2-8


def is_dead(k: int, hand: Sequence[int], exposed: Sequence[int]) -> bool:
    """Definition 2: no pair, pong, kong or chow can ever contain this hand tile."""
    # pool(k) < 2 is exposed[k] > 2
    return hand[k] >= 1 and exposed[k] > 2 and not chow_possible(k, exposed)


def is_problematic(k: int, hand: Sequence[int], exposed: Sequence[int]) -> bool:
    """Definition 3: a single honour with 1 or 2 copies exposed; a single number tile that can only pair.

    A number tile "can only form part of a pair" when no chow through it can be completed and its
    pool is exactly 2 (one copy still unseen: a pair, never a pong).
    """
    if hand[k] != 1 or is_dead(k, hand, exposed):
        return False
    if k >= 27:
        return exposed[k] in (1, 2)
    return exposed[k] == 2 and not chow_possible(k, exposed)


def dead_incomplete_chows(hand: Sequence[int], exposed: Sequence[int]) -> list[tuple[int, int]]:
    """Definition 6: consecutive pairs of number kinds in hand that no tile can complete."""
    out = []
    for a in range(27):
        if not hand[a] or a % 9 == 8 or not hand[a + 1]:
            continue
        b = a + 1
        below = a % 9 and exposed[a - 1] < 4
        above = b % 9 != 8 and exposed[b + 1] < 4
        if not below and not above:
            out.append((a, b))
    return out


def is_dead_pair(k: int, hand: Sequence[int], exposed: Sequence[int]) -> bool:
    """Definition 7: a pair whose pong can no longer be completed."""
    return hand[k] == 2 and pool(k, exposed) < 3


def is_unique(k: int, hand: Sequence[int]) -> bool:
    """Definition 4: an honour held once; a number held once with no tile of its suit within 2."""
    if hand[k] != 1:
        return False
    if k >= 27:
        return True
    return not any(hand[x] for x in _NEAR2[k])


def incomplete_chows(hand: Sequence[int]) -> list[tuple[int, int]]:
    """Definition 8: two-tile runs without their third tile in hand (``12`` without 3, ``35`` without 4)."""
    out = []
    for k in range(27):
        if not hand[k]:
            continue
        i = k % 9
        if i < 8 and hand[k + 1] and not (i > 0 and hand[k - 1]) and not (i < 7 and hand[k + 2]):
            out.append((k, k + 1))
        if i < 7 and hand[k + 2] and not hand[k + 1]:
            out.append((k, k + 2))
    return out


def _group_max(vec: tuple[int, ...], runs: bool, pairs: bool) -> tuple[int, int]:
    """(sets, sets+pairs) maximised lexicographically by combinations for one suit (or the honours)."""
    return _best_groups(bytes(vec).strip(b"\0"), runs, pairs)


@lru_cache(maxsize=MEMO_ENTRIES)
def _best_groups(vec: bytes, runs: bool, pairs: bool) -> tuple[int, int]:
    """:func:`_group_max` of counts (as bytes) with no zero at either end, by trying every group
    the first kind can start: at most one same-kind group (pair, pong, kong) and any number of runs.

    Keyed by the trimmed counts, one entry serves a pattern wherever it lies in its suit (``3-4``
    is ``12`` as well as ``78``), and so do the sub-patterns the search meets: most lookups hit
    (bytes, whose strip() trims in C).
    """
    if not vec:
        return (0, 0)
    best = (-1, -1)
    c = vec[0]
    groups = [(0, 0, 0)]  # (tiles used, sets, pairs)
    if pairs and c >= 2:
        groups.append((2, 0, 1))
    if c >= 3:
        groups.append((3, 1, 0))
    if c >= 4:
        groups.append((4, 1, 0))
    for used, s, p in groups:
        max_runs = min(c - used, vec[1], vec[2]) if runs and len(vec) > 2 else 0
        for r in range(max_runs + 1):
            # the copies of the first kind left over join nothing: the search goes on after it
            rest = (bytes((vec[1] - r, vec[2] - r)) + vec[3:]).strip(b"\0") if r else vec[1:].lstrip(b"\0")
            sub_sets, sub_all = _best_groups(rest, runs, pairs)
            cand = (s + r + sub_sets, s + r + p + sub_all)
            # maximise the number of combinations first, then the number of complete sets
            if (cand[1], cand[0]) > (best[1], best[0]):
                best = cand
    return best


_STARTS = (0, 9, 18, 27)


def _group_vecs(hand: Sequence[int]) -> list[tuple[int, ...]]:
    return [tuple(hand[0:9]), tuple(hand[9:18]), tuple(hand[18:27]), tuple(hand[27:34])]


@lru_cache(maxsize=MEMO_ENTRIES)
def _counts(vec: tuple[int, ...], runs: bool) -> tuple[int, int]:
    """(most combinations with pairs, most complete sets) of one group (``runs``: a suit; False for
    the honours). Keyed by the pattern, not by its suit: a pattern met in one suit is known in the
    others (replay, 4 policies, one core)."""
    return _group_max(vec, runs, True)[1], _group_max(vec, runs, False)[0]


def max_combinations(hand: Sequence[int], pairs: bool = True) -> int:
    """The maximum number of concealed combinations: chows, pongs, kongs (and pairs if ``pairs``)."""
    return sum(_counts(vec, g < 3)[0 if pairs else 1] for g, vec in enumerate(_group_vecs(hand)))


def max_sets(hand: Sequence[int]) -> int:
    """The maximum number of complete concealed sets (chow, pong, kong): the claim rule's count."""
    # max_combinations(hand, pairs=False) written out: asked twice for every call a bot weighs
    return (
        _counts(tuple(hand[0:9]), True)[1]
        + _counts(tuple(hand[9:18]), True)[1]
        + _counts(tuple(hand[18:27]), True)[1]
        + _counts(tuple(hand[27:34]), False)[1]
    )


def _group_free(vec: tuple[int, ...], runs: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`free_kinds` within one group (``runs``: a suit; False for the honours): the indices
    (0-8) whose one copy can go keeping the most combinations with pairs, and those keeping the
    most sets. Not memoised: it is asked rarely (by :func:`free_kinds` at the last levels, and by
    :func:`_pattern_levels`, which is) and almost never twice for a group (0.2% hits on the shared
    Tenhou logs, 1.6% on distinct simulated games); the :func:`_counts` it asks are memoised."""
    base = _counts(vec, runs)
    combos: list[int] = []
    sets: list[int] = []
    for i, c in enumerate(vec):
        if not c:
            continue
        less = list(vec)
        less[i] -= 1
        after = _counts(tuple(less), runs)
        if after[0] == base[0]:
            combos.append(i)
        if after[1] == base[1]:
            sets.append(i)
    return tuple(combos), tuple(sets)


def free_kinds(hand: Sequence[int]) -> tuple[frozenset[int], frozenset[int]]:
    """(kinds one copy of which can go keeping the most combinations with pairs, ... the most sets).

    The first set is definition 5's test (minor tiles), the second definition 8's (tiles of an
    incomplete chow). Suits are independent, so only the group of the discarded kind is counted again.
    """
    combos: list[int] = []
    sets: list[int] = []
    for g, vec in enumerate(_group_vecs(hand)):
        c, s = _group_free(vec, g < 3)
        start = _STARTS[g]
        combos.extend(start + i for i in c)
        sets.extend(start + i for i in s)
    return frozenset(combos), frozenset(sets)


def is_incomplete_chow_tile(
    k: int,
    hand: Sequence[int],
    chows: Sequence[tuple[int, int]] | None = None,
    set_free: frozenset[int] | None = None,
) -> bool:
    """A tile of an incomplete chow (definition 8) whose discard keeps the most complete sets.

    ``chows`` and ``set_free`` may be passed precomputed (:func:`incomplete_chows`, the second set of
    :func:`free_kinds`).
    """
    chows = incomplete_chows(hand) if chows is None else chows
    if not any(k in pair for pair in chows):
        return False
    return k in (free_kinds(hand)[1] if set_free is None else set_free)


def is_minor(
    k: int,
    hand: Sequence[int],
    chows: Sequence[tuple[int, int]] | None = None,
    combo_free: frozenset[int] | None = None,
) -> bool:
    """Definition 5 (see the module notes for the reading)."""
    if is_honor(k) or not hand[k] or is_unique(k, hand):
        return False
    if k not in (free_kinds(hand)[0] if combo_free is None else combo_free):
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


def concealed_set_kinds(hand: Sequence[int], order: Callable[[int], int] | None = None) -> list[int]:
    """Kinds that are tiles of a concealed chow or pon of the hand, in discard order.

    A kind held three or more times (a pon), or one of three consecutive kinds all held (a chow).
    Those whose discard keeps the most combinations come first, then the others, each in hand
    order (``order``: a kind's rank, default the kind itself): the Riichi section's "fichas de
    Chows o Pons ocultos" (see mahjongjoy).
    """
    kinds = sorted(
        (
            k
            for k in range(34)
            if hand[k] >= 3 or (hand[k] and any(all(hand[x] for x in run) for run in runs_with(k)))
        ),
        key=order,
    )
    combo_free = free_kinds(hand)[0]
    return [k for k in kinds if k in combo_free] + [k for k in kinds if k not in combo_free]


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


def discard_levels(
    hand: Sequence[int], exposed: Sequence[int], order: Callable[[int], int] | None = None
) -> Iterator[tuple[str, list[int]]]:
    """Every priority level with the kinds of the hand in it, in priority order (lazily).

    A kind may appear at several levels; a policy takes the first level with a candidate and the
    first tile of it in hand order, so later levels are only computed when asked for. The last
    level (:data:`BEYOND`) holds, for hands where every tile belongs to a complete combination, the
    kinds whose discard keeps the most combinations, then every kind, each part in hand order
    (``order``: a kind's rank, default the kind itself; the other levels are in kind order).
    """
    # Every decision of every game walks these levels and most end by level 5, so each is made in
    # as few Python steps as it allows. The tests are those of is_dead, is_problematic,
    # dead_incomplete_chows, is_dead_pair and is_unique, rearranged: only a kind with an exposed
    # copy can be dead, problematic or a dead pair; a dead incomplete chow needs a completing kind
    # with every copy exposed; the unique number tiles look at their own suit only (cached per suit).
    kinds = list(compress(range(34), hand))  # the kinds held, picked in C
    dead: list[int] = []
    problematic: list[int] = []
    dead_pairs: list[int] = []
    # the kinds with a copy exposed (a comprehension: a map of a tuple's __getitem__ costs twice
    # as much; replay, 4 policies, one core)
    for k in [k for k in kinds if exposed[k]]:
        n = hand[k]
        e = exposed[k]
        if n == 2 and e > 1:
            dead_pairs.append(k)
        if k >= 27:  # no chow through an honour
            if e > 2:
                dead.append(k)
            elif n == 1 and e in (1, 2):
                problematic.append(k)
        elif e > 1 and not chow_possible(k, exposed):
            if e > 2:
                dead.append(k)
            elif n == 1 and e == 2:
                problematic.append(k)
    yield PRIORITIES[0], dead
    yield PRIORITIES[1], problematic
    dead_chows: list[int] = []  # sorted, each kind once (the runs come in ascending order)
    if max(exposed) > 3:
        for k in kinds:
            sides = _CHOW_SIDES[k]  # k, k + 1: dead when neither side has a copy left
            if sides is not None:
                below, above = sides
                if (below < 0 or exposed[below] > 3) and (above < 0 or exposed[above] > 3) and hand[k + 1]:
                    if not dead_chows or dead_chows[-1] != k:
                        dead_chows.append(k)
                    dead_chows.append(k + 1)
    yield PRIORITIES[2], dead_chows
    yield PRIORITIES[3], dead_pairs if len(dead_pairs) > 1 else []
    yield (
        PRIORITIES[4],
        [
            *_suit_unique(tuple(hand[0:9]), 0),
            *_suit_unique(tuple(hand[9:18]), 9),
            *_suit_unique(tuple(hand[18:27]), 18),
        ],
    )
    yield PRIORITIES[5], list(compress(range(27, 34), map(eq, hand[27:34], repeat(1))))  # honours held once
    # levels 6 and 7 suit by suit (the honours have no tile at either), each suit's cached
    suits = [_suit_levels(tuple(hand[start : start + 9]), start) for start in (0, 9, 18)]
    yield PRIORITIES[6], [k for minor, _ in suits for k in minor]
    yield PRIORITIES[7], [k for _, chow_tiles in suits for k in chow_tiles]
    yield PRIORITIES[8], dead_pairs
    yield PRIORITIES[9], [k for k in kinds if hand[k] == 2]
    combo_free = free_kinds(hand)[0]
    ranked = kinds if order is None else sorted(kinds, key=order)
    yield BEYOND, [k for k in ranked if k in combo_free] + [k for k in ranked if k not in combo_free]


@lru_cache(maxsize=MEMO_ENTRIES)
def _suit_unique(vec: tuple[int, ...], start: int) -> tuple[int, ...]:
    """Definition 4's number tiles of one suit (counts ``vec``, first kind ``start``): held once,
    nothing of the suit within two. Cached per suit pattern (by value, bounded): most suits of a
    hand were met a moment before."""
    # held once and the only tile within two of itself (a slice's sum is made in C)
    return tuple(start + i for i in range(9) if vec[i] == 1 and sum(vec[max(0, i - 2) : i + 3]) == 1)


@lru_cache(maxsize=MEMO_ENTRIES)
def _suit_levels(vec: tuple[int, ...], start: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The kinds of one suit (counts ``vec``, first kind ``start``) at the levels "minor tile" and
    "tile of an incomplete chow": :func:`_pattern_levels` of the suit's pattern, which is the same
    in every suit (worked out once for the three: replay, 4 policies, one core), from ``start``."""
    minor, chow_tiles = _pattern_levels(vec)
    if not start:
        return minor, chow_tiles
    return tuple([start + i for i in minor]), tuple([start + i for i in chow_tiles])


@lru_cache(maxsize=MEMO_ENTRIES)
def _pattern_levels(vec: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The indices (0-8) of a suit's counts ``vec`` at the levels "minor tile" and "tile of an
    incomplete chow" (:func:`is_minor`, :func:`is_incomplete_chow_tile`).

    Both look at the tile's own suit only (its neighbours, its incomplete chows, the combinations
    of its suit), so they are worked out on the suit alone, once per suit pattern: hands change a
    tile at a time, so most suits of a hand were met before (cached by value, bounded); this
    spares discard_levels the free_kinds and per-kind tests that dominated its later levels. The
    tests are those functions' on the suit's nine counts (``test_mahjongjoy`` checks the levels
    against the functions themselves).
    """
    combo_free, set_free = _group_free(vec, True)
    in_chow: set[int] = set()  # tiles of an incomplete chow (definition 8)
    beyond: set[int] = set()  # two beyond a consecutive incomplete chow's end (definition 5 a)
    for i in range(9):
        if not vec[i]:
            continue
        if i < 8 and vec[i + 1] and not (i > 0 and vec[i - 1]) and not (i < 7 and vec[i + 2]):
            in_chow.update((i, i + 1))
            beyond.update(x for x in (i - 2, i + 3) if 0 <= x < 9)
        if i < 7 and vec[i + 2] and not vec[i + 1]:
            in_chow.update((i, i + 2))
    minor = []
    chow_tiles = []
    for i in range(9):
        n = vec[i]
        if not n:
            continue
        unique = n == 1 and sum(vec[max(0, i - 2) : i + 3]) == 1
        if not unique and i in combo_free and (i in beyond or i not in in_chow):
            minor.append(i)
        if i in in_chow and i in set_free:
            chow_tiles.append(i)
    return tuple(minor), tuple(chow_tiles)
