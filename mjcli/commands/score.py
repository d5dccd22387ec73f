"""``mjcli score``: score a winning hand and explain the arithmetic (yaku, fu, base points, payments)."""

from __future__ import annotations

from collections.abc import Sequence

import typer

from mjcli.errors import InvalidHandError, UsageError
from mjcli.melds import Meld, parse_melds
from mjcli.output import emit_json
from mjcli.riichi.rules import PRESETS, Rules, get_rules
from mjcli.riichi.scoring import (
    ScoreResult,
    WinContext,
    describe_base,
    describe_payments,
    hand_label,
    score_hand,
)
from mjcli.tiles import check_counts, parse_tile, parse_tiles, tile_name, wind_from_letter

WIND_NAMES = ("East", "South", "West", "North")

HELP = """Score a winning hand: yaku and dora with their han, fu line by line, base points, payments.

HAND is the concealed tiles in mpsz (0 = red five, 1z-7z = E S W N White Green Red). It may include
the winning tile (14 tiles, less 3 per meld) or leave it out (one fewer), and --win names it; without
--win the last tile written is the winning tile. Ron unless --tsumo. Seat and round default to East.

Example: mjcli score 234m456p678s11222z --win 2z --tsumo

Example: mjcli score 345m222s66p567s --melds chi:678p --win 5m --tsumo --seat S
"""


def read_hand(hand: str, win: str | None, melds: Sequence[Meld]) -> tuple[list[int], int]:
    """The concealed tiles (winning tile included) and the winning tile, from the command's inputs."""
    tiles = parse_tiles(hand)
    check_counts(tiles, f"hand '{hand}'")  # five copies or a doubled red five first: the clearest error
    full = 14 - 3 * len(melds)
    if len(tiles) == full - 1:
        if win is None:
            raise UsageError(f"hand '{hand}' has {len(tiles)} tiles: name the winning tile with --win")
        win_tile = parse_tile(win)
        tiles.append(win_tile)
    elif len(tiles) == full:
        win_tile = parse_tile(win) if win is not None else tiles[-1]
    else:
        raise InvalidHandError(
            f"hand '{hand}' has {len(tiles)} concealed tiles; with {len(melds)} meld(s) write {full} "
            f"(winning tile included) or {full - 1} and --win"
        )
    return tiles, win_tile


def format_result(
    result: ScoreResult,
    concealed: Sequence[int],
    win_tile: int,
    melds: Sequence[Meld],
    ctx: WinContext,
    rules: Rules,
) -> str:
    """The human explanation, in the order of seed 004: han, fu, base points, payments."""
    how = "tsumo" if ctx.tsumo else "ron"
    role = "dealer" if ctx.dealer else "non-dealer"
    out = [
        f"hand    {hand_label(concealed, melds)}  (win {tile_name(win_tile)}, {how})",
        f"seat    {WIND_NAMES[ctx.seat_wind]} ({role}), round {WIND_NAMES[ctx.round_wind]}",
        f"rules   {rules.name}",
        "",
        "yaku",
    ]
    labels = [name for _, name, _ in result.yaku] + [reason for reason, _ in result.fu_details]
    width = max(len(label) for label in labels) + 2
    for _, name, han in result.yaku:
        out.append(f"  {name:<{width}}{han:>4} han")
    out.append(f"  {'total':<{width}}{result.han:>4} han")
    out.append("")
    out.append("fu")
    if result.fu_details:
        for reason, fu in result.fu_details:
            out.append(f"  {reason:<{width}}{fu:>4}")
        raw = result.fu_raw
        if raw == result.fu:
            out.append(f"  {'total':<{width}}{result.fu:>4}")
        else:
            out.append(f"  {'total':<{width}}{raw:>4} -> rounded up to {result.fu}")
    else:
        out.append("  none: kokushi musou has no sets to count")
    for note in result.notes:
        out.append(f"  note: {note}")
    out.append("")
    out.append(f"base points  {describe_base(result)}")
    out.append("")
    out.append(f"payments ({role} {how})")
    lines = describe_payments(result, rules)
    pw = max([len(p) for p, _, _ in lines] + ([len("riichi sticks")] if result.sticks else [])) + 2
    aw = max(len(a) for _, a, _ in lines) + 2
    for payer, arithmetic, amount in lines:
        out.append(f"  {payer:<{pw}}{arithmetic:<{aw}}{amount:>7}")
    if result.sticks:
        stick = rules.riichi_stick
        sticks_text = f"{result.sticks} x {stick}"
        out.append(f"  {'riichi sticks':<{pw}}{sticks_text:<{aw}}{result.sticks * stick:>7}")
    extras = []
    if result.honba:
        extras.append(f"honba {result.honba}")
    if result.sticks:
        extras.append(f"sticks {result.sticks}")
    suffix = f" (hand {result.hand_value}, with {', '.join(extras)})" if extras else ""
    limit = f", {result.limit}" if result.limit else ""
    out.append("")
    out.append(f"total   {result.total}{suffix}   [{result.han} han {result.fu} fu{limit}]")
    return "\n".join(out)


