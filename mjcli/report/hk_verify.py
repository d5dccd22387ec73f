"""The Hong Kong (and Red) verify part of the page (:mod:`mjcli.report.verify_sections`): logs and
hands matched, hands by how they ended, every mismatch with its hand, and the logs the engine could
not walk.

``verify --game hk --out DIR`` writes ``verify.parquet`` (one row per hand), ``verify_games.parquet``
(each log's verdict and rule set) and ``verify_mismatches.parquet`` (every difference, its values
as JSON text).
"""

from __future__ import annotations

from pathlib import Path

from mjcli.report.outputs import Output
from mjcli.report.page import Page
from mjcli.report.verify_sections import VerifyWords, add_verify_sections


def words(game: str) -> VerifyWords:
    return VerifyWords(
        section="hk-verify",
        title=f"Verify ({'Red' if game == 'red' else 'Hong Kong'})",
        unit="hand",
        checked=(
            "Every hand played again through the engine (the wall, every draw, replacement and "
            "decision) and its result (kind, how, winner, discarder, tile, faan, items, deltas), the "
            "scores after it, the dealer's progress and the final scores compared with the log's."
        ),
        result="how",
        result_note=(
            "Share of the hands of each ending (self-drawn, on a discard, robbing a kong, the wall "
            "exhausted) that match the log."
        ),
        mismatch_columns=("file", "game", "hand", "round", "what", "log", "engine"),
        older_columns=("file", "game", "hand", "round", "how", "faan", "recorded_faan"),
        older_headers=("file", "game", "hand", "round", "engine result", "faan", "recorded faan"),
        failed="Logs the engine could not walk (their first bad step; no hand of theirs is counted):",
    )


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 0) -> None:
    add_verify_sections(page, out, words(out.game))
