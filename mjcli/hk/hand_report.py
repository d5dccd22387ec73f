"""Hong Kong hands for the eyes: a scored hand explained (``mjcli score --game hk``) and the
shanten table (``mjcli shanten --game hk``): shanten, the improving tiles and every discard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mjcli.errors import InvalidHandError
from mjcli.hk.notation import JOKER, RED_JOKERS, counts_text, hand_text, parse_hand, tile_text
from mjcli.hk.rules import base_points
from mjcli.hk.scoring import WIND_NAMES, TypedHand
from mjcli.hk.shape import shanten
from mjcli.output import format_table
from mjcli.tiles import NUM_KINDS, to_mpsz

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


# ---------------------------------------------------------------- score


def payments(typed: TypedHand) -> dict[str, object]:
    """What each loser pays under the rules' scheme (the winner gets the sum)."""
    scheme = typed.rules.scheme
    p = base_points(typed.score.faan, scheme)
    if typed.ctx.self_drawn:
        each = {"each": scheme.self_drawn * p}
        total = 3 * scheme.self_drawn * p
    else:
        each = {"discarder": scheme.discarder * p, "others": scheme.others * p}
        total = (scheme.discarder + 2 * scheme.others) * p
    return {"scheme": scheme.name, "base": p, "payments": each, "total": total}


def score_json(typed: TypedHand) -> dict[str, object]:
    out: dict[str, object] = {
        "hand": typed.label(),
        "win": tile_text(typed.win_tile),
        "melds": [f"{m.kind}:{to_mpsz(m.tiles)}" for m in typed.melds],
        "seat": "ESWN"[typed.ctx.seat_wind],
        "round": "ESWN"[typed.ctx.prevailing_wind],
        "flowers": list(typed.ctx.flowers),
        "seasons": list(typed.ctx.seasons),
        "tsumo": typed.ctx.self_drawn,
        "rules": typed.rules.name,
        "min_faan": typed.rules.min_faan,
    }
    out.update(typed.score.to_dict())
    out.update(payments(typed))
    return out


def score_text(typed: TypedHand) -> str:
    ctx, rules, s = typed.ctx, typed.rules, typed.score
    how = "self-drawn" if ctx.self_drawn else "on a discard"
    dealer = "dealer" if ctx.seat_wind == 0 else "non-dealer"
    bonus = []
    if ctx.flowers:
        bonus.append("flowers " + ",".join(map(str, ctx.flowers)))
    if ctx.seasons:
        bonus.append("seasons " + ",".join(map(str, ctx.seasons)))
    lines = [
        f"hand    {typed.label()}  (win {tile_text(typed.win_tile)}, {how})",
        f"seat    {WIND_NAMES[ctx.seat_wind]} ({dealer}), round {WIND_NAMES[ctx.prevailing_wind]}"
        + (f"; {', '.join(bonus)}" if bonus else ""),
        f"table   {rules.describe()}",
        "",
        "split   " + ", ".join(g.text() for g in sorted(s.groups, key=lambda g: (g.shape == "pair", g.kind)))
        if s.groups
        else "split   thirteen orphans",
        "",
        "faan",
    ]
    width = max([len(n) for _, n, _ in s.items] + [5])
    for _, name, f in s.items:
        lines.append(f"  {name:<{width}}  {f:>3}")
    total = f"{s.faan}" + (" (limit)" if s.limit else "")
    if s.raw != s.faan and not s.limit:
        total += f" (cut from {s.raw} to the cap)"
    lines.append(f"  {'total':<{width}}  {total:>3}")
    pay = payments(typed)
    p = pay["base"]
    scheme = rules.scheme
    lines += ["", f"payments ({scheme.name}, base {p} for {s.faan} faan)"]
    if ctx.self_drawn:
        lines.append(f"  each loser   {scheme.self_drawn} x {p} = {scheme.self_drawn * p}")
    else:
        lines.append(f"  discarder    {scheme.discarder} x {p} = {scheme.discarder * p}")
        lines.append(f"  each other   {scheme.others} x {p} = {scheme.others * p}")
    lines += ["", f"total   {pay['total']} to the winner"]
    return "\n".join(lines)


# ---------------------------------------------------------------- shanten


@dataclass
class ShantenResult:
    label: str
    size: int
    shanten: int
    ukeire: int = 0
    tiles: list[int] = field(default_factory=list)
    discards: list[dict[str, object]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"hand": self.label, "size": self.size, "shanten": self.shanten}
        if self.size % 3 == 1:
            out.update({"ukeire": self.ukeire, "tiles": hand_text(self.tiles)})
        else:
            out["discards"] = self.discards
        return out


