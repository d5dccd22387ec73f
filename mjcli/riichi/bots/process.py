"""One outside program's life: started, spoken to line by line with deadlines, stopped, never orphaned.

A :class:`BotProcess` runs the command (no shell: the arguments are split as a shell would, and
``{seat}`` is already replaced) in a process group of its own, with pipes for stdin, stdout and
stderr. Lines are written and read by the calling thread through ``select`` with a deadline, so a bot
that hangs costs its timeout and no more: it is then killed (its whole group). What it writes on
stderr is drained whenever an answer is awaited, copied to a log file (beside the run's outputs,
each line marked with the seat and process id) and its last lines kept, to be quoted in reports.
The process ends when stdin is closed (the mjai bots' way to stop), or is killed after a short
grace; :meth:`BotProcess.close` always leaves no process behind.

The errors are :class:`BotError` (the bot stopped answering: :class:`BotExited`, :class:`BotTimeout`)
and :class:`BotStartError` (the program could not be started at all: a usage error).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
import weakref
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from mjcli.errors import MjcliError, UsageError

#: stderr lines kept for reports
TAIL = 8
#: seconds a bot has to exit after its stdin is closed before it is killed
GRACE = 1.0


class BotError(MjcliError):
    """A bot stopped answering; the message names it and quotes the end of its stderr."""

    kind = "error"


class BotExited(BotError):
    kind = "exited"


class BotTimeout(BotError):
    kind = "timeout"


class BotTooLong(BotError):
    """A line longer than :data:`MAX_LINE_BYTES`: no answer, and the stream is out of step."""

    kind = "not_json"


#: the longest line a bot may write (an mjai answer is a few hundred bytes; Mortal's with its
#: q-values in ``meta`` a few KB): a bot writing without a newline grew mjcli's memory for the whole
#: timeout (600 MB for 200 MB written), and without end under ``--bot-timeout inf``
MAX_LINE_BYTES = 16 * 1024 * 1024


class BotStartError(UsageError):
    """The bot's program could not be started (no such file, not executable)."""


