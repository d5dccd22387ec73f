"""The engine's one door to ``mjcli.riichi.scoring``: a won hand in, han/fu/yaku/base points out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mjcli.melds import Meld
from mjcli.riichi.rules import Rules
from mjcli.riichi.scoring import ScoreResult, WinContext, score_hand


@dataclass(frozen=True, slots=True)
class ScoredWin:
    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]  # (canonical id, han); yakuman as 13 per unit
    base: int  # base points (fu x 2^(han+2), or the limit)
    limit: str | None
    yakuman: int  # yakuman units
    result: ScoreResult


def score_win(
    concealed: Sequence[int], win_tile: int, melds: Sequence[Meld], ctx: WinContext, rules: Rules
) -> ScoredWin:
    """Score a win; raises ScoringError when the hand is not complete or has no yaku. The engine
    reads no explanation: ``result.fu_details`` are the library's fu items as they are."""
    r = score_hand(concealed, win_tile, melds, ctx, rules, explain=False)
    return ScoredWin(
        han=r.han,
        fu=r.fu,
        yaku=tuple((i, h) for i, _, h in r.yaku if h > 0),
        base=r.base_points,
        limit=r.limit,
        yakuman=r.yakuman,
        result=r,
    )


def pao_units(scored: ScoredWin, yaku_id: str) -> int:
    """Yakuman units of ``yaku_id`` (daisangen / daisuushi) in the hand: what the liable seat answers for."""
    if not yaku_id:
        return 0
    return sum(h for i, h in scored.yaku if i == yaku_id) // 13
