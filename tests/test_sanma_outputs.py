"""Three-player outputs through main's newer features: replay with a plugin beside the built-ins,
`mjcli report` of a three-player replay, simulation and verify run (three ranks, the advise
commands on the page reopen their positions), and advise at a log position by wind."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import polars as pl
import pytest
from test_report import page_of
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.report.riichi_replay import phase, with_players
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
    assert summary["seats"] == 3 and summary["rules"] == "tenhou-sanma+tonpuu"
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
        shown = json.loads(run(*args[1:], "--plugin", PLUGIN, "--policy", POLICIES, "--json"))
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


def test_an_outside_bot_is_refused_at_a_three_player_table(tmp_path: Path) -> None:
    """mjai has no three-player dialect bots share: a bot is refused with a one-line reason, and in
    a replay batch only the three-player file is skipped."""
    bot = ["--bot", f"mini=python3 {ROOT / 'examples' / 'mjai_bot.py'} {{seat}}"]
    sim = runner.invoke(
        app, ["simulate", "--players", "akagi,mini,efficiency", *bot, "--out", str(tmp_path / "s")]
    )
    assert isinstance(sim.exception, UsageError) and "four-player games only" in str(sim.exception)
    assert not (tmp_path / "s").exists()
    hand = runner.invoke(app, ["advise", "19m159p19s34557z4p4z", "--sanma", *bot])
    assert isinstance(hand.exception, UsageError) and "four-player games only" in str(hand.exception)
    four = ROOT / "fixtures" / "simulate" / "logs" / "sim-000000.json"
    both = runner.invoke(app, ["replay", str(SANMA_LOG), str(four), *bot, "--policy", "mini", "-j", "1"])
    assert both.exit_code == 1
    assert f"SKIPPED {SANMA_LOG.name}: bot 'mini' plays four-player games only" in both.output
    assert "1 game, " in both.output


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
    assert summary["seats"] == 3 and summary["rules"] == "tenhou-sanma+tonpuu"
    advised = api.advise("19m159p19s34557z4p4z", "mahjongjoy", players=3)
    assert advised["players"] == 3 and advised["policies"][0]["action"] == "nukidora"
