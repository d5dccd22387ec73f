"""The Hong Kong (and Red) simulation part of the page: final-rank distribution per policy, average
placement and final score, the win / self-drawn / deal-in / call rates, faan per win and the sizes
of wins and deal-ins, all with their 95 % intervals, and with ``--duplicate`` the paired
differences.

The figures are the ones ``simulate --game hk`` computed and wrote to ``summary.json``
(:mod:`mjcli.hk.figures`: ratios clustered by deal), shown as they are and in that module's own
words; only the distribution of ranks, which the summary gives as first and last place alone, is
counted here from ``games.parquet``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mjcli.errors import UsageError
from mjcli.hk.figures import METRICS, PAIRED, format_estimate
from mjcli.report import charts
from mjcli.report.outputs import MARKERS, Output, read_columns, read_json
from mjcli.report.page import Page, estimate_of
from mjcli.report.riichi_simulation import RANK_COLOURS, RANKS, rank_shares

#: the rates drawn side by side: (figure in summary.json, label)
RATES = (
    ("win_rate", "win"),
    ("self_drawn_share", "self-drawn (of wins)"),
    ("deal_in_rate", "deal-in"),
    ("call_rate", "call"),
)


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 0) -> None:
    summary = read_json(out.folder / MARKERS["simulate"])
    entries: list[dict[str, Any]] = summary.get("policies") or []
    if not entries or "win_faan" not in entries[0]:
        raise UsageError(f"'{out.folder / MARKERS['simulate']}' is not a Hong Kong simulation's summary")
    policies = [e["policy"] for e in entries]
    title = "Red" if out.game == "red" else "Hong Kong"
    rules = summary.get("rules") or {}
    head = (
        f"simulation ({title}): {summary.get('games')} games ({summary.get('hands')} hands, "
        f"{summary.get('draws')} drawn), seed {summary.get('seed')}, minimum {rules.get('min_faan')} faan, "
        f"{rules.get('length')} round(s), payment {rules.get('payment')}"
    )
    if summary.get("duplicate"):
        head += f", duplicate: {summary.get('deals')} deals x seat rotations"
    page.lines.append(head)
    sec = page.section("hk-simulation", f"Simulation ({title}): results per policy")
    sec.note(
        "95 % intervals: Student t, clustered by deal (the seats of one deal are not independent), cut "
        "to what the figure can be. With few games they are wide."
    )
    # games.parquet, or the parts of a run on Ray or resumed
    games = read_columns(out.folder, "games", ["policy", "placement"])
    if games is None:
        raise UsageError(f"'{out.folder}' has a summary.json but no games table")
    shares, counts = rank_shares(games, policies)
    sec.chart(
        "Final rank",
        charts.stacked_bars(
            policies,
            RANKS,
            shares,
            title="Final rank distribution",
            colours=RANK_COLOURS,
            counts=counts,
            y_label="share of its games",
        ),
        note="Share of each policy's games finished 1st to 4th (a tie goes to the seat nearer the "
        "first dealer).",
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
            y_range=(1.0, 4.0),
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
        note="Points won and paid over the game (every hand's payments sum to zero).",
    )
    sec.chart(
        "Rates",
        charts.bar_chart(
            [label for _, label in RATES],
            policies,
            [[estimate_of(e[m]) for m, _ in RATES] for e in entries],
            title="Win, self-drawn, deal-in and call rates",
            y_label="share of hands",
        ),
        note="Wins, deal-ins and hands with a call per hand played; self-drawn: share of the wins.",
    )
    sec.chart(
        "Faan per win",
        charts.bar_chart(
            policies,
            ["faan"],
            one("win_faan"),
            title="Faan per win",
            y_label="faan",
            fmt=charts.plain,
            tip=charts.two_decimals,
            y_range=None,
        ),
    )
    sec.table(
        ["figure", *policies],
        [["games (seats)", *[e["games"] for e in entries]]]
        + [
            [label, *[format_estimate(e[metric], scale, digits) for e in entries]]
            for metric, _, _, label, scale, digits in METRICS
        ],
    )
    sec.note("Table: value ± half the 95 % interval, as simulate prints it.")
    paired = summary.get("paired") or []
    if paired:
        pairs = page.section(
            "hk-simulation-paired", f"Simulation ({title}): paired differences (--duplicate)"
        )
        pairs.note(
            "First policy minus second, deal by deal on the same walls, averaged over the deals with its "
            "95 % t interval: the luck of the deal cancels out. Placement: below zero is better."
        )
        names = [f"{p['a']} - {p['b']}" for p in paired]
        for metric in PAIRED:
            pairs.chart(
                f"Difference in {metric}",
                charts.bar_chart(
                    names,
                    [metric],
                    [[estimate_of(p[metric]) for p in paired]],
                    title=f"Paired difference in {metric}",
                    y_label=f"{metric}, first policy minus other",
                    fmt=charts.number,
                    tip=charts.two_decimals,
                    y_range=None,
                ),
            )
        pairs.table(
            ["pair", "deals", "score", "placement"],
            [
                [n, p["deals"], format_estimate(p["score"], 1, 0), format_estimate(p["placement"], 1, 2)]
                for n, p in zip(names, paired, strict=True)
            ],
        )