class BotProcess:
    """One running bot program (see the module's docstring)."""

    def __init__(self, argv: Sequence[str], label: str, log: Path | None = None) -> None:
        self.label = label
        self.argv = list(argv)
        self.tail: deque[str] = deque(maxlen=TAIL)
        self._out = bytearray()
        self._err = bytearray()
        self._log = None
        if log is not None:  # before the bot starts: a log that cannot be opened starts no bot
            try:
                log.parent.mkdir(parents=True, exist_ok=True)
                self._log = open(log, "ab", buffering=0)  # noqa: SIM115 - kept open for the process's life
            except OSError as exc:
                raise BotStartError(f"{label}: cannot open the log '{log}': {exc.strerror or exc}") from None
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                process_group=0,  # its own group: killed as a whole, apart from our Ctrl-C
                # a --jobs worker ignores and blocks SIGINT and SIGTERM (its main process stops
                # it), and both would pass through exec to the bot: a bot that stops a helper of
                # its own with terminate() then hung (a reviewer's finding)
                preexec_fn=_default_signals if os.name == "posix" else None,
            )
        except OSError as exc:
            if self._log is not None:
                self._log.close()
            raise BotStartError(
                f"{label}: cannot start '{' '.join(self.argv)}': {exc.strerror or exc}"
            ) from None
        # A bot left running when this object goes (dropped without close(), or alive when the
        # process ends: the ``mjcli`` command ends without the interpreter's teardown, which runs no
        # __del__ but runs these finalizers, as atexit handlers) has its process group killed. Made
        # at once after the start: whatever fails after it (below), the bot is not left running.
        self._finalizer = weakref.finalize(self, _kill_group, self.proc)
        self._prefix = f"[{label} pid {self.proc.pid}] ".encode()
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()
        self._err_fd = self.proc.stderr.fileno()
        for fd in (self._in_fd, self._out_fd, self._err_fd):
            os.set_blocking(fd, False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._out_fd, selectors.EVENT_READ)
        self._sel.register(self._err_fd, selectors.EVENT_READ)
        self._stdout_open = True
        self._stderr_open = True
        self._files_closed = False
        self.closed = False

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return not self.closed and self.proc.poll() is None

    # ------------------------------------------------------------ lines

    def request(self, line: str, timeout: float) -> str:
        """Send one line and return the next line the bot writes (without its newline)."""
        deadline = time.monotonic() + timeout
        self.send(line, deadline)
        return self.read_line(deadline, timeout)

    def send(self, line: str, deadline: float) -> None:
        data = memoryview((line + "\n").encode())
        while data:
            try:
                n = os.write(self._in_fd, data)
            except BlockingIOError:
                n = 0
            except (BrokenPipeError, OSError):
                raise self._exited("while being sent a line") from None
            data = data[n:]
            if data:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._timed_out("did not read its input", None)
                sel = selectors.DefaultSelector()
                sel.register(self._in_fd, selectors.EVENT_WRITE)
                try:
                    sel.select(min(left, 0.5))
                finally:
                    sel.close()
                self.drain_stderr()

    def read_line(self, deadline: float, timeout: float | None = None) -> str:
        searched = 0  # the bytes already searched for the newline: each chunk is searched once
        while True:
            i = self._out.find(b"\n", searched)
            if i >= 0:
                raw = bytes(self._out[:i])
                del self._out[: i + 1]
                return raw.decode("utf-8", "replace").rstrip("\r")
            searched = len(self._out)
            if searched > MAX_LINE_BYTES:
                self.kill()
                self._out.clear()
                raise BotTooLong(
                    f"{self.label} wrote a line longer than {MAX_LINE_BYTES >> 20} MiB without ending it "
                    f"and was killed{self.stderr_tail()}"
                )
            if not self._stdout_open:
                raise self._exited("before answering")
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._timed_out("did not answer", timeout)
            # (at most a quarter second a wait: ``--bot-timeout inf``, no limit, makes the deadline
            # infinite, which select refuses; and a bot that exits while a child it started holds
            # its output open is seen exiting, not waited for until the timeout: a reviewer's finding)
            ready = self._sel.select(min(left, _POLL_WAIT))
            for key, _ in ready:
                if key.fd == self._out_fd:
                    self._read_stdout()
                else:
                    self.drain_stderr()
            if not ready and self.proc.poll() is not None:
                raise self._exited("before answering")

    def _read_stdout(self) -> None:
        try:
            chunk = os.read(self._out_fd, 65536)
        except BlockingIOError:
            return
        if chunk:
            self._out += chunk
        else:
            self._stdout_open = False
            self._sel.unregister(self._out_fd)

    def drain_stderr(self) -> None:
        """Copy what the bot wrote on stderr to the log and the tail (never blocks)."""
        while self._stderr_open and not self._files_closed:
            try:
                chunk = os.read(self._err_fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._stderr_open = False
                self._sel.unregister(self._err_fd)
                self._flush_stderr(final=True)
                return
            self._err += chunk
            self._flush_stderr()

    def _flush_stderr(self, final: bool = False) -> None:
        end = len(self._err) if final else self._err.rfind(b"\n") + 1
        if end <= 0:
            return
        lines = bytes(self._err[:end]).splitlines()
        del self._err[:end]
        for raw in lines:
            self.tail.append(raw.decode("utf-8", "replace"))
        if self._log is not None and lines:
            with contextlib.suppress(OSError):
                self._log.write(b"".join(self._prefix + raw + b"\n" for raw in lines))

    def note(self, text: str) -> None:
        """A line of mjcli's own in the bot's stderr log (not in the tail)."""
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.write(b"[mjcli] " + self._prefix + text.encode() + b"\n")

    def drop_unread(self) -> list[str]:
        """Lines the bot wrote that nobody asked for (read without waiting), removed."""
        if self._files_closed:
            return []
        with contextlib.suppress(OSError):
            while self._stdout_open and any(k.fd == self._out_fd for k, _ in self._sel.select(0)):
                before = len(self._out)
                self._read_stdout()
                if len(self._out) == before:
                    break
        if b"\n" not in self._out:
            return []
        end = self._out.rfind(b"\n") + 1
        # a message ends at "\n" only: a JSON string may hold U+0085 or U+2028 as they are, where
        # ``str.splitlines`` would cut it in two; a "\r" before it goes, as in :meth:`read_line`
        text = bytes(self._out[: end - 1]).decode("utf-8", "replace")
        lines = [line.rstrip("\r") for line in text.split("\n")]
        del self._out[:end]
        return lines

    # ------------------------------------------------------------ errors

    def stderr_tail(self) -> str:
        """The last lines of the bot's stderr, as the end of a report (empty when it wrote none)."""
        self.drain_stderr()
        if not self.tail:
            return ""
        return "; its stderr ends: " + " | ".join(line.strip() for line in self.tail if line.strip())[-600:]

    def _exited(self, when: str) -> BotExited:
        code = self._wait_exit(0.5)
        how = "closed its output" if code is None else _exit_text(code)
        self.kill()  # drains what is left of its stderr first
        return BotExited(f"{self.label} {how} {when}{self.stderr_tail()}")

    def _timed_out(self, what: str, timeout: float | None) -> BotTimeout:
        self.kill()
        limit = f" within {timeout:g} s" if timeout is not None else ""
        return BotTimeout(f"{self.label} {what}{limit} and was killed{self.stderr_tail()}")

    def _wait_exit(self, seconds: float) -> int | None:
        try:
            return self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    # ------------------------------------------------------------ the end

    def kill(self) -> None:
        """Kill the bot's whole process group now."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self._wait_exit(5.0)
        self.close()

    def close(self) -> int | None:
        """Close stdin and let the bot exit (killed after :data:`GRACE` seconds); its exit code."""
        if self.closed:
            return self.proc.returncode
        self.closed = True
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # type: ignore[union-attr]
        code = self._wait_exit(GRACE)
        if code is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            code = self._wait_exit(5.0)
        else:
            # the bot is gone; anything it left running in its group goes too
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.drain_stderr()
        self._files_closed = True
        for f in (self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                f.close()  # type: ignore[union-attr]
        self._sel.close()
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
        self._finalizer.detach()
        return code


#: the longest one wait for a bot's answer lasts before the deadline and the bot's life are looked
#: at again (seconds)
_POLL_WAIT = 0.25


def _default_signals() -> None:
    """In the bot's process, between fork and exec: SIGINT and SIGTERM back to their default
    action, and no signal blocked, whatever the process that starts the bot had set."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, ())


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill a bot's process group (what it left running too, as :meth:`BotProcess.close` does) and
    reap the bot (see BotProcess)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5.0)


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"
