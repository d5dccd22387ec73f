"""``advise --game doudizhu``: the seed's plan of a hand and each policy's move with its reason."""

from __future__ import annotations

import random
from typing import Any

from mjcli.doudizhu.cards import NUM_RANKS, Counts, add, check_counts, parse_hand
from mjcli.doudizhu.engine import PlayView
from mjcli.doudizhu.formats import move_text
from mjcli.doudizhu.moves import Move, as_lead, classify_one, kicker_rule
from mjcli.doudizhu.planner import plan
from mjcli.doudizhu.policies import POLICIES, get_policy
from mjcli.errors import InvalidHandError
from mjcli.plugins import Registry


def parse_lead(text: str, rule: str = "douzero") -> Move:
    kicker = kicker_rule(rule)
    counts = parse_hand(text, allow_empty=True)
    if sum(counts) == 0:  # (parse_hand would call it an "empty hand": the hand is another input)
        raise InvalidHandError(f"lead {text!r} holds no card: leave --lead out for a free lead")
    move = classify_one(counts, kicker)
    if move is None:
        raise InvalidHandError(f"lead {text!r} is not a legal combination")
    return as_lead(move, kicker)


def table_view(hand: Counts, lead: Move | None, landlord: bool, rule: str = "douzero") -> PlayView:
    """The table as ``advise`` assumes it: we sit at seat 0; the lead, if any, was just played by the
    previous player (seat 2), an opponent: a peasant when we are the landlord, the landlord when we
    are a peasant. Opponents are taken to hold 17 cards, and no card has been played but the lead."""
    played: Counts = lead.cards if lead is not None else (0,) * NUM_RANKS
    check_counts(add(hand, played), "the hand and the lead together")
    return PlayView(
        seat=0,
        hand=hand,
        landlord=0 if landlord else 2,
        bid=1,
        kitty=(0,) * NUM_RANKS,
        cards_left=(sum(hand), 17, 17),
        lead=lead,
        lead_seat=2 if lead is not None else None,
        played=played,
        history=((2, lead),) if lead is not None else (),
        rule=kicker_rule(rule),
    )


def advise(
    hand_text: str,
    *,
    lead_text: str | None = None,
    landlord: bool = False,
    policies: list[str] | None = None,
    weights: str = "seed",
    kicker: str = "douzero",
    seed: int = 0,
    registry: Registry | None = None,
) -> dict[str, Any]:
    """The plan of the hand (steps, types, Pn) and each policy's move and reason (``registry``:
    where the names come from; default the built-ins)."""
    hand = parse_hand(hand_text)
    lead = parse_lead(lead_text, kicker) if lead_text else None
    view = table_view(hand, lead, landlord, kicker)
    p = plan(hand, weights)
    names = policies or list(POLICIES)
    answers = []
    for name in names:
        policy = get_policy(name, registry)
        move, reason = policy.play(view, random.Random(f"advise:{seed}:{name}"))
        answers.append(
            {
                "policy": name,
                "move": move_text(move),
                "type": move.kind.value if move is not None else "pass",
                "reason": reason,
            }
        )
    return {
        "game": "doudizhu",
        "hand": hand_text,
        "cards": sum(hand),
        "role": "landlord" if landlord else "peasant",
        "lead": None if lead is None else {"cards": lead.text(), "type": lead.kind.value},
        "plan": {
            "pn": p.pn,
            "raw_pn": p.raw_pn,
            "weights": p.weights,
            "steps": [{"type": s.name, "cards": s.text(), "seed_type": s.type} for s in p.steps],
        },
        "policies": answers,
    }
