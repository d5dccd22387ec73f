"""Per-policy statistics of simulated games with 95 % confidence intervals, and paired differences.

Every figure is a ratio of sums over a policy's seats: average placement = sum of placements /
seats, win rate = wins / rounds, tsumo share = tsumo wins / wins, average win size = value won /
wins, and so on. Seats of one deal are not independent (rounds within a game share the scores; with
``--duplicate`` the seat rotations of a deal share the walls), so the intervals treat the *deal* as
the unit: the variance of a ratio R = sum(y) / sum(n) is the cluster-robust (delta-method) one,

    Var(R) = G / (G - 1) * sum_g (y_g - R n_g)^2 / (sum_g n_g)^2     over the G deals,

which for one observation per deal is the usual s^2 / G, and the interval is R +- t(0.975, G-1) SE,
cut to the range the figure can take (rates 0..1, placement 1..4). With few deals, or a rate near 0
or 1, this normal-theory interval is rough (a rate seen 0 times gets the interval [0, 0]).
Paired differences (``--duplicate``) compare two policies deal by deal: the mean of the per-deal
differences with its t interval, so the luck of the deal cancels out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import polars as pl

#: (name, numerator column, denominator column, meaning) of every per-policy figure
METRICS: tuple[tuple[str, str, str, str], ...] = (
    ("placement", "placement", "one", "average placement (1-4)"),
    ("first", "is_first", "one", "share of games in first place"),
    ("last", "is_last", "one", "share of games in last place"),
    ("score", "score", "one", "average final score"),
    ("points", "points", "one", "average points after uma and oka"),
    ("win_rate", "wins", "rounds", "wins per round"),
    ("deal_in_rate", "deal_ins", "rounds", "deal-ins per round"),
    ("tsumo_share", "tsumo", "wins", "share of wins by tsumo"),
    ("riichi_rate", "riichi", "rounds", "riichi per round"),
    ("call_rate", "calls", "rounds", "share of rounds with a call"),
    ("win_size", "win_points", "wins", "average hand value won"),
    ("deal_in_size", "deal_in_points", "deal_ins", "average hand value dealt into"),
)
#: the range a figure can take: its interval is clipped to it (a normal interval on a rate of 0.97
#: from few deals would otherwise reach past 1)
BOUNDS: dict[str, tuple[float, float]] = {
    "placement": (1.0, 4.0),
    **{
        m: (0.0, 1.0)
        for m in ("first", "last", "win_rate", "deal_in_rate", "tsumo_share", "riichi_rate", "call_rate")
    },
}
#: figures compared pairwise with --duplicate
PAIRED: tuple[str, ...] = ("points", "placement", "score")


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


def seat_frame(rows: Sequence[dict[str, object]]) -> pl.DataFrame:
    """The per-seat game rows (as in games.parquet) with the columns the metrics need."""
    df = pl.DataFrame(list(rows)) if not isinstance(rows, pl.DataFrame) else rows
    return df.with_columns(
        pl.lit(1).alias("one"),
        (pl.col("placement") == 1).cast(pl.Int64).alias("is_first"),
        (pl.col("placement") == 4).cast(pl.Int64).alias("is_last"),
    )


def policy_summary(games: pl.DataFrame, policies: Sequence[str]) -> list[dict[str, object]]:
    """One entry per policy (in the order given): seats played and every metric with its interval,
    clustered by deal."""
    df = seat_frame(games)
    sums = [
        pl.col(c).sum().cast(pl.Float64) for c in sorted({m[1] for m in METRICS} | {m[2] for m in METRICS})
    ]
    per_deal = df.group_by(["policy", "deal"]).agg(*sums).sort(["policy", "deal"])
    out: list[dict[str, object]] = []
    for name in policies:
        sub = per_deal.filter(pl.col("policy") == name)
        entry: dict[str, object] = {
            "policy": name,
            "games": int(df.filter(pl.col("policy") == name).height),
            "deals": sub.height,
        }
        for metric, num, den, _ in METRICS:
            e = ratio_estimate(sub[num].to_list(), sub[den].to_list())
            if metric in BOUNDS:
                e = e.clipped(*BOUNDS[metric])
            entry[metric] = e.to_dict()
        out.append(entry)
    return out


def paired_differences(games: pl.DataFrame, policies: Sequence[str]) -> list[dict[str, object]]:
    """For each pair of policies (A, B): A's mean minus B's per deal, averaged over the deals where
    both played, with its t interval; for every figure of :data:`PAIRED`."""
    per_deal = games.group_by(["deal", "policy"]).agg([pl.col(m).cast(pl.Float64).mean() for m in PAIRED])
    out: list[dict[str, object]] = []
    for a, b in combinations(policies, 2):
        joined = (
            per_deal.filter(pl.col("policy") == a)
            .join(per_deal.filter(pl.col("policy") == b), on="deal", suffix="_b")
            .sort("deal")
        )
        entry: dict[str, object] = {"a": a, "b": b, "deals": joined.height}
        for m in PAIRED:
            diffs = (joined[m] - joined[f"{m}_b"]).to_list()
            entry[m] = mean_estimate(diffs).to_dict()
        out.append(entry)
    return out


def format_estimate(e: dict[str, float | None], digits: int) -> str:
    """``2.41 ±0.05`` (``-`` when there is nothing to estimate)."""
    v, lo, hi = e["value"], e["lo"], e["hi"]
    if v is None:
        return "-"
    if lo is None or hi is None:
        return f"{v:.{digits}f}"
    return f"{v:.{digits}f} ±{(hi - lo) / 2:.{digits}f}"
