"""Start-up stays light: what ``mjcli`` imports before it knows the command, and what a quick command
imports at all. Checked on ``sys.modules`` in a fresh interpreter, never on a time (the benchmark
``benchmarks/bench_speed.py`` measures the time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: libraries that only some commands need: none of them may load before the command is known
HEAVY = ("polars", "pyarrow", "pandas", "numpy", "mahjong", "multiprocessing", "rich", "pydantic")


def _modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return [name for name in names if name in modules]


def test_importing_the_cli_loads_no_command_and_no_heavy_library():
    modules = _modules_after("import mjcli.cli")
    assert _loaded(modules, HEAVY) == []
    assert not [m for m in modules if m.startswith("mjcli.commands.")]
    assert not [m for m in modules if m.startswith(("mjcli.analysis", "mjcli.riichi.", "mjcli.doudizhu."))]


def test_a_run_registers_only_the_command_it_names():
    from mjcli.cli import commands_for
    from mjcli.commands import NAMES

    assert commands_for(["shanten", "123m456p789s1122z", "--json"]) == ("shanten",)
    assert commands_for(["--help"]) == NAMES
    assert commands_for(["no-such-command"]) == NAMES
    modules = _modules_after(
        "from mjcli.cli import build_app, commands_for\nbuild_app(commands_for(['score']))"
    )
    assert [m for m in modules if m.startswith("mjcli.commands.")] == ["mjcli.commands.score"]
    assert _loaded(modules, HEAVY) == []


def test_quick_commands_never_touch_parquet_or_worker_processes():
    for argv in (
        ["shanten", "123m456p789s1122z"],
        ["score", "234m456p678s11222z", "--win", "2z", "--tsumo"],
        ["advise", "123m456p789s11223z"],
        ["--help"],
    ):
        run = (
            f"import sys\nsys.argv = ['mjcli', *{argv!r}]\nfrom mjcli.cli import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code"
        )
        modules = _modules_after(run)
        assert _loaded(modules, ("polars", "pyarrow", "pandas", "multiprocessing", "numpy")) == [], argv
        if argv != ["--help"]:  # --help shows the --jobs bounds, which the runner owns
            assert "mjcli.runner" not in modules, argv
        if argv[0] == "advise":  # built-in policies only: no entry point looked up, no bot started
            assert _loaded(modules, ("importlib.metadata", "mjcli.riichi.bots")) == [], argv
            # a typed hand is no game: no engine state or events, nor the bridge from a log's round
            # to a view; and a hand that cannot win asks no scorer
            game = ("mjcli.riichi.engine.state", "mjcli.riichi.engine.events", "mjcli.riichi.policies.bridge")
            assert _loaded(modules, (*game, "mjcli.riichi.scoring")) == []


def test_one_hand_analysis_needs_no_numpy():
    """shanten, ukeire and the discard table of one hand read the tables as bytes (numpy is the batch's)."""
    modules = _modules_after(
        "from mjcli.analysis import discard_table, shanten, shanten_sanma, ukeire\n"
        "from mjcli.tiles import counts34, parse_tiles\n"
        "c = counts34(parse_tiles('123m456p789s11223z'))\n"
        "assert [o.kind for o in discard_table(c)][:1] == [29] and shanten(c) == 0\n"
        "assert ukeire(counts34(parse_tiles('123m456p789s1122z'))).total == 4\n"
        "assert shanten_sanma(counts34(parse_tiles('19m456p789s11122z'))) == 1"
    )
    assert "mjcli.analysis.shanten_calc" in modules
    assert _loaded(modules, ("numpy",)) == []


def _lines_after_command(
    args: list[str], then: str, unset: str, env: dict[str, str], stdin: bytes | None = None
) -> list[str]:
    """What a fresh interpreter prints when it runs ``mjcli ARGS`` through the command's ``main``
    (``stdin`` as its standard input; ``unset`` left out of its environment and ``env`` added),
    then the code ``then`` in the same process."""
    import os

    run = f"import io, os, sys\nsys.argv = {['mjcli', *args]!r}\n"
    if stdin is not None:
        run += f"sys.stdin = io.TextIOWrapper(io.BytesIO({stdin!r}))\n"
    run += "from mjcli.cli import main\ntry:\n    main()\n"
    run += "except SystemExit as e:\n    assert not e.code, e.code\n"
    environ = {k: v for k, v in os.environ.items() if k != unset} | env
    out = subprocess.run(
        [sys.executable, "-c", run + then],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env=environ,
    )
    return out.stdout.splitlines()


def _settings_after_replay(tmp_path, env: dict[str, str]) -> tuple[str, str]:
    """The collector's thresholds, and ``_RJEM_MALLOC_CONF`` as Polars left it, after a ``mjcli
    replay`` run (Polars appends the value it found at its import to its own defaults, so what the
    command set before that import shows)."""
    log = sorted((ROOT / "fixtures" / "logs").glob("*.mjlog"))[0]
    then = "import gc, polars\nprint(gc.get_threshold())\nprint(os.environ['_RJEM_MALLOC_CONF'])"
    args = ["replay", str(log), "--out", str(tmp_path / "r")]
    thresholds, allocator = _lines_after_command(args, then, "_RJEM_MALLOC_CONF", env)[-2:]
    return thresholds, allocator


def test_the_command_sets_the_collector_and_polars_allocator_before_polars_is_imported(tmp_path):
    from mjcli.process_settings import COLLECTOR_THRESHOLDS, POLARS_ALLOCATOR

    thresholds, setting = _settings_after_replay(tmp_path, {})
    # (Polars' own defaults first, ours last: they win)
    assert setting.endswith("," + POLARS_ALLOCATOR[1])
    assert POLARS_ALLOCATOR[1] == "narenas:1,dirty_decay_ms:0,muzzy_decay_ms:0"
    assert thresholds == str(COLLECTOR_THRESHOLDS) != str((700, 10, 10))


def test_a_users_own_allocator_setting_is_kept(tmp_path):
    _, setting = _settings_after_replay(tmp_path, {"_RJEM_MALLOC_CONF": "narenas:3"})
    assert setting.split(",")[-1] == "narenas:3"
    assert "narenas:1" not in setting


def _blas_after_batch(env: dict[str, str]) -> tuple[int, str]:
    """The threads of a process that ran ``mjcli shanten - --json`` (which imports numpy), and its
    ``OPENBLAS_NUM_THREADS``."""
    then = (
        "assert 'numpy' in sys.modules\n"
        "print(len(os.listdir('/proc/self/task')))\nprint(os.environ['OPENBLAS_NUM_THREADS'])"
    )
    args = ["shanten", "-", "--json"]
    lines = _lines_after_command(args, then, "OPENBLAS_NUM_THREADS", env, stdin=b"123m456p789s11223z\n")
    threads, setting = lines[-2:]
    return int(threads), setting


#: threads are counted in Linux's /proc
needs_proc = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="no /proc/self/task")


@needs_proc
def test_numpy_starts_no_blas_thread_in_a_command():
    # OpenBLAS would start a spinning thread per core at numpy's import (process_settings.BLAS_THREADS),
    # and a process with a second thread cannot fork its workers (runner.forks_workers)
    threads, setting = _blas_after_batch({})
    assert (threads, setting) == (1, "1")


@needs_proc
def test_a_users_own_blas_setting_is_kept():
    _, setting = _blas_after_batch({"OPENBLAS_NUM_THREADS": "2"})
    assert setting == "2"
