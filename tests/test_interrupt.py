"""Ctrl-C and SIGTERM stop every batch command cleanly, tested with real signals on real processes.

Each command runs as ``python -m mjcli`` in a session of its own; once its workers are at work, a
signal goes either to the whole process group (what a terminal does on Ctrl-C) or to the main
process alone (what ``kill PID`` does). Then: exit code 130 within 5 s with one line on stderr and
no traceback; every process of the group gone soon after (workers, the forkserver, the resource
tracker); no temporary file left; the out folder exactly as it was before (the previous complete
result), and the hidden leftovers of an earlier killed run cleaned up.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from shared import LOGS

from mjcli.runner import default_jobs

#: the previous "complete result" in the out folder: the files must stay byte for byte
OLD = b"the previous complete result\n"
#: the stage of a run killed outright before this one
KILLED_STAGE = ".mjcli-stage-k1ll3d"


def _group(pgid: int) -> dict[int, int]:
    """pid -> parent pid of every live process in process group ``pgid`` (from /proc)."""
    members = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, ppid, pgrp = fields[0], int(fields[1]), int(fields[2])
        if pgrp == pgid and state != "Z":
            members[int(entry)] = ppid
    return members


def _forkserver(main: int) -> bool:
    """The forkserver of ``main`` has started (it then imports its preload modules for a while)."""
    for pid in _group(main):
        try:
            if b"forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return True
        except OSError:
            pass
    return False


def _cmdline(pid: int) -> bytes | None:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None


def _workers(main: int) -> int:
    """The workers of ``main``: processes of the group that the forkserver forked (children of a
    child), or that ``main`` forked itself (children with its command line: the forkserver and the
    resource tracker have their own)."""
    group = _group(main)
    command = _cmdline(main)
    return sum(
        1
        for pid, ppid in group.items()
        if pid != main and ppid in group and (ppid != main or _cmdline(pid) == command)
    )


def _starting(main: int) -> bool:
    """``main`` has begun to start its workers: its forkserver or a first worker is there."""
    return _forkserver(main) or _workers(main) > 0


def _old_result(out: Path, names: list[str]) -> dict[str, bytes]:
    """Fill ``out`` with a previous result and the leftovers of a run killed outright (kill -9)."""
    for name in names:
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(OLD)
        # what an older version, writing in place, left when it was killed
        (target.parent / f".{target.name}.x7y8z9.tmp").write_bytes(b"half")
        parts = out / f".{target.stem}-parts-k1ll3d"
        if target.parent == out and not parts.exists():
            parts.mkdir()
            (parts / "part-000000.parquet").write_bytes(b"half")
    (out / KILLED_STAGE).mkdir()  # and what this version leaves after kill -9
    return {name: OLD for name in names}


def _claimed(out: Path) -> bool:
    """The run has claimed ``out``: its own stage is there (the killed run's was removed)."""
    return any(p.name != KILLED_STAGE for p in out.glob(".mjcli-stage-*"))


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def _started(args: list[str]) -> subprocess.Popen[str]:
    """``mjcli ARGS`` in a session of its own (a signal to its group reaches its workers and bots
    as Ctrl-C would), stderr kept."""
    return subprocess.Popen(
        [sys.executable, "-m", "mjcli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _stop_midway(
    args: list[str],
    out: Path,
    sig: signal.Signals,
    whole_group: bool,
    workers: int,
    early: bool = False,
    ready: Callable[[], bool] | None = None,
) -> tuple[int, float, str]:
    """Start the command, wait until it has claimed ``out`` and ``workers`` workers run (``early``:
    only until it begins to start them; ``ready``: and until that says so too), and signal it."""
    proc = _started(args)
    try:
        deadline = time.monotonic() + 90
        while not _starting(proc.pid) if early else _workers(proc.pid) < workers or not _claimed(out):
            assert proc.poll() is None, f"the command ended before its workers started: {proc.stderr.read()}"
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.05)
        while ready is not None and not ready():
            assert proc.poll() is None, f"the command ended too soon: {proc.stderr.read()}"
            assert time.monotonic() < deadline, "the command never got ready"
            time.sleep(0.05)
        if not early:
            time.sleep(0.3)  # at work now
        sent = time.monotonic()
        if whole_group:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
        try:
            proc.wait(timeout=20)  # its stderr is a few lines: the pipe cannot fill up
        except subprocess.TimeoutExpired:
            pytest.fail(f"{args[0]} hangs after {sig.name}")
        # The command's own exit is what a user waits for; the forkserver holds the stderr pipe open
        # until it notices (after its imports, seconds on a loaded machine), so read it afterwards.
        took = time.monotonic() - sent
        err = proc.stderr.read()
        # Every process of the group ends: workers at once, the forkserver as soon as it sees the
        # main process gone (it may first finish importing its preload modules).
        deadline = time.monotonic() + 15
        while _group(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _group(proc.pid), f"processes left behind: {_group(proc.pid)}"
        return proc.returncode, took, err
    finally:
        if proc.poll() is None or _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


CASES = {
    # command, files of a previous result, signal, to the whole group (Ctrl-C in a terminal)?
    "replay": (
        ["replay", str(LOGS)],
        ["decisions.parquet", "games.parquet", "replay.json"],  # an earlier replay's, mark included
        signal.SIGINT,
        True,
    ),
    "verify": (
        ["verify", str(LOGS), "--jobs", "2"],
        ["verify.parquet"],
        signal.SIGTERM,
        False,
    ),
    "simulate": (
        ["simulate", "--games", "2000", "--jobs", "2", "--seed", "3"],
        ["logs/sim-000000.json", "games.parquet", "summary.json"],
        signal.SIGTERM,
        True,
    ),
    "simulate-doudizhu": (
        ["simulate", "--game", "doudizhu", "--games", "5000", "--jobs", "2"],
        ["games.jsonl", "games.parquet", "summary.json"],
        signal.SIGINT,
        False,
    ),
    "simulate-hk": (
        ["simulate", "--game", "hk", "--games", "5000", "--jobs", "2"],
        ["logs/hk-000000.json", "games.parquet", "summary.json"],
        signal.SIGINT,
        True,
    ),
}


#: the workers of a replay with the default --jobs (one per core; none on one core: it runs in-process)
default_workers = min(default_jobs(), 2) if default_jobs() > 1 else 0


@pytest.mark.parametrize("case", list(CASES))
def test_a_signal_stops_the_run_cleanly(case: str, tmp_path: Path) -> None:
    args, names, sig, whole_group = CASES[case]
    out = tmp_path / "out"
    out.mkdir()
    before = _old_result(out, names)
    code, took, err = _stop_midway(
        [*args, "--out", str(out)], out, sig, whole_group, workers=2 if case != "replay" else default_workers
    )
    assert code == 130, err
    assert took < 5, f"{case} took {took:.1f} s to stop"
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("interrupted:"), err
    # the previous result as it was, nothing new, no temporary file, the killed run's leftovers gone
    assert _files(out) == before
    assert not [p.name for p in out.rglob(".*")]


def test_ctrl_c_while_the_workers_start(tmp_path: Path) -> None:
    """A Ctrl-C to the whole group while the workers are being started (while the forkserver still
    imports its modules, or as the main process forks them): the forkserver and the workers never
    see it (no traceback of theirs), the main process stops them."""
    out = tmp_path / "out"
    args = ["verify", str(LOGS), "--jobs", "2", "--out", str(out)]
    code, took, err = _stop_midway(args, out, signal.SIGINT, whole_group=True, workers=0, early=True)
    assert code == 130, err
    assert took < 5
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines()[-1].startswith("interrupted:")
    assert not out.exists()  # the folder this run made is removed again, being empty


def _running_with(marker: str) -> list[int]:
    """The live processes whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        cmdline = _cmdline(int(entry)) if entry.isdigit() else None
        if cmdline is not None and marker.encode() in cmdline and int(entry) != os.getpid():
            try:
                state = Path(f"/proc/{entry}/stat").read_text(errors="replace").rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                found.append(int(entry))
    return found


@pytest.mark.parametrize("command", ["replay", "simulate"])
def test_outside_bots_end_with_a_stopped_run_of_workers(command: str, tmp_path: Path) -> None:
    """A bot runs in a process group of its own (so that a Ctrl-C does not reach it), started by a
    worker: a stopped run's workers end their bots before they go (they were killed outright, and
    the bots, hanging at a decision, ran on with no parent)."""
    marker = f"mjcli-bot-{os.getpid()}-{command}"
    sleeper = Path(__file__).resolve().parent / "bots" / "sleeper.py"
    bot = ["--bot", f"b={sys.executable} {sleeper} {{seat}} {marker}", "--bot-timeout", "60"]
    if command == "replay":
        args = ["replay", str(LOGS / "tenhou6"), "--jobs", "2", *bot, "--policy", "b"]
    else:
        args = ["simulate", "--games", "8", "--jobs", "2", *bot, "--players", "b,greedy,greedy,greedy"]
    out = tmp_path / "out"
    try:
        deadline = time.monotonic() + 60
        proc_args = [*args, "--out", str(out)]
        # signalled once both workers have their bots waiting (four seats each in replay)
        started = lambda: len(_running_with(marker)) >= 2  # noqa: E731
        code, _, err = _stop_midway(proc_args, out, signal.SIGINT, whole_group=True, workers=2, ready=started)
        assert code == 130, err
        while _running_with(marker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running_with(marker), "bots left running after the run stopped"
    finally:
        for pid in _running_with(marker):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("command", ["replay", "simulate", "bot-check"])
def test_ctrl_c_stops_a_run_in_process_with_a_hanging_bot(command: str, tmp_path: Path) -> None:
    """--jobs 1 (and bot check) run the bots from the main process: a Ctrl-C while a bot hangs over
    an answer stops the run at once, the bots killed. The game's end used to tell each bot the game
    was over first, waiting for its answer: the stop took the --bot-timeout (for ever with inf)."""
    marker = f"mjcli-bot-{os.getpid()}-inproc-{command}"
    sleeper = Path(__file__).resolve().parent / "bots" / "sleeper.py"
    bot = f"b={sys.executable} {sleeper} {{seat}} {marker}"
    out = tmp_path / "out"
    if command == "replay":
        args = ["replay", str(LOGS / "tenhou6"), "--jobs", "1", "--bot", bot, "--policy", "b,greedy"]
        args += ["--out", str(out)]
    elif command == "simulate":
        args = ["simulate", "--games", "4", "--jobs", "1", "--bot", bot, "--players", "b,greedy,b,greedy"]
        args += ["--out", str(out)]
    else:
        args = ["bot", "check", bot]
    proc = _started([*args, "--bot-timeout", "inf"])
    try:
        deadline = time.monotonic() + 60
        while not _running_with(marker):
            assert proc.poll() is None, f"the command ended before its bot started: {proc.stderr.read()}"
            assert time.monotonic() < deadline, "the bot never started"
            time.sleep(0.05)
        time.sleep(1.0)  # the bot has answered start_game and hangs over its first decision
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{command} hangs after Ctrl-C while a bot hangs")
        took = time.monotonic() - sent
        err = proc.stderr.read()
        assert proc.returncode == 130, err
        assert took < 5, f"{command} took {took:.1f} s to stop"
        assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("interrupted:"), err
        deadline = time.monotonic() + 10
        while _running_with(marker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running_with(marker), "bots left running after the run stopped"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in _running_with(marker):
            os.kill(pid, signal.SIGKILL)
