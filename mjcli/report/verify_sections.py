"""The verify part of the page, for any game whose ``verify --out DIR`` writes the three tables:
logs and units (rounds, hands) matched, units by result, every mismatch with its unit, and the logs
that could not be checked.

``verify.parquet`` has one row per unit (with a ``match`` column and the engine's result),
``verify_games.parquet`` each log's verdict, ``verify_mismatches.parquet`` every difference. An
output of an older mjcli has only the first: the page then lists the units that do not match,
without what differed. Each game's module (``riichi_verify``, ``hk_verify``) says in a
:class:`VerifyWords` what its units are called and which columns to show.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from mjcli.output import plural
from mjcli.report import charts
from mjcli.report.outputs import Output, read_table
from mjcli.report.page import Page, Section
from mjcli.stats import Estimate

STATUSES = ("ok", "mismatch", "error")
#: rows listed at most in each table of the page: a verify of a whole dataset under another rule
#: set differs in every round (100,000 differences made a page of 20 MB); the tables hold them all
LISTED = 1000


@dataclass(frozen=True)
class VerifyWords:
    """What differs between games: names, what the engine checks, and the columns shown."""

    section: str  # the id of the section (the mismatches' is SECTION-mismatches)
    title: str  # "Verify" or "Verify (Hong Kong)"
    unit: str  # round, hand
    checked: str  # what the engine recomputes, for the section's note
    result: str  # the column of verify.parquet that names the engine's result
    result_note: str  # what the results are, under their chart
    mismatch_columns: Sequence[str]  # of verify_mismatches.parquet, as listed
    older_columns: Sequence[str]  # of verify.parquet, listed when there is no mismatches table
    older_headers: Sequence[str]
    failed: str  # the note above the logs that could not be checked

    @property
    def units(self) -> str:
        return self.unit + "s"


def add_verify_sections(page: Page, out: Output, words: VerifyWords) -> None:
    rows = read_table(out.folder, "verify")
    assert rows is not None  # what made the folder a verify's
    games = read_table(out.folder, "verify_games")
    found = read_table(out.folder, "verify_mismatches")
    matching = int(rows["match"].sum()) if rows.height else 0
    if games is not None:
        status = {s: games.filter(pl.col("status") == s).height for s in STATUSES}
        logs = games.height
    else:
        logs = rows.select("file", "game").unique().height
        status = {}
    head = f"{words.title[0].lower()}{words.title[1:]}: {plural(logs, 'log')}"
    if status:
        head += f": {status['ok']} ok, {status['mismatch']} mismatching, {plural(status['error'], 'error')}"
    page.lines.append(head + f"; {matching}/{rows.height} {words.units} match")
    sec = page.section(words.section, f"{words.title}: the logs against the rules engine")
    sec.note(words.checked)
    if status:
        counts = [[Estimate(float(status[s]), math.nan, math.nan) for s in STATUSES]]
        sec.chart(
            "Logs by verdict",
            charts.bar_chart(
                list(STATUSES),
                ["logs"],
                counts,
                title="Logs by verdict",
                y_label="logs",
                fmt=_count,
                tip=_count,
                y_range=None,
                missing="a count",
                counts=True,
            ),
        )
    if rows.height:
        by_result = (
            rows.group_by(words.result)
            .agg(pl.len().alias("n"), pl.col("match").sum().alias("ok"))
            .sort("n", words.result, descending=[True, False])
        )
        results = [str(r) for r in by_result[words.result].to_list()]
        n, ok = by_result["n"].to_list(), by_result["ok"].to_list()
        bad = [t - o for o, t in zip(ok, n, strict=True)]
        sec.chart(
            f"{words.units.capitalize()} by result",
            charts.stacked_bars(
                results,
                ["match", "mismatch"],
                [[o / t for o, t in zip(ok, n, strict=True)], [b / t for b, t in zip(bad, n, strict=True)]],
                title=f"{words.units.capitalize()} by the engine's result, matching or not",
                y_label=f"share of {words.units}",
                colours=("#54a24b", "#e45756"),
                counts=[ok, bad],
            ),
            note=words.result_note,
        )
    listing = page.section(f"{words.section}-mismatches", f"{words.title}: every mismatch")
    if found is not None:
        if found.is_empty():
            listing.note(f"No mismatch: every checked {words.unit} matches its log.")
        else:
            listing.note(
                f"{found.height} differences in {found.select('file', 'game').unique().height} games."
            )
            _listed(listing, found.height, "differences", "verify_mismatches.parquet")
            listing.table(
                list(words.mismatch_columns),
                [list(r) for r in found.head(LISTED).select(*words.mismatch_columns).iter_rows()],
            )
    else:
        wrong = rows.filter(~pl.col("match"))
        listing.note(
            f"This output has no verify_mismatches.parquet (an older mjcli wrote it): the {words.units} "
            "that do not match are listed, without what differed."
        )
        _listed(listing, wrong.height, words.units + " that do not match", "verify.parquet")
        listing.table(
            list(words.older_headers),
            [list(r) for r in wrong.head(LISTED).select(*words.older_columns).iter_rows()],
        )
    if games is not None:
        failed = games.filter(pl.col("error").is_not_null())
        if failed.height:
            listing.note(words.failed)
            _listed(listing, failed.height, "logs", "verify_games.parquet")
            shown = failed.head(LISTED).select("file", "game", "status", words.units, "error")
            headers = ["file", "game", "verdict", words.units, "error"]
            listing.table(headers, [list(r) for r in shown.iter_rows()])


def _listed(section: Section, total: int, what: str, table: str) -> None:
    """The note that a table lists only the first :data:`LISTED` of its ``total`` rows."""
    if total > LISTED:
        section.note(f"The first {LISTED} of {total} {what} are listed here; {table} holds them all.")


def _count(x: float) -> str:
    return f"{x:.0f}"
