"""Where a command's output goes: claimed before the work, written aside, put in place at the end.

Every command that writes files claims its output here, whatever the game:

* :func:`claim_file` (``convert -o FILE``): the name is checked before the work: not empty, not a
  folder, its folder writable, not read-only, and not one of the command's inputs (by path or by
  inode: a hard link or a symlink to an input is the input). The file itself is then written
  through :mod:`mjcli.atomic`, so that two runs writing it at once each leave one complete file
  (a device or a pipe, ``-o /dev/stdout``, is written straight to).
* :func:`output_dir` (``--out DIR``): the folder is created (or found), locked for this run, and a
  hidden *stage* folder inside it is handed to the command, which writes everything there. When
  the work ends well, the files and folders the command owns are moved into ``DIR`` (each
  replaced as a whole; owned entries that this run did not write are removed, so that nothing of
  an earlier run of another shape stays beside the new one); when it stops (an error, Ctrl-C,
  SIGTERM), the stage is removed and ``DIR`` keeps what it held before. Moving the entries in
  takes a few renames, done with Ctrl-C held back.

A command that writes part of its output in place as it works (the tables of a parted run, see
:mod:`mjcli.ledger`: what lets a stopped run be resumed) names those entries ``live``: they are
checked like the owned ones and cleaned of hidden leftovers, but never staged nor removed here. A
stopped run leaves what it wrote in them, beside the owned entries of the earlier run.

The lock is an advisory ``flock`` on the folder itself (no lock file; the system drops it when the
process ends, however it ends): a second run into the same folder while the first one works is
refused at once with a message naming the folder. Leftovers of a run that was killed outright
(``kill -9``: stage folders, temporary files, part folders of older versions) are hidden entries;
the next run that claims the folder removes them, and the input walker never reads hidden entries.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from mjcli.atomic import is_special_file
from mjcli.errors import UsageError, short_path
from mjcli.inputs import name_text
from mjcli.runner import stop_signals_deferred

try:
    import fcntl
except ImportError:  # not on POSIX: no lock (the stage still keeps half-written output hidden)
    fcntl = None  # type: ignore[assignment]

STAGE_PREFIX = ".mjcli-stage-"
#: the table of contents of a finished parted run (see :mod:`mjcli.ledger`); named here, where no
#: Polars is imported, for the commands that claim an --out folder before they import it
CONTENTS = "dataset.json"
#: the folder of a parted run's completion records (see :mod:`mjcli.ledger`)
MANIFESTS = "_manifests"


def _named(path: str | os.PathLike[str], option: str) -> Path:
    text = os.fspath(path)
    if not text.strip():
        raise UsageError(f"{option} '': give a name")
    try:
        Path(text).absolute().as_posix().encode("utf-8")
    except UnicodeEncodeError:
        # a name (or a folder above it) whose bytes are not UTF-8: Polars, which writes the tables,
        # takes only UTF-8 paths (it failed with a traceback)
        raise UsageError(
            f"{option} '{name_text(text)}': a path that is not UTF-8 text; give another name"
        ) from None
    return Path(path)


def _read_only(path: Path) -> bool:
    """No write permission bit at all (checked on the mode: root could write through it anyway)."""
    try:
        return not path.lstat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    except OSError:
        return False


class _InputIndex:
    """A run's inputs, each resolved and looked up once, for :func:`_check_not_input` of each of
    its outputs. Checking every input again for every output cost a stat and two path resolutions
    per input and output: a replay of 2000 logs spent 1.8 s in them (its eight outputs) before any
    work, now 0.2 s."""

    def __init__(self, inputs: Iterable[Path]) -> None:
        # each with the input's place in the list, so that a clash names the first input concerned
        self.resolved: dict[Path, tuple[int, Path]] = {}  # an input, by its resolved path
        self.above: dict[Path, tuple[int, Path]] = {}  # every folder an input lies in
        self.identity: dict[tuple[int, int], tuple[int, Path]] = {}  # (device, inode): its links too
        for i, p in enumerate(inputs):
            r = p.resolve()
            self.resolved.setdefault(r, (i, p))
            for folder in r.parents:
                self.above.setdefault(folder, (i, p))
            with contextlib.suppress(OSError):
                st = p.stat()
                self.identity.setdefault((st.st_dev, st.st_ino), (i, p))

    def clash(self, target: Path) -> Path | None:
        """The first input that ``target`` (which may not exist yet) is, or lies inside, if any."""
        resolved = target.resolve()
        found = [self.resolved.get(resolved), self.above.get(resolved)]
        with contextlib.suppress(OSError):
            st = target.stat()
            found.append(self.identity.get((st.st_dev, st.st_ino)))
        hits = [hit for hit in found if hit is not None]
        return min(hits)[1] if hits else None


def _check_not_input(target: Path, inputs: _InputIndex, option: str) -> None:
    """``target`` (which may not exist yet) is not an input, and no input lies inside it."""
    p = inputs.clash(target)
    if p is not None:
        raise UsageError(
            f"{option} '{short_path(target)}' would overwrite the input '{short_path(p)}': "
            "mjcli never writes over its inputs (choose another name)"
        )


def _writable_folder(folder: Path, option: str, shown: str, create: bool = True) -> None:
    """Create ``folder`` (and its parents) if needed; a UsageError if it cannot be, or cannot be
    written (tried for real, with a temporary file: permission bits say nothing for root).
    ``create`` False: the nearest folder that exists is tried instead, and the missing ones are left
    to the write (a file's folders: a command that fails before writing leaves none behind)."""
    existing = folder
    for parent in (folder, *folder.parents):
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise UsageError(f"{option} '{shown}': '{short_path(parent)}' is not a directory")
            existing = parent
            break
    try:
        if create:
            folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".mjcli-probe-", dir=folder if create else existing)
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):  # a run that holds the folder may clean it away
            os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"{option} '{shown}': cannot write there ({exc.strerror or exc})") from None


