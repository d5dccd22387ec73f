"""The shanten command's work on riichi hands typed in mpsz: read them, analyse them (shanten, ukeire,
every discard of a 14-tile hand) and lay the results out as tables or JSON objects."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress

from mjcli.errors import InvalidHandError, MjcliError, one_line
from mjcli.output import format_table
from mjcli.tiles import (
    NUM_KINDS,
    SANMA_ABSENT,
    counts34,
    is_red,
    kind,
    parse_hand,
    tile_name,
    to_mpsz,
)

# = mjcli.analysis.HAND_SIZES (a test checks); repeated so that reading hands needs no tables
HAND_SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


@dataclass
class TypedHand:
    label: str  # the hand as read, sorted mpsz
    tiles: list[int]
    counts: list[int]


def read_hand(text: str, what: str) -> TypedHand:
    tiles = parse_hand(text, allowed_sizes=HAND_SIZES, what=what)
    return TypedHand(label=to_mpsz(tiles), tiles=tiles, counts=counts34(tiles))


@dataclass
class BadLine:
    """A line of standard input that is not a hand: its number, its text and what is wrong."""

    line: int
    text: str
    error: str

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "input": one_line(f"'{self.text}'")[1:-1], "error": self.error}

    def message(self) -> str:
        return f"stdin line {self.line}: {self.error}"


def read_hands(
    lines: Iterable[str],
    seen: Sequence[int] | None = None,
    sanma: bool = False,
    seen_reds: Sequence[int] = (),
) -> list[TypedHand | BadLine]:
    """One entry per non-blank line, in order: the hand, or what is wrong with the line (a bad line
    never stops the others). ``seen``: counts that each hand must leave room for, ``seen_reds`` the
    red fives among them (a hand may not hold one too); ``sanma``: a three-player hand (a line
    holding 2m-8m is bad)."""
    out: list[TypedHand | BadLine] = []
    for number, line in enumerate(lines, start=1):
        if number == 1:  # a UTF-8 byte-order mark (a Windows editor's) is no part of line 1, as with --json
            line = line.removeprefix("\ufeff")
        text = line.strip()
        if not text:
            continue
        try:
            hand = read_hand(text, what=f"hand '{text}'")
            if sanma:
                check_sanma(hand)
            if seen is not None:
                check_seen(hand, seen, seen_reds)
            out.append(hand)
        except MjcliError as exc:
            out.append(BadLine(number, text, one_line(str(exc))))
    return out


def check_sanma(hand: TypedHand) -> None:
    """A three-player hand holds no 2m-8m."""
    absent = [k for k in SANMA_ABSENT if hand.counts[k]]
    if absent:
        raise InvalidHandError(
            f"hand '{hand.label}' holds {tile_name(absent[0])}: three-player mahjong has no 2m-8m"
        )


def check_seen(hand: TypedHand, seen: Sequence[int], seen_reds: Sequence[int] = ()) -> None:
    """The hand and the seen tiles (``seen`` by kind, ``seen_reds`` the red fives among them) hold
    no kind more than four times and no red five twice (as ``mjcli.api``'s check of both)."""
    for k in range(NUM_KINDS):
        if hand.counts[k] + seen[k] > 4:
            raise InvalidHandError(
                f"hand '{hand.label}' and --seen together have {hand.counts[k] + seen[k]} copies of "
                f"{tile_name(k)} (4 exist)"
            )
    for r in seen_reds:
        if r in hand.tiles:
            raise InvalidHandError(
                f"hand '{hand.label}' and --seen both hold the red five {tile_name(r)} (there is one)"
            )


def discard_name(tiles: Sequence[int], k: int) -> str:
    """The tile to discard for kind ``k`` from ``tiles``: a plain five when there is one, else the
    red five (``0m`` when the hand holds only the red one)."""
    plain = any(t == k for t in tiles)
    red = next((t for t in tiles if is_red(t) and kind(t) == k), None)
    return tile_name(k if plain or red is None else red)


def _shanten_word(s: int) -> str:
    return {-1: "complete", 0: "tenpai"}.get(s, f"{s}-shanten")


@dataclass
class HandRow:
    """One line of a table: a 3n+1 hand, or one discard of a 3n+2 hand."""

    name: str  # the hand, or the discarded tile
    shanten: int
    ukeire: int
    tiles: list[tuple[int, int]]  # (kind, copies left)

    def to_json(self, name_key: str) -> dict[str, object]:
        return {
            name_key: self.name,
            "shanten": self.shanten,
            "ukeire": self.ukeire,
            "tiles": to_mpsz([k for k, _ in self.tiles]),
            "remaining": {tile_name(k): r for k, r in self.tiles},
        }

    def cells(self) -> tuple[str, int, int, str]:
        return (self.name, self.shanten, self.ukeire, to_mpsz([k for k, _ in self.tiles]) or "-")


@dataclass
class HandResult:
    hand: TypedHand
    shanten: int
    row: HandRow | None = None  # 3n+1 hands
    discards: list[HandRow] | None = None  # 3n+2 hands

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "hand": self.hand.label,
            "size": len(self.hand.tiles),
            "shanten": self.shanten,
        }
        if self.row is not None:
            out.update({k: v for k, v in self.row.to_json("hand").items() if k != "shanten"})
        if self.discards is not None:
            out["discards"] = [d.to_json("tile") for d in self.discards]
        return out


