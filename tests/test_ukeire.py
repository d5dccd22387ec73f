"""Ukeire and discard tables, checked against a brute force over `mahjong`'s shanten."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from mjcli.analysis import DiscardOption, Ukeire, discard_table, shanten, ukeire
from mjcli.errors import InvalidHandError
from mjcli.tiles import counts34, parse_tiles

calc = Shanten.calculate_shanten


def hand(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def random_hands(rng: np.random.Generator, count: int, size: int) -> list[list[int]]:
    picks = np.argpartition(rng.random((count, 136)), size, axis=1)[:, :size] // 4
    hands = np.zeros((count, 34), dtype=np.int64)
    np.add.at(hands, (np.arange(count)[:, None], picks), 1)
    return hands.tolist()


def reference_ukeire(
    counts: list[int], base: list[int], seen: list[int]
) -> tuple[int, list[tuple[int, int]]]:
    """The definition, spelled out with `mahjong`: kinds whose draw lowers shanten, copies left."""
    s = calc(counts)
    tiles = []
    for k in range(34):
        if counts[k] < 4:
            counts[k] += 1
            if calc(counts) < s:
                tiles.append((k, max(0, 4 - base[k] - seen[k])))
            counts[k] -= 1
    return s, tiles


def reference_discards(
    counts: list[int], seen: list[int]
) -> list[tuple[int, int, int, list[tuple[int, int]]]]:
    rows = []
    for k in range(34):
        if counts[k]:
            left = list(counts)
            left[k] -= 1
            s, tiles = reference_ukeire(left, counts, seen)
            rows.append((k, s, sum(r for _, r in tiles), tiles))
    rows.sort(key=lambda r: (r[1], -r[2], r[0]))
    return rows


def random_seen(rng: np.random.Generator, counts: list[int]) -> list[int]:
    """Some visible tiles, never more than the copies the hand leaves."""
    return [int(rng.integers(0, 5 - c)) if rng.random() < 0.3 else 0 for c in counts]


# ---------------------------------------------------------------- against the brute force


def test_ukeire_of_random_hands_equals_brute_force():
    rng = np.random.default_rng(7)
    hands = random_hands(rng, 250, 13)
    for size in (10, 7, 4, 1):
        hands += random_hands(rng, 40, size)
    for counts in hands:
        seen = random_seen(rng, counts)
        got = ukeire(counts, seen)
        s, tiles = reference_ukeire(list(counts), counts, seen)
        assert (got.shanten, got.tiles) == (s, tiles), counts
        assert got.total == sum(r for _, r in tiles)


def test_discard_tables_of_random_hands_equal_brute_force():
    rng = np.random.default_rng(8)
    hands = random_hands(rng, 40, 14)
    for size in (11, 8, 5, 2):
        hands += random_hands(rng, 8, size)
    for counts in hands:
        seen = random_seen(rng, counts)
        got = [(o.kind, o.shanten, o.ukeire_total, o.tiles) for o in discard_table(counts, seen)]
        assert got == reference_discards(counts, seen), counts


near_tenpai = st.lists(st.integers(0, 135), min_size=13, max_size=13, unique=True)


@settings(max_examples=60, deadline=None)
@given(near_tenpai)
def test_ukeire_properties(ids):
    counts = [0] * 34
    for i in ids:
        counts[i // 4] += 1
    u = ukeire(counts)
    assert u.shanten == shanten(counts)
    assert u.total == sum(r for _, r in u.tiles)
    assert u.kinds == sorted(set(u.kinds))
    for k, remaining in u.tiles:
        assert counts[k] < 4 and remaining == 4 - counts[k]
        more = list(counts)
        more[k] += 1
        assert shanten(more) == u.shanten - 1
    # drawing any kind that is not listed leaves the shanten where it was
    for k in set(range(34)) - set(u.kinds):
        if counts[k] < 4:
            more = list(counts)
            more[k] += 1
            assert shanten(more) == u.shanten


# ---------------------------------------------------------------- worked examples


def test_tenpai_ukeire_is_the_winning_tiles():
    u = ukeire(hand("123m456p789s1122z"))
    assert u == Ukeire(shanten=0, tiles=[(27, 2), (28, 2)], total=4)
    # thirteen-sided thirteen orphans: every terminal and honour, 3 of each left
    u = ukeire(hand("19m19p19s1234567z"))
    assert u.shanten == 0 and len(u.tiles) == 13 and u.total == 39


def test_seen_tiles_lower_the_count_but_keep_the_kind():
    u = ukeire(hand("123m456p789s1122z"), hand("1z1z2z"))
    assert u.tiles == [(27, 0), (28, 1)] and u.total == 1
    # more seen than exist: never below zero
    assert ukeire(hand("123m456p789s1122z"), [4] * 34).total == 0


def test_a_fifth_copy_is_never_waited_on():
    # 123m 456p 789s 111z + 1z: a 1z tanki would need a fifth 1z, so this is 1-shanten, not tenpai,
    # and any other kind (pair it after dropping the 1z) improves it
    u = ukeire(hand("123m456p789s1111z"))
    assert u.shanten == 1 == calc(hand("123m456p789s1111z"))
    assert 27 not in u.kinds and len(u.kinds) == 33


def test_discard_table_of_a_complete_hand():
    table = discard_table(hand("123m456p789s11222z"))
    assert shanten(hand("123m456p789s11222z")) == -1
    assert len(table) == 11  # one row per distinct kind held
    best = table[0]
    # dropping 1m (or 9s) leaves a two-sided wait: 1m (3 left, one was discarded) and 4m (4 left)
    assert isinstance(best, DiscardOption)
    assert (best.kind, best.shanten, best.ukeire_total, best.tiles) == (0, 0, 7, [(0, 3), (3, 4)])
    assert all(o.shanten >= 0 for o in table)


def test_discard_counts_the_discarded_tile_as_gone():
    table = {o.kind: o for o in discard_table(hand("123m456p789s11123z"))}
    # discard a 1z: drawing 1z back improves, and only one is left (three were held, one discarded)
    assert table[27].shanten == 1
    assert (27, 1) in table[27].tiles
    # discard 2z: tenpai on the 3z tanki, 3 left
    assert table[28].shanten == 0 and table[28].tiles == [(29, 3)]


def test_sorted_best_first():
    table = discard_table(hand("13m2579p13468s157z"))
    keys = [(o.shanten, -o.ukeire_total, o.kind) for o in table]
    assert keys == sorted(keys)
    assert len({o.kind for o in table}) == len(table)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "fn, text, fragment",
    [
        (ukeire, "123m456p789s11222z", "ukeire needs a hand of 1, 4, 7, 10 or 13 tiles, got 14"),
        (
            discard_table,
            "123m456p789s1122z",
            "a discard table needs a hand of 2, 5, 8, 11 or 14 tiles, got 13",
        ),
        (ukeire, "123m456p", "has 6 tiles"),
    ],
)
def test_wrong_sizes(fn, text, fragment):
    with pytest.raises(InvalidHandError, match=fragment):
        fn(hand(text))


def test_bad_seen():
    with pytest.raises(InvalidHandError, match="seen counts have 3 entries"):
        ukeire(hand("123m456p789s1122z"), [0, 0, 0])
    with pytest.raises(InvalidHandError, match="-1 copies of 2m"):
        ukeire(hand("123m456p789s1122z"), [0, -1] + [0] * 32)


def test_after_each_draw_checks_its_input():
    from mjcli.analysis.shanten_calc import shanten_after_each_draw

    current, after = shanten_after_each_draw(bytes(hand("123m456p789s1122z")))
    assert current == 0 and after[27] == after[28] == -1 and after[0] == 0
    with pytest.raises(InvalidHandError, match="has 14 tiles"):
        shanten_after_each_draw(bytes(hand("123m456p789s11222z")))
    with pytest.raises(InvalidHandError, match="33 entries"):
        shanten_after_each_draw(bytes(33))
