"""The process pool gives results in task order whatever the workers' speed, and names the modules
its forkserver preloads from the run's own work (never every game's engines)."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjcli.runner import _modules_of, ordered_map, shared


def _slow_square(scale: float, task: int) -> int:
    # uneven tasks: the early ones slowest, so later results arrive first
    time.sleep(scale * (task % 4 == 0))
    if task < 0:
        raise ValueError(f"bad task {task}")
    return task * task


def test_results_come_in_task_order_with_two_workers() -> None:
    tasks = list(range(11))
    assert list(ordered_map(_slow_square, tasks, jobs=2, setup=shared(0.05))) == [t * t for t in tasks]


def test_a_failing_task_is_raised_after_the_results_before_it() -> None:
    got: list[int] = []
    with pytest.raises(ValueError, match="bad task -1"):
        for r in ordered_map(_slow_square, [0, 1, 2, -1, 4, 5], jobs=2, setup=shared(0.02)):
            got.append(r)
    assert got == [0, 1, 4]


def test_the_preload_is_the_modules_of_work_and_setup() -> None:
    from mjcli.riichi import replay

    setup = functools.partial(replay._replay_setup, replay.ReplayOptions(("tsumogiri",)))
    assert _modules_of(replay._replay_task, setup) == ["mjcli.riichi.replay"]
    assert _modules_of(_slow_square, shared(0.1)) == [__name__, "mjcli.runner"]


def test_replay_starts_its_workers_server_with_the_modules_its_work_needs() -> None:
    from mjcli.riichi import replay
    from mjcli.riichi.game import REPLAY_WORKERS
    from mjcli.runner import SHANTEN_TABLES

    assert {SHANTEN_TABLES, replay._replay_task.__module__} <= set(REPLAY_WORKERS)
    for name in REPLAY_WORKERS:  # the forkserver would skip a name it cannot import, silently
        importlib.import_module(name)


def test_verify_and_simulate_start_their_workers_server_with_their_work() -> None:
    from mjcli.riichi import verify
    from mjcli.riichi.game import SIMULATE_WORKERS, VERIFY_WORKERS
    from mjcli.riichi.simulate import run
    from mjcli.runner import SHANTEN_TABLES

    assert verify.verify_task.__module__ in VERIFY_WORKERS
    assert {SHANTEN_TABLES, run._play_task.__module__} <= set(SIMULATE_WORKERS)
    for name in (*VERIFY_WORKERS, *SIMULATE_WORKERS):
        importlib.import_module(name)


def test_the_workers_server_imports_no_polars() -> None:
    # The workers send plain rows back and the main process makes the frames: Polars in the server's
    # preload would cost every --jobs run ~0.25 s before its first task (in a fresh interpreter: the
    # test process has imported Polars long ago)
    import subprocess

    from mjcli.riichi.game import REPLAY_WORKERS, SIMULATE_WORKERS, VERIFY_WORKERS

    names = sorted({*REPLAY_WORKERS, *VERIFY_WORKERS, *SIMULATE_WORKERS, "mjcli.cli"})
    shown = "print(sorted(m for m in ('polars', 'pyarrow') if m in sys.modules))"
    code = f"import sys\nfor n in {names!r}: __import__(n)\n{shown}"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_modules_a_run_imports_before_its_workers_start_import_no_polars() -> None:
    # replay, verify and simulate with --resume make a PartedRun before their workers start, and
    # the Hong Kong and Dou Dizhu simulations import their tables' modules: these import Polars only
    # to make or read a frame, so that the command's process still forks its workers
    # (mjcli.runner.forks_workers; a Polars imported here would have its threads running)
    names = [
        "mjcli.ledger",
        "mjcli.riichi.game",
        "mjcli.doudizhu.game",
        "mjcli.doudizhu.simulate",
        "mjcli.doudizhu.summary",
        "mjcli.doudizhu.replay",
        "mjcli.hk.game",
        "mjcli.hk.simulate",
        "mjcli.hk.figures",
        "mjcli.hk.replay",
        "mjcli.hk.verify",
        "mjcli.hk.summary",
    ]
    code = f"import sys\nfor n in {names!r}: __import__(n)\nprint('polars' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


_FORKED_PRELOAD = """
import os, sys
from mjcli.runner import forks_workers, ordered_map, shared

def seen(_, task):
    return os.getpid(), "preloaded" in sys.modules

