"""HandMath.prepare (a log's hands in one numpy batch, :mod:`mjcli.analysis.discard_batch`) fills
the memos with exactly what each hand asked alone gives, and replay's rows do not depend on it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from shared import log_files

from mjcli.analysis.discard_batch import discard_shanten_batch, improving_batch
from mjcli.riichi.formats import read_log
from mjcli.riichi.policies import POLICY_NAMES, HandMath, get_policy
from mjcli.riichi.replay import decisions_of, prepare_hands, replay_game


def _points(count: int) -> list:
    files = [p for p in log_files("tenhou-xml/20*.mjlog") if "no-" not in p.name][:count]
    return [list(decisions_of(g.events)) for p in files for g in read_log(p)]


def _fresh(math: HandMath) -> tuple[dict, dict, dict, dict]:
    """What a fresh HandMath works out, one hand at a time, for every hand in ``math``'s memos."""
    alone = HandMath()
    shanten = {h: alone.shanten(h) for h in math._shanten}
    improving = {h: alone.improving_of(h) for h in math._improving}
    after = {h: alone.shanten_after_discards(h) for h in math._after_discard}
    least = {key: alone.least_discards(*key) for key in math._least}
    return shanten, improving, after, least


@pytest.fixture(scope="module")
def points() -> list:
    return _points(3)


def test_prepared_memos_equal_each_hand_worked_out_alone(points):
    math = HandMath(memo_limit=1 << 20)
    for game in points:
        prepare_hands(math, game)
    assert len(math._least) > 300 and len(math._improving) > 1000 and len(math._after_discard) > 1000
    shanten, improving, after, least = _fresh(math)
    assert shanten == math._shanten
    assert improving == math._improving
    # same keys in the same (kind) order, same values
    assert {h: list(v.items()) for h, v in after.items()} == {
        h: list(v.items()) for h, v in math._after_discard.items()
    }
    assert {k: (s, list(v.items())) for k, (s, v) in least.items()} == {
        k: (s, list(v.items())) for k, (s, v) in math._least.items()
    }
    assert all(type(s) is int for s in math._shanten.values())  # no numpy scalars reach the rows


def test_the_turns_figures_equal_each_view_worked_out_alone(points):
    # the efficiency policy's figures of each turn's view (view_best_discards), which prepare_hands
    # puts in the view's memo from the batch: the least shanten and the ukeire of each best discard
    alone = HandMath()
    checked = 0
    for game in points:
        prepare_hands(HandMath(), game)
        for d in game:
            v = d.view
            if sum(v.concealed_bytes) % 3 != 2:
                continue
            least, improving = alone.least_discards(v.concealed_bytes)
            expect = (least, {k: sum(v.unseen_counts()[x] for x in kinds) for k, kinds in improving.items()})
            got = v.memo[("efficiency.view_best_discards",)]
            assert (got[0], list(got[1].items())) == (expect[0], list(expect[1].items()))
            assert all(type(u) is int for u in got[1].values())
            checked += 1
    assert checked > 1000


def test_a_small_memo_is_emptied_before_a_batch_not_midway(points):
    math = HandMath(memo_limit=300)
    for game in points:
        prepare_hands(math, game)  # a game has more hands than the memo holds: still consistent
        shanten, improving, _, least = _fresh(math)
        assert shanten == math._shanten and improving == math._improving and least == math._least


def test_replay_rows_are_the_same_with_or_without_the_batch(points, monkeypatch):
    game = read_log(log_files("tenhou-xml/2010081709gm-00a9-0000-fe3371ad.mjlog")[0])[0]

    def rows() -> dict:
        math = HandMath()
        policies = [(name, get_policy(name, math=math)) for name in POLICY_NAMES]
        return replay_game(game, policies, "f", math=math).decisions.data

    batched = rows()
    monkeypatch.setattr(HandMath, "prepare", lambda self, turns=(), left=(), seen=(): None)
    assert rows() == batched


def test_the_batch_functions_agree_with_the_one_hand_ones():
    rng = random.Random(5)
    hands = []
    for size in (14, 11, 8, 5, 2) * 40:
        c = [0] * 34
        while sum(c) < size:
            k = rng.randrange(34)
            if c[k] < 4:
                c[k] += 1
        hands.append(c)
    arr = np.array(hands, dtype=np.uint8)
    got = discard_shanten_batch(arr)
    alone = HandMath()
    assert got.shanten.tolist() == [alone.shanten(h) for h in hands]
    for i, h in enumerate(hands):
        expect = alone.shanten_after_discards(bytes(h))
        mine = got.hand == i
        assert dict(zip(got.kind[mine].tolist(), got.after[mine].tolist(), strict=True)) == expect
        assert got.least[i] == min(expect.values())
    current, kinds = improving_batch(got.left)
    assert [(s, k) for s, k in zip(current.tolist(), kinds, strict=True)] == [
        alone.improving_of(row.tobytes()) for row in got.left
    ]


def test_three_player_and_the_reference_backend_are_left_alone():
    hand = bytes([1] * 14 + [0] * 20)
    for math in (HandMath("mahjong"), HandMath()):
        if math.backend == "analysis":
            math.set_players(3)
        math.prepare([hand], [hand[:13] + bytes(21)])
        assert not math._least and not math._improving and not math._shanten


def test_the_batch_improving_kinds_near_seven_pairs_and_thirteen_orphans():
    # 13-tile hands where those forms decide the shanten, before and after a draw (improving_masks's
    # special_or_none table), against the one-hand function
    rng = random.Random(11)
    ends = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    hands = []
    for _ in range(200):
        pairs = [0] * 34
        for k in rng.sample(range(34), 7):
            pairs[k] = 2
        pairs[rng.choice([k for k in range(34) if pairs[k]])] -= 1
        orphans = [0] * 34
        for k in rng.sample(ends, 12):
            orphans[k] = 1
        orphans[rng.choice(ends)] += 1
        hands += [pairs, orphans]
    current, kinds = improving_batch(np.array(hands, dtype=np.uint8))
    alone = HandMath()
    assert list(zip(current.tolist(), kinds, strict=True)) == [alone.improving_of(bytes(h)) for h in hands]
