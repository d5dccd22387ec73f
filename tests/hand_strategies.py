"""Pieces shared by the hypothesis strategies that build riichi hands (``test_scoring.py``,
``test_scoring_library.py``)."""

from __future__ import annotations

from hypothesis import strategies as st

from mjcli.tiles import KIND_TO_RED


def redden(draw: st.DrawFn, lists: list[list[int]]) -> None:
    """Make one copy of each five among ``lists`` (the concealed tiles, each meld's tiles) the red
    one, or not, as ``draw`` decides; in place."""
    for five, red in KIND_TO_RED.items():
        spots = [(lst, i) for lst in lists for i, t in enumerate(lst) if t == five]
        if spots and draw(st.booleans()):
            lst, i = draw(st.sampled_from(spots))
            lst[i] = red
