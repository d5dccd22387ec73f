"""Replay Hong Kong game logs: at every decision point of every seat, ask each policy what it would
do, given exactly that seat's view, and write the answers to Parquet.

A decision point is a seat with more than one legal move (:mod:`mjcli.hk.formats.walk`): on its
own turn (``discard``, ``kong`` when a kong is offered, ``win`` when a self-drawn win is), on
another player's discard (``claim``, or ``win``) and on an added kong (``rob``). The log records
every answer, so ``actual`` is what the player chose, even when another player's claim took the
tile. A log the engine refuses is reported and skipped; the rest of the batch goes on.

Beside each answer the row keeps what the seat knew that a report or a typed ``advise`` needs to
show the position again: its bonus tiles, the tiles exposed elsewhere (``seen``: rivers and the
other players' melds, as ``advise --seen`` takes them), its shanten before acting, the table's
minimum and the tiles left in the wall. With ``out``, ``replay.json`` records the game, the
policies and every log read (label, absolute path and the log's own rule set, which a typed
``advise`` of one of its positions takes as ``--game``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjcli.atomic import write_text_atomic
from mjcli.errors import LogFormatError, UsageError
from mjcli.hk.formats import Decision, GameEnd, read_game, walk
from mjcli.hk.notation import counts_text, tile_text
from mjcli.hk.policies import Policy, get_policy, plugin_identities
from mjcli.hk.shape import shanten
from mjcli.inputs import manifest
from mjcli.ledger import PartedRun, RowBuffer, file_sha256, to_frame, write_table
from mjcli.melds import melds_to_text
from mjcli.plugins import Registry, reopening_options
from mjcli.runner import Backend, ordered_map

# Polars is imported where a frame is made or read, not here: a process that has imported it does
# not fork its workers (mjcli.runner.forks_workers); the column types below are Python types,
# which Polars reads as Int64, String, Boolean and List columns
if TYPE_CHECKING:
    import polars as pl

DECISIONS_SCHEMA: dict[str, Any] = {
    "file": str,
    "game_id": str,
    "hand_index": int,
    "round": str,
    "turn": int,
    "seat": int,
    "player": str,
    "kind": str,
    "hand": str,
    "drawn": str,
    "offered": str,
    "melds": str,
    "bonus": str,
    "seen": str,
    "shanten": int,
    "min_faan": int,
    "wall_left": int,
    "options": int,
    "actual": str,
    "policy": str,
    "choice": str,
    "agree": bool,
    "reason": str,
}
GAMES_SCHEMA: dict[str, Any] = {
    "file": str,
    "game_id": str,
    "seat": int,
    "player": str,
    "score": int,
    "placement": int,
    "hands": int,
    "decisions": int,
}


@dataclass(slots=True)
class FileRows:
    file: str
    decisions: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    rules: str | None = None  # the log's rule set (hk, red)


def replay_game(file: str, game: dict[str, Any], policies: Sequence[Policy]) -> FileRows:
    out = FileRows(file, rules=game["game"] if isinstance(game.get("game"), str) else None)
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
    file: str, game_id: str, players: list[str], d: Decision, policies: Sequence[Policy]
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
        "bonus": ",".join(tile_text(b) for b in sorted(v.bonus)),
        "seen": counts_text(v.exposed_counts()),
        "shanten": shanten(v.hand, v.jokers, len(v.melds)),
        "min_faan": v.rules.min_faan,
        "wall_left": v.wall_left,
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


def replay_file(path: Path, label: str, policies: Sequence[Policy]) -> FileRows:
    try:
        return replay_game(label, read_game(path), policies)
    except LogFormatError as exc:
        return FileRows(label, error=f"{label}: {exc}")


def _task(policies: list[Policy], item: tuple[Path, str]) -> FileRows:
    return replay_file(item[0], item[1], policies)


def _build(names: list[str], registry: Registry | None = None) -> list[Policy]:
    return [get_policy(n, registry) for n in names]


def _split(r: FileRows) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    """A log's rows as the parts of a parted run, and what the run's summary needs of it."""
    frames = {"decisions": to_frame(r.decisions, DECISIONS_SCHEMA), "games": to_frame(r.games, GAMES_SCHEMA)}
    return frames, {"error": r.error, "rules": r.rules}


def _fingerprint(item: tuple[Path, str]) -> tuple[str, str]:
    return item[1], file_sha256(item[0])


def parted_options(names: Sequence[str], game: str, registry: Registry | None = None) -> dict[str, Any]:
    """What a Hong Kong replay's rows depend on besides the logs (a parted run's options): with
    plugins, what each is (its files' digests)."""
    options: dict[str, Any] = {"command": "replay", "game": game, "policies": list(names)}
    plugins = plugin_identities(names, registry)
    return {**options, "plugins": plugins} if plugins else options


#: the tables of a replay: files ``NAME.parquet``, or a parted run's folders
TABLES = ("decisions", "games")


#: what a replay read, beside its tables (``mjcli report`` finds the game and the logs there)
MANIFEST = "replay.json"


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
    game: str = "hk",
    backend: Backend | None = None,
    parted: PartedRun | None = None,
    registry: Registry | None = None,
) -> ReplayResult:
    """Replay every log of ``items`` ((path, label) pairs) through the policies ``names`` (known to
    ``registry``, by default the built-ins: plugins and entry points come with it); with
    ``out``, write the tables and ``replay.json`` (``game``: the --game the replay ran as). With
    ``parted`` the tables are that run's dataset instead, written by the tasks (see
    :mod:`mjcli.ledger`); the summary's frame is read back from its parts."""
    if not names:
        raise UsageError("--policies names no policy")
    for n in names:
        if registry is None:
            get_policy(n)
        else:
            registry.spec(n)
    decisions = RowBuffer(DECISIONS_SCHEMA)
    games = RowBuffer(GAMES_SCHEMA)
    errors: list[str] = []
    rules: list[str | None] = []
    setup = functools.partial(_build, list(names), registry)
    n_games = 0
    if parted is not None:
        for note in parted.run(
            _task, _split, _fingerprint, list(items), label=lambda item: item[1], setup=setup, jobs=jobs,
            backend=backend,
        ):  # fmt: skip
            rules.append(note["rules"])
            if note["error"] is not None:
                errors.append(note["error"])
            else:
                n_games += 1
            if progress is not None:
                progress(1)
        frame = parted.scan("decisions").collect()
        result = ReplayResult(len(items), n_games, frame.height, errors, frame)
        if out is not None:
            _write_manifest(out, items, names, rules, game, registry)
        return result
    # the row buffers make frames as the logs come in: Polars imported while the workers replay
    # their first logs, not on a later answer while they wait for more (see the runner)
    results = ordered_map(
        _task, list(items), jobs=jobs, setup=setup, backend=backend, imports_meanwhile=("polars",)
    )
    for r in results:
        rules.append(r.rules)
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
        _write_manifest(out, items, names, rules, game, registry)
    return result


def _write_manifest(
    out: Path,
    items: Sequence[tuple[Path, str]],
    names: Sequence[str],
    rules: list[str | None],
    game: str,
    registry: Registry | None = None,
) -> None:
    inputs = [{**entry, "rules": r} for entry, r in zip(manifest(items), rules, strict=True)]
    read: dict[str, Any] = {"game": game, "policies": list(names), "inputs": inputs}
    reopen = reopening_options(registry.spec(n) for n in names) if registry is not None else []
    if reopen:  # what makes the plugins known to the report's advise commands
        read["policy_options"] = reopen
    write_text_atomic(out / MANIFEST, json.dumps(read, indent=1, ensure_ascii=False) + "\n")
