"""The ``mjcli`` console script (``mjcli.cli.entry``) ends its process without the interpreter's
teardown: these check, on real processes, that nothing a normal exit does that matters is lost.
Everything written is out (standard output of any size, the files of a run), the exit codes are the
command's, ``atexit`` handlers run (multiprocessing's among them: no temporary folder is left), and a
thread that is not a daemon is waited for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
from shared import LOGS

#: two real hanchan (tests/shared.py: the shared logs, read in place)
HANCHAN = sorted(p for p in (LOGS / "tenhou-xml").glob("20*.mjlog") if "no-" not in p.name)[:2]


def _shell_env() -> dict[str, str]:
    """This environment with buffered output, as a user's shell gives it (PYTHONUNBUFFERED would
    hide a missing flush, and move where a closed pipe is met)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _run(code: str, *args: str, stdin: str | None = None, env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**_shell_env(), **(env or {})},
    )


ENTRY = "import sys\nsys.argv = ['mjcli', *sys.argv[1:]]\nfrom mjcli.cli import entry\nentry()\n"
MAIN = "import sys\nsys.argv = ['mjcli', *sys.argv[1:]]\nfrom mjcli.cli import main\nmain()\n"


def test_the_console_script_and_python_m_use_the_entry_that_skips_the_teardown():
    import tomllib

    from mjcli import __main__

    root = Path(__file__).resolve().parent.parent
    scripts = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["mjcli"] == "mjcli.cli:entry"
    assert __main__.entry.__module__ == "mjcli.cli"


def test_a_large_output_is_all_out_byte_for_byte_as_with_a_normal_exit():
    # ~6000 lines of JSON, far more than a pipe's buffer: what is still buffered at the end is flushed
    hands = "\n".join(["123m456p789s1122z", "19m19p19s1234567z", "2345m678p11s666z5p"] * 2000) + "\n"
    fast = _run(ENTRY, "shanten", "-", "--json", stdin=hands)
    normal = _run(MAIN, "shanten", "-", "--json", stdin=hands)
    assert fast.returncode == normal.returncode == 0, fast.stderr
    assert fast.stdout == normal.stdout
    assert len(fast.stdout.splitlines()) == 6000
    # (the commands' echo flushes as it goes; what a plain print leaves in the buffer is out too)
    printed = _run("import mjcli.cli as c\nc.main = lambda: [print('x' * 99) for _ in range(1000)]\n" + ENTRY)
    assert (printed.returncode, len(printed.stdout)) == (0, 100_000)


def test_exit_codes_and_the_one_line_error_are_the_commands():
    bad = _run(ENTRY, "shanten", "123m")
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: hand '123m'") and "Traceback" not in bad.stderr
    usage = _run(ENTRY, "shanten", "--no-such-option")
    assert usage.returncode == _run(MAIN, "shanten", "--no-such-option").returncode != 0
    # a SystemExit with a message (as Python does at a normal exit: the message, status 1)
    message = _run("import mjcli.cli as c\nc.main = lambda: sys.exit('stopped: why')\n" + ENTRY)
    assert (message.returncode, message.stderr) == (1, "stopped: why\n")


def test_exit_handlers_run_and_multiprocessing_leaves_no_temporary_folder(tmp_path):
    # Polars imported first: the workers then come from a forkserver, whose socket lives in a
    # temporary folder that multiprocessing's own exit handler removes
    marker = tmp_path / "atexit-ran"
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    code = f"import atexit, polars\natexit.register(lambda: open({str(marker)!r}, 'w').close())\n" + ENTRY
    out = tmp_path / "out"
    run = _run(code, "replay", *map(str, HANCHAN), "--out", str(out), "--jobs", "2", env={"TMPDIR": str(tmp)})
    assert run.returncode == 0, run.stderr
    assert marker.exists()
    assert list(tmp.iterdir()) == []
    # the run's files are complete
    assert pl.read_parquet(out / "decisions.parquet").height > 0
    assert pl.read_parquet(out / "games.parquet").height == 4 * len(HANCHAN)


