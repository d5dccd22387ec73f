"""``mjcli advise``: ask the bot policies what to play from a hand or a logged position."""

from __future__ import annotations

import typer

from mjcli import games
from mjcli.commands import (
    MAX_SEED,
    bot_framing_option,
    bot_option,
    bot_timeout_option,
    game_option,
    plugin_option,
)

INTRO = "Ask the bot policies what they would play, each with the rule of its algorithm that decided."


def register(app: typer.Typer) -> None:
    @app.command("advise", help=INTRO + "\n\n" + games.games_help("advise"), no_args_is_help=True)
    def advise(
        hand: str = typer.Argument(
            ..., help="Riichi: a hand in mpsz or a game log. Dou Dizhu: a hand in 3456789TJQKA2BR."
        ),
        game: str | None = game_option(),
        policies: str | None = typer.Option(
            None, "--policy", "--policies", help="Policies, comma-separated, or all (the default)."
        ),
        lead: str | None = typer.Option(None, "--lead", help="Dou Dizhu: the combination to beat."),
        landlord: bool = typer.Option(False, "--landlord", help="Dou Dizhu: we are the landlord."),
        weights: str | None = typer.Option(
            None, "--weights", help="Dou Dizhu: planner weights, seed or corrected [default: seed]."
        ),
        kicker: str | None = typer.Option(
            None, "--kicker", help="Dou Dizhu: kicker rule, douzero, rlcard or pagat [default: douzero]."
        ),
        seed: int | None = typer.Option(
            None, "--seed", min=0, max=MAX_SEED, help="Dou Dizhu: seed of the random policy [default: 0]."
        ),
        dora: str | None = typer.Option(None, "--dora", help="Riichi: dora indicators (mpsz)."),
        seen: str | None = typer.Option(None, "--seen", help="Riichi: tiles seen elsewhere (mpsz)."),
        round_: str | None = typer.Option(
            None, "--round", help="Riichi: round wind E/S/W/N (hand) [default: E], or round label E2 (log)."
        ),
        seat: str | None = typer.Option(
            None,
            "--seat",
            help="Riichi: seat number 0-3 or wind E/S/W/N (a hand: 0 = E, the dealer) [default: 0].",
        ),
        melds: str | None = typer.Option(None, "--melds", help="Riichi: own melds, e.g. pon:555z,chi:234m."),
        riichi_by: str | None = typer.Option(
            None, "--riichi-by", help="Riichi hand: seats (0-3) or winds in riichi, e.g. S,W or 1,2."
        ),
        offered: str | None = typer.Option(
            None, "--offered", help="Riichi hand: answer this discard (13 tiles in hand), e.g. 4p."
        ),
        from_: str | None = typer.Option(
            None, "--from", help="Riichi hand: the seat (0-3 or E/S/W/N) that discarded --offered."
        ),
        shown: str | None = typer.Option(
            None,
            "--shown",
            help="Riichi hand: other seats' hands shown at the table, SEAT:TILES,... (W:123m456p789s1122z).",
        ),
        hands_shown: str | None = typer.Option(
            None,
            "--hands-shown",
            metavar="NAMES",
            help="Riichi log: the players whose hand is shown, or none [default: as the log records].",
        ),
        honba: int | None = typer.Option(
            None, "--honba", min=0, help="Riichi log position: honba of the round [default: 0]."
        ),
        turn: int | None = typer.Option(
            None,
            "--turn",
            min=0,
            help="Riichi log position: the `turn` column of replay's decisions.parquet.",
        ),
        game_index: int | None = typer.Option(
            None,
            "--game-index",
            min=0,
            help="Riichi log position: the game of a file that holds several, from 0 (replay's `game` "
            "column) [default: the only one].",
        ),
        sanma: bool = typer.Option(
            False, "--sanma", help="Riichi: a three-player hand (seats E/S/W, no 2m-8m, no chi, nukidora)."
        ),
        flowers: str | None = typer.Option(None, "--flowers", help="Hong Kong: the flowers held, e.g. 1,3."),
        seasons: str | None = typer.Option(None, "--seasons", help="Hong Kong: the seasons held, e.g. 2."),
        min_faan: int | None = typer.Option(
            None, "--min-faan", min=0, help="Hong Kong: the table's minimum faan [default: 3]."
        ),
        as_json: bool = typer.Option(False, "--json", help="One JSON object."),
        plugin: list[str] | None = plugin_option(),
        bot: list[str] | None = bot_option(),
        bot_timeout: float | None = bot_timeout_option(),
        bot_framing: str | None = bot_framing_option(),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("advise", options.pop("game"), **options))
