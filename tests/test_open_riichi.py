"""Seed 001's table: the open-riichi house rule and the seats that play with their hand shown.

The seed: "패를 모두 공개한 채로 게임을 진행한다" (the game is played with the NPC's tiles all shown),
its riichi "항상 오픈 리치로 간주한다" (is always deemed an open riichi), and its arithmetic
"오픈리치멘젠쯔모 3판을 기본으로 ... 핑후 도라1의 만관까지" (open riichi + menzen tsumo, 3 han at
least; with pinfu and one dora, a mangan).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.riichi.bots import protocol as wire
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.state import Round
from mjcli.riichi.formats import read_bytes
from mjcli.riichi.policies.bridge import ViewBuilder, legal_of
from mjcli.riichi.replay import decisions_of, with_hands_shown
from mjcli.riichi.rules import get_rules
from mjcli.riichi.scoring import score_typed
from mjcli.riichi.simulate.run import game_output, game_specs, play, simulate, table_rules
from mjcli.riichi.simulate.seats import PolicySeat
from mjcli.tiles import parse_tiles, sort_key

runner = CliRunner()
NAMES = ["akagi", "mahjongjoy", "greedy", "efficiency"]


def yaku(typed) -> list[tuple[str, int]]:
    return [(y, h) for y, _, h in typed.result.yaku]


# ---------------------------------------------------------------- scoring: the values chosen


def test_open_riichi_and_menzen_tsumo_are_3_han():
    # "오픈리치멘젠쯔모 3판": a hand with no other yaku, won by tsumo
    s = score_typed("123678m567p23455s", "5s", seat="S", tsumo=True, riichi=True, open_riichi=True)
    assert yaku(s) == [("tsumo", 1), ("open_riichi", 2)]
    assert (s.result.han, s.result.fu, s.result.payments) == (3, 30, {"dealer": 2000, "non_dealer": 1000})


def test_with_pinfu_and_one_dora_it_is_a_mangan():
    # "핑후 도라1의 만관까지 쉽게 올라갑니다"
    s = score_typed("234567m34599p678s", "4m", seat="S", dora="1m", tsumo=True, riichi=True, open_riichi=True)
    assert sorted(yaku(s)) == [("dora", 1), ("open_riichi", 2), ("pinfu", 1), ("tsumo", 1)]
    assert s.result.limit == "mangan" and s.result.payments == {"dealer": 4000, "non_dealer": 2000}


def test_a_ron_from_a_player_not_in_riichi_pays_yakuman():
    s = score_typed("123678m567p23455s", "5s", seat="S", riichi=True, open_riichi=True)
    assert yaku(s) == [("sashikomi", 13)] and s.result.yakuman == 1
    assert s.result.payments == {"discarder": 32000}
    dealer = score_typed("123678m567p23455s", "5s", seat="E", riichi=True, open_riichi=True)
    assert dealer.result.payments == {"discarder": 48000}


def test_a_ron_from_a_player_in_riichi_pays_the_normal_value():
    s = score_typed("123678m567p23455s", "5s", seat="S", riichi=True, open_riichi=True, discarder_riichi=True)
    assert yaku(s) == [("open_riichi", 2)] and s.result.payments == {"discarder": 2600}
    plain = score_typed("123678m567p23455s", "5s", seat="S", riichi=True)
    assert yaku(plain) == [("riichi", 1)] and plain.result.payments == {"discarder": 1300}


def test_double_open_riichi_is_3_han_and_a_tsumo_is_never_a_yakuman():
    s = score_typed("123678m567p23455s", "5s", seat="S", tsumo=True, double_riichi=True, open_riichi=True)
    assert yaku(s) == [("tsumo", 1), ("daburu_open_riichi", 3)] and s.result.yakuman == 0


def test_open_riichi_needs_a_riichi():
    with pytest.raises(UsageError, match="open riichi is a riichi"):
        score_typed("123678m567p23455s", "5s", seat="S", open_riichi=True)
    # the command's error (mjcli.cli.main prints it as one line, exit 2)
    result = runner.invoke(app, ["score", "123678m567p23455s", "--win", "5s", "--open-riichi"])
    assert isinstance(result.exception, UsageError)
    assert "--open-riichi is a kind of riichi" in str(result.exception)
    result = runner.invoke(
        app, ["score", "123678m567p23455s", "--win", "5s", "--riichi", "--discarder-riichi"]
    )
    assert isinstance(result.exception, UsageError)
    assert "--discarder-riichi is about a ron on an open riichi" in str(result.exception)


def test_score_command_open_riichi_json():
    args = ["score", "123678m567p23455s", "--win", "5s", "--riichi", "--open-riichi", "--seat", "S", "--json"]
    out = json.loads(runner.invoke(app, args).stdout)
    assert out["total"] == 32000 and [y["id"] for y in out["yaku"]] == ["sashikomi"]


# ---------------------------------------------------------------- the engine: whose riichi is open


def _round(open_riichi: bool, shown: frozenset[int]) -> Round:
    # seat 1 (South) holds 123678m567p2345s and waits on 2s/5s; seats 0, 2, 3 hold anything else
    hands = (
        tuple(parse_tiles("1111p2222p3333p9s")),
        tuple(parse_tiles("123678m567p2345s")),
        tuple(parse_tiles("4444p8888p9999p9s")),
        tuple(parse_tiles("1111z2222z3333z4z")),
    )
    start = ev.StartRound(0, 1, 0, 0, 0, parse_tiles("7z")[0], (25000,) * 4, hands)
    rules = dataclasses.replace(get_rules("tenhou-nored"), open_riichi=open_riichi)
    return Round(start, rules, hands_shown=shown)


@pytest.mark.parametrize(
    ("open_riichi", "shown", "discarder_riichi", "expected"),
    [
        (True, {1}, False, [("sashikomi", 13)]),  # a player not in riichi deals in: yakuman
        (True, {1}, True, [("open_riichi", 2)]),  # a player in riichi: the normal value
        (True, set(), False, [("riichi", 1)]),  # the hand is not shown: an ordinary riichi
        (False, {1}, False, [("riichi", 1)]),  # no house rule (Tenhou): an ordinary riichi
    ],
)
def test_the_riichi_of_a_seat_with_its_hand_shown_is_open(open_riichi, shown, discarder_riichi, expected):
    rnd = _round(open_riichi, frozenset(shown))
    rnd.players[1].riichi = True
    rnd.current = 2  # seat 2 discards the 5s
    rnd.players[2].riichi = discarder_riichi
    scored = rnd.score_for(1, parse_tiles("5s")[0], tsumo=False)
    assert [(y, h) for y, h in scored.yaku] == expected
    assert rnd.is_open_riichi(1) == (open_riichi and 1 in shown)


# ---------------------------------------------------------------- simulate: views and logs


class RecordingSeat(PolicySeat):
    def choose(self, rnd, seat, where, views=None):  # type: ignore[no-untyped-def]
        if len(legal_of(rnd, seat).actions) > 1:
            # seat 0's concealed tiles at that moment, its drawn tile included, in hand order
            seen.append((seat, ViewBuilder(rnd).view(seat), tuple(sorted(rnd.players[0].hand, key=sort_key))))
        return super().choose(rnd, seat, where, views)


seen: list = []


def test_every_akagi_seat_is_shown_to_the_others_by_default():
    (spec,) = game_specs(NAMES, 1, 2026, table_rules("tenhou", "tonpuu"), duplicate=False)
    assert spec.hands_shown == (0,)  # akagi sits in seat 0 in the first game
    seen.clear()
    out = game_output(play(spec, {n: RecordingSeat(n) for n in NAMES}))
    assert len(seen) > 100
    for seat, view, akagi_hand in seen:
        if seat == 0:
            assert all(h is None for h in view.shown_hands)
        else:
            assert view.shown_hands == (akagi_hand, None, None, None)
        # the shown hand is no public tile: the counts of the table stay as they were
        assert view.visible_counts() == dataclasses.replace(view, shown_hands=()).visible_counts()
    # the logs record it, and give the same views back
    for name, text in (("g.json", out.tenhou6), ("g.mjai.jsonl", out.mjai)):
        (game,) = read_bytes(text.encode(), name)
        assert game.events[0].rules.hands_shown == (0,)
        views = [d.view for d in decisions_of(game.events, table_rules("tenhou", "tonpuu"))]
        assert sorted(map(repr, views)) == sorted(repr(v) for _, v, _ in seen)


def test_hands_shown_none_and_other_policies(tmp_path: Path):
    summary = simulate(["greedy", "akagi"], 1, 3, out=tmp_path / "a", length="tonpuu", hands_shown="none")
    assert summary["hands_shown"] == []
    text = next((tmp_path / "a" / "logs").glob("*.json")).read_text()
    assert "hands_shown" not in text
    (spec,) = game_specs(["greedy", "akagi"], 1, 3, table_rules("tenhou"), False, ("greedy",))
    assert spec.hands_shown == (0, 2)
    with pytest.raises(UsageError, match="'nobody' is not a policy"):
        simulate(["greedy"], 1, 3, hands_shown="nobody")


def test_simulate_open_riichi_plays_and_verifies(tmp_path: Path):
    result = runner.invoke(
        app,
        [
            "simulate",
            "--games",
            "2",
            "--seed",
            "5",
            "--length",
            "tonpuu",
            "--open-riichi",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["rules"] == "tenhou-tonpuu+open-riichi" and summary["hands_shown"] == ["akagi"]
    log = json.loads((tmp_path / "logs" / "sim-000000.json").read_text())
    assert log["rule"]["open_riichi"] == 1 and log["rule"]["hands_shown"] == [0]
    # this seed has a deal-in to akagi's open riichi by a player not in riichi: a yakuman
    assert "オープン立直放銃(役満)" in json.dumps(log, ensure_ascii=False)
    verified = runner.invoke(app, ["verify", str(tmp_path / "logs")])
    assert verified.exit_code == 0 and "4 ok, 0 mismatching" in verified.output


def test_help_says_akagi_seats_are_shown_and_how_to_turn_it_off():
    text = " ".join(runner.invoke(app, ["simulate", "--help"]).output.split())
    assert "--hands-shown" in text and "every akagi seat plays with its hand" in text
    assert "none turns it off" in text


# ---------------------------------------------------------------- replay, advise, mjai bots


def test_replay_can_show_or_hide_hands(tmp_path: Path):
    simulate(NAMES, 1, 2026, out=tmp_path, length="tonpuu")
    (game,) = read_bytes((tmp_path / "logs" / "sim-000000.json").read_bytes(), "g.json")
    assert with_hands_shown(game.events, None) is game.events
    hidden = with_hands_shown(game.events, ())
    assert hidden[0].rules.hands_shown == () and hidden[1:] == game.events[1:]
    assert with_hands_shown(game.events, ["GREEDY"])[0].rules.hands_shown == (2,)
    views = [d.view for d in decisions_of(hidden)]
    assert views and all(v.shown_hands == () for v in views)
    for opt in ([], ["--hands-shown", "none"]):
        result = runner.invoke(app, ["replay", str(tmp_path / "logs"), "--policies", "efficiency", *opt])
        assert result.exit_code == 0, result.output


def test_mjai_bots_get_the_shown_seats_tiles_unmasked():
    draw = ev.Draw(2, parse_tiles("7s")[0])
    assert json.loads(wire.masked(draw, 1))["pai"] == "?"
    assert json.loads(wire.masked(draw, 1, frozenset({2})))["pai"] == "7s"
    hands = tuple(tuple(parse_tiles(h)) for h in ("123m456p789s1234z",) * 4)
    start = ev.StartRound(0, 1, 0, 0, 0, parse_tiles("5z")[0], (25000,) * 4, hands)
    tehais = json.loads(wire.masked(start, 1, frozenset({3})))["tehais"]
    assert tehais[0] == ["?"] * 13 and tehais[2] == ["?"] * 13
    assert (
        tehais[1] == tehais[3] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "S", "W", "N"]
    )


def test_a_log_naming_impossible_shown_seats_is_a_format_error(tmp_path: Path):
    from mjcli.errors import LogFormatError

    simulate(NAMES, 1, 2026, out=tmp_path, length="tonpuu")
    text = (
        (tmp_path / "logs" / "sim-000000.json").read_text().replace('"hands_shown":[0]', '"hands_shown":[7]')
    )
    with pytest.raises(LogFormatError, match=r"rule.hands_shown \[7\] is not a list of seats 0-3"):
        read_bytes(text.encode(), "bad.json")
    result = runner.invoke(app, ["verify", str(_write(tmp_path / "bad.json", text))])
    assert result.exit_code != 0 and "rule.hands_shown [7]" in result.output


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path
