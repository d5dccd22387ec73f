"""The body of ``mjcli simulate --game riichi``: options in, summary printed, exit code out.

Registered by :mod:`mjcli.commands.simulate` (which routes ``--game riichi`` here); the work is
:func:`mjcli.riichi.simulate.run.simulate`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.output import emit_json, frame_text, terminal_bar
from mjcli.riichi.simulate.figures import METRICS, PAIRED, format_estimate

DEFAULT_PLAYERS = "akagi,mahjongjoy,greedy,efficiency"

#: how each figure is shown: (label, scale, decimals)
_SHOWN: dict[str, tuple[str, float, int]] = {
    "placement": ("placement", 1, 2),
    "first": ("1st place %", 100, 1),
    "last": ("4th place %", 100, 1),
    "score": ("final score", 1, 0),
    "points": ("points (uma)", 1, 1),
    "win_rate": ("win %", 100, 1),
    "deal_in_rate": ("deal-in %", 100, 1),
    "tsumo_share": ("tsumo % of wins", 100, 1),
    "riichi_rate": ("riichi %", 100, 1),
    "call_rate": ("call %", 100, 1),
    "win_size": ("win size", 1, 0),
    "deal_in_size": ("deal-in size", 1, 0),
}


def run(
    players: str | None,
    games: int,
    seed: int,
    out: Path | None,
    length: str | None = None,
    rules: str = "tenhou",
    duplicate: bool = False,
    jobs: int = 1,
    as_json: bool = False,
) -> int:
    """Simulate, print the summary (or its JSON), return the exit code: 0, or 1 when a policy broke
    the rules (or failed) and stopped the run; bad options raise :class:`~mjcli.errors.UsageError`."""
    from mjcli.riichi.simulate.run import game_specs, parse_players, simulate, table_rules
    from mjcli.riichi.simulate.seats import PolicyError

    names = parse_players(players or DEFAULT_PLAYERS)
    total = len(game_specs(names, games, seed, table_rules(rules, length), duplicate))
    with terminal_bar(total, unit="game") as bar:
        progress = None
        if bar is not None:
            started = time.perf_counter()
            rounds = 0

            def progress(n: int) -> None:
                nonlocal rounds
                rounds += n
                bar.update(1)
                bar.set_postfix_str(f"{rounds / max(time.perf_counter() - started, 1e-9):.0f} rounds/s")

        try:
            summary = simulate(
                names,
                games,
                seed,
                out=out,
                length=length,
                rules=rules,
                duplicate=duplicate,
                jobs=jobs,
                progress=progress,
            )
        except PolicyError as exc:
            # A policy bug, found by playing: report where, and stop (the logs of the games before stay).
            print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 1
    if as_json:
        emit_json(summary)
    else:
        print(render(summary))
    rate = summary["games"] / summary["seconds"] if summary["seconds"] else 0.0
    print(
        f"{summary['games']} games, {summary['rounds']} rounds in {summary['seconds']:.1f} s "
        f"({rate:.1f} games/s, {jobs} job{'s' if jobs != 1 else ''})",
        file=sys.stderr,
    )
    return 0


def render(summary: dict[str, Any]) -> str:
    """The summary as text: a heading, the per-policy table (95 % intervals as ±), the paired one."""
    head = (
        f"{summary['games']} games ({summary['rounds']} rounds), seed {summary['seed']}, "
        f"{summary['length']}, rules {summary['rules']}"
    )
    if summary["duplicate"]:
        head += f", duplicate: {summary['deals']} deals x seat rotations"
    parts = [head, "", policy_table(summary["policies"])]
    if summary["paired"]:
        parts += [
            "",
            "Paired differences per deal (first minus second, 95 % interval):",
            paired_table(summary),
        ]
    return "\n".join(parts)


def policy_table(entries: list[dict[str, Any]]) -> str:
    """Figures down, policies across."""
    data: dict[str, list[str]] = {"figure": ["games (seats)"] + [_SHOWN[m][0] for m, *_ in METRICS]}
    for e in entries:
        col = [str(e["games"])]
        for m, *_ in METRICS:
            _, scale, digits = _SHOWN[m]
            col.append(format_estimate(_scaled(e[m], scale), digits))
        data[e["policy"]] = col
    return frame_text(pl.DataFrame(data), width=240, str_len=40, align_right=True)


def paired_table(summary: dict[str, Any]) -> str:
    rows: dict[str, list[str]] = {"pair": [], "deals": []}
    for m in PAIRED:
        rows[_SHOWN[m][0]] = []
    for e in summary["paired"]:
        rows["pair"].append(f"{e['a']} - {e['b']}")
        rows["deals"].append(str(e["deals"]))
        for m in PAIRED:
            rows[_SHOWN[m][0]].append(format_estimate(e[m], _SHOWN[m][2]))
    return frame_text(pl.DataFrame(rows), width=240, str_len=40, align_right=True)


def _scaled(e: dict[str, float | None], scale: float) -> dict[str, float | None]:
    return {k: (None if v is None else v * scale) for k, v in e.items()}
