"""``mjcli shanten``: shanten, ukeire and the discard table of hands in mpsz notation."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import typer

from mjcli.errors import InvalidHandError, MjcliError, UsageError
from mjcli.output import emit_json, format_table
from mjcli.tiles import (
    NUM_KINDS,
    check_counts,
    counts34,
    is_red,
    kind,
    parse_hand,
    parse_tiles,
    tile_name,
    to_mpsz,
)

# = mjcli.analysis.HAND_SIZES (a test checks); repeated so that other commands start without the tables
HAND_SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)

HELP = "\n\n".join(
    [
        "Shanten and ukeire of hands written in mpsz (0 = red five, 1z-7z = E S W N White Green Red).",
        "A hand of 13 tiles (or 10, 7, 4, 1 next to open melds) gets its shanten and the tiles that lower"
        " it, with how many of each are still unseen. A hand of 14 (or 11, 8, 5, 2) gets a row per discard:"
        " the shanten left, the ukeire count and the tiles. Shanten -1 = complete, 0 = tenpai; at tenpai the"
        " ukeire tiles are the winning tiles. Unseen copies = 4 - in the hand - in --seen; a discarded tile"
        " counts as gone.",
        "HAND may be '-': one hand per line from stdin (blank lines skipped), computed as one batch.",
        "Example: mjcli shanten 123m456p789s1135z",
        "Example: mjcli shanten 123m456p789s11355z --seen 2z2z4s",
        "Example: printf '19m19p19s1234567z\\n123m456p789s1122z\\n' | mjcli shanten - --json",
    ]
)


@dataclass
class _Hand:
    label: str  # the hand as read, sorted mpsz
    tiles: list[int]
    counts: list[int]


def _read_hand(text: str, what: str) -> _Hand:
    tiles = parse_hand(text, allowed_sizes=HAND_SIZES, what=what)
    return _Hand(label=to_mpsz(tiles), tiles=tiles, counts=counts34(tiles))


def _read_stdin(lines: Iterable[str]) -> list[_Hand]:
    hands = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            hands.append(_read_hand(text, what=f"hand '{text}'"))
        except MjcliError as exc:
            raise type(exc)(f"stdin line {number}: {exc}") from None
    return hands


def _check_seen(hand: _Hand, seen: Sequence[int]) -> None:
    for k in range(NUM_KINDS):
        if hand.counts[k] + seen[k] > 4:
            raise InvalidHandError(
                f"hand '{hand.label}' and --seen together have {hand.counts[k] + seen[k]} copies of "
                f"{tile_name(k)} (4 exist)"
            )


def _discard_name(hand: _Hand, k: int) -> str:
    """The tile to discard for kind ``k``: a plain five when the hand has one, else the red five."""
    plain = any(t == k for t in hand.tiles)
    red = next((t for t in hand.tiles if is_red(t) and kind(t) == k), None)
    return tile_name(k if plain or red is None else red)


def _shanten_word(s: int) -> str:
    return {-1: "complete", 0: "tenpai"}.get(s, f"{s}-shanten")


@dataclass
class _Row:
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
class _Result:
    hand: _Hand
    shanten: int
    row: _Row | None = None  # 3n+1 hands
    discards: list[_Row] | None = None  # 3n+2 hands

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


def _analyse(hand: _Hand, shanten_value: int, seen: Sequence[int], shanten_only: bool) -> _Result:
    from mjcli.analysis import discard_table, ukeire

    result = _Result(hand=hand, shanten=shanten_value)
    if shanten_only:
        return result
    if len(hand.tiles) % 3 == 1:
        u = ukeire(hand.counts, seen)
        result.row = _Row(hand.label, u.shanten, u.total, u.tiles)
    else:
        result.discards = [
            _Row(_discard_name(hand, o.kind), o.shanten, o.ukeire_total, o.tiles)
            for o in discard_table(hand.counts, seen)
        ]
    return result


def _print_human(results: Sequence[_Result], shanten_only: bool) -> None:
    if shanten_only:
        rows = [(r.hand.label, len(r.hand.tiles), r.shanten) for r in results]
        print(format_table(["hand", "tiles", "shanten"], rows, align="lrr"))
        return
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
    print("\n\n".join(blocks))


def register(app: typer.Typer) -> None:
    @app.command("shanten", help=HELP, no_args_is_help=True)
    def shanten_command(
        hands: list[str] = typer.Argument(
            ..., metavar="HAND", help="Hands in mpsz, e.g. 123m456p789s1135z; '-' reads stdin."
        ),
        seen: str = typer.Option("", "--seen", help="Visible tiles (rivers, melds, dora indicators), mpsz."),
        shanten_only: bool = typer.Option(
            False, "--shanten-only", help="Only the shanten numbers (no ukeire; fastest for many hands)."
        ),
        as_json: bool = typer.Option(False, "--json", help="One JSON object per hand instead of tables."),
    ) -> None:
        import numpy as np

        from mjcli.analysis import shanten, shanten_batch

        if "-" in hands:
            if len(hands) > 1:
                raise UsageError("'-' (read hands from stdin) cannot be mixed with hands on the command line")
            parsed = _read_stdin(sys.stdin)
            batch = np.array([h.counts for h in parsed], dtype=np.uint8).reshape(-1, NUM_KINDS)
            values = [int(v) for v in shanten_batch(batch)]
        else:
            parsed = [_read_hand(text, what=f"hand '{text}'") for text in hands]
            values = [shanten(h.counts) for h in parsed]

        seen_tiles = parse_tiles(seen)
        check_counts(seen_tiles, what=f"--seen '{seen}'")
        seen_counts = counts34(seen_tiles)
        for h in parsed:
            _check_seen(h, seen_counts)

        results = []
        for h, value in zip(parsed, values, strict=True):
            result = _analyse(h, value, seen_counts, shanten_only)
            if as_json:
                emit_json(result.to_json())
            else:
                results.append(result)
        if not as_json and results:
            _print_human(results, shanten_only)
