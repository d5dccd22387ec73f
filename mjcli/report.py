"""Result tables: rows of plain dicts -> Polars DataFrame -> Parquet, written atomically.

Shared by verify, replay and simulate: each command builds its rows (one dict per round, decision
or game) and hands them here. Nothing here knows what the rows mean.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.atomic import atomic_path


def to_frame(rows: Sequence[Mapping[str, Any]], schema: Mapping[str, Any] | None = None) -> pl.DataFrame:
    """Rows as a DataFrame; ``schema`` fixes column types (and keeps them when there are no rows)."""
    if schema is not None:
        return pl.DataFrame(list(rows), schema=dict(schema))
    return pl.DataFrame(list(rows))


def write_parquet(
    rows: Sequence[Mapping[str, Any]],
    path: str | os.PathLike[str],
    schema: Mapping[str, Any] | None = None,
) -> Path:
    """Write rows to ``path`` as Parquet via a temporary file and a rename; returns the path."""
    frame = to_frame(rows, schema)
    target = Path(path)
    with atomic_path(target) as tmp:
        frame.write_parquet(tmp)
    return target


def read_parquet(path: str | os.PathLike[str]) -> pl.DataFrame:
    return pl.read_parquet(path)


def count_by(frame: pl.DataFrame, column: str) -> list[tuple[Any, int]]:
    """(value, count) pairs of one column, most frequent first (ties by value)."""
    if frame.is_empty():
        return []
    counts = frame.group_by(column).len().sort(["len", column], descending=[True, False])
    return [(row[0], row[1]) for row in counts.iter_rows()]
