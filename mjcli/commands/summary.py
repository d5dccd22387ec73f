"""``mjcli summary``: summarise an existing replay output again, without replaying."""

from __future__ import annotations

from pathlib import Path

import typer

from mjcli import games
from mjcli.commands import game_option

INTRO = (
    "Summarise the decisions of an earlier `mjcli replay --out DIR` run: per policy, the agreement "
    "with the players overall and by kind of decision, the top-1 and equally-good rates on their "
    "discards, and the agreement between policies. Exit status: 0, or 2 when DIR holds no replay output."
)


def register(app: typer.Typer) -> None:
    @app.command("summary", help=INTRO + "\n\n" + games.games_help("summary"), no_args_is_help=True)
    def summary(
        path: Path = typer.Argument(..., help="A replay --out folder, or its decisions.parquet."),
        game: str | None = game_option(),
        by: str | None = typer.Option(None, "--by", help="Also summarise by player, policy, round or kind."),
        as_json: bool = typer.Option(False, "--json", help="The summary as one JSON object."),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("summary", options.pop("game"), **options))
