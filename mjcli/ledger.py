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
* :class:`PartedRun`: a run whose tasks write their own rows, as a *dataset* (below): what a run
  on a cluster needs (the rows never travel back to one process) and what makes ``--resume`` work.

**Datasets.** A parted run writes, into its output folder ``OUT``, one Parquet file per task and
table, flat, and a completion record per task::

    OUT/decisions/part-<key>.parquet     one per task (``<key>``: its inputs and the run's options)
    OUT/games/part-<key>.parquet         the same key in every table of the run
    OUT/_manifests/<key>.json            written last, once the task's parts are all in place
    OUT/dataset.json                     written by the run's end: the parts of each table in order
    OUT/logs/sim-000042.json             files a task writes beside its parts (a simulation's game
                                         logs), in the run's ``folders``, listed in its manifest

``pl.scan_parquet("OUT/decisions/*.parquet")`` (or ``**/*.parquet``) reads a table lazily. A task
writes each file under a temporary name in a hidden folder of ``OUT`` (same filesystem, outside the
tables, so no glob ever sees it) and renames it into place: a part is complete or absent. A task
run twice (Ray retries a task whose worker died) writes the same bytes under the same name.

A stopped run leaves complete parts and their manifests, and no ``dataset.json``: readers refuse
such a folder (:func:`table_source`). The next run into ``OUT`` starts the tables afresh, or with
``resume`` keeps every task whose manifest matches the run's options (a digest of them) and whose
inputs are this run's, with the same content (SHA-256), consecutive and in the task's order (so
that the parts in order still hold the rows in input order): their inputs are not worked on again, and
what they reported (the manifest's notes: errors, counts) is given back as if they had been. A
part without a manifest (its task was stopped) and the parts of other options are removed, and so
is every file in the run's ``folders`` that no kept manifest lists. A task's inputs need not be
files: a simulation's are its deals, fingerprinted by a digest of their plans (seeds, seats).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import math
import os
import shutil
import socket
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mjcli import __version__
from mjcli.atomic import atomic_path, current_umask, room_said
from mjcli.errors import MjcliError, UsageError, short_path
from mjcli.outpaths import CONTENTS, MANIFESTS, STAGE_PREFIX
from mjcli.runner import Backend, ordered_map

# Polars is imported where a frame is made or read, not here: a --resume run makes its PartedRun
# before its workers start, and a process that has imported Polars does not fork them
# (mjcli.runner.forks_workers)
if TYPE_CHECKING:
    import polars as pl

T = TypeVar("T")


def to_frame(rows: Sequence[Mapping[str, Any]], schema: Mapping[str, Any] | None = None) -> pl.DataFrame:
    """Rows as a DataFrame; ``schema`` fixes column types (and keeps them when there are no rows)."""
    import polars as pl

    if schema is not None:
        return pl.DataFrame(list(rows), schema=dict(schema))
    return pl.DataFrame(list(rows))


def write_table(
    rows: pl.DataFrame | Sequence[Mapping[str, Any]],
    path: str | os.PathLike[str],
    schema: Mapping[str, Any] | None = None,
) -> Path:
    """Write a frame (or rows, typed by ``schema``) to ``path`` as Parquet, atomically; the path."""
    import polars as pl

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
        import polars as pl

        self.rows.extend(rows)
        if len(self.rows) >= self.BATCH:
            self.frames.append(pl.DataFrame(self.rows, schema=self.schema))
            self.rows = []

    def frame(self) -> pl.DataFrame:
        import polars as pl

        frames = [*self.frames, pl.DataFrame(self.rows, schema=self.schema)]
        return pl.concat(frames, rechunk=True)


#: rows per row group of a streamed table's file, and rows per part file. Small groups keep the
#: final sink's memory flat in the size of the table (bench row "peak memory by hanchan replayed":
#: 4 / 19 / 57 / 171 hanchan 154 / 206 / 254 / 293 MiB with Polars' streaming layout of ~100k-row
#: groups, 155 / 189 / 202 / 217 MiB with 16,384). The cost is the file's size: each group carries
#: its own dictionaries and statistics (+44% at 177k decision rows, 1.20 -> 1.73 MB). 32,768 gave
#: the same size as 16,384 and more memory. A fixed group size also makes the bytes follow the
#: rows alone, whatever the batches or the path (write or sink) that wrote them.
ROW_GROUP_ROWS = 16_384


def _parts_in_turn(parts: Sequence[Path], schema: Mapping[str, Any]) -> pl.LazyFrame:
    """The part files as one lazy frame that reads them one after the other.

    ``pl.scan_parquet`` over many files prefetches several of them at once, which is what a sink
    of many small parts spends its memory on; an IO source that yields one part at a time keeps
    one part in memory. It honours a projection, a filter and a row limit, should a caller use them
    (the sink below reads everything)."""
    import polars as pl

    try:
        from polars.io.plugins import register_io_source
    except ImportError:  # an older Polars: the plain scan, same rows
        return pl.scan_parquet(list(parts))
    paths = list(parts)

    def read(
        with_columns: list[str] | None, predicate: pl.Expr | None, n_rows: int | None, _batch: int | None
    ) -> Iterator[pl.DataFrame]:
        left = n_rows
        for path in paths:
            if left is not None and left <= 0:
                return
            frame = pl.read_parquet(path)
            if predicate is not None:
                frame = frame.filter(predicate)  # before the projection: it may read other columns
            if with_columns is not None:
                frame = frame.select(with_columns)
            if left is not None:
                frame = frame.head(left)
                left -= frame.height
            yield frame

    return register_io_source(read, schema=dict(schema))


class StreamedTable:
    """One Parquet table written in parts (see the module's docstring); use as a context manager
    or call :meth:`close` (write the file) or :meth:`discard` (drop the parts) yourself. The file's
    row groups are :data:`ROW_GROUP_ROWS` rows each."""

    def __init__(self, path: Path, empty: pl.DataFrame, batch_rows: int = ROW_GROUP_ROWS) -> None:
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
        import polars as pl

        if not self._pending:
            return
        part = self._parts_dir / f"part-{len(self._parts):06d}.parquet"
        with room_said(self._parts_dir):
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
                    source = _parts_in_turn(self._parts, self.empty.schema)
                    source.sink_parquet(tmp, row_group_size=ROW_GROUP_ROWS)
                else:
                    self.empty.write_parquet(tmp, row_group_size=ROW_GROUP_ROWS)
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


# ---------------------------------------------------------------- datasets: one part per task

# CONTENTS (the table of contents of a finished parted run) and MANIFESTS (the folder of the tasks'
# completion records) are mjcli.outpaths' names, imported above
#: the hidden folder of a run's temporary part files: an outpaths stage by its name, so that what a
#: run killed outright leaves there is removed by the next run that claims the folder
PARTS_STAGE_PREFIX = STAGE_PREFIX + "parts-"
#: the most inputs one task takes: enough to make a task's start and its files cheap beside its
#: work, few enough that a retried or stopped task loses little
MAX_BLOCK = 100
#: tasks per worker when the inputs are few: the workers stay busy to the end
TASKS_PER_WORKER = 4
_FORMAT = 1


def options_digest(options: Mapping[str, Any]) -> str:
    """The digest of what a run's rows depend on besides its inputs (``options``: JSON values) and
    the version of mjcli that made them."""
    text = json.dumps({"options": options, "mjcli": __version__}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes (hex); "unreadable" when it cannot be read (the task reports why)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return "unreadable"
    return h.hexdigest()


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclasses.dataclass(frozen=True, slots=True)
class PartSink:
    """Where a task writes its parts (sent to every task, so plain strings)."""

    root: str
    tables: tuple[str, ...]
    digest: str
    staging: str  # this run's folder for temporary files, inside root


#: what a task's result becomes: a frame per table and the notes kept in its manifest (JSON values)
Split = Callable[[Any], tuple[Mapping[str, "pl.DataFrame"], dict[str, Any]]]
#: an input's label (as the rows name it) and the SHA-256 of its content
Fingerprint = Callable[[Any], tuple[str, str]]
#: the files a task writes beside its parts (a simulation's game logs): path relative to the run's
#: folder -> text
Files = Callable[[Any], Mapping[str, str]]


@dataclasses.dataclass(frozen=True, slots=True)
class PartWork:
    """One task of a parted run: ``work`` on each input of a block, then the block's parts and its
    manifest written; the driver gets back only the key, the row counts and the notes."""

    work: Callable[[Any, Any], Any]
    split: Split
    fingerprint: Fingerprint
    sink: PartSink
    files: Files | None = None

    def __call__(self, context: Any, block: Sequence[Any]) -> dict[str, Any]:
        import polars as pl

        inputs: list[dict[str, str]] = []
        notes: list[dict[str, Any]] = []
        written: list[str] = []
        frames: dict[str, list[pl.DataFrame]] = {name: [] for name in self.sink.tables}
        for task in block:
            label, sha = self.fingerprint(task)
            result = self.work(context, task)
            tables, note = self.split(result)
            inputs.append({"label": label, "sha256": sha})
            notes.append(note)
            for name in self.sink.tables:
                frames[name].append(tables[name])
            if self.files is not None:
                # before the parts and the record: a kept task's files are all there
                for relative, text in self.files(result).items():
                    self._put(Path(self.sink.root, relative), functools.partial(_write_text, text=text))
                    written.append(relative)
        key = _part_key(self.sink.digest, inputs)
        rows: dict[str, int] = {}
        for name in self.sink.tables:
            frame = pl.concat(frames[name], how="vertical") if len(frames[name]) > 1 else frames[name][0]
            rows[name] = frame.height
            self._put(Path(self.sink.root, name, f"part-{key}.parquet"), frame.write_parquet)
        record = {
            "format": _FORMAT,
            "key": key,
            "digest": self.sink.digest,
            "parts": {name: f"{name}/part-{key}.parquet" for name in self.sink.tables},
            "rows": rows,
            "inputs": inputs,
            "notes": notes,
            "mjcli": __version__,
        }
        if self.files is not None:
            record["files"] = written
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        self._put(Path(self.sink.root, MANIFESTS, f"{key}.json"), lambda p: Path(p).write_text(text, "utf-8"))
        return {"key": key, "rows": rows, "notes": notes}

    def _put(self, target: Path, writer: Callable[[str], Any]) -> None:
        """Write through a temporary file in the run's staging folder, then rename into place."""
        try:
            fd, tmp = tempfile.mkstemp(prefix=f"{target.stem}.", suffix=".tmp", dir=self.sink.staging)
        except FileNotFoundError:
            raise MjcliError(
                f"--out '{short_path(self.sink.root)}' is not visible on the worker host "
                f"{socket.gethostname()}: put it on a filesystem every node mounts at the same path"
            ) from None
        try:
            os.fchmod(fd, 0o666 & ~current_umask())
            os.close(fd)
            with room_said(self.sink.staging):
                writer(tmp)
            os.replace(tmp, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def _write_text(path: str, text: str) -> None:
    Path(path).write_text(text, encoding="utf-8")


def _part_key(digest: str, inputs: Sequence[Mapping[str, str]]) -> str:
    text = digest + "\n" + "\n".join(f"{i['label']}\0{i['sha256']}" for i in inputs)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def grouped(items: Sequence[T], key: Callable[[T], Any]) -> list[tuple[T, ...]]:
    """``items`` in runs of neighbours with the same ``key`` (a simulation's games by deal: one
    task each, so that a duplicate set is never split between two tasks)."""
    groups: list[list[T]] = []
    for item in items:
        if groups and key(groups[-1][0]) == key(item):
            groups[-1].append(item)
        else:
            groups.append([item])
    return [tuple(g) for g in groups]


def _consecutive(indexes: Sequence[int]) -> list[list[int]]:
    """Ascending ``indexes`` in runs of consecutive numbers ([1, 2, 5, 6, 7] -> [[1, 2], [5, 6, 7]])."""
    runs: list[list[int]] = []
    for i in indexes:
        if runs and runs[-1][-1] + 1 == i:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def block_size(inputs: int, workers: int, largest: int = MAX_BLOCK) -> int:
    """Inputs per task: about :data:`TASKS_PER_WORKER` tasks per worker, at most ``largest``."""
    return max(1, min(largest, math.ceil(inputs / (TASKS_PER_WORKER * max(1, workers)))))


class PartedRun:
    """A run that writes its tables as a dataset in ``root`` (see the module's docstring).

    ``tables`` names the tables (folders of ``root``); ``options`` (JSON values) is what the rows
    depend on besides the inputs; ``resume`` keeps the tasks an earlier run finished with the same
    options. ``folders`` names the folders of ``root`` where the tasks write files of their own
    besides the tables (a simulation's game logs, see :meth:`run`'s ``files``): the run owns them,
    and keeps in them only the files of the tasks it keeps. :meth:`run` works; :meth:`contents` is
    the ``dataset.json`` the command writes at the end, and :meth:`scan` reads a table of the run.
    """

    def __init__(
        self,
        root: Path,
        tables: Sequence[str],
        options: Mapping[str, Any],
        *,
        resume: bool,
        folders: Sequence[str] = (),
    ) -> None:
        self.root = Path(root)
        self.tables = tuple(tables)
        self.folders = tuple(folders)
        self.options = dict(options)
        self.digest = options_digest(self.options)
        self.resume = resume
        self.resumed = 0  # inputs done by an earlier run, not worked on again
        self._parts: list[tuple[int, str]] = []  # (first input, key) of every task, kept or new
        self._rows = dict.fromkeys(self.tables, 0)

    def run(
        self,
        work: Callable[[Any, Any], Any],
        split: Split,
        fingerprint: Fingerprint,
        tasks: Sequence[Any],
        *,
        label: Callable[[Any], str],
        setup: Callable[[], Any] | None = None,
        jobs: int = 1,
        backend: Backend | None = None,
        largest: int = MAX_BLOCK,
        files: Files | None = None,
    ) -> Iterator[dict[str, Any]]:
        """The notes of every task in task order: ``split(work(context, task))``'s second half,
        from the workers or, for the inputs kept by ``resume``, from the earlier run's manifests.
        ``files(work(context, task))`` (paths relative to the run's folder, in its ``folders``) are
        written by the task too, each atomically, before its parts."""
        kept = self._prepare(tasks, fingerprint, label)
        self.resumed = len(kept)
        todo = [i for i in range(len(tasks)) if i not in kept]
        workers = backend.workers() if backend is not None else jobs
        size = block_size(len(todo), workers, largest)
        # Blocks of consecutive inputs only, cut where a kept task lies between: a block that
        # straddled one (inputs 27-29 and 45-53 around a kept 30-44) put its rows before the kept
        # ones in the table, and the kept task's notes (a verify's reports) were never given back
        blocks = [run[i : i + size] for run in _consecutive(todo) for i in range(0, len(run), size)]
        staging = Path(tempfile.mkdtemp(prefix=PARTS_STAGE_PREFIX, dir=self.root))
        try:
            sink = PartSink(str(self.root.resolve()), self.tables, self.digest, str(staging.resolve()))
            part_work = PartWork(work, split, fingerprint, sink, files)
            results = ordered_map(
                part_work, [[tasks[i] for i in b] for b in blocks], jobs=jobs, setup=setup, backend=backend
            )
            following = 0
            for b, result in zip(blocks, results, strict=True):
                while following < b[0]:
                    yield kept[following]
                    following += 1
                self._parts.append((b[0], result["key"]))
                for name, n in result["rows"].items():
                    self._rows[name] += n
                yield from result["notes"]
                following = b[-1] + 1
            while following < len(tasks):
                yield kept[following]
                following += 1
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _prepare(
        self, tasks: Sequence[Any], fingerprint: Fingerprint, label: Callable[[Any], str]
    ) -> dict[int, dict[str, Any]]:
        """Make the folders; keep what ``resume`` may keep (the notes of the kept inputs, by task
        index) and remove every other part and manifest."""
        (self.root / CONTENTS).unlink(missing_ok=True)  # the parts change: no longer a finished run
        manifests = self.root / MANIFESTS
        for folder in (manifests, *(self.root / t for t in (*self.tables, *self.folders))):
            folder.mkdir(parents=True, exist_ok=True)
        kept: dict[int, dict[str, Any]] = {}
        keys: set[str] = set()
        files: set[str] = set()
        if self.resume:
            index: dict[str, int] = {}
            for i, t in enumerate(tasks):
                index.setdefault(label(t), i)
            for path in sorted(manifests.glob("*.json")):
                found = self._keepable(path, index, kept, tasks, fingerprint)
                if found is None:
                    path.unlink(missing_ok=True)  # before its parts: a part never outlives its record
                    continue
                key, rows, notes, written = found
                keys.add(key)
                files.update(written)
                self._parts.append((min(notes), key))
                for name in self.tables:
                    self._rows[name] += rows[name]
                kept.update(notes)
        for path in manifests.iterdir():
            if path.stem not in keys:
                _remove(path)
        for table in self.tables:
            for path in (self.root / table).iterdir():
                if path.name.removeprefix("part-").removesuffix(".parquet") not in keys:
                    _remove(path)
        for folder in self.folders:
            for path in (self.root / folder).iterdir():
                if f"{folder}/{path.name}" not in files:
                    _remove(path)
        return kept

    def _keepable(
        self,
        path: Path,
        index: Mapping[str, int],
        kept: Mapping[int, Any],
        tasks: Sequence[Any],
        fingerprint: Fingerprint,
    ) -> tuple[str, dict[str, int], dict[int, dict[str, Any]], list[str]] | None:
        """(key, rows, notes by task index, its files) of an earlier task this run may keep, else None."""
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            key, inputs, notes, rows = record["key"], record["inputs"], record["notes"], record["rows"]
            if (
                record.get("format") != _FORMAT
                or record.get("digest") != self.digest
                or key != path.stem
                or set(record.get("parts", {})) != set(self.tables)
                or len(inputs) != len(notes)
                or not inputs
            ):
                return None
            if not all((self.root / record["parts"][t]).is_file() for t in self.tables):
                return None
            written = [str(f) for f in record.get("files", [])]
            if any(f.split("/")[0] not in self.folders or not (self.root / f).is_file() for f in written):
                return None  # a file of the task is missing (or not where this run keeps its files)
            mine: dict[int, dict[str, Any]] = {}
            for entry, note in zip(inputs, notes, strict=True):
                i = index.get(entry["label"])
                if i is None or i in kept or i in mine or fingerprint(tasks[i])[1] != entry["sha256"]:
                    return None  # not an input of this run, or changed since
                if mine and i != max(mine) + 1:
                    # its inputs no longer follow one another in this run (an input added among
                    # them, or another order): its part would put their rows out of the run's order
                    return None
                mine[i] = note
            return key, {t: int(rows[t]) for t in self.tables}, mine, written
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None  # unreadable or foreign: its task is done again

    def part_paths(self, table: str) -> list[Path]:
        """The parts of ``table`` written or kept so far, in input order."""
        return [self.root / table / f"part-{key}.parquet" for _, key in sorted(self._parts)]

    def scan(self, table: str) -> pl.LazyFrame:
        import polars as pl

        return pl.scan_parquet(self.part_paths(table))

    def rows(self, table: str) -> int:
        return self._rows[table]

    def contents(self) -> dict[str, Any]:
        """``dataset.json``: the options, and each table's parts (relative to the folder) in input
        order with its row count."""
        return {
            "format": _FORMAT,
            "digest": self.digest,
            "options": self.options,
            "mjcli": __version__,
            "tables": {
                t: {
                    "parts": [p.relative_to(self.root).as_posix() for p in self.part_paths(t)],
                    "rows": self._rows[t],
                }
                for t in self.tables
            },
        }

    def write_contents(self, folder: Path) -> Path:
        """Write :meth:`contents` to ``folder/dataset.json`` (the command's stage) atomically."""
        from mjcli.atomic import write_text_atomic

        target = folder / CONTENTS
        write_text_atomic(target, json.dumps(self.contents(), indent=1, ensure_ascii=False) + "\n")
        return target


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def check_not_unfinished(folder: str | os.PathLike[str]) -> None:
    """A UsageError when ``folder`` holds only the parts of a parted run that did not finish (its
    records and no table of contents): said so, with the way to finish it, where a reader found no
    output it knows (a stopped ``simulate --resume`` holds ``games/`` parts, not a replay's)."""
    base = Path(folder)
    if (base / MANIFESTS).is_dir() and not (base / CONTENTS).is_file():
        done = sum(1 for _ in (base / MANIFESTS).glob("*.json"))
        raise UsageError(
            f"'{short_path(base)}' holds the parts of a run that did not finish ({done} tasks done, no "
            f"{CONTENTS}): finish it by running the same command again with --resume"
        )


def table_source(folder: str | os.PathLike[str], table: str) -> Path | list[Path] | None:
    """Where ``folder`` holds ``table``: its single file ``table.parquet``, the parts of a finished
    parted run in order (from ``dataset.json``), or None (neither). A folder with the parts of a run
    that did not finish is a UsageError: it is not a result yet."""
    base = Path(folder)
    single = base / f"{table}.parquet"
    if single.is_file():
        return single
    contents = base / CONTENTS
    if contents.is_file():
        try:
            data = json.loads(contents.read_text(encoding="utf-8"))
            parts = data["tables"][table]["parts"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return [base / p for p in parts]
    if (base / table).is_dir():
        check_not_unfinished(base)
    return None
