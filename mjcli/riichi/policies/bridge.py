"""The bridge between the rules engine and the bot policies.

The engine (:mod:`mjcli.riichi.engine.state`, :mod:`mjcli.riichi.engine.actions`) speaks in events: its
legal actions are moves (:data:`~mjcli.riichi.engine.actions.Move`, tuples of events, ``()`` being a
pass). The policies (:mod:`mjcli.riichi.policies`) speak in
:class:`~mjcli.riichi.policies.view.PlayerView` and :class:`~mjcli.riichi.policies.view.Action`. This module
translates both ways, for ``replay`` (a log's decisions put to the policies) and ``simulate``
(policies choosing the events of a game):

* :func:`view_of` / :class:`ViewBuilder`: what one seat sees of a round, and nothing more (its
  own concealed tiles, rivers, melds, indicators, scores, riichi flags, the wall's size).
* :func:`legal_of`: a seat's legal actions as policy actions, each with the engine events behind
  it (:meth:`Legal.events_for` is the way back).
* :func:`actual_action`: what a log's player did at a decision point, read from the events after it.
* :func:`action_text` / :func:`parse_action_text`: the one-line form of an action stored in Parquet
  (``nukidora 4z`` for a North set aside in three-player).

The engine lists two discards of the drawn tile's code when the hand holds another copy (from the
hand or the drawn copy: only the river's tsumogiri mark differs); a policy sees one ``discard``
action, mapped back to the drawn copy (:func:`legal_of`).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from dataclasses import dataclass

from mjcli.errors import NotationError
from mjcli.melds import Meld
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import DISCARD_MOVES, RIICHI_MOVES, Move, legal_actions, turn_options
from mjcli.riichi.engine.state import KAN, REACT, TURN, RiverEntry, Round
from mjcli.riichi.policies.view import (
    REACTION_KINDS,
    Action,
    PlayerView,
    RiverTile,
    shown_counts,
    visible_from_shown,
)
from mjcli.riichi.policies.view import action_text as action_text  # its home: no engine import
from mjcli.tiles import EAST, NUM_KINDS, NUM_TILES, in_hand_order, kind, parse_tile, parse_tiles

PASS = Action("pass")
#: events the table makes by itself between a decision and the players' answers
TABLE_EVENTS = (ev.RiichiAccepted, ev.NewDora)
KAN_KINDS = frozenset({"closed_kan", "added_kan"})


_RIICHI_SHOWN = operator.attrgetter("riichi_declared")
_KIND = tuple(kind(t) for t in range(NUM_TILES))


def _sorted(tiles: Sequence[int]) -> tuple[int, ...]:
    """Tiles in hand order, as a tuple."""
    return tuple(in_hand_order(tiles))


# ---------------------------------------------------------------- views


class ViewBuilder:
    """Builds the views of one round, re-using the converted rivers and melds while they hold.

    Within a round a river only grows, and only its last tile can be marked as taken by a call,
    which also adds a meld; melds change only by a call (one more meld) or a kan (an added kan
    replaces its pon). So the river lengths, the meld counts and the kan counts tell whether the
    converted copies are still good (:meth:`_table`). This matters: a view is built at every decision
    point, several hundred times per game. The builder follows the round it was made for as that
    round moves on.
    """

    __slots__ = (
        "rnd",
        "_lists",
        "_key",
        "_rivers",
        "_melds",
        "_seen",
        "_most",
        "_dora",
        "_indicators",
        "_kita",
    )

    def __init__(self, rnd: Round) -> None:
        self.rnd = rnd
        # The players' river and meld lists themselves: the engine appends to them or changes them
        # in place, never replaces them, so their lengths are read by ``map`` with no bytecode per
        # seat (bench_speed: "walk a log to every decision").
        self._lists = [q.river for q in rnd.players] + [q.melds for q in rnd.players]
        self._key = [0] * (3 * rnd.n)  # river lengths, meld counts, kan counts: a fresh round's
        self._rivers: tuple[tuple[RiverTile, ...], ...] = ((),) * rnd.n
        self._melds: tuple[tuple[Meld, ...], ...] = ((),) * rnd.n
        # Per kind, the copies shown on the table (rivers but their called tiles, every meld, the
        # dora indicators), kept up to date as the table changes, for each view's visible counts
        # (PlayerView.visible_tuple) instead of a count over every river and meld per view
        # (bench_speed: "replay, 4 policies, one core"); ``_dora`` indicators counted in so far.
        self._seen = [0] * NUM_KINDS
        self._most = 0  # the largest of ``_seen``, for visible_from_shown's cap
        self._dora = 0
        # the indicators as a view's tuple, made again only as one is turned, and whether the
        # variant sets Norths aside (read once a round, not per view: bench_speed "walk a log to
        # every decision", "self-play")
        self._indicators: tuple[int, ...] = ()
        self._kita = rnd.variant.nukidora is not None

    def _table(self) -> tuple[tuple[tuple[RiverTile, ...], ...], tuple[tuple[Meld, ...], ...]]:
        """Every seat's river and melds, converted again only where they changed.

        One key for the whole table (one list, compared at C speed) instead of one per river: most
        views find nothing changed, or one river one tile longer (bench_speed: "walk a log to
        every decision").
        """
        rnd = self.rnd
        players = rnd.players
        key = list(map(len, self._lists))
        key += rnd.kans
        old = self._key
        if key != old:
            n = rnd.n
            # Nearly every view finds one tile more in one river and nothing else changed: the
            # discard on the table, or the one before the seat on turn drew. That seat's river is
            # tried first, with no loop over the seats (bench_speed: "walk a log to every
            # decision", "self-play").
            s = rnd.current if rnd.phase != TURN else (rnd.current - 1) % n
            old[s] += 1
            one_more = key == old
            old[s] -= 1
            if one_more:
                rivers = list(self._rivers)
                if self._grown_by_one(rivers, s):
                    self._rivers = tuple(rivers)
                    self._key = key
                    return self._rivers, self._melds
            if key[n:] != old[n:]:  # a call or kan: melds, and maybe a river's called mark
                self._after_calls(key, old)
            else:  # only discards since: the rivers that grew get their new tiles
                rivers = list(self._rivers)
                recount = False
                for s in range(n):
                    grown = key[s] - old[s]
                    if grown and not (grown == 1 and self._grown_by_one(rivers, s)):
                        rivers[s] = _extended(rivers[s], players[s].river)
                        recount = True
                self._rivers = tuple(rivers)
                if recount:
                    self._recount()
            self._key = key
        return self._rivers, self._melds

    def _grown_by_one(self, rivers: list[tuple[RiverTile, ...]], s: int) -> bool:
        """Seat ``s``'s converted river in ``rivers`` brought up to date with the one tile more in
        its river, and that tile counted among the shown ones; False (nothing done) when the
        converted last tile's called mark changed since.

        (The tile appended here without ``_extended``'s call and list: the discard since the last
        view, nearly every view; bench_speed: "walk a log to every decision".)
        """
        c, r = rivers[s], self.rnd.players[s].river
        if c and c[-1].called != r[-2].called:
            return False
        e = r[-1]
        # (a tuple concatenated, not unpacked into a list made a tuple: bench_speed "walk a log to
        # every decision", "self-play")
        rivers[s] = c + (_RIVER_TILE[(e.tile << 3) | (e.tsumogiri << 2) | (e.called << 1) | e.riichi],)
        if not e.called:
            seen = self._seen
            k = _KIND[e.tile]
            seen[k] += 1
            if seen[k] > self._most:
                self._most = seen[k]
        return True

    def _after_calls(self, key: list[int], old: list[int]) -> None:
        """The converted melds and rivers brought up to date after a call or kan (``key`` the table's
        key now, ``old`` at the last view), and the shown copies changed by what changed only: the
        melds of a seat that called or made a kan, a river's last converted tile now marked called,
        the tiles discarded since (not counted again over the whole table: a first-legal policy calls
        whatever it may, a third of self-play's views follow a call; bench_speed "self-play").
        """
        n = self.rnd.n
        seen = self._seen
        rivers = list(self._rivers)
        melds = list(self._melds)
        for s, q in enumerate(self.rnd.players):
            if key[n + s] != old[n + s] or key[2 * n + s] != old[2 * n + s]:
                before, melds[s] = melds[s], tuple(q.melds)
                for m in before:
                    for t in m.tiles:
                        seen[_KIND[t]] -= 1
                for m in melds[s]:
                    for t in m.tiles:
                        seen[_KIND[t]] += 1
            c = rivers[s]
            r = rivers[s] = _extended(c, q.river)
            if r is not c:
                # the tiles from the first that changed: the last converted one when its called
                # mark changed (``_extended`` converted it again), else the ones added
                start = len(c) - 1 if c and r[len(c) - 1] is not c[-1] else len(c)
                for x in c[start:]:
                    if not x.called:
                        seen[_KIND[x.tile]] -= 1
                for x in r[start:]:
                    if not x.called:
                        seen[_KIND[x.tile]] += 1
        self._rivers = tuple(rivers)
        self._melds = tuple(melds)
        self._most = max(seen)

    def _recount(self) -> None:
        """The table's shown copies (``_seen``) counted again from the converted rivers and melds."""
        self._seen = shown_counts(self._rivers, self._melds, self.rnd.dora[: self._dora])
        self._most = max(self._seen)

    def _count_dora(self) -> None:
        """The indicators turned since the last view counted into the table's shown copies (they
        are only ever added)."""
        dora = self.rnd.dora
        seen = self._seen
        for t in dora[self._dora :]:
            seen[_KIND[t]] += 1
        self._most = max(seen)
        self._dora = len(dora)
        self._indicators = tuple(dora)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` sees of the round right now."""
        rnd = self.rnd
        players = rnd.players
        p = players[seat]
        hand = in_hand_order(p.hand)
        phase = rnd.phase
        drawn = offered = offered_by = None
        if phase == TURN:
            if rnd.current == seat:
                drawn = rnd.drawn
                if drawn is not None:
                    hand.remove(drawn)  # (one copy of an int: the same tiles in the same order as before)
        elif phase == REACT:
            if rnd.last_tile is not None and rnd.current != seat:
                offered, offered_by = rnd.last_tile, rnd.current
        elif phase == KAN and rnd.last_tile is not None and rnd.kan_actor != seat:
            offered, offered_by = rnd.last_tile, rnd.kan_actor  # the tile of an added (or closed) kan
        rivers, melds = self._table()
        if len(rnd.dora) != self._dora:
            self._count_dora()
        kita = tuple(len(q.kita) for q in players) if self._kita else ()
        scores = tuple(rnd.scores)
        # (fields in a dict literal, not keywords to the frozen dataclass's __init__: what
        # PlayerView.from_fields does, inline; bench_speed "walk a log to every decision", "self-play")
        view = _new_object(PlayerView)
        _set_attribute(
            view,
            "__dict__",
            {
                "seat": seat,
                "hand": tuple(hand),
                "drawn": drawn,
                "melds": melds,
                "rivers": rivers,
                "dora_indicators": self._indicators,
                "scores": scores,
                "round_wind": rnd.round_wind,
                "dealer": rnd.dealer,
                "honba": rnd.honba,
                "sticks": rnd.sticks,
                # a declared riichi is visible (the tile is turned sideways) before its stick is paid
                # (``riichi_declared`` alone: the engine accepts only a declared riichi and never
                # withdraws one, so it is ``riichi or riichi_declared``, read by a C-level map with
                # no comprehension; bench_speed "walk a log to every decision", "self-play")
                "riichi": tuple(map(_RIICHI_SHOWN, players)),
                "wall_left": rnd.wall,
                "offered": offered,
                "offered_by": offered_by,
                "first_turn": not rnd.interrupted and p.discards == 0,
                "shown_hands": _shown_hands(rnd, seat) if rnd.hands_shown else (),
                "kita": kita,
                # worked out here from the table's counts kept up to date, the same numbers as the
                # view's own count (a test compares them on every decision point of the shared logs;
                # outside the fields, no part in equality, hash or repr; called here with no method
                # in between: bench_speed "walk a log to every decision", "self-play")
                "visible_tuple": visible_from_shown(
                    self._seen, rivers, melds, offered, offered_by, kita, len(scores), self._most
                ),
                # and the concealed counts: the engine keeps the counts of the seat's hand (the drawn
                # tile in it), the view's concealed tiles, so no count per view (bench_speed:
                # "replay, 4 policies, one core")
                "concealed_tuple": tuple(p.counts),
            },
        )
        return view


def _extended(cached: tuple[RiverTile, ...], river: Sequence[RiverEntry]) -> tuple[RiverTile, ...]:
    """``cached`` (the converted copy of the first tiles of ``river``) brought up to date."""
    n = len(cached)
    if n == len(river) and (not n or cached[-1].called == river[-1].called):
        return cached
    if n > len(river):
        n, cached = 0, ()  # not a copy of this river's first tiles: convert it all again
    elif n and cached[-1].called != river[n - 1].called:
        # its last tile was called since (only a river's last tile is ever called): that one
        # converted again, not the whole river (after every call; bench_speed "self-play")
        n, cached = n - 1, cached[:-1]
    # (shared river tiles from a table, not a frozen dataclass built per tile: bench_speed "self-play",
    # "walk a log to every decision")
    return cached + tuple(
        [_RIVER_TILE[(r.tile << 3) | (r.tsumogiri << 2) | (r.called << 1) | r.riichi] for r in river[n:]]
    )


#: every river tile, at ``tile << 3 | tsumogiri << 2 | called << 1 | riichi``: a river tile is
#: immutable and equal by value, so one object serves every river it lies in
_RIVER_TILE = tuple(
    RiverTile(t, bool(b & 4), bool(b & 2), bool(b & 1)) for t in range(NUM_TILES) for b in range(8)
)


def _shown_hands(rnd: Round, seat: int) -> tuple[tuple[int, ...] | None, ...]:
    """The concealed tiles of the other seats that play with their hand shown (None for the rest)."""
    return tuple(
        _sorted(q.hand) if s != seat and s in rnd.hands_shown else None for s, q in enumerate(rnd.players)
    )


def view_of(rnd: Round, seat: int) -> PlayerView:
    """What ``seat`` sees of the round ``rnd`` right now (one-off; see :class:`ViewBuilder`)."""
    return ViewBuilder(rnd).view(seat)


# ---------------------------------------------------------------- actions both ways


_new_object = object.__new__
_set_attribute = object.__setattr__  # (a frozen dataclass refuses its own __setattr__)
_DISCARD_ACTION = tuple(Action("discard", t) for t in range(NUM_TILES))
_RIICHI_ACTION = tuple(Action("riichi", t) for t in range(NUM_TILES))
_KIND_OF = operator.attrgetter("kind")
_Discard, _Riichi = ev.Discard, ev.Riichi


def action_of(events: Move) -> Action:
    """The policy action for one engine move (a tuple of events; ``()`` is a pass)."""
    if not events:
        return PASS
    first = events[0]
    t = type(first)
    if t is ev.Discard:  # (equal actions from a table, which dict look-ups find by identity)
        return _DISCARD_ACTION[first.tile]
    if t is ev.Riichi:
        return _RIICHI_ACTION[events[1].tile]  # type: ignore[attr-defined]
    if t is ev.Win:
        return Action("tsumo" if first.actor == first.target else "ron", first.tile)
    if t is ev.Chi:
        return Action("chi", first.tile, _sorted(first.consumed))
    if t is ev.Pon:
        return Action("pon", first.tile, _sorted(first.consumed))
    if t is ev.OpenKan:
        return Action("open_kan", first.tile, _sorted(first.consumed))
    if t is ev.ClosedKan:
        tiles = _sorted(first.consumed)
        return Action("closed_kan", tiles[0], tiles)
    if t is ev.AddedKan:
        return Action("added_kan", first.tile, _sorted(first.consumed))
    if t is ev.Nukidora:
        return Action("nukidora", first.tile)
    if t is ev.RoundDraw and first.reason == ev.NINE_TERMINALS:
        return Action("nine_terminals")
    raise ValueError(f"not a player's action: {events!r}")


@dataclass(frozen=True)
class Legal:
    """A seat's legal actions for the policies, in the engine's order, and the events behind each.

    (No ``__slots__``: :func:`legal_of` makes each one from a dict of its two fields, as
    :meth:`PlayerView.from_fields <mjcli.riichi.policies.view.PlayerView.from_fields>` does, not
    through the frozen dataclass's ``__init__``: at every decision point; bench_speed "self-play",
    "walk a log to every decision".)
    """

    actions: tuple[Action, ...]
    events: dict[Action, Move]

    def events_for(self, action: Action) -> Move:
        """The engine events carrying out ``action``; KeyError when it is not legal."""
        return self.events[action]

    def __len__(self) -> int:
        return len(self.actions)

    def __contains__(self, action: object) -> bool:
        return action in self.events


NO_ACTIONS = Legal((), {})
ONLY_PASS = Legal((PASS,), {PASS: ()})


def may_react(rnd: Round, seat: int) -> bool:
    """False when ``seat`` surely has nothing but a pass on the discard on the table.

    A cheap filter in front of :func:`~mjcli.riichi.engine.actions.legal_actions` (most seats, most of the
    time, can do nothing with a discard): a ron needs the tile among the seat's waits (memoised by
    the engine), a pon or kan two copies in hand, a chi the seat after the discarder and a number
    tile. When it says True the engine decides. A test checks that it never hides an option.
    """
    tile = rnd.last_tile
    if tile is None:
        return False
    p = rnd.players[seat]
    k = _KIND[tile]  # (a table, not a call: this runs for every seat on every discard)
    # (the memoised waits read directly, as the engine's ``_pass_tile`` does, and an honour told by
    # its kind (from East on), not by a call: three seats a discard; bench_speed "self-play", "walk a
    # log to every decision")
    w = p._waits
    if w is None:
        w = p.waits()
    if k in w:
        return True
    if p.riichi or p.riichi_declared:
        return False
    c = p.counts
    if c[k] >= 2:
        return True
    if k >= EAST or not rnd.variant.chi or seat != (rnd.current + 1) % rnd.n:
        return False
    n = k % 9
    return (
        (n >= 2 and c[k - 2] and c[k - 1])
        or (1 <= n <= 7 and c[k - 1] and c[k + 1])
        or (n <= 6 and c[k + 1] and c[k + 2])
    )


def reacting_seats(rnd: Round, seats: Sequence[int]) -> list[int]:
    """The seats among ``seats`` (not the discarder) for which :func:`may_react` says True, in order.

    The same test as :func:`may_react`, inlined in one loop over the seats: a walk asks it of every
    other seat on every discard (13k times in 8 hanchan), and the seats it leaves out (nine in ten)
    then cost no call at all (bench_speed: "walk a log to every decision").
    """
    tile = rnd.last_tile
    if tile is None:
        return []
    k = _KIND[tile]
    players = rnd.players
    # the one seat that may chi: the discarder's next, on a number tile, when the variant has chi
    chi_seat = (rnd.current + 1) % rnd.n if k < EAST and rnd.variant.chi else -1
    n = k % 9
    out = []
    for seat in seats:
        p = players[seat]
        w = p._waits
        if w is None:
            w = p.waits()
        if k in w:
            out.append(seat)
            continue
        c = p.counts
        # (the riichi flags read only for a seat that holds a pon or chi: most seats hold neither;
        # bench_speed "walk a log to every decision", "self-play")
        if (
            c[k] >= 2
            or (
                seat == chi_seat
                and (
                    (n >= 2 and c[k - 2] and c[k - 1])
                    or (1 <= n <= 7 and c[k - 1] and c[k + 1])
                    or (n <= 6 and c[k + 1] and c[k + 2])
                )
            )
        ) and not (p.riichi or p.riichi_declared):
            out.append(seat)
    return out


def legal_of(rnd: Round, seat: int) -> Legal:
    """The seat's legal actions as policy actions (see :class:`Legal`)."""
    if rnd.phase == REACT and seat != rnd.current and not may_react(rnd, seat):
        return ONLY_PASS if rnd.last_tile is not None else NO_ACTIONS
    return legal_listed(rnd, seat)


def legal_listed(rnd: Round, seat: int) -> Legal:
    """:func:`legal_of` without :func:`may_react` in front, for a caller that has asked it already
    (:func:`reacting_seats`): the engine lists the seat's actions (bench_speed: "walk a log to every
    decision")."""
    back: dict[Action, Move] = {}
    if rnd.phase == TURN and seat == rnd.current:
        # The seat on turn: its actions made from the engine's parts of its moves (``turn_options``)
        # as ``turn_moves`` makes the moves, the same actions in the same order with the same
        # moves (of the drawn tile's two discards, the drawn copy). The discards and riichi
        # declarations, a dozen a turn, come from tables by one comprehension each, instead of the
        # engine listing the moves and the loop below finding each one's action (bench_speed: "walk
        # a log to every decision", "self-play").
        head, tiles, riichi, _twice = turn_options(rnd, seat)
        for events in head:  # (a win, nine terminals, kans, nukidora: no two of one action)
            back.setdefault(action_of(events), events)
        drawn = rnd.drawn
        for actions, (plain, drawn_copy), chosen in (
            (_DISCARD_ACTION, DISCARD_MOVES[seat], tiles),
            (_RIICHI_ACTION, RIICHI_MOVES[seat], riichi),
        ):
            if chosen:
                # (the comprehension's dict itself on most turns, not copied into an empty one;
                # added to the rarer moves or, for the riichi moves, to the discards; bench_speed
                # "walk a log to every decision", "self-play")
                made = {actions[t]: plain[t] for t in chosen}
                if back:
                    back.update(made)
                else:
                    back = made
                if drawn is not None and drawn in chosen:
                    back[actions[drawn]] = drawn_copy[drawn]  # (in place: tsumogiri)
        legal = _new_object(Legal)
        _set_attribute(legal, "__dict__", {"actions": tuple(back), "events": back})
        return legal
    keep = back.setdefault
    discard, riichi = _DISCARD_ACTION, _RIICHI_ACTION  # (locals: the loop runs a dozen times a turn)
    for events in legal_actions(rnd, seat):
        t = type(events[0]) if events else None
        if t is _Discard:  # most actions: the policy action from a table
            a = discard[events[0].tile]  # type: ignore[attr-defined]
        elif t is _Riichi:
            a = riichi[events[1].tile]  # type: ignore[attr-defined]
        else:
            a = action_of(events)
        # Of the two discards of the drawn tile's code, keep the drawn copy (tsumogiri), at the
        # place of the first. One hash of the action each, not two: an Action's hash is a Python
        # call, most of this loop's time (a turn's legal actions in 0.7 of the time of the loop
        # testing ``a in back`` first; bench_speed "walk a log to every decision"). A plain loop:
        # the same by chains of C-level ``map`` over tables took longer, not shorter.
        if keep(a, events) is not events and getattr(events[-1], "tsumogiri", False):
            back[a] = events
    legal = _new_object(Legal)
    _set_attribute(legal, "__dict__", {"actions": tuple(back), "events": back})
    return legal


# ---------------------------------------------------------------- what the log's player did


def _next_action_index(events: Sequence[object], i: int) -> int:
    """Index of the first event after ``i`` that is not the table's own (dora, riichi stick)."""
    j = i + 1
    while j < len(events) and isinstance(events[j], TABLE_EVENTS):
        j += 1
    return j


def claimed(events: Sequence[object], i: int) -> bool:
    """Did anyone take the tile offered after event ``i`` (a ron, a call, a triple ron)?"""
    j = _next_action_index(events, i)
    if j >= len(events):
        return False
    e = events[j]
    return isinstance(e, ev.Win | ev.Chi | ev.Pon | ev.OpenKan) or (
        isinstance(e, ev.RoundDraw) and e.reason == ev.TRIPLE_RON
    )


def actual_action(
    events: Sequence[object], i: int, seat: int, legal: Legal, reacting: bool | None = None
) -> tuple[Action, bool] | None:
    """What ``seat`` did at the decision point right after event ``i``, and whether a discard was
    of the drawn tile (the river's tsumogiri mark); None when the log stops before saying.
    ``reacting`` (the seat answers another's tile: every legal action a reaction) when the caller
    knows it, else worked out from ``legal``.

    On a turn: the seat's next action (riichi with its discard, discard, tsumo, kan, nine
    terminals). On another player's tile: a ron (several rons come as consecutive wins; a triple
    ron, which aborts the round, counts as a ron of each seat that could win), a call, or else a
    pass: a log does not record a call that lost to another player's ron or pon, so that is a pass.
    """
    j = _next_action_index(events, i)
    if j >= len(events):
        return None
    e = events[j]
    if reacting is None:
        # (the kinds through a C-level map, no generator: bench_speed "walk a log to every decision")
        reacting = bool(legal.actions) and REACTION_KINDS.issuperset(map(_KIND_OF, legal.actions))
    if reacting:
        if isinstance(e, ev.RoundDraw) and e.reason == ev.TRIPLE_RON:
            rons = [a for a in legal.actions if a.kind == "ron"]
            return (rons[0] if rons else PASS), False
        k = j
        while k < len(events) and isinstance(events[k], ev.Win):
            if events[k].actor == seat:  # type: ignore[attr-defined]
                return action_of((events[k],)), False
            k += 1
        if isinstance(e, ev.Chi | ev.Pon | ev.OpenKan) and e.actor == seat:
            return action_of((e,)), False
        return PASS, False
    if isinstance(e, ev.Riichi):
        k = j + 1
        while k < len(events) and not isinstance(events[k], ev.Discard):
            k += 1
        if k >= len(events):
            return None
        d = events[k]
        return action_of((e, d)), d.tsumogiri  # type: ignore[attr-defined]
    if isinstance(e, ev.Discard):
        return action_of((e,)), e.tsumogiri
    try:
        return action_of((e,)), False
    except ValueError:
        return None


# ---------------------------------------------------------------- the stored text form


@functools.lru_cache(maxsize=4096)
def parse_action_text(text: str) -> Action:
    """The inverse of :func:`action_text`; :class:`NotationError` naming the text otherwise."""
    parts = text.split()
    try:
        if len(parts) == 1:
            return Action(parts[0])
        if len(parts) == 2:
            return Action(parts[0], parse_tile(parts[1]))
        if len(parts) == 3:
            return Action(parts[0], parse_tile(parts[1]), _sorted(parse_tiles(parts[2])))
    except NotationError as exc:
        raise NotationError(f"action '{text}': {exc}") from None
    raise NotationError(f"action '{text}' is not '<kind> [tile [tiles]]'")


def decision_kind(legal: Legal, reacting: bool, tile_claimed: bool) -> str:
    """The kind of a decision point, from what the seat was offered (see the README's columns).

    On a turn: ``win`` (tsumo offered), ``kan``, ``nukidora`` (three-player: a North may be set
    aside, unless nine terminals may be declared), ``riichi``, ``abort`` (nine terminals), else
    ``discard``. On another player's tile:
    ``win`` (ron offered), else ``call`` when someone took the tile and ``pass`` when every seat let
    it go by.
    """
    kinds = set(map(_KIND_OF, legal.actions))  # (C-level, no comprehension: at every decision point)
    if reacting:
        if "ron" in kinds:
            return "win"
        return "call" if tile_claimed else "pass"
    if "tsumo" in kinds:
        return "win"
    if kinds & KAN_KINDS:
        return "kan"
    if "nukidora" in kinds and "nine_terminals" not in kinds:
        return "nukidora"
    if "riichi" in kinds:
        return "riichi"
    if "nine_terminals" in kinds:
        return "abort"
    return "discard"
