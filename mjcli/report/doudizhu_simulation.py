"""The Dou Dizhu simulation part of the page: per policy and role, the share of games won (WP) and
the average points (ADP) with their 95 % intervals, how often each policy was the landlord, and
with ``--duplicate`` the first policy's gains on the same deals.

The figures are those ``simulate`` wrote to ``summary.json`` (:mod:`mjcli.doudizhu.summary`:
Wilson intervals for WP, normal ones for ADP, paired by deal in the comparison), shown as they are;
the tables are that module's own text tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from mjcli.doudizhu.summary import duplicate_table, role_table
from mjcli.errors import UsageError
from mjcli.report import charts
from mjcli.report.outputs import MARKERS, Output, read_columns, read_json
from mjcli.report.page import Page
from mjcli.stats import Estimate

ROLES = ("landlord", "peasant")


def _estimate(row: dict[str, Any] | None, name: str) -> Estimate | None:
    if row is None or row.get(name) is None:
        return None
    return Estimate(row[name], row[f"{name}_lo"], row[f"{name}_hi"])


def _frame_table(frame: pl.DataFrame) -> tuple[list[str], list[list[Any]]]:
    return frame.columns, [list(r) for r in frame.iter_rows()]


def seat_shares(
    seats: pl.DataFrame, policies: list[str]
) -> tuple[list[str], list[list[float]], list[list[int]]]:
    """Each policy's games split by the seats it held: landlord only, peasant only, or the landlord
    and a peasant (only where a policy sits twice); the parts, their shares of the games the policy
    sat in, and their counts (``seats``: one row per game and seat, with ``game``, ``policy`` and
    ``role``)."""
    held = seats.group_by("policy", "game").agg(
        landlord=(pl.col("role") == "landlord").any(), peasant=(pl.col("role") == "peasant").any()
    )
    names = ["landlord", "peasant", "landlord and peasant"]
    kinds = {
        names[0]: pl.col("landlord") & ~pl.col("peasant"),
        names[1]: ~pl.col("landlord") & pl.col("peasant"),
        names[2]: pl.col("landlord") & pl.col("peasant"),
    }
    counts = [[held.filter((pl.col("policy") == p) & kinds[k]).height for p in policies] for k in names]
    if not any(counts[2]):  # each policy held one seat a game: no third part to show
        names, counts = names[:2], counts[:2]
    totals = [sum(col) for col in zip(*counts, strict=True)]
    shares = [[c / t if t else 0.0 for c, t in zip(row, totals, strict=True)] for row in counts]
    return names, shares, counts


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 0) -> None:
    summary = read_json(out.folder / MARKERS["simulate"])
    roles: list[dict[str, Any]] = summary.get("roles") or []
    if not roles or "wp" not in roles[0]:
        raise UsageError(f"'{out.folder / MARKERS['simulate']}' is not a Dou Dizhu simulation's summary")
    policies = list(dict.fromkeys(summary.get("players") or [r["policy"] for r in roles]))
    policies = [p for p in policies if any(r["policy"] == p for r in roles)]
    by = {(r["policy"], r["role"]): r for r in roles}
    page.lines.append(
        f"simulation (Dou Dizhu): {summary.get('games')} games, seed {summary.get('seed')}, kicker rule "
        f"{summary.get('kicker')}{', duplicate deals' if summary.get('duplicate') else ''}; the landlord "
        f"won {summary.get('landlord_wins')} of {summary.get('games')} games"
    )
    sec = page.section("ddz-simulation", "Simulation (Dou Dizhu): results per policy and role")
    sec.note(
        "WP: share of games won, 95 % Wilson interval. ADP: average points per game, 95 % normal "
        "interval. Both peasants of a game share its result: a game where one policy holds both "
        "peasant seats counts once."
    )
    sec.chart(
        "Share of games won (WP)",
        charts.bar_chart(
            policies,
            list(ROLES),
            [[_estimate(by.get((p, role)), "wp") for p in policies] for role in ROLES],
            title="WP by policy and role",
            y_label="share of games won",
        ),
    )
    sec.chart(
        "Average points per game (ADP)",
        charts.bar_chart(
            policies,
            list(ROLES),
            [[_estimate(by.get((p, role)), "adp") for p in policies] for role in ROLES],
            title="ADP by policy and role",
            y_label="points per game",
            fmt=charts.number,
            tip=lambda x: f"{x:.2f}",
            y_range=None,
        ),
    )
    # games.parquet, or the parts of a run resumed: the games each policy sat in are not in the
    # summary, whose counts by role overlap when one policy holds two seats of a game
    seats = read_columns(out.folder, "games", ["game", "policy", "role"])
    if seats is None:
        raise UsageError(f"'{out.folder}' has a summary.json but no games table")
    parts, shares, counts = seat_shares(seats, policies)
    sec.chart(
        "Games by role",
        charts.stacked_bars(
            policies,
            parts,
            shares,
            title="Share of the games each policy sat in, by its seats",
            y_label="share of its games",
            colours=("#b279a2", "#72b7b2", "#9d755d"),
            counts=counts,
        ),
        note="A policy that holds two seats of a game (two policies at a table of three) is the "
        "landlord and a peasant of that game, or both peasants.",
    )
    sec.table(*_frame_table(role_table(pl.DataFrame(roles))))
    comparison: list[dict[str, Any]] = summary.get("comparison") or []
    if comparison:
        dup = page.section("ddz-duplicate", "Simulation (Dou Dizhu): the first policy on the same deals")
        dup.note(
            f"{comparison[0]['policy']} against each other policy on the same deals: as landlord (A|BB "
            "against B|BB), as peasants (B|AA against B|BB) and with sides swapped (DouZero's A|BB with "
            "B|AA). Gains are per-deal differences with their 95 % interval."
        )
        names = [f"vs {c['opponent']}: {c['side']}" for c in comparison]
        dup.chart(
            "WP gain",
            charts.bar_chart(
                names,
                ["WP gain"],
                [[_estimate(c, "wp_gain") for c in comparison]],
                title="WP gain",
                y_label="share of games won, difference",
                y_range=None,
            ),
        )
        dup.chart(
            "ADP gain",
            charts.bar_chart(
                names,
                ["ADP gain"],
                [[_estimate(c, "adp_gain") for c in comparison]],
                title="ADP gain",
                y_label="points per deal, difference",
                fmt=charts.number,
                tip=lambda x: f"{x:.2f}",
                y_range=None,
            ),
        )
        dup.table(*_frame_table(duplicate_table(pl.DataFrame(comparison))))
