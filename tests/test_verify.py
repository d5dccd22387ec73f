"""verify on the real logs: every recorded outcome recomputed by the engine, and the command itself."""

from __future__ import annotations

import dataclasses
import gzip
import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from shared import LOGS, log_files
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import short_path
from mjcli.riichi.engine import events as ev
from mjcli.riichi.formats import read_log
from mjcli.riichi.verify import ERROR, MISMATCH, OK, verify_file, verify_log

TRUNCATED = ("-no-game-end", "-no-round-end")
# Two tenhou6-edge files are hand-made call-notation fixtures whose results break the rules
# themselves (see test_synthetic_edge_fixtures_are_caught): everything else must verify.
SYNTHETIC = ("confusing_nakis_1.json", "confusing_nakis_2.json")


def _complete_files() -> list[Path]:
    out = []
    for folder in ("tenhou-xml", "tenhou6", "tenhou6-edge", "mjai"):
        for p in log_files(f"{folder}/*"):
            if p.name.endswith(SYNTHETIC) or any(t in p.name for t in TRUNCATED):
                continue
            out.append(p)
    return out


@pytest.mark.parametrize("path", _complete_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_complete_game_verifies(path):
    reports = verify_file(path)
    assert reports
    for r in reports:
        assert r.status == OK, [str(m) for m in r.mismatches] + [r.error]
        assert r.rounds == sum(1 for e in read_log(path)[0].events if isinstance(e, ev.StartRound))


def test_scenario_logs_verify_up_to_where_they_end():
    files = log_files("tenhou-xml-scenarios/*.mjlog")
    assert len(files) == 83
    cut = 0
    for p in files:
        for r in verify_file(p):
            assert not r.mismatches, (p.name, [str(m) for m in r.mismatches])
            if r.status == ERROR:
                cut += 1
                assert r.error.startswith("incomplete log"), (p.name, r.error)
    assert cut > 0


def test_truncated_logs_are_reported_as_incomplete():
    for suffix, where in (("-no-game-end", "after round S3-0"), ("-no-round-end", "inside round S4-0")):
        (r,) = verify_file(LOGS / "tenhou-xml" / f"2011020401gm-00a9-0000-f6eff225{suffix}.mjlog")
        assert r.status == ERROR and "incomplete" in r.error and where in r.error
        assert r.rounds == 7 and not r.mismatches


def test_synthetic_edge_fixtures_are_caught():
    (r1,) = verify_file(LOGS / "tenhou6-edge" / "confusing_nakis_1.json")
    # A ron after seat 2's accepted riichi: the stick belongs to the winner, the fixture drops it.
    assert r1.status == MISMATCH
    assert [m.what for m in r1.mismatches] == ["seat 0 deltas"]
    assert r1.mismatches[0].log == [1600, 0, -1600, 0] and r1.mismatches[0].engine == [2600, 0, -1600, 0]
    (r2,) = verify_file(LOGS / "tenhou6-edge" / "confusing_nakis_2.json")
    assert r2.status == MISMATCH and r2.mismatches[0].what == "illegal event"
    assert "does not complete" in r2.mismatches[0].engine


def test_xml_and_tenhou6_copies_give_the_same_outcomes():
    for p in log_files("tenhou6/*.json"):
        (a,) = verify_file(p)
        (b,) = verify_file(LOGS / "tenhou-xml" / (p.stem + ".mjlog"))
        assert [(r.round, r.kind, r.engine_deltas, r.han, r.fu) for r in a.rows] == [
            (r.round, r.kind, r.engine_deltas, r.han, r.fu) for r in b.rows
        ]


# ---------------------------------------------------------------- the comparison can fail


GAME = LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog"


def _game():
    return read_log(GAME)[0]


def _replace_first(game, cls, **changes):
    i = next(i for i, e in enumerate(game.events) if isinstance(e, cls))
    game.events[i] = dataclasses.replace(game.events[i], **changes)
    return i


def test_a_wrong_recorded_delta_is_a_mismatch_naming_the_round():
    g = _game()
    win = next(e for e in g.events if isinstance(e, ev.Win))
    _replace_first(
        g,
        ev.Win,
        deltas=tuple(d + (100 if i == win.actor else -100 if d < 0 else 0) for i, d in enumerate(win.deltas)),
    )
    r = verify_log(g)
    assert r.status == MISMATCH
    assert [(m.round, m.what) for m in r.mismatches] == [("E1-0", f"seat {win.actor} deltas")]


def test_wrong_han_yaku_hand_and_final_scores_are_mismatches():
    g = _game()
    win = next(e for e in g.events if isinstance(e, ev.Win))
    _replace_first(g, ev.Win, han=win.han + 1, yaku=(*win.yaku, ("tanyao", 1)), hand=(0, *win.hand[1:]))
    end = g.events[-1]
    g.events[-1] = dataclasses.replace(end, scores=(end.scores[0] + 100, *end.scores[1:]))
    whats = {m.what for m in verify_log(g).mismatches}
    assert {
        f"seat {win.actor} han",
        f"seat {win.actor} yaku",
        f"seat {win.actor} hand",
        "final scores",
    } <= whats


def test_an_impossible_discard_is_reported_with_its_index():
    g = _game()
    i = next(i for i, e in enumerate(g.events) if isinstance(e, ev.Discard) and not e.tsumogiri)
    hand_tile = g.events[i].tile
    g.events[i] = dataclasses.replace(g.events[i], tile=(hand_tile + 9) % 27)
    r = verify_log(g)
    assert r.status == MISMATCH
    (m,) = r.mismatches
    assert m.what == "illegal event" and m.log.startswith(f"event {i}:")


def test_a_dropped_riichi_acceptance_is_illegal():
    g = _game()
    i = next(i for i, e in enumerate(g.events) if isinstance(e, ev.RiichiAccepted))
    del g.events[i]
    (m,) = verify_log(g).mismatches
    assert m.what == "illegal event" and "riichi" in m.engine


# ---------------------------------------------------------------- the command


runner = CliRunner()


def test_cli_json_lines_summary_and_exit_codes(tmp_path):
    res = runner.invoke(app, ["verify", str(LOGS / "mjai"), "--json"])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.output.splitlines()]
    assert [x["status"] for x in lines[:-1]] == ["ok"] * 3
    assert lines[-1] == {
        "summary": True,
        "logs": 3,
        "ok": 3,
        "mismatch": 0,
        "error": 0,
        "rounds": 36,
        "rounds_matching": 36,
        # the rule set each game was played under (no --rules: the logs' own, Tenhou's here)
        "rules": {"tenhou": 3},
    }
    res = runner.invoke(
        app, ["verify", str(LOGS / "tenhou-xml" / "2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog")]
    )
    assert res.exit_code == 1 and "incomplete log" in res.output
    # Bad usage goes through the real entry point: one-line message, exit status 2.
    proc = subprocess.run(
        [sys.executable, "-m", "mjcli.cli", "verify", str(tmp_path / "nope.mjlog")],
        capture_output=True,
        text=True,
    )
    assert (
        proc.returncode == 2
        and proc.stderr.strip() == f"error: log '{short_path(tmp_path / 'nope.mjlog')}' does not exist"
    )


