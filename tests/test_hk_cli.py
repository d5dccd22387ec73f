"""simulate, verify, replay, summary, advise and shanten with --game hk and --game red: the same
bytes for any --jobs, logs that verify and replay, a tampered log caught, the riichi and Dou Dizhu
entries refusing the Hong Kong options, conservation in the tables."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.hk.rules import get_rules
from mjcli.hk.simulate import simulate

runner = CliRunner()
HK = get_rules("hk")
PLAYERS = "hk-pm0,hk-pm8,hk-pm16,hk-pm16plus"


def run(*args: str):
    return runner.invoke(app, list(args))


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hk") / "sim"
    result = run(
        "simulate",
        "--game",
        "hk",
        "--players",
        PLAYERS,
        "--games",
        "3",
        "--seed",
        "4",
        "--out",
        str(out),
        "--jobs",
        "1",
    )
    assert result.exit_code == 0, result.output
    return out


def test_same_seed_same_bytes_for_any_jobs(sim: Path, tmp_path: Path) -> None:
    simulate(PLAYERS, 3, 4, HK, out=tmp_path / "b", jobs=2)
    assert _files(sim) == _files(tmp_path / "b")
    assert sorted(p.name for p in (sim / "logs").iterdir()) == [
        "hk-000000.json",
        "hk-000001.json",
        "hk-000002.json",
    ]


def test_tables_conserve_points(sim: Path) -> None:
    rounds = pl.read_parquet(sim / "rounds.parquet")
    assert rounds.height > 3
    assert all(sum(d) == 0 for d in rounds["deltas"].to_list())
    games = pl.read_parquet(sim / "games.parquet")
    assert games.group_by("game").agg(pl.col("score").sum())["score"].to_list() == [0, 0, 0]
    wins = rounds.filter(pl.col("result") == "win")
    assert (wins["faan"] >= 3).all()
    summary = json.loads((sim / "summary.json").read_text())
    assert [p["policy"] for p in summary["policies"]] == PLAYERS.split(",")
    assert {"value", "lo", "hi"} <= set(summary["policies"][0]["win_rate"])


def test_logs_verify_and_replay(sim: Path, tmp_path: Path) -> None:
    result = run("verify", "--game", "hk", str(sim / "logs"), "--json", "--out", str(tmp_path / "v"))
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert lines[-1]["ok"] == 3 and lines[-1]["hands"] == lines[-1]["hands_matching"] > 0
    assert pl.read_parquet(tmp_path / "v" / "verify.parquet")["match"].all()
    result = run(
        "replay", "--game", "hk", str(sim / "logs"), "--out", str(tmp_path / "r"), "--json", "--jobs", "1"
    )
    assert result.exit_code == 0, result.output
    rows = pl.read_parquet(tmp_path / "r" / "decisions.parquet")
    # each seat's own policy agrees with itself at every decision
    games = {p.name: json.loads(p.read_text()) for p in (sim / "logs").iterdir()}
    players = {name: g["players"] for name, g in games.items()}
    own = rows.filter(
        pl.struct("file", "seat", "policy").map_elements(
            lambda r: players[r["file"]][r["seat"]] == r["policy"], return_dtype=pl.Boolean
        )
    )
    assert own.height > 0 and own["agree"].all()
    assert set(rows["kind"].unique()) >= {"discard", "claim"}
    summary = run("summary", "--game", "hk", str(tmp_path / "r"), "--json")
    assert json.loads(summary.stdout)["answers"] == rows.height


def test_a_tampered_log_is_caught(sim: Path, tmp_path: Path) -> None:
    game = json.loads((sim / "logs" / "hk-000000.json").read_text())
    win = next(h for h in game["hands"] if h["result"]["kind"] == "win")
    win["result"]["faan"] += 1
    (tmp_path / "faan.json").write_text(json.dumps(game))
    game = json.loads((sim / "logs" / "hk-000000.json").read_text())
    events = game["hands"][0]["events"]
    i = next(n for n, (_, text) in enumerate(events) if text.startswith("discard"))
    events[i][1] = "discard 5z" if events[i][1] != "discard 5z" else "discard 6z"
    (tmp_path / "illegal.json").write_text(json.dumps(game))
    (tmp_path / "junk.json").write_text("{not json")
    result = run("verify", "--game", "hk", str(tmp_path), "--json")
    assert result.exit_code == 1
    reports = {r["file"]: r for r in map(json.loads, result.stdout.splitlines()) if "file" in r}
    assert reports["faan.json"]["status"] == "mismatch"
    assert any(m["what"] == "faan" for m in reports["faan.json"]["mismatches"])
    assert (
        reports["illegal.json"]["status"] == "error"
        and "not a legal move" in reports["illegal.json"]["error"]
    )
    assert reports["junk.json"]["status"] == "error" and "not JSON" in reports["junk.json"]["error"]


def test_red_simulate_verify(tmp_path: Path) -> None:
    out = tmp_path / "red"
    result = run(
        "simulate", "--game", "red", "--games", "1", "--seed", "2", "--out", str(out), "--min-faan", "1"
    )
    assert result.exit_code == 0, result.output
    game = json.loads((out / "logs" / "hk-000000.json").read_text())
    assert game["game"] == "red" and len(game["hands"][0]["wall"]) == 148 and game["rules"]["min_faan"] == 1
    result = run("verify", "--game", "red", str(out / "logs"))
    assert result.exit_code == 0, result.output


def test_duplicate_rotations(tmp_path: Path) -> None:
    summary = simulate("hk-pm0,hk-pm16plus", 1, 3, HK, duplicate=True)
    assert summary["games"] == 2 and summary["paired"][0]["deals"] == 1


def test_options_apply_only_where_they_belong() -> None:
    for args, message in (
        (
            ["simulate", "--min-faan", "2", "--games", "1"],
            "--min-faan does not apply to simulate --game riichi",
        ),
        (
            ["advise", "--game", "doudizhu", "345", "--flowers", "1"],
            "--flowers does not apply to advise --game doudizhu",
        ),
        (["simulate", "--game", "hk", "--rules", "tenhou"], "--rules does not apply to simulate --game hk"),
        (["simulate", "--game", "hk", "--length", "tonpuu"], "--length 'tonpuu': use east or full"),
        (["simulate", "--game", "hk", "--payment", "free"], "--payment 'free' is not one of"),
    ):
        result = run(*args)
        assert result.exit_code != 0 and isinstance(result.exception, UsageError), args
        assert message in str(result.exception)


def test_advise_and_shanten() -> None:
    result = run("advise", "--game", "hk", "123m456p789s11345z", "--json")
    data = json.loads(result.stdout)
    assert [p["policy"] for p in data["policies"]] == PLAYERS.split(",")
    assert data["shanten"] == 1 and data["discards"][0]["shanten"] == 1
    result = run("shanten", "--game", "hk", "11223344556677p", "1199m1199p1199s11z", "--json")
    values = [json.loads(x)["shanten"] for x in result.stdout.splitlines()]
    assert values == [-1, 3]  # no seven pairs: the second is 3 from four sets and a pair
    result = run("shanten", "--game", "red", "123m456p789sJJJ1z", "--json")
    assert json.loads(result.stdout)["shanten"] == 0


def test_readme_examples_print_as_written() -> None:
    """The Hong Kong section's score, shanten and advise examples (the slower ones, simulate and
    replay, are run by hand when the README changes)."""
    import re
    import shlex

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme[readme.index("## Hong Kong mahjong") : readme.index("## Python API")]
    checked = 0
    for command, expected in re.findall(r"```\n\$ (mjcli [^\n]*)\n(.*?)```", section, re.S):
        words = shlex.split(command)[1:]
        if words[0] not in ("score", "shanten", "advise") or expected.startswith("error:"):
            continue
        result = run(*words)
        assert result.exit_code == 0, command
        assert result.stdout.strip() == expected.strip(), command
        checked += 1
    assert checked >= 5
