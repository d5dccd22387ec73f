"""The Typer skins of the subcommands: one module each, with ``register(app)``.

A skin declares the options of its command (for every game that has it, with ``None`` or ``False``
meaning "not given"), and hands them to :func:`mjcli.games.run`, which finds the game's body in the
``--game`` table, fills in that game's defaults and refuses options that do not apply to it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import typer

from mjcli.games import DEFAULT_GAME, game_names
from mjcli.runner import MAX_JOBS

# Listed by name so that a missing module fails loudly at start-up, not silently.
NAMES = (
    "score",
    "shanten",
    "verify",
    "convert",
    "advise",
    "simulate",
    "replay",
    "summary",
    "policies",
    "bot",
    "report",
)


def command_modules() -> list[ModuleType]:
    return [importlib.import_module(f"mjcli.commands.{name}") for name in NAMES]


def game_option() -> Any:
    """The ``--game`` option every game-dependent command takes."""
    return typer.Option(
        None, "--game", help=f"Which game: {', '.join(game_names())} [default: {DEFAULT_GAME}]."
    )


def jobs_option() -> Any:
    """The ``--jobs`` option of the batch commands: the output is the same for any number."""
    return typer.Option(
        None,
        "--jobs",
        "-j",
        min=1,
        max=MAX_JOBS,
        help="Worker processes; the output is the same for any number [default: one per core].",
    )


def plugin_option() -> Any:
    """``--plugin NAME=TARGET``, repeatable: a Python policy under a name of its own."""
    return typer.Option(
        None,
        "--plugin",
        metavar="NAME=TARGET",
        help="A Python policy as NAME: TARGET is path/to/file.py:Attr or package.module:Attr (a class "
        "or zero-argument factory of an object with decide(view, legal)). Repeatable.",
    )


def bot_option() -> Any:
    """``--bot NAME=COMMAND``, repeatable: an outside mjai program under a name of its own."""
    return typer.Option(
        None,
        "--bot",
        metavar="NAME=COMMAND",
        help="Riichi: an outside mjai program as NAME, one process per seat ({seat} in COMMAND becomes "
        "0-3). Repeatable.",
    )


def bot_timeout_option() -> Any:
    return typer.Option(
        None,
        "--bot-timeout",
        metavar="SECONDS",
        help="Riichi: seconds a bot has per decision (4 times that to start and for a round's first "
        "decision) [default: 5].",
    )


def bot_framing_option() -> Any:
    return typer.Option(
        None,
        "--bot-framing",
        help="Riichi: array (mjai.app: a JSON array of events per line) or event (one event per line, "
        "each answered) [default: array].",
    )


def strict_bots_option() -> Any:
    return typer.Option(
        False, "--strict-bots", help="Riichi: stop at a bot's first fault (exit 1) instead of playing on."
    )
