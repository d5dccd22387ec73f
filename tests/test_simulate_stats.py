"""Confidence intervals and paired differences of the simulate summary."""

from __future__ import annotations

import math
import random

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.riichi.simulate.figures import format_estimate, paired_differences, policy_summary
from mjcli.stats import mean_estimate, ratio_estimate, t_quantile, wilson

# Student's t 0.975 quantiles from the printed tables.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 10: 2.228, 20: 2.086, 30: 2.042, 120: 1.980}


@pytest.mark.parametrize("df, expected", sorted(T975.items()))
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-3)


@given(st.lists(st.floats(min_value=-1e4, max_value=1e4, allow_nan=False), min_size=2, max_size=40))
@settings(max_examples=80, deadline=None)
def test_one_value_per_cluster_is_the_usual_t_interval(values: list[float]) -> None:
    e = mean_estimate(values)
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    assert e.value == pytest.approx(mean, abs=1e-6)
    assert e.hi - e.value == pytest.approx(half, rel=1e-6, abs=1e-6)
    assert e.lo <= e.value <= e.hi


def test_ratio_of_sums_and_degenerate_cases() -> None:
    assert ratio_estimate([1, 2, 3], [2, 2, 2]).value == pytest.approx(1.0)
    assert math.isnan(ratio_estimate([0, 0], [0, 0]).value)
    single = ratio_estimate([3], [4])
    assert single.value == 0.75 and math.isnan(single.lo)
    assert format_estimate(single.to_dict(), 2) == "0.75"
    assert format_estimate({"value": 2.5, "lo": 2.0, "hi": 3.0}, 1) == "2.5 ±0.5"
    assert format_estimate({"value": None, "lo": None, "hi": None}, 1) == "-"


def test_clustered_rate_covers_the_truth_about_95_percent() -> None:
    """Coverage check: clusters of varying size, a true rate of 0.3, 400 repetitions."""
    rng = random.Random(1)
    hits = 0
    reps = 400
    for _ in range(reps):
        num, den = [], []
        for _ in range(60):
            n = rng.randint(4, 15)
            p = min(max(rng.gauss(0.3, 0.08), 0), 1)  # a cluster's own rate varies round the truth
            num.append(sum(rng.random() < p for _ in range(n)))
            den.append(n)
        e = ratio_estimate(num, den)
        hits += e.lo <= 0.3 <= e.hi
    assert 0.91 <= hits / reps <= 0.985


def _games(rows: list[tuple[int, str, int, float]]) -> pl.DataFrame:
    out = []
    for deal, policy, placement, points in rows:
        out.append(
            {
                "game": deal,
                "deal": deal,
                "policy": policy,
                "placement": placement,
                "score": int(points * 1000),
                "points": points,
                "rounds": 10,
                "wins": 2,
                "tsumo": 1,
                "deal_ins": 1,
                "riichi": 3,
                "calls": 4,
                "win_points": 16000,
                "deal_in_points": 5000,
            }
        )
    return pl.DataFrame(out)


def test_policy_summary_figures() -> None:
    games = _games([(0, "a", 1, 40.0), (0, "b", 4, -40.0), (1, "a", 2, 10.0), (1, "b", 3, -10.0)])
    a, b = policy_summary(games, ["a", "b"])
    assert a["policy"] == "a" and a["games"] == 2 and a["deals"] == 2
    assert a["placement"]["value"] == 1.5 and b["placement"]["value"] == 3.5
    assert a["first"]["value"] == 0.5 and b["last"]["value"] == 0.5
    assert a["win_rate"]["value"] == 0.2 and a["deal_in_rate"]["value"] == 0.1
    assert a["tsumo_share"]["value"] == 0.5 and a["riichi_rate"]["value"] == 0.3
    assert a["call_rate"]["value"] == 0.4
    assert a["win_size"]["value"] == 8000 and a["deal_in_size"]["value"] == 5000
    assert a["points"]["value"] == 25.0


def test_paired_differences_are_per_deal() -> None:
    games = _games(
        [(0, "a", 1, 30.0), (0, "b", 2, 10.0), (1, "a", 2, 5.0), (1, "b", 1, 15.0), (2, "a", 1, 20.0)]
    )
    (pair,) = paired_differences(games, ["a", "b"])
    assert pair["deals"] == 2  # deal 2 has no "b": not paired
    assert pair["points"]["value"] == pytest.approx((20.0 - 10.0) / 2)
    diffs = [20.0, -10.0]
    half = t_quantile(0.975, 1) * math.sqrt(sum((d - 5) ** 2 for d in diffs)) / math.sqrt(2)
    assert pair["points"]["hi"] == pytest.approx(5 + half, rel=1e-5)


def test_rate_intervals_stay_within_what_a_rate_can_be() -> None:
    # one deal in three with a win in its only round: the normal interval would pass below 0
    games = _games([(0, "a", 1, 1.0), (1, "a", 2, 1.0), (2, "a", 3, 1.0)])
    games = games.with_columns(wins=pl.Series([1, 0, 0]), rounds=pl.Series([1, 1, 1]))
    (a,) = policy_summary(games, ["a"])
    assert a["win_rate"]["value"] == pytest.approx(1 / 3)
    assert a["win_rate"]["lo"] == 0.0 and a["win_rate"]["hi"] == 1.0
    assert a["placement"]["lo"] >= 1.0 and a["placement"]["hi"] <= 4.0
    # points have no bounds
    assert a["points"]["lo"] == a["points"]["hi"] == 1.0


def test_size_intervals_stay_above_zero() -> None:
    # a hand's value is never negative: one big win among small ones took the normal interval below 0
    games = _games([(0, "a", 1, 1.0), (1, "a", 2, 1.0), (2, "a", 3, 1.0)])
    games = games.with_columns(
        wins=pl.Series([1, 1, 1]),
        win_points=pl.Series([32000, 1000, 1000]),
        deal_ins=pl.Series([1, 1, 1]),
        deal_in_points=pl.Series([24000, 1000, 1000]),
    )
    (a,) = policy_summary(games, ["a"])
    for size in ("win_size", "deal_in_size"):
        assert a[size]["lo"] == 0.0 and a[size]["value"] > 0 and a[size]["hi"] > a[size]["value"], a[size]


@pytest.mark.parametrize("n", [1, 7, 20, 333])
def test_wilson_bounds_stay_within_zero_and_one(n: int) -> None:
    """At 0 of n (or n of n) the bound is 0 (1) exactly; the float came out as -1.4e-17 and printed
    "-0.000" (a reviewer's finding)."""
    for wins in (0, n):
        lo, hi = wilson(wins, n)
        assert 0.0 <= lo <= hi <= 1.0
    assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
