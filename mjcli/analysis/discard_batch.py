"""The discard figures of many 3n+2 hands at once, in numpy: what ``replay`` asks of every hand of a log.

For an ``(N, 34)`` batch of 3n+2 four-player hands, :func:`discard_shanten_batch` gives the shanten
of each hand and the shanten left by discarding each kind held (the 3n+1 hand ``hand - kind``), in
two calls of :func:`~mjcli.analysis.shanten_calc.shanten_rows` over every row together.
:func:`improving_batch` gives, for chosen 3n+1 hands, their shanten and the kinds that lower it
(the improving kinds of :mod:`mjcli.analysis.ukeire`: a kind held four times is never one), through
:func:`~mjcli.analysis.ukeire.draw_table_batch`. The numbers are those of the one-hand functions
(:func:`~mjcli.analysis.shanten` and :func:`~mjcli.analysis.shanten_calc.shanten_after_each_draw`):
the same tables, looked up in numpy steps instead of one Python call per hand.

Why: a log's decision points are all known before any policy is asked, so their hands can be worked
out together (about 0.15 us a row in numpy against 25 us a hand one by one in Python).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mjcli.analysis.shanten_calc import shanten_rows
from mjcli.analysis.ukeire import draw_table_batch

#: shanten after a discard of a kind the hand does not hold
NO_DISCARD = 127


@dataclass(frozen=True, slots=True)
class DiscardShanten:
    """What :func:`discard_shanten_batch` gives: per hand its shanten, and per (hand, kind held), in
    hand then kind order, the shanten of the hand left by discarding that kind."""

    shanten: np.ndarray  # (N,) int8: each hand's shanten
    hand: np.ndarray  # (M,) intp: the hand of each row (ascending)
    kind: np.ndarray  # (M,) intp: the kind discarded (ascending within a hand)
    after: np.ndarray  # (M,) int8: the shanten of the hand left
    left: np.ndarray  # (M, 34) uint8: the hand left
    least: np.ndarray  # (N,) int8: each hand's least shanten after a discard


def discard_shanten_batch(hands: np.ndarray) -> DiscardShanten:
    """For an ``(N, 34)`` batch of 3n+2 hands (0..4 copies each, sizes already checked, none empty):
    their shanten and the shanten after discarding each kind held (:class:`DiscardShanten`)."""
    hands = np.asarray(hands, dtype=np.uint8)
    rows, kinds = np.nonzero(hands)  # one 3n+1 row per (hand, kind held), row-major
    left = hands[rows]
    left[np.arange(len(rows)), kinds] -= 1
    after = shanten_rows(left) if len(rows) else np.zeros(0, dtype=np.int8)
    current = shanten_rows(hands) if len(hands) else np.zeros(0, dtype=np.int8)
    least = np.full(len(hands), NO_DISCARD, dtype=np.int8)
    np.minimum.at(least, rows, after)
    return DiscardShanten(current, rows, kinds, after, left, least)


def improving_batch(hands: np.ndarray) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """For an ``(N, 34)`` batch of 3n+1 hands (0..4 copies each, sizes already checked): the shanten
    of each, ``(N,)`` int8, and the kinds that lower it, a tuple per hand in kind order (kinds held
    four times excluded): :meth:`HandMath.improving_of
    <mjcli.riichi.policies.hand_math.HandMath.improving_of>` of every hand."""
    current, after = draw_table_batch(hands)
    better = after < current[:, None]  # NO_DRAW (127) is never below a shanten
    rows, kinds = np.nonzero(better)
    # split the flat list of kinds by hand, in Python slices (no per-row numpy call)
    ends = np.cumsum(np.bincount(rows, minlength=len(current))).tolist()
    flat = kinds.tolist()
    out: list[tuple[int, ...]] = []
    start = 0
    for end in ends:
        out.append(tuple(flat[start:end]))
        start = end
    return current, out
