"""Verify Hong Kong game logs: every hand played again through the engine and its result compared
with the log's.

A log verifies when every step is one the engine allows (the wall is the whole set, every draw
and replacement is the wall's next tile, every decision is legal), every hand's recorded result
(kind, how, winner, discarder, tile, faan, items, deltas) and the scores after it are the
engine's, the hands follow each other as the rules say (dealer, prevailing wind, repeats) and the
final scores and placements are right. A log the engine cannot walk is an error (its first bad
step named); one it walks but whose results differ is a mismatch (each difference listed).

Three tables for ``verify --out`` (what ``mjcli report`` draws): :data:`ROW_SCHEMA` one row per
hand, :data:`GAMES_SCHEMA` each log's verdict, :data:`MISMATCH_SCHEMA` every difference with its
hand (the values as JSON text: they are numbers, lists or names).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjcli.errors import LogFormatError, printable
from mjcli.hk.formats import GameEnd, HandEnd, read_game, walk
from mjcli.inputs import name_text
from mjcli.ledger import file_sha256, to_frame
from mjcli.runner import Backend, ordered_map

# Polars is imported where a frame is made, not here (see mjcli.hk.replay); the column types below
# are Python types, which Polars reads as Int64, String, Boolean and List columns
if TYPE_CHECKING:
    import polars as pl

ROW_SCHEMA: dict[str, Any] = {
    "file": str,
    "game": int,
    "hand": int,
    "round": str,
    "kind": str,
    "how": str,
    "winner": int,
    "discarder": int,
    "faan": int,
    "recorded_faan": int,
    "deltas": list[int],
    "recorded_deltas": list[int],
    "match": bool,
}
GAMES_SCHEMA: dict[str, Any] = {
    "file": str,
    "game": int,
    "rules": str,
    "status": str,
    "hands": int,
    "hands_matching": int,
    "mismatches": int,
    "error": str,
}
MISMATCH_SCHEMA: dict[str, Any] = {
    "file": str,
    "game": int,
    "hand": int,
    "round": str,
    "what": str,
    "log": str,
    "engine": str,
}


@dataclass(slots=True)
class Report:
    file: str
    status: str = "ok"  # ok, mismatch or error
    hands: int = 0
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    game: int | None = None  # the log's seed
    rules: str | None = None  # the log's rule set (hk, red)

    def to_row(self) -> dict[str, Any]:
        """The log's row of ``verify_games.parquet``."""
        return {
            "file": self.file,
            "game": self.game,
            "rules": self.rules,
            "status": self.status,
            "hands": self.hands,
            "hands_matching": sum(1 for r in self.rows if r["match"]),
            "mismatches": len(self.mismatches),
            "error": self.error,
        }

    def mismatch_rows(self) -> list[dict[str, Any]]:
        """Its rows of ``verify_mismatches.parquet``."""
        return [
            {
                "file": self.file,
                "game": self.game,
                "hand": m["hand"],
                "round": m["round"],
                "what": m["what"],
                "log": _json(m["log"]),
                "engine": _json(m["engine"]),
            }
            for m in self.mismatches
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "status": self.status,
            "hands": self.hands,
            "mismatches": self.mismatches,
            "error": self.error,
        }


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def verify_game(file: str, game: dict[str, Any]) -> Report:
    seed = game.get("seed") if isinstance(game.get("seed"), int) else None
    report = Report(file, game=seed, rules=game.get("game") if isinstance(game.get("game"), str) else None)
    for item in walk(game):
        if isinstance(item, HandEnd):
            report.hands += 1
            r = item.result
            for what, log, engine in item.mismatches:
                report.mismatches.append(
                    {"hand": item.hand, "round": item.round, "what": what, "log": log, "engine": engine}
                )
            report.rows.append(
                {
                    "file": file,
                    "game": seed,
                    "hand": item.hand,
                    "round": item.round,
                    "kind": r.kind,
                    "how": r.how,
                    "winner": r.winner,
                    "discarder": r.discarder,
                    "faan": None if r.score is None else r.score.faan,
                    "recorded_faan": item.recorded.get("faan"),
                    "deltas": list(r.deltas),
                    "recorded_deltas": item.recorded.get("deltas"),
                    "match": not item.mismatches,
                }
            )
        elif isinstance(item, GameEnd):
            for what, log, engine in item.mismatches:
                report.mismatches.append(
                    {"hand": None, "round": None, "what": what, "log": log, "engine": engine}
                )
    if report.mismatches:
        report.status = "mismatch"
    return report


def verify_file(path: Path, label: str | None = None) -> Report:
    name = label or str(path)
    try:
        return verify_game(name, read_game(path))
    except LogFormatError as exc:
        return Report(name, "error", error=name_text(str(exc)))


def _task(_: None, item: tuple[Path, str]) -> Report:
    return verify_file(*item)


def verify_paths(
    items: Sequence[tuple[Path, str]], jobs: int = 1, backend: Backend | None = None
) -> Iterator[Report]:
    """Reports in input order, worked out in ``jobs`` processes (or where ``backend`` says)."""
    yield from ordered_map(_task, list(items), jobs=jobs, backend=backend, main_helps=True)


#: the tables of a verify: files ``NAME.parquet``, or a parted run's folders (see :mod:`mjcli.ledger`)
TABLES = ("verify", "verify_games", "verify_mismatches")


def note_of(r: Report) -> dict[str, Any]:
    """What the command prints of a log's report and counts, as JSON values: what a parted run keeps
    of it in its manifest, so that a resumed run prints the same for the logs it keeps."""
    data = json.loads(json.dumps(r.to_dict(), ensure_ascii=False))
    matching = sum(1 for row in r.rows if row["match"])
    return {
        "data": data,
        "lines": report_lines(r),
        "status": r.status,
        "hands": r.hands,
        "matching": matching,
    }


def verify_split(r: Report) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    """A log's report in a parted run: its rows in each table, and its note."""
    frames = {
        "verify": to_frame(r.rows, ROW_SCHEMA),
        "verify_games": to_frame([r.to_row()], GAMES_SCHEMA),
        "verify_mismatches": to_frame(r.mismatch_rows(), MISMATCH_SCHEMA),
    }
    return frames, note_of(r)


def verify_fingerprint(item: tuple[Path, str]) -> tuple[str, str]:
    return item[1], file_sha256(item[0])


def verify_task(_: None, item: tuple[Path, str]) -> Report:
    return verify_file(*item)


def parted_options(game: str) -> dict[str, Any]:
    """What a verify's rows depend on besides the logs (a parted run's options): each log's own rules
    are in the log."""
    return {"command": "verify", "game": game}


def report_lines(r: Report) -> list[str]:
    if r.status == "error":
        return [f"ERROR  {printable(r.file)}", f"    {printable(r.error or '')}"]
    head = f"{'ok' if r.status == 'ok' else 'MISMATCH':<8} {r.hands:4d} hands  {printable(r.file)}"
    lines = [head]
    for m in r.mismatches[:20]:
        where = f"hand {m['hand']} {m['round']}" if m["hand"] is not None else "game"
        lines.append(f"    {where}: {m['what']}: log {m['log']}, engine {m['engine']}")
    if len(r.mismatches) > 20:
        lines.append(f"    ... {len(r.mismatches) - 20} more")
    return lines
