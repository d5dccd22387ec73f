"""replay, verify and simulate on a real Ray cluster (``--ray ADDRESS``): the same results as
``--jobs 2``, the partitioned dataset, ``--resume``, and a worker killed mid-run.

One cluster for the module: ``ray start --head --block`` on 127.0.0.1 in a session of its own
(started once, about 20 s here; stopped by its process group, never with ``ray stop``, which would
stop every Ray on the machine). The commands run in this process, which joins the cluster once
(a command finds Ray connected and uses that connection); one run goes through the real CLI in a
process of its own, as a user types it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.runner import RAY_TASK_NAME

if importlib.util.find_spec("ray") is None:
    pytest.skip("Ray is not installed (make test installs the ray extra)", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_LOGS = sorted(str(p) for p in (ROOT / "fixtures" / "simulate" / "logs").glob("*.json"))
#: a cluster on loopback only that no other node may join, and no token written to ~/.ray
RAY_ENV = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_AUTH_MODE": "disabled",
    "RAY_USAGE_STATS_ENABLED": "0",
}
runner = CliRunner()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster() -> Iterator[dict[str, object]]:
    """A 2-CPU Ray head on 127.0.0.1, joined by this process; its address and process group."""
    # Ray reads RAY_ENV once, when first imported: a test that imported it earlier in this process
    # would leave the driver waiting for a head on another address (run such tests in a subprocess)
    assert "ray" not in sys.modules, "a test before this module imported ray in the pytest process"
    saved = {k: os.environ.get(k) for k in RAY_ENV}
    os.environ.update(RAY_ENV)  # before Ray is imported: it reads them once
    temp = tempfile.mkdtemp(prefix="mjr-", dir="/tmp")  # short: Ray's socket paths must stay < 108 bytes
    port = _free_port()
    ray_bin = Path(sys.executable).with_name("ray")
    head = subprocess.Popen(
        [str(ray_bin), "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
         "--num-cpus=2", "--include-dashboard=false", "--object-store-memory=200000000",
         "--disable-usage-stats", f"--temp-dir={temp}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 180
        assert head.stdout is not None
        for line in head.stdout:
            seen.append(line)
            if "Ray runtime started" in line or time.monotonic() > deadline:
                break
        assert any("Ray runtime started" in s for s in seen), "".join(seen[-20:])
        threading.Thread(target=lambda: [None for _ in head.stdout], daemon=True).start()  # drain
        import ray

        address = f"127.0.0.1:{port}"
        previous = signal.getsignal(signal.SIGTERM)
        ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        signal.signal(signal.SIGTERM, previous)  # ray.init puts its own in
        ray._private.worker._worker_logs_enabled = False  # no cluster messages among --json lines
        yield {"address": address, "pgid": head.pid, "env": {**os.environ, **RAY_ENV}}
    finally:
        with contextlib.suppress(Exception):
            import ray

            ray.shutdown()
        leftovers = _cluster_pids(head.pid)
        started = {pid: _started(pid) for pid in leftovers}
        # the driver has left: nothing to save, so the whole group at once (a SIGTERM takes 10 s)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        for pid in leftovers:  # a worker (its own group) that outlived its raylet
            if _started(pid) == started.get(pid):  # the same process, not a new one with its number
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _processes() -> Iterator[tuple[int, int, int, str]]:
    """(pid, parent, process group, command line) of every process."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        yield int(entry.name), int(fields[1]), int(fields[2]), cmd


