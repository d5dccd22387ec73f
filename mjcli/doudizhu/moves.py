"""Combinations ("moves"): their kinds, classification of a set of cards, and the "beats" relation.

A :class:`Move` is the cards played (rank counts) plus how they are read: the kind, the main rank
(the highest rank of the part that is compared; kickers never count) and the size (chain length,
number of trios of an airplane; 1 otherwise). Some card sets read two ways (``333444555666`` is a
bare airplane of four trios or an airplane of three trios carrying ``666`` as kickers), so
classification returns every reading and the mover says which one is meant.

Kicker rules differ between engines (see ``shared/rules/doudizhu.md``); :class:`KickerRule` names
them and DouZero's is the default:

- ``douzero``: single kickers may be any cards not of the trio/four ranks, both jokers included.
- ``rlcard``: as DouZero, but the single kickers may not be both jokers nor hold four of a kind.
- ``pagat``: single kickers of trios and airplanes must be distinct ranks and not both jokers.

Pair kickers are always pairs of distinct ranks, none a trio/four rank (jokers cannot pair). The two
single kickers of four-with-two may be a pair in every variant (the reference lists ``333355`` as
legal); under ``rlcard`` and ``pagat`` they may not be both jokers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mjcli.doudizhu.cards import ACE, BIG_JOKER, SMALL_JOKER, Counts, format_counts
from mjcli.errors import UsageError


class Kind(StrEnum):
    SINGLE = "single"
    PAIR = "pair"
    TRIO = "trio"
    TRIO_SINGLE = "trio_single"
    TRIO_PAIR = "trio_pair"
    CHAIN = "chain"
    PAIR_CHAIN = "pair_chain"
    AIRPLANE = "airplane"
    AIRPLANE_SINGLE = "airplane_single"
    AIRPLANE_PAIR = "airplane_pair"
    FOUR_TWO_SINGLE = "four_two_single"
    FOUR_TWO_PAIR = "four_two_pair"
    BOMB = "bomb"
    ROCKET = "rocket"


class KickerRule(StrEnum):
    DOUZERO = "douzero"
    RLCARD = "rlcard"
    PAGAT = "pagat"


def kicker_rule(name: str | KickerRule) -> KickerRule:
    try:
        return KickerRule(name)
    except ValueError:
        names = ", ".join(k.value for k in KickerRule)
        raise UsageError(f"unknown kicker rule {name!r}: use one of {names}") from None


#: Minimum number of units of each sequence kind (5 singles, 3 pairs, 2 trios).
MIN_CHAIN = {Kind.CHAIN: 5, Kind.PAIR_CHAIN: 3, Kind.AIRPLANE: 2}


@dataclass(frozen=True, slots=True)
class Move:
    kind: Kind
    main: int  # highest rank of the compared part
    size: int  # units in a sequence (chain length, trios of an airplane), 1 otherwise
    cards: Counts

    @property
    def count(self) -> int:
        return sum(self.cards)

    @property
    def is_bomb(self) -> bool:
        return self.kind in (Kind.BOMB, Kind.ROCKET)

    def text(self) -> str:
        return format_counts(self.cards)

    def __str__(self) -> str:
        return f"{self.text()} ({self.kind.value})"


def beats(new: Move, prev: Move) -> bool:
    """Whether ``new`` may be played on ``prev``: same kind and size and a higher main rank; a bomb
    beats any non-bomb and a lower bomb; the rocket beats everything."""
    if new.kind is Kind.ROCKET:
        return prev.kind is not Kind.ROCKET
    if prev.kind is Kind.ROCKET:
        return False
    if new.kind is Kind.BOMB:
        return prev.kind is not Kind.BOMB or new.main > prev.main
    return new.kind is prev.kind and new.size == prev.size and new.main > prev.main


def single_kickers_ok(kickers: Counts, rule: KickerRule, *, four: bool = False) -> bool:
    """The kicker-rule check for single kickers (already known to avoid the main ranks)."""
    if rule is KickerRule.DOUZERO:
        return True
    both_jokers = kickers[SMALL_JOKER] and kickers[BIG_JOKER]
    if both_jokers:
        return False
    if four:  # four-with-two: a pair of kickers is fine in every variant
        return True
    if rule is KickerRule.RLCARD:
        return max(kickers) < 4
    return max(kickers) <= 1  # pagat: distinct ranks


def pair_kickers_ok(kickers: Counts, n_pairs: int) -> bool:
    """``n_pairs`` pairs of distinct normal ranks (jokers cannot pair)."""
    return (
        kickers[SMALL_JOKER] == 0
        and kickers[BIG_JOKER] == 0
        and all(c in (0, 2) for c in kickers)
        and sum(kickers) == 2 * n_pairs
    )


def _run(counts: Counts, need: int) -> tuple[int, int] | None:
    """If the nonzero ranks are consecutive, all equal to ``need`` and at most A: (low, high)."""
    ranks = [r for r, c in enumerate(counts) if c]
    if any(counts[r] != need for r in ranks) or ranks[-1] > ACE:
        return None
    if ranks[-1] - ranks[0] + 1 != len(ranks):
        return None
    return ranks[0], ranks[-1]


def classify(cards: Counts, rule: KickerRule = KickerRule.DOUZERO) -> list[Move]:
    """Every legal reading of ``cards`` as one play (empty list: not a legal combination)."""
    n = sum(cards)
    if n == 0:
        return []
    out: list[Move] = []
    distinct = [r for r, c in enumerate(cards) if c]
    top = max(cards)
    if n == 1:
        return [Move(Kind.SINGLE, distinct[0], 1, cards)]
    if n == 2:
        if cards[SMALL_JOKER] and cards[BIG_JOKER]:
            return [Move(Kind.ROCKET, BIG_JOKER, 1, cards)]
        if top == 2:
            return [Move(Kind.PAIR, distinct[0], 1, cards)]
        return []
    if n == 3 and top == 3:
        return [Move(Kind.TRIO, distinct[0], 1, cards)]
    if n == 4 and top == 4:
        return [Move(Kind.BOMB, distinct[0], 1, cards)]
    # Trio with one kicker, trio with a pair.
    if n in (4, 5) and top >= 3:
        t = cards.index(3) if 3 in cards else -1
        if t >= 0:
            rest = list(cards)
            rest[t] = 0
            rest_t = tuple(rest)
            if n == 4:
                out.append(Move(Kind.TRIO_SINGLE, t, 1, cards))
            elif pair_kickers_ok(rest_t, 1):
                out.append(Move(Kind.TRIO_PAIR, t, 1, cards))
    # Plain sequences.
    for kind, need in ((Kind.CHAIN, 1), (Kind.PAIR_CHAIN, 2), (Kind.AIRPLANE, 3)):
        if n % need == 0 and n // need >= MIN_CHAIN[kind] and top == need:
            run = _run(cards, need)
            if run is not None:
                out.append(Move(kind, run[1], run[1] - run[0] + 1, cards))
    # Airplanes with wings: try every run of trios that leaves the right number of kickers.
    for per, kind in ((4, Kind.AIRPLANE_SINGLE), (5, Kind.AIRPLANE_PAIR)):
        if n % per or n // per < 2:
            continue
        k = n // per
        for low in range(0, ACE - k + 2):
            high = low + k - 1
            if any(cards[r] < 3 for r in range(low, high + 1)):
                continue
            rest = list(cards)
            for r in range(low, high + 1):
                rest[r] -= 3
            # A kicker may not be of a trio rank (DouZero, RLCard and Pagat agree).
            if any(rest[r] for r in range(low, high + 1)):
                continue
            rest_t = tuple(rest)
            ok = single_kickers_ok(rest_t, rule) if per == 4 else pair_kickers_ok(rest_t, k)
            if ok:
                out.append(Move(kind, high, k, cards))
    # Four with two singles or two pairs.
    if n in (6, 8) and top == 4:
        f = cards.index(4)
        rest = list(cards)
        rest[f] = 0
        rest_t = tuple(rest)
        if n == 6 and single_kickers_ok(rest_t, rule, four=True):
            out.append(Move(Kind.FOUR_TWO_SINGLE, f, 1, cards))
        if n == 8 and pair_kickers_ok(rest_t, 2):
            out.append(Move(Kind.FOUR_TWO_PAIR, f, 1, cards))
    return out


def classify_one(cards: Counts, rule: KickerRule = KickerRule.DOUZERO) -> Move | None:
    """The preferred reading: the one with the most units and then the highest main rank (a bare
    airplane before an airplane with wings), or None if the cards are no legal play."""
    moves = classify(cards, rule)
    if not moves:
        return None
    return max(moves, key=lambda m: (m.kind in (Kind.AIRPLANE, Kind.BOMB, Kind.ROCKET), m.size, m.main))
