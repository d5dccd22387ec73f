"""Shanten, batch shanten and discard tables against `mahjong`, in one process on the same hands.

Targets: single hand >= 20x, batch of 100k >= 400x, 14-tile discard table >= 30x faster
than `mahjong`'s ``Shanten.calculate_shanten``.

How it is measured, so that the ratios are honest:

* Both sides get the same hands (fixed seed, random 13- and 14-tile hands from a shuffled wall) and
  their answers are compared. Each measurement alternates the two sides a few times and keeps the
  median of each, since other processes share the machine.
* The single-hand path caches what it learns about each suit slice (see
  ``mjcli.analysis.shanten_calc``). It is shown twice: with the caches as a fresh process has them
  ("cold": seeded at import with the slices of at most 7 tiles; every larger slice seen for the first
  time pays the miss), and after another set of random hands went through ("warm": the steady state
  of a long replay or simulation; the timed hands are never the warm-up hands).
* How finely the two sides alternate matters to the single-hand figure: our path is lookups in
  about 1.5 MB of tables, which a chunk of `mahjong` calls pushes out of the CPU's L2 cache, so every
  switch back costs a refill. The headline figures alternate every 500 hands (the strictest); the
  same warm measurement alternating every 5,000 hands and back to back is printed below them, so
  the cost of a cold CPU cache can be read off rather than hidden.
* The discard-table baseline does with `mahjong` what ``discard_table`` does: per distinct discard,
  the shanten left and, for each of the 34 kinds that can still be drawn, the shanten after the draw.
"""

from __future__ import annotations

import os
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
    """Back to the caches of a fresh process (seeded at import with every slice of <= 7 tiles)."""
    _calc.reset_cache()


def interleaved(
    items: list, ours: Callable[[list], object], theirs: Callable[[list], object], chunk: int
) -> tuple[float, float]:
    """Total seconds of each side over ``items``, alternating chunk by chunk (and which side goes
    first), so that both see the same load from whatever else runs on the machine."""
    t_ours = t_theirs = 0.0
    for n, i in enumerate(range(0, len(items), chunk)):
        part = items[i : i + chunk]
        for side in ("ours", "theirs") if n % 2 == 0 else ("theirs", "ours"):
            start = time.perf_counter()
            (ours if side == "ours" else theirs)(part)
            elapsed = time.perf_counter() - start
            if side == "ours":
                t_ours += elapsed
            else:
                t_theirs += elapsed
    return t_ours, t_theirs


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


def check_same(hands: list[list[int]]) -> None:
    assert [shanten(h) for h in hands] == [calc(h) for h in hands], "shanten differs from mahjong"


def bench_single(rng: np.random.Generator) -> None:
    hands = random_hands(rng, 20_000).tolist()
    warmup = random_hands(rng, 20_000).tolist()
    check_same(hands)
    n = len(hands)
    mine = lambda part: [shanten(h) for h in part]  # noqa: E731
    ref = lambda part: [calc(h) for h in part]  # noqa: E731
    cold, warm = [], []
    for _ in range(3):
        clear_caches()
        cold.append(interleaved(hands, mine, ref, chunk=500))
        clear_caches()
        mine(warmup)
        warm.append(interleaved(hands, mine, ref, chunk=500))
    print(f"single hand: {n} random 13/14-tile hands, per call (3 runs, the median-ratio one shown)")
    for label, runs in (("warm caches (steady state)", warm), ("cold (fresh process caches)", cold)):
        ours, theirs = sorted(runs, key=lambda r: r[1] / r[0])[1]
        print(line(label, ours / n, theirs / n, "us", 1e6, 20))
    for chunk, label in ((5000, "warm, alternating every 5000 hands"), (n, "warm, back to back")):
        clear_caches()
        mine(warmup)
        ours, theirs = interleaved(hands, mine, ref, chunk=chunk)
        print(line(label, ours / n, theirs / n, "us", 1e6, 20))
    print(f"  value cache after a pass: {len(_calc._VALUE_CACHE)} suit/honour slices")


def bench_batch(rng: np.random.Generator) -> None:
    arr = random_hands(rng, 100_000)
    as_lists = arr.tolist()
    shanten_batch(arr[:10])  # builds the numpy tables once (a fraction of a second), outside the timing
    assert np.array_equal(shanten_batch(arr), np.array([calc(h) for h in as_lists])), "batch differs"
    # 20 rounds: 1/20 of the mahjong loop, then our whole batch; mahjong's total is the sum
    t_theirs, ours = 0.0, []
    for r in range(20):
        part = as_lists[r * 5000 : (r + 1) * 5000]
        start = time.perf_counter()
        for h in part:
            calc(h)
        t_theirs += time.perf_counter() - start
        start = time.perf_counter()
        shanten_batch(arr)
        ours.append(time.perf_counter() - start)
    print(f"batch: {len(arr)} hands as one (N, 34) uint8 array vs a loop of calculate_shanten")
    print(line("whole batch, median of 20", statistics.median(ours), t_theirs, "ms", 1e3, 400))
    print(line("whole batch, best of 20", min(ours), t_theirs, "ms", 1e3, 400))


def bench_discards(rng: np.random.Generator) -> None:
    hands = random_hands(rng, 100, sizes=(14,)).tolist()
    warmup = random_hands(rng, 500, sizes=(14,)).tolist()
    for h in hands[:20]:
        mine_rows = sorted((o.kind, o.shanten, len(o.tiles)) for o in discard_table(h))
        assert mine_rows == sorted(mahjong_discard_table(list(h))), "discard tables differ"
    mine = lambda part: [discard_table(h) for h in part]  # noqa: E731
    ref = lambda part: [mahjong_discard_table(list(h)) for h in part]  # noqa: E731
    clear_caches()
    cold = interleaved(hands, mine, ref, chunk=5)
    clear_caches()
    mine(warmup)
    warm = interleaved(hands, mine, ref, chunk=5)
    n = len(hands)
    print(f"discard table: {n} random 14-tile hands, every discard with shanten and ukeire, per hand")
    print(line("warm caches (steady state)", warm[0] / n, warm[1] / n, "ms", 1e3, 30))
    print(line("cold (fresh process caches)", cold[0] / n, cold[1] / n, "ms", 1e3, 30))


def run() -> None:
    # the single-hand ratio moves with the machine's load (our path is lookups in memory that other
    # processes push out of the CPU cache; mahjong's is arithmetic), so say what the load was
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    rng = np.random.default_rng(SEED)
    bench_single(rng)
    bench_batch(rng)
    bench_discards(rng)
