"""Pure hand analysis on 34 tile-kind counts: shanten (one hand or a numpy batch), ukeire, discards.

>>> from mjcli.tiles import counts34, parse_tiles
>>> shanten(counts34(parse_tiles("123m456p789s1122z")))
1
"""

from mjcli.analysis.shanten_calc import AGARI, HAND_SIZES, TENPAI, shanten, shanten_batch, shanten_regular
from mjcli.analysis.ukeire import DiscardOption, Ukeire, discard_table, ukeire

__all__ = [
    "AGARI",
    "HAND_SIZES",
    "TENPAI",
    "DiscardOption",
    "Ukeire",
    "discard_table",
    "shanten",
    "shanten_batch",
    "shanten_regular",
    "ukeire",
]
