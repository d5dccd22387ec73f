"""``mjcli summary``: summarise an existing replay output again, without replaying."""

from __future__ import annotations

from pathlib import Path

import typer

from mjcli.output import emit_json
from mjcli.riichi.summary import BY_CHOICES, format_summary, summarise

HELP = (
    "Summarise the decisions of an earlier `mjcli replay --out DIR` run: per policy, the agreement "
    "with the players overall and by kind of decision, the top-1 and equally-good rates on their "
    "discards, and the agreement between policies; --by adds a table per player, policy, round or kind."
    "\n\n"
    "DIR is the replay's output folder (or its decisions.parquet). Exit status: 0, or 2 when DIR holds "
    "no replay output."
    "\n\n"
    "Example: mjcli summary rep --by player"
)


def register(app: typer.Typer) -> None:
    @app.command("summary", help=HELP, no_args_is_help=True)
    def summary(
        path: Path = typer.Argument(..., help="A replay --out folder, or its decisions.parquet."),
        by: str | None = typer.Option(None, "--by", help=f"Also summarise by {', '.join(BY_CHOICES)}."),
        as_json: bool = typer.Option(False, "--json", help="The summary as one JSON object."),
    ) -> None:
        result = summarise(path, by)
        if as_json:
            emit_json(result)
        else:
            typer.echo(format_summary(result))
