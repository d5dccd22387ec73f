"""``mjcli replay``: walk game records and ask the policies at every decision point.

The Dou Dizhu branch is complete; the riichi branch is one separate function for issue 5 to fill.
"""

from __future__ import annotations

from pathlib import Path

import typer

from mjcli.errors import UsageError
from mjcli.output import emit_json, format_table, terminal_bar

HELP = """Walk game records and ask each policy what it would do at every decision point.

Dou Dizhu (--game doudizhu): RECORDS are JSON-lines game records as `mjcli simulate --game doudizhu
--out DIR` writes them (DIR/games.jsonl), or directories holding them. Every bid, lead and follow is
rebuilt with the rules engine and put to each policy; --out DIR gets decisions.parquet (file,
game_id, round, turn, seat, player, kind, hand, actual, policy, choice, agree, reason). A file or
record that cannot be read is reported and the batch goes on (exit status 1).

Example: mjcli replay --game doudizhu sim/games.jsonl --policies zhanpai,greedy --out rep
"""


def check_game(game: str) -> str:
    if game not in ("riichi", "doudizhu"):
        raise UsageError(f"unknown game {game!r}: use riichi or doudizhu")
    return game


def _given(ctx: typer.Context, name: str) -> bool:
    """Was option ``name`` given on the command line (not left at its default)?"""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name != "DEFAULT"


def _riichi(**options: object) -> None:
    from mjcli.commands.replay_riichi import DOUDIZHU_DEFAULT_POLICIES, run

    if options.get("policies") == DOUDIZHU_DEFAULT_POLICIES:
        options["policies"] = "all"  # the option's default names Dou Dizhu policies: riichi asks all
    code = run(**options)  # type: ignore[arg-type]
    if code:
        raise typer.Exit(code)


def _doudizhu(records: list[str], policies: str, out: Path | None, jobs: int, as_json: bool) -> None:
    from mjcli.doudizhu.policies import parse_policies
    from mjcli.doudizhu.records import collect_paths
    from mjcli.doudizhu.replay import replay

    names = parse_policies(policies)
    paths = collect_paths(records)
    if not paths:
        raise UsageError(f"no record files found in {', '.join(records)}")
    if out is not None and out.exists() and not out.is_dir():
        raise UsageError(f"--out '{out}' exists and is not a directory")
    with terminal_bar(unit="game") as bar:
        summary = replay(paths, names, out=out, jobs=jobs, progress=bar.update if bar is not None else None)
    if as_json:
        emit_json(summary)
    else:
        print(f"{summary['games']} games, {summary['decisions']} answers from {len(names)} policies")
        rows = [
            [a["policy"], a["kind"], a["decisions"], f"{a['agree_rate']:.3f}"] for a in summary["agreement"]
        ]
        print(format_table(["policy", "kind", "decisions", "agree"], rows, "llrr"))
        for e in summary["errors"]:
            print(f"ERROR {e['file']}: {e['error']}")
    if summary["errors"]:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    @app.command("replay", help=HELP, no_args_is_help=True)
    def replay_command(
        ctx: typer.Context,
        records: list[str] = typer.Argument(..., help="Record files or directories."),
        game: str = typer.Option("riichi", "--game", help="riichi or doudizhu."),
        policies: str = typer.Option(
            "zhanpai,greedy,random", "--policies", "--policy", help="Comma-separated policies."
        ),
        out: Path | None = typer.Option(None, "--out", "-o", help="Write DIR/decisions.parquet."),
        jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (the output is the same)."),
        as_json: bool = typer.Option(False, "--json", help="The summary as one JSON object."),
        seat: list[int] | None = typer.Option(
            None, "--seat", help="Riichi: only this seat's decisions (0-3)."
        ),
        player: list[str] | None = typer.Option(
            None, "--player", help="Riichi: only this player's decisions."
        ),
        by: str | None = typer.Option(
            None, "--by", help="Riichi: also summarise by player, policy, round or kind."
        ),
        baseline: Path | None = typer.Option(
            None, "--baseline", help="Riichi: compare the choices with an older decisions.parquet."
        ),
        max_changes: int = typer.Option(
            0, "--max-changes", help="Riichi: exit 1 when more decisions changed against --baseline."
        ),
        rules: str = typer.Option(
            "tenhou", "--rules", help="Riichi: rule-set preset (a log's own rules win)."
        ),
    ) -> None:
        if check_game(game) == "doudizhu":
            _doudizhu(records, policies, out, jobs, as_json)
        else:
            _riichi(
                logs=records,
                policies=policies,
                out=out,
                # riichi: one worker per core unless --jobs is given
                jobs=jobs if _given(ctx, "jobs") else None,
                as_json=as_json,
                seat=seat,
                player=player,
                by=by,
                baseline=baseline,
                max_changes=max_changes,
                rules=rules,
            )
