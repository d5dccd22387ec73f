"""The one path walker: the files a batch command reads, from what was typed on the command line.

Every game's batch commands (verify, replay) take the same kind of arguments: files, folders
(walked recursively, in sorted order) and ``-`` (a list of paths on standard input, one per line).
Which files in a folder are inputs is the game's own business (``is_input``: riichi logs by suffix,
Dou Dizhu records by ``.jsonl``); everything else is here, once.

Each input carries a ``label``, the name by which rows and messages refer to it: a folder's files
by their path inside that folder, a file given by name (or read from stdin) by its file name. Labels
are unique within a command: where two inputs would share one (``a/x.mjlog`` and ``b/x.mjlog``,
or two folders each holding ``x.mjlog``), each of them takes the folders above it that tell them
apart (``a/x.mjlog``, ``b/x.mjlog``); a label no other input shares is left as it is.

Each file is read once: a path given again (under another spelling, or inside a folder also given)
and a file whose bytes are those of an earlier one (a copy) are left out and listed in
``repeated``, so that no game is counted twice; :meth:`Inputs.notes` says so in one line each.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from mjcli.errors import UsageError, printable, short_path


class Input(NamedTuple):
    """One file to read: where it is, and the label rows and messages use for it."""

    path: Path
    label: str


@dataclass(slots=True)
class Inputs:
    """The files of one command line, in order, each once."""

    items: list[Input] = field(default_factory=list)
    #: (left out, the input it repeats): the same path again, or a file with the same bytes
    repeated: list[tuple[Path, Path]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.items)

    @property
    def paths(self) -> list[Path]:
        return [i.path for i in self.items]

    def notes(self, most: int = 5) -> list[str]:
        """A line per input left out (``most`` of them, then a count of the rest), for stderr."""
        lines = []
        for path, first in self.repeated[:most]:
            # (escaped: a newline or a byte of a name that is not UTF-8 would break the line)
            if path.resolve() == first.resolve():
                lines.append(f"note: '{printable(short_path(path))}' is given more than once: read once")
            else:
                lines.append(
                    f"note: '{printable(short_path(path))}' has the same content as "
                    f"'{printable(short_path(first))}': read once"
                )
        if len(self.repeated) > most:
            lines.append(
                f"note: and {len(self.repeated) - most} more inputs repeat an earlier one: read once"
            )
        return lines


def name_text(name: str) -> str:
    """A file name as text that can be written anywhere: the bytes of a name that is not UTF-8 (a
    Shift-JIS name from an archive of Japanese logs; Python keeps them as lone surrogates, which no
    UTF-8 output, Parquet column or JSON file takes) written as ``\\xff`` escapes."""
    if name.isascii():
        return name
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def utf8_text(text: str) -> str:
    """A string read from a log as text that can be written anywhere: a lone surrogate (a JSON
    ``"\\ud800"`` escape without its pair, which JSON allows and no UTF-8 holds; Parquet, JSON
    output and the terminal refuse it) written as that escape, the rest as it is."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def collect_inputs(
    args: Sequence[str],
    is_input: Callable[[Path], bool],
    stdin: Iterable[str] | None = None,
    what: str = "log",
) -> Inputs:
    """The files named by ``args``: files as given, folders walked (only files ``is_input`` accepts,
    hidden ones skipped, sorted), ``-`` paths read from ``stdin``. A path that does not exist stays
    in the batch, whose reader reports it and goes on with the others (a batch never stops at one
    bad file); when no path named exists at all, that is a :class:`UsageError` naming the first
    (``what`` says what kind of file was expected)."""
    out = Inputs()
    seen: dict[Path, Path] = {}
    missing: list[str] = []

    def add_named(p: Path) -> None:
        problem = _missing(p, what)
        if problem:
            missing.append(problem)
        add(p, p.name)

    def add(path: Path, label: str) -> None:
        try:
            key = path.resolve()
        except (OSError, RuntimeError):  # a link loop (named, and reported by the batch's reader)
            key = path.absolute()
        if key in seen:
            out.repeated.append((path, seen[key]))
            return
        seen[key] = path
        out.items.append(Input(path, name_text(label)))

    for a in args:
        if a == "-":
            if stdin is None:
                raise UsageError("'-' needs a list of paths on standard input")
            for n, line in enumerate(stdin):
                if n == 0:  # a list saved by a Windows editor starts with a byte-order mark
                    line = line.removeprefix("\ufeff")
                if line.strip():
                    add_named(Path(line.strip()))
            continue
        root = Path(a)
        if root.is_dir():
            for p in sorted(root.rglob("*")):
                if p.is_file() and not _hidden(p, root) and is_input(p):
                    add(p, p.relative_to(root).as_posix())
        else:
            add_named(root)
    if missing and all(_missing(item.path, what) for item in out.items):
        raise UsageError(missing[0])  # nothing named is there: a mistyped command line
    _drop_copies(out)
    out.items = _unique_labels(out.items)
    return out


