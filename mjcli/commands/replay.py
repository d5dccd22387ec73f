"""``mjcli replay``: walk game records and ask every policy at every decision point."""

from __future__ import annotations

from pathlib import Path

import typer

from mjcli import games
from mjcli.commands import (
    bot_framing_option,
    bot_option,
    bot_timeout_option,
    game_option,
    jobs_option,
    plugin_option,
    ray_option,
    resume_option,
    strict_bots_option,
)

INTRO = (
    "Walk game records and ask each policy what it would do at every decision point, given exactly "
    "what that player could see; write the answers to Parquet and summarise the agreement."
)


def register(app: typer.Typer) -> None:
    @app.command("replay", help=INTRO + "\n\n" + games.games_help("replay"), no_args_is_help=True)
    def replay(
        records: list[str] = typer.Argument(
            ..., help="Log or record files, directories, or - (paths on stdin)."
        ),
        game: str | None = game_option(),
        policies: str | None = typer.Option(
            None,
            "--policies",
            "--policy",
            help="Comma-separated policies (riichi: or all). " + games.defaults_help("replay", "policies"),
        ),
        out: str | None = typer.Option(
            None, "--out", "-o", metavar="DIR", help="Write DIR/decisions.parquet and more."
        ),
        jobs: int | None = jobs_option(),
        as_json: bool = typer.Option(False, "--json", help="The summary as one JSON object."),
        seat: list[str] | None = typer.Option(
            None,
            "--seat",
            help="Riichi: only these seats' decisions (0-3, 0 = the first dealer; repeat it or give 0,1).",
        ),
        player: list[str] | None = typer.Option(
            None, "--player", help="Riichi: only this player's decisions."
        ),
        by: str | None = typer.Option(
            None, "--by", help="Riichi: also summarise by player, policy, round or kind."
        ),
        baseline: Path | None = typer.Option(
            None, "--baseline", help="Riichi: compare the choices with an older decisions.parquet."
        ),
        max_changes: int | None = typer.Option(
            None,
            "--max-changes",
            min=0,
            help="Riichi: exit 1 when more decisions changed against --baseline [default: 0].",
        ),
        rules: str | None = typer.Option(
            None,
            "--rules",
            help="Riichi: rule-set preset played on every log (its size, length and red fives still "
            "apply; a log that does not say its length is East-only under an East-only preset) "
            "[default: each log's own site: tenhou, or majsoul for a Mahjong Soul room].",
        ),
        hands_shown: str | None = typer.Option(
            None,
            "--hands-shown",
            metavar="NAMES",
            help="Riichi: the seats of these players played with their hand shown, or none "
            "[default: as the log records].",
        ),
        plugin: list[str] | None = plugin_option(),
        bot: list[str] | None = bot_option(),
        bot_timeout: float | None = bot_timeout_option(),
        bot_framing: str | None = bot_framing_option(),
        strict_bots: bool = strict_bots_option(),
        ray: str | None = ray_option(
            "Riichi with --out: the tasks write the tables as parts (DIR/decisions/part-*.parquet). "
        ),
        resume: bool = resume_option(),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("replay", options.pop("game"), **options))
