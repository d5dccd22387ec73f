"""What an output folder holds: which command wrote it (replay, simulate, verify) and for which game.

Each command leaves its own files: ``replay`` a ``decisions.parquet`` (and ``replay.json``, which
names the game, the policies and the logs read), ``simulate`` a ``summary.json`` beside its
``games.parquet`` (the summary names the game), ``verify`` a ``verify.parquet``. Outputs written
before the game was recorded are recognised by their columns: riichi's decisions have ``honba``,
Hong Kong's ``hand_index``, Dou Dizhu's simulated seats a ``role``; Hong Kong's verify rows have
``faan``, riichi's not. A folder may hold several outputs (``verify --out`` into a
simulation's folder): each is found.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.errors import UsageError
from mjcli.games import load_game

#: the order of the sections on the page: how a run goes (play, check, replay)
KINDS = ("simulate", "verify", "replay")
#: the file each kind is recognised by
MARKERS = {"replay": "decisions.parquet", "simulate": "summary.json", "verify": "verify.parquet"}
#: the file in which replay records what it read
REPLAY_MANIFEST = "replay.json"


@dataclass(frozen=True, slots=True)
class Output:
    kind: str  # replay, simulate or verify
    game: str  # a name of the --game table
    folder: Path


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 80 else "..." + text[-77:]


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object from a file of an output; a UsageError naming the file otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"'{_shown(path)}' is not readable JSON ({type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise UsageError(f"'{_shown(path)}' is not a JSON object")
    return data


def columns(path: Path) -> list[str]:
    """The column names of a Parquet table; a UsageError naming the file when it is not one."""
    try:
        return pl.scan_parquet(path).collect_schema().names()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise UsageError(f"'{_shown(path)}' is not a readable Parquet file ({type(exc).__name__})") from None


def _replay_game(folder: Path) -> str:
    manifest = folder / REPLAY_MANIFEST
    if manifest.is_file():
        game = read_json(manifest).get("game")
        if isinstance(game, str):
            return game
    names = columns(folder / MARKERS["replay"])
    if "honba" in names:
        return "riichi"
    return "hk" if "hand_index" in names else "doudizhu"


def _simulate_game(folder: Path) -> str | None:
    """The game of a simulation's folder, or None when its summary.json is not a simulation's."""
    if not (folder / "games.parquet").is_file():
        return None
    summary = read_json(folder / MARKERS["simulate"])
    game = summary.get("game")
    if isinstance(game, str):
        return game
    names = columns(folder / "games.parquet")
    return "doudizhu" if "role" in names else "riichi"


def _verify_game(folder: Path) -> str:
    """Riichi's verify checks rounds (``honba``), Hong Kong's hands (``faan``): then the logs' own
    rule set when they all share one (``verify_games.parquet``'s ``rules``), else ``hk``."""
    if "faan" not in columns(folder / MARKERS["verify"]):
        return "riichi"
    games = folder / "verify_games.parquet"
    if games.is_file() and "rules" in columns(games):
        found = pl.read_parquet(games, columns=["rules"])["rules"].drop_nulls().unique().to_list()
        if len(found) == 1:
            return str(found[0])
    return "hk"


def find_outputs(path: str | Path) -> list[Output]:
    """Every output in the folder ``path``, in :data:`KINDS` order; a UsageError when there is none."""
    folder = Path(path)
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise UsageError(f"'{_shown(folder)}' {what} (give the --out folder of replay, simulate or verify)")
    found: list[Output] = []
    for kind in KINDS:
        if not (folder / MARKERS[kind]).is_file():
            continue
        if kind == "replay":
            game: str | None = _replay_game(folder)
        elif kind == "simulate":
            game = _simulate_game(folder)
        else:
            game = _verify_game(folder)
        if game is None:
            continue
        found.append(Output(kind, load_game(game).name, folder))
    if not found:
        raise UsageError(
            f"'{_shown(folder)}' holds no output of replay, simulate or verify "
            "(no decisions.parquet, summary.json with games.parquet, or verify.parquet)"
        )
    return found
