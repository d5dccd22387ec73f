"""The simulate run and command: files written, byte-identical for any --jobs, errors, duplicate
seating, and a policy that breaks the rules stopping the game with a clear report."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.policies import Action
from mjcli.riichi.policies.greedy import GreedyPolicy
from mjcli.riichi.simulate.driver import play_game
from mjcli.riichi.simulate.run import game_specs, lineup, parse_players, simulate, table_rules
from mjcli.riichi.simulate.seats import PolicyError, PolicySeat
from mjcli.riichi.verify import verify_file

NAMES = ["akagi", "mahjongjoy", "greedy", "efficiency"]
runner = CliRunner()


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_same_bytes_for_any_jobs(tmp_path: Path) -> None:
    a = simulate(NAMES, 3, 5, out=tmp_path / "a", length="tonpuu", jobs=1)
    b = simulate(NAMES, 3, 5, out=tmp_path / "b", length="tonpuu", jobs=2)
    fa, fb = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert sorted(fa) == sorted(fb)
    assert "games.parquet" in fa and "rounds.parquet" in fa and "summary.json" in fa
    assert len([f for f in fa if f.startswith("logs/")]) == 6
    assert fa == fb
    assert {k: v for k, v in a.items() if k not in ("seconds", "jobs")} == {
        k: v for k, v in b.items() if k not in ("seconds", "jobs")
    }
    # A different seed gives different games.
    simulate(NAMES, 3, 6, out=tmp_path / "c", length="tonpuu")
    assert _files(tmp_path / "c")["logs/sim-000000.json"] != fa["logs/sim-000000.json"]


def test_tables_hold_what_the_issue_names(tmp_path: Path) -> None:
    summary = simulate(NAMES, 2, 9, out=tmp_path, length="tonpuu")
    games = pl.read_parquet(tmp_path / "games.parquet")
    rounds = pl.read_parquet(tmp_path / "rounds.parquet")
    for col in ("game", "seed", "seat", "policy", "score", "placement", "points"):
        assert col in games.columns
    for col in ("winners", "loser", "han", "fu", "points", "yaku", "riichi", "calls", "draw"):
        assert col in rounds.columns
    assert games.height == 8 and rounds.height == summary["rounds"]
    assert games.group_by("game").agg(pl.col("score").sum())["score"].to_list() == [100000, 100000]
    assert sorted(games.filter(pl.col("game") == 0)["placement"].to_list()) == [1, 2, 3, 4]
    # the recorded seed alone gives the game's walls
    assert games["seed"].n_unique() == 2
    assert games.group_by("game").agg(pl.col("rounds").first()).sort("game")["rounds"].to_list() == (
        rounds.group_by("game").len().sort("game")["len"].to_list()
    )
    for e in summary["policies"]:
        assert e["games"] == 2
        assert e["placement"]["lo"] <= e["placement"]["value"] <= e["placement"]["hi"]


def test_logs_verify_through_the_command(tmp_path: Path) -> None:
    simulate(NAMES, 2, 4, out=tmp_path, length="tonpuu")
    logs = sorted((tmp_path / "logs").iterdir())
    assert [p.name for p in logs] == [
        "sim-000000.json",
        "sim-000000.mjai.jsonl",
        "sim-000001.json",
        "sim-000001.mjai.jsonl",
    ]
    for p in logs:
        (report,) = verify_file(p)
        assert report.status == "ok" and not report.mismatches
    result = runner.invoke(app, ["verify", str(tmp_path / "logs"), "--json"])
    assert result.exit_code == 0, result.output


def test_a_rerun_replaces_its_old_logs(tmp_path: Path) -> None:
    simulate(NAMES, 3, 1, out=tmp_path, length="tonpuu")
    (tmp_path / "logs" / "notes.txt").write_text("mine")
    simulate(NAMES, 1, 1, out=tmp_path, length="tonpuu")
    names = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert names == ["notes.txt", "sim-000000.json", "sim-000000.mjai.jsonl"]


def test_duplicate_plays_each_wall_once_per_rotation() -> None:
    specs = game_specs(NAMES, 2, 3, table_rules("tenhou"), duplicate=True)
    assert len(specs) == 8
    assert [s.deal for s in specs] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert len({s.seed for s in specs[:4]}) == 1 and specs[0].seed != specs[4].seed
    # every policy sits in every seat once per deal
    for seat in range(4):
        assert sorted(s.policies[seat] for s in specs[:4]) == sorted(NAMES)
    # the rotations of a deal start from the same deal of tiles
    seats = {n: PolicySeat(n) for n in NAMES}
    starts = []
    for s in specs[:4]:
        g = play_game(s, [seats[p] for p in s.policies])
        starts.append(next(e for e in g.events if isinstance(e, ev.StartRound)))
    assert len(set(starts)) == 1
    # repeated names: identical rotations are played once
    assert len(game_specs(["greedy", "akagi"], 1, 0, table_rules("tenhou"), duplicate=True)) == 2
    assert lineup(["greedy", "akagi"], 1) == ("akagi", "greedy", "akagi", "greedy")


def test_duplicate_summary_has_paired_differences(tmp_path: Path) -> None:
    s = simulate(["greedy", "efficiency"], 2, 8, length="tonpuu", duplicate=True)
    assert s["games"] == 4 and s["deals"] == 2
    (pair,) = s["paired"]
    assert (pair["a"], pair["b"], pair["deals"]) == ("greedy", "efficiency", 2)
    assert pair["points"]["lo"] <= pair["points"]["value"] <= pair["points"]["hi"]


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"players": "akagi,bogus"}, "unknown policy 'bogus'"),
        ({"players": "a,b,c,d,e"}, "one to four policy names"),
        ({"length": "west"}, "--length 'west'"),
        ({"rules": "nope"}, "unknown rule set 'nope'"),
        ({"games": 0}, "--games 0"),
        ({"jobs": 0}, "--jobs 0"),
    ],
)
def test_bad_input_is_a_usage_error_naming_it(kwargs: dict[str, object], fragment: str) -> None:
    args = {"players": NAMES, "games": 1, "seed": 0} | kwargs
    with pytest.raises(UsageError, match=fragment.replace("(", r"\(")):
        simulate(args.pop("players"), args.pop("games"), args.pop("seed"), **args)  # type: ignore[arg-type]


def test_out_must_be_a_directory(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(UsageError, match="not a directory"):
        simulate(NAMES, 1, 0, out=f)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "logs").write_text("x")
    with pytest.raises(UsageError, match="logs' exists and is not a directory"):
        simulate(NAMES, 1, 0, out=tmp_path / "run")


def test_players_fill_four_seats() -> None:
    assert parse_players("Greedy") == ["greedy"]
    assert lineup(["greedy"], 2) == ("greedy",) * 4
    assert lineup(NAMES, 1) == ("mahjongjoy", "greedy", "efficiency", "akagi")


class _Cheater(GreedyPolicy):
    """Discards a tile it does not hold on its first real choice."""

    name = "cheater"

    def decide(self, view, legal):  # type: ignore[no-untyped-def]
        a = super().decide(view, legal)
        if a.kind == "discard":
            missing = next(t for t in range(34) if t not in view.concealed)
            return Action("discard", missing)
        return a


class _Crasher(GreedyPolicy):
    name = "crasher"

    def decide(self, view, legal):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")


@pytest.mark.parametrize(
    "bad, fragment", [(_Cheater, "illegal action 'discard"), (_Crasher, "RuntimeError: boom")]
)
def test_a_policy_breaking_the_rules_stops_the_game(monkeypatch, bad, fragment) -> None:  # type: ignore[no-untyped-def]
    import mjcli.riichi.policies as policies

    monkeypatch.setitem(policies._FACTORIES, bad.name, bad)
    spec = game_specs(["greedy", bad.name], 1, 0, table_rules("tenhou"), duplicate=False)[0]
    with pytest.raises(PolicyError) as info:
        play_game(spec, [PolicySeat(p) for p in spec.policies])
    text = str(info.value)
    assert fragment in text
    assert f"game 0 (seed {spec.seed}) round E1-0 seat " in text and f"({bad.name})" in text
    assert "hand " in text and "legal: " in text or "RuntimeError" in text


def test_command_prints_the_summary_and_json(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    result = runner.invoke(
        app, ["simulate", "--games", "2", "--seed", "3", "--length", "tonpuu", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "2 games (" in result.stdout and "placement" in result.stdout and "deal-in %" in result.stdout
    for name in NAMES:
        assert name in result.stdout
    result = runner.invoke(
        app, ["simulate", "--games", "1", "--players", "greedy,efficiency", "--length", "tonpuu", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.splitlines()[0])
    assert data["players"] == ["greedy", "efficiency"] and data["games"] == 1
    assert [p["policy"] for p in data["policies"]] == ["greedy", "efficiency"]


def test_command_rejects_bad_options() -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", "--players", "nope"])
    assert isinstance(result.exception, UsageError) and "'nope'" in str(result.exception)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mjcli import games

    err = _Terminal()
    monkeypatch.setattr("sys.stderr", err)
    assert games.run("simulate", "riichi", players="greedy", games=3, seed=1, length="tonpuu", jobs=1) == 0
    text = err.getvalue()
    assert "3/3" in text and "rounds/s" in text and "game" in text
    assert "3 games (" in capsys.readouterr().out


def test_command_reports_a_policy_bug_with_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    import mjcli.riichi.policies as policies

    monkeypatch.setitem(policies._FACTORIES, "cheater", _Cheater)
    result = runner.invoke(
        app, ["simulate", "--games", "2", "--players", "greedy,cheater", "--length", "tonpuu", "--jobs", "1"]
    )
    assert result.exit_code == 1
    assert "error: game 0 (seed " in result.stderr and "(cheater): illegal action 'discard" in result.stderr
