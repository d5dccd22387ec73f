"""``mjcli simulate``: seat policies at a table and play whole games.

The Dou Dizhu branch is here; the riichi branch routes to :mod:`mjcli.commands.simulate_riichi`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from mjcli.errors import UsageError
from mjcli.output import emit_json, frame_text, terminal_bar

HELP = """Play whole games between bot policies and summarise them.

Dou Dizhu (--game doudizhu): games with bidding, policies rotated over the seats; the summary gives
WP (share of games won) and ADP (average points) per policy as landlord and as peasant with 95 %
intervals. --duplicate instead plays each deal DouZero-style (seat 0 landlord, no bidding) with the
first policy against each other one: A|BB, B|BB and B|AA on the same deals, and reports A's gain as
landlord, as peasants, and with the sides swapped. --out DIR gets games.parquet (one row per game
and seat), games.jsonl (the records, for `mjcli replay --game doudizhu`) and summary.json.

Example: mjcli simulate --game doudizhu --players zhanpai,greedy,random --games 200 --seed 1 --out sim

Riichi (--game riichi, the default): full Tenhou-rules games through the rules engine, policies
(one to four, default akagi,mahjongjoy,greedy,efficiency) rotated over the seats. --duplicate plays
each deal's walls once per seat rotation. --out DIR gets logs/ (tenhou.net/6 JSON and mjai for
every game), games.parquet, rounds.parquet and summary.json; the summary gives per policy the
placement, score, points, win / deal-in / tsumo / riichi / call rates and sizes with 95 % intervals.

Example: mjcli simulate --players akagi,mahjongjoy,greedy,efficiency --games 100 --seed 1 --out sim
"""


def check_game(game: str) -> str:
    if game not in ("riichi", "doudizhu"):
        raise UsageError(f"unknown game {game!r}: use riichi or doudizhu")
    return game


def _riichi(
    players: str | None,
    games: int,
    seed: int,
    out: Path | None,
    length: str | None,
    rules: str,
    duplicate: bool,
    jobs: int,
    as_json: bool,
) -> None:
    from mjcli.commands.simulate_riichi import run

    code = run(players, games, seed, out, length, rules, duplicate, jobs, as_json)
    if code:
        raise typer.Exit(code)


def _doudizhu(
    players: str,
    games: int,
    seed: int,
    out: Path | None,
    duplicate: bool,
    kicker: str,
    jobs: int,
    as_json: bool,
) -> None:
    import polars as pl

    from mjcli.doudizhu.policies import parse_policies
    from mjcli.doudizhu.simulate import game_specs, simulate
    from mjcli.doudizhu.summary import duplicate_table, role_table

    names = parse_policies(players)
    if out is not None and out.exists() and not out.is_dir():
        raise UsageError(f"--out '{out}' exists and is not a directory")
    total = len(game_specs(names, games, seed, duplicate, kicker))
    with terminal_bar(total, unit="game") as bar:
        summary = simulate(
            names,
            games,
            seed,
            out=out,
            duplicate=duplicate,
            kicker=kicker,
            jobs=jobs,
            progress=bar.update if bar is not None else None,
        )
    if as_json:
        emit_json(summary)
        return
    print(f"{summary['games']} games, seed {seed}{', duplicate deals' if duplicate else ''}")
    print(frame_text(role_table(pl.DataFrame(summary["roles"])), width=200, str_len=60))
    if duplicate and summary["comparison"]:
        print()
        print(frame_text(duplicate_table(pl.DataFrame(summary["comparison"])), width=200, str_len=60))
    rate = summary["games"] / summary["seconds"] if summary["seconds"] else 0.0
    print(
        f"{summary['games']} games in {summary['seconds']:.1f} s ({rate:.0f} games/s, {jobs} jobs)",
        file=sys.stderr,
    )


def register(app: typer.Typer) -> None:
    @app.command("simulate", help=HELP)
    def simulate_command(
        ctx: typer.Context,
        game: str = typer.Option("riichi", "--game", help="riichi or doudizhu."),
        players: str = typer.Option("zhanpai,greedy,random", "--players", help="Comma-separated policies."),
        games: int = typer.Option(100, "--games", help="Games (deals with --duplicate)."),
        seed: int = typer.Option(0, "--seed", help="Seed: the same seed gives the same games."),
        out: Path | None = typer.Option(None, "--out", "-o", help="Output directory."),
        duplicate: bool = typer.Option(False, "--duplicate", help="DouZero-style duplicate comparison."),
        kicker: str = typer.Option("douzero", "--kicker", help="Kicker rule: douzero, rlcard, pagat."),
        jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (the output is the same)."),
        as_json: bool = typer.Option(False, "--json", help="The summary as one JSON object."),
        length: str | None = typer.Option(
            None, "--length", help="Riichi: hanchan or tonpuu (default: the rules')."
        ),
        rules: str = typer.Option("tenhou", "--rules", help="Riichi: rule preset (tenhou)."),
    ) -> None:
        if check_game(game) == "doudizhu":
            _doudizhu(players, games, seed, out, duplicate, kicker, jobs, as_json)
        else:
            # The --players default names Dou Dizhu policies; riichi has its own default lineup.
            given = getattr(ctx.get_parameter_source("players"), "name", "") != "DEFAULT"
            _riichi(players if given else None, games, seed, out, length, rules, duplicate, jobs, as_json)
