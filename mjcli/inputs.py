"""The one path walker: the files a batch command reads, from what was typed on the command line.

Every game's batch commands (verify, replay) take the same kind of arguments: files, folders
(walked recursively, in sorted order) and ``-`` (a list of paths on standard input, one per line).
Which files in a folder are inputs is the game's own business (``is_input``: riichi logs by suffix,
Dou Dizhu records by ``.jsonl``); everything else is here, once.

Each input carries a ``label``, the name by which rows and messages refer to it: a folder's files
by their path inside that folder, a file given by name (or read from stdin) by its file name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from mjcli.errors import UsageError


class Input(NamedTuple):
    """One file to read: where it is, and the label rows and messages use for it."""

    path: Path
    label: str


@dataclass(slots=True)
class Inputs:
    """The files of one command line, in order, each once."""

    items: list[Input] = field(default_factory=list)
    #: paths given more than once (by another spelling, or inside a folder also given): read once
    repeated: list[Path] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.items)

    @property
    def paths(self) -> list[Path]:
        return [i.path for i in self.items]


def collect_inputs(
    args: Sequence[str],
    is_input: Callable[[Path], bool],
    stdin: Iterable[str] | None = None,
    what: str = "log",
) -> Inputs:
    """The files named by ``args``: files as given, folders walked (only files ``is_input`` accepts,
    hidden ones skipped, sorted), ``-`` paths read from ``stdin``. A path that does not exist is a
    :class:`UsageError` naming it (``what`` says what kind of file was expected)."""
    out = Inputs()
    seen: set[Path] = set()

    def add(path: Path, label: str) -> None:
        key = path.resolve()
        if key in seen:
            out.repeated.append(path)
            return
        seen.add(key)
        out.items.append(Input(path, label))

    for a in args:
        if a == "-":
            if stdin is None:
                raise UsageError("'-' needs a list of paths on standard input")
            for line in stdin:
                if line.strip():
                    p = Path(line.strip())
                    _must_exist(p, what)
                    add(p, p.name)
            continue
        root = Path(a)
        if root.is_dir():
            for p in sorted(root.rglob("*")):
                if p.is_file() and not _hidden(p, root) and is_input(p):
                    add(p, p.relative_to(root).as_posix())
        else:
            _must_exist(root, what)
            add(root, root.name)
    return out


def manifest(inputs: Iterable[tuple[Path | str, str]]) -> list[dict[str, str]]:
    """The inputs as an output folder records them: each label with the file's absolute path, so
    that what a row names by its label can be found again from anywhere."""
    return [{"label": label, "path": Path(path).resolve().as_posix()} for path, label in inputs]


def _must_exist(p: Path, what: str) -> None:
    if not p.exists():
        shown = str(p) if len(str(p)) <= 80 else str(p)[:77] + "..."
        raise UsageError(f"{what} '{shown}' does not exist")


def _hidden(p: Path, root: Path) -> bool:
    """A dot-file, or a file inside a dot-folder below ``root`` (temporary parts of a run, .git)."""
    return any(part.startswith(".") for part in p.relative_to(root).parts)
