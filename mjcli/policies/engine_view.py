"""The bridge between the rules engine (:mod:`mjcli.game`) and the policies.

* :func:`view_of` turns the engine's round state into the :class:`PlayerView` of one seat: only
  what that seat can see (its own hand, every river and meld, indicators, scores, riichi flags).
* :func:`legal_of` turns the engine's legal actions (tuples of events, ``()`` for a pass) into
  policy :class:`Action` values, and keeps the way back: :func:`events_for` gives the event tuple
  to apply for the action a policy returned.
* :func:`log_decisions` walks a game log through the engine and yields every decision point with
  what the player actually did there: the input of the log-based tests, the benchmark and
  ``advise LOG``.

A discard of the tile just drawn exists twice in the engine (from the hand or the drawn copy, the
river's tsumogiri mark); policies see one ``discard`` action, mapped back to the drawn copy.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from mjcli.game import events as ev
from mjcli.game.actions import legal_actions
from mjcli.game.state import ENDED, KAN, REACT, TURN, Round
from mjcli.game.table import Game
from mjcli.policies.view import Action, DecisionPoint, PlayerView, RiverTile
from mjcli.rules import Rules, get_rules
from mjcli.tiles import sort_key

EngineAction = tuple[object, ...]

# events after which a seat may have a new decision to make
_DECISION_AFTER = (ev.Draw, ev.Discard, ev.Chi, ev.Pon, ev.ClosedKan, ev.AddedKan)
_PASS = Action("pass")
# events the table makes by itself, between a decision and the players' answers
_TABLE_EVENTS = (ev.RiichiAccepted, ev.NewDora, ev.EndRound)


def _sorted(tiles: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(tiles, key=sort_key))


def view_of(rnd: Round, seat: int) -> PlayerView:
    """What ``seat`` sees of the round ``rnd`` right now."""
    p = rnd.players[seat]
    hand = list(p.hand)
    drawn = rnd.drawn if (rnd.phase == TURN and rnd.current == seat) else None
    if drawn is not None:
        hand.remove(drawn)
    offered = offered_by = None
    if rnd.phase == REACT and rnd.last_tile is not None and rnd.current != seat:
        offered, offered_by = rnd.last_tile, rnd.current
    elif rnd.phase == KAN and rnd.last_tile is not None and rnd.kan_actor != seat:
        offered, offered_by = rnd.last_tile, rnd.kan_actor
    return PlayerView(
        seat=seat,
        hand=_sorted(hand),
        drawn=drawn,
        melds=tuple(tuple(q.melds) for q in rnd.players),
        rivers=tuple(
            tuple(RiverTile(r.tile, r.tsumogiri, r.called, r.riichi) for r in q.river) for q in rnd.players
        ),
        dora_indicators=tuple(rnd.dora),
        scores=tuple(rnd.scores),
        round_wind=rnd.round_wind,
        dealer=rnd.dealer,
        honba=rnd.honba,
        sticks=rnd.sticks,
        riichi=tuple(q.riichi or q.riichi_declared for q in rnd.players),
        wall_left=rnd.wall,
        offered=offered,
        offered_by=offered_by,
        first_turn=not rnd.interrupted and p.discards == 0,
    )


def action_of(events: EngineAction) -> Action:
    """The policy action for one engine action (a tuple of events; ``()`` is a pass)."""
    if not events:
        return Action("pass")
    first = events[0]
    if isinstance(first, ev.Riichi):
        return Action("riichi", events[1].tile)  # type: ignore[attr-defined]
    if isinstance(first, ev.Discard):
        return Action("discard", first.tile)
    if isinstance(first, ev.Win):
        return Action("tsumo" if first.actor == first.target else "ron", first.tile)
    if isinstance(first, ev.Chi):
        return Action("chi", first.tile, _sorted(first.consumed))
    if isinstance(first, ev.Pon):
        return Action("pon", first.tile, _sorted(first.consumed))
    if isinstance(first, ev.OpenKan):
        return Action("open_kan", first.tile, _sorted(first.consumed))
    if isinstance(first, ev.ClosedKan):
        tiles = _sorted(first.consumed)
        return Action("closed_kan", tiles[0], tiles)
    if isinstance(first, ev.AddedKan):
        return Action("added_kan", first.tile, _sorted(first.consumed))
    if isinstance(first, ev.RoundDraw) and first.reason == ev.NINE_TERMINALS:
        return Action("nine_terminals")
    raise ValueError(f"not a player's action: {events!r}")


def legal_of(rnd: Round, seat: int) -> tuple[tuple[Action, ...], dict[Action, EngineAction]]:
    """The seat's legal actions as policy actions, and the engine action behind each."""
    back: dict[Action, EngineAction] = {}
    for events in legal_actions(rnd, seat):
        a = action_of(events)
        # of the two discards of the drawn tile, keep the drawn copy (tsumogiri)
        if a in back and a.kind in ("discard", "riichi"):
            last = events[-1]
            if not getattr(last, "tsumogiri", False):
                continue
        back[a] = events
    return tuple(back), back


