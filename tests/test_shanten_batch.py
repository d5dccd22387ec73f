"""The stdin batch of ``mjcli shanten`` (numpy over the whole batch) answers what the per-hand path
answers, hand for hand: shanten, ukeire, every discard of a 14-tile hand, in the same order."""

from __future__ import annotations

import random

import numpy as np

from mjcli.analysis import NO_DRAW, draw_table_batch, shanten
from mjcli.analysis.shanten_calc import improving_after_draws_rows, shanten_after_each_draw
from mjcli.errors import MjcliError
from mjcli.riichi.hand_report import analyse, analyse_batch, read_hand
from mjcli.tiles import counts34, parse_tiles, to_mpsz

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


def _random_hands(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        wall = [k for k in range(34) for _ in range(4)]
        rng.shuffle(wall)
        text = to_mpsz(wall[: rng.choice(SIZES + (13, 14, 14))])
        if rng.random() < 0.3:
            text = text.replace("5", "0", 1)  # a red five, when the hand has a five
        if rng.random() < 0.1:  # a one-suit hand: large slices, many waits
            suit = rng.choice("mps")
            text = "".join(sorted(rng.choices("123456789", k=13))) + suit
            text = text if max(text.count(d) for d in "123456789") <= 4 else "123456789" + suit + "1122z"
        out.append(text)
    return out


def test_the_draw_table_of_a_batch_is_the_one_of_each_hand():
    rng = np.random.default_rng(4)
    hands = np.zeros((600, 34), dtype=np.uint8)
    for row, size in zip(hands, rng.choice([1, 4, 7, 10, 13], size=600), strict=True):
        np.add.at(row, rng.permutation(136)[:size] // 4, 1)
    current, after = draw_table_batch(hands)
    for i, row in enumerate(hands.tolist()):
        s, each = shanten_after_each_draw(bytes(row))
        assert s == current[i]
        assert each == [None if v == NO_DRAW else int(v) for v in after[i]]


def _special_rows(rng: np.random.Generator, count: int) -> np.ndarray:
    """3n+1 hands where seven pairs, thirteen orphans or four of a kind decide: few kinds (pairs,
    quads) or terminals and honours only, of every legal size."""
    ends = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])
    hands = np.zeros((count, 34), dtype=np.uint8)
    for row in hands:
        size = int(rng.choice([1, 4, 7, 10, 13, 13, 13]))
        if rng.random() < 0.5:  # terminals and honours, a simple now and then
            pool = np.repeat(np.concatenate([ends, rng.choice(34, size=2)]), 4)
        else:  # a few kinds: pairs, triplets, quads
            pool = np.repeat(rng.choice(34, size=int(rng.integers(4, 9)), replace=False), 4)
        np.add.at(row, rng.permutation(pool)[:size], 1)
    return hands[(hands <= 4).all(axis=1)]


def test_the_improving_kinds_of_a_batch_are_those_of_each_hand():
    """``improving_after_draws_rows`` (its own narrow tables, seven pairs and orphans from the counts)
    says which draws lower the shanten exactly as the one-hand path's draw table does."""
    rng = np.random.default_rng(5)
    hands = np.zeros((1500, 34), dtype=np.uint8)
    for row, size in zip(hands, rng.choice([1, 4, 7, 10, 13, 13], size=1500), strict=True):
        np.add.at(row, rng.permutation(136)[:size] // 4, 1)
    hands = np.concatenate([hands, _special_rows(rng, 1500)])
    current, improving = improving_after_draws_rows(hands)
    for i, row in enumerate(hands.tolist()):
        s, each = shanten_after_each_draw(bytes(row))
        assert s == current[i]
        assert improving[i].tolist() == [v is not None and v < s for v in each], (i, row)
    # kind by kind (the layout of the computation): the same table, transposed
    current_t, improving_t = improving_after_draws_rows(hands, kinds_first=True)
    assert improving_t.shape == (34, len(hands))
    assert (current_t == current).all() and (improving_t == improving.T).all()


def test_a_batch_is_analysed_as_each_hand_alone():
    for seen_text in ("", "1z2z5m0p"):
        seen = counts34(parse_tiles(seen_text))
        hands = []
        for text in _random_hands(7, 400):
            try:
                hands.append(read_hand(text, what=text))
            except MjcliError:  # a "0z" made by the red-five swap
                continue
        hands = [h for h in hands if all(h.counts[k] + seen[k] <= 4 for k in range(34))]
        assert len(hands) > 300
        values = [shanten(h.counts) for h in hands]
        for shanten_only in (False, True):
            batch = analyse_batch(hands, values, seen, shanten_only)
            alone = [analyse(h, v, seen, shanten_only) for h, v in zip(hands, values, strict=True)]
            assert [r.to_json() for r in batch] == [r.to_json() for r in alone]


def test_a_byte_order_mark_is_no_part_of_line_1_with_or_without_json():
    # a hands file saved by a Windows editor: --json (the byte stream) always dropped the mark, the
    # table path reported line 1 as "unknown suit letter '\ufeff'" and exited 2
    import subprocess
    import sys

    data = b"\xef\xbb\xbf123m456p789s1122z\r\n19m19p19s1234567z\r\n"
    for extra in ([], ["--json"]):
        r = subprocess.run(
            [sys.executable, "-m", "mjcli", "shanten", "-", *extra], input=data, capture_output=True
        )
        assert r.returncode == 0 and not r.stderr, r.stderr
        assert r.stdout.count(b"123m456p789s1122z") == 1 and r.stdout.count(b"19m19p19s1234567z") == 2
