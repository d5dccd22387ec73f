"""Shanten, batch shanten and discard tables against `mahjong`, in one process on the same hands.

Targets (issue 2): single hand >= 20x, batch of 100k >= 400x, 14-tile discard table >= 30x faster
than `mahjong`'s ``Shanten.calculate_shanten``.

How it is measured, so that the ratios are honest:

* Both sides get the same hands (fixed seed, random 13- and 14-tile hands from a shuffled wall) and
  their answers are compared. Each measurement alternates the two sides a few times and keeps the
  median of each, since other processes share the machine.
* The single-hand path caches what it learns about each suit slice (see
  ``mjcli.analysis.shanten_calc``). It is shown twice: with the caches emptied before the timed pass
  ("cold": every slice seen for the first time in the run pays the miss), and after another set of
  random hands went through ("warm": the steady state of a long replay or simulation; the timed hands
  are never the warm-up hands).
* The discard-table baseline does with `mahjong` what ``discard_table`` does: per distinct discard,
  the shanten left and, for each of the 34 kinds that can still be drawn, the shanten after the draw.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np
from mahjong.shanten import Shanten

from mjcli.analysis import discard_table, shanten, shanten_batch
from mjcli.analysis import shanten_calc as _calc

SEED = 20240601
calc = Shanten.calculate_shanten


def random_hands(rng: np.random.Generator, count: int, sizes: tuple[int, ...] = (13, 14)) -> np.ndarray:
    hands = np.zeros((count, 34), dtype=np.uint8)
    per = count // len(sizes)
    row = 0
    for i, size in enumerate(sizes):
        n = count - row if i == len(sizes) - 1 else per
        picks = np.argpartition(rng.random((n, 136)), size, axis=1)[:, :size] // 4
        np.add.at(hands, (row + np.arange(n)[:, None], picks), 1)
        row += n
    return hands[rng.permutation(count)]


def clear_caches() -> None:
    _calc._VALUE_CACHE.clear()
    _calc._DRAW_CACHE.clear()


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def mahjong_discard_table(counts: list[int]) -> list[tuple[int, int, int]]:
    """(kind, shanten left, improving kinds count) per distinct discard, with `mahjong` only."""
    rows = []
    for k in range(34):
        if not counts[k]:
            continue
        counts[k] -= 1
        s = calc(counts)
        improving = 0
        for j in range(34):
            if counts[j] < 4:
                counts[j] += 1
                if calc(counts) < s:
                    improving += 1
                counts[j] -= 1
        counts[k] += 1
        rows.append((k, s, improving))
    return rows


def line(label: str, ours: float, theirs: float, unit: str, scale: float, target: float) -> str:
    ratio = theirs / ours
    verdict = "ok" if ratio >= target else f"BELOW TARGET {target:.0f}x"
    return (
        f"  {label:<34} mjcli {ours * scale:9.2f} {unit:<3} mahjong {theirs * scale:9.2f} {unit:<3}"
        f" ratio {ratio:7.1f}x  (target {target:.0f}x: {verdict})"
    )


def bench_single(rng: np.random.Generator) -> None:
    hands = random_hands(rng, 20_000).tolist()
    warmup = random_hands(rng, 20_000).tolist()
    n = len(hands)
    theirs, cold, warm = [], [], []
    for _ in range(3):
        t, expected = timed(lambda: [calc(h) for h in hands])
        theirs.append(t)
        clear_caches()
        t, got = timed(lambda: [shanten(h) for h in hands])
        cold.append(t)
        assert got == expected, "shanten differs from mahjong"
        clear_caches()
        for h in warmup:
            shanten(h)
        t, got = timed(lambda: [shanten(h) for h in hands])
        warm.append(t)
        assert got == expected
    m = statistics.median(theirs) / n
    print(f"single hand: {n} random 13/14-tile hands, per call (median of 3 alternating runs)")
    print(line("warm caches (steady state)", statistics.median(warm) / n, m, "us", 1e6, 20))
    print(line("cold caches (first pass of a run)", statistics.median(cold) / n, m, "us", 1e6, 20))
    print(f"  value cache after the warm pass: {len(_calc._VALUE_CACHE)} suit/honour slices")


def bench_batch(rng: np.random.Generator) -> None:
    arr = random_hands(rng, 100_000)
    as_lists = arr.tolist()
    shanten_batch(arr[:10])  # builds the numpy tables once (about 0.1 s), outside the timing
    t_theirs, expected = timed(lambda: [calc(h) for h in as_lists])
    ours = []
    got = None
    for _ in range(15):
        t, got = timed(lambda: shanten_batch(arr))
        ours.append(t)
    assert np.array_equal(got, np.array(expected)), "batch differs from mahjong"
    print(f"batch: {len(arr)} hands as one (N, 34) uint8 array vs a loop of calculate_shanten")
    print(line("whole batch, median of 15", statistics.median(ours), t_theirs, "ms", 1e3, 400))
    print(line("whole batch, best of 15", min(ours), t_theirs, "ms", 1e3, 400))


def bench_discards(rng: np.random.Generator) -> None:
    hands = random_hands(rng, 150, sizes=(14,)).tolist()
    warmup = random_hands(rng, 500, sizes=(14,)).tolist()
    theirs, cold, warm = [], [], []
    for _ in range(3):
        t, expected = timed(lambda: [mahjong_discard_table(list(h)) for h in hands])
        theirs.append(t)
        clear_caches()
        t, got = timed(lambda: [discard_table(h) for h in hands])
        cold.append(t)
        clear_caches()
        for h in warmup:
            discard_table(h)
        t, got = timed(lambda: [discard_table(h) for h in hands])
        warm.append(t)
    for mine, ref in zip(got, expected, strict=True):  # type: ignore[call-overload]
        assert sorted((o.kind, o.shanten, len(o.tiles)) for o in mine) == sorted(ref), "discard tables differ"
    n = len(hands)
    m = statistics.median(theirs) / n
    print(f"discard table: {n} random 14-tile hands, every discard with shanten and ukeire, per hand")
    print(line("warm caches (steady state)", statistics.median(warm) / n, m, "ms", 1e3, 30))
    print(line("cold caches (first pass of a run)", statistics.median(cold) / n, m, "ms", 1e3, 30))


def run() -> None:
    rng = np.random.default_rng(SEED)
    bench_single(rng)
    bench_batch(rng)
    bench_discards(rng)
