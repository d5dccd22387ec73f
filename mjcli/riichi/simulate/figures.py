"""Per-policy statistics of simulated games with 95 % confidence intervals, and paired differences.

Every figure is a ratio of sums over a policy's seats: average placement = sum of placements /
seats, win rate = wins / rounds, tsumo share = tsumo wins / wins, average win size = value won /
wins, and so on. Seats of one deal are not independent (rounds within a game share the scores; with
``--duplicate`` the seat rotations of a deal share the walls), so the intervals treat the *deal* as
the unit: the variance of a ratio R = sum(y) / sum(n) is the cluster-robust (delta-method) one,

    Var(R) = G / (G - 1) * sum_g (y_g - R n_g)^2 / (sum_g n_g)^2     over the G deals,

which for one observation per deal is the usual s^2 / G, and the interval is R +- t(0.975, G-1) SE
(computed by :func:`mjcli.stats.ratio_estimate`), cut to the range the figure can take (rates 0..1,
placement 1..4). With few deals, or a rate near 0 or 1, this normal-theory interval is rough (a
rate seen 0 times gets the interval [0, 0]).
Paired differences (``--duplicate``) compare two policies deal by deal: the mean of the per-deal
differences with its t interval, so the luck of the deal cancels out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from mjcli import stats
from mjcli.output import frame_text
from mjcli.stats import ratio_estimate

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
    # a hand's value is never below zero (a few games' normal interval went there)
    **{m: (0.0, math.inf) for m in ("win_size", "deal_in_size")},
}
#: figures compared pairwise with --duplicate
PAIRED: tuple[str, ...] = ("points", "placement", "score")


def seat_frame(rows: Sequence[dict[str, object]], seats: int = 4) -> pl.DataFrame:
    """The per-seat game rows (as in games.parquet) with the columns the metrics need (``seats``:
    players at the table, the last place)."""
    df = pl.DataFrame(list(rows)) if not isinstance(rows, pl.DataFrame) else rows
    return df.with_columns(
        pl.lit(1).alias("one"),
        (pl.col("placement") == 1).cast(pl.Int64).alias("is_first"),
        (pl.col("placement") == seats).cast(pl.Int64).alias("is_last"),
    )


def policy_summary(games: pl.DataFrame, policies: Sequence[str], seats: int = 4) -> list[dict[str, object]]:
    """One entry per policy (in the order given): seats played and every metric with its interval,
    clustered by deal (``seats``: players at the table)."""
    df = seat_frame(games, seats)
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
            if metric == "placement":
                e = e.clipped(1.0, float(seats))
            elif metric in BOUNDS:
                e = e.clipped(*BOUNDS[metric])
            entry[metric] = e.to_dict()
        out.append(entry)
    return out


def paired_differences(games: pl.DataFrame, policies: Sequence[str]) -> list[dict[str, object]]:
    """:func:`mjcli.stats.paired_differences` for every figure of :data:`PAIRED`."""
    return stats.paired_differences(games, policies, PAIRED)


def format_estimate(e: dict[str, float | None], digits: int) -> str:
    """``2.41 ±0.05`` (``-`` when there is nothing to estimate)."""
    v, lo, hi = e["value"], e["lo"], e["hi"]
    if v is None:
        return "-"
    if lo is None or hi is None:
        return f"{v:.{digits}f}"
    return f"{v:.{digits}f} ±{(hi - lo) / 2:.{digits}f}"


# ---------------------------------------------------------------- the summary as text

#: how each figure is shown: (label, scale, decimals)
_SHOWN: dict[str, tuple[str, float, int]] = {
    "placement": ("placement", 1, 2),
    "first": ("1st place %", 100, 1),
    "last": ("4th place %", 100, 1),
    "score": ("final score", 1, 0),
    "points": ("points (uma)", 1, 1),
    "win_rate": ("win %", 100, 1),
    "deal_in_rate": ("deal-in %", 100, 1),
    "tsumo_share": ("tsumo % of wins", 100, 1),
    "riichi_rate": ("riichi %", 100, 1),
    "call_rate": ("call %", 100, 1),
    "win_size": ("win size", 1, 0),
    "deal_in_size": ("deal-in size", 1, 0),
}


def render(summary: dict[str, Any]) -> str:
    """The summary as text: a heading, the per-policy table (95 % intervals as ±), the paired one."""
    head = (
        f"{summary['games']} games ({summary['rounds']} rounds), seed {summary['seed']}, "
        f"{summary['length']}, rules {summary['rules']}"
    )
    if summary["duplicate"]:
        head += f", duplicate: {summary['deals']} deals x seat rotations"
    parts = [head, "", policy_table(summary["policies"], summary.get("seats", 4))]
    if summary["paired"]:
        parts += [
            "",
            "Paired differences per deal (first minus second, 95 % interval):",
            paired_table(summary),
        ]
    return "\n".join(parts)


def policy_table(entries: list[dict[str, Any]], seats: int = 4) -> str:
    """Figures down, policies across (``seats``: players at the table, for the last place's label)."""
    labels = [_SHOWN[m][0] for m, *_ in METRICS]
    labels[labels.index("4th place %")] = f"{seats}{'th' if seats == 4 else 'rd'} place %"
    data: dict[str, list[str]] = {"figure": ["games (seats)", *labels]}
    for e in entries:
        col = [str(e["games"])]
        for m, *_ in METRICS:
            _, scale, digits = _SHOWN[m]
            col.append(format_estimate(_scaled(e[m], scale), digits))
        data[e["policy"]] = col
    return frame_text(pl.DataFrame(data), width=240, str_len=40, align_right=True)


def paired_table(summary: dict[str, Any]) -> str:
    rows: dict[str, list[str]] = {"pair": [], "deals": []}
    for m in PAIRED:
        rows[_SHOWN[m][0]] = []
    for e in summary["paired"]:
        rows["pair"].append(f"{e['a']} - {e['b']}")
        rows["deals"].append(str(e["deals"]))
        for m in PAIRED:
            rows[_SHOWN[m][0]].append(format_estimate(e[m], _SHOWN[m][2]))
    return frame_text(pl.DataFrame(rows), width=240, str_len=40, align_right=True)


def _scaled(e: dict[str, float | None], scale: float) -> dict[str, float | None]:
    return {k: (None if v is None else v * scale) for k, v in e.items()}
