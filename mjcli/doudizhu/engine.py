"""The Dou Dizhu rules engine: deal, bidding, the play loop with passes and new leads, the end of the
game and its settlement. ``simulate`` plays through it and ``replay`` walks its records; there is
one engine.

A policy sees only what a player at the table sees: its own hand, the kitty once shown, the bids,
every card played (and by whom), the cards each player still holds, and the lead to beat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mjcli.doudizhu.cards import DECK_COUNTS, NUM_RANKS, Counts, add, contains, deal, format_counts, sub
from mjcli.doudizhu.moves import KickerRule, Move, as_lead, beats, classify
from mjcli.doudizhu.scoring import settle
from mjcli.errors import UsageError

LANDLORD, PEASANT = "landlord", "peasant"


@dataclass(frozen=True, slots=True)
class DoudizhuRules:
    """Rule options. Without bidding the landlord is a given seat and the bid counts as 1;
    ``DOUZERO_SETTING`` (no bidding, no springs) is DouZero's research setting."""

    kicker: KickerRule = KickerRule.DOUZERO
    base: int = 1
    bidding: bool = True
    springs: bool = True
    max_redeals: int = 20  # all-pass deals in a row before the first bidder must take bid 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "kicker": self.kicker.value,
            "base": self.base,
            "bidding": self.bidding,
            "springs": self.springs,
        }


DOUZERO_SETTING = DoudizhuRules(bidding=False, springs=False)


@dataclass(frozen=True, slots=True)
class BidView:
    seat: int
    hand: Counts
    bids: tuple[tuple[int, int], ...]  # (seat, level) so far, 0 = pass

    @property
    def highest(self) -> int:
        return max((b for _, b in self.bids), default=0)


@dataclass(frozen=True, slots=True)
class PlayView:
    seat: int
    hand: Counts
    landlord: int
    bid: int
    kitty: Counts
    cards_left: tuple[int, int, int]
    lead: Move | None  # the move to beat (as_lead of the last play); None on a free lead
    lead_seat: int | None
    played: Counts  # every card played so far, all seats
    history: tuple[tuple[int, Move | None], ...]
    rule: KickerRule = KickerRule.DOUZERO

    @property
    def role(self) -> str:
        return LANDLORD if self.seat == self.landlord else PEASANT

    @property
    def partner(self) -> int | None:
        if self.seat == self.landlord:
            return None
        return 3 - self.seat - self.landlord

    def opponents(self) -> list[int]:
        if self.seat == self.landlord:
            return [s for s in range(3) if s != self.seat]
        return [self.landlord]

    def unseen(self) -> Counts:
        """Cards this player has not seen: the deck less its own hand and everything played."""
        return sub(sub(DECK_COUNTS, self.hand), self.played)


class Policy(Protocol):
    name: str

    def bid(self, view: BidView, rng: random.Random) -> tuple[int, str]:
        """A bid level (0 pass, 1..3; a level not above the highest bid counts as a pass) and why."""
        ...

    def play(self, view: PlayView, rng: random.Random) -> tuple[Move | None, str]:
        """The move (None = pass, only when following) and why."""
        ...


def check_move(hand: Counts, lead: Move | None, move: Move | None, rule: KickerRule) -> str | None:
    """Why ``move`` is illegal here, or None if it is legal."""
    if move is None:
        return "cannot pass on a free lead" if lead is None else None
    if not contains(hand, move.cards):
        return f"{move.text()} is not in the hand {format_counts(hand)}"
    if move not in classify(move.cards, rule):
        return f"{move.text()} is not a {move.kind.value}"
    if lead is not None and not beats(move, lead):
        return f"{move.text()} does not beat {lead.text()}"
    return None


def play_record(seat: int, move: Move | None) -> list[Any]:
    """A play as stored in a game record: [seat, cards, kind, main rank, size]."""
    if move is None:
        return [seat, "", "pass", "", 0]
    return [seat, move.text(), move.kind.value, format_counts(_one(move.main)), move.size]


def _one(rank: int) -> Counts:
    return tuple(1 if r == rank else 0 for r in range(NUM_RANKS))


def run_bidding(
    policies: Sequence[Policy], hands: list[Counts], first: int, rngs: list[random.Random]
) -> tuple[list[tuple[int, int]], list[str]]:
    """Each player once, from ``first``: pass or bid above the highest bid; 3 ends the auction."""
    bids: list[tuple[int, int]] = []
    reasons: list[str] = []
    highest = 0
    for i in range(3):
        seat = (first + i) % 3
        level, reason = policies[seat].bid(BidView(seat, hands[seat], tuple(bids)), rngs[seat])
        level = level if highest < level <= 3 else 0
        bids.append((seat, level))
        reasons.append(reason)
        highest = max(highest, level)
        if level == 3:
            break
    return bids, reasons


