"""What each Hong Kong (or Red) policy would do with a hand on its own turn, and why.

The hand is typed as on the command line: the concealed tiles in mpsz (``J`` for a Red joker),
the last tile written being the one just drawn, 14 tiles less 3 per meld of ``--melds``; the
table around it: ``--seen`` (tiles exposed elsewhere: rivers and other players' melds), the seat
and prevailing winds, the bonus tiles held (``--flowers``/``--seasons``), the minimum faan. The
wall is taken as not empty (kongs are possible). Beside the policies' answers: every discard with
the shanten it leaves and its improving tiles (:mod:`mjcli.hk.hand_report`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjcli.errors import InvalidHandError
from mjcli.hk.engine import SeatView
from mjcli.hk.engine.actions import AKONG, CKONG, DISCARD, WIN, Move
from mjcli.hk.hand_report import analyse
from mjcli.hk.notation import (
    FLOWER_BASE,
    JOKER,
    SEASON_BASE,
    counts_text,
    hand_text,
    parse_bonus_numbers,
    parse_hand,
    tile_text,
)
from mjcli.hk.policies import get_policy
from mjcli.hk.rules import HKRules
from mjcli.hk.scoring import WinContext, score_counts
from mjcli.hk.shape import is_complete
from mjcli.melds import parse_melds
from mjcli.output import format_table, plural
from mjcli.plugins import Registry
from mjcli.tiles import NUM_KINDS, check_counts, to_mpsz, wind_from_letter

#: the wall's size assumed for a typed hand (any number above 0: kongs stay possible)
NOMINAL_WALL = 60


def build_view(
    hand: str,
    rules: HKRules,
    *,
    melds: str = "",
    seen: str = "",
    seat: str = "E",
    round_wind: str = "E",
    flowers: str | None = None,
    seasons: str | None = None,
) -> tuple[SeatView, list[Move]]:
    """The view of a typed hand on its own turn, and its legal moves."""
    meld_list = parse_melds(melds)
    codes = parse_hand(hand, jokers=rules.red, max_jokers=rules.jokers)
    size = 14 - 3 * len(meld_list)
    if len(codes) != size:
        raise InvalidHandError(
            f"hand '{hand}' has {len(codes)} tiles; with {plural(len(meld_list), 'meld')} a hand to play "
            f"has {size} (the last one written is the tile just drawn)"
        )
    # a joker seen (a discarded one: Red lets a joker be discarded) is a Red tile like any other
    seen_all = parse_hand(seen, jokers=rules.red, max_jokers=rules.jokers, what=f"--seen '{seen}'")
    seen_codes = [c for c in seen_all if c != JOKER]
    held = codes.count(JOKER) + len(seen_all) - len(seen_codes)
    if held > rules.jokers:
        raise InvalidHandError(
            f"hand '{hand}' and --seen '{seen}' together hold {held} jokers; the Red set has {rules.jokers}"
        )
    everything = [c for c in codes if c != JOKER] + [t for m in meld_list for t in m.tiles] + seen_codes
    check_counts(everything, f"hand '{hand}' with its melds and --seen", red_fives=False)
    counts = [0] * NUM_KINDS
    for c in codes:
        if c != JOKER:
            counts[c] += 1
    jokers = codes.count(JOKER)
    own = [0] * NUM_KINDS
    for m in meld_list:
        for t in m.tiles:
            own[t] += 1
    visible = list(own)
    for c in seen_codes:
        visible[c] += 1
    bonus = tuple(FLOWER_BASE + n - 1 for n in parse_bonus_numbers(flowers, "--flowers")) + tuple(
        SEASON_BASE + n - 1 for n in parse_bonus_numbers(seasons, "--seasons")
    )
    seat_wind, prevailing = wind_from_letter(seat), wind_from_letter(round_wind)
    view = SeatView(
        seat=seat_wind,
        seat_wind=seat_wind,
        prevailing_wind=prevailing,
        dealer=0,
        phase="turn",
        hand=counts,
        jokers=jokers,
        drawn=codes[-1],
        after_call=False,
        melds=meld_list,
        bonus=bonus,
        all_melds=[meld_list if s == seat_wind else [] for s in range(4)],
        rivers=[[], [], [], []],
        visible=visible,
        own_meld_counts=own,
        wall_left=NOMINAL_WALL,
        offer=None,
        rules=rules,
    )
    return view, legal_moves(view)


def legal_moves(view: SeatView) -> list[Move]:
    """The moves of a hand on its own turn (as the engine lists them)."""
    counts, rules = list(view.hand), view.rules
    moves: list[Move] = []
    if is_complete(counts, view.jokers, len(view.melds)):
        ctx = WinContext(
            self_drawn=True,
            seat_wind=view.seat_wind,
            prevailing_wind=view.prevailing_wind,
            flowers=tuple(sorted(b - FLOWER_BASE + 1 for b in view.bonus if b < SEASON_BASE)),
            seasons=tuple(sorted(b - SEASON_BASE + 1 for b in view.bonus if b >= SEASON_BASE)),
        )
        score = score_counts(counts, view.jokers, view.melds, ctx, rules)
        if score is not None and score.legal(rules.min_faan) and view.drawn is not None:
            moves.append(WIN[view.drawn])
    moves += [CKONG[k] for k, n in enumerate(counts) if n == 4]
    moves += [AKONG[m.kind34] for m in view.melds if m.kind == "pon" and counts[m.kind34]]
    moves += [DISCARD[k] for k, n in enumerate(counts) if n]
    if view.jokers:
        moves.append(DISCARD[JOKER])
    return moves


def advise_hand(
    hand: str, rules: HKRules, policies: Sequence[str], registry: Registry | None = None, **table: Any
) -> dict[str, Any]:
    """Each policy's move for ``hand`` on its own turn (``registry``: where the names come from, by
    default the built-ins)."""
    view, legal = build_view(hand, rules, **table)
    answers = []
    for name in policies:
        move, reason = get_policy(name, registry).decide(view, legal)
        answers.append(
            {"policy": name, "action": move.text(), "tile": tile_text(move.tile), "reason": reason}
        )
    typed = counts_text(view.hand, view.jokers)
    codes = parse_hand(hand, jokers=rules.red, max_jokers=rules.jokers)
    # the discard table's copies left are the unseen ones, as `shanten --seen` counts them: less
    # the tiles of --seen and of the hand's own melds (view.visible holds both), and the jokers seen
    seen_jokers = parse_hand(table.get("seen") or "", jokers=rules.red, max_jokers=rules.jokers).count(JOKER)
    report = analyse(hand_text(codes), rules.red, view.visible, False, seen_jokers)
    return {
        "hand": typed,
        "drawn": tile_text(view.drawn) if view.drawn is not None else None,
        "melds": [f"{m.kind}:{to_mpsz(m.tiles)}" for m in view.melds],
        "seat": "ESWN"[view.seat_wind],
        "round": "ESWN"[view.prevailing_wind],
        "min_faan": rules.min_faan,
        "shanten": report.shanten,
        "policies": answers,
        "discards": report.discards,
    }


def render(result: dict[str, Any]) -> str:
    state = {-1: "complete", 0: "tenpai"}.get(result["shanten"], f"shanten {result['shanten']}")
    melds = f"  melds {','.join(result['melds'])}" if result["melds"] else ""
    lines = [
        f"hand {result['hand']}  drawn {result['drawn']}{melds}  seat {result['seat']}  "
        f"round {result['round']}  minimum {result['min_faan']} faan  {state}",
        "",
        format_table(
            ["policy", "action", "reason"],
            [[a["policy"], a["action"], a["reason"]] for a in result["policies"]],
        ),
    ]
    if result["discards"]:
        rows = [[d["tile"], d["shanten"], d["ukeire"], d["tiles"]] for d in result["discards"]]
        lines += ["", format_table(["discard", "shanten", "ukeire", "tiles"], rows, "lrrl")]
    return "\n".join(lines)
