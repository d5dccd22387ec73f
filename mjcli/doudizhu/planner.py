"""The hand planner of seed 002 ("ZhanPai"): split a hand into the best path of combinations.

The seed (a JavaScript article) plans a hand in these steps, reproduced here:

1. ``PxFux`` sorts the cards high to low; ``MChouPai`` draws cards by number out of a hand.
2. ``SerCh`` lists what the hand holds: the rocket, distinct ranks, pairs, trios, fours, and the
   maximal runs of singles (>= 5, top <= A), pairs (>= 3) and trios (>= 2) with every sub-chain
   of each run (``GetSun1List`` / ``GetSun2List`` / ``GetSun3List``).
3. ``ZhanPai`` sets aside first the rocket, then every four of a kind (bombs, high to low), then
   ``222`` as a trio or ``22`` as a pair. These steps never take part in other combinations.
4. ``GetAllPai`` lists the paths: the rest as it is, and every way of taking chains one after
   another (``GetAllSun``: single chains, pair chains and trio chains, each kind repeatedly, then
   any kind again from what is left); each path is completed by ``GetAllLast``: trios, then pairs,
   then singles from what is left.
5. ``GetTaMax`` rates each path ``Pn = 10 * steps + sum of step weights`` and keeps the first path
   of lowest Pn (ties go to the earlier path in the seed's enumeration order); Pn is shown as 0
   when negative. Lower is better: the seed calls Pn <= 10 a hand that can nearly play itself out.

The seed's code never shows ``GetSun1List`` and its siblings. They are reconstructed as "every
sub-chain of the run, highest top first, shortest first for the same top"; this order decides
only between paths of equal Pn.

Quirks of the seed's ``GetTaMax`` that its printed output depends on (``weights="seed"``, the
default); ``weights="corrected"`` applies what the comments say was meant:

- Trio weights: ``if (max >= 15) Dlen -= 12;`` is followed by ``if (max >= 11) ... else if ...``
  without an ``else``, so ``222`` gets both -12 and -9 (-21 instead of -12).
- Trio-chain weights: ``if (len = 12)``, ``if (len = 9)``, ``if (len = 6)`` are assignments, always
  true, so every trio chain gets -5 -9 -7 -4 = -25 whatever its length (corrected: -5 and then -10
  for 15+ cards, -9 for 12, -7 for 9, -4 for 6). The assignments also leave ``len = 6`` on the
  step object, and step objects are shared by every path that extends the same node, so the extra
  -10 for a trio chain of 15+ cards counts only in the first path that rates it: the path in which
  it is the last chain taken (that node is always listed before its extensions).

Cards carry no suits here. ``SerCh`` leaves cards with ``key == 4`` out of its distinct ranks when
the hand holds the rocket; ``key`` 4 is read as "a joker", and that list of ranks is not used by
``ZhanPai`` before the rocket is set aside, so this detail never changes a plan.

The seed's enumeration lists the same path many times (a chain taken first or second gives the same
split), which blows up on hands with many chains. Here the enumeration is a recursion over the
remaining cards with memoised "first lowest path" per sub-problem: the first minimum of a
concatenated list is the first minimum of the first part unless a later part is strictly lower,
and the Pn of a path is a sum over its steps, so the result equals the seed's on every hand
(``tests/test_doudizhu_planner.py`` compares it with a literal port of the JavaScript).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Literal

from mjcli.doudizhu.cards import ACE, BIG_JOKER, NUM_RANKS, RANK_CHARS, SMALL_JOKER, TWO, Counts, seed_num
from mjcli.errors import UsageError

Weights = Literal["seed", "corrected"]
WEIGHTS: tuple[str, ...] = ("seed", "corrected")

# The seed's step type codes.
SINGLE, PAIR, TRIO, CHAIN, PAIR_CHAIN, TRIO_CHAIN, BOMB, ROCKET = 1, 2, 3, 8, 9, 10, 13, 14
TYPE_NAMES = {
    SINGLE: "single",
    PAIR: "pair",
    TRIO: "trio",
    CHAIN: "chain",
    PAIR_CHAIN: "pair_chain",
    TRIO_CHAIN: "trio_chain",
    BOMB: "bomb",
    ROCKET: "rocket",
}
_MIN_RUN = {1: 5, 2: 3, 3: 2}  # units in a chain of singles, pairs, trios
_CHAIN_TYPE = {1: CHAIN, 2: PAIR_CHAIN, 3: TRIO_CHAIN}


@dataclass(frozen=True, slots=True)
class Step:
    """One combination of a plan. ``ranks`` are in the seed's order (high to low)."""

    type: int
    ranks: tuple[int, ...]

    @property
    def max(self) -> int:
        """The seed's ``max``: the number (3..17) of the highest card."""
        return seed_num(self.ranks[0])

    @property
    def len(self) -> int:
        return len(self.ranks)

    @property
    def name(self) -> str:
        return TYPE_NAMES[self.type]

    def counts(self) -> Counts:
        out = [0] * NUM_RANKS
        for r in self.ranks:
            out[r] += 1
        return tuple(out)

    def text(self) -> str:
        return "".join(RANK_CHARS[r] for r in sorted(self.ranks))


