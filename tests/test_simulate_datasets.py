"""``simulate --resume`` (every game) and ``verify --game hk --resume`` without Ray: the tables as a
dataset of parts (see :mod:`mjcli.ledger`), the rows of a run without parts, the logs and the other
files the same bytes; a run killed midway is completed by ``--resume`` with the same result, and a
change of options or of a plugin's code keeps nothing. (On Ray: tests/test_ray.py.)
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from mjcli.cli import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_PLUGIN = ROOT / "examples" / "plugin.py"
runner = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.output


def json_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def last_json(output: str) -> dict:
    return json_lines(output)[-1]


def assert_dataset_is(parted: Path, single: Path) -> None:
    """``parted`` holds the rows of ``single`` as parts (in order, per dataset.json), and the same
    bytes in every other file."""
    contents = json.loads((parted / "dataset.json").read_text())
    for table, entry in contents["tables"].items():
        rows = pl.read_parquet([parted / p for p in entry["parts"]])
        assert rows.height == entry["rows"]
        if (single / f"{table}.parquet").is_file():
            assert rows.equals(pl.read_parquet(single / f"{table}.parquet")), table
        assert sorted(p.name for p in (parted / table).iterdir()) == sorted(
            Path(p).name for p in entry["parts"]
        )
    skip = (*contents["tables"], "dataset.json", "_manifests")
    others = sorted(
        p.relative_to(parted)
        for p in parted.rglob("*")
        if p.is_file() and p.relative_to(parted).parts[0] not in skip
    )
    assert others == sorted(
        p.relative_to(single) for p in single.rglob("*") if p.is_file() and p.suffix != ".parquet"
    )
    for f in others:
        assert (parted / f).read_bytes() == (single / f).read_bytes(), f


TONPUU = ("--length", "tonpuu")
RUNS = {
    "riichi": ("simulate", "--players", "greedy,efficiency", "--games", "2", "--seed", "4", *TONPUU),
    "riichi-duplicate-sanma": ("simulate", "--players", "greedy,efficiency,greedy", "--games", "1",
                               "--seed", "4", *TONPUU, "--duplicate"),
    "hk": ("simulate", "--game", "hk", "--games", "3", "--seed", "4"),
    "doudizhu": ("simulate", "--game", "doudizhu", "--games", "2", "--seed", "4", "--duplicate", "--players",
                 "zhanpai,greedy"),
}  # fmt: skip


@pytest.mark.parametrize("name", RUNS)
def test_simulate_with_resume_writes_a_dataset_of_the_same_rows(name: str, tmp_path: Path) -> None:
    args = RUNS[name]
    single, parted = tmp_path / "single", tmp_path / "parted"
    code, plain = cli(*args, "--out", str(single), "--json")
    assert code == 0, plain
    code, first = cli(*args, "--out", str(parted), "--json", "--resume")  # nothing to keep yet
    assert code == 0, first
    assert last_json(first)["resumed"] == 0
    assert_dataset_is(parted, single)
    # all kept the second time; the same summary (but its timing)
    code, again = cli(*args, "--out", str(parted), "--json", "--resume")
    assert last_json(again)["resumed"] == last_json(again)["deals"]
    figures = {k: v for k, v in last_json(plain).items() if k not in ("seconds", "jobs")}
    assert {k: v for k, v in last_json(again).items() if k not in ("seconds", "jobs", "resumed")} == figures
    assert_dataset_is(parted, single)
    # summary (riichi, Hong Kong) works the figures out again from the games table, parts or file
    if "doudizhu" not in args:
        game = ["--game", "hk"] if "hk" in args else []
        figures = [last_json(cli("summary", *game, str(d), "--json")[1]) for d in (parted, single)]
        assert figures[0] == figures[1] == json.loads((single / "summary.json").read_text())
    # other options keep nothing; a run without --resume into the folder writes the single files again
    code, other = cli(*args, "--seed", "5", "--out", str(parted), "--json", "--resume")
    assert last_json(other)["resumed"] == 0
    assert cli(*args, "--out", str(parted))[0] == 0
    assert not (parted / "dataset.json").exists() and not (parted / "_manifests").exists()
    files = sorted(p.relative_to(single) for p in single.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(parted) for p in parted.rglob("*") if p.is_file())
    for f in files:
        assert (parted / f).read_bytes() == (single / f).read_bytes(), f


def test_a_simulation_killed_midway_is_completed_by_resume(tmp_path: Path) -> None:
    args = ("simulate", "--players", "greedy,efficiency", "--games", "6", "--seed", "6", *TONPUU)
    single, parted = tmp_path / "single", tmp_path / "parted"
    assert cli(*args, "--out", str(single))[0] == 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # one job: 6 deals in tasks of 2, the run killed outright once the first task is recorded
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjcli", *args, "--out", str(parted), "--resume", "--jobs", "1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if any((parted / "_manifests").glob("*.json")):
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    assert not (parted / "dataset.json").exists()
    done = len(list((parted / "_manifests").iterdir()))
    code, output = cli(*args, "--out", str(parted), "--resume", "--json")
    assert code == 0, output
    assert 0 < last_json(output)["resumed"] < 6 and last_json(output)["resumed"] == 2 * done
    assert_dataset_is(parted, single)


def test_a_plugin_whose_code_changed_keeps_nothing(tmp_path: Path) -> None:
    plugin = tmp_path / "mine.py"
    shutil.copy(EXAMPLE_PLUGIN, plugin)
    args = ("simulate", "--plugin", f"mine={plugin}:Tsumogiri", "--players", "mine,greedy", "--games", "2",
            "--length", "tonpuu", "--out", str(tmp_path / "out"), "--json", "--resume")  # fmt: skip
    assert cli(*args)[0] == 0
    assert last_json(cli(*args)[1])["resumed"] == 2
    plugin.write_text(plugin.read_text() + "\n# changed\n")
    assert last_json(cli(*args)[1])["resumed"] == 0


def test_hong_kong_verify_with_resume_is_a_dataset_of_the_same_rows(tmp_path: Path) -> None:
    sim = tmp_path / "sim"
    assert cli("simulate", "--game", "hk", "--games", "4", "--seed", "2", "--out", str(sim))[0] == 0
    single, parted = tmp_path / "single", tmp_path / "parted"
    args = ("verify", "--game", "hk", str(sim / "logs"), "--json")
    code, plain = cli(*args, "--out", str(single))
    assert code == 0, plain
    code, first = cli(*args, "--out", str(parted), "--resume")
    assert code == 0 and json_lines(first) == json_lines(plain)
    assert_dataset_is(parted, single)
    # a stopped run: a task's record gone (its parts stay, unrecorded), no dataset.json
    sorted((parted / "_manifests").iterdir())[0].unlink()
    (parted / "dataset.json").unlink()
    code, again = cli(*args, "--out", str(parted), "--resume")
    assert code == 0 and json_lines(again) == json_lines(plain)  # kept logs reported as before
    assert_dataset_is(parted, single)
    # report reads it as it reads the single files
    for d in (single, parted):
        code, out = cli("report", str(d), "-o", str(tmp_path / f"{d.name}.html"))
        assert code == 0 and "hk verify" in out, out


def test_hong_kong_verify_of_a_parted_simulations_folder_reads_its_logs_alone(tmp_path: Path) -> None:
    # its task records (_manifests/*.json) and dataset.json were read as logs: 4 errors beside 3 games
    sim = tmp_path / "sim"
    assert (
        cli("simulate", "--game", "hk", "--games", "3", "--seed", "2", "--out", str(sim), "--resume")[0] == 0
    )
    assert (sim / "_manifests").is_dir() and (sim / "dataset.json").is_file()
    code, out = cli("verify", "--game", "hk", str(sim), "--json")
    summary = last_json(out)
    assert code == 0 and (summary["logs"], summary["ok"], summary["error"]) == (3, 3, 0), out
