"""Legal move generation: every combination a hand can play, on a free lead or against a lead.

Generation is by kind (only the lead's kind, plus bombs and the rocket, when following), so it
stays cheap in the play loop; ``tests/test_doudizhu_moves.py`` checks it against a brute-force
enumerator that classifies every sub-multiset of the hand.
"""

from __future__ import annotations

from collections.abc import Iterator

from mjcli.doudizhu.cards import ACE, BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, Counts
from mjcli.doudizhu.moves import (
    MIN_CHAIN,
    KickerRule,
    Kind,
    Move,
    airplane_main,
    beats,
    pair_kickers_ok,
    single_kickers_ok,
)

_SEQ_NEED = {Kind.CHAIN: 1, Kind.PAIR_CHAIN: 2, Kind.AIRPLANE: 3}


def _counts(pairs: dict[int, int]) -> Counts:
    out = [0] * NUM_RANKS
    for r, c in pairs.items():
        out[r] += c
    return tuple(out)


def _multisets(avail: list[int], k: int, start: int = 0) -> Iterator[list[int]]:
    """All multisets of ``k`` cards drawn from ``avail`` (counts per rank), as count lists."""
    if k == 0:
        yield [0] * NUM_RANKS
        return
    for r in range(start, NUM_RANKS):
        if avail[r] == 0:
            continue
        for take in range(min(avail[r], k), 0, -1):
            for rest in _multisets(avail, k - take, r + 1):
                rest[r] = take
                yield rest


def _pair_sets(avail: list[int], k: int, start: int = 0) -> Iterator[list[int]]:
    """All sets of ``k`` distinct normal ranks holding at least a pair, as pair-count lists."""
    if k == 0:
        yield [0] * NUM_RANKS
        return
    for r in range(start, TWO + 1):
        if avail[r] >= 2:
            for rest in _pair_sets(avail, k - 1, r + 1):
                rest[r] = 2
                yield rest


def _sequences(hand: Counts, kind: Kind, size: int | None) -> Iterator[tuple[int, int]]:
    """(low, high) of every run of ``kind`` in ``hand`` (of length ``size`` if given)."""
    need = _SEQ_NEED[kind]
    shortest = MIN_CHAIN[kind] if size is None else size
    for low in range(ACE + 1):
        high = low
        while high <= ACE and hand[high] >= need:
            length = high - low + 1
            if length >= shortest and (size is None or length == size):
                yield low, high
            high += 1


def _with_main(ranks: range, need: int) -> dict[int, int]:
    return {r: need for r in ranks}


def gen_kind(hand: Counts, kind: Kind, rule: KickerRule, size: int | None = None) -> Iterator[Move]:
    """Every move of one kind the hand can make (of the given size for sequences and airplanes)."""
    if kind is Kind.SINGLE:
        for r in range(NUM_RANKS):
            if hand[r]:
                yield Move(kind, r, 1, _counts({r: 1}))
    elif kind is Kind.PAIR:
        for r in range(TWO + 1):
            if hand[r] >= 2:
                yield Move(kind, r, 1, _counts({r: 2}))
    elif kind is Kind.TRIO:
        for r in range(TWO + 1):
            if hand[r] >= 3:
                yield Move(kind, r, 1, _counts({r: 3}))
    elif kind is Kind.BOMB:
        for r in range(TWO + 1):
            if hand[r] == 4:
                yield Move(kind, r, 1, _counts({r: 4}))
    elif kind is Kind.ROCKET:
        if hand[SMALL_JOKER] and hand[BIG_JOKER]:
            yield Move(kind, BIG_JOKER, 1, _counts({SMALL_JOKER: 1, BIG_JOKER: 1}))
    elif kind in (Kind.TRIO_SINGLE, Kind.TRIO_PAIR):
        for t in range(TWO + 1):
            if hand[t] < 3:
                continue
            for k in range(NUM_RANKS):
                if k == t:
                    continue
                if kind is Kind.TRIO_SINGLE and hand[k] >= 1:
                    yield Move(kind, t, 1, _counts({t: 3, k: 1}))
                elif kind is Kind.TRIO_PAIR and k <= TWO and hand[k] >= 2:
                    yield Move(kind, t, 1, _counts({t: 3, k: 2}))
    elif kind in _SEQ_NEED:
        need = _SEQ_NEED[kind]
        for low, high in _sequences(hand, kind, size):
            yield Move(kind, high, high - low + 1, _counts(_with_main(range(low, high + 1), need)))
    elif kind in (Kind.AIRPLANE_SINGLE, Kind.AIRPLANE_PAIR):
        seen: set[Counts] = set()  # under douzero two runs can make the same cards (333444555666)
        for low, high in _sequences(hand, Kind.AIRPLANE, size):
            k = high - low + 1
            avail = list(hand)
            for r in range(low, high + 1):
                avail[r] = 0  # a kicker may not be of a trio rank
            base = _with_main(range(low, high + 1), 3)
            wings = _multisets(avail, k) if kind is Kind.AIRPLANE_SINGLE else _pair_sets(avail, k)
            for w in wings:
                kick = tuple(w)
                if kind is Kind.AIRPLANE_SINGLE and not single_kickers_ok(kick, rule, (low, high)):
                    continue
                if kind is Kind.AIRPLANE_PAIR and not pair_kickers_ok(kick, k):
                    continue
                cards = list(kick)
                for r, c in base.items():
                    cards[r] += c
                played = tuple(cards)
                if played in seen:
                    continue
                seen.add(played)
                main = airplane_main(played, high, rule) if kind is Kind.AIRPLANE_SINGLE else high
                yield Move(kind, main, k, played)
    elif kind in (Kind.FOUR_TWO_SINGLE, Kind.FOUR_TWO_PAIR):
        for f in range(TWO + 1):
            if hand[f] != 4:
                continue
            avail = list(hand)
            avail[f] = 0
            if kind is Kind.FOUR_TWO_SINGLE:
                wings = (w for w in _multisets(avail, 2) if single_kickers_ok(tuple(w), rule))
            else:
                wings = _pair_sets(avail, 2)
            for w in wings:
                w[f] += 4
                yield Move(kind, f, 1, tuple(w))


ALL_KINDS: tuple[Kind, ...] = tuple(Kind)


def legal_moves(hand: Counts, lead: Move | None = None, rule: KickerRule = KickerRule.DOUZERO) -> list[Move]:
    """Every move ``hand`` may play: any combination on a free lead (``lead`` None), otherwise the
    moves that beat ``lead``. Passing (allowed only when following) is not included."""
    if lead is None:
        return [m for kind in ALL_KINDS for m in gen_kind(hand, kind, rule)]
    out: list[Move] = []
    if lead.kind not in (Kind.BOMB, Kind.ROCKET):
        size = lead.size if lead.kind in _SEQ_NEED or lead.kind.startswith("airplane") else None
        out.extend(m for m in gen_kind(hand, lead.kind, rule, size) if m.main > lead.main)
    if lead.kind is not Kind.ROCKET:
        out.extend(m for m in gen_kind(hand, Kind.BOMB, rule) if beats(m, lead))
        out.extend(gen_kind(hand, Kind.ROCKET, rule))
    return out
