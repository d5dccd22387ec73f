"""Confidence intervals shared by the simulation summaries (riichi in :mod:`mjcli.riichi.simulate.figures`,
Dou
Dizhu in :mod:`mjcli.doudizhu.summary`), without SciPy.

* :func:`ratio_estimate`: a ratio R = sum(y) / sum(n) over clusters with its cluster-robust
  (delta-method) interval R +- t(0.975, G-1) SE, where over the G clusters

      Var(R) = G / (G - 1) * sum_g (y_g - R n_g)^2 / (sum_g n_g)^2,

  which for one observation per cluster is the usual s^2 / G; :func:`mean_estimate` is that case.
* :func:`normal_mean_ci`: the mean +- z standard errors (normal quantile, 1.96 for 95 %).
* :func:`wilson`: the Wilson score interval of a proportion.

The two mean intervals are kept apart on purpose: they differ in the quantile (Student t against
normal), in what one value gives (no interval against a zero-width one) and in the arithmetic
(Python sums against Polars' mean and standard deviation), so merging them would change the
published numbers in their last bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl

#: the normal 0.975 quantile, as written in the Dou Dizhu summaries (a 95 % two-sided interval)
Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Estimate:
    value: float
    lo: float
    hi: float

    def clipped(self, low: float, high: float) -> Estimate:
        """The interval cut to what the figure can be (NaN stays NaN)."""
        return Estimate(self.value, min(max(self.lo, low), high), max(min(self.hi, high), low))

    def to_dict(self) -> dict[str, float | None]:
        return {"value": _num(self.value), "lo": _num(self.lo), "hi": _num(self.hi)}


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes 6.4)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_cdf(t: float, df: int) -> float:
    """Student's t distribution function."""
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t >= 0 else tail


@lru_cache(maxsize=256)
def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (no SciPy): the distribution function inverted by bisection."""
    if df <= 0 or not 0 < p < 1:
        return math.nan
    if p < 0.5:
        return -t_quantile(1 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def ratio_estimate(num: Sequence[float], den: Sequence[float], level: float = 0.95) -> Estimate:
    """sum(num) / sum(den) over clusters, with its cluster-robust ``level`` interval (NaN when the
    denominator is zero; no interval from fewer than two clusters)."""
    total = float(sum(den))
    if total == 0:
        return Estimate(math.nan, math.nan, math.nan)
    r = float(sum(num)) / total
    g = len(num)
    if g < 2:
        return Estimate(r, math.nan, math.nan)
    ss = sum((y - r * n) ** 2 for y, n in zip(num, den, strict=True))
    se = math.sqrt(g / (g - 1) * ss) / total
    half = t_quantile(0.5 + level / 2, g - 1) * se
    return Estimate(r, r - half, r + half)


def mean_estimate(values: Sequence[float], level: float = 0.95) -> Estimate:
    """The mean with its t interval (independent values)."""
    return ratio_estimate(values, [1.0] * len(values), level)


def normal_mean_ci(values: pl.Series, z: float = Z95) -> tuple[float, float, float]:
    """(mean, lo, hi): the mean +- ``z`` standard errors (sample standard deviation; one value gives
    a zero-width interval, none gives NaN)."""
    n = values.len()
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(values.mean())  # type: ignore[arg-type]
    sd = float(values.std()) if n > 1 else 0.0  # type: ignore[arg-type]
    half = z * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (lo, hi) of the proportion wins / n (NaN when n is 0)."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # cut to 0..1: at p = 0 (or 1) the bound is 0 (1) in exact arithmetic, and the float came out
    # as -1.4e-17, printed "-0.000" (a reviewer's finding)
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_differences(
    games: pl.DataFrame, policies: Sequence[str], figures: Sequence[str]
) -> list[dict[str, object]]:
    """For each pair of policies (A, B) of a duplicate run: A's mean minus B's per deal, averaged
    over the deals where both played, with its t interval, for every column of ``figures``
    (``games`` has one row per seat, with ``deal`` and ``policy``). Every game's summary uses it."""
    from itertools import combinations

    import polars as pl

    per_deal = games.group_by(["deal", "policy"]).agg([pl.col(m).cast(pl.Float64).mean() for m in figures])
    out: list[dict[str, object]] = []
    for a, b in combinations(policies, 2):
        joined = (
            per_deal.filter(pl.col("policy") == a)
            .join(per_deal.filter(pl.col("policy") == b), on="deal", suffix="_b")
            .sort("deal")
        )
        entry: dict[str, object] = {"a": a, "b": b, "deals": joined.height}
        for m in figures:
            entry[m] = mean_estimate((joined[m] - joined[f"{m}_b"]).to_list()).to_dict()
        out.append(entry)
    return out