@dataclass(frozen=True, slots=True)
class Plan:
    steps: tuple[Step, ...]
    raw_pn: int  # before the seed's clamp at 0; used to compare plans
    weights: str = "seed"
    stats: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def pn(self) -> int:
        """The seed's Pn: ``max(0, raw_pn)``."""
        return max(0, self.raw_pn)


def step_weight(step: Step, weights: Weights, *, last_chain: bool = False) -> int:
    """The seed's ``Dlen`` contribution of one step (``GetTaMax``)."""
    t, m = step.type, step.max
    if t == SINGLE:
        if m >= 15:
            return -4  # a 2 or a joker plays itself out and may carry a card
        if m >= 11:
            return 0
        return 4 if m >= 7 else 8  # below 7 it has to be carried out by something
    if t == PAIR:
        if m >= 15:
            return -8
        if m >= 11:
            return -2
        return 2 if m >= 7 else 6
    if t == TRIO:
        w = 0
        if weights == "seed":
            # Seed quirk: an `if` without `else` - 222 gets -12 and then -9 as well.
            if m >= 15:
                w -= 12
            if m >= 11:
                w -= 9
            elif m >= 7:
                w -= 6
            else:
                w -= 4
            return w
        if m >= 15:
            return -12
        if m >= 11:
            return -9
        return -6 if m >= 7 else -4
    if t == TRIO_CHAIN:
        n = step.len
        if weights == "seed":
            # Seed quirk: `if (len = 12)`, `if (len = 9)`, `if (len = 6)` assign and are always true.
            # The -10 for 15+ cards is seen only where the step is rated first (see module doc).
            return -5 + (-10 if n >= 15 and last_chain else 0) - 9 - 7 - 4
        extra = {12: -9, 9: -7, 6: -4}.get(n, 0)
        return -5 + (-10 if n >= 15 else extra)
    if t in (CHAIN, PAIR_CHAIN):
        return -1
    if t in (BOMB, ROCKET):
        return -20
    raise ValueError(f"unknown step type {t}")


def _check_weights(weights: str) -> Weights:
    if weights not in WEIGHTS:
        raise UsageError(f"unknown planner weights {weights!r}: use seed or corrected")
    return weights  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# SerCh's chains, and GetAllLast.


def _runs(counts: Counts, need: int) -> list[tuple[int, int]]:
    """Maximal runs (high, low) of ranks with at least ``need`` cards, top <= A, high runs first."""
    out = []
    r = ACE
    while r >= 0:
        if counts[r] >= need:
            high = r
            while r >= 0 and counts[r] >= need:
                r -= 1
            low = r + 1
            if high - low + 1 >= _MIN_RUN[need]:
                out.append((high, low))
        else:
            r -= 1
    return out


ChainOption = tuple[Step, Counts, int, int]  # the chain, what it leaves, its cost as last / not last


# The memos' sizes, from their hits by size over the key streams of 1000 simulated games (LRU):
# _chains is asked twice in a row for each key (by _best_less and _best_after_less) and never again:
# 50% hits at 4096 entries as at 200,000. The sub-problems keep 24-32% at 65,536 as at 200,000
# (20-28% at 16,384); the whole hands 29-38% at any size from 4096. At 200,000 entries each the seven
# filled a long run with ~1.2M entries: simulate of 500 / 3000 games peaked at 136 / 347 MiB.
CHAINS_MEMO = 1 << 12
SUBPROBLEM_MEMO = 1 << 16
HAND_MEMO = 1 << 14


@functools.lru_cache(maxsize=CHAINS_MEMO)
def _chains(counts: Counts, need: int, weights: Weights) -> tuple[ChainOption, ...]:
    """The chains ``ChouChuSun``/``ChouChu2Sun``/``ChouChu3Sun`` draw, in the seed's order, each
    with the cards left after drawing it and its ``10 + weight`` cost (as the last chain of a path
    and otherwise). Sub-chains of a run: highest top first, then shortest."""
    out = []
    shortest = _MIN_RUN[need]
    for high, low in _runs(counts, need):
        for top in range(high, low + shortest - 2, -1):
            for bottom in range(top - shortest + 1, low - 1, -1):
                ranks = tuple(r for r in range(top, bottom - 1, -1) for _ in range(need))
                rest = list(counts)
                for r in range(bottom, top + 1):
                    rest[r] -= need
                step = Step(_CHAIN_TYPE[need], ranks)
                last = 10 + step_weight(step, weights, last_chain=True)
                out.append((step, tuple(rest), last, 10 + step_weight(step, weights)))
    return tuple(out)


