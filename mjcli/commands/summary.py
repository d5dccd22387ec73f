"""``mjcli summary``: summarise an existing replay output again, without replaying."""

from __future__ import annotations

from pathlib import Path

import typer

from mjcli import games
from mjcli.commands import game_option
from mjcli.errors import UsageError, WrongGameError

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
        try:
            status = games.run("summary", options.pop("game"), **options)
        except WrongGameError as exc:
            if exc.game in games.GAME_MODULES and "summary" not in games.load_game(exc.game).commands:
                # "give --game doudizhu" would only lead to "doudizhu has no summary command"
                raise UsageError(
                    f"'{path}' is a {exc.game} replay's, and {exc.game} has no summary command: its "
                    "replay printed the agreement, and `mjcli report` on its folder draws it"
                ) from None
            raise
        raise typer.Exit(status)
