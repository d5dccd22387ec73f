"""Tiles and every notation for them, in one place.

Three levels of identity are used across the project:

* **kind** ``0..33``: 0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s, 27-33 = East South West North
  White Green Red. Hand analysis (shanten, ukeire) works on kinds, usually as 34 counts.
* **tile** ``0..36``: a kind, or one of the three red fives ``34 = 0m``, ``35 = 0p``, ``36 = 0s``.
  This is what a player can see and what every log format can express, so canonical game events,
  hands and melds carry tiles.
* **physical id** ``0..135``: Tenhou's mjlog ids, ``kind = id // 4``; with red fives on, ids
  16, 52 and 88 are the red 5m, 5p and 5s.

Notations read and written here: mpsz (``123m0p55z``, also the mjai honour letters ``ESWNPFC``),
tenhou.net/6 codes (11-19, 21-29, 31-39, 41-47, red 51-53) and mjai names (``5mr``, ``E``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

from mjcli.errors import InvalidHandError, NotationError, quoted

NUM_KINDS = 34
#: the kinds three-player mahjong (sanma) takes out of the set: 2m-8m
SANMA_ABSENT = tuple(range(1, 8))
NUM_TILES = 37
RED_5M, RED_5P, RED_5S = 34, 35, 36
RED_FIVES = (RED_5M, RED_5P, RED_5S)
#: kind of each red five (5m, 5p, 5s)
RED_FIVE_KIND = {RED_5M: 4, RED_5P: 13, RED_5S: 22}
KIND_TO_RED = {4: RED_5M, 13: RED_5P, 22: RED_5S}
#: physical ids that are red when red fives are played
RED_IDS = {16: RED_5M, 52: RED_5P, 88: RED_5S}

SUITS = "mpsz"
HONOR_LETTERS = "ESWNPFC"  # mjai: East South West North, P(white), F(green), C(red)
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def kind(tile: int) -> int:
    """The kind (0..33) of a tile (0..36)."""
    return tile if tile < NUM_KINDS else RED_FIVE_KIND[tile]


#: :func:`kind` of every tile as a table: an index where the policies ask at every decision (a
#: lookup costs a third of the call)
KIND_OF: tuple[int, ...] = tuple(kind(t) for t in range(NUM_TILES))


def is_red(tile: int) -> bool:
    return tile >= NUM_KINDS


def suit_of(kind_: int) -> int:
    """0 man, 1 pin, 2 sou, 3 honours."""
    return kind_ // 9


def number_of(kind_: int) -> int:
    """1..9 for suited kinds, 1..7 for honours (E S W N White Green Red)."""
    return kind_ % 9 + 1


def is_honor(kind_: int) -> bool:
    return kind_ >= 27


def runs_with(kind_: int) -> list[tuple[int, int, int]]:
    """The runs (three consecutive kinds of one suit) that contain ``kind_``, lowest first; none for
    an honour."""
    if is_honor(kind_):
        return []
    n = number_of(kind_)
    base = kind_ - (n - 1)
    return [(base + s - 1, base + s, base + s + 1) for s in range(max(1, n - 2), min(n, 7) + 1)]


def is_terminal_or_honor(kind_: int) -> bool:
    return kind_ >= 27 or kind_ % 9 in (0, 8)


def dora_kind(indicator: int, players: int = 4) -> int:
    """The kind a dora indicator (a tile or kind) points at: the next in its suit, winds and dragons
    in their own cycle; three players (no 2m-8m): 1m points at 9m and 9m at 1m."""
    k = kind(indicator)
    if players == 3 and k in (0, 8):
        return 8 - k
    if k < 27:
        return k - k % 9 + (k % 9 + 1) % 9
    if k < 31:
        return 27 + (k - 27 + 1) % 4
    return 31 + (k - 31 + 1) % 3


def indicator_kind(dora: int, players: int = 4) -> int:
    """The kind of the indicator that makes kind ``dora`` a dora (:func:`dora_kind` undone)."""
    if players == 3 and dora in (0, 8):
        return 8 - dora
    if dora < 27:
        return dora - dora % 9 + (dora % 9 - 1) % 9
    if dora < 31:
        return 27 + (dora - 27 - 1) % 4
    return 31 + (dora - 31 - 1) % 3


def sort_key(tile: int) -> tuple[int, int]:
    """Hand order: by kind, the red five just before the plain fives of its suit."""
    return (kind(tile), 0 if is_red(tile) else 1)


def in_hand_order(tiles: Sequence[int]) -> list[int]:
    """``sorted(tiles, key=sort_key)``, fast: views, replay's hand texts and the greedy seed's
    hand sort a hand at every decision point. Without a red five (codes from ``NUM_KINDS`` up)
    hand order is the order of the codes, and a plain sort, with no key looked up per tile, takes
    a third of the time (bench_speed: "walk a log to every decision"); with one, each red five is
    moved from the end to just before its suit's plain fives."""
    # (sorted first, the last code then says whether there is a red five: no ``max`` comparing
    # every tile in Python's generic way; bench_speed "walk a log to every decision", "self-play")
    out = sorted(tiles)
    if not out or out[-1] < NUM_KINDS:
        return out
    # The red fives, sorted last, put back by C-level bisection among the plain codes, the highest
    # first (where it goes, every code still there but the red ones put back is in order, and those
    # lie past every code the search compares them with): not a second sort by a key function
    # called per tile and tuple keys compared (about one hand in four holds a red five; with the
    # dealt and shown hands of simulate sorted here too: 1163.1 -> 1150.4 M instructions for 8
    # hanchan; bench_speed "self-play, first-legal policy", "walk a log to every decision")
    at = bisect_left(out, NUM_KINDS)
    reds = out[at:]
    del out[at:]
    for red in reversed(reds):
        out.insert(bisect_left(out, KIND_OF[red]), red)
    return out


