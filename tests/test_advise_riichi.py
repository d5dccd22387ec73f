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
    assert "turn 8  discard decision" in out
    assert re.search(r"\(actual\) +discard 1p  what the player did", out)


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


def test_a_position_before_the_engine_stops_is_named_as_any_other(shared_logs: Path):
    """A log the engine rejects at event 36 (round E1-0, after turn 31): turn 3 of seat 1 is no
    decision, and lies before the stop; it was said to lie beyond it ("the engine stops before that
    position"). Positions after the stop still say where the engine stops."""
    path = str(shared_logs / "tenhou6-edge" / "confusing_nakis_2.json")
    with pytest.raises(
        UsageError, match=re.escape("seat 1 has decisions at turn(s) 2, 7, 8, 12, 15, 16, 20")
    ):
        advise_log(path, "E1", 0, 3, 1)
    assert advise_log(path, "E1", 0, 26, 1, policies="efficiency")["actual_text"] == "discard 9p"
    for round_label, turn in (("E1", 31), ("E1", 40), ("E2", 3)):
        with pytest.raises(
            UsageError, match=r"the engine stops before that position, in round E1-0 after turn 31 \(event 36"
        ):
            advise_log(path, round_label, 0, turn, 1)


def test_log_needs_a_position(log):
    with pytest.raises(UsageError, match="name the position"):
        run_riichi_advise(log)


def test_options_the_log_gives_are_refused_in_a_sentence(log):
    # it read "--dora does not apply to '...mjlog' is a log"
    with pytest.raises(UsageError) as err:
        run_riichi_advise(log, round_wind="E2", honba=0, turn=8, seat="1", dora="1m")
    assert str(err.value) == f"--dora does not apply to a position of the log '{log}' (the log gives them)"
    with pytest.raises(UsageError, match=r"^--seen, --melds do not apply to a position of the log '"):
        run_riichi_advise(log, round_wind="E2", honba=0, turn=8, seat="1", seen="1m", melds="pon:111z")


def test_a_round_label_may_hold_its_honba(log, capsys):
    """--round E2-0 as verify, replay and advise's own header write a round: the same position as
    --round E2 --honba 0 (it was 'not a round label like E1, E4, S2'); two honba that differ are refused."""

    def shown(**position) -> str:
        assert run_riichi_advise(log, turn=8, seat="1", json_out=True, **position) == 0
        return capsys.readouterr().out

    plain = shown(round_wind="E2", honba=0)
    assert '"actual"' in plain
    assert shown(round_wind="E2-0") == plain
    assert shown(round_wind="E2-0", honba=0) == plain
    with pytest.raises(UsageError, match=r"^--round 'E2-1' names honba 1, --honba 0: give one$"):
        run_riichi_advise(log, round_wind="E2-1", honba=0, turn=8, seat="1")
    with pytest.raises(UsageError, match="not a round label like E1, S2 or E2-1"):
        run_riichi_advise(log, round_wind="E2-x", turn=8, seat="1")


# ---------------------------------------------------------------- "would you call this?"


def test_the_issues_offered_example_as_written(capsys):
    # mjcli advise 9m555m23p68p789s34z --offered 4p --from E --seat S --policy mahjongjoy: under
    # reading 1 the plain 555m gives no yaku, the hand stays closed, and the answer is pass
    args = {"offered": "4p", "from_": "E", "seat": "S"}
    assert run_riichi_advise("9m555m23p68p789s34z", policy="mahjongjoy", json_out=True, **args) == 0
    obj = json.loads(capsys.readouterr().out)
    assert (obj["offered"], obj["offered_by"], obj["drawn"], obj["seat_wind"]) == ("4p", 0, None, "S")
    assert obj["legal"] == ["chi 4p (23p)", "pass"]
    (row,) = obj["policies"]
    assert row["action"] == "pass" and "builds a closed hand" in row["reason"]
    # the literal reading: "un Pon" is any concealed triplet, so the hand is open and PM0 4 chis
    assert run_riichi_advise("9m555m23p68p789s34z", policy="mahjongjoy-literal", **args) == 0
    out = capsys.readouterr().out
    assert "offered 4p by seat 0" in out and "chi 4p (23p)" in out and "has a pon of 5m" in out


def test_offered_through_the_real_entry_point():
    import subprocess
    import sys

    cmd = ["9m555m23p68p789s34z", "--offered", "4p", "--from", "E", "--seat", "S", "--policy", "mahjongjoy"]
    r = subprocess.run([sys.executable, "-m", "mjcli", "advise", *cmd], capture_output=True, text=True)
    assert r.returncode == 0 and re.search(r"mahjongjoy\s+pass\s", r.stdout), r.stdout + r.stderr


def test_offered_ron_and_pon():
    # tenpai on 3p/6p with a yaku (tanyao): a ron on offer, and a pon of 5m
    r = advise_hand("234m45p678s55m666s", offered="6p", offered_by=2, seat_wind=1, policies="all")
    assert r["legal"][0] == "ron 6p" and all(p["action"] == "ron" for p in r["policies"])
    r = advise_hand("234m45p678s55m666s", offered="5m", offered_by=3, seat_wind=1, policies="efficiency")
    assert r["legal"] == ["pon 5m (55m)", "pass"]


