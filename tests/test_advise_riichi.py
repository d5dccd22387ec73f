"""``advise`` for riichi hand positions: the library function and the command body."""

import json
import re
from pathlib import Path

import pytest

from mjcli import games
from mjcli.errors import InvalidHandError, NotationError, UsageError
from mjcli.melds import parse_melds
from mjcli.riichi.advise import advise_hand, advise_log
from mjcli.riichi.policies import POLICY_NAMES
from mjcli.tiles import parse_tiles


def run_riichi_advise(hand, policy=None, round_wind=None, json_out=False, **options):
    """The riichi body of ``mjcli advise`` through the --game table, as the command calls it."""
    return games.run(
        "advise", "riichi", hand=hand, policies=policy, round_=round_wind, as_json=json_out, **options
    )


def test_advise_hand_shape_and_seed_example():
    r = advise_hand("2388m34556p33577s")
    assert r["hand"] == "2388m34556p33577s" and r["drawn"] == "7s" and r["actual"] is None
    assert [p["policy"] for p in r["policies"]] == list(POLICY_NAMES)
    akagi = r["policies"][0]
    assert (akagi["action"], akagi["tile"]) == ("discard", "8m") and akagi["reason"].startswith("2.1***")
    assert r["shanten"] == 2
    table = r["discards"]
    assert {d["tile"] for d in table} == {"2m", "3m", "8m", "3p", "4p", "5p", "6p", "3s", "5s", "7s"}
    assert table == sorted(table, key=lambda d: (d["shanten"], -d["ukeire"]))
    assert all(set(d) == {"tile", "shanten", "ukeire", "tiles"} for d in table)


def test_advise_hand_with_melds_dora_seen_and_winds():
    r = advise_hand(
        "123m456p78s11z5z",
        melds=parse_melds("pon:555z"),
        dora="7z",
        seen="9999s",
        round_wind=1,
        seat_wind=2,
        policies="efficiency,mahjongjoy",
    )
    assert r["melds"] == "pon:555z" and r["round_wind"] == "S" and r["seat_wind"] == "W"
    assert [p["policy"] for p in r["policies"]] == ["efficiency", "mahjongjoy"]
    assert all(p["action"] == "added_kan" for p in r["policies"])


def test_own_riichi_leaves_only_the_drawn_tile():
    r = advise_hand("123m456p789s1123s9p", riichi_by=[0], policies="all")
    assert r["legal"] == ["discard 9p"]
    assert all((p["action"], p["tile"]) == ("discard", "9p") for p in r["policies"])


@pytest.mark.parametrize(
    "kwargs, error, fragment",
    [
        ({"hand": "123x"}, NotationError, "unknown suit letter 'x'"),
        ({"hand": "123m456p789s11z"}, InvalidHandError, "has 11 tiles"),
        ({"hand": "11111m456p789s123s"}, InvalidHandError, "5 copies of 1m"),
        ({"hand": "2388m34556p33577s", "policies": "akagi,bogus"}, UsageError, "unknown policy 'bogus'"),
        ({"hand": "2388m34556p33577s", "seat_wind": 5}, UsageError, "seat wind 5"),
    ],
)
def test_bad_input_names_it(kwargs, error, fragment):
    with pytest.raises(error, match=fragment):
        advise_hand(**kwargs)


def test_command_body_human_output(capsys):
    assert run_riichi_advise("2388m34556p33577s", policy="akagi,greedy") == 0
    out = capsys.readouterr().out
    assert "akagi" in out and "discard 8m" in out and "2.1***" in out
    assert "greedy" in out and "mahjongjoy" not in out
    assert "discard  shanten  ukeire  tiles" in out


def test_command_body_json(capsys):
    assert run_riichi_advise("78889m2333455p99s", policy="akagi", json_out=True) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["policies"] == [
        {
            "policy": "akagi",
            "action": "discard",
            "tile": "9s",
            "consumed": None,
            "reason": obj["policies"][0]["reason"],
        }
    ]
    assert "actual" in obj and obj["actual"] is None