def register(app: typer.Typer) -> None:
    @app.command("score", help=HELP, no_args_is_help=True)
    def score(
        hand: str = typer.Argument(..., help="Concealed tiles in mpsz, e.g. 234m456p678s11222z."),
        win: str | None = typer.Option(None, "--win", "-w", help="The winning tile (e.g. 2z, 0p)."),
        tsumo: bool = typer.Option(False, "--tsumo", help="Won by self-draw (default: ron)."),
        riichi: bool = typer.Option(False, "--riichi", help="Riichi declared."),
        double_riichi: bool = typer.Option(False, "--double-riichi", help="Double riichi declared."),
        ippatsu: bool = typer.Option(False, "--ippatsu", help="Won within one go-around of riichi."),
        rinshan: bool = typer.Option(False, "--rinshan", help="Won on the replacement tile after a kan."),
        chankan: bool = typer.Option(False, "--chankan", help="Won by robbing a kan."),
        haitei: bool = typer.Option(False, "--haitei", help="Tsumo on the last tile of the wall."),
        houtei: bool = typer.Option(False, "--houtei", help="Ron on the last discard."),
        tenhou: bool = typer.Option(False, "--tenhou", help="Dealer's win on the first draw."),
        chiihou: bool = typer.Option(False, "--chiihou", help="Non-dealer's win on the first draw."),
        melds: str = typer.Option(
            "", "--melds", "-m", help='Declared melds: "pon:555z,chi:234m,ankan:1111p,kan:9999s,kakan:0555p".'
        ),
        dora: str = typer.Option("", "--dora", help="Dora indicators (the tiles shown), mpsz."),
        ura: str = typer.Option("", "--ura", help="Ura dora indicators, mpsz (count with riichi only)."),
        seat: str = typer.Option("E", "--seat", help="Seat wind E|S|W|N (East is the dealer)."),
        round_: str = typer.Option("E", "--round", help="Round wind E|S|W|N."),
        honba: int = typer.Option(0, "--honba", min=0, help="Honba counters (300 points each)."),
        sticks: int = typer.Option(0, "--sticks", min=0, help="Riichi sticks on the table (1000 each)."),
        rules_name: str = typer.Option("tenhou", "--rules", help=f"Rule-set preset ({', '.join(PRESETS)})."),
        as_json: bool = typer.Option(False, "--json", help="One JSON object instead of the explanation."),
    ) -> None:
        rules = get_rules(rules_name)
        meld_list = parse_melds(melds)
        concealed, win_tile = read_hand(hand, win, meld_list)
        ctx = WinContext(
            tsumo=tsumo,
            riichi=riichi,
            double_riichi=double_riichi,
            ippatsu=ippatsu,
            rinshan=rinshan,
            chankan=chankan,
            haitei=haitei,
            houtei=houtei,
            tenhou=tenhou,
            chiihou=chiihou,
            seat_wind=wind_from_letter(seat),
            round_wind=wind_from_letter(round_),
            honba=honba,
            sticks=sticks,
            dora_indicators=tuple(parse_tiles(dora)),
            ura_indicators=tuple(parse_tiles(ura)),
        )
        result = score_hand(concealed, win_tile, meld_list, ctx, rules)
        if as_json:
            payload: dict[str, object] = {
                "hand": hand_label(concealed, meld_list),
                "win": tile_name(win_tile),
                "melds": [f"{m.kind}:{''.join(hand_label(m.tiles, []))}" for m in meld_list],
                "seat": "ESWN"[ctx.seat_wind],
                "round": "ESWN"[ctx.round_wind],
                "rules": rules.name,
            }
            payload.update(result.to_dict())
            emit_json(payload)
        else:
            typer.echo(format_result(result, concealed, win_tile, meld_list, ctx, rules))
