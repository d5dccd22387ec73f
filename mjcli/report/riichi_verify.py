"""The riichi verify part of the page (:mod:`mjcli.report.verify_sections`): logs and rounds
matched, rounds by result, every mismatch with its round, and the logs that could not be checked.

``verify --out DIR`` writes ``verify.parquet`` (one row per round), ``verify_games.parquet`` (each
game's verdict) and ``verify_mismatches.parquet`` (every difference, with its round).
"""

from __future__ import annotations

from pathlib import Path

from mjcli.report.outputs import Output
from mjcli.report.page import Page
from mjcli.report.verify_sections import VerifyWords, add_verify_sections

WORDS = VerifyWords(
    section="verify",
    title="Verify",
    unit="round",
    checked=(
        "Each round's outcome recomputed by the engine (winners, han, fu, yaku, points, every score "
        "delta, tenpai, the next round's start, final scores) against what the log recorded."
    ),
    result="kind",
    result_note=(
        "Share of the rounds of each result (a win by tsumo or ron, or the draw's kind) that match the log."
    ),
    mismatch_columns=("file", "game", "round", "what", "log", "engine"),
    older_columns=("file", "game", "round", "kind", "recorded_kind"),
    older_headers=("file", "game", "round", "engine result", "recorded"),
    failed="Logs that could not be checked to the end (the rounds before are counted):",
)


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 0) -> None:
    add_verify_sections(page, out, WORDS)
