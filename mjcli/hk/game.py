"""Hong Kong's and Red's entries in the ``--game`` table (:data:`GAME` and :data:`RED`): the options
each command takes, their defaults, and the body of each command (options in, output printed,
exit code out). Red is the same engine under the ``red`` rule set (four jokers), so each body takes
the preset's name; the two entries differ only in it and in their default policies.

Heavy modules are imported inside the bodies, so that reading this table (for ``--help``) costs
nothing.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

from mjcli.errors import UsageError
from mjcli.games import Command, GameEntry
from mjcli.output import emit_json, terminal_bar
from mjcli.runner import jobs_for

HK_PLAYERS = "hk-pm0,hk-pm8,hk-pm16,hk-pm16plus"
RED_PLAYERS = "red-pm0,red-pm12,red-pm12plus"


def _rules(preset: str, min_faan: int | None = None, payment: str | None = None, strict: bool = False) -> Any:
    from mjcli.hk.rules import get_rules

    rules = get_rules(preset).with_options(min_faan=min_faan, payment=payment)
    return rules.with_options(bonus_counts=False) if strict else rules


# ---------------------------------------------------------------- score


def score(
    preset: str,
    hand: str,
    win: str | None,
    tsumo: bool,
    rinshan: bool,
    double_rinshan: bool,
    chankan: bool,
    haitei: bool,
    houtei: bool,
    tenhou: bool,
    chiihou: bool,
    melds: str,
    seat: str,
    round_: str,
    flowers: str | None,
    seasons: str | None,
    min_faan: int | None,
    payment: str | None,
    min_without_bonus: bool,
    as_json: bool,
) -> int:
    from mjcli.hk.report import score_json, score_text
    from mjcli.hk.scoring import score_typed

    if haitei and not tsumo:
        raise UsageError("--haitei is the last tile drawn from the wall: add --tsumo (or use --houtei)")
    if houtei and tsumo:
        raise UsageError("--houtei is a win on the last discard: drop --tsumo (or use --haitei)")
    typed = score_typed(
        hand,
        win,
        _rules(preset, min_faan, payment, min_without_bonus),
        melds=melds,
        seat=seat,
        round_wind=round_,
        flowers=flowers,
        seasons=seasons,
        self_drawn=tsumo,
        last_tile=haitei or houtei,
        kong_replacement=rinshan or double_rinshan,
        double_kong_replacement=double_rinshan,
        robbing_kong=chankan,
        heavenly=tenhou,
        earthly=chiihou,
    )
    if as_json:
        emit_json(score_json(typed))
    else:
        print(score_text(typed))
    return 0


# ---------------------------------------------------------------- shanten


def shanten(preset: str, hands: list[str], seen: str, shanten_only: bool, as_json: bool) -> int:
    from mjcli.hk.notation import parse_hand
    from mjcli.hk.report import analyse, shanten_text
    from mjcli.hk.rules import get_rules

    jokers = get_rules(preset).red
    if "-" in hands:
        if len(hands) > 1:
            raise UsageError("'-' (read hands from stdin) cannot be mixed with hands on the command line")
        hands = [line.strip() for line in sys.stdin if line.strip()]
    seen_counts = [0] * 34
    for c in parse_hand(seen):
        seen_counts[c] += 1
    results = [analyse(h, jokers, seen_counts, shanten_only) for h in hands]
    if as_json:
        for r in results:
            emit_json(r.to_json())
    elif results:
        print(shanten_text(results, shanten_only))
    return 0


# ---------------------------------------------------------------- the table entries

_SCORE_HELP = """{title} (--game {name}): HAND is the concealed tiles in mpsz (1z-7z = E S W N White Green
Red{jokers}), with the winning tile (14 tiles, 3 fewer per meld; --win names it, default the last
written) or without it (then --win). Won on a discard unless --tsumo; --melds pon:111z,chi:456s,
kan:5555p,ankan:9999s,kakan:2222m; --seat (E = dealer) and --round default to East; bonus tiles held
as numbers: --flowers 1,3 --seasons 2 (tile n belongs to seat wind n: 1 East ... 4 North). Win
conditions: --rinshan (kong replacement), --double-rinshan, --chankan (robbing a kong), --haitei (the
last wall tile, self-drawn), --houtei (the last discard), --tenhou (heavenly), --chiihou (earthly).
Table: --min-faan (default 3), --min-without-bonus (bonus faan do not count toward it), --payment
half-gun|full-gun|half-spicy|simplified. A hand below the minimum is refused (exit 2).

Example: mjcli score --game {name} 999s777z22s --win 2s --melds pon:111m,pon:555p"""

_SHANTEN_HELP = """{title} (--game {name}): hands in mpsz{jokers}. Winning shapes are four sets and a pair
and thirteen orphans (seven pairs is not one). A hand of 13 tiles (10, 7, 4, 1 beside melds) gets
its shanten and the tiles that lower it; a hand of 14 (11, 8, 5, 2) a row per discard. '-' reads
hands from stdin.

Example: mjcli shanten --game {name} 123m456p789s1135z"""


def _entry(name: str, title: str, players: str, jokers: str) -> GameEntry:
    fmt = {"name": name, "title": title, "jokers": jokers}
    return GameEntry(
        name=name,
        title=title,
        commands={
            "score": Command(
                functools.partial(score, name),
                help=_SCORE_HELP.format(**fmt),
                options={
                    "hand": None,
                    "win": None,
                    **dict.fromkeys(
                        (
                            "tsumo",
                            "rinshan",
                            "double_rinshan",
                            "chankan",
                            "haitei",
                            "houtei",
                            "tenhou",
                            "chiihou",
                        ),
                        False,
                    ),
                    "melds": "",
                    "seat": "E",
                    "round_": "E",
                    "flowers": None,
                    "seasons": None,
                    "min_faan": None,
                    "payment": None,
                    "min_without_bonus": False,
                    "as_json": False,
                },
            ),
            "shanten": Command(
                functools.partial(shanten, name),
                help=_SHANTEN_HELP.format(**fmt),
                options={"hands": None, "seen": "", "shanten_only": False, "as_json": False},
            ),
        },
    )


GAME = _entry("hk", "Hong Kong mahjong (Old Style)", HK_PLAYERS, "")
RED = _entry("red", "Red mahjong (Hong Kong with four jokers)", RED_PLAYERS, "; J = a joker")

__all__ = ["GAME", "RED", "Path", "jobs_for", "terminal_bar"]
