"""The Typer skins of the subcommands: one module each, with ``register(app)``.

A skin declares the options of its command (for every game that has it, with ``None`` or ``False``
meaning "not given"), and hands them to :func:`mjcli.games.run`, which finds the game's body in the
``--game`` table, fills in that game's defaults and refuses options that do not apply to it.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import typer

from mjcli.games import DEFAULT_GAME, game_names

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


def command_modules(names: Sequence[str] = NAMES) -> list[ModuleType]:
    """The skins of ``names`` (all by default), imported now: a run imports only the one it needs."""
    return [importlib.import_module(f"mjcli.commands.{name}") for name in names]


#: the largest --seed (a game's seed fits an Int64 column of the tables)
MAX_SEED = 2**63 - 1


def game_option() -> Any:
    """The ``--game`` option every game-dependent command takes."""
    return typer.Option(
        None, "--game", help=f"Which game: {', '.join(game_names())} [default: {DEFAULT_GAME}]."
    )


def jobs_option() -> Any:
    """The ``--jobs`` option of the batch commands: the output is the same for any number."""
    from mjcli.runner import MAX_JOBS  # here, not at the top: a quick command never imports the runner

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


def ray_option(more: str = "") -> Any:
    """``--ray [ADDRESS]``: run the tasks on Ray (see :func:`optional_values` for the bare form);
    ``more``: what it changes in the command's output."""
    from mjcli.runner import RAY_INSTALL

    return typer.Option(
        None,
        "--ray",
        metavar="[ADDRESS]",
        help="Run the tasks on Ray: alone, on a Ray started here for the run; with HOST:PORT (a head "
        f"node), auto or ray://HOST:PORT, on that cluster. {more}Needs {RAY_INSTALL}.",
    )


def resume_option() -> Any:
    return typer.Option(
        False,
        "--resume",
        help="Keep what an earlier stopped run into --out DIR finished (same options, same inputs by "
        "content) and do the rest; the tables are written as parts, as with --ray.",
    )


#: options whose value may be left out (``--ray`` alone); what they mean then is :func:`_bare_value`'s
OPTIONAL_VALUES = ("--ray",)


def _bare_value(option: str) -> str:
    from mjcli.runner import RAY_LOCAL  # only when --ray is given: a quick command never imports the runner

    return {"--ray": RAY_LOCAL}[option]


#: what such a value looks like: HOST:PORT (also [IPv6]:PORT), auto, local, or a URL (ray://...)
_ADDRESS = re.compile(r"^(auto|local|[a-z][a-z0-9+.-]*://\S+|\[?[\w.:-]+\]?:\d+)$", re.IGNORECASE)


def optional_values(args: Sequence[str]) -> list[str]:
    """The command line with every bare option of :data:`OPTIONAL_VALUES` given its default value:
    ``--ray`` followed by nothing, another option or a word that is no address (a log's path) is
    ``--ray=local``. Typer has no options with an optional value; ``--ray=VALUE`` is always a value."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            return out + list(args[i:])
        if arg in OPTIONAL_VALUES:
            following = args[i + 1] if i + 1 < len(args) else None
            if following is None or following.startswith("-") or not _ADDRESS.match(following):
                out.append(f"{arg}={_bare_value(arg)}")
                continue
        out.append(arg)
    return out
