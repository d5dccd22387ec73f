"""Per-policy figures of simulated Hong Kong games with 95 % intervals, and paired differences.

Every figure is a ratio of sums over a policy's seats (average placement = placements / seats,
win rate = wins / hands, average faan = faan won / wins, ...). Seats of one deal are not
independent (the hands of a game share its scores; with ``--duplicate`` the seat rotations of a
deal share the walls), so the deal is the cluster: the interval is the cluster-robust one of
:func:`mjcli.stats.ratio_estimate` (R +- t(0.975, G-1) SE over the G deals), cut to the range of
the figure. Paired differences (``--duplicate``) are the mean of the per-deal differences between
two policies with their t interval (:func:`mjcli.stats.mean_estimate`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mjcli import stats
from mjcli.output import frame_text
from mjcli.stats import ratio_estimate

# Polars is imported where a frame is made (see mjcli.hk.simulate)
if TYPE_CHECKING:
    import polars as pl

#: (name, numerator, denominator, label, scale, decimals) of every figure
METRICS: tuple[tuple[str, str, str, str, float, int], ...] = (
    ("placement", "placement", "one", "placement", 1, 2),
    ("first", "is_first", "one", "1st place %", 100, 1),
    ("last", "is_last", "one", "4th place %", 100, 1),
    ("score", "score", "one", "final score", 1, 0),
    ("win_rate", "wins", "hands", "win %", 100, 1),
    ("self_drawn_share", "self_drawn", "wins", "self-drawn % of wins", 100, 1),
    ("deal_in_rate", "deal_ins", "hands", "deal-in %", 100, 1),
    ("call_rate", "calls", "hands", "call %", 100, 1),
    ("win_faan", "win_faan", "wins", "faan per win", 1, 2),
    ("win_size", "win_points", "wins", "win size", 1, 0),
    ("deal_in_size", "deal_in_points", "deal_ins", "deal-in size", 1, 0),
)
BOUNDS: dict[str, tuple[float, float]] = {
    "placement": (1.0, 4.0),
    **{m: (0.0, 1.0) for m in ("first", "last", "win_rate", "self_drawn_share", "deal_in_rate", "call_rate")},
    # faan and a hand's value are never below zero (a few games' normal interval went there)
    **{m: (0.0, math.inf) for m in ("win_faan", "win_size", "deal_in_size")},
}
PAIRED = ("score", "placement")


def _seat_frame(games: pl.DataFrame) -> pl.DataFrame:
    import polars as pl

    return games.with_columns(
        pl.lit(1).alias("one"),
        (pl.col("placement") == 1).cast(pl.Int64).alias("is_first"),
        (pl.col("placement") == 4).cast(pl.Int64).alias("is_last"),
    )


def policy_summary(games: pl.DataFrame, policies: Sequence[str]) -> list[dict[str, object]]:
    """One entry per policy: seats played and every figure with its interval, clustered by deal."""
    import polars as pl

    df = _seat_frame(games)
    columns = sorted({m[1] for m in METRICS} | {m[2] for m in METRICS})
    per_deal = (
        df.group_by(["policy", "deal"])
        .agg([pl.col(c).sum().cast(pl.Float64) for c in columns])
        .sort(["policy", "deal"])
    )
    out: list[dict[str, object]] = []
    for name in policies:
        sub = per_deal.filter(pl.col("policy") == name)
        entry: dict[str, object] = {
            "policy": name,
            "games": int(df.filter(pl.col("policy") == name).height),
            "deals": sub.height,
        }
        for metric, num, den, *_ in METRICS:
            e = ratio_estimate(sub[num].to_list(), sub[den].to_list())
            if metric in BOUNDS:
                e = e.clipped(*BOUNDS[metric])
            entry[metric] = e.to_dict()
        out.append(entry)
    return out


def paired_differences(games: pl.DataFrame, policies: Sequence[str]) -> list[dict[str, object]]:
    """:func:`mjcli.stats.paired_differences` for every figure of :data:`PAIRED`."""
    return stats.paired_differences(games, policies, PAIRED)


def format_estimate(e: dict[str, float | None], scale: float, digits: int) -> str:
    """``2.41 ±0.05`` (``-`` when there is nothing to estimate)."""
    v, lo, hi = e["value"], e["lo"], e["hi"]
    if v is None:
        return "-"
    if lo is None or hi is None:
        return f"{v * scale:.{digits}f}"
    return f"{v * scale:.{digits}f} ±{(hi - lo) * scale / 2:.{digits}f}"


def render(summary: dict[str, Any]) -> str:
    import polars as pl

    rules = summary["rules"]
    head = (
        f"{summary['games']} games ({summary['hands']} hands, {summary['draws']} drawn), "
        f"seed {summary['seed']}, {summary['game']}: minimum {rules['min_faan']} faan, "
        f"{rules['length']} round(s), payment {rules['payment']}"
    )
    if summary["duplicate"]:
        head += f", duplicate: {summary['deals']} deals x seat rotations"
    data: dict[str, list[str]] = {"figure": ["games (seats)"] + [m[3] for m in METRICS]}
    for e in summary["policies"]:
        col = [str(e["games"])]
        for metric, _, _, _, scale, digits in METRICS:
            col.append(format_estimate(e[metric], scale, digits))
        data[e["policy"]] = col
    parts = [head, "", frame_text(pl.DataFrame(data), width=240, str_len=40, align_right=True)]
    if summary["paired"]:
        rows: dict[str, list[str]] = {"pair": [], "deals": [], "score": [], "placement": []}
        for e in summary["paired"]:
            rows["pair"].append(f"{e['a']} - {e['b']}")
            rows["deals"].append(str(e["deals"]))
            rows["score"].append(format_estimate(e["score"], 1, 0))
            rows["placement"].append(format_estimate(e["placement"], 1, 2))
        parts += [
            "",
            "Paired differences per deal (first minus second, 95 % interval):",
            frame_text(pl.DataFrame(rows), width=240, str_len=40, align_right=True),
        ]
    return "\n".join(parts)
