"""Walk Dou Dizhu game records and ask policies at every decision point (bids, leads, follows).

Rows follow the columns of the riichi replay's decisions.parquet where they apply: file, game_id,
round ("1": a Dou Dizhu game is one round), turn, seat, player (who sat there in the record), kind
(bid/lead/follow), hand, actual, policy, choice, agree, reason. A file that cannot be read, or a
record that breaks the rules, is reported and the batch goes on.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.atomic import write_atomic
from mjcli.doudizhu.cards import format_counts
from mjcli.doudizhu.engine import BidView
from mjcli.doudizhu.policies import get_policy
from mjcli.doudizhu.records import bid_text, move_text, read_records, walk
from mjcli.errors import LogFormatError, UsageError

DECISIONS_SCHEMA = {
    "file": pl.String,
    "game_id": pl.String,
    "round": pl.String,
    "turn": pl.Int64,
    "seat": pl.Int64,
    "player": pl.String,
    "kind": pl.String,
    "hand": pl.String,
    "actual": pl.String,
    "policy": pl.String,
    "choice": pl.String,
    "agree": pl.Boolean,
    "reason": pl.String,
}

_POLICIES: dict[str, Any] = {}


def _policy(name: str) -> Any:
    if name not in _POLICIES:
        _POLICIES[name] = get_policy(name)
    return _POLICIES[name]


def replay_record(file: str, record: dict[str, Any], policies: list[str]) -> list[dict[str, Any]]:
    """The decision rows of one record; raises LogFormatError if the record is broken."""
    rows: list[dict[str, Any]] = []
    game_id = str(record.get("game", record.get("seed", "")))
    players = record.get("players", ["?"] * 3)
    for point in walk(record):
        for name in policies:
            # Each question gets its own generator, so answers do not depend on the order asked.
            rng = random.Random(f"replay:{game_id}:{point.turn}:{name}")
            policy = _policy(name)
            if isinstance(point.view, BidView):
                level, reason = policy.bid(point.view, rng)
                choice = bid_text(level if level > point.view.highest else 0)
            else:
                move, reason = policy.play(point.view, rng)
                choice = move_text(move)
            rows.append(
                {
                    "file": file,
                    "game_id": game_id,
                    "round": "1",
                    "turn": point.turn,
                    "seat": point.seat,
                    "player": str(players[point.seat]),
                    "kind": point.kind,
                    "hand": format_counts(point.view.hand),
                    "actual": point.actual,
                    "policy": name,
                    "choice": choice,
                    "agree": choice == point.actual,
                    "reason": reason,
                }
            )
    return rows


Job = tuple[str, int, dict[str, Any], list[str]]


def _job(args: Job) -> tuple[str, int, list[dict[str, Any]], str | None]:
    file, index, record, policies = args
    try:
        return file, index, replay_record(file, record, policies), None
    except LogFormatError as exc:
        return file, index, [], str(exc)


def _jobs(paths: list[Path], policies: list[str], errors: list[dict[str, str]]) -> Iterator[Job]:
    for path in paths:
        try:
            for i, record in enumerate(read_records(path)):
                yield str(path), i, record, policies
        except LogFormatError as exc:
            errors.append({"file": str(path), "error": str(exc)})


def replay(
    paths: list[Path],
    policies: list[str],
    *,
    out: Path | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Replay every record of ``paths``; write ``out/decisions.parquet``; return the summary."""
    if not policies:
        raise UsageError("--policies names no policy")
    for name in policies:
        get_policy(name)
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    errors: list[dict[str, str]] = []
    rows: list[dict[str, Any]] = []
    games = 0
    work = _jobs(paths, policies, errors)
    if jobs == 1:
        results: Iterator = map(_job, work)
        pool = None
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        pool = multiprocessing.get_context(method).Pool(jobs)
        results = pool.imap(_job, work, chunksize=8)
    try:
        for file, index, game_rows, error in results:
            if error is not None:
                errors.append({"file": file, "error": f"record {index + 1}: {error}"})
            else:
                games += 1
                rows.extend(game_rows)
            if progress:
                progress(1)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    frame = pl.DataFrame(rows, schema=DECISIONS_SCHEMA)
    if out is not None:
        write_atomic(Path(out) / "decisions.parquet", frame.write_parquet)
    agreement = (
        frame.group_by(["policy", "kind"], maintain_order=True)
        .agg(pl.len().alias("decisions"), pl.col("agree").mean().alias("agree_rate"))
        .sort(["policy", "kind"])
    )
    return {
        "game": "doudizhu",
        "files": len(paths),
        "games": games,
        "decisions": frame.height,
        "errors": sorted(errors, key=lambda e: (e["file"], e["error"])),
        "agreement": agreement.to_dicts(),
    }