def claim_file(
    path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = (), option: str = "-o"
) -> Path:
    """The output file ``path``, checked before the work (see the module's docstring)."""
    target = _named(path, option)
    shown = short_path(target)
    if target.is_dir():
        raise UsageError(f"{option} '{shown}' is a directory: give a file name")
    _check_not_input(target, _InputIndex(Path(p) for p in inputs), option)
    if is_special_file(target):  # a device or a pipe, written straight to: no file, no folder used
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(target.stat().st_mode):  # (open() cannot: it failed after the work)
                raise UsageError(f"{option} '{shown}' is a socket: give a file, a device or a pipe")
        return target
    if _read_only(target):
        raise UsageError(f"{option} '{shown}' is read-only: it is not replaced")
    _writable_folder(target.parent, option, shown, create=False)  # (atomic_path makes them)
    return target


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _stale(name: str, owns: Sequence[str]) -> bool:
    """A hidden leftover of a killed run: a stage, or a temporary or part file of an owned entry."""
    if name.startswith((STAGE_PREFIX, ".mjcli-probe-")):
        return True
    for own in owns:
        if name.startswith(f".{own}.") and name.endswith(".tmp"):
            return True
        if name.startswith(f".{Path(own).stem}-parts-"):
            return True
    return False


def _clean_stale(folder: Path, owns: Sequence[str]) -> None:
    for entry in folder.iterdir():
        if _stale(entry.name, owns):
            _remove(entry)
        elif entry.name in owns and entry.is_dir() and not entry.is_symlink():
            for inner in entry.iterdir():
                if inner.name.startswith(".") and inner.name.endswith(".tmp"):
                    _remove(inner)


@contextlib.contextmanager
def _locked(folder: Path, shown: str, option: str) -> Iterator[None]:
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise UsageError(
                    f"{option} '{shown}' is being written by another mjcli run: wait for it to end, "
                    "or choose another folder"
                ) from None
            raise
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def output_dir(
    path: str | os.PathLike[str] | None,
    owns: Sequence[str],
    inputs: Iterable[str | os.PathLike[str]] = (),
    option: str = "--out",
    live: Sequence[str] = (),
    mark: str | None = None,
) -> Iterator[Path | None]:
    """Claim the folder ``path`` for one run and yield the hidden stage folder to write into
    (``None`` when ``path`` is: the command writes no files then).

    ``owns`` names the entries of the folder the command writes (files, or folders such as
    ``logs``); ``inputs`` the files it reads (none of them may be, or lie inside, an owned entry).
    Everything is checked before the block runs; the entries move into ``path`` when it ends
    without an exception, and the stage is removed in every case (see the module's docstring).
    ``live`` names the entries the command writes in place itself (see the module's docstring).
    ``mark`` is the entry every finished run of the command writes (``summary.json`` for simulate,
    ``replay.json``, ``verify.parquet``): owned entries already in the folder are replaced only
    beside it, or beside a parted run's records (see :func:`_check_ours`).
    """
    if path is None:
        yield None
        return
    folder = _named(path, option)
    shown = short_path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{option} '{shown}' exists and is not a directory")
    created = not (folder.exists() or folder.is_symlink())
    _writable_folder(folder, option, shown)
    try:
        input_index = _InputIndex(Path(p) for p in inputs)
        for own in (*owns, *live):
            target = folder / own
            _check_not_input(target, input_index, option)
            if _read_only(target):
                raise UsageError(
                    f"{option} '{shown}': '{short_path(target)}' is read-only: it is not replaced"
                )
        with _locked(folder, shown, option):
            _check_ours(folder, owns, live, mark, option, shown)
            _clean_stale(folder, (*owns, *live))
            stage = Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=folder))
            try:
                yield stage
                with stop_signals_deferred():
                    _commit(stage, folder, owns, live)
            finally:
                with stop_signals_deferred():
                    shutil.rmtree(stage, ignore_errors=True)
    except BaseException:
        # A run that fails before writing anything (a cluster that cannot be joined, Ctrl-C while
        # the workers start) leaves no empty folder it made itself; a folder that was there stays.
        if created:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty: whatever a live entry wrote is kept
        raise


