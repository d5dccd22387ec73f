"""Agreement of each policy with the players, per group of decisions, with 95 % intervals.

The figure is the share of a policy's rows where it chose what the player did (``agree``), the same
as the replay summary's; what the report adds is its interval and groups the summary does not have
(turn phase, shanten, cards in hand). Decisions of one game are not independent (the same player,
the same hand a turn later), so the interval treats the *game* as the unit: the share is
sum(agreements) / sum(decisions) over the games, and its interval the cluster-robust one of
:func:`mjcli.stats.ratio_estimate` (Student t over the games that have decisions of the group),
as the simulation's figures do with deals. Fewer than two such games give no interval.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from mjcli.report import charts
from mjcli.stats import Estimate, ratio_estimate

#: the y axis of every agreement chart
AGREEMENT_AXIS = "share agreeing with the player"


@dataclass(frozen=True)
class GroupRates:
    """``rates[policy][group]``: the agreement of each policy in each group (None: no decision)."""

    policies: list[str]
    groups: list[str]
    rates: dict[str, dict[str, Estimate]]

    def matrix(self) -> list[list[Estimate | None]]:
        """Values by series (policy) then category (group), as the charts take them."""
        return [[self.rates[p].get(g) for g in self.groups] for p in self.policies]

    def bars(self, title: str, x_label: str) -> str:
        """The rates as grouped bars, a policy's bar in each group, with their intervals."""
        return charts.bar_chart(
            self.groups, self.policies, self.matrix(), title=title, y_label=AGREEMENT_AXIS, x_label=x_label
        )

    def lines(self, title: str, x_label: str) -> str:
        """The rates as a line per policy over the (ordered) groups, with their intervals."""
        return charts.line_chart(
            self.groups, self.policies, self.matrix(), title=title, y_label=AGREEMENT_AXIS, x_label=x_label
        )


def policy_order(lf: pl.LazyFrame) -> list[str]:
    """Policies in the order they were asked (first appearance), as the summaries show them."""
    return lf.select(pl.col("policy").unique(maintain_order=True)).collect().to_series().to_list()


def rates_by(
    lf: pl.LazyFrame, group: pl.Expr, clusters: Sequence[str], order: Sequence[str] | None = None
) -> GroupRates:
    """Agreement per policy and value of ``group`` (rows where it is null are left out), clustered
    by the columns ``clusters`` (a game). Groups come in ``order`` when given (those present),
    else sorted."""
    per_cluster = (
        lf.select("policy", group.alias("_group"), *clusters, "agree")
        .filter(pl.col("_group").is_not_null())
        .group_by("policy", "_group", *clusters)
        .agg(pl.col("agree").cast(pl.Int64).sum().alias("y"), pl.len().alias("n"))
        .sort("policy", "_group", *clusters)
        .collect()
    )
    present = set(per_cluster["_group"].to_list())
    groups = [g for g in order if g in present] if order is not None else sorted(present)
    rates: dict[str, dict[str, Estimate]] = {}
    for (policy, g), sub in per_cluster.group_by("policy", "_group", maintain_order=True):
        e = ratio_estimate(sub["y"].to_list(), sub["n"].to_list()).clipped(0.0, 1.0)
        rates.setdefault(str(policy), {})[str(g)] = e
    policies = [p for p in policy_order(lf) if p in rates]
    return GroupRates(policies, [str(g) for g in groups], rates)


def overall(lf: pl.LazyFrame, clusters: Sequence[str]) -> dict[str, Estimate]:
    """Each policy's agreement over all its decisions, with its interval."""
    rates = rates_by(lf, pl.lit("all"), clusters)
    return {p: rates.rates[p]["all"] for p in rates.policies}


def thirds(position: pl.Expr) -> pl.Expr:
    """``early`` / ``middle`` / ``late`` for a position from 0 to 1 in its game."""
    return (
        pl.when(position < 1 / 3)
        .then(pl.lit("early"))
        .when(position < 2 / 3)
        .then(pl.lit("middle"))
        .otherwise(pl.lit("late"))
    )


PHASES = ("early", "middle", "late")


