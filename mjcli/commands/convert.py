"""``mjcli convert``: turn a game log into another format."""

from __future__ import annotations

import typer

from mjcli import games
from mjcli.commands import game_option

INTRO = (
    "Convert a game log to another format. The result goes to stdout, or with -o to FILE (written "
    "atomically)."
)


def register(app: typer.Typer) -> None:
    @app.command("convert", help=INTRO + "\n\n" + games.games_help("convert"), no_args_is_help=True)
    def convert(
        log: str = typer.Argument(..., help="The log file to convert."),
        game: str | None = game_option(),
        to: str = typer.Option(..., "--to", "-t", help="Output format: tenhou6 or mjai."),
        output: str | None = typer.Option(
            None, "--output", "-o", metavar="FILE", help="Write to FILE instead of stdout."
        ),
        as_json: bool = typer.Option(
            False, "--json", help="With -o: print a JSON summary of the conversion instead of a sentence."
        ),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("convert", options.pop("game"), **options))