def test_a_thread_that_is_not_a_daemon_is_waited_for(tmp_path):
    marker = tmp_path / "thread-done"
    code = (
        "import threading, time\n"
        f"threading.Thread(target=lambda: (time.sleep(0.5), open({str(marker)!r}, 'w').close())).start()\n"
        + ENTRY
    )
    run = _run(code, "shanten", "123m456p789s1122z")
    assert run.returncode == 0, run.stderr
    assert marker.exists()


def test_the_teardown_is_skipped_when_mjcli_is_the_program_and_kept_inside_a_host(tmp_path):
    # an object whose __del__ leaves a mark: the interpreter's teardown calls it, the fast end does not
    marker = tmp_path / "teardown-ran"
    # (what __del__ uses is bound to it: the teardown may have cleared the module's names first)
    keep = (
        f"class Mark:\n    def __del__(self, _open=open, _path={str(marker)!r}):\n"
        "        _open(_path, 'w').close()\nmark = Mark()\n"
    )
    run = _run(keep + ENTRY, "shanten", "123m456p789s1122z")
    assert run.returncode == 0 and "shanten" in run.stdout
    assert not marker.exists()
    # mjcli run by another program (here runpy, as profilers and coverage do): that program gets
    # control back after the command, and its exit is the normal one
    host = (
        "import runpy, sys\nsys.argv = ['mjcli', 'shanten', '123m456p789s1122z']\n"
        + keep
        + "try:\n    runpy.run_module('mjcli', run_name='__main__')\nexcept SystemExit as e:\n"
        + "    print('host got', e.code)\n"
    )
    hosted = _run(host)
    assert hosted.returncode == 0
    assert hosted.stdout.rstrip().endswith("host got 0")
    assert marker.exists()


def test_what_exit_handlers_print_is_out_and_a_failed_write_is_an_error():
    handler = "import atexit\natexit.register(lambda: print('said at exit', end=''))\n"
    said = _run(handler + ENTRY, "shanten", "123m456p789s1122z")
    assert said.returncode == 0 and said.stdout.endswith("said at exit")
    # output to a full disk: reported on stderr, status 120 (Python's own for a failed final flush)
    with open("/dev/full", "w") as full:
        failed = subprocess.run(
            [sys.executable, "-c", ENTRY, "shanten", "123m456p789s1122z"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env=_shell_env(),
        )
    assert failed.returncode == 120
    assert "No space left on device" in failed.stderr and "Traceback" not in failed.stderr
    # ... and a write that fails while the command runs (unbuffered, or a command that flushes as
    # it goes): the same line and status, not a traceback
    for argv in (["verify", str(HANCHAN[0])], ["convert", str(HANCHAN[0]), "--to", "mjai"]):
        with open("/dev/full", "w") as full:
            failed = subprocess.run(
                [sys.executable, "-c", ENTRY, *argv],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
                env={**_shell_env(), "PYTHONUNBUFFERED": "1"},
            )
        assert failed.returncode == 120, failed.stderr
        assert failed.stderr == "error: cannot write the output: No space left on device\n"


def _closed(fd: int, *argv: str, code: str = ENTRY) -> subprocess.CompletedProcess:
    """``mjcli ARGV`` (or ``code``) started with descriptor ``fd`` closed (`<&-`, `>&-`, `2>&-`); the
    other two streams captured."""
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        stdin=subprocess.DEVNULL if fd != 0 else None,
        stdout=subprocess.PIPE if fd != 1 else subprocess.DEVNULL,
        stderr=subprocess.PIPE if fd != 2 else subprocess.DEVNULL,
        text=True,
        timeout=120,
        close_fds=True,
        preexec_fn=lambda: os.close(fd),
    )


def test_standard_input_closed_from_the_start_is_no_input():
    """`mjcli shanten - <&-`: no hands on standard input, one line and exit 2 (it was a traceback:
    Python makes a closed stdin None)."""
    lines = (["shanten", "-"], ["shanten", "-", "--json"], ["shanten", "-", "--game", "hk"], ["verify", "-"])
    for argv in lines:
        done = _closed(0, *argv)
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, (argv, done.stderr)