# ---------------------------------------------------------------- mpsz


def _tile_from_digit(digit: int, suit: str) -> int:
    s = SUITS.index(suit)
    if s == 3:
        if not 1 <= digit <= 7:
            raise NotationError(f"honour tile {digit}z does not exist (1z-7z = E S W N White Green Red)")
        return 27 + digit - 1
    if digit == 0:
        return RED_FIVES[s]
    return s * 9 + digit - 1


def parse_tiles(text: str) -> list[int]:
    """Read mpsz notation into a list of tiles, in the order written.

    ``"123m0p55z"``; red fives as ``0``; mjai honour letters ``E S W N P F C`` may stand alone;
    spaces are ignored. Only the notation is checked here; see :func:`check_counts` for copies.
    """
    tiles: list[int] = []
    pending: list[int] = []
    for ch in text:
        if ch.isspace() or ch in ",":
            continue
        if ch in "0123456789":  # not str.isdigit(): it takes '²' and other digits int() refuses
            pending.append(int(ch))
        elif ch in SUITS:
            if not pending:
                raise NotationError(f"suit letter '{ch}' without digits before it in {quoted(text)}")
            tiles.extend(_tile_from_digit(d, ch) for d in pending)
            pending.clear()
        elif ch in HONOR_LETTERS:
            if pending:
                raise NotationError(
                    f"digits {''.join(map(str, pending))} without a suit letter in {quoted(text)}"
                )
            tiles.append(27 + HONOR_LETTERS.index(ch))
        else:
            raise NotationError(
                f"unknown suit letter '{ch}' in {quoted(text)} (use m p s z, or E S W N P F C for honours)"
            )
    if pending:
        raise NotationError(f"digits {''.join(map(str, pending))} without a suit letter in {quoted(text)}")
    return tiles


def parse_tile(text: str) -> int:
    """Exactly one tile in mpsz (``5m``, ``0p``, ``7z``) or an mjai name (``5mr``, ``E``)."""
    text = text.strip()
    if text in MJAI_TO_TILE:
        return MJAI_TO_TILE[text]
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"{quoted(text)} is not a single tile")
    return tiles[0]


# Per tile 0..36: its place in hand order, its suit letter and its digit, looked up instead of
# worked out per tile (writing tiles is most of the time of a batch's JSON: 3x faster this way).
_ORDER = tuple(sort_key(t) for t in range(NUM_TILES))
_SUIT_LETTER = tuple(SUITS[suit_of(kind(t))] for t in range(NUM_TILES))
_DIGIT = tuple("0" if is_red(t) else str(number_of(kind(t))) for t in range(NUM_TILES))
_NAME = tuple(d + s for d, s in zip(_DIGIT, _SUIT_LETTER, strict=True))


def to_mpsz(tiles: Iterable[int], sort: bool = True) -> str:
    """Write tiles in compact mpsz notation (``123m0p55z``), sorted by default."""
    given = list(tiles)
    try:
        if given and min(given) < 0:
            raise IndexError(min(given))
        seq = sorted(given, key=_ORDER.__getitem__) if sort else given
        out: list[str] = []
        run_suit = None
        for t in seq:
            s = _SUIT_LETTER[t]
            if run_suit is not None and s != run_suit:
                out.append(run_suit)
            out.append(_DIGIT[t])
            run_suit = s
    except (IndexError, TypeError):  # not tiles 0..36: as before, whatever that gives
        return _to_mpsz_computed(given, sort)
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


def _to_mpsz_computed(seq: list[int], sort: bool) -> str:
    if sort:
        seq = sorted(seq, key=sort_key)
    out: list[str] = []
    run_suit = None
    for t in seq:
        k = kind(t)
        s = SUITS[suit_of(k)]
        digit = "0" if is_red(t) else str(number_of(k))
        if run_suit is not None and s != run_suit:
            out.append(run_suit)
        out.append(digit)
        run_suit = s
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


