"""Dou Dizhu, the card game of seed 002: cards, moves, the rules engine, the seed's hand planner
(ZhanPai and its Pn rating), playing policies, simulation and replay.

Modules, each with one job:

- ``cards``: ranks ``3456789TJQKA2BR``, hands as rank counts, notation, the deck and the deal.
- ``moves``: combination kinds, classification (kicker rules as an option), ``beats``, ``as_lead``.
- ``movegen``: legal moves of a hand on a free lead or against a lead.
- ``engine``: bidding, the play loop, the end of the game; what a player sees (``PlayView``).
- ``scoring``: the stake arithmetic (bid, bombs, rocket, spring).
- ``planner``: the seed's planner, reproduced with its quirks (``weights="seed"``) or corrected.
- ``policies``: ``zhanpai`` (the seed's bot), ``greedy`` and ``random``.
- ``simulate``, ``summary``: games in parallel, WP/ADP summaries, the duplicate comparison.
- ``formats``, ``replay``: JSON-lines game records and the walk through their decision points.
- ``advise``: the plan of a hand and each policy's move, for ``mjcli advise --game doudizhu``.
"""

import importlib

#: where each name of the package lives: imported on first use (PEP 562), so that importing
#: ``mjcli.doudizhu.game`` (every ``mjcli`` run reads the ``--game`` table) loads no move generator
_HOMES = {
    "format_counts": "cards",
    "parse_hand": "cards",
    "legal_moves": "movegen",
    "KickerRule": "moves",
    "Kind": "moves",
    "Move": "moves",
    "as_lead": "moves",
    "beats": "moves",
    "classify": "moves",
    "Plan": "planner",
    "Step": "planner",
    "plan": "planner",
}


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)


__all__ = [
    "Kind",
    "KickerRule",
    "Move",
    "Plan",
    "Step",
    "as_lead",
    "beats",
    "classify",
    "format_counts",
    "legal_moves",
    "parse_hand",
    "plan",
]
