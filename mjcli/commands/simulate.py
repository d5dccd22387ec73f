"""``mjcli simulate``: seat policies at a table and play whole games."""

from __future__ import annotations

import typer

from mjcli import games
from mjcli.commands import (
    MAX_SEED,
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

#: bounds of the numeric options: far beyond any real run, short of numbers that only a typo makes
MAX_GAMES = 10_000_000

INTRO = (
    "Play whole games between bot policies under real rules and summarise them; the same --seed gives "
    "the same games (and the same files) for any --jobs."
)


def register(app: typer.Typer) -> None:
    @app.command("simulate", help=INTRO + "\n\n" + games.games_help("simulate"))
    def simulate(
        game: str | None = game_option(),
        players: str | None = typer.Option(
            None, "--players", help="Comma-separated policies. " + games.defaults_help("simulate", "players")
        ),
        games_: int | None = typer.Option(
            None,
            "--games",
            min=1,
            max=MAX_GAMES,
            help="Games (deals with --duplicate). " + games.defaults_help("simulate", "games"),
        ),
        seed: int | None = typer.Option(
            None, "--seed", min=0, max=MAX_SEED, help="Seed: the same seed gives the same games [default: 0]."
        ),
        out: str | None = typer.Option(None, "--out", "-o", metavar="DIR", help="Output directory."),
        duplicate: bool = typer.Option(False, "--duplicate", help="Duplicate deals (see above)."),
        jobs: int | None = jobs_option(),
        as_json: bool = typer.Option(False, "--json", help="The summary as one JSON object."),
        length: str | None = typer.Option(
            None,
            "--length",
            help="Riichi: hanchan or tonpuu [default: the rules']. Hong Kong: east or full [default: east].",
        ),
        rules: str | None = typer.Option(
            None,
            "--rules",
            help="Riichi: rule preset [default: tenhou; tenhou-sanma, three-player, for three --players].",
        ),
        open_riichi: bool = typer.Option(
            False,
            "--open-riichi",
            help="Riichi: the open-riichi house rule (off by default): a seat with its hand shown "
            "riichis openly, 2 han, a yakuman for a player not in riichi who deals in.",
        ),
        hands_shown: str | None = typer.Option(
            None,
            "--hands-shown",
            metavar="POLICIES",
            help="Riichi: the seats of these policies play with their hand shown [default: akagi, "
            "seed 001's rule]; none turns it off.",
        ),
        kicker: str | None = typer.Option(
            None, "--kicker", help="Dou Dizhu: kicker rule, douzero, rlcard or pagat [default: douzero]."
        ),
        min_faan: int | None = typer.Option(
            None, "--min-faan", min=0, help="Hong Kong: the table's minimum faan [default: 3]."
        ),
        min_without_bonus: bool = typer.Option(
            False, "--min-without-bonus", help="Hong Kong: bonus faan do not count toward --min-faan."
        ),
        payment: str | None = typer.Option(
            None,
            "--payment",
            help="Hong Kong: half-gun, full-gun, half-spicy or simplified [default: half-gun].",
        ),
        plugin: list[str] | None = plugin_option(),
        bot: list[str] | None = bot_option(),
        bot_timeout: float | None = bot_timeout_option(),
        bot_framing: str | None = bot_framing_option(),
        strict_bots: bool = strict_bots_option(),
        ray: str | None = ray_option(),
        resume: bool = resume_option(),
    ) -> None:
        options = dict(locals())
        options["games"] = options.pop("games_")
        raise typer.Exit(games.run("simulate", options.pop("game"), **options))