def test_command_body_options(capsys):
    run_riichi_advise("123m456p78s11z5z", melds="pon:555z", dora="7z", seat="S", riichi_by="N", json_out=True)
    obj = json.loads(capsys.readouterr().out)
    assert obj["seat_wind"] == "S" and obj["melds"] == "pon:555z" and obj["dora_indicators"] == "7z"


@pytest.fixture
def log(shared_logs: Path) -> str:
    """A real Tenhou game (E2: seat 1 deals)."""
    return str(shared_logs / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog")


def test_log_position_shows_the_actual_play(log, capsys):
    # --turn is decisions.parquet's turn: seat 1 (E2's dealer) decides after move 8 of the round
    assert run_riichi_advise(log, round_wind="E2", honba=0, turn=8, seat="1", json_out=True) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["round"] == "E2-0" and obj["seat"] == 1 and obj["turn"] == 8 and obj["kind"] == "discard"
    assert obj["actual"]["action"] == "discard" and obj["actual"]["tile"] == "1p"
    assert obj["actual_text"] == "discard 1p" and obj["tsumogiri"] is False
    assert [p["policy"] for p in obj["policies"]] == list(POLICY_NAMES)
    assert all(p["choice"].startswith("discard ") for p in obj["policies"])
    # the hand is what seat 1 held: 13 tiles and the drawn one
    assert obj["hand"] == "1478m1488p244569s" and obj["drawn"] == "1m"
    assert len(parse_tiles(obj["hand"])) == 14
    assert run_riichi_advise(log, round_wind="E2", honba=0, turn=8, seat="1") == 0
    out = capsys.readouterr().out
    assert "turn 8  discard decision" in out and "(actual)    discard 1p  what the player did" in out


def test_log_positions_are_the_rows_of_replay(log):
    """advise LOG at a row's (round, honba, turn, seat) shows the row's hand, action and choices."""
    from mjcli.riichi.replay import ReplayOptions, replay_file

    frame = replay_file(log, "log", ReplayOptions(tuple(POLICY_NAMES))).decisions
    points = frame.unique(["round", "honba", "turn", "seat"], keep="first", maintain_order=True)
    picked = []
    for kind in ("discard", "riichi", "call", "pass", "win", "kan"):
        picked.extend(points.filter(points["kind"] == kind).head(2).rows(named=True))
    picked.extend(points.filter(points["round"].str.starts_with("S")).tail(3).rows(named=True))
    assert {r["kind"] for r in picked} >= {"discard", "riichi", "call", "pass", "win"}
    for r in picked:
        got = advise_log(log, r["round"], r["honba"], r["turn"], r["seat"])
        assert got["kind"] == r["kind"]
        assert got["hand"] == r["hand"] and got["drawn"] == r["drawn"]
        assert got["actual_text"] == r["actual"] and got["tsumogiri"] == r["tsumogiri"]
        rows = frame.filter(
            (frame["round"] == r["round"])
            & (frame["honba"] == r["honba"])
            & (frame["turn"] == r["turn"])
            & (frame["seat"] == r["seat"])
        )
        assert {p["policy"]: p["choice"] for p in got["policies"]} == dict(
            zip(rows["policy"], rows["choice"], strict=True)
        )


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"round_label": "E9", "turn": 1, "seat": 1}, "not a round label"),
        ({"round_label": "W1", "turn": 1, "seat": 1}, "no round W1-0"),
        ({"round_label": "E2", "turn": 99, "seat": 1}, "turn(s) 0, 8, 16,"),
        ({"round_label": "E2", "turn": 7, "seat": 1}, "in round E2-0, not 7"),
        ({"round_label": "E2", "turn": 1, "seat": 7}, "seat 7 is not 0..3"),
    ],
)
def test_log_position_errors_name_the_input(log, kwargs, fragment):
    with pytest.raises(UsageError, match=re.escape(fragment)):
        advise_log(log, honba=0, **kwargs)


def test_log_needs_a_position(log):
    with pytest.raises(UsageError, match="name the position"):
        run_riichi_advise(log)
