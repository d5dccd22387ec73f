"""``mjcli verify``: replay game logs through the rules engine and compare every outcome."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from mjcli.errors import UsageError
from mjcli.output import emit_json, terminal_bar
from mjcli.riichi.rules import get_rules
from mjcli.riichi.verify import ERROR, OK, GameReport, Summary, collect_paths, verify_paths

HELP = (
    "Replay game logs through the rules engine and compare, round by round, what the engine computes "
    "(winners, han, fu, yaku, points, every score delta, tenpai, shown hands, final scores and points) "
    "with what each log recorded. Mismatches are listed with the round, the log's value and the engine's."
    "\n\n"
    "LOGS are files (Tenhou mjlog XML, tenhou.net/6 JSON, mjai JSON lines; gzip too), directories "
    "(walked recursively) or - for a list of paths on standard input. A log that cannot be read or ends "
    "early is reported and the batch goes on. Exit status: 0 every log verifies, 1 some log mismatches "
    "or fails to read, 2 bad usage."
    "\n\n"
    "Example: mjcli verify ../shared/logs/tenhou-xml --json"
)

_STATUS_WORD = {OK: "ok", "mismatch": "MISMATCH", ERROR: "ERROR"}


def _human_lines(report: GameReport) -> list[str]:
    name = report.file + (f" [{report.game}]" if report.game and report.game not in report.file else "")
    head = f"{_STATUS_WORD[report.status]:<9}{report.rounds:>4} rounds  {name}"
    lines = [head]
    if report.error:
        lines.append(f"    {report.error}")
    lines.extend(f"    {m}" for m in report.mismatches)
    return lines


def register(app: typer.Typer) -> None:
    @app.command("verify", help=HELP, no_args_is_help=True)
    def verify(
        logs: list[str] = typer.Argument(..., help="Log files, directories, or - to read paths from stdin."),
        out: Path | None = typer.Option(
            None, "--out", "-o", help="Write DIR/verify.parquet (one row per round)."
        ),
        as_json: bool = typer.Option(False, "--json", help="One JSON object per log, then a summary object."),
        jobs: int = typer.Option(
            1, "--jobs", "-j", min=1, help="Worker processes (output order is the same)."
        ),
        rules_name: str = typer.Option("tenhou", "--rules", help="Rule-set preset (a log's own rules win)."),
    ) -> None:
        rules = get_rules(rules_name)
        paths = collect_paths(logs, sys.stdin if "-" in logs else None)
        if not paths:
            raise UsageError(f"no log files found in {', '.join(logs)}")
        if out is not None and out.exists() and not out.is_dir():
            raise UsageError(f"--out '{out}' exists and is not a directory")
        summary = Summary()
        rows: list[dict[str, object]] = []
        with terminal_bar(len(paths), unit="log", leave=False) as bar:
            for reports in verify_paths(paths, rules, jobs):
                for r in reports:
                    summary.add(r)
                    if out is not None:
                        rows.extend(row.to_dict() for row in r.rows)
                    if as_json:
                        emit_json(r.to_dict())
                    else:
                        if bar is not None:
                            bar.clear()
                        typer.echo("\n".join(_human_lines(r)))
                if bar is not None:
                    bar.update(1)
        if out is not None:
            from mjcli.report import write_parquet

            target = write_parquet(rows, out / "verify.parquet", schema=_schema())
            typer.echo(f"wrote {target} ({len(rows)} rounds)", err=True)
        if as_json:
            emit_json(summary.to_dict())
        else:
            typer.echo(
                f"{summary.logs} logs: {summary.ok} ok, {summary.mismatch} mismatching, {summary.error} "
                f"errors; {summary.rounds_matching}/{summary.rounds} rounds match"
            )
        if summary.ok != summary.logs:
            raise typer.Exit(1)


def _schema() -> dict[str, object]:
    import polars as pl

    return {
        "file": pl.String,
        "game": pl.String,
        "round": pl.String,
        "honba": pl.Int32,
        "kind": pl.String,
        "recorded_kind": pl.String,
        "recorded_deltas": pl.List(pl.Int64),
        "engine_deltas": pl.List(pl.Int64),
        "han": pl.List(pl.Int32),
        "fu": pl.List(pl.Int32),
        "yaku": pl.String,
        "match": pl.Boolean,
    }
