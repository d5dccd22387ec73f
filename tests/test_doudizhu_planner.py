"""The seed's planner: its printed example, its quirks, and agreement with a literal port of the
seed's JavaScript (tests/doudizhu_seed_oracle.py) that enumerates every path as the seed does."""

from __future__ import annotations

import doudizhu_seed_oracle as port
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.doudizhu import planner
from mjcli.doudizhu.cards import DECK_COUNTS, counts_of, deck_ranks, parse_hand, parse_ranks, seed_num
from mjcli.doudizhu.moves import classify
from mjcli.doudizhu.planner import Step, path_pn, plan, step_weight
from mjcli.errors import UsageError

# The hand of the output printed at the end of the seed (23 cards: 222 AAA KKK JJ T 9 8 7 66 55 44 33).
SEED_HAND = "222AAAKKKJJT98766554433"


def test_seed_example_reproduced():
    p = plan(parse_hand(SEED_HAND))
    assert p.pn == 2
    assert [(s.type, s.max, s.len) for s in p.steps] == [
        (3, 15, 3),
        (8, 11, 5),
        (9, 6, 8),
        (10, 14, 6),
        (1, 11, 1),
    ]
    # The cards of each step in the order the seed prints them (numbers 3..17, high to low).
    assert [[seed_num(r) for r in s.ranks] for s in p.steps] == [
        [15, 15, 15],
        [11, 10, 9, 8, 7],
        [6, 6, 5, 5, 4, 4, 3, 3],
        [14, 14, 14, 13, 13, 13],
        [11],
    ]
    assert p.stats["steps"] == 5 and p.stats["twos"] == 3  # the seed's Step and nTow
    assert (p.stats["chains"], p.stats["pair_chains"], p.stats["trio_chains"]) == (1, 1, 1)


def test_seed_example_with_corrected_weights():
    p = plan(parse_hand(SEED_HAND), "corrected")
    assert [s.type for s in p.steps] == [3, 8, 9, 10, 1]
    assert p.pn == 27  # 50 - 12 (222) - 1 - 1 - (5 + 4) (six-card trio chain) + 0


def test_quirk_weights():
    trio2, trio_k = Step(planner.TRIO, (12, 12, 12)), Step(planner.TRIO, (10, 10, 10))
    assert step_weight(trio2, "seed") == -21 and step_weight(trio2, "corrected") == -12
    assert step_weight(trio_k, "seed") == -9 == step_weight(trio_k, "corrected")
    for n in (2, 3, 4):
        chain = Step(planner.TRIO_CHAIN, tuple(r for r in range(n, 0, -1) for _ in range(3)))
        assert step_weight(chain, "seed") == -25
        assert step_weight(chain, "corrected") == {2: -9, 3: -12, 4: -14}[n]
    five = Step(planner.TRIO_CHAIN, tuple(r for r in range(5, 0, -1) for _ in range(3)))
    assert step_weight(five, "seed", last_chain=True) == -35 and step_weight(five, "seed") == -25
    assert step_weight(five, "corrected") == -15


def test_unknown_weights():
    with pytest.raises(UsageError, match="unknown planner weights 'x'"):
        plan(parse_hand("345"), "x")


def _port(ranks):
    steps, raw = port.zhan_pai([seed_num(r) for r in ranks])
    return steps, raw


def _mine(ranks, weights="seed"):
    p = plan(counts_of(ranks), weights)
    return [(s.type, [seed_num(r) for r in s.ranks]) for s in p.steps], p.raw_pn


@pytest.mark.parametrize(
    "text",
    [
        SEED_HAND,
        "33344455566677789TJ",
        "3334445556667778",
        "333444555666777888",
        "3334445556667778889TJQ",
        "3344556677889TJQKA22",
        "33445566778899TTJJQQ",
        "BR22223333AKQJT98",
        "2B456789TJQKKK",
    ],
)
def test_matches_literal_port_on_rich_hands(text):
    ranks = parse_ranks(text)
    assert _mine(ranks) == _port(ranks)


chainy = [r for r in deck_ranks() if 1 <= r <= 9 or r >= 11]
small_hands = st.one_of(
    st.lists(st.sampled_from(deck_ranks()), min_size=1, max_size=14),
    st.lists(st.sampled_from(chainy), min_size=5, max_size=14),
).filter(lambda rs: all(x <= y for x, y in zip(counts_of(rs), DECK_COUNTS, strict=True)))


@settings(max_examples=150, deadline=None)
@given(ranks=small_hands)
def test_matches_literal_port(ranks):
    assert _mine(ranks) == _port(ranks)


@settings(max_examples=100, deadline=None)
@given(ranks=small_hands, weights=st.sampled_from(planner.WEIGHTS))
def test_plan_is_a_partition_into_legal_steps(ranks, weights):
    _check_partition(counts_of(ranks), weights)


def _check_partition(hand, weights):
    p = plan(hand, weights)
    total = [0] * len(hand)
    for s in p.steps:
        for r in s.ranks:
            total[r] += 1
        assert classify(s.counts()), s  # every step is a playable combination
    assert tuple(total) == hand  # card counts conserved
    assert p.raw_pn == path_pn(p.steps, weights) == planner.plan_pn(hand, weights) and p.pn == max(
        0, p.raw_pn
    )


def test_hard_20_card_hands_are_planned():
    """Hands of many overlapping chains (the slow case of the seed's enumeration; their timing is
    the benchmarks' business) still plan into a partition of legal steps."""
    hard = ["33445566778899TTJJQQ", "3456789TJQKA3456789T", "33445566778899TTJJQK", "3344556677889TTJJQQK"]
    for text in hard:
        for weights in planner.WEIGHTS:
            planner.clear_caches()
            _check_partition(parse_hand(text), weights)
