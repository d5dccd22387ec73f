"""``mjcli score``: what a winning hand is worth, with the arithmetic explained."""

from __future__ import annotations

import typer

from mjcli import games
from mjcli.commands import game_option

#: the most honba or riichi sticks: far beyond any real table, short of numbers only a typo makes
MAX_COUNTERS = 100

INTRO = "Score a winning hand: yaku and dora with their han, fu line by line, base points, payments."


def register(app: typer.Typer) -> None:
    @app.command("score", help=INTRO + "\n\n" + games.games_help("score"), no_args_is_help=True)
    def score(
        hand: str = typer.Argument(..., help="Concealed tiles in mpsz, e.g. 234m456p678s11222z."),
        game: str | None = game_option(),
        win: str | None = typer.Option(None, "--win", "-w", help="The winning tile (e.g. 2z, 0p)."),
        tsumo: bool = typer.Option(False, "--tsumo", help="Won by self-draw (default: ron)."),
        riichi: bool = typer.Option(False, "--riichi", help="Riichi declared."),
        double_riichi: bool = typer.Option(False, "--double-riichi", help="Double riichi declared."),
        open_riichi: bool = typer.Option(
            False,
            "--open-riichi",
            help="Riichi: the riichi is an open riichi (house rule): 2 han, 3 with --double-riichi; "
            "a ron on it pays yakuman unless --discarder-riichi.",
        ),
        discarder_riichi: bool = typer.Option(
            False,
            "--discarder-riichi",
            help="Riichi: the ron on an open riichi was dealt by a player in riichi (normal value).",
        ),
        ippatsu: bool = typer.Option(False, "--ippatsu", help="Won within one go-around of riichi."),
        rinshan: bool = typer.Option(False, "--rinshan", help="Won on the replacement tile after a kan."),
        chankan: bool = typer.Option(False, "--chankan", help="Won by robbing a kan."),
        haitei: bool = typer.Option(False, "--haitei", help="Tsumo on the last tile of the wall."),
        houtei: bool = typer.Option(False, "--houtei", help="Ron on the last discard."),
        tenhou: bool = typer.Option(False, "--tenhou", help="Dealer's win on the first draw."),
        chiihou: bool = typer.Option(False, "--chiihou", help="Non-dealer's win on the first draw."),
        melds: str | None = typer.Option(
            None,
            "--melds",
            "-m",
            help='Declared melds: "pon:555z,chi:234m,ankan:1111p,kan:9999s,kakan:0555p".',
        ),
        dora: str | None = typer.Option(None, "--dora", help="Dora indicators (the tiles shown), mpsz."),
        ura: str | None = typer.Option(
            None, "--ura", help="Ura dora indicators, mpsz (count with riichi only)."
        ),
        seat: str | None = typer.Option(
            None,
            "--seat",
            help="Seat: a number 0-3 (0 is the dealer, East) or a wind E|S|W|N. "
            + games.defaults_help("score", "seat"),
        ),
        round_: str | None = typer.Option(
            None, "--round", help="Round wind E|S|W|N. " + games.defaults_help("score", "round_")
        ),
        honba: int | None = typer.Option(
            None, "--honba", min=0, max=MAX_COUNTERS, help="Honba counters (300 points each)."
        ),
        sticks: int | None = typer.Option(
            None, "--sticks", min=0, max=MAX_COUNTERS, help="Riichi sticks on the table (1000 each)."
        ),
        rules: str | None = typer.Option(
            None,
            "--rules",
            help="Rule-set preset (tenhou, tenhou-tonpuu, tenhou-nored, tenhou-nokuitan; three-player: "
            "tenhou-sanma, sanma-split).",
        ),
        sanma: bool = typer.Option(
            False, "--sanma", help="Riichi: three-player rules (tenhou-sanma unless --rules names one)."
        ),
        kita: int | None = typer.Option(
            None,
            "--kita",
            min=0,
            max=4,
            help="Riichi three-player: Norths set aside (nukidora), each a dora.",
        ),
        double_rinshan: bool = typer.Option(
            False, "--double-rinshan", help="Hong Kong: won on the replacement of a second kong in a row."
        ),
        flowers: str | None = typer.Option(
            None, "--flowers", help="Hong Kong: the flowers held, by number (1-4), e.g. 1,3."
        ),
        seasons: str | None = typer.Option(None, "--seasons", help="Hong Kong: the seasons held, e.g. 2."),
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
        as_json: bool = typer.Option(False, "--json", help="One JSON object instead of the explanation."),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("score", options.pop("game"), **options))
