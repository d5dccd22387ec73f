"""Combinations ("moves"): their kinds, classification of a set of cards, and the "beats" relation.

A :class:`Move` is the cards played (rank counts) plus how they are read: the kind, the main rank
(the rank that is compared; kickers never count, except as DouZero compares airplanes, below) and
the size (chain length, number of trios of an airplane; 1 otherwise). Under ``douzero`` a twelve-card
run of trios reads two ways (``333444555666`` is a bare airplane of four trios or an airplane of three
trios carrying ``666`` as kickers), so classification returns every reading and the mover says which
one is meant; once played, :func:`as_lead` gives the reading the next players must beat.

The kicker rules are an option (:class:`KickerRule`), each named after the implementation it
follows point for point; ``docs/doudizhu-kickers.md`` has the table and the evidence, and
``tests/test_doudizhu_peers.py`` compares each option with RLCard 1.2 and DouZero 1.1 themselves.
DouZero's is the default.

- ``douzero``: DouZero's move generator. Single kickers of trios and airplanes are any cards not of
  the trio ranks: a pair, a trio, four of a kind or both jokers among them are fine; four-with-two
  takes any two other cards. Its move selector compares airplanes with single kickers by the highest
  rank held exactly three times, a kicker trio included (``333444555KKK`` beats ``444555666789``).
  Its move detector decides what the next player must beat: a twelve-card run of trios stands as the
  bare airplane of four trios however it was played, and an airplane of four or five trios whose
  kickers hold a trio or four of a kind (``3334445556667778``), which the detector rejects, is
  answered only by a bomb or the rocket.
- ``rlcard``: RLCard's judger. Single kickers of an airplane may repeat a rank but may not be both
  jokers, hold four of a kind, or hold three cards of the rank just below or just above the run of
  trios, unless those are 2s (``333444555777`` and ``QQQKKKAAA222`` are legal, ``333444555666`` is
  only the bare airplane, ``3334445556667778`` is illegal). Four-with-two singles: not both jokers.
- ``pagat``: single kickers of an airplane are distinct ranks and not both jokers. Four-with-two
  singles: as under ``rlcard`` (the shared rules reference lists ``333355`` as legal in every variant).

Under every rule: a kicker is never of a trio/four rank of the same play; pair kickers are pairs of
distinct normal ranks (jokers cannot pair), exactly two cards each.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mjcli.doudizhu.cards import ACE, BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, Counts, format_counts
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

#: The main rank of a lead that only a bomb or the rocket answers: above every rank, so no move of
#: its kind beats it (see :func:`as_lead`).
NO_ANSWER = NUM_RANKS


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


def single_kickers_ok(kickers: Counts, rule: KickerRule, run: tuple[int, int] | None = None) -> bool:
    """The kicker rule for single kickers (already known to avoid the main ranks): those of the
    airplane whose trios span the ranks ``run`` = (low, high), or of four-with-two if ``run`` is None."""
    if rule is KickerRule.DOUZERO:
        return True
    if kickers[SMALL_JOKER] and kickers[BIG_JOKER]:
        return False
    if run is None:  # four-with-two: a pair of kickers is fine
        return True
    if rule is KickerRule.PAGAT:
        return max(kickers) <= 1
    low, high = run
    beside = (r for r in (low - 1, high + 1) if 0 <= r < TWO)  # a trio of 2s may sit beside an A run
    return max(kickers) < 4 and all(kickers[r] < 3 for r in beside)


def airplane_main(cards: Counts, high: int, rule: KickerRule) -> int:
    """The compared rank of an airplane with single kickers whose run ends at ``high``: the run's top,
    or under DouZero the highest rank held exactly three times (a kicker trio counts)."""
    if rule is KickerRule.DOUZERO:
        return max(r for r, c in enumerate(cards) if c == 3)
    return high


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
            if per == 5:
                move = Move(kind, high, k, cards) if pair_kickers_ok(rest_t, k) else None
            elif single_kickers_ok(rest_t, rule, (low, high)):
                move = Move(kind, airplane_main(cards, high, rule), k, cards)
            else:
                move = None
            if move is not None and move not in out:  # two runs may give one reading (DouZero)
                out.append(move)
    # Four with two singles or two pairs.
    if n in (6, 8) and top == 4:
        f = cards.index(4)
        rest = list(cards)
        rest[f] = 0
        rest_t = tuple(rest)
        if n == 6 and single_kickers_ok(rest_t, rule):
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


def as_lead(move: Move, rule: KickerRule = KickerRule.DOUZERO) -> Move:
    """The reading of ``move`` the next players must beat once it is played.

    It is ``move`` itself, except under ``douzero``, where DouZero's move detector reads the cards
    afresh: a twelve-card run of trios played as three trios with kickers stands as the bare airplane
    of four trios, and an airplane of four or five trios whose kickers hold a trio or four of a kind
    (which the detector rejects) stands with main rank :data:`NO_ANSWER`: only a bomb or the rocket
    beats it.
    """
    if rule is not KickerRule.DOUZERO or move.kind is not Kind.AIRPLANE_SINGLE:
        return move
    cards = move.cards
    run = _run(cards, 3)
    if run is not None:
        return Move(Kind.AIRPLANE, run[1], run[1] - run[0] + 1, cards)
    if move.size >= 4 and (max(cards) == 4 or cards.count(3) > move.size):
        return Move(move.kind, NO_ANSWER, move.size, cards)
    return move
