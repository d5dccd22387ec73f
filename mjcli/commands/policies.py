"""``mjcli policies``: every policy name known, and where it comes from."""

from __future__ import annotations

import typer

from mjcli import games
from mjcli.commands import bot_option, game_option, plugin_option

INTRO = (
    "List every policy name the commands know, with where it comes from: built-in, plugin (--plugin), "
    "entry point (an installed package) or bot (--bot)."
)


def register(app: typer.Typer) -> None:
    @app.command("policies", help=INTRO + "\n\n" + games.games_help("policies"))
    def policies(
        game: str | None = game_option(),
        plugin: list[str] | None = plugin_option(),
        bot: list[str] | None = bot_option(),
        as_json: bool = typer.Option(False, "--json", help="One JSON object per name."),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("policies", options.pop("game"), **options))
