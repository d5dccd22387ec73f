"""Hong Kong tiles: the 34 kinds of :mod:`mjcli.tiles`, the eight bonus tiles, the Red joker.

Codes (one int per tile, as the engine, the scorer and the logs use them):

* ``0..33``  the kinds of :mod:`mjcli.tiles` (1m-9m, 1p-9p, 1s-9s, E S W N White Green Red);
  Hong Kong has no red fives, so a ``0`` digit in a hand is refused;
* ``34``     the Red variant's joker (:data:`JOKER`);
* ``35..38`` flowers 1-4 and ``39..42`` seasons 1-4 (bonus tiles: set aside at once, never in a
  hand). Bonus tile ``n`` belongs to the seat whose wind is ``n`` (1 East, 2 South, 3 West, 4 North).

Notation, wherever a person types or reads a tile:

* hands in mpsz (``123m456p789s11z``, mjai honour letters too), jokers as ``J`` anywhere in the
  string (``123m456pJJ789s1z``, written last);
* one tile: ``5m``, ``7z``, ``J``; bonus tiles ``F1``-``F4`` (flowers) and ``S1``-``S4``
  (seasons): a capital letter then a digit, never confused with mpsz (a digit then a small letter);
* in ``mjcli score --game hk``, bonus tiles held are given as numbers: ``--flowers 1,3 --seasons 2``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from mjcli.errors import InvalidHandError, NotationError
from mjcli.tiles import NUM_KINDS, check_counts, is_red, parse_tiles, tile_name, to_mpsz

JOKER = 34
FLOWER_BASE = 35  # flower n is FLOWER_BASE + n - 1
SEASON_BASE = 39  # season n is SEASON_BASE + n - 1
NUM_CODES = 43
FLOWERS = tuple(range(FLOWER_BASE, FLOWER_BASE + 4))
SEASONS = tuple(range(SEASON_BASE, SEASON_BASE + 4))
BONUS_TILES = FLOWERS + SEASONS


def is_bonus(code: int) -> bool:
    return code >= FLOWER_BASE


def bonus_number(code: int) -> int:
    """1..4: the seat wind a bonus tile belongs to."""
    return (code - FLOWER_BASE) % 4 + 1


def is_flower(code: int) -> bool:
    return FLOWER_BASE <= code < SEASON_BASE


def _text(code: int) -> str:
    if code < NUM_KINDS:
        return tile_name(code)
    if code == JOKER:
        return "J"
    return ("F" if is_flower(code) else "S") + str(bonus_number(code))


#: the text of every code (the engine writes one per event: a lookup, not a formatting)
TEXTS: tuple[str, ...] = tuple(_text(c) for c in range(NUM_CODES))


def tile_text(code: int) -> str:
    """One tile: ``5m``, ``7z``, ``J``, ``F1``, ``S4``."""
    try:
        return TEXTS[code]
    except (IndexError, TypeError):
        raise NotationError(f"tile code {code!r} is not a Hong Kong tile") from None


_TEXT_TO_CODE = {tile_text(c): c for c in range(NUM_CODES)}


def tile_code(text: str) -> int:
    """The code of one tile written as :func:`tile_text` writes it (mjai honour letters too)."""
    # a log is read through here: a number or null where a tile belongs is the log's fault, and
    # must be this module's error, not an AttributeError that stops a whole batch
    if not isinstance(text, str):
        raise NotationError(f"{value_text(text)} is not a tile (a tile is written as text: 5m, F1, J)")
    t = text.strip()
    if t in _TEXT_TO_CODE:
        return _TEXT_TO_CODE[t]
    tiles = parse_tiles(t)
    if len(tiles) != 1:
        raise NotationError(f"'{text}' is not a single tile")
    return _no_red(tiles[0], text)


def value_text(value: object) -> str:
    """A value of a log that is not of its type, for a message (JSON's spelling, short)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _no_red(tile: int, text: str) -> int:
    if is_red(tile):
        raise NotationError(f"'{text}': Hong Kong tiles have no red fives (write 5, not 0)")
    return tile


#: the jokers of the Red set: the Hong Kong 144 tiles and 4 jokers (design point 1 in mjcli/hk/rules.py)
RED_JOKERS = 4


def parse_hand(
    text: str, jokers: bool = False, *, max_jokers: int = RED_JOKERS, what: str | None = None
) -> list[int]:
    """Tile codes of a hand in mpsz with ``J`` for jokers, in the order written (jokers where
    they stand). Copies are checked (at most four of a kind); jokers only when ``jokers``, and at
    most ``max_jokers`` (the set's). ``what`` names the input in errors (default ``hand '...'``)."""
    what = what if what is not None else f"hand '{text}'"
    codes: list[int] = []
    chunk: list[str] = []

    def flush() -> None:
        if chunk:
            part = "".join(chunk)
            codes.extend(_no_red(t, text) for t in parse_tiles(part))
            chunk.clear()

    for ch in text:
        if ch == "J":
            if not jokers:
                raise NotationError(f"{what}: jokers (J) exist only in Red mahjong (--game red)")
            if chunk and chunk[-1].isdigit():
                raise NotationError(f"digits without a suit letter before J in '{text}'")
            flush()
            codes.append(JOKER)
        else:
            chunk.append(ch)
    flush()
    check_counts([c for c in codes if c != JOKER], what, red_fives=False)
    # jokers are not a kind (check_counts leaves them out): more than the set holds is no hand, and
    # the scorer's search grows with every joker (eleven of them ran for minutes)
    held = codes.count(JOKER)
    if held > max_jokers:
        raise InvalidHandError(f"{what} has {held} jokers; the Red set has {max_jokers}")
    return codes


def hand_text(codes: Iterable[int]) -> str:
    """A hand in mpsz, sorted, jokers last as ``J`` (bonus tiles are never in a hand)."""
    codes = list(codes)
    kinds = [c for c in codes if c < NUM_KINDS]
    return to_mpsz(kinds) + "J" * sum(1 for c in codes if c == JOKER)


#: (suit letter, first kind, its digits) of the four suits, in mpsz order
_SUIT_RUNS = tuple(
    (letter, first, tuple(str(n) for n in range(1, size + 1)))
    for letter, first, size in (("m", 0, 9), ("p", 9, 9), ("s", 18, 9), ("z", 27, 7))
)


def counts_text(counts: Sequence[int], jokers: int = 0) -> str:
    """A hand given as 34 counts (and a number of jokers) in mpsz: what :func:`hand_text` writes,
    straight from the counts (replay writes two per decision: no tile list, no sort)."""
    parts = []
    for letter, first, digits in _SUIT_RUNS:
        run = "".join(d * counts[first + i] for i, d in enumerate(digits) if counts[first + i])
        if run:
            parts.append(run + letter)
    return "".join(parts) + "J" * jokers


def parse_bonus_numbers(text: str | None, what: str) -> tuple[int, ...]:
    """``"1,3"`` -> (1, 3): the numbers of the flowers (or seasons) held, each 1-4 at most once."""
    if not text:
        return ()
    out: list[int] = []
    for part in text.replace(" ", ",").split(","):
        if not part.strip():
            continue
        if part.strip() not in ("1", "2", "3", "4"):
            raise InvalidHandError(f"{what} '{text}': bonus tiles are numbered 1-4")
        n = int(part)
        if n in out:
            raise InvalidHandError(f"{what} '{text}': there is one {what.lstrip('-')[:-1]} {n}")
        out.append(n)
    return tuple(sorted(out))


def full_set(jokers: int = 0) -> list[int]:
    """Every tile of the set in code order: 4 of each kind, ``jokers`` jokers, the 8 bonus tiles."""
    return [k for k in range(NUM_KINDS) for _ in range(4)] + [JOKER] * jokers + list(BONUS_TILES)