def test_a_stream_closed_from_the_start_is_the_null_device_for_the_run_and_its_children():
    # its descriptor held, inheritable, and a stream on it (Python makes it None)
    probe = (
        "import os, sys\nimport mjcli.cli as c\nc._hold_closed_std_fds()\n"
        "print(os.get_inheritable(0), sys.stdin is not None, sys.stdin.read() == '', file=sys.stderr)\n"
    )
    assert _closed(0, code=probe).stderr == "True True True\n"
    # an error with stderr closed is said nowhere, not on stdout (print's answer to a None file)
    for argv, status in ((["shanten", "12x"], 2), (["shanten", "123m456p789s1122z"], 0)):
        done = _closed(2, *argv)
        assert done.returncode == status and (done.stdout == "" or status == 0), (argv, done.stdout)
    # standard output closed (`mjcli ... >&-`): nothing to flush, no error; output that is written,
    # not printed (a JSON stream), no traceback; with workers, the descriptor held for the stream,
    # not taken by a worker's pipe (a verify of many logs with standard output closed hung, its
    # worker's pipe at descriptor 1)
    for argv in (
        ["shanten", "123m456p789s1122z"],
        ["convert", str(HANCHAN[0]), "--to", "mjai"],
        ["verify", *map(str, HANCHAN), "--jobs", "2"],
    ):
        done = _closed(1, *argv)
        assert (done.returncode, done.stderr) == (0, ""), argv


def test_a_full_disk_met_by_polars_is_cannot_write_the_output(monkeypatch, capsys):
    """Polars writes Parquet in Rust and raises its own exception for a full disk ("(os error 28)"):
    the same line and status as Python's OSError, not a traceback and exit 1."""
    import polars as pl
    import pytest

    from mjcli import cli, games

    def full(*args, **kwargs):
        raise pl.exceptions.ComputeError("failed to write: No space left on device (os error 28)")

    monkeypatch.setattr(games, "run", full)
    monkeypatch.setattr(sys, "argv", ["mjcli", "verify", str(HANCHAN[0])])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 120
    assert capsys.readouterr().err == "error: cannot write the output: No space left on device\n"
    monkeypatch.setattr(games, "run", lambda *a, **k: pl.DataFrame({"a": [1]}).select(pl.col("b")))
    with pytest.raises(pl.exceptions.ColumnNotFoundError):  # a Polars error of another kind: a bug, raised
        cli.main()


def test_a_full_disk_met_by_polars_at_a_files_footer_is_cannot_write_the_output(
    monkeypatch, capsys, tmp_path
):
    """Out of room while it writes a Parquet file's footer, Polars 2.2 says only "Invalid thrift:
    transport error", with no os error (a replay --resume onto a full tmpfs ended in a traceback):
    around a write, on a filesystem with no room left, it is the full disk. The same words where
    there is room (a damaged file read) stay the error they are."""
    import polars as pl
    import pytest

    from mjcli import atomic, cli

    def footer_fails(self, file, *args, **kwargs):
        Path(file).write_bytes(b"PAR1 half a file")
        raise pl.exceptions.ComputeError(
            "parquet: File out of specification: Invalid thrift: transport error"
        )

    monkeypatch.setattr(pl.DataFrame, "write_parquet", footer_fails)
    monkeypatch.setattr(atomic, "_full", lambda folder: True)
    for n, extra in enumerate(([], ["--resume"])):  # the single files, and a parted run's parts
        out = tmp_path / f"out{n}"
        argv = ["mjcli", "verify", str(HANCHAN[0]), "--jobs", "1", "--out", str(out), *extra]
        monkeypatch.setattr(sys, "argv", argv)
        with pytest.raises(SystemExit) as stop:
            cli.main()
        assert stop.value.code == 120, extra
        assert (
            capsys.readouterr().err.splitlines()[-1]
            == "error: cannot write the output: No space left on device"
        )
        assert not [p for p in out.rglob("*") if p.is_file()]  # nothing half-written is left
    monkeypatch.setattr(atomic, "_full", lambda folder: False)
    with pytest.raises(pl.exceptions.ComputeError):
        cli.main()