def _fill_steps(counts: Counts) -> list[Step]:
    """``GetAllLast``: trios (not 2s), then pairs (not 2s), then singles, each high to low."""
    steps: list[Step] = []
    left = list(counts)
    for r in range(TWO - 1, -1, -1):
        if left[r] >= 3:
            steps.append(Step(TRIO, (r, r, r)))
            left[r] -= 3
    for r in range(TWO - 1, -1, -1):
        if left[r] >= 2:
            steps.append(Step(PAIR, (r, r)))
            left[r] -= 2
    for r in range(NUM_RANKS - 1, -1, -1):
        steps.extend(Step(SINGLE, (r,)) for _ in range(left[r]))
    return steps


def _unit_costs(weights: Weights) -> tuple[list[int], list[int], list[int]]:
    """``10 + weight`` of a single, pair and trio of each rank (the fill's arithmetic, precomputed)."""
    single = [10 + step_weight(Step(SINGLE, (r,)), weights) for r in range(NUM_RANKS)]
    pair = [10 + step_weight(Step(PAIR, (r, r)), weights) for r in range(TWO + 1)]
    trio = [10 + step_weight(Step(TRIO, (r, r, r)), weights) for r in range(TWO + 1)]
    return single, pair, trio


_UNIT_COSTS = {w: _unit_costs(w) for w in ("seed", "corrected")}  # type: ignore[arg-type]


@functools.lru_cache(maxsize=SUBPROBLEM_MEMO)
def _fill_cost(counts: Counts, weights: Weights) -> int:
    """The cost of :func:`_fill_steps` without building its steps."""
    single, pair, trio = _UNIT_COSTS[weights]
    cost = 0
    for r, c in enumerate(counts):
        if not c:
            continue
        if r >= TWO:  # 2s reach the fill only as singles; jokers are singles
            cost += c * single[r]
        elif c >= 3:
            cost += trio[r] + (c - 3) * single[r]
        elif c == 2:
            cost += pair[r]
        else:
            cost += single[r]
    return cost


# ---------------------------------------------------------------------------------------------
# The enumeration of GetAllSun / GetAllSunLess, as "first lowest path" per sub-problem.

# (cost of the rest of the path, its chains in order, the cards left for GetAllLast)
Best = tuple[int, tuple[Step, ...], Counts] | None


def _first_min(a: Best, b: Best) -> Best:
    """The first minimum of ``a`` followed by ``b`` (the seed keeps the earlier path on a tie)."""
    if a is None:
        return b
    if b is None or a[0] <= b[0]:
        return a
    return b


def _prepend(step: Step, cost: int, best: Best) -> Best:
    if best is None:
        return None
    return cost + best[0], (step, *best[1]), best[2]


@functools.lru_cache(maxsize=SUBPROBLEM_MEMO)
def _best_less(counts: Counts, need: int, weights: Weights) -> Best:
    """Best node of ``GetAllSunLess`` (and 2/3): every chain, then the chains after each of them.
    Each node is rated with ``GetAllLast`` of what it leaves."""
    chains = _chains(counts, need, weights)
    best: Best = None
    for step, rest, last_cost, _ in chains:
        best = _first_min(best, (last_cost + _fill_cost(rest, weights), (step,), rest))
    for step, rest, _, cost in chains:
        best = _first_min(best, _prepend(step, cost, _best_less(rest, need, weights)))
    return best


@functools.lru_cache(maxsize=SUBPROBLEM_MEMO)
def _best_after_less(counts: Counts, need: int, weights: Weights) -> Best:
    """Best path of ``GetAllSun`` run on every node of ``GetAllSunLess`` (in that node order)."""
    chains = _chains(counts, need, weights)
    best: Best = None
    for step, rest, _, cost in chains:
        best = _first_min(best, _prepend(step, cost, _best_all(rest, weights)))
    for step, rest, _, cost in chains:
        best = _first_min(best, _prepend(step, cost, _best_after_less(rest, need, weights)))
    return best


def _has_chain(counts: Counts) -> bool:
    """Whether any chain of singles, pairs or trios can be drawn from ``counts``."""
    run1 = run2 = run3 = 0
    for c in counts[: ACE + 1]:
        run1 = run1 + 1 if c else 0
        run2 = run2 + 1 if c >= 2 else 0
        run3 = run3 + 1 if c >= 3 else 0
        if run1 >= 5 or run2 >= 3 or run3 >= 2:
            return True
    return False


