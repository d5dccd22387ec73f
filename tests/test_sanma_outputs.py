"""Three-player outputs through main's newer features: replay with a plugin beside the built-ins,
`mjcli report` of a three-player replay, simulation and verify run (three ranks, the advise
commands on the page reopen their positions), and advise at a log position by wind."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import polars as pl
import pytest
from test_bots import BOTS, _masked, _rounds, command, copy, invoke
from test_report import page_of
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.report.riichi_replay import phase, with_players
from mjcli.riichi.engine import events as ev
from mjcli.riichi.formats import read_log
from mjcli.riichi.formats.mjai import event_to_mjai
from mjcli.riichi.summary import scan

ROOT = Path(__file__).resolve().parents[1]
SANMA_LOG = ROOT / "fixtures" / "sanma" / "2014091101gm-00b9-0000-5ca6b487.mjlog"
PLUGIN = f"tsumogiri={ROOT / 'examples' / 'plugin.py'}:Tsumogiri"
POLICIES = "akagi,efficiency,tsumogiri"

runner = CliRunner()


def run(*args: object) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("sanma-outputs")
    out = {k: root / k for k in ("replay", "simulate", "verify")}
    run("replay", SANMA_LOG, "--plugin", PLUGIN, "--policy", POLICIES, "-j", "1", "--out", out["replay"])
    run("simulate", "--players", "akagi,mahjongjoy,efficiency", "--games", "3", "--seed", "5",
        "--length", "tonpuu", "-j", "1", "--out", out["simulate"])  # fmt: skip
    run("verify", out["simulate"] / "logs", SANMA_LOG, "-j", "1", "--out", out["verify"])
    return out


def test_replay_with_a_plugin_answers_every_three_player_decision(outputs: dict[str, Path]) -> None:
    rows = pl.read_parquet(outputs["replay"] / "decisions.parquet")
    assert set(rows["seat"]) == {0, 1, 2}
    per_policy = rows.group_by("policy").len()
    assert set(per_policy["policy"]) == set(POLICIES.split(","))
    assert per_policy["len"].n_unique() == 1  # the plugin answered every decision point the others did
    assert "nukidora" in set(rows["kind"])  # the log sets Norths aside: a decision kind of its own
    games = pl.read_parquet(outputs["replay"] / "games.parquet")
    assert sorted(games["placement"]) == [1, 2, 3]


def test_report_of_a_three_player_simulation_has_three_ranks(
    outputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = outputs["simulate"]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["seats"] == 3 and summary["rules"] == "tenhou-sanma-tonpuu"
    text, parsed = page_of(folder, tmp_path)
    assert len(parsed.charts) == 5
    assert "1st to 3rd" in text and "average placement (1-3)" in text and "4th" not in text
    games = pl.read_parquet(folder / "games.parquet")
    for e in summary["policies"]:
        mine = games.filter(pl.col("policy") == e["policy"])
        for rank, label in enumerate(("1st", "2nd", "3rd"), 1):
            n = mine.filter(pl.col("placement") == rank).height
            if n:
                assert f"{e['policy']}, {label}: {n / mine.height:.1%} ({n})" in text


def test_report_of_a_three_player_verify_run(outputs: dict[str, Path], tmp_path: Path) -> None:
    text, parsed = page_of(outputs["verify"], tmp_path)
    assert 'id="verify"' in text and len(parsed.charts) >= 1
    verified = pl.read_parquet(outputs["verify"] / "verify.parquet")
    assert verified["match"].all()


def test_report_of_a_three_player_replay_reopens_its_decisions(
    outputs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = outputs["replay"]
    monkeypatch.chdir(tmp_path)
    text, parsed = page_of(folder, tmp_path)
    assert parsed.hands and all(want == got and want > 0 for want, got in parsed.hands)
    assert "at three players: moves 0-35, 36-71, the rest." in text  # a go-round is six moves there
    tables, sizes = with_players(scan(folder), folder)
    phases = tables.select(phase(pl.col("_players")).alias("p"), "turn").unique().collect()
    assert sizes == {3} and phases.filter(pl.col("turn") == 40)["p"].to_list() == ["middle"]
    assert parsed.commands
    rows = scan(folder).collect()
    for cmd in parsed.commands[:2]:
        args = shlex.split(cmd)
        opt = dict(zip(args[3::2], args[4::2], strict=True))
        # the command carries the replay's plugin (replay.json's policy_options)
        assert "--plugin" in args
        shown = json.loads(run(*args[1:], "--policy", POLICIES, "--json"))
        assert shown["players"] == 3
        here = rows.filter(
            (pl.col("round") == opt["--round"])
            & (pl.col("honba") == int(opt["--honba"]))
            & (pl.col("turn") == int(opt["--turn"]))
            & (pl.col("seat") == int(opt["--seat"]))
        )
        assert shown["actual_text"] == here["actual"][0]
        assert {p["policy"]: p["choice"] for p in shown["policies"]} == dict(
            zip(here["policy"], here["choice"], strict=True)
        )


def test_advise_at_a_three_player_log_position_by_wind(outputs: dict[str, Path]) -> None:
    """In E3 of a three-player game the dealer is seat 2: East is seat 2 and West seat 1."""
    rows = pl.read_parquet(
        outputs["replay"] / "decisions.parquet", columns=["round", "seat", "turn", "honba"]
    )
    e3 = rows.filter((pl.col("round") == "E3") & (pl.col("seat") == 1)).row(0, named=True)
    where = ["advise", SANMA_LOG, "--round", "E3", "--honba", str(e3["honba"]), "--turn", str(e3["turn"])]
    by_number = json.loads(run(*where, "--seat", "1", "--json"))
    by_wind = json.loads(run(*where, "--seat", "W", "--json"))
    assert by_number == by_wind and by_wind["seat_wind"] == "W"
    north = runner.invoke(app, [str(a) for a in (*where, "--seat", "N")])
    assert isinstance(north.exception, UsageError)
    assert "3-player game: wind N does not sit there" in str(north.exception)


def test_an_outside_bot_follows_a_three_player_game(tmp_path: Path) -> None:
    """What a seat is sent at a three-player table: three names, three hands and scores, the Norths
    set aside as ``nukidora`` events (the mjai writer's dialect), as for four players otherwise."""
    record = tmp_path / "record"
    record.mkdir()
    bot = command(copy(BOTS / "recorder.py", tmp_path), str(record))
    result = invoke(["replay", str(SANMA_LOG), "--bot", f"rec={bot}", "--policies", "rec", "-j", "1"])
    assert result.exit_code == 1  # it answers none where it must discard: faults, listed
    (game,) = read_log(SANMA_LOG)
    reference = [event_to_mjai(e) for e in game.events]
    assert any(e["type"] == "nukidora" for e in reference)
    assert not (record / "seat3.jsonl").exists()
    for seat in range(3):
        lines = [json.loads(x) for x in (record / f"seat{seat}.jsonl").read_text().splitlines()]
        assert lines[0] == [{"type": "start_game", "names": list(game.start.names)[:3], "id": seat}]
        assert lines[-1] == [{"type": "end_game"}]
        rounds = _rounds(reference)
        sent = _rounds([e for line in lines[1:-1] for e in line])
        assert len(sent) == len(rounds)
        for got, full in zip(sent, rounds, strict=True):
            assert len(got[0]["tehais"]) == len(got[0]["scores"]) == 3
            shown = [_masked(e, seat) for e in full if e["type"] not in ("hora", "ryukyoku")]
            assert got[:-1] == shown[: len(got) - 1]


@pytest.mark.parametrize("answer", ["nukidora", "kita"])
def test_an_outside_bot_sets_norths_aside(answer: str, tmp_path: Path) -> None:
    out = tmp_path / "sim"
    bot = command(copy(BOTS / "kita_bot.py", tmp_path), answer)
    result = invoke(
        ["simulate", "--players", "akagi,kb,efficiency", "--bot", f"kb={bot}", "--games", "1",
         "--length", "tonpuu", "--seed", "4", "-j", "1", "--out", str(out)]
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (out / "faults.jsonl").read_text() == ""
    games = pl.read_parquet(out / "games.parquet")
    assert games.height == 3 and games.filter(pl.col("policy") == "kb")["faults"].to_list() == [0]
    seat = games.filter(pl.col("policy") == "kb")["seat"][0]
    (log,) = read_log(next((out / "logs").glob("*.json")))
    mine = [e for e in log.events if isinstance(e, ev.Nukidora) and e.actor == seat]
    assert mine  # its answers were read as Norths set aside
    assert invoke(["verify", str(out / "logs")]).exit_code == 0
    hand = invoke(
        ["advise", "19m159p19s34557z4p4z", "--sanma", "--bot", f"kb={bot}", "--policy", "kb", "--json"]
    )
    assert json.loads(hand.stdout)["policies"][0]["action"] == "nukidora"


def test_the_api_knows_three_player_hands_and_tables(tmp_path: Path) -> None:
    from mjcli import api
    from mjcli.errors import InvalidHandError

    # a fourth 1m joins no 123m run in three-player (the README's shanten example)
    assert api.shanten("1111m111122233z") == 1 and api.shanten("1111m111122233z", sanma=True) == 2
    with pytest.raises(InvalidHandError, match="no 2m-8m"):
        api.shanten("123m456p789s1122z", sanma=True)
    assert all(k not in range(1, 8) for k, _ in api.ukeire("19m159p19s34557z4p", sanma=True).tiles)
    assert api.discards("19m159p19s34557z4p4z", sanma=True)[0].shanten == 2
    three = api.score("123p456p789s11z99m", "9m", rules="tenhou-sanma", kita=2, tsumo=True)
    four = api.score("123p456p789s11z99m", "9m", tsumo=True)
    assert three.han == four.han + 2  # two Norths set aside: two dora
    summary = api.simulate(["akagi", "efficiency", "greedy"], 1, 3, length="tonpuu")
    assert summary["seats"] == 3 and summary["rules"] == "tenhou-sanma-tonpuu"
    advised = api.advise("19m159p19s34557z4p4z", "mahjongjoy", players=3)
    assert advised["players"] == 3 and advised["policies"][0]["action"] == "nukidora"


def test_shanten_from_stdin_reports_a_hand_with_2m_8m_and_answers_the_rest() -> None:
    lines = "19m19p19s1234567z\n123m456p789s1122z\n11m456p789s11222z\n"
    result = runner.invoke(app, ["shanten", "-", "--sanma", "--json"], input=lines)
    assert result.exit_code == 2
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [r.get("shanten") for r in rows] == [0, None, 0]
    assert rows[1]["line"] == 2 and "three-player mahjong has no 2m-8m" in rows[1]["error"]
    assert rows[2]["tiles"] == "1m1z"  # 1m and North: no 2m-8m to wait on