def test_cli_bad_and_gzip_files_in_one_batch(tmp_path):
    (tmp_path / "a.mjlog").write_bytes(gzip.compress(GAME.read_bytes()))
    (tmp_path / "b.json").write_text("{not json")
    res = runner.invoke(app, ["verify", str(tmp_path), "--json"])
    assert res.exit_code == 1
    lines = [json.loads(x) for x in res.output.splitlines()]
    assert [(Path(x["file"]).name, x["status"]) for x in lines[:-1]] == [
        ("a.mjlog", "ok"),
        ("b.json", "error"),
    ]
    assert lines[1]["error"]


def test_cli_parquet_stdin_and_jobs_give_the_same_output(tmp_path):
    folder = LOGS / "tenhou6"
    one = runner.invoke(app, ["verify", str(folder), "--json", "--out", str(tmp_path)])
    assert one.exit_code == 0
    paths = "\n".join(str(p) for p in log_files("tenhou6/*.json"))
    two = runner.invoke(app, ["verify", "-", "--json", "--jobs", "2"], input=paths)
    assert two.exit_code == 0 and two.stdout == one.stdout
    assert f"wrote {tmp_path / 'verify.parquet'}" in one.stderr  # not on stdout: that is JSON only
    df = pl.read_parquet(tmp_path / "verify.parquet")
    assert df.height == json.loads(one.stdout.splitlines()[-1])["rounds"]
    assert df["match"].all() and set(df.columns) >= {
        "file",
        "round",
        "honba",
        "kind",
        "engine_deltas",
        "yaku",
    }


def test_a_round_start_the_rules_do_not_lead_to_is_a_mismatch():
    g = _game()
    starts = [i for i, e in enumerate(g.events) if isinstance(e, ev.StartRound)]
    g.events[starts[3]] = dataclasses.replace(
        g.events[starts[3]], dealer=(g.events[starts[3]].dealer + 2) % 4
    )
    r = verify_log(g)
    firsts = [(m.what, m.log, m.engine) for m in r.mismatches][:1]
    assert firsts == [("start dealer", (g.events[starts[3]].dealer), (g.events[starts[3]].dealer + 2) % 4)]


