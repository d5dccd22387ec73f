"""The ``mjcli`` command: a thin Typer skin over the library.

Each subcommand lives in ``mjcli/commands/<name>.py`` and exposes ``register(app)``; this module only
assembles them (a run registers only the command it names, so that it imports nothing of the
others; ``mjcli --help`` and ``from mjcli.cli import app`` get them all) and turns the project's
exceptions into one-line errors with exit code 2, and Ctrl-C or SIGTERM into one line and exit
code 130. The plain one-liners (``mjcli shanten HAND``, ``mjcli score HAND --win 2z``...) make the
skin's call without Typer (:mod:`mjcli.plain_lines`).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

from mjcli import __version__, process_settings
from mjcli.errors import MjcliError, one_line, short_path
from mjcli.plain_lines import plain_call

if TYPE_CHECKING:
    import typer

# Typer and the command skins (mjcli.commands) are imported when a run needs them: the plain
# one-liners run without them (mjcli.plain_lines)

#: the exit code of a run stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report Ctrl-C)
INTERRUPTED = 130


def _show_version(value: bool) -> None:
    import typer

    if value:
        print(f"mjcli {__version__}")
        raise typer.Exit()


def build_app(names: Sequence[str] | None = None) -> typer.Typer:
    """The Typer app with the commands ``names`` (all of them by default)."""
    import typer

    from mjcli.commands import NAMES, command_modules

    def _options(
        version: bool = typer.Option(
            False, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ) -> None:
        """Options of mjcli itself, before the command."""

    app = typer.Typer(
        name="mjcli",
        help=(
            "Mahjong and Dou Dizhu bot toolkit: score hands, count shanten and ukeire, ask bot policies, "
            "verify and replay real game logs, simulate games.\n\n"
            "Example: mjcli score 234m456p678s11222z --win 2z --tsumo"
        ),
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_options)
    for module in command_modules(NAMES if names is None else names):
        module.register(app)
    return app


def commands_for(argv: Sequence[str]) -> tuple[str, ...]:
    """The commands a run with these arguments needs: the one it names (its first argument that is
    not an option), or every command when it names none (``--help``, ``--version``, a typo)."""
    from mjcli.commands import NAMES

    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return (first,) if first in NAMES else NAMES


def __getattr__(name: str) -> typer.Typer:
    # ``from mjcli.cli import app`` (tests, embedding): the app with every command, built once
    if name == "app":
        app = globals()["app"] = build_app()
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # the runner's own handler, while it runs, raises its Interrupted


def main() -> None:
    """Console-script entry point: run the app; project errors become ``error: ...`` and exit 2,
    Ctrl-C and SIGTERM ``interrupted`` and exit 130 (after the command's clean-up has run), a reader
    of the output gone before the command finished exit 141 (:func:`_reader_gone`)."""
    _hold_closed_std_fds()
    signal.signal(signal.SIGTERM, _stop)  # SIGTERM stops a run the way Ctrl-C does
    process_settings.apply()  # before anything imports Polars
    try:
        plain = plain_call(sys.argv[1:])
        if plain is not None:  # the skin's own call, without Typer (mjcli.plain_lines)
            from mjcli import games

            command, options = plain
            # what the skin's `raise typer.Exit(games.run(...))` ends in: click's sys.exit(code)
            sys.exit(games.run(command, options.pop("game", None), **options))
        run_with_typer(sys.argv[1:])
    except MjcliError as exc:
        _say(f"error: {one_line(str(exc))}")
        sys.exit(2)
    except KeyboardInterrupt:
        _interrupted()
    except EOFError:
        # Typer's answer to end of input where a command asked for some (a plugin policy that reads
        # stdin), given the same on the plain lines, which do not go through Typer
        _say("\nAborted!")
        sys.exit(1)
    except SystemExit as exc:
        # Typer turns a KeyboardInterrupt into a silent exit 130; no command exits 130 otherwise.
        if exc.code == INTERRUPTED:
            _interrupted()
        if isinstance(exc.__context__, BrokenPipeError):
            # Typer's click ends a command whose output met a closed pipe with a bare exit 1, which
            # reads as "found problems"; it raises it while handling the write's error, hence the
            # context
            _reader_gone()
        raise
    except BrokenPipeError:
        _reader_gone()
    except OSError as exc:
        _system_refused(exc)
    except Exception as exc:
        system = _polars_system_error(exc)
        if system is None:
            raise
        _system_refused(system)


def _system_refused(exc: OSError) -> NoReturn:
    """An operating-system error no command turned into a message of its own (a name too long for
    the system, a disk full, a device gone): one line, never a traceback. A write that failed for
    want of room (`mjcli verify logs > /dev/full`: no file named, the output is what failed) is
    "cannot write the output" and exit 120, what :func:`entry` says when its last flush fails
    (Python's own status for it); anything else exit 2, naming the file refused."""
    what = one_line(exc.strerror or str(exc))
    if exc.filename is None and exc.errno in _WRITE_FAILED:
        _say(f"error: cannot write the output: {what}")
        if sys.stdout is not None:
            try:
                sys.stdout.flush()  # what else the output holds, if the output is not what failed
            except (OSError, ValueError):  # it is: nothing more to fail at the exit
                _stdout_to_null()
        sys.exit(120)
    # (of a rename, the second name is the one the user gave: the first is a temporary file)
    name = exc.filename2 if exc.filename2 is not None else exc.filename
    if name is not None:
        what = f"'{short_path(os.fsdecode(name))}': {what}"
    _say(f"error: {what}")
    sys.exit(2)


#: the errors of a write that found no room (EIO is not among them: a read fails with it too)
_WRITE_FAILED = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _polars_system_error(exc: Exception) -> OSError | None:
    """The operating-system error a Polars exception carries (its text ends in "(os error N)":
    Polars writes Parquet in Rust and raises its own exceptions, a full disk among them), else
    None."""
    if not type(exc).__module__.startswith("polars"):
        return None
    import re

    found = re.search(r"\(os error (\d+)\)", str(exc))
    if found is None:
        return None
    code = int(found.group(1))
    return OSError(code, os.strerror(code))


def _hold_closed_std_fds() -> None:
    """A standard stream the process was started without (`mjcli ... >&-`) gets the null device at
    its descriptor, so that it stays taken: otherwise the first file or pipe the run opens gets that
    number (0, 1 or 2), and what is meant for the stream lands there (`mjcli verify LOGS >&-` hung:
    a worker's pipe was descriptor 1, pointed at the null device by the workers' start). Python
    made the stream None; it becomes one on the null device (`mjcli shanten BAD 2>&-` printed its
    error line to stdout, print's answer to a None file; a progress bar failed on None)."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                held = os.open(os.devnull, os.O_RDWR)
                if held != fd:  # (the lower ones are open: os.open takes the lowest free number)
                    os.dup2(held, fd)
                    os.close(held)
                # the processes the run starts (workers' server, bots) get it too, as they would
                # have got the stream (os.open's descriptors are not inherited)
                os.set_inheritable(fd, True)
                if getattr(sys, name) is None:  # a stream on the null device, not None: what is
                    # written to it goes nowhere, as the user asked, and nothing fails on it
                    stream = open(fd, "r" if fd == 0 else "w", closefd=False)  # noqa: SIM115 (the process's)
                    setattr(sys, name, stream)


def run_with_typer(argv: Sequence[str]) -> None:
    """The command line ``argv`` parsed and run by Typer (every line but the plain ones)."""
    from mjcli.commands import optional_values

    args = optional_values(argv)
    build_app(commands_for(args))(args=args)


#: the exit code of a command stopped because the reader of its output went away (128 + SIGPIPE)
READER_GONE = 141


def _reader_gone() -> NoReturn:
    """The output's reader went away before the command finished (`mjcli verify logs | head -1`):
    the command stops there, says nothing more and exits 141, the status a shell reports for a
    program a closed pipe stops (`yes | head`). Not 0: the command did not finish (a verify has not
    checked every log, a replay's gate has not seen every decision); not 1, "found problems". A
    command that finished before its last output met the closed pipe keeps its own status
    (:func:`entry`). Standard output is pointed at the null device, so that nothing still buffered
    for it fails again at the exit."""
    _stdout_to_null()
    sys.exit(READER_GONE)


def _stdout_to_null() -> None:
    """Standard output's descriptor pointed at the null device: what is still buffered for an
    output that failed or went away goes nowhere, and nothing fails again at the exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _say(text: str) -> None:
    """A last line on stderr; a stderr gone (`mjcli ... 2>&1 | true`) leaves the exit status as it is."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr, flush=True)


def entry() -> None:
    """The ``mjcli`` console script and ``python -m mjcli``: :func:`main`, then the process ends as
    soon as the exit handlers have run and its output is out, without the interpreter's teardown.

    That teardown frees every object of every module one by one (and Polars' runtime): 16-21 ms
    after ``mjcli shanten HAND``, 25-30 ms after ``verify`` of 19 hanchan, 90-110 ms after ``replay``
    of them (medians of 8 runs, the time from ``main`` returning to the process being gone), time a
    user waits for and nothing gains from: the process's memory goes back to the system in one piece
    and its files were closed by the commands (written atomically, renamed before ``main`` returns).
    What a normal exit does that matters is done here, in its order: the ``atexit`` handlers run
    (multiprocessing's removes its temporary folders and stops its helpers; Ray's ends its
    session; a plugin's own), then standard output and error are flushed; a write that fails then
    is reported and the status is 120, as Python's exit gives, but for a reader gone (`mjcli ... |
    head`): the command had finished, and keeps its status (see :func:`_reader_gone`). Objects'
    ``__del__`` methods do not run (Python does not promise them at exit either; a plugin that must
    clean up registers an ``atexit`` handler). The normal exit is taken instead when a thread that
    is not a daemon is running (it waits for it), for an exit status beyond a C int, and when mjcli
    is not the program itself but runs inside another (a profiler, coverage, a debugger,
    ``runpy``), which still has work to do after it. Bench rows: start-up, ``--jobs 2`` vs 1."""
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if code is None:
        code = 0
    if (
        not isinstance(code, int)  # SystemExit("message"): Python prints it, status 1
        or not -(2**31) <= code < 2**31
        or not _is_the_program(sys._getframe(1))
        or _threads_to_wait_for()
    ):
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the stream closed (`mjcli ... >&-`)
            continue
        try:
            stream.flush()
        except BrokenPipeError:
            pass
        except (OSError, ValueError) as exc:  # a full disk, an I/O error; ValueError: closed by the command
            if isinstance(exc, ValueError) and stream.closed:
                continue
            with contextlib.suppress(OSError, ValueError):
                print(f"error: cannot write the output: {exc}", file=sys.stderr, flush=True)
            code = 120
    os._exit(code)


def _threads_to_wait_for() -> bool:
    main_thread = threading.main_thread()
    return any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not main_thread)


def _is_the_program(frame: FrameType | None) -> bool:
    """Whether ``frame`` (the caller of :func:`entry`) is the top of the program the interpreter
    runs: the console script's module code with nothing under it, or ``python -m mjcli``'s, under
    the frames of runpy's own start alone. Anything else under it (cProfile, coverage, pdb, a
    caller of ``runpy.run_module``) is a host that must get control back."""
    if frame is None or frame.f_code.co_name != "<module>":
        return False
    below = frame.f_back
    while below is not None:
        if below.f_globals.get("__name__") != "runpy":
            return False
        below = below.f_back
    return True


def _interrupted() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the message short
    # CPython 3.11 under `python -m`: a Ctrl-C that lands while a string is exec'd (the methods a
    # dataclass generates, at import) sets a flag that makes the interpreter end itself by SIGINT at
    # exit, whatever code it exits with, even though the interrupt was handled here; every exec of
    # a string clears that flag first, so this one keeps the exit status 130
    exec("pass")
    _say(
        "interrupted: the run was stopped and nothing unfinished put in place "
        "(a --resume run keeps its finished parts)"
    )
    sys.exit(INTERRUPTED)


if __name__ == "__main__":
    entry()