def events_for(action: Action, back: dict[Action, EngineAction]) -> EngineAction:
    """The engine events that carry out ``action`` (one of :func:`legal_of`'s actions)."""
    return back[action]


# ---------------------------------------------------------------- walking a log


@dataclass(frozen=True)
class LogDecision:
    """One decision point of a logged game, with what the player did (``None`` if the log stops)."""

    round: str  # "E1-0": round wind, kyoku, honba
    event_index: int  # index of the event after which the decision is made
    seat: int
    turn: int  # the seat's own turns so far in the round (decisions after a draw or a call)
    point: DecisionPoint
    actual: Action | None


def _round_label(rnd: Round) -> str:
    s = rnd.start
    return f"{'ESWN'[s.round_wind]}{s.kyoku}-{s.honba}"


def _actual(events: Sequence[object], i: int, seat: int, reaction: bool) -> Action | None:
    """What ``seat`` did after event ``i``: its next action, or a pass for an unanswered reaction."""
    j = i + 1
    while j < len(events) and isinstance(events[j], _TABLE_EVENTS):
        j += 1
    if j >= len(events):
        return None
    if reaction:
        # several rons on one tile come as consecutive Win events
        k = j
        while k < len(events) and isinstance(events[k], ev.Win):
            if events[k].actor == seat:  # type: ignore[attr-defined]
                return action_of((events[k],))
            k += 1
        e = events[j]
        if isinstance(e, (ev.Chi, ev.Pon, ev.OpenKan)) and e.actor == seat:
            return action_of((e,))
        return Action("pass")
    e = events[j]
    if isinstance(e, ev.Riichi):
        k = j + 1
        while k < len(events) and not isinstance(events[k], ev.Discard):
            k += 1
        return action_of((e, events[k])) if k < len(events) else None
    if getattr(e, "actor", seat) != seat and not isinstance(e, ev.RoundDraw):
        return None
    try:
        return action_of((e,))
    except ValueError:
        return None


def log_decisions(events: Sequence[object], rules: Rules | None = None) -> Iterator[LogDecision]:
    """Every decision point of a game log (its canonical events), in order.

    The game is replayed through the engine; after each event that can give a seat something to
    decide (a draw, a discard, a call, a kan) every seat with legal actions is a decision point.
    Stops quietly where the engine stops (an event the rules do not allow, a hidden draw).
    """
    game = Game(rules or get_rules("tenhou"))
    turns: dict[int, int] = {}
    for i, e in enumerate(events):
        try:
            game.apply(e, i)
        except Exception:  # the engine's verdict belongs to `verify`; here the walk just stops
            return
        if isinstance(e, ev.StartRound):
            turns = {}
            continue
        if not isinstance(e, _DECISION_AFTER):
            continue
        rec = game.current
        if rec is None or rec.state.phase == ENDED:
            continue
        rnd = rec.state
        for seat in range(4):
            legal, _ = legal_of(rnd, seat)
            if not legal or legal == (_PASS,):
                continue  # nothing to decide: only passing is allowed
            reaction = rnd.phase != TURN
            if not reaction:
                turns[seat] = turns.get(seat, 0) + 1
            yield LogDecision(
                round=_round_label(rnd),
                event_index=i,
                seat=seat,
                turn=turns.get(seat, 0),
                point=DecisionPoint(view_of(rnd, seat), legal),
                actual=_actual(events, i, seat, reaction),
            )
