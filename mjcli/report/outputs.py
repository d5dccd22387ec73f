"""What an output folder holds: which command wrote it (replay, simulate, verify) and for which game.

Each command leaves its own files: ``replay`` a ``decisions.parquet`` (and ``replay.json``, which
names the game, the policies and the logs read), ``simulate`` a ``summary.json`` beside its
``games.parquet`` (the summary names the game), ``verify`` a ``verify.parquet``. Outputs written
before the game was recorded are recognised by their columns: riichi's decisions have ``honba``,
Hong Kong's ``hand_index``, Dou Dizhu's simulated seats a ``role``; Hong Kong's verify rows have
``faan``, riichi's not. A replay, a verify or a simulation run on Ray or resumed holds its tables as a
dataset of parts (``decisions/part-*.parquet``, ``verify/part-*.parquet``, ``games/part-*.parquet``, ...
listed in ``dataset.json``, see
:mod:`mjcli.ledger`) instead of one file each (:func:`read_table` reads either). A folder may
hold several outputs (``verify --out`` into a simulation's folder): each is found.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.errors import UsageError
from mjcli.games import load_game
from mjcli.ledger import check_not_unfinished, table_source

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


def read_table(folder: Path, table: str) -> pl.DataFrame | None:
    """The table ``table`` of an output folder: its file ``table.parquet`` or a finished run's parts
    in order; None when the folder has neither."""
    source = table_source(folder, table)
    if source is None:
        return None
    try:
        return pl.read_parquet(source)
    except (pl.exceptions.PolarsError, OSError) as exc:
        shown = source if isinstance(source, Path) else folder / table
        raise UsageError(
            f"'{_shown(shown)}' is not a readable Parquet table ({type(exc).__name__})"
        ) from None


def read_columns(folder: Path, table: str, names: list[str]) -> pl.DataFrame | None:
    """The columns ``names`` of :func:`read_table`'s table (only those are read)."""
    source = table_source(folder, table)
    if source is None:
        return None
    try:
        return pl.read_parquet(source, columns=names)
    except (pl.exceptions.PolarsError, OSError) as exc:
        shown = source if isinstance(source, Path) else folder / table
        raise UsageError(
            f"'{_shown(shown)}' is not a readable Parquet table ({type(exc).__name__})"
        ) from None


def _table_columns(folder: Path, table: str) -> list[str]:
    source = table_source(folder, table)
    if isinstance(source, list):
        return columns(source[0]) if source else []
    return columns(folder / f"{table}.parquet")


def _replay_game(folder: Path) -> str:
    manifest = folder / REPLAY_MANIFEST
    if manifest.is_file():
        game = read_json(manifest).get("game")
        if isinstance(game, str):
            return game
    source = table_source(folder, "decisions")
    names = columns(source[0] if isinstance(source, list) else folder / MARKERS["replay"])
    if "honba" in names:
        return "riichi"
    return "hk" if "hand_index" in names else "doudizhu"


def _has(folder: Path, kind: str) -> bool:
    if (folder / MARKERS[kind]).is_file():
        return True
    # a replay's or a verify's tables as parts (a finished parted run; an unfinished one is a UsageError)
    table = {"replay": "decisions", "verify": "verify"}.get(kind)
    return table is not None and table_source(folder, table) is not None


def _simulate_game(folder: Path) -> str | None:
    """The game of a simulation's folder, or None when its summary.json is not a simulation's."""
    if table_source(folder, "games") is None:  # games.parquet, or a finished run's parts
        return None
    summary = read_json(folder / MARKERS["simulate"])
    game = summary.get("game")
    if isinstance(game, str):
        return game
    names = _table_columns(folder, "games")
    return "doudizhu" if "role" in names else "riichi"


def _verify_game(folder: Path) -> str:
    """Riichi's verify checks rounds (``honba``), Hong Kong's hands (``faan``): then the logs' own
    rule set when they all share one (``verify_games.parquet``'s ``rules``), else ``hk``."""
    if "faan" not in _table_columns(folder, "verify"):
        return "riichi"
    if "rules" in _table_columns(folder, "verify_games"):
        games = read_table(folder, "verify_games")
        assert games is not None
        found = games["rules"].drop_nulls().unique().to_list()
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
        if not _has(folder, kind):
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
        check_not_unfinished(folder)
        raise UsageError(
            f"'{_shown(folder)}' holds no output of replay, simulate or verify "
            "(no decisions.parquet or decisions/ parts, summary.json with games.parquet, or verify.parquet)"
        )
    return found
