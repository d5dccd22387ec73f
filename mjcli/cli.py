"""The ``mjcli`` command: a thin Typer skin over the library.

Each subcommand lives in ``mjcli/commands/<name>.py`` and exposes ``register(app)``; this module only
assembles them (a run registers only the command it names, so that it imports nothing of the
others; ``mjcli --help`` and ``from mjcli.cli import app`` get them all) and turns the project's
exceptions into one-line errors with exit code 2, and Ctrl-C or SIGTERM into one line and exit
code 130.

``mjcli shanten - --json`` with only the options of that batch (:func:`stdin_batch_options`) is
run without Typer: its start-up is part of the batch's time (``benchmarks/bench_speed.py``, row
``shanten - full --json``: importing Typer and building the app is about 0.1 s of CPU, a tenth of
the whole 20k-hand batch), and the options are handed to the same :func:`mjcli.games.run` as the
Typer skin's (``tests/test_shanten_stream.py`` checks both routes give it the same options).
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mjcli import __version__
from mjcli.commands import NAMES, command_modules, optional_values
from mjcli.errors import MjcliError, one_line

if TYPE_CHECKING:
    import typer

#: the exit code of a run stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report Ctrl-C)
INTERRUPTED = 130


def _show_version(value: bool) -> None:
    import typer

    if value:
        print(f"mjcli {__version__}")
        raise typer.Exit()


def build_app(names: Sequence[str] = NAMES) -> typer.Typer:
    """The Typer app with the commands ``names`` (all of them by default)."""
    import typer

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
    for module in command_modules(names):
        module.register(app)
    return app


def commands_for(argv: Sequence[str]) -> tuple[str, ...]:
    """The commands a run with these arguments needs: the one it names (its first argument that is
    not an option), or every command when it names none (``--help``, ``--version``, a typo)."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return (first,) if first in NAMES else NAMES


#: the ``shanten - --json`` batch's options that :func:`stdin_batch_options` reads: the flags, and the
#: options with a value (``--seen X`` or ``--seen=X``), with the keyword each is for
_BATCH_FLAGS = {"--json": "as_json", "--sanma": "sanma", "--shanten-only": "shanten_only"}
_BATCH_VALUES = {"--seen": "seen", "--fields": "fields", "--game": "game"}


def stdin_batch_options(args: Sequence[str]) -> dict[str, Any] | None:
    """For ``shanten - --json`` with nothing but :data:`_BATCH_FLAGS` and :data:`_BATCH_VALUES`,
    each at most once and no value that starts with ``-``: the options the Typer skin of
    ``shanten`` would hand to :func:`mjcli.games.run`. None for any other command line (Typer reads
    it, with its errors and help)."""
    if len(args) < 3 or args[0] != "shanten":
        return None
    options: dict[str, Any] = {"hands": [], "game": None, "seen": None, "shanten_only": False, "sanma": False}
    options |= {"as_json": False, "fields": None}
    given: set[str] = set()
    rest = list(args[1:])
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if arg == "-" and not options["hands"]:
            options["hands"] = ["-"]
            continue
        if name in given:
            return None
        given.add(name)
        if arg in _BATCH_FLAGS:
            options[_BATCH_FLAGS[arg]] = True
        elif name in _BATCH_VALUES:
            if not eq:
                if not rest:
                    return None
                value = rest.pop(0)
            if value.startswith("-"):
                return None
            options[_BATCH_VALUES[name]] = value
        else:
            return None
    return options if options["hands"] and options["as_json"] else None


def _run_stdin_batch(options: dict[str, Any]) -> None:
    """Run the batch as Typer runs a command: its exit code, and a closed pipe (``| head``) exit 1
    with nothing more written (Typer's ``PacifyFlushWrapper``)."""
    from mjcli import games

    # numpy on one BLAS thread: the batch's one matrix product is small (a thread pool would only
    # cost its start, ~60 ms of CPU); set for the import only, where the user has not set it
    blas = "OPENBLAS_NUM_THREADS"
    if blas not in os.environ and "numpy" not in sys.modules:
        os.environ[blas] = "1"
        try:
            import numpy  # noqa: F401
        finally:
            del os.environ[blas]
    try:
        code = games.run("shanten", options.pop("game"), **options)
    except EOFError:
        print(file=sys.stderr)
        print("Aborted!", file=sys.stderr)
        sys.exit(1)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # what is still buffered goes nowhere, silently
        sys.exit(1)
    sys.exit(code)


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
    Ctrl-C and SIGTERM ``interrupted`` and exit 130 (after the command's clean-up has run)."""
    signal.signal(signal.SIGTERM, _stop)  # SIGTERM stops a run the way Ctrl-C does
    try:
        args = optional_values(sys.argv[1:])
        batch = stdin_batch_options(args)
        if batch is not None:
            _run_stdin_batch(batch)
        build_app(commands_for(args))(args=args)
    except MjcliError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as exc:
        # Typer turns a KeyboardInterrupt into a silent exit 130; no command exits 130 otherwise.
        if exc.code == INTERRUPTED:
            _interrupted()
        raise
    except BrokenPipeError:
        # `mjcli ... | head` closing the pipe early is not an error of ours.
        sys.stderr.close()
        sys.exit(0)


def _interrupted() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the message short
    print("interrupted: the run was stopped and its unfinished output removed", file=sys.stderr)
    sys.exit(INTERRUPTED)


if __name__ == "__main__":
    main()
