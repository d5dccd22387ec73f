"""The advise, simulate and replay commands with --game doudizhu (and the riichi placeholders)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import polars as pl
import pytest
import typer
from typer.testing import CliRunner

from mjcli.errors import InvalidHandError, NotationError, UsageError

COMMANDS = Path(__file__).resolve().parent.parent / "mjcli" / "commands"


def _app() -> typer.Typer:
    # Loaded by path so these tests need only the three Dou Dizhu command modules.
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    for name in ("advise", "simulate", "replay"):
        spec = importlib.util.spec_from_file_location(f"_dd_cmd_{name}", COMMANDS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.register(app)
    return app


APP = _app()
runner = CliRunner()


def run(*args: str):
    return runner.invoke(APP, list(args))


def test_advise_seed_hand_json():
    result = run("advise", "--game", "doudizhu", "222AAAKKKJJT98766554433", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["plan"]["pn"] == 2
    assert [s["type"] for s in data["plan"]["steps"]] == [
        "trio",
        "chain",
        "pair_chain",
        "trio_chain",
        "single",
    ]
    assert [s["cards"] for s in data["plan"]["steps"]] == ["222", "789TJ", "33445566", "KKKAAA", "J"]
    assert {p["policy"] for p in data["policies"]} >= {"zhanpai", "greedy", "random"}
    assert all(set(p) >= {"policy", "move", "reason"} for p in data["policies"])


def test_advise_against_a_lead_text():
    result = run("advise", "--game", "doudizhu", "3345566789TJQQKA2BR", "--lead", "44", "--landlord")
    assert result.exit_code == 0, result.output
    assert "landlord, against 44 (pair)" in result.stdout
    assert "zhanpai" in result.stdout and "Pn" in result.stdout


@pytest.mark.parametrize(
    "args, error, fragment",
    [
        (["advise", "--game", "doudizhu", "33333"], InvalidHandError, "5 copies of 3"),
        (["advise", "--game", "doudizhu", "34Z"], NotationError, "'Z' in '34Z'"),
        (["advise", "--game", "doudizhu", "345", "--lead", "3456"], InvalidHandError, "lead '3456'"),
        # (it said "empty hand ' '", of the lead)
        (["advise", "--game", "doudizhu", "345", "--lead", " "], InvalidHandError, "lead ' ' holds no card"),
        (["advise", "--game", "doudizhu", "345", "--policies", "bogus"], UsageError, "'bogus'"),
        (["advise", "--game", "chess", "345"], UsageError, "unknown game 'chess'"),
        (["advise", "123m"], InvalidHandError, "hand '123m' has 3 tiles"),
        (["replay", "x.json"], UsageError, "log 'x.json' does not exist"),
        (["simulate", "--game", "doudizhu", "--players", "zhanpai,nope"], UsageError, "'nope'"),
    ],
)
def test_errors_are_project_errors_naming_the_input(args, error, fragment):
    result = run(*args)
    assert isinstance(result.exception, error)
    assert fragment in str(result.exception)


def test_simulate_then_replay(tmp_path):
    out = tmp_path / "sim"
    result = run("simulate", "--game", "doudizhu", "--games", "6", "--seed", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "WP [95% CI]" in result.stdout and "landlord" in result.stdout
    assert pl.read_parquet(out / "games.parquet").height == 18
    rep = tmp_path / "rep"
    result = run(
        "replay", "--game", "doudizhu", str(out), "--out", str(rep), "--policies", "zhanpai", "--json"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 6 and summary["errors"] == []
    assert pl.read_parquet(rep / "decisions.parquet").height == summary["decisions"]


def test_simulate_duplicate_json(tmp_path):
    args = [
        "simulate",
        "--game",
        "doudizhu",
        "--players",
        "zhanpai,random",
        "--games",
        "3",
        "--duplicate",
        "--json",
    ]
    result = run(*args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 9 and [r["side"] for r in summary["comparison"]][0] == "landlord"


def test_replay_bad_file_exit_1(tmp_path):
    (tmp_path / "bad.jsonl").write_text("{nope\n")
    result = run("replay", "--game", "doudizhu", str(tmp_path / "bad.jsonl"))
    assert result.exit_code == 1
    assert "ERROR" in result.stdout and "not JSON" in result.stdout
