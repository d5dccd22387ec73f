"""Ukeire (the tiles that take a hand closer to winning) and the discard table of a full hand.

What counts as an improving tile: a kind ``k`` improves a hand of 3n+1 tiles when the hand with one
more ``k`` has a lower shanten (the same numbers as :func:`mjcli.analysis.shanten`, so seven pairs
and thirteen orphans count at 13/14 tiles). At tenpai (shanten 0) these are exactly the winning
tiles, since only a complete hand is below 0. A kind the hand already holds four times cannot be
drawn and is never listed. A kind is listed even when none is left to draw (``remaining`` 0), so a
wait on tiles that are all visible still shows up, with a total of 0.

Remaining (unseen) copies = 4 - copies in the hand - copies in ``seen34`` (the visible tiles: rivers,
open melds, dora indicators), never below 0. In a discard table the hand is the full 3n+2 hand,
discarded tile included: it goes to the river and is not coming back, as in tenhou's hand calculator.

A complete 3n+2 hand (shanten -1) still gets its discard table: each discard leaves a tenpai or
worse hand, listed with its winning or improving tiles.

Three-player (``sanma=True``): the hand may not hold 2m-8m, which are never listed as improving
tiles either, and its shanten is :func:`~mjcli.analysis.shanten_calc.shanten_sanma`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from mjcli.analysis.shanten_calc import (
    hand_bytes,
    sanma_bytes,
    shanten_after_draws_rows,
    shanten_after_each_draw,
)
from mjcli.errors import InvalidHandError
from mjcli.tiles import NUM_KINDS, tile_name

if TYPE_CHECKING:  # numpy is imported by the batch function only (a quick command never loads it)
    import numpy as np

Counts = Union[Sequence[int], bytes, "np.ndarray"]


@dataclass(frozen=True)
class Ukeire:
    """Shanten of a 3n+1 hand and the kinds that lower it, each with its unseen copies."""

    shanten: int
    tiles: list[tuple[int, int]]  # (kind, remaining), in kind order
    total: int

    @property
    def kinds(self) -> list[int]:
        return [k for k, _ in self.tiles]


@dataclass(frozen=True)
class DiscardOption:
    """One discard of a 3n+2 hand: the shanten left and the ukeire of the hand left."""

    kind: int
    shanten: int
    ukeire_total: int
    tiles: list[tuple[int, int]]  # (kind, remaining), in kind order

    @property
    def kinds(self) -> list[int]:
        return [k for k, _ in self.tiles]


def _seen_counts(seen34: Counts | None) -> list[int]:
    if seen34 is None:
        return [0] * NUM_KINDS
    try:
        seen = [int(x) for x in seen34]  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise InvalidHandError(f"seen counts must be 34 integers, got {seen34!r}") from None
    if len(seen) != NUM_KINDS:
        raise InvalidHandError(f"seen counts have {len(seen)} entries; expected 34 (one per tile kind)")
    for k, c in enumerate(seen):
        if c < 0:
            raise InvalidHandError(f"seen counts have {c} copies of {tile_name(k)} (must be 0 or more)")
    return seen


def _improving(
    b: bytes, base: bytes, seen: list[int], sanma: bool = False
) -> tuple[int, list[tuple[int, int]]]:
    """Shanten of the 3n+1 hand ``b`` and its improving kinds; copies left are counted against ``base``."""
    current, after = shanten_after_each_draw(b, sanma)
    tiles = []
    for k in range(NUM_KINDS):
        s = after[k]
        if s is not None and s < current:
            tiles.append((k, max(0, 4 - base[k] - seen[k])))
    return current, tiles


def ukeire(counts34: Counts, seen34: Counts | None = None, sanma: bool = False) -> Ukeire:
    """Ukeire of a hand of 3n+1 tiles (13, or fewer with open melds). See the module docstring.

    ``sanma``: a three-player hand (:func:`~mjcli.analysis.shanten_calc.shanten_sanma`; 2m-8m are
    neither in it nor among the tiles that improve it)."""
    b = sanma_bytes(counts34) if sanma else hand_bytes(counts34)
    if sanma:
        hand_bytes(b)  # the size check
    if sum(b) % 3 != 1:
        raise InvalidHandError(
            f"ukeire needs a hand of 1, 4, 7, 10 or 13 tiles, got {sum(b)}; use discard_table for 3n+2 tiles"
        )
    seen = _seen_counts(seen34)
    current, tiles = _improving(b, b, seen, sanma)
    return Ukeire(shanten=current, tiles=tiles, total=sum(r for _, r in tiles))


def discard_table(counts34: Counts, seen34: Counts | None = None, sanma: bool = False) -> list[DiscardOption]:
    """Every distinct discard of a 3n+2 hand, best first: lowest shanten, then most ukeire, then kind.
    ``sanma``: a three-player hand, as for :func:`ukeire`."""
    b = sanma_bytes(counts34) if sanma else hand_bytes(counts34)
    if sanma:
        hand_bytes(b)  # the size check
    if sum(b) % 3 != 2:
        raise InvalidHandError(
            f"a discard table needs a hand of 2, 5, 8, 11 or 14 tiles, got {sum(b)}; use ukeire for 3n+1"
        )
    seen = _seen_counts(seen34)
    options = []
    left = bytearray(b)
    for k in range(NUM_KINDS):
        if not b[k]:
            continue
        left[k] -= 1
        s, tiles = _improving(bytes(left), b, seen, sanma)
        left[k] += 1
        options.append(DiscardOption(kind=k, shanten=s, ukeire_total=sum(r for _, r in tiles), tiles=tiles))
    options.sort(key=lambda o: (o.shanten, -o.ukeire_total, o.kind))
    return options


#: after-draw value of a kind the hand holds four times (cannot be drawn)
NO_DRAW = 127
# Hands per step of draw_table_batch: 34 draws each, so a step is ~70k draws, small enough for the
# gathers to stay in the CPU cache.
_DRAW_CHUNK = 2048


def draw_table_batch(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For an ``(N, 34)`` batch of 3n+1 hands (0..4 copies each, already checked): the shanten of
    each, ``(N,)``, and the shanten after drawing each kind, ``(N, 34)`` (:data:`NO_DRAW` where the
    hand holds all four): :func:`shanten_after_each_draw` for the whole batch in numpy steps
    (:func:`~mjcli.analysis.shanten_calc.shanten_after_draws_rows`: about 25 ns a draw against
    30 us a hand one by one in Python)."""
    import numpy as np

    hands = np.asarray(hands, dtype=np.uint8)
    current = np.zeros(len(hands), dtype=np.int8)
    after = np.empty((len(hands), NUM_KINDS), dtype=np.int8)
    for i in range(0, len(hands), _DRAW_CHUNK):
        part = hands[i : i + _DRAW_CHUNK]
        now, values = shanten_after_draws_rows(part)
        current[i : i + _DRAW_CHUNK] = now
        after[i : i + _DRAW_CHUNK] = np.where(part < 4, values, NO_DRAW)
    return current, after
