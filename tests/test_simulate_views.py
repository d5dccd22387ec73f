"""Views built on demand (``simulate.seats``): the same views as the bridge builds, read or kept."""

from __future__ import annotations

import copy
import dataclasses
import pickle

from mjcli.riichi.policies.bridge import ViewBuilder
from mjcli.riichi.policies.view import PlayerView
from mjcli.riichi.simulate.driver import play_game
from mjcli.riichi.simulate.run import game_specs, table_rules
from mjcli.riichi.simulate.seats import PolicySeat


class _Keeper:
    """Keeps some views unread, reads others at once, and compares them with the bridge's own."""

    name = "keeper"

    def __init__(self) -> None:
        self.asked = 0
        self.kept: list[tuple[PlayerView, PlayerView]] = []

    def decide(self, view: PlayerView, legal: list) -> object:
        self.asked += 1
        d = view.__dict__
        eager = ViewBuilder(d["_views"].rnd).view(d["_seat"])
        way = self.asked % 4
        if way == 1:
            self.kept.append((view, eager))  # not read while deciding
            return legal[0]
        assert type(view) is not PlayerView  # not built yet: each way below builds it
        if way == 2:
            assert view == eager and hash(view) == hash(eager) and repr(view) == repr(eager)
        elif way == 3:
            plain = pickle.loads(pickle.dumps(view))
            assert type(plain) is PlayerView and plain.__dict__ == eager.__dict__
        else:
            assert copy.copy(view).__dict__ == eager.__dict__
        assert type(view) is PlayerView and view.__dict__ == eager.__dict__
        assert dataclasses.replace(view, seat=view.seat) == view
        return legal[0]


def test_views_on_demand_are_the_bridges() -> None:
    keepers = [_Keeper(), _Keeper()]
    seats = [
        PolicySeat("greedy", policy=keepers[0]),
        PolicySeat("greedy"),
        PolicySeat("greedy", policy=keepers[1]),
    ]  # type: ignore[arg-type]
    seats.append(PolicySeat("efficiency"))
    for spec in game_specs([s.name for s in seats], 2, 11, table_rules("tenhou", "hanchan"), duplicate=False):
        play_game(spec, seats)
    kept = [pair for k in keepers for pair in k.kept]
    assert len(kept) > 100
    for view, eager in kept:  # built when the seat found them kept, before the round moved on
        assert type(view) is PlayerView and view.__dict__ == eager.__dict__