@functools.lru_cache(maxsize=SUBPROBLEM_MEMO)
def _best_all(counts: Counts, weights: Weights) -> Best:
    """Best path of ``GetAllSun``: single chains, pair chains, then trio chains, each followed by
    ``GetAllSun`` of its nodes."""
    if not _has_chain(counts):  # most sub-hands: skip six cache look-ups
        return None
    best: Best = None
    for need in (1, 2, 3):
        best = _first_min(best, _best_less(counts, need, weights))
        best = _first_min(best, _best_after_less(counts, need, weights))
    return best


# ---------------------------------------------------------------------------------------------
# ZhanPai.


def _set_aside(counts: Counts) -> tuple[list[Step], Counts]:
    """The rocket, the bombs (high to low), then 222 or 22, as ZhanPai takes them first."""
    steps: list[Step] = []
    left = list(counts)
    if left[SMALL_JOKER] and left[BIG_JOKER]:
        steps.append(Step(ROCKET, (BIG_JOKER, SMALL_JOKER)))
        left[SMALL_JOKER] = left[BIG_JOKER] = 0
    for r in range(TWO, -1, -1):
        if left[r] == 4:
            steps.append(Step(BOMB, (r,) * 4))
            left[r] = 0
    if left[TWO] == 3:
        steps.append(Step(TRIO, (TWO,) * 3))
        left[TWO] = 0
    elif left[TWO] == 2:
        steps.append(Step(PAIR, (TWO,) * 2))
        left[TWO] = 0
    return steps, tuple(left)


def _stats(steps: tuple[Step, ...]) -> dict[str, int]:
    """Counts in the spirit of the seed's SetTlInfo (whose code the article does not show)."""
    by_type = {t: sum(1 for s in steps if s.type == t) for t in TYPE_NAMES}
    return {
        "steps": len(steps),
        "singles": by_type[SINGLE],
        "pairs": by_type[PAIR],
        "trios": by_type[TRIO],
        "bombs": by_type[BOMB],
        "chains": by_type[CHAIN],
        "pair_chains": by_type[PAIR_CHAIN],
        "trio_chains": by_type[TRIO_CHAIN],
        "rockets": by_type[ROCKET],
        "twos": sum(s.ranks.count(TWO) for s in steps),
    }


def _zhan_pai(counts: Counts, weights: Weights) -> tuple[list[Step], int, Best]:
    """The set-aside steps, their cost, and the first lowest path of the rest."""
    prefix, rest = _set_aside(counts)
    prefix_cost = sum(10 + step_weight(s, weights) for s in prefix)
    best = _first_min((_fill_cost(rest, weights), (), rest), _best_all(rest, weights))
    return prefix, prefix_cost, best


@functools.lru_cache(maxsize=HAND_MEMO)
def _plan_cached(counts: Counts, weights: Weights) -> Plan:
    prefix, prefix_cost, best = _zhan_pai(counts, weights)
    assert best is not None
    steps = (*prefix, *best[1], *_fill_steps(best[2]))
    return Plan(steps=steps, raw_pn=prefix_cost + best[0], weights=weights, stats=_stats(steps))


@functools.lru_cache(maxsize=HAND_MEMO)
def _pn_cached(counts: Counts, weights: Weights) -> int:
    _, prefix_cost, best = _zhan_pai(counts, weights)
    assert best is not None
    return prefix_cost + best[0]


def plan(counts: Counts, weights: str = "seed") -> Plan:
    """ZhanPai: the seed's best path for a hand (rank counts) and its Pn."""
    return _plan_cached(tuple(counts), _check_weights(weights))


def plan_pn(counts: Counts, weights: str = "seed") -> int:
    """The raw Pn of :func:`plan` without building its steps (the policies rate many hands)."""
    return _pn_cached(tuple(counts), _check_weights(weights))


def clear_caches() -> None:
    """Empty the planner's memo tables (benchmarks and timing tests start cold)."""
    for fn in (_plan_cached, _pn_cached, _best_all, _best_less, _best_after_less, _chains, _fill_cost):
        fn.cache_clear()


def path_pn(steps: list[Step] | tuple[Step, ...], weights: str = "seed") -> int:
    """The raw Pn of a given path (``10 * steps + weights``), the trio-chain quirk applied as it
    would be to the last chain of the path."""
    w = _check_weights(weights)
    chain_positions = [i for i, s in enumerate(steps) if s.type in _CHAIN_TYPE.values()]
    last = chain_positions[-1] if chain_positions else -1
    return sum(10 + step_weight(s, w, last_chain=(i == last)) for i, s in enumerate(steps))