def analyse(
    hand: TypedHand, shanten_value: int, seen: Sequence[int], shanten_only: bool, sanma: bool = False
) -> HandResult:
    """Ukeire (3n+1 tiles) or the discard table (3n+2); ``sanma``: a three-player hand (no 2m-8m
    in it or among the tiles that help)."""
    from mjcli.analysis import discard_table, ukeire

    result = HandResult(hand=hand, shanten=shanten_value)
    if shanten_only:
        return result
    if len(hand.tiles) % 3 == 1:
        u = ukeire(hand.counts, seen, sanma)
        result.row = HandRow(hand.label, u.shanten, u.total, u.tiles)
    else:
        result.discards = [
            HandRow(discard_name(hand.tiles, o.kind), o.shanten, o.ukeire_total, o.tiles)
            for o in discard_table(hand.counts, seen, sanma)
        ]
    return result


def analyse_batch(
    hands: Sequence[TypedHand], values: Sequence[int], seen: Sequence[int], shanten_only: bool
) -> list[HandResult]:
    """:func:`analyse` of many hands at once, the same results: every 3n+1 hand and every discard of
    every 3n+2 hand go through :func:`mjcli.analysis.draw_table_batch` together (numpy), and only
    the rows are assembled here (a 100k-hand stdin batch: the analysis 20x faster)."""
    import numpy as np

    from mjcli.analysis import draw_table_batch

    results = [HandResult(hand=h, shanten=v) for h, v in zip(hands, values, strict=True)]
    if shanten_only or not hands:
        return results
    # one row per 3n+1 hand, and per distinct discard of a 3n+2 hand (the hand left after it)
    owners: list[tuple[int, int]] = []  # (hand index, discarded kind or -1)
    rows: list[list[int]] = []
    for i, h in enumerate(hands):
        if len(h.tiles) % 3 == 1:
            owners.append((i, -1))
            rows.append(h.counts)
        else:
            for k in range(NUM_KINDS):
                if h.counts[k]:
                    left = list(h.counts)
                    left[k] -= 1
                    owners.append((i, k))
                    rows.append(left)
    current, after = draw_table_batch(np.array(rows, dtype=np.uint8))
    improving = after < current[:, None]
    # copies left of each kind, counted against the whole hand (the discard is gone for good)
    whole = np.array([hands[i].counts for i, _ in owners], dtype=np.int8).reshape(-1, NUM_KINDS)
    left = np.maximum(0, 4 - whole - np.array(seen, dtype=np.int8))
    totals = np.where(improving, left, 0).sum(axis=1).tolist()
    kinds = range(NUM_KINDS)
    found: dict[int, list[DiscardChoice]] = {}
    for (i, k), s, total, better, copies in zip(
        owners, current.tolist(), totals, improving.tolist(), left.tolist(), strict=True
    ):
        tiles = list(zip(compress(kinds, better), compress(copies, better), strict=True))
        if k < 0:
            results[i].row = HandRow(hands[i].label, s, total, tiles)
        else:
            found.setdefault(i, []).append((s, -total, k, tiles))
    for i, options in found.items():
        options.sort(key=lambda o: o[:3])  # discard_table's order: shanten, most ukeire, kind
        tiles_of = hands[i].tiles
        results[i].discards = [HandRow(discard_name(tiles_of, k), s, -neg, t) for s, neg, k, t in options]
    return results


#: (shanten left, -ukeire, discarded kind, improving tiles) of one discard, sortable as discard_table's
DiscardChoice = tuple[int, int, int, list[tuple[int, int]]]


def render(results: Sequence[HandResult], shanten_only: bool) -> str:
    if shanten_only:
        rows = [(r.hand.label, len(r.hand.tiles), r.shanten) for r in results]
        return format_table(["hand", "tiles", "shanten"], rows, align="lrr")
    blocks: list[str] = []
    pending: list[tuple[str, int, int, str]] = []  # consecutive 3n+1 hands share one table

    def flush() -> None:
        if pending:
            blocks.append(format_table(["hand", "shanten", "ukeire", "tiles"], pending, align="lrrl"))
            pending.clear()

    for r in results:
        if r.row is not None:
            pending.append(r.row.cells())
            continue
        flush()
        title = f"{r.hand.label}  ({len(r.hand.tiles)} tiles, {_shanten_word(r.shanten)})"
        rows = [d.cells() for d in r.discards or []]
        blocks.append(
            title + "\n" + format_table(["discard", "shanten", "ukeire", "tiles"], rows, align="lrrl")
        )
    flush()
    return "\n\n".join(blocks)