assert forks_workers()
got = list(ordered_map(seen, range(6), jobs=2, setup=shared(None), preload=("preloaded",)))
assert len({pid for pid, _ in got} - {os.getpid()}) == 2, got  # two forked workers ran them
assert all(there for _, there in got), got
print(open(os.environ["PRELOAD_LOG"]).read().split(), os.getpid())
"""


def test_forked_workers_start_with_the_preload_imported_once_before_the_fork(tmp_path: Path) -> None:
    # the main process imports the preload (the tables, numpy) and forks: no worker imports it again
    # (bench_speed "replay --jobs 2 vs 1": CPU of every process)
    log = tmp_path / "imports.log"
    (tmp_path / "preloaded.py").write_text(
        "import os\nwith open(os.environ['PRELOAD_LOG'], 'a') as f:\n    f.write(f'{os.getpid()} ')\n"
    )
    env = {**os.environ, "PRELOAD_LOG": str(log), "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    out = subprocess.run(
        [sys.executable, "-c", _FORKED_PRELOAD], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    importers, main = out.stdout.rsplit(maxsplit=1)
    assert importers == f"['{main}']"  # imported once, by the main process


def _mark_done(folder: str, task: int) -> int:
    (Path(folder) / f"done-{task}").touch()
    return task


def test_workers_get_tasks_to_last_through_the_imports_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The main process sends no task while it imports ``imports_meanwhile`` (Polars): each worker
    # gets enough as it starts to keep busy meanwhile (runner._AHEAD_WHILE_IMPORTING, four). The
    # module imported here waits until eight tasks are done (two workers x four), or gives up.
    done = tmp_path / "done"
    done.mkdir()
    (tmp_path / "meanwhile_probe.py").write_text(
        "import pathlib, time\n"
        f"folder = pathlib.Path({str(done)!r})\n"
        "for _ in range(600):\n"
        "    if len(list(folder.glob('done-*'))) >= 8:\n"
        "        break\n"
        "    time.sleep(0.05)\n"
        "SEEN = len(list(folder.glob('done-*')))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "meanwhile_probe", raising=False)
    got = list(
        ordered_map(
            _mark_done,
            list(range(12)),
            jobs=2,
            setup=shared(str(done)),
            imports_meanwhile=("meanwhile_probe",),
        )
    )
    assert got == list(range(12))
    probe = sys.modules.pop("meanwhile_probe")
    assert probe.SEEN == 8  # two tasks a worker before: four done, then 30 s of waiting


def test_the_server_imports_what_the_mjcli_script_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    # multiprocessing runs a script's __main__ again in every worker: what it imports goes to the
    # server's preload, once; a package run with -m is not run again, so nothing then
    import types

    import mjcli.cli  # noqa: F401  (the console script's import)
    from mjcli.runner import _main_script_imports

    script = types.ModuleType("__main__")
    script.__file__ = "/venv/bin/mjcli"
    script.__spec__ = None
    monkeypatch.setitem(sys.modules, "__main__", script)
    assert _main_script_imports() == ("mjcli.cli",)
    script.__spec__ = importlib.util.find_spec("mjcli.__main__")
    assert _main_script_imports() == ()


_HELPING_RUN = """
import os, sys, threading, time
import mjcli.runner
from mjcli.runner import ordered_map, shared

def where(scale, task):
    time.sleep(scale)
    if task == {bad}:
        raise ValueError(f"bad task {{task}}")
    return task, os.getpid(), os.getppid(), "slow_import" in sys.modules

def kill(workers, kill=mjcli.runner._kill):
    # how the workers ended before the run's clean-up kills what is left (None: still running)
    print("exits", sorted(str(w.process.exitcode) for w in workers), file=sys.stderr)
    kill(workers)

if __name__ == "__main__":
    sys.modules["where_mod"] = sys.modules["__main__"]
    mjcli.runner._kill = kill
    if {threads}:
        # a second thread (a library's, say): the workers cannot be forked from here
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    got = []
    try:
        tasks = list(range({n}))
        run = ordered_map(
            where, tasks, jobs={jobs}, setup=shared(0.02), preload=["slow_import"], main_helps=True
        )
        for r in run:
            got.append(r)
    except ValueError as exc:
        print("raised", exc)
    me = os.getpid()
    print([r[0] for r in got], sum(r[1] == me for r in got), len({{r[1] for r in got}}))
    workers = [r for r in got if r[1] != me]
    parents = sorted({{"main" if r[2] == me else "other" for r in workers}})
    print("parents", parents, "preloaded", all(r[3] for r in workers))
    import multiprocessing.forkserver as fs
    server = fs._forkserver._forkserver_pid
    if server is not None and os.path.exists(f"/proc/{{server}}/fd/1"):
        print("server stdout", os.readlink(f"/proc/{{server}}/fd/1"))
