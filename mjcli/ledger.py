"""Result tables ("ledgers"): rows -> Polars -> Parquet, never half-written.

Every command that writes a table comes here, whatever the game: verify's rounds, replay's
decisions and games, simulate's games and rounds. Nothing here knows what the rows mean.

* :func:`write_table`: one frame (or rows) written at once, through a temporary file and a rename.
* :class:`RowBuffer`: rows gathered as they come, kept as typed column batches (compact, not
  millions of dicts), turned into one frame at the end.
* :class:`StreamedTable`: a table too big for memory: frames go to part files in a hidden folder
  beside the target every ``batch_rows`` rows, and :meth:`~StreamedTable.close` streams the parts
  into the final file. Batches are cut by row count in the order rows are added, so the same rows
  give the same bytes however they were computed. The parts are removed whatever happens.
"""

from __future__ import annotations

import os
import shutil
import tempfile
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


def write_table(
    rows: pl.DataFrame | Sequence[Mapping[str, Any]],
    path: str | os.PathLike[str],
    schema: Mapping[str, Any] | None = None,
) -> Path:
    """Write a frame (or rows, typed by ``schema``) to ``path`` as Parquet, atomically; the path."""
    frame = rows if isinstance(rows, pl.DataFrame) else to_frame(rows, schema)
    target = Path(path)
    with atomic_path(target) as tmp:
        frame.write_parquet(tmp)
    return target


class RowBuffer:
    """Rows (dicts) gathered in typed column batches of :attr:`BATCH` rows; :meth:`frame` joins them."""

    BATCH = 4096

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = dict(schema)
        self.rows: list[dict[str, Any]] = []
        self.frames: list[pl.DataFrame] = []

    def extend(self, rows: Sequence[dict[str, Any]]) -> None:
        self.rows.extend(rows)
        if len(self.rows) >= self.BATCH:
            self.frames.append(pl.DataFrame(self.rows, schema=self.schema))
            self.rows = []

    def frame(self) -> pl.DataFrame:
        frames = [*self.frames, pl.DataFrame(self.rows, schema=self.schema)]
        return pl.concat(frames, rechunk=True)


class StreamedTable:
    """One Parquet table written in parts (see the module's docstring); use as a context manager
    or call :meth:`close` (write the file) or :meth:`discard` (drop the parts) yourself."""

    def __init__(self, path: Path, empty: pl.DataFrame, batch_rows: int = 50_000) -> None:
        self.path = path
        self.empty = empty  # the frame written when no row came (it carries the schema)
        self.batch_rows = batch_rows
        path.parent.mkdir(parents=True, exist_ok=True)
        self._parts_dir = Path(tempfile.mkdtemp(prefix=f".{path.stem}-parts-", dir=path.parent))
        self._parts: list[Path] = []
        self._pending: list[pl.DataFrame] = []
        self._pending_rows = 0
        self.rows = 0

    def add(self, frame: pl.DataFrame) -> None:
        if not frame.height:
            return
        self._pending.append(frame)
        self._pending_rows += frame.height
        self.rows += frame.height
        if self._pending_rows >= self.batch_rows:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        part = self._parts_dir / f"part-{len(self._parts):06d}.parquet"
        pl.concat(self._pending, how="vertical").write_parquet(part)
        self._parts.append(part)
        self._pending = []
        self._pending_rows = 0

    def close(self) -> Path:
        """Write the final file from the parts (atomically) and remove the parts; the path."""
        try:
            self._flush()
            with atomic_path(self.path) as tmp:
                if self._parts:
                    pl.scan_parquet(self._parts).sink_parquet(tmp)
                else:
                    self.empty.write_parquet(tmp)
            return self.path
        finally:
            self.discard()

    def discard(self) -> None:
        """Remove the part files (after :meth:`close`, or when the run stops)."""
        shutil.rmtree(self._parts_dir, ignore_errors=True)

    def __enter__(self) -> StreamedTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()
