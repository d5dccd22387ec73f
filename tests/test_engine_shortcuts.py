"""The engine's shortcuts give what the long way gives, at every state of a few played games.

* ``Player.complete_with(drawn)`` (the memoised waits of the hand before the draw) against
  ``is_complete`` of the 14 tiles;
* ``can_win`` without scoring (a complete hand in riichi, or won by a closed tsumo) against a real
  score of the same win, which must not fail;
* the round's score memo: the same answer as a fresh score, and emptied by the next event.

Games: four-player and three-player, seats that win, call and declare riichi whenever they may
beside seats of the ``greedy`` policy (so that riichi and closed-hand wins happen, and open hands
complete without a yaku).
"""

from __future__ import annotations

import pytest

from mjcli.errors import MjcliError
from mjcli.riichi.engine.actions import can_win
from mjcli.riichi.engine.state import TURN, Round
from mjcli.riichi.engine.table import Game
from mjcli.riichi.engine.waits import is_complete
from mjcli.riichi.policies import get_policy
from mjcli.riichi.simulate.driver import play_game
from mjcli.riichi.simulate.run import game_specs, table_rules
from mjcli.riichi.simulate.seats import PolicySeat
from mjcli.riichi.simulate.wall import Wall
from mjcli.tiles import kind


class Eager:
    """A win, a call or a riichi whenever offered (in that order), else what the ``greedy`` policy
    does: hands reach tenpai closed and in riichi, and open with or without a yaku."""

    name = "eager"

    def __init__(self) -> None:
        self.greedy = get_policy("greedy")

    def decide(self, view: object, legal: list) -> object:
        for wanted in ("tsumo", "ron", "pon", "chi", "riichi"):
            for a in legal:
                if a.kind == wanted:
                    return a
        return self.greedy.decide(view, legal)


def eager_and_greedy_seats(players: int) -> list[PolicySeat]:
    """Eager seats (calls, riichi) and plain greedy ones, alternately."""
    return [
        PolicySeat("greedy", policy=Eager()) if s % 2 == 0 else PolicySeat("greedy")  # type: ignore[arg-type]
        for s in range(players)
    ]


def _scored_for_real(rnd: Round, seat: int, tile: int, tsumo: bool) -> bool:
    rnd._scored.clear()
    try:
        rnd.score_for(seat, tile, tsumo)
    except MjcliError:
        return False
    finally:
        rnd._scored.clear()
    return True


@pytest.mark.parametrize("preset,players", [("tenhou", 4), ("tenhou-sanma", 3)])
def test_shortcuts_agree_with_the_long_way(preset: str, players: int) -> None:
    checked = {
        "draws": 0,
        "complete": 0,
        "riichi_or_closed_wins": 0,
        "rons": 0,
        "riichi_rons": 0,
        "no_yaku": 0,
    }

    def observe(game: Game, rnd: Round, wall: Wall) -> None:
        if rnd.phase == TURN and rnd.drawn is not None:
            seat = rnd.current
            p = rnd.players[seat]
            checked["draws"] += 1
            complete = is_complete(p.counts)
            assert p.complete_with(rnd.drawn) == complete
            if complete:
                checked["complete"] += 1
                quick = can_win(rnd, seat, rnd.drawn, tsumo=True)
                assert quick == _scored_for_real(rnd, seat, rnd.drawn, True)
                checked["riichi_or_closed_wins"] += quick and (p.riichi or p.closed)
                checked["no_yaku"] += not quick
        elif rnd.last_tile is not None and rnd.phase == "react":
            for seat, p in enumerate(rnd.players):
                if seat == rnd.current or kind(rnd.last_tile) not in p.waits() or p.furiten():
                    continue
                checked["rons"] += 1
                quick = can_win(rnd, seat, rnd.last_tile, tsumo=False)
                assert quick == _scored_for_real(rnd, seat, rnd.last_tile, False)
                checked["riichi_rons"] += quick and p.riichi
                checked["no_yaku"] += not quick
                # the memo answers the same question with the very same result, until the next event
                first = rnd.score_for(seat, rnd.last_tile, False) if quick else None
                if first is not None:
                    assert rnd.score_for(seat, rnd.last_tile, False) is first

    seats = eager_and_greedy_seats(players)
    for spec in game_specs([s.name for s in seats], 3, 15, table_rules(preset, "hanchan"), duplicate=False):
        play_game(spec, seats, observer=observe)
    assert checked["draws"] > 500
    # both kinds of case met: wins the shortcut answers, and complete hands that cannot win
    assert checked["riichi_or_closed_wins"] + checked["riichi_rons"] and checked["no_yaku"], checked


def test_the_score_memo_is_emptied_by_every_event() -> None:
    seats = [PolicySeat("greedy", policy=Eager()) for _ in range(4)]  # type: ignore[arg-type]
    seen = {"memo_after_event": 0}

    def observe(game: Game, rnd: Round, wall: Wall) -> None:
        seen["memo_after_event"] += bool(rnd._scored)

    spec = game_specs(["greedy"] * 4, 1, 3, table_rules("tenhou", "hanchan"), duplicate=False)[0]
    played = play_game(spec, seats, observer=observe)
    assert seen["memo_after_event"] == 0
    assert any(type(e).__name__ == "Win" for e in played.events)