"""


def _helping_run(
    tmp_path: Path, n: int, bad: int, server_delay: float, threads: bool = True, jobs: int = 2
) -> tuple[str, str]:
    """A run with ``main_helps`` in a fresh process whose preload (a module that sleeps) takes
    ``server_delay`` s to import, where the workers' server imports it: the tasks, how many ran in
    the main process, and in how many processes; whose children the workers were. ``threads``: the
    process runs a second thread, so that its workers come from the server, not a fork of it."""
    (tmp_path / "slow_import.py").write_text(f"import time\ntime.sleep({server_delay})\n")
    script = tmp_path / "helping.py"
    script.write_text(_HELPING_RUN.format(n=n, bad=bad, threads=threads, jobs=jobs))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    # output to files, not pipes: the workers' server keeps its copies of them open while it imports
    with (tmp_path / "out").open("w") as out, (tmp_path / "err").open("w") as err:
        done = subprocess.run([sys.executable, str(script)], env=env, stdout=out, stderr=err, timeout=60)
    assert done.returncode == 0, (tmp_path / "err").read_text()
    return (tmp_path / "out").read_text(), (tmp_path / "err").read_text()


def test_the_main_process_does_the_work_while_the_workers_start(tmp_path: Path) -> None:
    # the server imports for 3 s: the main process runs all 8 tasks (0.16 s), with no worker
    out, _ = _helping_run(tmp_path, n=8, bad=-1, server_delay=3)
    assert out.split("\n")[0] == "[0, 1, 2, 3, 4, 5, 6, 7] 8 1"
    if sys.platform == "linux":
        # the server still importing does not hold the command's stdout (a pipe to jq ends now)
        assert out.split("\n")[2] == "server stdout /dev/null"


def test_with_the_main_process_helping_results_stay_in_task_order(tmp_path: Path) -> None:
    # a server ready after 0.3 s: the first tasks run here, the rest in the workers, in order
    out, _ = _helping_run(tmp_path, n=60, bad=-1, server_delay=0.3)
    tasks, here, processes = out.split("\n")[0].rsplit(" ", 2)
    assert tasks == str(list(range(60)))
    assert 1 <= int(here) < 60 and int(processes) >= 2
    if sys.platform == "linux":
        assert out.split("\n")[1] == "parents ['other'] preloaded True"  # the server's children


def test_with_the_main_process_helping_a_failing_task_is_raised_in_order(tmp_path: Path) -> None:
    for delay in (3, 0.1):  # the bad task run here, or in a worker
        out, _ = _helping_run(tmp_path, n=12, bad=5, server_delay=delay)
        raised, results = out.split("\n")[:2]
        assert raised == "raised bad task 5" and results.startswith("[0, 1, 2, 3, 4] ")


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked from the main process on Linux only")
def test_a_process_with_one_thread_forks_its_workers(tmp_path: Path) -> None:
    # No server: the workers are the main process's children, import the preload themselves (0.2 s
    # each, at once), and run every task (the main process does not help: it has nothing to wait
    # for). Three workers, each forked with copies of the others' pipe ends, which it must close:
    # a copy left open would keep another worker from seeing its pipe closed at the run's end, and
    # the run would have to kill it (its exit code None at the clean-up) instead of it exiting 0.
    out, err = _helping_run(tmp_path, n=30, bad=-1, server_delay=0.2, threads=False, jobs=3)
    lines = out.split("\n")
    assert lines[0] == f"{list(range(30))} 0 3"
    assert lines[1] == "parents ['main'] preloaded True"
    assert "server stdout" not in out
    assert err.strip().splitlines()[-1] == "exits ['0', '0', '0']", err


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked from the main process on Linux only")
def test_a_forked_worker_raises_a_failing_task_in_order(tmp_path: Path) -> None:
    out, err = _helping_run(tmp_path, n=12, bad=5, server_delay=0, threads=False)
    raised, results = out.split("\n")[:2]
    assert raised == "raised bad task 5" and results.startswith("[0, 1, 2, 3, 4] 0 ")


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_forked_worker_does_not_hold_the_command_stdout(tmp_path: Path) -> None:
    """``mjcli verify ... | jq`` ends when the command does: a worker still alive then (killed, or
    slow to exit) must not keep the pipe open, nor write what the command had buffered for it."""
    script = tmp_path / "held.py"
    script.write_text(
        "import os, sys, time\n"
        "from mjcli.runner import ordered_map\n"
        "def stdout_of(context, task):\n"
        "    return os.readlink('/proc/self/fd/1')\n"
        "if __name__ == '__main__':\n"
        "    sys.modules['held_mod'] = sys.modules['__main__']\n"
        "    sys.stdout.write('buffered once ')\n"  # not flushed before the fork
        "    print(sorted(set(ordered_map(stdout_of, list(range(6)), jobs=2))))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "buffered once ['/dev/null']\n"


@pytest.mark.parametrize(
    ("names", "helps"),
    [(("greedy", "efficiency"), True), (("greedy", "x=program"), False), (("p=plugin.py:P",), False)],
)
def test_replay_has_the_main_process_help_only_with_built_in_policies(
    names: tuple[str, ...], helps: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's (or a plugin's) set-up may start processes that only a worker's end stops: the main
    process then never builds one of its own."""
    from mjcli.plugins import BOT, BUILTIN, PLUGIN
    from mjcli.riichi import replay

    asked: dict[str, object] = {}

    def fake_map(work, tasks, **kwargs):
        asked.update(kwargs)
        return iter(())

    sources = {"greedy": BUILTIN, "efficiency": BUILTIN, "x=program": BOT, "p=plugin.py:P": PLUGIN}
    specs = tuple(type("Spec", (), {"source": sources[n], "name": n.split("=")[0]})() for n in names)
    monkeypatch.setattr(replay, "ordered_map", fake_map)
    monkeypatch.setattr(replay, "_check_policies", lambda options: None)
    monkeypatch.setattr(replay.ReplayOptions, "specs", lambda self: specs)
    assert (
        list(
            replay.replay_paths(
                [(Path("a.mjlog"), "a"), (Path("b.mjlog"), "b")], replay.ReplayOptions(("greedy",)), 2
            )
        )
        == []
    )
    assert asked["main_helps"] is helps