def _unique_labels(items: list[Input]) -> list[Input]:
    """``items`` with every label that more than one of them has lengthened, by the folders above
    it, until it is theirs alone. Why: rows, summaries and a regression gate tell games apart by
    their file's label (with the game's id, which simulated logs of two runs share), and an output
    folder's manifest finds a file again by it; two different logs under one label would count as
    one file (a replay's summary then also reads its whole table back instead of adding up file by
    file). Each file is in ``items`` once (see :func:`collect_inputs`), so its absolute path,
    reached at the latest, is its own."""
    labels = [item.label for item in items]
    parts_of: dict[int, tuple[str, ...]] = {}  # an input's resolved path, once
    while True:
        counts: dict[str, int] = defaultdict(int)
        for label in labels:
            counts[label] += 1
        shared = [i for i, label in enumerate(labels) if counts[label] > 1]
        if not shared:
            break
        before = list(labels)
        for i in shared:
            if i not in parts_of:
                parts_of[i] = items[i].path.resolve().parts
            parts = parts_of[i]
            longer = len(Path(labels[i]).parts) + 1
            labels[i] = Path(*parts[max(0, len(parts) - longer) :]).as_posix()
        if labels == before:  # (whole paths: cannot happen, see above; never loop for it)
            break
    return [Input(item.path, label) for item, label in zip(items, labels, strict=True)]


def manifest(inputs: Iterable[tuple[Path | str, str]]) -> list[dict[str, str]]:
    """The inputs as an output folder records them: each label with the file's absolute path, so
    that what a row names by its label can be found again from anywhere (a path that is not UTF-8 is
    written as :func:`name_text` gives it: readable, though not a way back to the file)."""
    return [
        {"label": name_text(label), "path": name_text(Path(path).resolve().as_posix())}
        for path, label in inputs
    ]


def _drop_copies(out: Inputs) -> None:
    """Leave out files whose bytes equal an earlier input's (only files of equal size are read)."""
    by_size: dict[int, list[Input]] = defaultdict(list)
    for item in out.items:
        try:
            by_size[item.path.stat().st_size].append(item)
        except OSError:
            continue  # the reader reports it
    copies: set[Path] = set()
    for group in by_size.values():
        if len(group) < 2:
            continue
        first_of: dict[bytes, Path] = {}
        for item in group:
            digest = _digest(item.path)
            if digest is None:
                continue
            if digest in first_of:
                out.repeated.append((item.path, first_of[digest]))
                copies.add(item.path)
            else:
                first_of[digest] = item.path
    if copies:
        out.items = [i for i in out.items if i.path not in copies]


def _digest(path: Path) -> bytes | None:
    try:
        with path.open("rb") as f:
            return hashlib.file_digest(f, "blake2b").digest()
    except OSError:
        return None


def _missing(p: Path, what: str) -> str:
    """What is wrong with a path named that is not there ("" when it is)."""
    if p.exists():
        return ""
    if p.is_symlink():  # the name is there: what it points to is not (or it points to itself)
        return f"{what} '{short_path(p)}' is a link to nothing (a broken link or a loop)"
    return f"{what} '{short_path(p)}' does not exist"


def _hidden(p: Path, root: Path) -> bool:
    """A dot-file, or a file inside a dot-folder below ``root`` (temporary parts of a run, .git)."""
    return any(part.startswith(".") for part in p.relative_to(root).parts)
