"""The Hong Kong rules engine: ``wall`` (the seeded wall, front and back), ``actions`` (Move and
its text), ``view`` (what a seat sees), ``state`` (one hand as a state machine), ``table`` (a
game: the deal passing round, winds, scores)."""

from mjcli.hk.engine.actions import PASS, Move, parse_move
from mjcli.hk.engine.state import CLAIM, OVER, ROB, TURN, HandResult, HandState, IllegalMove
from mjcli.hk.engine.table import GameProgress, placements
from mjcli.hk.engine.view import SeatView

__all__ = [
    "CLAIM",
    "OVER",
    "PASS",
    "ROB",
    "TURN",
    "GameProgress",
    "HandResult",
    "HandState",
    "IllegalMove",
    "Move",
    "SeatView",
    "parse_move",
    "placements",
]
