"""``mjcli bot check``: try an outside mjai bot in one short game before using it."""

from __future__ import annotations

import typer

from mjcli import games
from mjcli.commands import MAX_SEED, bot_framing_option, bot_timeout_option, game_option

INTRO = "Outside bots (mjai programs): check one before a long run."
CHECK = (
    "Play one short seeded game with the bot in every seat and report handshake problems, faults "
    "(illegal answers, timeouts, exits, lines that are not JSON) and the time per decision. "
    "Exit status: 0 clean, 1 problems found, 2 bad usage."
)


def register(app: typer.Typer) -> None:
    bot_app = typer.Typer(help=INTRO, no_args_is_help=True)

    @bot_app.command("check", help=CHECK + "\n\n" + games.games_help("bot-check"), no_args_is_help=True)
    def check(
        bot: str = typer.Argument(..., metavar="NAME=COMMAND", help="The bot, as --bot takes it."),
        game: str | None = game_option(),
        seed: int | None = typer.Option(
            None, "--seed", min=0, max=MAX_SEED, help="Seed of the game [default: 0]."
        ),
        length: str | None = typer.Option(None, "--length", help="tonpuu or hanchan [default: tonpuu]."),
        bot_timeout: float | None = bot_timeout_option(),
        bot_framing: str | None = bot_framing_option(),
        as_json: bool = typer.Option(False, "--json", help="The report as one JSON object."),
        rules: str | None = typer.Option(
            None,
            "--rules",
            help="Riichi: the rule-set preset of the game [default: tenhou, or tenhou-sanma].",
        ),
        sanma: bool = typer.Option(
            False, "--sanma", help="Riichi: a three-player table (tenhou-sanma unless --rules names one)."
        ),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("bot-check", options.pop("game"), **options))

    app.add_typer(bot_app, name="bot")