def pair_matrix(lf: pl.LazyFrame, key: Sequence[str]) -> tuple[list[str], list[list[float | None]]]:
    """The share of decision points (rows sharing ``key``) where two policies chose the same."""
    choices = lf.select(*key, "policy", "choice")
    same = (
        choices.join(choices, on=list(key), how="inner", suffix="_b")
        .group_by("policy", "policy_b")
        .agg((pl.col("choice") == pl.col("choice_b")).mean().alias("same"))
        .collect()
    )
    order = policy_order(lf)
    table = {(a, b): v for a, b, v in same.iter_rows()}
    return order, [[table.get((a, b)) for b in order] for a in order]


def shanten_group() -> pl.Expr:
    """A decision's shanten as the groups the charts show: complete, tenpai, 1, 2, 3, 4+."""
    s = pl.col("shanten")
    return (
        pl.when(s < 0)
        .then(pl.lit("complete"))
        .when(s == 0)
        .then(pl.lit("tenpai"))
        .when(s >= 4)
        .then(pl.lit("4+"))
        .otherwise(s.cast(pl.String))
    )


def most_disputed(
    lf: pl.LazyFrame, top: int, point: Sequence[str], worst: Mapping[str, pl.Expr] | None = None
) -> pl.DataFrame:
    """The ``top`` decision points (keyed by ``point``) where the most policies chose otherwise than
    the player, then where the most of them agree on the same other move, then by the largest of
    each of ``worst``'s figures over the point's rows (a game's own measure of how much the
    player's move lost), ties in key order."""
    worst = dict(worst or {})
    keys = ["against", "consensus", *worst, *point]
    base = (
        lf.group_by(point)
        .agg(
            pl.len().alias("asked"),
            (~pl.col("agree")).sum().alias("against"),
            *(e.max().fill_null(0).alias(name) for name, e in worst.items()),
        )
        .filter(pl.col("against") > 0)
    )
    # The consensus (the most rows against the player with the same choice, a null choice counted
    # as one) as counts per (point, choice) and their largest per point, joined to the rest, not
    # as every point's list of choices counted inside one aggregation: report of 171 hanchan, this
    # step 0.37 -> 0.22 s and its peak 354 -> 172-187 MiB. A null in a key column is a key value
    # like any other, as in the group_by (tests/test_report.py: equal to the one aggregation).
    consensus = (
        lf.filter(~pl.col("agree"))
        .group_by(*point, "choice")
        .agg(pl.len().alias("_same"))
        .group_by(point)
        .agg(pl.col("_same").max().alias("consensus"))
    )
    return (
        base.join(consensus, on=list(point), how="left", **_NULLS_MATCH)
        .select(*point, "asked", "against", pl.col("consensus").fill_null(0), *worst)
        .sort(keys, descending=[True, True, *([True] * len(worst)), *([False] * len(point))])
        .head(top)
        .collect()
    )


def rows_of_points(
    rows: pl.LazyFrame | pl.DataFrame, points: pl.DataFrame, point: Sequence[str]
) -> dict[tuple, list[dict[str, Any]]]:
    """Every row of each of ``points`` (keyed by the columns ``point``), by the point's key, in the
    table's order (a replay's: the order the policies were asked). The rows are numbered before
    the join, whose output order Polars does not promise: the same rows in the same order every
    run, for a table in any order."""
    if points.is_empty():
        return {}
    keys = points.select(point).with_row_index("_rank")
    chosen = (
        rows.lazy()
        .with_row_index("_order")
        .join(keys.lazy(), on=list(point), how="inner")
        .sort("_rank", "_order")
        .drop("_order")
        .collect()
    )
    out: dict[tuple, list[dict[str, Any]]] = {}
    for r in chosen.iter_rows(named=True):
        out.setdefault(tuple(r[c] for c in point), []).append(r)
    return out


#: a join whose null keys match each other, as group_by's do (the option's name in newer Polars,
#: ``join_nulls`` in older ones)
_NULLS_MATCH = (
    {"nulls_equal": True}
    if "nulls_equal" in inspect.signature(pl.LazyFrame.join).parameters
    else {"join_nulls": True}
)
