"""The games mjcli knows, and where each command finds a game's implementation: one table.

Every command that depends on the game takes ``--game NAME`` (default ``riichi``). Each game
package declares, in its ``game.py``, a :class:`GameEntry`: for each command it has, the function that
runs it and the options that apply to it with their defaults. A command's Typer skin
(``mjcli/commands/``) declares the union of the options with ``None`` (or ``False`` for a flag) as
"not given", and :func:`run` fills in the game's defaults, refuses an option that the game does not
take (naming it), and calls the game's function, which returns the exit code.

The game modules are imported when first asked for (they are light: their heavy imports happen
inside the command functions), so ``mjcli --help`` and ``mjcli score`` stay fast.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mjcli.errors import PluginBug, UsageError, one_line

#: game name -> the module holding its ``GAME`` declaration (``module:NAME`` for another name)
GAME_MODULES: dict[str, str] = {
    "riichi": "mjcli.riichi.game",
    "doudizhu": "mjcli.doudizhu.game",
    "hk": "mjcli.hk.game",
    "red": "mjcli.hk.game:RED",
}
DEFAULT_GAME = "riichi"


@dataclass(frozen=True)
class Command:
    """One command of one game: ``run(**options) -> exit code`` and the options it takes.

    ``options`` maps each option the game accepts (by its parameter name in the Typer command) to
    its default for this game; an option missing here does not apply to the game.
    """

    run: Callable[..., int]
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the game's paragraph of the command's ``--help``
    help: str = ""


@dataclass(frozen=True)
class GameEntry:
    name: str
    title: str
    commands: Mapping[str, Command]


def game_names() -> tuple[str, ...]:
    return tuple(GAME_MODULES)


def load_game(name: str) -> GameEntry:
    """The declaration of game ``name``; a :class:`UsageError` naming the known games otherwise."""
    key = (name or "").strip().lower()
    if key not in GAME_MODULES:
        raise UsageError(f"unknown game {name!r}: use {', '.join(GAME_MODULES)}")
    module, _, attr = GAME_MODULES[key].partition(":")
    return getattr(importlib.import_module(module), attr or "GAME")


def games_with(command: str) -> list[GameEntry]:
    """Every game that has ``command``, in table order."""
    return [g for g in map(load_game, GAME_MODULES) if command in g.commands]


def _given(value: Any) -> bool:
    """An option counts as given when it is not the skin's "not given" value (None, False, empty)."""
    return value is not None and value is not False and value != [] and value != ()


def resolve(command: str, game: str | None, options: Mapping[str, Any]) -> tuple[Command, dict[str, Any]]:
    """The game's :class:`Command` and its full options: given ones kept, the rest at the game's
    defaults. An option given that does not apply to the game is a :class:`UsageError`."""
    g = load_game(game or DEFAULT_GAME)
    cmd = g.commands.get(command)
    if cmd is None:
        having = ", ".join(x.name for x in games_with(command))
        raise UsageError(f"{g.name} has no {command} command (games with it: {having})")
    # sorted: the same message whatever order the options came in (a skin hands them over in its
    # declaration order, mjcli.plain_lines in the command line's)
    foreign = sorted(name for name, value in options.items() if name not in cmd.options and _given(value))
    if foreign:
        shown = ", ".join("--" + n.rstrip("_").replace("_", "-") for n in foreign)
        raise UsageError(f"{shown} does not apply to {command} --game {g.name}")
    full = {
        name: (options[name] if _given(options.get(name)) else default)
        for name, default in cmd.options.items()
    }
    return cmd, full


def run(command: str, game: str | None, **options: Any) -> int:
    """Run ``command`` for ``game`` with the options given (the rest at the game's defaults)."""
    cmd, full = resolve(command, game, options)
    return cmd.run(**full)


def defaults_help(command: str, option: str) -> str:
    """``[default: riichi X; doudizhu Y]``: each game's default of one option, for ``--help``."""
    parts = []
    for g in games_with(command):
        if option in g.commands[command].options:
            value = g.commands[command].options[option]
            if value is not None and value is not False:
                parts.append(f"{g.name} {value}")
    return f"[default: {'; '.join(parts)}]" if parts else ""


def games_help(command: str) -> str:
    """The games' paragraphs of a command's help, one after another."""
    return "\n\n".join(g.commands[command].help for g in games_with(command) if g.commands[command].help)


def plugin_bugs_stop(run: Callable[..., int]) -> Callable[..., int]:
    """``run`` (a game's command), where a plugin's bug (:class:`~mjcli.errors.PluginBug`: it raised,
    or answered outside the legal choices) stops the command as riichi's replay and simulate stop:
    one line naming the plugin and the position, exit 1 (README, "A plugin"; nothing is written)."""

    @functools.wraps(run)
    def wrapper(*args: Any, **kwargs: Any) -> int:
        try:
            return run(*args, **kwargs)
        except PluginBug as exc:
            print(f"error: {one_line(str(exc))}", file=sys.stderr)
            return 1

    return wrapper
