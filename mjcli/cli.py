"""The ``mjcli`` command: a thin Typer skin over the library.

Each subcommand lives in ``mjcli/commands/<name>.py`` and exposes ``register(app)``; this module only
assembles them and turns the project's exceptions into one-line errors with exit code 2.
"""

from __future__ import annotations

import sys

import typer

from mjcli.commands import command_modules
from mjcli.errors import MjcliError

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

for _module in command_modules():
    _module.register(app)


def main() -> None:
    """Console-script entry point: run the app, map project errors to ``error: ...`` and exit 2."""
    try:
        app()
    except MjcliError as exc:
        message = " ".join(str(exc).split())
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        # `mjcli ... | head` closing the pipe early is not an error of ours.
        sys.stderr.close()
        sys.exit(0)


if __name__ == "__main__":
    main()
