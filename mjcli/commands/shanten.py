"""``mjcli shanten``: shanten, ukeire and the discard table of hands."""

from __future__ import annotations

import typer

from mjcli import games
from mjcli.commands import game_option

INTRO = "Shanten and ukeire of hands; for a hand with a tile to discard, every discard ranked."


def register(app: typer.Typer) -> None:
    @app.command("shanten", help=INTRO + "\n\n" + games.games_help("shanten"), no_args_is_help=True)
    def shanten(
        hands: list[str] = typer.Argument(
            ..., metavar="HAND", help="Hands in mpsz, e.g. 123m456p789s1135z; '-' reads stdin."
        ),
        game: str | None = game_option(),
        seen: str | None = typer.Option(
            None, "--seen", help="Visible tiles (rivers, melds, dora indicators), mpsz."
        ),
        shanten_only: bool = typer.Option(
            False, "--shanten-only", help="Only the shanten numbers (no ukeire; fastest for many hands)."
        ),
        sanma: bool = typer.Option(
            False, "--sanma", help="Riichi: three-player hands (2m-8m are not in the set)."
        ),
        as_json: bool = typer.Option(False, "--json", help="One JSON object per hand instead of tables."),
        fields: str | None = typer.Option(
            None,
            "--fields",
            metavar="LIST",
            help="With --json: only these fields, comma-separated, of hand, size, shanten, ukeire, tiles, "
            "remaining, discards (a discard keeps its tile and the fields named) [default: all].",
        ),
    ) -> None:
        options = dict(locals())
        raise typer.Exit(games.run("shanten", options.pop("game"), **options))
