"""The verify part of the page: logs and rounds matched, rounds by result, every mismatch with its
round, and the logs that could not be checked.

``verify --out DIR`` writes ``verify.parquet`` (one row per round), ``verify_games.parquet`` (each
game's verdict) and ``verify_mismatches.parquet`` (every difference, with its round). An output of
an older mjcli has only the first: the page then lists the rounds that do not match, without what
differed.
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from mjcli.report import charts
from mjcli.report.outputs import MARKERS, Output
from mjcli.report.page import Page
from mjcli.stats import Estimate

STATUSES = ("ok", "mismatch", "error")


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 0) -> None:
    rounds = pl.read_parquet(out.folder / MARKERS["verify"])
    games_path = out.folder / "verify_games.parquet"
    mismatches_path = out.folder / "verify_mismatches.parquet"
    games = pl.read_parquet(games_path) if games_path.is_file() else None
    matching = int(rounds["match"].sum()) if rounds.height else 0
    if games is not None:
        status = {s: games.filter(pl.col("status") == s).height for s in STATUSES}
        logs = games.height
    else:
        logs = rounds.select("file", "game").unique().height
        status = {}
    head = f"verify: {logs} logs"
    if status:
        head += f": {status['ok']} ok, {status['mismatch']} mismatching, {status['error']} errors"
    page.lines.append(head + f"; {matching}/{rounds.height} rounds match")
    sec = page.section("verify", "Verify: the logs against the rules engine")
    sec.note(
        "Each round's outcome recomputed by the engine (winners, han, fu, yaku, points, every score "
        "delta, tenpai, the next round's start, final scores) against what the log recorded."
    )
    if status:
        counts = [[Estimate(float(status[s]), math.nan, math.nan) for s in STATUSES]]
        sec.chart(
            "Logs by verdict",
            charts.bar_chart(
                list(STATUSES),
                ["logs"],
                counts,
                title="Logs by verdict",
                fmt=_count,
                tip=_count,
                y_range=None,
                missing="a count",
            ),
        )
    if rounds.height:
        by_kind = (
            rounds.group_by("kind")
            .agg(pl.len().alias("n"), pl.col("match").sum().alias("ok"))
            .sort("n", "kind", descending=[True, False])
        )
        kinds = by_kind["kind"].to_list()
        n, ok = by_kind["n"].to_list(), by_kind["ok"].to_list()
        bad = [t - o for o, t in zip(ok, n, strict=True)]
        sec.chart(
            "Rounds by result",
            charts.stacked_bars(
                kinds,
                ["match", "mismatch"],
                [[o / t for o, t in zip(ok, n, strict=True)], [b / t for b, t in zip(bad, n, strict=True)]],
                title="Rounds by the engine's result, matching or not",
                colours=("#54a24b", "#e45756"),
                counts=[ok, bad],
            ),
            note="Share of the rounds of each result (a win by tsumo or ron, or the draw's kind) that "
            "match the log.",
        )
    listing = page.section("verify-mismatches", "Verify: every mismatch")
    if mismatches_path.is_file():
        found = pl.read_parquet(mismatches_path)
        if found.is_empty():
            listing.note("No mismatch: every checked round matches its log.")
        else:
            listing.note(
                f"{found.height} differences in {found.select('file', 'game').unique().height} games."
            )
            listing.table(
                ["file", "game", "round", "what", "log", "engine"],
                [list(r) for r in found.select("file", "game", "round", "what", "log", "engine").iter_rows()],
            )
    else:
        wrong = rounds.filter(~pl.col("match"))
        listing.note(
            "This output has no verify_mismatches.parquet (an older mjcli wrote it): the rounds that "
            "do not match are listed, without what differed."
        )
        listing.table(
            ["file", "game", "round", "engine result", "recorded"],
            [list(r) for r in wrong.select("file", "game", "round", "kind", "recorded_kind").iter_rows()],
        )
    if games is not None:
        failed = games.filter(pl.col("error").is_not_null())
        if failed.height:
            listing.note("Logs that could not be checked to the end (the rounds before are counted):")
            listing.table(
                ["file", "game", "verdict", "rounds", "error"],
                [list(r) for r in failed.select("file", "game", "status", "rounds", "error").iter_rows()],
            )


def _count(x: float) -> str:
    return f"{x:.0f}"
