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
- ``records``, ``replay``: JSON-lines game records and the walk through their decision points.
- ``advise``: the plan of a hand and each policy's move, for ``mjcli advise --game doudizhu``.
"""

from mjcli.doudizhu.cards import format_counts, parse_hand
from mjcli.doudizhu.movegen import legal_moves
from mjcli.doudizhu.moves import KickerRule, Kind, Move, as_lead, beats, classify
from mjcli.doudizhu.planner import Plan, Step, plan

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
