"""The engine <-> policy bridge (mjcli.riichi.policies.bridge) on real logs: views hold only what the seat
can see,
the cheap reaction filter never hides an option, actions map both ways, the text form round-trips."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shared import LOGS

from mjcli.errors import NotationError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import legal_actions
from mjcli.riichi.engine.state import REACT, TURN
from mjcli.riichi.engine.table import Game
from mjcli.riichi.formats import read_log
from mjcli.riichi.policies.bridge import (
    ViewBuilder,
    action_of,
    action_text,
    actual_action,
    decision_kind,
    legal_of,
    may_react,
    parse_action_text,
    reacting_seats,
    view_of,
)
from mjcli.riichi.policies.view import Action
from mjcli.tiles import NUM_TILES, sort_key

GAMES = [
    LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog",
    LOGS / "tenhou-xml" / "2016081523gm-00a9-0000-122c42dc.mjlog",
    LOGS / "tenhou6-edge" / "chankan.json",
    LOGS / "tenhou6-edge" / "suukantsu_1.json",
]


def _walk():
    """(event index, round state) after every event of the test games; the state is live (it moves
    on with the next item): check it at once or copy it."""
    for path in GAMES:
        for game in read_log(path):
            engine = Game()
            for i, e in enumerate(game.events):
                engine.apply(e, i)
                rec = engine.current
                if rec is not None and not isinstance(e, ev.StartRound):
                    yield i, rec.state


@pytest.fixture
def states():
    return _walk()


def test_may_react_never_hides_an_option(states):
    checked = hidden = 0
    for _, rnd in states:
        if rnd.phase != REACT or rnd.last_tile is None:
            continue
        for seat in range(4):
            if seat == rnd.current:
                continue
            checked += 1
            if not may_react(rnd, seat):
                hidden += 1
                assert legal_actions(rnd, seat) == [()]
    assert checked > 3000 and hidden > checked // 2  # the filter does skip most seats


def test_reacting_seats_are_may_react_seat_by_seat(states):
    checked = 0
    for _, rnd in states:
        if rnd.phase != REACT:
            continue
        others = [s for s in range(rnd.n) if s != rnd.current]
        expected = [s for s in others if may_react(rnd, s)]
        assert reacting_seats(rnd, others) == expected
        checked += 1
    assert checked > 1000


def test_legal_of_maps_back_to_the_engine(states):
    for i, rnd in states:
        if i % 7:
            continue
        for seat in range(4):
            legal = legal_of(rnd, seat)
            engine = legal_actions(rnd, seat)
            assert {action_of(e) for e in engine} == set(legal.actions)
            for a in legal.actions:
                events = legal.events_for(a)
                assert events in engine and action_of(events) == a
                if a.kind == "discard" and a.tile == rnd.drawn and seat == rnd.current:
                    assert events[-1].tsumogiri  # the drawn copy is the one kept


def test_views_show_own_tiles_and_nothing_hidden(states):
    rng = random.Random(5)
    for i, rnd in states:
        if i % 11:
            continue
        for seat in range(4):
            v = view_of(rnd, seat)
            assert sorted(v.concealed, key=sort_key) == sorted(rnd.players[seat].hand, key=sort_key)
            assert v.drawn is None or (rnd.phase == TURN and rnd.current == seat)
            assert (v.offered is None) or v.offered_by != seat
            # other seats' concealed tiles changed: the view must not change
            other = copy.deepcopy(rnd)
            for q in other.players:
                if q.seat != seat:
                    rng.shuffle(q.hand)
                    q.hand[:] = [(t + 1) % 34 for t in q.hand]
            assert view_of(other, seat) == v


def test_view_builder_reuses_rivers_only_while_they_hold(states):
    builders = {}
    for _, rnd in states:
        b = builders.setdefault(id(rnd), ViewBuilder(rnd))
        for seat in range(4):
            assert b.view(seat) == view_of(rnd, seat)


def _action_strategy():
    tiles = st.integers(0, NUM_TILES - 1)
    return st.one_of(
        st.sampled_from([Action("pass"), Action("nine_terminals")]),
        st.builds(Action, st.sampled_from(["discard", "riichi", "tsumo", "ron"]), tiles),
        st.builds(
            lambda k, t, c: Action(k, t, tuple(sorted(c, key=sort_key))),
            st.sampled_from(["chi", "pon", "open_kan", "closed_kan", "added_kan"]),
            tiles,
            st.lists(tiles, min_size=2, max_size=4),
        ),
    )


@given(_action_strategy())
def test_action_text_round_trips(a):
    text = action_text(a)
    assert text.split()[0] == a.kind
    assert parse_action_text(text) == a


@pytest.mark.parametrize("bad", ["", "discard 5x", "pon 5m 55q", "a b c d"])
def test_bad_action_text_is_a_notation_error(bad):
    with pytest.raises(NotationError):
        parse_action_text(bad)


def test_actual_action_reads_riichi_calls_and_passes():
    from mjcli.riichi.policies.bridge import Legal

    react = Legal((Action("pon", 5, (5, 5)), Action("pass")), {})
    turn = Legal((Action("discard", 5), Action("riichi", 5)), {})
    events = [
        ev.Discard(0, 5, False),
        ev.RiichiAccepted(0),
        ev.Pon(2, 0, 5, (5, 5)),
        ev.Riichi(2),
        ev.NewDora(7),
        ev.Discard(2, 9, True),
    ]
    assert actual_action(events, 0, 2, react) == (Action("pon", 5, (5, 5)), False)
    assert actual_action(events, 0, 1, react) == (Action("pass"), False)
    assert actual_action(events, 2, 2, turn) == (Action("riichi", 9), True)
    assert actual_action(events, 5, 2, turn) is None  # the log stops: unknown
    ron = Legal((Action("ron", 5), Action("pass")), {})
    wins = [ev.Discard(0, 5, False), ev.Win(1, 0, 5), ev.Win(3, 0, 5)]
    assert actual_action(wins, 0, 3, ron) == (Action("ron", 5), False)
    triple = [ev.Discard(0, 5, False), ev.RoundDraw(ev.TRIPLE_RON)]
    assert actual_action(triple, 0, 2, ron) == (Action("ron", 5), False)


def test_decision_kinds():
    from mjcli.riichi.policies.bridge import Legal

    def legal(*kinds):
        return Legal(tuple(Action(k, 1) for k in kinds), {})

    assert decision_kind(legal("discard", "riichi"), False, False) == "riichi"
    assert decision_kind(legal("discard", "tsumo", "riichi"), False, False) == "win"
    assert decision_kind(legal("discard", "closed_kan"), False, False) == "kan"
    assert decision_kind(legal("discard", "nine_terminals"), False, False) == "abort"
    assert decision_kind(legal("discard"), False, False) == "discard"
    assert decision_kind(legal("ron", "pass"), True, False) == "win"
    assert decision_kind(legal("pon", "pass"), True, True) == "call"
    assert decision_kind(legal("pon", "pass"), True, False) == "pass"


@dataclasses.dataclass(frozen=True, slots=True)
class _DataclassAction:
    """Action as the frozen dataclass it was: the reference for its value semantics."""

    kind: str
    tile: int | None = None
    consumed: tuple[int, ...] = ()
    reason: str = dataclasses.field(default="", compare=False)


_actions = st.builds(
    lambda k, t, c, r: (k, t, tuple(c), r),
    st.sampled_from(["discard", "pon", "pass", "chi"]),
    st.none() | st.integers(0, 3),
    st.lists(st.integers(0, 3), max_size=2),
    st.sampled_from(["", "why"]),
)


@given(_actions, _actions)
def test_action_has_the_value_semantics_of_the_dataclass_it_was(x, y):
    a, b = Action(*x), Action(*y)
    old_a, old_b = _DataclassAction(*x), _DataclassAction(*y)
    assert (a == b, a != b, hash(a) == hash(b)) == (
        old_a == old_b,
        old_a != old_b,
        hash(old_a) == hash(old_b),
    )
    assert hash(a) == hash(old_a) and repr(a).replace("Action", "_DataclassAction", 1) == repr(old_a)
    assert (a.kind, a.tile, a.consumed, a.reason) == x
    plain = x[:3]
    assert (a == plain, a != plain, plain == a, plain != a) == (False, True, False, True)  # never a tuple
    for other in (b, plain, 1):
        with pytest.raises(TypeError):
            a < other  # noqa: B015  (not ordered, as the dataclass)
        with pytest.raises(TypeError):
            other >= a  # noqa: B015
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.tile = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.reason = "changed"  # type: ignore[misc]
    for copied in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a), copy.copy(a)):
        assert type(copied) is Action and repr(copied) == repr(a)
    assert repr(a.because("r")) == repr(Action(x[0], x[1], x[2], "r")) and a.because("r") == a
