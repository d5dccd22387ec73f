"""A game: hands one after another, the deal passing round, the prevailing wind, the scores.

The first dealer is seat 0. The dealer keeps the deal when they win or the hand is drawn (the
wall exhausted); otherwise it passes to the next seat. When it has passed all four seats the
prevailing wind moves on (East, South, West, North). A game of length ``east`` ends when the
East round is over, ``full`` after the North round; a game that reaches the rules' ``max_hands``
ends there (a table that keeps drawing would otherwise never end). Scores start at 0 and move by
each hand's settlement, so they always sum to zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mjcli.hk.engine.state import HandResult
from mjcli.hk.rules import HKRules

WIND_LETTERS = "ESWN"


@dataclass(slots=True)
class GameProgress:
    rules: HKRules
    dealer: int = 0
    prevailing: int = 0
    repeat: int = 0
    hand_index: int = 0
    dealers_passed: int = 0
    scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    finished: bool = False

    def label(self) -> str:
        """``E1-0``: the prevailing wind, the dealer's number in this wind's round, the repeats."""
        return f"{WIND_LETTERS[self.prevailing]}{self.dealer + 1}-{self.repeat}"

    def after(self, result: HandResult) -> None:
        """Move the game on past a finished hand."""
        for s in range(4):
            self.scores[s] += result.deltas[s]
        self.hand_index += 1
        if result.kind == "draw" or result.winner == self.dealer:
            self.repeat += 1
        else:
            self.repeat = 0
            self.dealer = (self.dealer + 1) % 4
            if self.dealer == 0:
                self.prevailing += 1
        rounds = 1 if self.rules.length == "east" else 4
        self.finished = self.prevailing >= rounds or self.hand_index >= self.rules.max_hands


def placements(scores: list[int]) -> list[int]:
    """1-4 per seat, best score first; ties go to the seat nearer the first dealer (seat 0)."""
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    out = [0] * 4
    for place, s in enumerate(order, 1):
        out[s] = place
    return out
