"""One outside program's life (mjcli.riichi.bots.process): lines with deadlines, stderr kept, killed on
a hang with everything it started, never left behind."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from mjcli.riichi.bots.process import BotExited, BotProcess, BotStartError, BotTimeout


def running(marker: str) -> list[int]:
    """Processes whose command line holds ``marker`` (read from /proc; nothing is signalled)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = next(
                (ln for ln in (entry / "status").read_text().splitlines() if ln.startswith("State:")), ""
            )
        except OSError:
            continue
        if marker in cmdline and "zombie" not in state:
            found.append(int(entry.name))
    return found


def wait_for(count: int, marker: str) -> None:
    deadline = time.monotonic() + 20
    while len(running(marker)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(running(marker)) == count


def script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "bot.py"
    path.write_text(body)
    return [sys.executable, str(path)]


def test_lines_go_both_ways_and_stderr_is_logged(tmp_path: Path) -> None:
    argv = script(
        tmp_path,
        "import sys\nfor line in sys.stdin:\n    print('err ' + line.strip(), file=sys.stderr, flush=True)\n"
        "    print(line.strip().upper(), flush=True)\n",
    )
    log = tmp_path / "logs" / "b.stderr.log"
    p = BotProcess(argv, "bot 'b' seat 2", log)
    try:
        for i in range(200):
            assert p.request(f"line {i}", 5.0) == f"LINE {i}"
        assert p.alive
    finally:
        assert p.close() == 0
    assert not p.alive
    text = log.read_text()
    assert text.count("err line") == 200 and f"[bot 'b' seat 2 pid {p.pid}] err line 199" in text
    assert list(p.tail)[-1] == "err line 199"


def test_a_hang_is_a_timeout_and_the_whole_group_is_killed(tmp_path: Path) -> None:
    marker = str(tmp_path)
    # the bot starts a child of its own that would outlive it, then hangs
    argv = script(
        tmp_path,
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)', {marker!r}])\n"
        "print('about to think', file=sys.stderr, flush=True)\n"
        "time.sleep(3600)\n",
    )
    p = BotProcess(argv, "bot 's' seat 0")
    wait_for(2, marker)
    started = time.monotonic()
    with pytest.raises(BotTimeout) as err:
        p.request("[]", 0.5)
    assert time.monotonic() - started < 5
    message = str(err.value)
    assert "bot 's' seat 0 did not answer within 0.5 s and was killed" in message
    assert "its stderr ends: about to think" in message
    assert running(marker) == []


def test_an_exit_is_reported_with_its_code_and_stderr(tmp_path: Path) -> None:
    argv = script(tmp_path, "import sys\nprint('no model file', file=sys.stderr)\nsys.exit(3)\n")
    p = BotProcess(argv, "bot 'x' seat 1")
    with pytest.raises(BotExited) as err:
        p.request('[{"type":"start_game"}]', 5.0)
    assert "bot 'x' seat 1 exited with code 3" in str(err.value)
    assert "no model file" in str(err.value)
    assert not p.alive


def test_a_program_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(BotStartError, match="cannot start"):
        BotProcess([str(tmp_path / "nothing-here")], "bot 'n' seat 0")


def test_a_log_that_cannot_be_opened_is_a_usage_error_and_starts_no_bot(tmp_path: Path) -> None:
    marker = str(tmp_path)
    argv = script(tmp_path, "import time\ntime.sleep(3600)\n")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the log's folder should be")
    with pytest.raises(BotStartError, match="cannot open the log"):
        BotProcess(argv, "bot 'l' seat 0", blocked / "bot.log")
    time.sleep(0.5)  # (a bot started anyway would be running by now)
    wait_for(0, marker)


def test_close_kills_a_bot_that_ignores_the_end_of_its_input(tmp_path: Path) -> None:
    marker = str(tmp_path)
    argv = script(
        tmp_path, "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(3600)\n"
    )
    p = BotProcess(argv, "bot 'z' seat 0")
    wait_for(1, marker)
    code = p.close()
    assert code is not None and code < 0  # killed
    assert running(marker) == []


def test_unasked_lines_are_dropped_not_taken_for_the_next_answer(tmp_path: Path) -> None:
    argv = script(
        tmp_path,
        "import sys\nfor line in sys.stdin:\n    print('one', flush=True)\n    print('two', flush=True)\n",
    )
    p = BotProcess(argv, "bot 'd' seat 0")
    try:
        assert p.request("a", 5.0) == "one"
        time.sleep(0.2)
        assert p.drop_unread() == ["two"]
        assert p.request("b", 5.0) == "one"
    finally:
        p.close()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_bot_starts_with_default_signals_whatever_its_starter_ignores(tmp_path: Path) -> None:
    """A --jobs worker ignores and blocks SIGINT and SIGTERM (its main process stops it); both passed
    through exec to its bots, and a bot that stops a helper of its own with terminate() hung (a
    reviewer's finding). The bot reports what it was started with."""
    import signal

    argv = script(
        tmp_path,
        "import signal, sys\nsys.stdin.readline()\n"
        "print(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, "
        "signal.getsignal(signal.SIGINT) is signal.default_int_handler, "
        "sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])) == [], flush=True)\n",
    )
    old = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        p = BotProcess(argv, "bot 's' seat 0")
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for s, handler in old.items():
            signal.signal(s, handler)
    try:
        assert p.request("go", 10.0) == "True True True"
    finally:
        p.close()


def test_a_program_that_cannot_be_executed_is_a_usage_error_of_replay(tmp_path: Path) -> None:
    """An executable file without a #! line: replay skipped every log ("Exec format error") and
    wrote an empty table, where simulate and advise stop with a usage error (a reviewer's finding)."""
    import subprocess

    bot = tmp_path / "nosheb.py"
    bot.write_text("print('hello')\n")
    bot.chmod(0o755)
    log = (
        Path(__file__).resolve().parents[2]
        / "shared"
        / "logs"
        / "tenhou-xml"
        / "2010081709gm-00a9-0000-fe3371ad.mjlog"
    )
    out = tmp_path / "out"
    r = subprocess.run(
        [sys.executable, "-m", "mjcli", "replay", str(log), "--bot", f"x={bot} {{seat}}", "--policies", "x"]
        + ["--out", str(out), "-j", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and "cannot start" in r.stderr and "SKIPPED" not in r.stdout, r.stdout + r.stderr
    assert not out.exists()
    # bot check too (it said "stopped: ... Exec format error", "problems found", exit 1)
    r = subprocess.run(
        [sys.executable, "-m", "mjcli", "bot", "check", f"x={bot} {{seat}}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and r.stderr.startswith("error: ") and "cannot start" in r.stderr, r.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="os.fork")
def test_an_exit_is_seen_while_a_child_holds_the_output_open(tmp_path: Path) -> None:
    """The bot exits with code 3 while a child it forked keeps its stdout: an exit with its code, not
    a timeout at the deadline (a reviewer's finding); the child goes with the bot's group."""
    argv = script(
        tmp_path,
        "import os, sys, time\nsys.stdin.readline()\n"
        "if os.fork() == 0:\n    time.sleep(60)\n    os._exit(0)\n"
        "print('model failed', file=sys.stderr, flush=True)\nsys.exit(3)\n",
    )
    p = BotProcess(argv, "bot 'f' seat 0")
    started = time.monotonic()
    with pytest.raises(BotExited, match="exited with code 3 before answering"):
        p.request("go", 30.0)
    assert time.monotonic() - started < 10
    p.close()
    wait_for(0, str(tmp_path))