@pytest.mark.parametrize(("extra", "helps"), [(None, True), ("bot", False), ("plugin", False)])
def test_simulate_has_the_main_process_help_only_with_built_in_policies(
    extra: str | None, helps: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mjcli.plugins import BOT, PLUGIN, PolicySpec
    from mjcli.riichi.policies import builtin_registry
    from mjcli.riichi.simulate import run

    asked: dict[str, object] = {}

    def fake_map(work, tasks, **kwargs):
        asked.update(kwargs)
        return iter(())

    registry = builtin_registry()
    names = ("greedy", "efficiency")
    if extra is not None:
        registry = registry.with_spec(
            PolicySpec("x", BOT if extra == "bot" else PLUGIN, "prog"), "--" + extra
        )
        names += ("x",)
    games = [type("Game", (), {"policies": names})() for _ in range(2)]
    monkeypatch.setattr(run, "ordered_map", fake_map)
    assert list(run.run_games(games, jobs=2, registry=registry)) == []
    assert asked["main_helps"] is helps


def _collector_thresholds(_context: None, _task: int) -> tuple[int, int, int]:
    import gc

    return gc.get_threshold()


def test_workers_run_with_the_command_process_settings() -> None:
    # the workers are forked by Python's own server, whose collector has Python's defaults
    from mjcli.process_settings import COLLECTOR_THRESHOLDS

    got = set(ordered_map(_collector_thresholds, list(range(6)), jobs=2))
    assert got == {COLLECTOR_THRESHOLDS} != {(700, 10, 10)}


def _started_with_a_big_answer(_context: None, task: int) -> tuple[int, int, float, bytes]:
    # an answer far larger than a pipe holds (64-208 KiB): sending it waits for the reader
    return task, os.getpid(), time.monotonic(), bytes(4 << 20)


def test_a_worker_runs_its_next_task_while_its_answer_waits_to_be_read() -> None:
    # The worker that gets task 0 gets task 1 with it (two ahead), and one more task when answer 0
    # is read. The caller then holds answer 0 for a second without reading more. A worker whose send
    # waited for the reader would finish task 1 and stop there, its 4 MiB answer unread: the third
    # task would start only when the caller is back. With the answer left to the worker's outbox
    # thread, both run meanwhile. (Tasks enough that the other worker, however far it runs ahead
    # meanwhile, leaves one for this one: near the end a worker gets a task only once it is idle.)
    count = 48
    results = ordered_map(_started_with_a_big_answer, list(range(count)), jobs=2)
    got = []
    back = None
    for index, pid, started, data in results:
        got.append((index, pid, started))
        assert len(data) == 4 << 20
        if index == 0:
            time.sleep(1.0)
            back = time.monotonic()
    assert [index for index, _, _ in got] == list(range(count))
    assert back is not None
    first = got[0][1]
    assert sum(started < back - 0.5 for index, pid, started in got if pid == first and index) >= 2, (
        got,
        back,
    )


_MEANWHILE_RUN = """
import os, sys, time
from mjcli.runner import ordered_map

def started(context, task):
    return time.monotonic(), "slow_meanwhile" in sys.modules

if __name__ == "__main__":
    sys.modules["meanwhile_mod"] = sys.modules["__main__"]
    got = list(ordered_map(started, list(range(4)), jobs=2, imports_meanwhile=["slow_meanwhile"]))
    import slow_meanwhile
    print(min(t for t, _ in got) < slow_meanwhile.DONE, any(seen for _, seen in got))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked from the main process on Linux only")
def test_the_main_process_imports_meanwhile_while_the_workers_run_their_first_tasks(tmp_path: Path) -> None:
    # The caller's import (Polars, in replay) takes 0.5 s here: the workers have their first tasks
    # before it begins (a worker fed only once it said it was ready would wait for the import), and
    # the module is imported in the main process only (not in a worker that was forked before).
    (tmp_path / "slow_meanwhile.py").write_text("import time\ntime.sleep(0.5)\nDONE = time.monotonic()\n")
    (tmp_path / "meanwhile.py").write_text(_MEANWHILE_RUN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run(
        [sys.executable, str(tmp_path / "meanwhile.py")], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]


def test_the_progress_bar_starts_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    # tqdm's monitor thread would keep a command's workers from being forked (mjcli.runner.forks_workers)
    import io
    import threading

    from mjcli.output import terminal_bar

    stream = io.StringIO()
    stream.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr(sys, "stderr", stream)
    before = threading.active_count()
    with terminal_bar(10, unit="game") as bar:
        assert bar is not None
        bar.update(3)
        assert threading.active_count() == before


def _dies_at_task_5(_context: None, task: int) -> int:
    if task == 5:
        import signal

        time.sleep(1.0)  # meanwhile the main process sends this worker its next task, unread here
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.01)
    return task


def test_a_worker_killed_from_outside_stops_the_run_with_worker_died() -> None:
    # The dead worker still had a task sent ahead unread: reading from its pipe then fails with a
    # connection reset, not an end of file. Either way the run stops with WorkerDied (one line at
    # the command line), never a traceback of the pipe's.
    from mjcli.runner import WorkerDied

    got = []
    # (the task named is the first one it had not answered: an answer may die with it)
    with pytest.raises(WorkerDied, match=r"^a worker process was killed by signal 9 during task [0-5]; "):
        for result in ordered_map(_dies_at_task_5, list(range(40)), jobs=2):
            got.append(result)
    assert got == list(range(len(got))) and len(got) <= 5


STOPPED_RUN = """
import os, sys, tempfile, time
from pathlib import Path
from mjcli import runner

def work(ctx, t):
    if t == 0:
        time.sleep(0.3)
        raise ValueError("task 0 failed")
    time.sleep(30)
    return t

with tempfile.TemporaryDirectory(prefix="main-stage-") as d:
    forked = runner.forks_workers()
    try:
        for _ in runner.ordered_map(work, [0, 1, 2, 3], jobs=2):
            pass
    except ValueError:
        pass
    print(forked, os.path.isdir(d))
"""


def test_a_stopped_worker_runs_none_of_the_main_process_s_exit_functions() -> None:
    """A worker forked from the main process has the main's exit functions (its temporary folders'
    clean-up): a worker stopped while another task failed ran them and removed the main's folder
    (replay without --out stages into one) while the main still used it."""
    done = subprocess.run([sys.executable, "-c", STOPPED_RUN], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    forked, kept = done.stdout.split()
    if forked != "True":
        pytest.skip("workers are not forked from the main process here")
    assert kept == "True"
