"""Replay Hong Kong game logs: at every decision point of every seat, ask each policy what it would
do, given exactly that seat's view, and write the answers to Parquet.

A decision point is a seat with more than one legal move (:mod:`mjcli.hk.formats.walk`): on its
own turn (``discard``, ``kong`` when a kong is offered, ``win`` when a self-drawn win is), on
another player's discard (``claim``, or ``win``) and on an added kong (``rob``). The log records
every answer, so ``actual`` is what the player chose, even when another player's claim took the
tile. A log the engine refuses is reported and skipped; the rest of the batch goes on.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.errors import LogFormatError, UsageError
from mjcli.hk.formats import Decision, GameEnd, read_game, walk
from mjcli.hk.notation import counts_text, tile_text
from mjcli.hk.policies import SeedBot, get_policy
from mjcli.ledger import RowBuffer, write_table
from mjcli.melds import melds_to_text
from mjcli.runner import Backend, ordered_map

DECISIONS_SCHEMA: dict[str, Any] = {
    "file": pl.String,
    "game_id": pl.String,
    "hand_index": pl.Int64,
    "round": pl.String,
    "turn": pl.Int64,
    "seat": pl.Int64,
    "player": pl.String,
    "kind": pl.String,
    "hand": pl.String,
    "drawn": pl.String,
    "offered": pl.String,
    "melds": pl.String,
    "options": pl.Int64,
    "actual": pl.String,
    "policy": pl.String,
    "choice": pl.String,
    "agree": pl.Boolean,
    "reason": pl.String,
}
GAMES_SCHEMA: dict[str, Any] = {
    "file": pl.String,
    "game_id": pl.String,
    "seat": pl.Int64,
    "player": pl.String,
    "score": pl.Int64,
    "placement": pl.Int64,
    "hands": pl.Int64,
    "decisions": pl.Int64,
}


@dataclass(slots=True)
class FileRows:
    file: str
    decisions: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None


def replay_game(file: str, game: dict[str, Any], policies: Sequence[SeedBot]) -> FileRows:
    out = FileRows(file)
    players = [str(p) for p in game.get("players", ["?"] * 4)]
    game_id = str(game.get("seed", file))
    per_seat = [0, 0, 0, 0]
    hands = 0
    for item in walk(game):
        if isinstance(item, Decision):
            per_seat[item.seat] += 1
            out.decisions.extend(_rows(file, game_id, players, item, policies))
        elif isinstance(item, GameEnd):
            for s in range(4):
                out.games.append(
                    {
                        "file": file,
                        "game_id": game_id,
                        "seat": s,
                        "player": players[s],
                        "score": item.scores[s],
                        "placement": item.placements[s],
                        "hands": hands,
                        "decisions": per_seat[s],
                    }
                )
        else:
            hands += 1
    return out


def _rows(
    file: str, game_id: str, players: list[str], d: Decision, policies: Sequence[SeedBot]
) -> list[dict[str, Any]]:
    v = d.view
    base = {
        "file": file,
        "game_id": game_id,
        "hand_index": d.hand,
        "round": d.round,
        "turn": d.turn,
        "seat": d.seat,
        "player": players[d.seat],
        "kind": d.kind,
        "hand": counts_text(v.hand, v.jokers),
        "drawn": None if v.drawn is None else tile_text(v.drawn),
        "offered": None if v.offer is None else tile_text(v.offer[1]),
        "melds": melds_to_text(v.melds),
        "options": len(d.legal),
        "actual": d.actual.text(),
    }
    rows = []
    for p in policies:
        move, reason = p.decide(v, d.legal)
        choice = move.text()
        rows.append(
            {**base, "policy": p.name, "choice": choice, "agree": choice == base["actual"], "reason": reason}
        )
    return rows


def replay_file(path: Path, label: str, policies: Sequence[SeedBot]) -> FileRows:
    try:
        return replay_game(label, read_game(path), policies)
    except LogFormatError as exc:
        return FileRows(label, error=f"{label}: {exc}")


def _task(policies: list[SeedBot], item: tuple[Path, str]) -> FileRows:
    return replay_file(item[0], item[1], policies)


def _build(names: list[str]) -> list[SeedBot]:
    return [get_policy(n) for n in names]


@dataclass(slots=True)
class ReplayResult:
    files: int
    games: int
    rows: int
    errors: list[str]
    decisions: pl.DataFrame
    decisions_path: Path | None = None
    games_path: Path | None = None


def replay(
    items: Sequence[tuple[Path, str]],
    names: Sequence[str],
    *,
    out: Path | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> ReplayResult:
    """Replay every log of ``items`` ((path, label) pairs) through the policies ``names``."""
    if not names:
        raise UsageError("--policies names no policy")
    for n in names:
        get_policy(n)
    decisions = RowBuffer(DECISIONS_SCHEMA)
    games = RowBuffer(GAMES_SCHEMA)
    errors: list[str] = []
    setup = functools.partial(_build, list(names))
    n_games = 0
    for r in ordered_map(_task, list(items), jobs=jobs, setup=setup, backend=backend):
        if r.error is not None:
            errors.append(r.error)
        else:
            n_games += 1
            decisions.extend(r.decisions)
            games.extend(r.games)
        if progress is not None:
            progress(1)
    frame = decisions.frame()
    result = ReplayResult(len(items), n_games, frame.height, errors, frame)
    if out is not None:
        result.decisions_path = write_table(frame, out / "decisions.parquet")
        result.games_path = write_table(games.frame(), out / "games.parquet")
    return result
