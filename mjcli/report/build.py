"""``mjcli report``: the page of an output folder, written atomically.

The folder says which command wrote it and for which game (:mod:`mjcli.report.outputs`); each
(game, kind) has its sections in :data:`SECTIONS`. A game added to the ``--game`` table gets a
report by adding its entries here (a test checks that every game's replay and simulate have one).
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from pathlib import Path

from mjcli.atomic import write_text_atomic
from mjcli.errors import UsageError
from mjcli.report.outputs import MARKERS, REPLAY_MANIFEST, Output, find_outputs
from mjcli.report.page import Page

#: (game, kind) -> the module whose ``add_sections(page, output, baseline=, top=)`` draws that output
SECTIONS: dict[tuple[str, str], str] = {
    ("riichi", "replay"): "mjcli.report.riichi_replay",
    ("riichi", "simulate"): "mjcli.report.riichi_simulation",
    ("riichi", "verify"): "mjcli.report.riichi_verify",
    ("doudizhu", "replay"): "mjcli.report.doudizhu_replay",
    ("doudizhu", "simulate"): "mjcli.report.doudizhu_simulation",
    # Red is Hong Kong under another rule set: the same pages, titled by the game
    **{(game, "replay"): "mjcli.report.hk_replay" for game in ("hk", "red")},
    **{(game, "simulate"): "mjcli.report.hk_simulation" for game in ("hk", "red")},
    **{(game, "verify"): "mjcli.report.hk_verify" for game in ("hk", "red")},
}


#: every file of an output folder the report may read: never the page's name
READ = (
    *MARKERS.values(),
    REPLAY_MANIFEST,
    "games.parquet",
    "rounds.parquet",
    "changes.parquet",
    "games.jsonl",
    "verify_games.parquet",
    "verify_mismatches.parquet",
)


@dataclass(frozen=True)
class Report:
    html: str
    outputs: list[Output]
    charts: int
    hands: int


def build_report(folder: str | os.PathLike[str], baseline: Path | None = None, top: int = 12) -> Report:
    """The page of every output in ``folder``; ``baseline`` (an older decisions.parquet or replay
    folder) adds the changed decisions of a riichi replay; ``top`` decisions are drawn."""
    if top < 0:
        raise UsageError(f"--top {top} is negative")
    outputs = find_outputs(folder)
    if baseline is not None and not any(o.kind == "replay" and o.game == "riichi" for o in outputs):
        raise UsageError(f"--baseline applies to a riichi replay; '{folder}' holds none")
    missing = [o for o in outputs if (o.game, o.kind) not in SECTIONS]
    if missing:
        o = missing[0]
        raise UsageError(f"no report for a {o.game} {o.kind} output yet")
    page = Page(f"mjcli report: {Path(folder).resolve().name}")
    for o in outputs:
        module = importlib.import_module(SECTIONS[(o.game, o.kind)])
        module.add_sections(page, o, baseline=baseline if o.kind == "replay" else None, top=top)
    footer = (
        f"Made by mjcli report from {folder}. One file: charts and tiles are inline SVG, nothing is "
        "loaded from elsewhere."
    )
    return Report(page.render(footer), outputs, page.charts, page.hands)


def write_report(
    folder: str | os.PathLike[str],
    output: str | os.PathLike[str],
    baseline: Path | None = None,
    top: int = 12,
) -> Report:
    """Build the page and write it to ``output`` through a temporary file (never over an input)."""
    target = Path(output)
    inputs = {(Path(folder) / name).resolve() for name in READ}
    if target.resolve() in inputs or (baseline is not None and target.resolve() == baseline.resolve()):
        raise UsageError(f"-o '{output}' is one of the files the report reads")
    if target.is_dir():
        raise UsageError(f"-o '{output}' is a folder: name the HTML file")
    if target.exists() and target.suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"-o '{output}' exists and is not an HTML page: it is not overwritten")
    report = build_report(folder, baseline, top)
    write_text_atomic(target, report.html)
    return report
