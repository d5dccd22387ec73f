"""The walk's short cuts give what the long way gives, at every state of played games and logs.

* ``bridge.legal_listed`` of the seat on turn (its actions made from the engine's parts,
  ``actions.turn_options``) against the long way: the policy action of every move the engine lists
  (``legal_actions``), each action kept once at its first place, the drawn copy (tsumogiri) kept of
  the drawn tile's two discards.

Games: four-player and three-player, seats that win, call (kuikae) and declare riichi whenever they
may beside seats of the ``greedy`` policy; and every turn of the fixture logs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_engine_shortcuts import eager_and_greedy_seats

from mjcli.riichi.engine.actions import legal_actions
from mjcli.riichi.engine.state import TURN, Round
from mjcli.riichi.engine.table import Game
from mjcli.riichi.formats import read_log
from mjcli.riichi.policies.bridge import Legal, action_of, legal_listed
from mjcli.riichi.simulate.driver import play_game
from mjcli.riichi.simulate.run import game_specs, table_rules
from mjcli.riichi.simulate.wall import Wall

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _long_way(rnd: Round, seat: int) -> dict:
    back: dict = {}
    for move in legal_actions(rnd, seat):
        a = action_of(move)
        if a not in back or getattr(move[-1], "tsumogiri", False):
            back[a] = move  # (a key set again keeps its place)
    return back


def _check_turn(rnd: Round, counts: dict[str, int]) -> None:
    if rnd.phase != TURN:
        return
    seat = rnd.current
    legal = legal_listed(rnd, seat)
    assert isinstance(legal, Legal)
    want = _long_way(rnd, seat)
    assert legal.actions == tuple(want)
    assert legal.events == want
    for a, move in want.items():  # the same move: equal events, tsumogiri mark included
        assert [repr(e) for e in legal.events[a]] == [repr(e) for e in move]
    counts["turns"] += 1
    kinds = {a.kind for a in legal.actions}
    counts["riichi"] += "riichi" in kinds
    counts["twice"] += len(legal_actions(rnd, seat)) > len(legal.actions)
    counts["kuikae"] += bool(rnd.players[seat].kuikae)
    counts["in_riichi"] += rnd.players[seat].riichi
    counts["head"] += bool(kinds & {"tsumo", "closed_kan", "added_kan", "nukidora", "nine_terminals"})


@pytest.mark.parametrize("preset,players", [("tenhou", 4), ("tenhou-sanma", 3)])
def test_turn_legal_of_played_games(preset: str, players: int) -> None:
    counts = dict.fromkeys(("turns", "riichi", "twice", "kuikae", "in_riichi", "head"), 0)

    def observe(game: Game, rnd: Round, wall: Wall) -> None:
        _check_turn(rnd, counts)

    seats = eager_and_greedy_seats(players)
    for spec in game_specs([s.name for s in seats], 2, 21, table_rules(preset, "hanchan"), duplicate=False):
        play_game(spec, seats, observer=observe)
    assert counts["turns"] > 500
    assert all(counts.values()), counts  # every case met


def test_turn_legal_of_fixture_logs() -> None:
    counts = dict.fromkeys(("turns", "riichi", "twice", "kuikae", "in_riichi", "head"), 0)
    paths = sorted(p for p in (FIXTURES / "logs").iterdir() if p.is_file())
    for path in paths:
        try:
            games = read_log(path)
        except Exception:  # (a fixture that is a bad log on purpose)
            continue
        for g in games:
            game = Game()
            try:
                for i, e in enumerate(g.events):
                    game.apply(e, i)
                    rec = game.current
                    if rec is not None:
                        _check_turn(rec.state, counts)
            except Exception:  # (a log the engine rejects: its turns so far were checked)
                continue
    assert counts["turns"] > 1000
    assert counts["riichi"] and counts["twice"] and counts["kuikae"] and counts["in_riichi"], counts


def test_mjai_lines_read_once() -> None:
    """A line met again gives the object read the first time: equal to reading every line anew."""
    import json

    from mjcli.riichi.formats.mjai import _objects

    text = (FIXTURES / "logs" / "synthetic-akochan-dialect.jsonl").read_text()
    text += "\n" + text  # every line twice over, a blank line between
    objects = list(_objects(text, "x"))
    assert objects == [json.loads(line) for line in text.splitlines() if line.strip()]
    half = len(objects) // 2
    assert all(a is b for a, b in zip(objects[:half], objects[half:], strict=True))


def _deal(hands: list[list[int]], dora: int = 7, players: int = 4) -> object:
    from mjcli.riichi.engine import events as ev

    return ev.StartRound(0, 1, 0, 0, 0, dora, (25000,) * players, tuple(tuple(h) for h in hands))


@pytest.mark.parametrize(
    "last,message",
    [
        ((), None),
        ((9,), "a fifth copy"),  # a fifth 1p
        ((34,), None),  # the set's red 5m
        ((34, 34), "a second red five"),
        ((7, 7, 7), None),  # three 8m and the indicator
        ((7, 7, 7, 7), "a fifth copy"),  # four 8m and the indicator
    ],
)
def test_a_deal_is_checked_as_tile_by_tile(last: tuple[int, ...], message: str | None) -> None:
    """The deal counted at once gives the counts of revealing it tile by tile, and the same error."""
    from mjcli.riichi.engine.legality import IllegalEvent
    from mjcli.riichi.rules import get_rules

    # 1p-9p four times, 1s-4s four times: 52 tiles; the last of them replaced by ``last``
    tiles = [9 + i // 4 for i in range(36)] + [18 + i // 4 for i in range(16)]
    if last:
        tiles[-len(last) :] = last
    hands = [tiles[i * 13 : i * 13 + 13] for i in range(4)]
    try:
        rnd = Round(_deal(hands), get_rules("tenhou"))
    except IllegalEvent as exc:
        assert message is not None and message in str(exc), str(exc)
        return
    assert message is None
    seen = [0] * 34  # what revealing every tile one by one gives
    for t in [*tiles, 7]:
        seen[t if t < 34 else 4 + 9 * (t - 34)] += 1
    assert rnd.seen == seen
    assert rnd.seen_red == {t for t in tiles if t >= 34}


def test_a_three_player_deal_of_an_absent_kind_is_refused() -> None:
    from mjcli.riichi.engine.legality import IllegalEvent
    from mjcli.riichi.rules import get_rules

    tiles = [9 + i // 4 for i in range(36)] + [18]  # 1p-9p and a 1s: 37 of 39 dealt below
    hands = [tiles[0:13], tiles[13:26], tiles[26:36] + [18, 19, 20]]
    bad = [list(h) for h in hands]
    bad[2][12] = 3  # a 4m: no such tile in three-player
    Round(_deal(hands, dora=0, players=3), get_rules("tenhou-sanma"))
    with pytest.raises(IllegalEvent, match="has no such tile"):
        Round(_deal(bad, dora=0, players=3), get_rules("tenhou-sanma"))
