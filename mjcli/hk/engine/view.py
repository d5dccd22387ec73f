"""What one seat sees at a decision point (:class:`SeatView`): its own hand and everything on the
table, never another player's concealed tiles or the wall."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import sub

from mjcli.hk.rules import HKRules
from mjcli.melds import Meld


@dataclass(slots=True)
class SeatView:
    """``hand`` are the 34 counts of the concealed tiles (the drawn tile included), ``jokers`` the
    jokers among them; ``visible`` counts every tile lying open (all rivers and every meld, the
    concealed kongs too), ``own_meld_counts`` the tiles of this seat's own melds. ``phase`` is
    ``turn`` (own turn; ``after_call``: right after a pung or chow, only a discard), ``claim``
    (another player's discard ``offer`` = (seat, tile)) or ``rob`` (another player's added kong).

    A view is made at every decision, so it is cheap: the sequences are the engine's own (a
    policy reads them and never changes them), valid while the decision is being made."""

    seat: int
    seat_wind: int
    prevailing_wind: int
    dealer: int
    phase: str
    hand: Sequence[int]
    jokers: int
    drawn: int | None
    after_call: bool
    melds: Sequence[Meld]
    bonus: Sequence[int]
    all_melds: Sequence[Sequence[Meld]]
    rivers: Sequence[Sequence[int]]
    visible: Sequence[int]
    own_meld_counts: Sequence[int]
    wall_left: int
    offer: tuple[int, int] | None
    rules: HKRules

    def exposed_counts(self) -> list[int]:
        """Seed 000's "Fichas Expuestas": every river tile and the other players' melds (concealed
        kongs included), not the seat's own melds; bonus tiles and jokers are never among them."""
        # map over operator.sub: about twice as fast as a comprehension (asked at every discard)
        return list(map(sub, self.visible, self.own_meld_counts))
