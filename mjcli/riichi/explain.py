"""A scored win explained in words, the way seed 004 teaches the arithmetic: han, fu, base points,
payments (the text of ``mjcli score``)."""

from __future__ import annotations

from collections.abc import Sequence

from mjcli.melds import Meld
from mjcli.riichi.rules import Rules
from mjcli.riichi.scoring import (
    ScoreResult,
    WinContext,
    absent_half,
    hand_label,
    payment_shares,
    round_up_100,
)
from mjcli.tiles import tile_name

WIND_NAMES = ("East", "South", "West", "North")


def describe_base(result: ScoreResult) -> str:
    """One line: the base-points formula, or the limit and why."""
    han, fu = result.han, result.fu
    if result.yakuman:
        return f"{result.limit}: base {result.base_points} ({result.yakuman} x 8000)"
    if result.limit is None:
        return f"{fu} x 2^({han}+2) = {result.base_points}"
    if han < 5:
        raw = fu * 2 ** (han + 2)
        if raw > 2000:
            return f"{fu} x 2^({han}+2) = {raw} > 2000: mangan, base 2000"
        return f"{han} han {fu} fu ({raw}) rounded up to mangan (kiriage), base 2000"
    return f"{han} han: {result.limit}, base {result.base_points}"


def describe_payments(result: ScoreResult, rules: Rules) -> list[tuple[str, str, int]]:
    """(payer, arithmetic, amount) lines: share x base rounded up to 100, plus honba."""
    out = []
    three = rules.players == 3
    names = {
        "discarder": "discarder",
        "each": "each other player",
        "dealer": "dealer",
        "non_dealer": "the other non-dealer" if three else "each non-dealer",
    }
    per_honba = rules.honba_points if not result.tsumo else rules.honba_tsumo_points
    split = three and rules.absent_share == "split" and result.tsumo
    for role, mult in payment_shares(result.dealer, result.tsumo).items():
        raw = int(mult) * result.base_points
        text = f"{int(mult)} x {result.base_points} = {raw}"
        rounded = round_up_100(raw)
        if rounded != raw:
            text += f" -> {rounded}"
        if split:
            north = round_up_100(result.base_points * (2 if result.dealer else 1))
            text += f" + {absent_half(result.base_points, result.dealer)} (half North's {north})"
        if result.honba:
            text += f" + {result.honba} honba x {per_honba}"
        out.append((names[role], text, result.payments[role]))
    return out


def explain(
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
        f"seat    {WIND_NAMES[ctx.seat_wind]} ({role}), round {WIND_NAMES[ctx.round_wind]}"
        + (f", kita {ctx.kita} (Norths set aside)" if ctx.kita else ""),
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
        # Seed 004: "不是3+3+3+3+2形式的和牌,一律记作25符。这里不是3+3+3+3+2形式的和牌包括“七对子”
        # “国士无双”" (a hand not four sets and a pair, seven pairs or kokushi, is a fixed 25 fu). The
        # fu figure stays the mahjong library's (0 for kokushi); a yakuman's points need none.
        out.append("  kokushi musou: not four sets and a pair, a fixed 25 fu in seed 004")
        out.append("  (the mahjong library counts none: 0; a yakuman's points need no fu)")
    for note in result.notes:
        out.append(f"  note: {note}")
    out.append("")
    out.append(f"base points  {describe_base(result)}")
    out.append("")
    out.append(f"payments ({role} {how})")
    if rules.players == 3 and ctx.tsumo:
        if rules.absent_share == "split":
            out.append(
                "  (three players: each payer adds half the absent North's payment, rounded up to 100)"
            )
        else:
            out.append("  (three players: the absent North's share is not paid, tsumo-son)")
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
