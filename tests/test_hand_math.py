"""HandMath (the policies' shanten and discard figures, memoised per object), the policy base class,
the counts a view works out once, and the bound of the analysis module's slice caches."""

import random

import numpy as np
import pytest

from mjcli.analysis import shanten_calc
from mjcli.errors import UsageError
from mjcli.riichi.policies import POLICY_NAMES, BasePolicy, HandMath, get_policy
from mjcli.riichi.policies.legal import draw_actions, reaction_actions
from mjcli.riichi.policies.view import Action, PlayerView, RiverTile
from mjcli.tiles import counts34, kind, parse_tiles, tile_from_id136


def _positions(n: int, seed: int) -> list[tuple[PlayerView, tuple[Action, ...]]]:
    """Random positions: three in four after a draw, one in four a reaction from the left."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        wall = list(range(136))
        rng.shuffle(wall)
        tiles = [tile_from_id136(i) for i in wall]
        rivers = tuple(tuple(RiverTile(t) for t in tiles[40 + 6 * s : 46 + 6 * s]) for s in range(4))
        common = {"rivers": rivers, "dora_indicators": (tiles[80],), "wall_left": rng.randint(4, 60)}
        if len(out) % 4 == 3:
            hand = tiles[:13]
            offered = next(t for t in tiles[13:] if any(abs(kind(t) - kind(h)) <= 1 for h in hand))
            view = PlayerView(seat=1, hand=tuple(hand), offered=offered, offered_by=0, **common)
            out.append((view, reaction_actions(view)))
        else:
            view = PlayerView(seat=0, hand=tuple(tiles[:13]), drawn=tiles[13], **common)
            out.append((view, draw_actions(view)))
    return out


def test_both_backends_make_the_same_decisions():
    sample = _positions(120, 11)
    for name in POLICY_NAMES:
        fast = get_policy(name, math=HandMath())
        slow = get_policy(name, math=HandMath("mahjong"))
        for view, legal in sample:
            a, b = fast.decide(view, legal), slow.decide(view, legal)
            assert a == b and a.reason == b.reason, (name, view, a, b)


def test_unknown_backend_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown shanten backend 'fast'"):
        HandMath("fast")


def test_a_run_shares_one_hand_math_and_policies_alone_get_their_own():
    math = HandMath()
    shared = [get_policy(name, math=math) for name in POLICY_NAMES]
    assert all(p.math is math for p in shared)  # type: ignore[attr-defined]
    alone = [get_policy(name) for name in POLICY_NAMES]
    assert len({id(p.math) for p in alone}) == len(alone)  # type: ignore[attr-defined]
    assert [type(p)().name for p in alone] == list(POLICY_NAMES)  # zero-argument construction


def test_memos_are_bounded_and_cleared():
    math = HandMath(memo_limit=3)
    texts = ("123m456p789s1122z", "12345m567p789s13z", "19m19p19s1234567z", "2345m678p99s1357z")
    hands = [bytes(counts34(parse_tiles(t))) for t in texts]
    for h in hands:
        math.improving_of(h)
        assert len(math._improving) <= 3
    assert math.improving_of(hands[0]) == (0, (27, 28))
    math.clear()
    assert not math._improving and not math._after_discard and not math._least


def test_the_base_class_takes_the_win_and_splits_reactions_from_turns():
    class Probe(BasePolicy):
        name = "probe"
        win_reason = "a win"

        def react(self, view, legal):
            return legal[-1].because("react")

        def turn(self, view, legal):
            return legal[0].because("turn")

    p = Probe()
    view = PlayerView(seat=0, hand=tuple(parse_tiles("123m456p789s1122z")))
    assert p.decide(view, (Action("pass"), Action("ron", 27))).reason == "a win"
    assert p.decide(view, (Action("pon", 27, (27, 27)), Action("pass"))).reason == "react"
    assert p.decide(view, (Action("discard", 0), Action("pass"))).reason == "turn"
    with pytest.raises(UsageError, match="policy 'probe'"):
        p.decide(view, ())


def test_cached_counts_take_no_part_in_equality_hash_or_repr():
    tiles = tuple(parse_tiles("123m456p789s1122z"))
    a = PlayerView(seat=0, hand=tiles, rivers=((RiverTile(tiles[0]),), (), (), ()))
    b = PlayerView(seat=0, hand=tiles, rivers=((RiverTile(tiles[0]),), (), (), ()))
    counts = a.concealed_counts()
    counts[0] += 1  # a caller's list is its own
    assert a.concealed_counts() == counts34(tiles)
    assert a.visible_counts()[0] == 1
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
    assert "counts" not in repr(a)


def test_the_slice_caches_are_bounded(monkeypatch):
    rng = random.Random(5)
    shanten_calc.reset_cache()  # the seeded state, whatever this process looked up before
    monkeypatch.setattr(shanten_calc, "_VALUE_CACHE_LIMIT", len(shanten_calc._VALUE_CACHE) + 50)
    monkeypatch.setattr(shanten_calc, "_DRAW_CACHE_LIMIT", 40)
    try:
        for _ in range(400):
            c = [0] * 34
            suit = rng.randrange(3) * 9
            while sum(c) < 13:  # one-suit hands: their slices are too big to be seeded
                k = suit + rng.randrange(9)
                if c[k] < 4:
                    c[k] += 1
            # the batch path keeps no cache: the reference
            assert shanten_calc.shanten(c) == int(shanten_calc.shanten_batch(np.array([c]))[0])
            shanten_calc.shanten_after_each_draw(bytes(c))
            assert len(shanten_calc._VALUE_CACHE) <= shanten_calc._VALUE_CACHE_LIMIT
            assert len(shanten_calc._DRAW_CACHE) <= 40
    finally:
        shanten_calc.reset_cache()
