"""Choosing between simultaneous claims on one tile, with Tenhou's priority.

Every seat that may react to a discard (or to an added kan) answers at once; the table then
applies at most one kind of claim: ron before pon or kan, pon or kan before chi. Several rons on one
tile are a double ron (the winners in turn order from the discarder) under ``double_ron``; three are
an abortive draw under ``triple_ron_abort`` (Tenhou), or else as many as the rules let win, the
nearest first (atamahane). Two pons (or a pon and a kan) on one tile cannot both exist: four
copies do not go round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import Move
from mjcli.riichi.engine.settlement import ron_order
from mjcli.riichi.rules import Rules


@dataclass(frozen=True, slots=True)
class Resolution:
    """What the table does with the answers: ``wins`` (seats, in settlement order), a triple-ron
    abort, one ``call`` (its events), or nothing (everyone passed)."""

    wins: tuple[int, ...] = ()
    triple_ron: bool = False
    call: Move | None = None


def resolve(discarder: int, answers: Mapping[int, Move], rules: Rules) -> Resolution:
    """The claim that wins out among ``answers`` (seat -> the move it chose)."""
    rons = [s for s, a in answers.items() if a and isinstance(a[0], ev.Win)]
    if rons:
        order = ron_order(discarder, rons)
        if len(order) >= 3 and rules.triple_ron_abort:
            return Resolution(triple_ron=True)
        return Resolution(wins=tuple(order[: 2 if rules.double_ron else 1]))
    calls = [(s, a) for s, a in answers.items() if a and isinstance(a[0], ev.Pon | ev.OpenKan | ev.Chi)]
    if not calls:
        return Resolution()
    # Pon and kan first; a chi (only ever from the discarder's right-hand neighbour) last.
    calls.sort(key=lambda sa: (isinstance(sa[1][0], ev.Chi), (sa[0] - discarder) % 4))
    return Resolution(call=calls[0][1])
