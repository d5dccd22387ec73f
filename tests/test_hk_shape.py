"""Hong Kong shapes: shanten without seven pairs, thirteen orphans, waits, and the jokers' shanten
(the dummy-tile formula of :mod:`mjcli.hk.shape`) against trying every kind for every joker."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.analysis import shanten_regular
from mjcli.hk.notation import JOKER, counts_text, hand_text
from mjcli.hk.rules import get_rules
from mjcli.hk.scoring import WinContext, score_counts
from mjcli.hk.shape import is_complete, regular_shanten, shanten, waits
from mjcli.tiles import counts34, parse_tiles


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def test_shanten_has_no_seven_pairs_but_thirteen_orphans() -> None:
    assert shanten(c("1199m1199p1199s11z")) == 3
    assert shanten(c("19m19p19s1234567z1m")) == -1
    assert shanten(c("19m19p19s1234567z")) == 0
    assert shanten(c("19m19p19s1234567z"), melds=1) > 0  # no thirteen orphans beside a meld
    assert waits(c("19m19p19s1234567z")) == frozenset(parse_tiles("19m19p19s1234567z"))
    assert waits(c("123m456p789s1122z")) == frozenset(parse_tiles("12z"))


def _brute(counts: list[int], jokers: int) -> int:
    best = 99
    for kinds in itertools.combinations_with_replacement(range(34), jokers):
        hand = list(counts)
        for k in kinds:
            hand[k] += 1
        if max(hand) <= 4:
            best = min(best, shanten_regular(hand))
    return best


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), jokers=st.integers(1, 2), size=st.sampled_from([13, 14, 10, 11]))
def test_joker_shanten_is_the_best_assignment(seed: int, jokers: int, size: int) -> None:
    rng = random.Random(seed)
    counts = [0] * 34
    while sum(counts) < size - jokers:
        k = rng.randrange(34)
        if counts[k] < 2:  # at most two real copies: with two jokers a kind never needs a fifth
            counts[k] += 1
    assert regular_shanten(counts, jokers) == _brute(counts, jokers)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), jokers=st.integers(1, 4))
def test_a_complete_hand_stays_complete_with_tiles_made_jokers(seed: int, jokers: int) -> None:
    rng = random.Random(seed)
    counts = [0] * 34
    groups = 0
    while groups < 4:
        k = rng.randrange(34)
        if rng.random() < 0.5 and k < 27 and k % 9 <= 6 and all(counts[k + i] < 4 for i in range(3)):
            for i in range(3):
                counts[k + i] += 1
        elif counts[k] <= 1:
            counts[k] += 3
        else:
            continue
        groups += 1
    pair = next(k for k in rng.sample(range(34), 34) if counts[k] <= 2)
    counts[pair] += 2
    tiles = [k for k in range(34) for _ in range(counts[k])]
    for k in rng.sample(tiles, jokers):
        counts[k] -= 1
    assert is_complete(counts, jokers)
    rules = get_rules("red")
    score = score_counts(counts, jokers, [], WinContext(), rules)
    assert score is not None and "no_jokers" not in score.item_ids()


@settings(max_examples=200, deadline=None)
@given(counts=st.lists(st.integers(0, 4), min_size=34, max_size=34), jokers=st.integers(0, 4))
def test_counts_text_writes_what_hand_text_writes(counts: list[int], jokers: int) -> None:
    """The fast writer of replay's hand and seen columns against the tile-by-tile one."""
    tiles = [k for k in range(34) for _ in range(counts[k])] + [JOKER] * jokers
    assert counts_text(counts, jokers) == hand_text(tiles)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([0, 8, 9, 17, 18, 26, *range(27, 34), *range(34)]), min_size=1, max_size=14))
def test_shanten_is_the_regular_form_or_thirteen_orphans(kinds: list[int]) -> None:
    # shanten() reads both forms in one pass (the table shanten, seven_pairs=False): the same as the
    # minimum of the regular form and the orphans' count written from their definition
    counts = [min(4, kinds.count(k)) for k in range(34)]
    if sum(counts) % 3 == 0:
        counts[kinds[0]] -= 1
    orphans = [counts[k] for k in (0, 8, 9, 17, 18, 26, *range(27, 34))]
    expected = shanten_regular(counts)
    if sum(counts) >= 13:
        expected = min(expected, 13 - sum(1 for n in orphans if n) - any(n >= 2 for n in orphans))
    assert shanten(counts) == expected