def test_rounds_that_do_not_fit_the_number_of_players_are_an_error():
    g = _game()  # four hands in every round, but the game says three players
    g.events[0] = dataclasses.replace(g.events[0], rules=ev.GameRules(players=3))
    r = verify_log(g)
    assert r.status == ERROR and "4 hands" in r.error and "3-player" in r.error and r.rounds == 0


def test_a_few_named_logs_are_verified_without_workers(monkeypatch, capsys, tmp_path) -> None:
    # bench_speed "verify --jobs 2 vs 1" (4 and 19 hanchan): under SMALL_VERIFY_BYTES no worker starts
    import mjcli.runner as runner
    from mjcli.riichi import game

    def no_workers(*args: object, **kwargs: object) -> None:
        raise AssertionError("workers started for a few logs")

    def early(jobs: int, preload: object) -> None:
        assert jobs == 1, "workers started for a few logs"

    monkeypatch.setattr(runner, "start_workers_early", early)
    monkeypatch.setattr(runner, "_pool_map", no_workers)
    logs = sorted(str(p) for p in (LOGS / "tenhou-xml").glob("20*.mjlog") if "no-" not in p.name)[:3]
    assert game.verify(logs, None, True, 2, None) == 0
    assert len([line for line in capsys.readouterr().out.splitlines() if line.startswith("{")]) >= 3
    # a folder of as few
    folder = tmp_path / "logs"
    folder.mkdir()
    for log in logs:
        (folder / Path(log).name).write_bytes(Path(log).read_bytes())
    assert game.verify([str(folder)], None, True, 2, None) == 0
    assert len([line for line in capsys.readouterr().out.splitlines() if line.startswith("{")]) >= 3


@pytest.mark.parametrize("forked", [True, False])
def test_forked_workers_are_worth_it_for_fewer_logs(forked: bool, monkeypatch, capsys) -> None:
    # 15 hanchan (~240 KB): workers forked from the main process start at once and save time there
    # (SMALL_VERIFY_BYTES_FORKED); from a server that imports first, only above SMALL_VERIFY_BYTES
    import mjcli.runner as runner
    from mjcli.riichi import game

    logs = sorted(str(p) for p in (LOGS / "tenhou-xml").glob("20*.mjlog") if "no-" not in p.name)[:15]
    assert (
        game.SMALL_VERIFY_BYTES_FORKED < sum(Path(p).stat().st_size for p in logs) < game.SMALL_VERIFY_BYTES
    )
    pools: list[int] = []
    real_pool = runner._pool_map

    def pool(work, tasks, *args, **kwargs):
        pools.append(len(tasks))
        return real_pool(work, tasks, *args, **kwargs)

    monkeypatch.setattr(runner, "forks_workers", lambda: forked)
    monkeypatch.setattr(runner, "start_workers_early", lambda jobs, preload: None)
    monkeypatch.setattr(runner, "_pool_map", pool)
    assert game.verify(logs, None, True, 2, None) == 0
    assert len([line for line in capsys.readouterr().out.splitlines() if line.startswith('{"file"')]) == 15
    assert pools == ([15] if forked else [])


def test_which_batches_count_as_a_few_logs(tmp_path) -> None:
    from mjcli.riichi.game import _logs_under

    small, big = tmp_path / "a.mjlog", tmp_path / "b.mjlog"
    small.write_bytes(b"x" * 100)
    big.write_bytes(b"x" * 1000)
    assert _logs_under([str(small)], 1000)
    assert not _logs_under([str(small), str(big)], 1000)  # 1100 bytes in all
    assert not _logs_under(["-"], 1000)  # a list on stdin: any number of logs
    assert not _logs_under([str(tmp_path / "missing")], 1000)
    assert not _logs_under([], 1000)
    # a gzip log counts by what it holds, not by its compressed size
    packed = tmp_path / "c.mjlog"
    packed.write_bytes(gzip.compress(b"<mjloggm>" + b"x" * 5000))
    assert packed.stat().st_size < 1000 and not _logs_under([str(packed)], 1000)
    # a folder counts by every file below it, logs or not, in folders below too
    folder = tmp_path / "logs"
    (folder / "deeper").mkdir(parents=True)
    (folder / "x.mjlog").write_bytes(b"x" * 300)
    (folder / "deeper" / "y.json").write_bytes(b"x" * 300)
    assert _logs_under([str(folder)], 1000)
    assert not _logs_under([str(folder), str(big)], 1000)  # 1600 bytes in all
    (folder / "deeper" / "notes.txt").write_bytes(b"x" * 500)
    assert not _logs_under([str(folder)], 1000)
    assert not _logs_under([str(tmp_path)], 1000)  # the gzip log's 5 KB inside
