"""The process pool gives results in task order whatever the workers' speed, and names the modules
its forkserver preloads from the run's own work (never every game's engines)."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
import time

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
