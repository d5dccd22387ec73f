"""The riichi simulation part of the page: final-rank distribution per policy, average placement,
score and points, win / deal-in / riichi / call rates, all with their 95 % intervals, and with
``--duplicate`` the paired differences.

The figures are the ones ``simulate`` computed and wrote to ``summary.json``
(:mod:`mjcli.riichi.simulate.figures`: ratios clustered by deal); only the distribution of ranks,
which the summary gives as first and last place alone, is counted here from ``games.parquet``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from mjcli.errors import UsageError
from mjcli.report import charts
from mjcli.report.outputs import MARKERS, Output, read_columns, read_json
from mjcli.report.page import Page, estimate_of, fmt_estimate
from mjcli.riichi.simulate.figures import BOUNDS, METRICS, PAIRED

RANKS = ("1st", "2nd", "3rd", "4th")
RANK_COLOURS = ("#2e7d32", "#8bc34a", "#ffb74d", "#e53935")
#: the rates drawn side by side: (figure in summary.json, label)
RATES = (("win_rate", "win"), ("deal_in_rate", "deal-in"), ("riichi_rate", "riichi"), ("call_rate", "call"))


def rank_shares(
    games: pl.DataFrame, policies: list[str], seats: int = 4
) -> tuple[list[list[float]], list[list[int]]]:
    """Per rank then policy: the share of the policy's games (seats) finished in that rank, and the
    count (``seats``: players at the table, so ranks 1 to ``seats``)."""
    ranks = range(1, seats + 1)
    counts = games.group_by("policy", "placement").agg(pl.len().alias("n"))
    table = {(p, r): n for p, r, n in counts.iter_rows()}
    totals = {p: sum(table.get((p, r), 0) for r in ranks) for p in policies}
    shares = [[table.get((p, r), 0) / totals[p] if totals[p] else 0.0 for p in policies] for r in ranks]
    return shares, [[table.get((p, r), 0) for p in policies] for r in ranks]


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 0) -> None:
    summary = read_json(out.folder / MARKERS["simulate"])
    entries: list[dict[str, Any]] = summary.get("policies") or []
    if not entries or "placement" not in entries[0]:
        raise UsageError(f"'{out.folder / MARKERS['simulate']}' is not a riichi simulation's summary")
    policies = [e["policy"] for e in entries]
    seats = int(summary.get("seats", 4))  # three-player summaries say so; four-player ones never did
    head = (
        f"simulation (riichi): {summary.get('games')} games ({summary.get('rounds')} rounds), seed "
        f"{summary.get('seed')}, {summary.get('length')}, rules {summary.get('rules')}"
    )
    if summary.get("duplicate"):
        head += f", duplicate: {summary.get('deals')} deals x seat rotations"
    page.lines.append(head)
    sec = page.section("simulation", "Simulation: results per policy")
    sec.note(
        "95 % intervals: Student t, clustered by deal (the seats of one deal are not independent), "
        "cut to what the figure can be. With few games they are wide."
    )
    # games.parquet, or the parts of a run on Ray or resumed
    games = read_columns(out.folder, "games", ["policy", "placement"])
    if games is None:
        raise UsageError(f"'{out.folder}' has a summary.json but no games table")
    shares, counts = rank_shares(games, policies, seats)
    # three players: 1st, 2nd and the last place's colour for 3rd
    colours = RANK_COLOURS if seats == 4 else (*RANK_COLOURS[: seats - 1], RANK_COLOURS[-1])
    sec.chart(
        "Final rank",
        charts.stacked_bars(
            policies,
            RANKS[:seats],
            shares,
            title="Final rank distribution",
            colours=colours,
            counts=counts,
            y_label="share of its games",
        ),
        note=f"Share of each policy's games finished 1st to {RANKS[seats - 1]}.",
    )

    def one(metric: str) -> list[list[Any]]:
        return [[estimate_of(e[metric]) for e in entries]]

    sec.chart(
        "Average placement (lower is better)",
        charts.bar_chart(
            policies,
            ["placement"],
            one("placement"),
            title="Average placement",
            y_label="placement (1 is first)",
            fmt=charts.plain,
            tip=charts.two_decimals,
            y_range=(1.0, float(seats)),
        ),
    )
    sec.chart(
        "Average final score",
        charts.bar_chart(
            policies,
            ["score"],
            one("score"),
            title="Average final score",
            y_label="final score",
            fmt=charts.number,
            tip=charts.whole,
            y_range=None,
        ),
    )
    sec.chart(
        "Average points after uma and oka",
        charts.bar_chart(
            policies,
            ["points"],
            one("points"),
            title="Average points",
            y_label="points",
            fmt=charts.number,
            tip=charts.one_decimal,
            y_range=None,
        ),
    )
    rates = [[estimate_of(e[m]) for m, _ in RATES] for e in entries]
    sec.chart(
        "Rates per round",
        charts.bar_chart(
            [label for _, label in RATES],
            policies,
            rates,
            title="Win, deal-in, riichi and call rates",
            y_label="share of rounds",
        ),
        note="Wins, deal-ins and riichi per round played; call: share of rounds with a call.",
    )
    sec.table(
        ["figure", *policies],
        [["games (seats)", *[e["games"] for e in entries]]]
        + [
            [meaning.replace("(1-4)", f"(1-{seats})"), *[_shown(metric, e.get(metric)) for e in entries]]
            for metric, _, _, meaning in METRICS
        ],
    )
    paired = summary.get("paired") or []
    if paired:
        pairs = page.section("simulation-paired", "Simulation: paired differences (--duplicate)")
        pairs.note(
            "First policy minus second, deal by deal on the same walls, averaged over the deals with its "
            "95 % t interval: the luck of the deal cancels out. Placement: below zero is better."
        )
        names = [f"{p['a']} - {p['b']}" for p in paired]
        for metric in PAIRED:
            values = [[estimate_of(p[metric]) for p in paired]]
            pairs.chart(
                f"Difference in {metric}",
                charts.bar_chart(
                    names,
                    [metric],
                    values,
                    title=f"Paired difference in {metric}",
                    y_label=f"{metric}, first policy minus other",
                    fmt=charts.number,
                    tip=charts.two_decimals,
                    y_range=None,
                ),
            )
        pairs.table(
            ["pair", "deals", *PAIRED],
            [
                [n, p["deals"], *[fmt_estimate(estimate_of(p[m]), "{:.2f}") for m in PAIRED]]
                for n, p in zip(names, paired, strict=True)
            ],
        )


def _shown(metric: str, value: dict[str, Any] | None) -> str:
    e = estimate_of(value)
    if metric in BOUNDS and BOUNDS[metric] == (0.0, 1.0):
        return fmt_estimate(e, "{:.1%}")
    return fmt_estimate(e, "{:.2f}" if metric == "placement" else "{:.1f}")
