"""The riichi branch of ``mjcli replay``: every decision of every log through every policy.

:func:`run` takes the parsed options and returns the exit code; ``mjcli/commands/replay.py`` (which
also holds the Dou Dizhu branch) routes ``--game riichi`` here.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from mjcli.errors import UsageError
from mjcli.output import emit_json, terminal_bar
from mjcli.riichi.policies import parse_policy_names
from mjcli.riichi.replay import FileResult, PolicyFailure, ReplayOptions, collect_inputs, run_replay
from mjcli.riichi.summary import BY_CHOICES, compare_baseline, format_changes, format_summary, scan, summarise

if TYPE_CHECKING:
    from tqdm import tqdm

HELP = """Riichi (--game riichi, the default): LOGS are files (Tenhou mjlog XML, tenhou.net/6 JSON, mjai
JSON lines; gzip too), folders (walked recursively) or - for a list of paths on standard input. Each
log is walked through the rules engine; at every decision point (a seat with more than one legal
action) each policy of --policy is asked, given exactly the view that player had. --out DIR gets
decisions.parquet (one row per decision point and policy) and games.parquet (one row per game and
seat); a summary of the agreement follows. --baseline OLD.parquet compares the choices with an older
run and exits 1 when more than --max-changes decisions changed. Logs that cannot be read or that the
engine rejects are listed and skipped (exit 1).

Example: mjcli replay ../shared/logs/tenhou-xml --out rep --policy akagi,efficiency --by player"""

#: the default of the shared --policies option, which names Dou Dizhu policies; riichi asks all its own
DOUDIZHU_DEFAULT_POLICIES = "zhanpai,greedy,random"


def _progress(bar: tqdm | None, policies: int) -> Callable[[FileResult], None] | None:
    """The per-log callback of the progress bar (if any): logs done, with decisions per second."""
    if bar is None:
        return None
    start = time.perf_counter()
    done = [0]

    def update(result: FileResult) -> None:
        done[0] += result.decisions.height // max(1, policies)
        rate = done[0] / max(1e-9, time.perf_counter() - start)
        bar.set_postfix_str(f"{rate:,.0f} decisions/s", refresh=False)
        bar.update(1)

    return update


def _parse_seats(seat: list[int] | None) -> tuple[int, ...] | None:
    if not seat:
        return None
    for s in seat:
        if not 0 <= s <= 3:
            raise UsageError(f"--seat {s} is not 0..3 (seat 0 is the first dealer)")
    return tuple(sorted(set(seat)))


def run(
    logs: list[str],
    policies: str = "all",
    out: Path | None = None,
    jobs: int | None = None,
    as_json: bool = False,
    seat: list[int] | None = None,
    player: list[str] | None = None,
    by: str | None = None,
    baseline: Path | None = None,
    max_changes: int = 0,
    rules: str = "tenhou",
) -> int:
    """Replay ``logs``; print the summary (and the changes against ``baseline``); the exit code."""
    names = tuple(parse_policy_names(policies))
    if by is not None and by not in BY_CHOICES:
        raise UsageError(f"--by '{by}' is not one of {', '.join(BY_CHOICES)}")
    if baseline is not None:
        scan(baseline)  # a missing or foreign baseline is a usage error before any work
    if max_changes < 0:
        raise UsageError(f"--max-changes {max_changes} is negative")
    from mjcli.riichi.rules import get_rules

    get_rules(rules)
    options = ReplayOptions(names, _parse_seats(seat), tuple(player) if player else None, rules)
    inputs = collect_inputs(logs, sys.stdin if "-" in logs else None)
    if not inputs:
        raise UsageError(f"no log files found in {', '.join(logs)}")
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise UsageError(f"--jobs {workers} is not a positive number")
    target = out if out is not None else Path(tempfile.mkdtemp(prefix="mjcli-replay-"))
    try:
        return _run(inputs, options, target, workers, as_json, by, baseline, max_changes, out is not None)
    finally:
        if out is None:
            shutil.rmtree(target, ignore_errors=True)


def _run(
    inputs: list[tuple[Path, str]],
    options: ReplayOptions,
    out: Path,
    jobs: int,
    as_json: bool,
    by: str | None,
    baseline: Path | None,
    max_changes: int,
    keep: bool,
) -> int:
    with terminal_bar(len(inputs), unit="log", leave=False) as bar:
        try:
            result = run_replay(inputs, options, out, jobs, _progress(bar, len(options.policies)))
        except PolicyFailure as exc:
            typer.echo(f"error: {' '.join(str(exc).split())}", err=True)
            return 1
    lf = scan(result.decisions_path)  # type: ignore[arg-type]
    summary = summarise(lf, by)
    summary.update(
        {
            "files": result.files,
            "skipped": result.errors,
            "incomplete": len(result.incomplete),
            "out": str(out) if keep else None,
        }
    )
    code = 1 if result.errors else 0
    changes = None
    if baseline is not None:
        from mjcli.atomic import atomic_path

        changes, counts = compare_baseline(lf, baseline)
        with atomic_path(out / "changes.parquet") as tmp:
            changes.write_parquet(tmp)
        summary["baseline"] = {"path": str(baseline), "changed": changes.height, **counts, "max": max_changes}
        if changes.height > max_changes:
            code = 1
    if as_json:
        if changes is not None:
            summary["changes"] = changes.to_dicts()
        emit_json(summary)
    else:
        typer.echo(format_summary(summary))
        for e in result.errors:
            typer.echo(f"SKIPPED {e}")
        if result.incomplete:
            typer.echo(f"{len(result.incomplete)} log(s) end before their game does (replayed up to the cut)")
        if changes is not None:
            b = summary["baseline"]
            typer.echo("")
            typer.echo(
                f"baseline {baseline}: {b['changed']} changed of {b['compared']} compared decisions "
                f"({b['only_old']} only in the baseline, {b['only_new']} only in this run; max {max_changes})"
            )
            if changes.height:
                typer.echo(format_changes(changes))
    if keep:
        typer.echo(f"wrote {result.decisions_path} ({result.rows} rows) and {result.games_path}", err=True)
    return code