def tile_name(tile: int) -> str:
    """One tile in mpsz (``5m``, ``0p``, ``7z``)."""
    if type(tile) is int and 0 <= tile < NUM_TILES:
        return _NAME[tile]
    return _to_mpsz_computed([tile], True)


# ---------------------------------------------------------------- counts and checks


def counts34(tiles: Iterable[int]) -> list[int]:
    """The 34 counts of a list of tiles (red fives count as their kind)."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[kind(t)] += 1
    return counts


def counts_to_kinds(counts: Sequence[int]) -> list[int]:
    return [k for k in range(NUM_KINDS) for _ in range(counts[k])]


def check_counts(tiles: Iterable[int], what: str = "hand", red_fives: bool = True) -> None:
    """Raise :class:`InvalidHandError` when a kind appears 5+ times or a red five is given twice."""
    tiles = list(tiles)
    counts = counts34(tiles)
    for k, c in enumerate(counts):
        if c > 4:
            raise InvalidHandError(f"{what} has {c} copies of {tile_name(k)} (at most 4 exist)")
    for r in RED_FIVES:
        n = tiles.count(r)
        if n and not red_fives:
            raise InvalidHandError(f"{what} has a red five {tile_name(r)} but red fives are off")
        if n > 1:
            raise InvalidHandError(f"{what} has the red five {tile_name(r)} {n} times (there is one)")


def check_size(tiles: Sequence[int], allowed: Iterable[int], what: str = "hand") -> None:
    allowed = tuple(allowed)
    if len(tiles) not in allowed:
        sizes = ", ".join(map(str, allowed))
        raise InvalidHandError(f"{what} has {len(tiles)} tiles; expected {sizes}")


def parse_hand(text: str, allowed_sizes: Iterable[int] | None = None, what: str | None = None) -> list[int]:
    """Parse and validate a hand: notation, copies, red fives and (optionally) its size."""
    label = what or f"hand {quoted(text)}"
    tiles = parse_tiles(text)
    check_counts(tiles, label)
    if allowed_sizes is not None:
        check_size(tiles, allowed_sizes, label)
    return tiles


# ---------------------------------------------------------------- physical ids (mjlog)


def tile_from_id136(tile_id: int, red_fives: bool = True) -> int:
    if not 0 <= tile_id < 136:
        raise NotationError(f"tile id {tile_id} is outside 0..135")
    if red_fives and tile_id in RED_IDS:
        return RED_IDS[tile_id]
    return tile_id // 4


def id136_candidates(tile: int) -> list[int]:
    """The physical ids a tile may be: the red id for a red five, the other copies for a plain kind."""
    if is_red(tile):
        return [{v: k for k, v in RED_IDS.items()}[tile]]
    base = tile * 4
    return [i for i in range(base, base + 4) if i not in RED_IDS]


# ---------------------------------------------------------------- tenhou.net/6 codes


def tile_to_tenhou6(tile: int) -> int:
    if is_red(tile):
        return 51 + RED_FIVES.index(tile)
    return (suit_of(tile) + 1) * 10 + number_of(tile)


def tile_from_tenhou6(code: int) -> int:
    if code in (51, 52, 53):
        return RED_FIVES[code - 51]
    suit, num = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= num <= 9:
        return (suit - 1) * 9 + num - 1
    if suit == 4 and 1 <= num <= 7:
        return 27 + num - 1
    raise NotationError(f"tenhou6 tile code {code} is not a tile")


# ---------------------------------------------------------------- mjai names


def tile_to_mjai(tile: int) -> str:
    if is_red(tile):
        return f"5{SUITS[RED_FIVES.index(tile)]}r"
    if is_honor(tile):
        return HONOR_LETTERS[tile - 27]
    return f"{number_of(tile)}{SUITS[suit_of(tile)]}"


MJAI_TO_TILE: dict[str, int] = {tile_to_mjai(t): t for t in range(NUM_TILES)}


def tile_from_mjai(name: str) -> int:
    try:
        return MJAI_TO_TILE[name]
    except KeyError:
        raise NotationError(f"mjai tile name '{name}' is not a tile") from None


# ---------------------------------------------------------------- winds


def wind_from_letter(text: str) -> int:
    """``E``/``S``/``W``/``N`` (or 1-4, or ``east``...) to 0..3."""
    t = text.strip().upper()
    for i, names in enumerate(
        (("E", "EAST", "1"), ("S", "SOUTH", "2"), ("W", "WEST", "3"), ("N", "NORTH", "4"))
    ):
        if t in names:
            return i
    raise NotationError(f"{quoted(text)} is not a wind (use E, S, W or N)")
