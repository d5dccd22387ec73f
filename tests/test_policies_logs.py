"""Every policy on every decision point of every shared log: the answer is one of the engine's legal
actions, has a reason, and maps back to the engine's events. Also the engine bridge itself
(:mod:`mjcli.riichi.policies.bridge` through :func:`mjcli.riichi.replay.decisions_of`, as replay and advise
use it):
the view holds what the seat can see, and what the player did is among the legal actions."""

from pathlib import Path

import pytest

from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.formats import read_logs
from mjcli.riichi.policies import POLICY_NAMES, get_policy
from mjcli.riichi.policies.bridge import action_of
from mjcli.riichi.policies.view import Action
from mjcli.riichi.replay import LogDecision, decisions_of


@pytest.fixture(scope="module")
def walk(shared_logs: Path) -> tuple[list[LogDecision], int, int]:
    """Every decision of the shared logs, the number of games, and of games the engine disputes
    (their decisions up to the disputed event are kept)."""
    out: list[LogDecision] = []
    games = disputed = 0
    for res in read_logs([shared_logs]):
        for game in res.games:
            games += 1
            try:
                for d in decisions_of(game.events):
                    out.append(d)
            except IllegalEvent:
                disputed += 1
    return out, games, disputed


@pytest.fixture(scope="module")
def decisions(walk) -> list[LogDecision]:
    return walk[0]


def test_the_logs_give_every_kind_of_decision(walk, decisions):
    assert len(decisions) > 10_000
    actual = {d.actual.kind for d in decisions}
    assert actual >= {"discard", "riichi", "tsumo", "ron", "chi", "pon", "pass", "closed_kan", "added_kan"}
    assert actual >= {"open_kan", "nine_terminals"}
    # what the players did is legal for the engine (decisions_of checks it), bar a handful of logs
    # the engine disputes
    _, games, disputed = walk
    assert all(d.actual in d.legal for d in decisions)
    assert disputed <= max(2, games // 50)


def test_views_hold_only_what_the_seat_sees(decisions):
    for d in decisions[:3000]:
        v = d.view
        assert v.seat == d.seat
        own = len(v.concealed) + 3 * len(v.own_melds)
        assert own in (13, 14, 15, 16, 17, 18)  # kans add one each
        if v.offered is not None:
            assert v.offered_by != v.seat and v.drawn is None
        assert len(d.legal) >= 2  # a decision point offers a choice


@pytest.mark.parametrize("name", POLICY_NAMES)
def test_every_log_decision_gets_a_legal_answer(decisions, name):
    policy = get_policy(name)
    for d in decisions:
        a = policy.decide(d.view, d.legal.actions)
        assert a in d.legal, (d.round, d.honba, d.turn, d.seat, a, d.legal.actions)
        assert a.reason
        assert action_of(d.legal.events_for(a)) == a  # the engine events carry out that action


def test_action_of_engine_events():
    from mjcli.riichi.engine import events as ev

    assert action_of(()) == Action("pass")
    assert action_of((ev.Riichi(1), ev.Discard(1, 5, False))) == Action("riichi", 5)
    assert action_of((ev.Pon(2, 1, 31, (31, 31)),)) == Action("pon", 31, (31, 31))
    assert action_of((ev.Win(0, 0, 7),)).kind == "tsumo"
    assert action_of((ev.Win(0, 3, 7),)).kind == "ron"


def test_hand_math_memos_agree_with_the_analysis_module(decisions):
    """The fused improving-kinds loop and the memoised discard figures of HandMath give what
    mjcli.analysis gives from scratch, on every decision hand of the logs and on random hands."""
    import random

    from mjcli.analysis.shanten_calc import shanten_after_each_draw
    from mjcli.riichi.policies import hand_math

    def reference(hand: bytes) -> tuple[int, tuple[int, ...]]:
        current, after = shanten_after_each_draw(hand)
        return current, tuple(k for k, s in enumerate(after) if s is not None and s < current)

    hands = set()
    for d in decisions:
        counts = d.view.concealed_counts()
        if sum(counts) % 3 == 1:
            hands.add(bytes(counts))
        else:
            for k in range(34):
                if counts[k]:
                    counts[k] -= 1
                    hands.add(bytes(counts))
                    counts[k] += 1
    rng = random.Random(3)
    for _ in range(5000):
        c = [0] * 34
        size = rng.choice((1, 4, 7, 10, 13, 13))
        pairs = rng.random() < 0.3  # seven-pairs and thirteen-orphans shapes too
        while sum(c) < size:
            k = rng.choice((0, 8, 9, 17, 18, 26, *range(27, 34))) if rng.random() < 0.3 else rng.randrange(34)
            if c[k] + (2 if pairs and sum(c) + 2 <= size else 1) <= 4:
                c[k] += 2 if pairs and sum(c) + 2 <= size else 1
        hands.add(bytes(c))
    assert len(hands) > 10_000
    for hand in hands:
        assert hand_math._improving_by_table(hand) == reference(hand), list(hand)
    math = hand_math.HandMath()
    for d in decisions[:2000]:
        counts = d.view.concealed_counts()
        if sum(counts) % 3 != 2:
            continue
        after = math.shanten_after_discards(bytes(counts))
        for k, s in after.items():
            counts[k] -= 1
            assert s == math.shanten(counts)
            counts[k] += 1
        least, kinds = math.least_discards(bytes(counts))
        assert least == min(after.values())
        assert set(kinds) == {k for k, s in after.items() if s == least}


def test_cached_counts_are_the_views(decisions):
    """A view's counts (a table, worked out once per view) equal the counts of its tiles."""
    from mjcli.tiles import counts34, kind

    for d in decisions:
        v = d.view
        assert v.concealed_counts() == counts34(v.concealed)
        seen = [0] * 34
        for t in [r.tile for river in v.rivers for r in river if not r.called]:
            seen[kind(t)] += 1
        for t in [t for melds in v.melds for m in melds for t in m.tiles] + list(v.dora_indicators):
            seen[kind(t)] += 1
        assert v.visible_counts() == [min(c, 4) for c in seen]
        got = v.visible_counts()
        got[0] += 1  # a caller's list is its own: the cache is not changed
        assert v.visible_counts() != got
