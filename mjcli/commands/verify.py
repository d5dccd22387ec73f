"""``mjcli verify``: replay game logs through the rules engine and compare every recorded outcome."""

from __future__ import annotations

import typer

from mjcli import games
from mjcli.commands import game_option, jobs_option, ray_option, resume_option

INTRO = (
    "Replay game logs through the rules engine and compare, round by round, what the engine computes "
    "with what each log recorded. Mismatches are listed with the round, the log's value and the engine's. "
    "A log that cannot be read or ends early is reported and the batch goes on. Exit status: 0 every log "
    "verifies, 1 some log mismatches or fails to read, 2 bad usage."
)


def register(app: typer.Typer) -> None:
    @app.command("verify", help=INTRO + "\n\n" + games.games_help("verify"), no_args_is_help=True)
    def verify(
        logs: list[str] = typer.Argument(..., help="Log files, directories, or - to read paths from stdin."),
        game: str | None = game_option(),
        out: str | None = typer.Option(
            None, "--out", "-o", metavar="DIR", help="Write DIR/verify.parquet (one row per round)."
        ),
        as_json: bool = typer.Option(False, "--json", help="One JSON object per log, then a summary object."),
        jobs: int | None = jobs_option(),
        rules: str | None = typer.Option(
            None,
            "--rules",
            help="Rule-set preset played on every log (its size, length and red fives still apply; a log "
            "that does not say its length is East-only under an East-only preset). "
            "Riichi: without it each log's own site (tenhou, or majsoul for a Mahjong Soul room). "
            + games.defaults_help("verify", "rules"),
        ),
        ray: str | None = ray_option(),
        resume: bool = resume_option(),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("verify", options.pop("game"), **options))
