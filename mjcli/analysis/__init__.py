"""Pure hand analysis on 34 tile-kind counts: shanten (one hand or a numpy batch), ukeire, discards.

>>> from mjcli.tiles import counts34, parse_tiles
>>> shanten(counts34(parse_tiles("123m456p789s1122z")))  # shanpon wait: tenpai
0
>>> [k for k, left in ukeire(counts34(parse_tiles("123m456p789s1122z"))).tiles]  # 1z, 2z
[27, 28]

Numbers are those of `mahjong`'s ``Shanten.calculate_shanten`` (-1 complete, 0 tenpai); see
:mod:`mjcli.analysis.shanten_calc` for the fast paths, :mod:`mjcli.analysis.tables` for the tables
and :mod:`mjcli.analysis.ukeire` for what counts as an improving tile. Three-player hands (no
2m-8m) have :func:`shanten_sanma` and ``sanma=True`` on the others: the tables are the same, the
manzu (1m and 9m alone) are looked up as two honour-like kinds.
"""

from mjcli.analysis.shanten_calc import (
    AGARI,
    HAND_SIZES,
    SANMA_ABSENT,
    TENPAI,
    shanten,
    shanten_batch,
    shanten_regular,
    shanten_sanma,
)
from mjcli.analysis.ukeire import NO_DRAW, DiscardOption, Ukeire, discard_table, draw_table_batch, ukeire

__all__ = [
    "AGARI",
    "HAND_SIZES",
    "SANMA_ABSENT",
    "TENPAI",
    "NO_DRAW",
    "DiscardOption",
    "Ukeire",
    "discard_table",
    "draw_table_batch",
    "shanten",
    "shanten_batch",
    "shanten_regular",
    "shanten_sanma",
    "ukeire",
]