def test_a_name_the_system_refuses_is_a_one_line_error(tmp_path):
    """A path too long for the system, as an input or an output: one line naming it, exit 2."""
    long = str(tmp_path / ("x" * 300))
    for argv in (
        ["verify", long, str(HANCHAN[0])],
        ["convert", str(HANCHAN[0]), "--to", "mjai", "-o", long],
        ["verify", str(HANCHAN[0]), "--out", long],
    ):
        done = _run(ENTRY, *argv)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("error: '...xxx") and done.stderr.endswith(": File name too long\n")
        assert done.stderr.count("\n") == 1


def test_an_exit_status_beyond_a_c_int_is_pythons_to_reduce():
    # (the normal exit)
    huge = _run("import mjcli.cli as c\nc.main = lambda: sys.exit(2**40)\n" + ENTRY)
    assert huge.returncode == _run("import sys\nsys.exit(2**40)\n").returncode


def test_a_bot_left_running_at_the_end_is_killed(tmp_path):
    # a bot that ignores the end of its input and SIGTERM, never closed by its owner: the process
    # ends without the teardown (no __del__), and the bot's finalizer kills its group all the same
    stubborn = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"
    pid_file = tmp_path / "bot.pid"
    code = (
        "from mjcli.riichi.bots.process import BotProcess\n"
        f"bot = BotProcess([{sys.executable!r}, '-c', {stubborn!r}], 'stubborn')\n"
        f"open({str(pid_file)!r}, 'w').write(str(bot.pid))\n" + ENTRY
    )
    run = _run(code, "shanten", "123m456p789s1122z")
    assert run.returncode == 0, run.stderr
    pid = int(pid_file.read_text())
    assert not Path(f"/proc/{pid}").exists()


def test_a_reader_that_goes_away_before_the_command_finished_gives_141(tmp_path):
    # `mjcli shanten - < hands | head -1`, `mjcli verify logs | head -1`: a write meets a closed pipe
    # while the command runs. It stops there, silently, with 141 (128 + SIGPIPE), as a program a
    # closed pipe stops does: not 0 (it did not finish: a verify that found nothing wrong so far has
    # not checked every log) and not 1 ("found problems", what Typer's click gave)
    hands = tmp_path / "hands.txt"
    hands.write_text("123m456p789s1122z\n" * 50_000)
    # (50,000 lines: far more than the pipe holds, so the command is still writing when it closes)
    for args in (["shanten", "-"], ["shanten", "-", "--json"]):
        with hands.open("rb") as stdin:
            proc = subprocess.Popen(
                [sys.executable, "-c", ENTRY, *args],
                stdin=stdin,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=_shell_env(),
            )
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline()  # `head -1`: one line read, then the pipe is closed
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert (proc.wait(timeout=120), err) == (141, ""), args


def test_a_command_that_finished_keeps_its_status_when_its_last_output_meets_a_closed_pipe():
    # the output still buffered when the command returns goes out at the exit (entry's flush): the
    # command had finished, so its own status stands, whether 0 or 1 ("found problems")
    for code in (0, 1):
        finished = (
            "import sys\nimport mjcli.cli as c\n"
            f"def main():\n    sys.stdin.read()\n    print('x' * 100)\n    sys.exit({code})\n"
            "c.main = main\n" + ENTRY
        )
        proc = subprocess.Popen(
            [sys.executable, "-c", finished],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_shell_env(),
        )
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader is gone before anything is written
        proc.stdin.close()  # now the command runs, and returns with its line still buffered
        err = proc.stderr.read().decode()
        assert (proc.wait(timeout=120), err) == (code, "")


def test_an_error_message_to_a_closed_pipe_keeps_the_errors_status():
    # `mjcli verify /nonexistent 2>&1 | true`: the one-line error cannot be written; still exit 2
    proc = subprocess.Popen(
        [sys.executable, "-c", ENTRY, "verify", "/nonexistent/log.mjlog"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    proc.stderr.close()
    assert proc.wait(timeout=120) == 2