def _check_ours(
    folder: Path, owns: Sequence[str], live: Sequence[str], mark: str | None, option: str, shown: str
) -> None:
    """The entries a run would replace were written by an earlier run of the same command: its
    ``mark`` is there, or a parted run's records (which a stopped run leaves without the mark) are
    of tables this command writes; a parted run's records themselves (``_manifests/``,
    ``dataset.json``, names every parted command shares) only then. Else a ``logs`` folder of the
    user's own, a simulation's ``games.parquet`` under ``replay --out``, or a parted simulation's
    records under ``verify --out`` would be replaced or removed as a whole (all three were)."""
    if mark is None:
        return
    parted = _parted_run_is_ours(folder, (*owns, *live))
    has_mark = (folder / mark).exists()
    # A parted run stopped before its first task's record leaves its folders (and a simulation's
    # first logs) beside an empty records folder: its own, for the run that finishes it.
    stopped_early = parted is None and (folder / MANIFESTS).is_dir()
    for own in owns:
        target = folder / own
        if not (target.exists() or target.is_symlink()):
            continue
        if parted is True or (has_mark and own not in (MANIFESTS, CONTENTS) and parted is None):
            continue
        # The live entries (the tables' folders, the records, a simulation's logs, which a parted
        # run cleans of every file it does not keep) are checked as well: passed by, a `logs/` of
        # the user's own under `simulate --resume`, or a stopped parted simulation's records under
        # `verify --resume --out` of it, were emptied
        if own in live and (stopped_early or _empty_folder(target)):
            continue
        why = "a parted run of another command" if parted is False else f"no '{mark}' beside it"
        raise UsageError(
            f"{option} '{shown}': '{short_path(target)}' was not written by this command ({why}): "
            "mjcli does not replace what it did not write; choose another folder, or move it away"
        )


def _empty_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink() and not any(path.iterdir())
    except OSError:
        return False


def _parted_run_is_ours(folder: Path, names: Sequence[str]) -> bool | None:
    """Whether the parted run recorded in ``folder`` (its ``dataset.json``, or the task records of
    one that did not finish) is of tables among ``names``: None when there is none."""
    tables: set[str] = set()
    contents = folder / CONTENTS
    try:
        if contents.is_file():
            tables = set(json.loads(contents.read_text(encoding="utf-8"))["tables"])
        elif (folder / MANIFESTS).is_dir():
            for record in sorted((folder / MANIFESTS).glob("*.json"))[:64]:  # one task's tables say it
                tables |= set(json.loads(record.read_text(encoding="utf-8"))["parts"])
        else:
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return False  # records mjcli cannot read are not taken for its own
    if not tables:
        return None  # a run stopped before its first task: nothing of its own to lose
    return tables <= set(names)


def _commit(stage: Path, folder: Path, owns: Sequence[str], live: Sequence[str] = ()) -> None:
    """Move the stage's entries into ``folder``, each replacing its namesake as a whole (the live
    ones, written in place, stay as they are)."""
    for own in owns:
        if own in live:
            continue
        new, old = stage / own, folder / own
        if not new.exists():
            if old.exists() or old.is_symlink():
                _remove(old)
            continue
        if (new.is_dir() or old.is_dir()) and (old.exists() or old.is_symlink()):
            # rename(2) will not replace a folder: move the old entry into the stage (removed next)
            os.replace(old, stage / f".old-{own}")
        os.replace(new, old)
