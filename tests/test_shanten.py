"""Shanten against the `mahjong` library (the independent reference) and the shipped tables."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from mjcli.analysis import HAND_SIZES, shanten, shanten_batch, shanten_regular
from mjcli.analysis import tables as T
from mjcli.errors import InvalidHandError
from mjcli.tiles import counts34, parse_tiles

SMALL_SIZES = (1, 2, 4, 5, 7, 8, 10, 11)


def random_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """``count`` hands of ``size`` tiles drawn without replacement from the 136 tiles."""
    picks = np.argpartition(rng.random((count, 136)), size, axis=1)[:, :size] // 4
    hands = np.zeros((count, 34), dtype=np.uint8)
    np.add.at(hands, (np.arange(count)[:, None], picks), 1)
    return hands


def clumpy_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """Hands drawn from only a few kinds, so that quads, triplets and dead waits are common."""
    out = np.zeros((count, 34), dtype=np.uint8)
    for i in range(count):
        kinds = rng.choice(34, size=max(1, (size + 3) // 4 + int(rng.integers(0, 3))), replace=False)
        wall = np.repeat(kinds, 4)
        for t in rng.choice(wall, size=size, replace=False):
            out[i, t] += 1
    return out


def reference(hands: np.ndarray) -> np.ndarray:
    return np.array([Shanten.calculate_shanten(h) for h in hands.tolist()], dtype=np.int8)


def hand(text: str) -> list[int]:
    return counts34(parse_tiles(text))


# ---------------------------------------------------------------- tables


def test_shipped_tables_are_what_the_generator_makes():
    assert T.DATA_PATH.exists()
    assert T.DATA_PATH.stat().st_size < 500_000, "the shipped file stays small"
    assert T.generate().equals(T.read())


def test_table_distances_on_hand_made_groups():
    """Rows are (melds 0..4) x (pairs 0..1): tiles to add so the group holds that many."""
    tables = T.load()
    rows = tables.rows[tables.suit_ids]

    def row(counts: list[int]) -> np.ndarray:
        return rows[sum(c * 5**i for i, c in enumerate(counts))]

    r = row([3, 1, 1, 1, 1, 1, 1, 1, 1])  # 11123456789
    assert r[3, 1] == 0  # 11 123 456 789
    assert r[4, 0] == 1  # 111 234 567 + 789 needs another 7
    assert r[4, 1] == 3  # 14 tiles from 11
    r = row([0] * 9)
    assert (r[1, 0], r[0, 1], r[4, 1]) == (3, 2, 14)
    r = row([4, 0, 0, 0, 0, 0, 0, 0, 0])  # 1111
    assert (r[1, 0], r[0, 1]) == (0, 0)
    assert r[1, 1] == 2  # 111 + a pair: never a fifth 1, so 22 or 123 + 11


# ---------------------------------------------------------------- equality with mahjong


def test_fixed_seed_random_hands_equal_mahjong():
    """60k hands: 20k of 13 tiles, 20k of 14, 20k with open melds (1-11 tiles), plus 4k clumpy ones."""
    rng = np.random.default_rng(20240601)
    parts = [random_hands(rng, 20_000, 13), random_hands(rng, 20_000, 14)]
    parts += [random_hands(rng, 2_500, size) for size in SMALL_SIZES]
    parts += [clumpy_hands(rng, 400, size) for size in HAND_SIZES]
    hands = np.concatenate(parts)
    assert len(hands) >= 60_000
    expected = reference(hands)
    assert np.array_equal(shanten_batch(hands), expected)
    single = np.array([shanten(h) for h in hands.tolist()], dtype=np.int8)
    assert np.array_equal(single, expected)
    # every shanten value a 13/14-tile hand can reach shows up, so the test covers them all
    assert set(expected.tolist()) >= {-1, 0, 1, 2, 3, 4, 5}


def _all_group_hands(num_kinds: int, offset: int) -> np.ndarray:
    digits = T._digits(num_kinds)
    sizes = digits.sum(axis=1)
    keep = np.isin(sizes, HAND_SIZES)
    hands = np.zeros((int(keep.sum()), 34), dtype=np.uint8)
    hands[:, offset : offset + num_kinds] = digits[keep]
    return hands


def test_every_single_suit_hand_equals_mahjong():
    """All 312,732 one-suit hands of a legal size (about 20 s of `mahjong`), and every honour-only hand."""
    man = _all_group_hands(9, 0)
    honours = _all_group_hands(7, 27)
    assert len(man) == 312_732 and len(honours) == 31_495
    for hands in (man, honours):
        expected = reference(hands)
        assert np.array_equal(shanten_batch(hands), expected)
        assert [shanten(h) for h in hands.tolist()] == expected.tolist()
    # the other suits go through the same table; they give the same numbers
    ours = shanten_batch(man)
    for offset in (9, 18):
        moved = np.zeros_like(man)
        moved[:, offset : offset + 9] = man[:, 0:9]
        assert np.array_equal(shanten_batch(moved), ours)


hands_any_size = st.sampled_from(HAND_SIZES).flatmap(
    lambda n: st.lists(st.integers(0, 135), min_size=n, max_size=n, unique=True)
)


def _counts(ids: list[int]) -> list[int]:
    c = [0] * 34
    for i in ids:
        c[i // 4] += 1
    return c


@settings(max_examples=400, deadline=None)
@given(hands_any_size)
def test_any_hand_equals_mahjong(ids):
    c = _counts(ids)
    assert shanten(c) == Shanten.calculate_shanten(c)
    assert shanten_regular(c) == Shanten.calculate_shanten_for_regular_hand(c)
    assert int(shanten_batch(np.array([c]))[0]) == shanten(c)


# hands over few kinds: many quads and triplets, where shortcuts in shanten counting go wrong
few_kinds_hand = st.tuples(
    st.lists(st.integers(0, 33), min_size=1, max_size=5, unique=True), st.sampled_from(HAND_SIZES)
).flatmap(
    lambda ks: st.lists(st.sampled_from([k * 4 + j for k in ks[0] for j in range(4)]), unique=True).filter(
        lambda ids: len(ids) in HAND_SIZES
    )
)


@settings(max_examples=300, deadline=None)
@given(few_kinds_hand)
def test_quad_heavy_hands_equal_mahjong(ids):
    c = _counts(ids)
    assert shanten(c) == Shanten.calculate_shanten(c)


@settings(max_examples=200, deadline=None)
@given(hands_any_size, st.permutations([0, 1, 2]), st.booleans())
def test_suit_order_and_mirror_do_not_matter(ids, perm, mirror):
    c = _counts(ids)
    moved = [0] * 34
    for s in range(3):
        for i in range(9):
            moved[perm[s] * 9 + (8 - i if mirror else i)] = c[s * 9 + i]
    moved[27:] = c[27:][::-1]
    assert shanten(moved) == shanten(c)


@settings(max_examples=200, deadline=None)
@given(hands_any_size.filter(lambda ids: len(ids) % 3 == 1), st.integers(0, 135))
def test_one_more_tile_changes_shanten_by_at_most_one(ids, extra):
    c = _counts(ids)
    if extra in ids or c[extra // 4] == 4:
        return
    more = list(c)
    more[extra // 4] += 1
    assert shanten(c) - 1 <= shanten(more) <= shanten(c)


# ---------------------------------------------------------------- worked examples


@pytest.mark.parametrize(
    "text, expected",
    [
        ("123m456p789s1122z", 0),  # shanpon wait
        ("123m456p789s11222z", -1),  # complete
        ("19m19p19s1234567z", 0),  # thirteen orphans, 13-sided
        ("19m19p19s12345677z", -1),
        ("1122m3344p5566s7z", 0),  # seven pairs tenpai
        ("11223344556677z", -1),
        ("1111m2222p3333s4z", 2),  # three triplets and four floating tiles
        ("1111m2222p3333s44z", 1),
        ("1111m", 1),  # three open melds; 111m + 1m, and a pair of 1m would need a fifth copy
        ("11m", -1),  # four open melds and a pair
        ("5m", 0),
    ],
)
def test_worked_examples(text, expected):
    c = hand(text)
    assert shanten(c) == expected == Shanten.calculate_shanten(c)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "counts, fragment",
    [
        ([0] * 34, "has 0 tiles; expected 1, 2, 4"),
        (hand("123m"), "hand 123m has 3 tiles"),
        (hand("123m456p789s11223344z"), "has 17 tiles"),
        ([5] + [0] * 33, "5 copies of 1m"),
        ([0] * 33 + [7], "7 copies of 7z"),
        ([-1] + [0] * 33, "-1 copies of 1m"),
        ([1] * 33, "33 entries; expected 34"),
        ("not counts", "counts must be 34 integers"),
    ],
)
def test_bad_input_is_a_clear_error(counts, fragment):
    for fn in (shanten, shanten_regular):
        with pytest.raises(InvalidHandError, match=fragment):
            fn(counts)


def test_numpy_rows_and_bytes_are_accepted():
    c = hand("123m456p789s1122z")
    assert shanten(np.array(c, dtype=np.int64)) == shanten(bytes(c)) == shanten(tuple(c)) == 0


def test_batch_validates_and_names_the_row():
    good = np.array([hand("123m456p789s1122z")] * 3)
    assert shanten_batch(good).tolist() == [0, 0, 0]
    assert shanten_batch(good).dtype == np.int8
    assert shanten_batch(np.zeros((0, 34), np.uint8)).shape == (0,)
    bad = good.copy()
    bad[2, 0] = 0  # 12 tiles
    with pytest.raises(InvalidHandError, match="batch row 2 .* has 12 tiles"):
        shanten_batch(bad)
    bad = good.copy()
    bad[1, 5] = 5
    with pytest.raises(InvalidHandError, match="batch row 1 has 5 copies of 6m"):
        shanten_batch(bad)
    with pytest.raises(InvalidHandError, match="shape"):
        shanten_batch(np.zeros((2, 33), np.uint8))
    with pytest.raises(InvalidHandError, match="integer"):
        shanten_batch(good.astype(float))
    big = np.zeros((1, 34), np.uint8)
    big[0, :5] = 4  # 20 tiles: must not be hidden by the seven-pairs shortcut
    with pytest.raises(InvalidHandError, match="20 tiles"):
        shanten_batch(big)


def test_package_doc_examples():
    import doctest

    import mjcli.analysis

    result = doctest.testmod(mjcli.analysis)
    assert result.attempted >= 2 and result.failed == 0


def test_three_player_shanten_as_a_process_first_lookup():
    """``shanten --sanma`` as a fresh process runs it: the three-player lookup is the first of the
    process, before any table is read (it once failed there: the manzu value table was not loaded)."""
    import subprocess
    import sys
    from pathlib import Path

    code = "from mjcli.analysis.shanten_calc import shanten_sanma; from mjcli.tiles import counts34, "
    code += "parse_tiles; print(shanten_sanma(counts34(parse_tiles('19m123p456p789s11z'))))"
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"  # three sets, a pair, 1m and 9m alone
