"""Every policy on every decision point of every shared log: the answer is one of the engine's legal
actions, has a reason, and maps back to the engine's events. Also the engine bridge itself: the
view holds what the seat can see, and what the player did is among the legal actions."""

from pathlib import Path

import pytest

from mjcli.formats import read_logs
from mjcli.game.state import Round
from mjcli.policies import POLICY_NAMES, get_policy
from mjcli.policies.engine_view import LogDecision, action_of, log_decisions
from mjcli.policies.view import Action

LOGS = Path("/work/shared/logs")

pytestmark = pytest.mark.skipif(not LOGS.is_dir(), reason="shared logs not available")


@pytest.fixture(scope="module")
def decisions() -> list[LogDecision]:
    out: list[LogDecision] = []
    for res in read_logs([LOGS]):
        for game in res.games:
            out.extend(log_decisions(game.events))
    return out


def test_the_logs_give_every_kind_of_decision(decisions):
    assert len(decisions) > 10_000
    actual = {d.actual.kind for d in decisions if d.actual is not None}
    assert actual >= {"discard", "riichi", "tsumo", "ron", "chi", "pon", "pass", "closed_kan", "added_kan"}
    assert actual >= {"open_kan", "nine_terminals"}
    # what the players did is legal for the engine, bar a handful of logs the engine disputes
    known = [d for d in decisions if d.actual is not None]
    disputed = [d for d in known if d.actual not in d.point.legal]
    assert len(disputed) <= len(known) // 1000


def test_views_hold_only_what_the_seat_sees(decisions):
    for d in decisions[:3000]:
        v = d.point.view
        assert v.seat == d.seat
        own = len(v.concealed) + 3 * len(v.own_melds)
        assert own in (13, 14, 15, 16, 17, 18)  # kans add one each
        if v.offered is not None:
            assert v.offered_by != v.seat and v.drawn is None


@pytest.mark.parametrize("name", POLICY_NAMES)
def test_every_log_decision_gets_a_legal_answer(decisions, name):
    policy = get_policy(name)
    for d in decisions:
        a = policy.decide(d.point.view, d.point.legal)
        assert a in d.point.legal, (d.round, d.seat, d.event_index, a, d.point.legal)
        assert a.reason


def test_action_of_engine_events():
    from mjcli.game import events as ev

    assert action_of(()) == Action("pass")
    assert action_of((ev.Riichi(1), ev.Discard(1, 5, False))) == Action("riichi", 5)
    assert action_of((ev.Pon(2, 1, 31, (31, 31)),)) == Action("pon", 31, (31, 31))
    assert action_of((ev.Win(0, 0, 7),)).kind == "tsumo"
    assert action_of((ev.Win(0, 3, 7),)).kind == "ron"
    assert isinstance(Round, type)
