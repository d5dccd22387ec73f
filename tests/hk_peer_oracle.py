"""Score Hong Kong hands with PyPI ``hk-mahjong`` 0.1.0 (a test-only peer: run by
``tests/test_hk_peer.py`` with the Python of ``.venv-peers/hk``, which ``make peers`` creates).

Reads one JSON hand per line on stdin and writes one JSON line per hand: ``{"faan": total,
"items": [[name, faan], ...], "limit": bool}`` (the best over the package's decompositions, as its
own game does), or ``null`` when the package finds no winning decomposition. A hand is
``{"concealed": mpsz with the winning tile, "win": tile, "melds": ["pon:111m", "chi:234p",
"kan:5555s"], "tsumo", "flowers", "seasons", "seat", "prevailing" (0-3), "last", "replacement",
"robbing"}``. mpsz honours: 1-4z = East South West North, 5z White, 6z Green, 7z Red.
"""

import json
import re
import sys

from hk_mahjong.core.meld import make_chow, make_kong, make_pong
from hk_mahjong.core.scoring import ScoringContext, score_hand
from hk_mahjong.core.tiles import (
    BonusType,
    Dragon,
    Suit,
    Wind,
    make_bonus,
    make_dragon,
    make_suited,
    make_wind,
)
from hk_mahjong.core.win_check import check_win

SUIT = {"m": Suit.CHARACTERS, "p": Suit.DOTS, "s": Suit.BAMBOO}
WINDS = [Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH]
HONOUR = {
    1: make_wind(Wind.EAST),
    2: make_wind(Wind.SOUTH),
    3: make_wind(Wind.WEST),
    4: make_wind(Wind.NORTH),
    5: make_dragon(Dragon.WHITE),
    6: make_dragon(Dragon.GREEN),
    7: make_dragon(Dragon.RED),
}


def tiles(text):
    out = []
    for digits, suit in re.findall(r"(\d+)([mpsz])", text):
        for d in digits:
            out.append(HONOUR[int(d)] if suit == "z" else make_suited(SUIT[suit], int(d)))
    return out


def meld(text):
    kind, body = text.split(":")
    t = tiles(body)
    if kind == "chi":
        return make_chow(*t)
    if kind == "pon":
        return make_pong(t[0])
    return make_kong(t[0], concealed=kind == "ankan")


def score(hand):
    concealed = tiles(hand["concealed"])
    melds = [meld(m) for m in hand["melds"]]
    bonus = [make_bonus(BonusType.FLOWER, n) for n in hand["flowers"]]
    bonus += [make_bonus(BonusType.SEASON, n) for n in hand["seasons"]]
    best = None
    for d in check_win(concealed, melds):
        ctx = ScoringContext(
            decomposition=d,
            exposed_melds=melds,
            concealed_tiles=concealed,
            bonus_tiles=bonus,
            winning_tile=tiles(hand["win"])[0],
            self_drawn=hand["tsumo"],
            seat_wind=WINDS[hand["seat"]],
            prevailing_wind=WINDS[hand["prevailing"]],
            is_last_tile=hand["last"],
            is_kong_replacement=hand["replacement"],
            is_robbing_kong=hand["robbing"],
        )
        r = score_hand(ctx)
        if best is None or r.total_faan > best.total_faan:
            best = r
    if best is None:
        return None
    return {"faan": best.total_faan, "items": [[i.name, i.faan] for i in best.items], "limit": best.is_limit}


for line in sys.stdin:
    if line.strip():
        print(json.dumps(score(json.loads(line))))