def play_game(
    policies: Sequence[Policy],
    seed: str,
    rules: DoudizhuRules = DoudizhuRules(),
    *,
    hands: list[Counts] | None = None,
    kitty: Counts | None = None,
    landlord: int = 0,
) -> dict[str, Any]:
    """Play one game and return its record (a JSON-ready dict).

    ``seed`` drives the deal, the first bidder and each seat's policy randomness. With
    ``rules.bidding`` false the given ``landlord`` seat takes the kitty at bid 1 (and ``hands`` and
    ``kitty``, if given, are used as the deal).
    """
    if len(policies) != 3:
        raise UsageError(f"Dou Dizhu needs 3 players, got {len(policies)}")
    deal_rng = random.Random(f"deal:{seed}")
    rngs = [random.Random(f"seat:{seed}:{s}") for s in range(3)]
    redeals = 0
    first = 0
    bids: list[tuple[int, int]] = []
    if rules.bidding:
        while True:
            hands, kitty = deal(deal_rng)
            first = deal_rng.randrange(3)
            bids, _ = run_bidding(policies, hands, first, rngs)
            top = max(b for _, b in bids)
            if top > 0:
                landlord = max(bids, key=lambda sb: sb[1])[0]
                bid = top
                break
            redeals += 1
            if redeals >= rules.max_redeals:  # nobody ever bids: the first bidder must take it at 1
                landlord, bid = first, 1
                break
    else:
        if hands is None or kitty is None:
            hands, kitty = deal(deal_rng)
        bid = 1
    assert hands is not None and kitty is not None
    dealt = [format_counts(h) for h in hands]
    cur = list(hands)
    cur[landlord] = add(cur[landlord], kitty)
    played: Counts = (0,) * NUM_RANKS
    history: list[tuple[int, Move | None]] = []
    plays_by_seat = [0, 0, 0]
    bombs = 0
    lead: Move | None = None
    lead_seat: int | None = None
    seat = landlord
    names = [p.name for p in policies]
    winner = -1
    while winner < 0:
        view = PlayView(
            seat=seat,
            hand=cur[seat],
            landlord=landlord,
            bid=bid,
            kitty=kitty,
            cards_left=(sum(cur[0]), sum(cur[1]), sum(cur[2])),
            lead=lead,
            lead_seat=lead_seat,
            played=played,
            history=tuple(history),
            rule=rules.kicker,
        )
        move, _ = policies[seat].play(view, rngs[seat])
        problem = check_move(cur[seat], lead, move, rules.kicker)
        if problem is not None:  # a policy bug, not bad input: fail loudly
            raise RuntimeError(f"policy {names[seat]} made an illegal move: {problem}")
        history.append((seat, move))
        if move is not None:
            cur[seat] = sub(cur[seat], move.cards)
            played = add(played, move.cards)
            plays_by_seat[seat] += 1
            bombs += move.is_bomb
            lead, lead_seat = as_lead(move, rules.kicker), seat
            if sum(cur[seat]) == 0:
                winner = seat
                break
        seat = (seat + 1) % 3
        if lead_seat == seat:  # two passes in a row: the last player to play leads anew
            lead = None
    return {
        "seed": seed,
        "rules": rules.to_dict(),
        "players": names,
        "hands": dealt,
        "kitty": format_counts(kitty),
        "redeals": redeals,
        "first_bidder": first,
        "bids": [list(b) for b in bids],
        "landlord": landlord,
        "bid": bid,
        "plays": [play_record(s, m) for s, m in history],
        **game_result(landlord, bid, winner, plays_by_seat, bombs, rules),
    }


def game_result(
    landlord: int, bid: int, winner: int, plays_by_seat: Sequence[int], bombs: int, rules: DoudizhuRules
) -> dict[str, Any]:
    """A finished game's result fields, as a record stores them (``replay`` checks a record's
    against these): ``plays_by_seat`` counts each seat's plays that were not passes, ``bombs`` the
    bombs and rockets played."""
    landlord_won = winner == landlord
    peasants = [s for s in range(3) if s != landlord]
    # Spring: the peasants never played; reverse spring: the landlord played only its opening lead.
    spring = all(plays_by_seat[s] == 0 for s in peasants) if landlord_won else plays_by_seat[landlord] == 1
    result = settle(
        landlord=landlord,
        landlord_won=landlord_won,
        bid=bid,
        bombs=bombs,
        spring=spring,
        base=rules.base,
        springs_count=rules.springs,
    )
    return {
        "winner": winner,
        "landlord_won": landlord_won,
        "bombs": bombs,
        "spring": result.spring,
        "stake": result.stake,
        "points": list(result.points),
    }


def auction_problem(
    bids: Sequence[Sequence[int]],
    landlord: int,
    bid: int,
    rules: DoudizhuRules,
    first_bidder: Any = None,
    redeals: int = 1,
) -> str | None:
    """Why recorded bids, landlord and bid (and the first bidder and the deals before, when given)
    could not come out of :func:`run_bidding` and :func:`play_game` under ``rules``, or None.
    ``bids`` are ``(seat, level)`` pairs, levels 0-3."""
    if not rules.bidding:  # the landlord is given and plays at bid 1
        if bids:
            return "bids in a game without bidding"
        return None if bid == 1 else f"bid {bid} in a game without bidding (1 expected)"
    if not bids:
        return "no bids"
    first = bids[0][0]
    if first_bidder is not None and first_bidder != first:
        return f"first_bidder is {first_bidder!r}, the bids start at seat {first}"
    highest = 0
    for i, (seat, level) in enumerate(bids):
        if seat != (first + i) % 3:
            return f"bid {i} is by seat {seat}, expected seat {(first + i) % 3} (each seat once, in turn)"
        if highest == 3:
            return f"bid {i} comes after a 3, which ends the auction"
        if level and level <= highest:
            return f"bid {i} ({level}) is not above the highest bid {highest}"
        highest = max(highest, level)
    if highest < 3 and len(bids) != 3:
        return f"{len(bids)} bids: each seat bids once unless a 3 ends the auction"
    # every deal passed out: the first bidder takes the last one at 1 (max_redeals), so this deal
    # was not the first (the engine deals again after three passes)
    if highest == 0 and redeals < 1:
        return "every seat passed on the first deal, where the cards are dealt again (redeals 0)"
    top, level = (first, 1) if highest == 0 else (max(bids, key=lambda b: b[1])[0], highest)
    if (landlord, bid) != (top, level):
        return f"landlord seat {landlord} at bid {bid}, where the bids make seat {top} landlord at {level}"
    return None
