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
NAMES = ("score", "shanten", "verify", "convert", "advise", "simulate", "replay", "summary", "report")


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