def read_hand(text: str, jokers: bool) -> tuple[list[int], int]:
    codes = parse_hand(text, jokers=jokers)
    if len(codes) not in SIZES:
        raise InvalidHandError(
            f"hand '{text}' has {len(codes)} tiles; expected {', '.join(map(str, SIZES))} (3 fewer per meld)"
        )
    counts = [0] * NUM_KINDS
    for c in codes:
        if c != JOKER:
            counts[c] += 1
    return counts, codes.count(JOKER)


def _improving(
    counts: list[int], jokers: int, melds: int, unseen: Sequence[int], base: int, jokers_left: int = 0
) -> tuple[int, list[int]]:
    """The tiles that lower ``counts``' shanten below ``base`` (kinds, and :data:`JOKER` when a
    Red joker is still to be drawn: ``jokers_left``), and their copies still to be drawn."""
    tiles, total = [], 0
    for k in range(NUM_KINDS):
        left = unseen[k]
        if left <= 0:
            continue
        counts[k] += 1
        if shanten(counts, jokers, melds) < base:
            tiles.append(k)
            total += left
        counts[k] -= 1
    # a joker drawn stands for any tile (the Red design, mjcli/hk/rules.py point 2), so it improves
    # any hand another tile improves: it is one of the improving tiles while one is left to draw
    if jokers_left > 0 and shanten(counts, jokers + 1, melds) < base:
        tiles.append(JOKER)
        total += jokers_left
    return total, tiles


def analyse(
    text: str, jokers: bool, seen: Sequence[int], shanten_only: bool, seen_jokers: int = 0
) -> ShantenResult:
    counts, j = read_hand(text, jokers)
    if j + seen_jokers > RED_JOKERS:
        raise InvalidHandError(
            f"hand '{text}' and --seen together hold {j + seen_jokers} jokers; the Red set has {RED_JOKERS}"
        )
    for k in range(NUM_KINDS):
        if counts[k] + seen[k] > 4:
            raise InvalidHandError(f"hand '{text}' and --seen together have more than 4 of {tile_text(k)}")
    size = sum(counts) + j
    melds = (14 - size) // 3
    value = shanten(counts, j, melds)
    result = ShantenResult(counts_text(counts, j), size, value)
    if shanten_only:
        return result
    # the copies still to be drawn are counted against the hand as given: for 14 tiles, the one
    # discarded lies in the river and is no copy left (README "four copies less those in the
    # hand", as riichi's table counts: 11m234p567p789s567z, discard 2p, 2p has 3 left, not 4)
    unseen = [4 - counts[k] - seen[k] for k in range(NUM_KINDS)]
    jokers_left = RED_JOKERS - j - seen_jokers if jokers else 0
    if size % 3 == 1:
        result.ukeire, result.tiles = _improving(counts, j, melds, unseen, value, jokers_left)
        return result
    rows = []
    for k in [k for k in range(NUM_KINDS) if counts[k]] + ([JOKER] if j else []):
        if k == JOKER:
            after = shanten(counts, j - 1, melds)
            total, tiles = _improving(counts, j - 1, melds, unseen, after, jokers_left)
        else:
            counts[k] -= 1
            after = shanten(counts, j, melds)
            total, tiles = _improving(counts, j, melds, unseen, after, jokers_left)
            counts[k] += 1
        rows.append({"tile": tile_text(k), "shanten": after, "ukeire": total, "tiles": hand_text(tiles)})
    rows.sort(key=lambda r: (r["shanten"], -r["ukeire"]))  # type: ignore[operator]
    result.discards = rows
    return result


def shanten_text(results: Sequence[ShantenResult], shanten_only: bool) -> str:
    blocks: list[str] = []
    short = [r for r in results if shanten_only or r.size % 3 == 1]
    if short:
        if shanten_only:
            blocks.append(format_table(["hand", "shanten"], [[r.label, r.shanten] for r in short], "lr"))
        else:
            rows = [[r.label, r.shanten, r.ukeire, hand_text(r.tiles)] for r in short]
            blocks.append(format_table(["hand", "shanten", "ukeire", "tiles"], rows, "lrrl"))
    for r in results:
        if shanten_only or r.size % 3 == 1:
            continue
        state = {-1: "complete", 0: "tenpai"}.get(r.shanten, f"shanten {r.shanten}")
        rows = [[d["tile"], d["shanten"], d["ukeire"], d["tiles"]] for d in r.discards]
        blocks.append(
            f"{r.label}  ({r.size} tiles, {state})\n"
            + format_table(["discard", "shanten", "ukeire", "tiles"], rows, "lrrl")
        )
    return "\n\n".join(blocks)


__all__ = ["ShantenResult", "analyse", "payments", "score_json", "score_text", "shanten_text"]