def _started(pid: int) -> str | None:
    """When the process started (clock ticks since boot), None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2 :].split()[19]


def _cluster_pids(pgid: int, title: str | None = None) -> list[int]:
    """The processes of the cluster: its group's, and the workers its raylet started (each in a
    group of its own); with ``title``, only the workers whose title starts with it."""
    table = list(_processes())
    raylets = {pid for pid, _, group, cmd in table if group == pgid and "/raylet " in cmd}
    workers = [pid for pid, parent, _, cmd in table if parent in raylets and cmd.startswith(title or "")]
    if title is not None:
        return workers
    return workers + [pid for pid, _, group, _ in table if group == pgid]


def cli(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.output


def json_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def parts_in_order(folder: Path, table: str) -> pl.DataFrame:
    contents = json.loads((folder / "dataset.json").read_text())
    return pl.read_parquet([folder / p for p in contents["tables"][table]["parts"]])


#: what a parted run writes besides the files of a run without parts
DATASET_ENTRIES = ("dataset.json", "_manifests")


def assert_dataset_is(parted: Path, single: Path) -> None:
    """``parted`` (a run on Ray or resumed) holds the rows of ``single`` (a run with --jobs) as parts,
    and the same bytes in every other file (logs, summary.json, games.jsonl)."""
    contents = json.loads((parted / "dataset.json").read_text())
    tables = set(contents["tables"])
    for table in tables:
        if (single / f"{table}.parquet").is_file():
            assert parts_in_order(parted, table).equals(pl.read_parquet(single / f"{table}.parquet")), table
        assert len(list((parted / table).iterdir())) == len(list((parted / "_manifests").iterdir()))
    others = sorted(
        p.relative_to(parted)
        for p in parted.rglob("*")
        if p.is_file() and p.relative_to(parted).parts[0] not in (*tables, *DATASET_ENTRIES)
    )
    assert others == sorted(
        p.relative_to(single) for p in single.rglob("*") if p.is_file() and p.suffix != ".parquet"
    )
    for f in others:
        assert (parted / f).read_bytes() == (single / f).read_bytes(), f


def test_replay_on_ray_writes_the_rows_of_jobs_2_as_a_dataset(cluster, tmp_path: Path) -> None:
    ray_out, jobs_out = tmp_path / "ray", tmp_path / "jobs"
    code, out = cli("replay", *FIXTURE_LOGS, f"--ray={cluster['address']}", "--out", str(ray_out), "--json")
    assert code == 0, out
    code, jobs_json = cli("replay", *FIXTURE_LOGS, "--jobs", "2", "--out", str(jobs_out), "--json")
    assert code == 0
    for table in ("decisions", "games"):
        single = pl.read_parquet(jobs_out / f"{table}.parquet")
        assert single.height > 0
        # the parts in input order (dataset.json) are the single file's rows, in its order
        assert parts_in_order(ray_out, table).equals(single)
        # and the dataset reads lazily with a glob, as any Parquet reader would
        lazy = pl.scan_parquet(str(ray_out / table / "**" / "*.parquet")).collect()
        assert lazy.sort(lazy.columns).equals(single.sort(single.columns))
    assert not (ray_out / "decisions.parquet").exists()
    assert len(list((ray_out / "decisions").iterdir())) == len(list((ray_out / "_manifests").iterdir()))
    # summary and report read the dataset: the same figures as from the single file
    _, a = cli("summary", str(ray_out), "--json")
    _, b = cli("summary", str(jobs_out), "--json")
    assert json_lines(a) == json_lines(b)
    code, out = cli("report", str(ray_out), "-o", str(tmp_path / "r.html"))
    assert code == 0, out
    assert "riichi replay" in out
    # without --out the rows come back to this process: the same summary
    code, c = cli("replay", *FIXTURE_LOGS, f"--ray={cluster['address']}", "--json")
    assert code == 0
    figures = ("games", "rows", "policies", "matrix")
    assert {k: json_lines(c)[-1].get(k) for k in figures} == {
        k: json_lines(jobs_json)[-1].get(k) for k in figures
    }
    assert json_lines(c)[-1]["rows"] == pl.read_parquet(jobs_out / "decisions.parquet").height > 0


def test_verify_and_simulate_on_ray_write_the_bytes_of_jobs_2(cluster, tmp_path: Path) -> None:
    # verify: its three tables as a dataset, the rows of --jobs 2; each log's report printed the same
    a, b = tmp_path / "verify-ray", tmp_path / "verify-jobs"
    code_a, out_a = cli("verify", *FIXTURE_LOGS[:4], f"--ray={cluster['address']}", "--out", str(a), "--json")
    code_b, out_b = cli("verify", *FIXTURE_LOGS[:4], "--jobs", "2", "--out", str(b), "--json")
    assert (code_a, code_b) == (0, 0), out_a + out_b
    assert json_lines(out_a) == json_lines(out_b)
    for table in ("verify", "verify_games", "verify_mismatches"):
        assert parts_in_order(a, table).equals(pl.read_parquet(b / f"{table}.parquet"))
    # simulate of every game: its tables as a dataset (a deal's games a task), the rows of --jobs 2;
    # the logs (written by the tasks), games.jsonl and summary.json the same bytes
    runs = [
        ("simulate", "--games", "2", "--seed", "5", "--length", "tonpuu"),
        ("simulate", "--game", "doudizhu", "--games", "4", "--seed", "5"),
        ("simulate", "--game", "hk", "--games", "2", "--seed", "5"),
        ("simulate", "--game", "doudizhu", "--games", "2", "--seed", "5", "--duplicate", "--players",
         "zhanpai,greedy"),
        ("simulate", "--game", "red", "--games", "2", "--seed", "5", "--duplicate", "--players",
         "red-pm0,red-pm12"),
    ]  # fmt: skip
    for i, args in enumerate(runs):
        a, b = tmp_path / f"{i}-ray", tmp_path / f"{i}-jobs"
        code_a, out_a = cli(*args, f"--ray={cluster['address']}", "--out", str(a))
        code_b, out_b = cli(*args, "--jobs", "2", "--out", str(b))
        assert (code_a, code_b) == (0, 0), out_a + out_b
        assert not (a / "games.parquet").exists()
        assert_dataset_is(a, b)
        # report reads the dataset: the same page as from the single files
        pages = [cli("report", str(d), "-o", str(tmp_path / f"{d.name}.html")) for d in (a, b)]
        assert [code for code, _ in pages] == [0, 0]
        assert (tmp_path / f"{a.name}.html").read_text().replace(a.name, b.name) == (
            tmp_path / f"{b.name}.html"
        ).read_text()
    # Hong Kong verify of what it simulated: a dataset with the rows of --jobs 2, the same reports
    a, b = tmp_path / "hk-verify-ray", tmp_path / "hk-verify-jobs"
    args = ("verify", "--game", "hk", str(tmp_path / "2-ray" / "logs"), "--json")
    code_a, out_a = cli(*args, f"--ray={cluster['address']}", "--out", str(a))
    code_b, out_b = cli(*args, "--jobs", "2", "--out", str(b))
    assert (code_a, code_b) == (0, 0), out_a + out_b
    assert json_lines(out_a) == json_lines(out_b) and json_lines(out_a)[-1]["logs"] == 2
    assert_dataset_is(a, b)
    # replay of the other games: what they simulated, replayed on Ray and with --jobs 2
    # (their decisions as a dataset on Ray, as the riichi replay's; the same summary)
    for game, records in (("doudizhu", "1-ray/games.jsonl"), ("hk", "2-ray/logs")):
        a, b = tmp_path / f"{game}-replay-ray", tmp_path / f"{game}-replay-jobs"
        args = ("replay", "--game", game, str(tmp_path / records))
        code_a, out_a = cli(*args, f"--ray={cluster['address']}", "--out", str(a), "--json")
        code_b, out_b = cli(*args, "--jobs", "2", "--out", str(b), "--json")
        assert (code_a, code_b) == (0, 0), out_a + out_b
        assert parts_in_order(a, "decisions").equals(pl.read_parquet(b / "decisions.parquet"))
        assert {**json_lines(out_a)[-1], "resumed": 0} == {**json_lines(out_b)[-1], "resumed": 0}


def test_three_player_replay_and_simulate_on_ray_are_those_of_jobs_2(cluster, tmp_path: Path) -> None:
    sanma = sorted(
        str(p) for p in (ROOT / "fixtures" / "sanma").iterdir() if p.suffix != ".md" and p.is_file()
    )
    args = ("replay", *sanma, "--policies", "greedy,efficiency", "--json")
    code_a, out_a = cli(*args, f"--ray={cluster['address']}", "--out", str(tmp_path / "ray"))
    code_b, out_b = cli(*args, "--jobs", "2", "--out", str(tmp_path / "jobs"))
    assert (code_a, code_b) == (0, 0), out_a + out_b
    for table in ("decisions", "games"):
        single = pl.read_parquet(tmp_path / "jobs" / f"{table}.parquet")
        assert parts_in_order(tmp_path / "ray", table).equals(single)
    assert set(pl.read_parquet(tmp_path / "jobs" / "games.parquet")["seat"]) == {0, 1, 2}
    assert json_lines(out_a)[-1]["games"] == json_lines(out_b)[-1]["games"] == len(sanma)
    # a three-player table with open riichi played on Ray: the bytes of --jobs 2
    sim = ("simulate", "--players", "akagi,mahjongjoy,efficiency", "--games", "2", "--seed", "5",
           "--length", "tonpuu", "--open-riichi")  # fmt: skip
    a, b = tmp_path / "sim-ray", tmp_path / "sim-jobs"
    assert cli(*sim, f"--ray={cluster['address']}", "--out", str(a))[0] == 0
    assert cli(*sim, "--jobs", "2", "--out", str(b))[0] == 0
    assert_dataset_is(a, b)
    assert json.loads((a / "summary.json").read_text())["seats"] == 3


def test_resume_keeps_the_finished_tasks_and_does_the_rest(cluster, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for p in FIXTURE_LOGS[:4]:
        shutil.copy(p, logs)
    out = tmp_path / "out"
    args = ("replay", str(logs), "--policies", "greedy,efficiency", "--out", str(out), "--json")
    code, first = cli(*args, f"--ray={cluster['address']}")
    assert code == 0
    whole = parts_in_order(out, "decisions")
    # a run stopped before its end: one task's record missing (its parts with it), no dataset.json
    manifests = sorted((out / "_manifests").iterdir())
    assert len(manifests) == 4  # 4 logs on 2 CPUs: one log a task
    manifests[0].unlink()
    (out / "dataset.json").unlink()
    code, again = cli(*args, f"--ray={cluster['address']}", "--resume")
    assert code == 0
    assert json_lines(again)[-1]["resumed"] == 3
    assert parts_in_order(out, "decisions").equals(whole)
    assert len(list((out / "decisions").iterdir())) == 4
    # without Ray too (the tasks in this process write the same parts), all 4 kept
    code, again = cli(*args, "--jobs", "1", "--resume")
    assert json_lines(again)[-1]["resumed"] == 4
    # a log whose content changed is done again; other options keep nothing
    changed = sorted(logs.iterdir())[1]
    changed.write_text(changed.read_text() + "\n")  # the same game, other bytes
    code, again = cli(*args, "--jobs", "1", "--resume")
    assert json_lines(again)[-1]["resumed"] == 3
    code, again = cli(*args[:2], "--policies", "greedy", "--out", str(out), "--json", "--resume")
    assert json_lines(again)[-1]["resumed"] == 0
    assert len(list((out / "_manifests").iterdir())) == 4


@contextlib.contextmanager
def first_busy_worker_killed(cluster: dict[str, object]) -> Iterator[list[int]]:
    """While the block runs, the first Ray worker seen running a task is killed (SIGKILL); the list
    holds its pid once it is."""
    killed: list[int] = []
    stop = threading.Event()

    def kill_first_busy_worker() -> None:
        # a worker running a task carries the task's function name as its title
        while not stop.is_set() and not killed:
            for pid in _cluster_pids(int(cluster["pgid"]), f"ray::{RAY_TASK_NAME}"):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                break
            time.sleep(0.02)

    killer = threading.Thread(target=kill_first_busy_worker)
    killer.start()
    try:
        yield killed
    finally:
        stop.set()
        killer.join()


def test_a_worker_killed_mid_run_is_retried_and_the_result_is_complete(cluster, tmp_path: Path) -> None:
    out = tmp_path / "ray"
    with first_busy_worker_killed(cluster) as killed:
        code, output = cli(
            "replay", *FIXTURE_LOGS, f"--ray={cluster['address']}", "--out", str(out), "--json"
        )
    assert killed, "no worker was seen running a task"
    assert code == 0, output
    code, _ = cli("replay", *FIXTURE_LOGS, "--jobs", "2", "--out", str(tmp_path / "jobs"))
    for table in ("decisions", "games"):
        assert parts_in_order(out, table).equals(pl.read_parquet(tmp_path / "jobs" / f"{table}.parquet"))
    assert not list(out.glob(".mjcli-*")), "a staging folder was left behind"


def test_a_simulation_with_a_worker_killed_or_stopped_midway_is_completed_the_same(
    cluster, tmp_path: Path
) -> None:
    # duplicate deals of two policies (two games a deal, one task each), four deals
    args = ("simulate", "--players", "greedy,efficiency", "--games", "4", "--seed", "9", "--length",
            "tonpuu", "--duplicate")  # fmt: skip
    single = tmp_path / "jobs"
    assert cli(*args, "--jobs", "2", "--out", str(single))[0] == 0
    out = tmp_path / "ray"
    with first_busy_worker_killed(cluster) as killed:
        code, output = cli(*args, f"--ray={cluster['address']}", "--out", str(out), "--json")
    assert killed, "no worker was seen running a task"
    assert code == 0, output
    assert_dataset_is(out, single)
    assert len(list((out / "_manifests").iterdir())) == 4
    # what a run stopped midway leaves: no dataset.json, a task that wrote its parts and one log but
    # not its record, a temporary file in the staging folder, and the log of an earlier, longer run
    record = sorted((out / "_manifests").iterdir())[-1]
    written = json.loads(record.read_text())["files"]
    record.unlink()
    (out / "dataset.json").unlink()
    (out / written[-1]).unlink()
    (out / "logs" / "sim-000099.json").write_text("{}")
    staging = out / ".mjcli-stage-parts-x"
    staging.mkdir()
    (staging / "part-y.tmp").write_bytes(b"PAR1")
    with pytest.raises(UsageError, match="did not finish"):  # not a result yet (exit 2 in the CLI)
        cli("report", str(out), "-o", str(tmp_path / "r.html"))
    code, output = cli(*args, f"--ray={cluster['address']}", "--out", str(out), "--json", "--resume")
    assert code == 0, output
    assert json_lines(output)[-1]["resumed"] == 3
    assert_dataset_is(out, single)
    assert not staging.exists()


def test_the_real_cli_joins_the_cluster_by_its_address(cluster, tmp_path: Path) -> None:
    out = tmp_path / "v"
    res = subprocess.run(
        [sys.executable, "-m", "mjcli", "verify", *FIXTURE_LOGS[:2], "--ray", str(cluster["address"]),
         "--out", str(out)],
        capture_output=True, text=True, timeout=300, env=cluster["env"], check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "2 logs: 2 ok" in res.stdout
    assert (out / "dataset.json").is_file() and len(list((out / "verify").iterdir())) == 2