@pytest.mark.parametrize(
    "kwargs, error, fragment",
    [
        ({"offered": "4p"}, UsageError, "--offered and --from go together"),
        ({"from_": "E"}, UsageError, "--offered and --from go together"),
        ({"offered": "4p", "from_": "S"}, UsageError, "give another seat than the player's own"),
        ({"offered": "4p", "from_": "E", "hand": "9m555m23p68p789s34z1z"}, InvalidHandError, "has 13"),
        ({"offered": "5m", "from_": "E", "hand": "5555m23p68p789s34z"}, InvalidHandError, "5 copies of 5m"),
    ],
)
def test_offered_errors_name_the_input(kwargs, error, fragment):
    options = {"hand": "9m555m23p68p789s34z", "seat": "S", **kwargs}
    with pytest.raises(error, match=fragment):
        run_riichi_advise(**options)


def test_a_typed_table_with_hands_shown():
    from mjcli.riichi.advise import build_view

    view = build_view(parse_tiles("123m456p789s1122z3z"), shown={2: parse_tiles("123456789m1234z")})
    assert view.shown_hands == (None, None, tuple(parse_tiles("123456789m1234z")), None)
    r = advise_hand("123m456p789s1122z3z", shown={2: "123456789m1234z"}, policies="akagi")
    assert r["policies"][0]["tile"] == "3z"
    with pytest.raises(InvalidHandError, match="with the hands shown"):
        advise_hand("123m456p789s1122z3z", shown={2: "1111z"})
    with pytest.raises(UsageError, match="--shown 'W' is not SEAT:TILES"):
        run_riichi_advise("123m456p789s1122z3z", shown="W")
    with pytest.raises(UsageError, match="--hands-shown does not apply to a typed hand"):
        run_riichi_advise("123m456p789s1122z3z", hands_shown="akagi")


def test_the_shown_hands_are_reported(capsys):
    assert run_riichi_advise("123m456p789s1122z3z", shown="W:123456789m1234z", policy="akagi") == 0
    assert "shown by seat 2: 123456789m1234z" in capsys.readouterr().out
    assert run_riichi_advise("123m456p789s1122z3z", shown="W:123456789m1234z", json_out=True) == 0
    assert json.loads(capsys.readouterr().out)["shown_hands"] == {"2": "123456789m1234z"}


def test_a_file_of_several_games_names_the_game(tmp_path):
    """Two mjai games in one file: advise took the first one in silence whatever position was asked
    (a reviewer's finding); now --game-index picks one, as replay's game column numbers them, and
    without it the file's games are counted in the error."""
    from typer.testing import CliRunner

    from mjcli.cli import app
    from mjcli.riichi.replay import ReplayOptions, replay_file

    shared = Path(__file__).resolve().parents[2] / "shared" / "logs" / "mjai"
    two = tmp_path / "two.jsonl"
    two.write_bytes(
        (shared / "example_before_injection.jsonl").read_bytes()
        + (shared / "126_204_0_mjai.jsonl").read_bytes()
    )
    frame = replay_file(two, "two", ReplayOptions(("greedy",))).decisions
    second = frame.filter(frame["game"] == 1).row(10, named=True)
    position = [
        "--round",
        second["round"][:2],
        "--honba",
        str(second["honba"]),
        "--turn",
        str(second["turn"]),
    ]
    position += ["--seat", str(second["seat"]), "--policy", "greedy", "--json"]
    runner = CliRunner()
    r = runner.invoke(app, ["advise", str(two), *position])
    assert isinstance(r.exception, UsageError) and "holds 2 games: name one with --game-index 0-1" in str(
        r.exception
    )
    r = runner.invoke(app, ["advise", str(two), *position, "--game-index", "1"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    assert got["hand"] == second["hand"] and got["actual_text"] == second["actual"]
    r = runner.invoke(app, ["advise", "123m456p789s1122z3z", "--game-index", "1"])
    assert isinstance(r.exception, UsageError) and "--game-index does not apply to a typed hand" in str(
        r.exception
    )


def test_four_plain_fives_still_win():
    # 12233455556s33z + 4s drawn: 123s 234s 456s 555s and 33z, menzen tsumo. The scorer refuses four
    # plain 5s under red-five rules (score: "write it as 0s"), and that refusal used to hide the
    # tsumo: every bot discarded or made a kan from a complete hand.
    r = advise_hand("12233455556s33z4s")
    assert r["shanten"] == -1 and r["legal"][0] == "tsumo 4s"
    assert all(p["action"] == "tsumo" for p in r["policies"])
    # the same with the red five written: the answer does not depend on it
    assert advise_hand("12233405556s33z4s")["legal"][0] == "tsumo 4s"
    # a ron on the fourth plain five (tanyao: 234m 678p 345s 555s 22s)
    r = advise_hand("234m678p22s34555s", offered="5s", offered_by=2, seat_wind=1, policies="efficiency")
    assert r["legal"][0] == "ron 5s" and r["policies"][0]["action"] == "ron"


def test_own_riichi_needs_the_tiles_held_before_the_draw_tenpai():
    # 123m456p789s11z23z is one tile from tenpai: no riichi holds it, although drawing 2z makes the
    # 14 tiles tenpai after a discard (the check used to count the drawn tile in)
    with pytest.raises(UsageError, match="cannot be in riichi: the hand is not tenpai"):
        advise_hand("123m456p789s11z23z2z", riichi_by=[0])
    assert advise_hand("123m456p789s11z22z3z", riichi_by=[0])["legal"] == ["discard 3z"]
