"""Game-log readers and writers. Every reader turns a file into canonical events
(:mod:`mjcli.riichi.engine.events`); every writer turns events back into a file.

A format is a pair of functions: ``read_X(data: bytes, name) -> list[GameLog]`` and
``write_X(game: GameLog) -> str``. :func:`read_log` detects the format from the content.

Games per file: a Tenhou mjlog holds one game; a tenhou.net/6 file holds one game (an object, or
one round per line) or several (a JSON list of game objects); an mjai file holds one game per
``start_game``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from mjcli.errors import LogFormatError, MjcliError
from mjcli.inputs import Inputs, collect_inputs
from mjcli.riichi.formats.detect import detect_format
from mjcli.riichi.formats.gamelog import FORMATS, MJAI, TENHOU6, TENHOU_XML, GameLog, maybe_gunzip
from mjcli.riichi.formats.mjai import read_mjai, write_mjai
from mjcli.riichi.formats.tenhou6 import read_tenhou6, write_tenhou6
from mjcli.riichi.formats.tenhou_xml import read_tenhou_xml

__all__ = [
    "FORMATS",
    "MJAI",
    "TENHOU6",
    "TENHOU_XML",
    "GameLog",
    "LogResult",
    "WRITERS",
    "detect_format",
    "read_bytes",
    "read_log",
    "read_logs",
    "read_mjai",
    "read_tenhou6",
    "read_tenhou_xml",
    "write_game",
    "write_games",
    "collect_logs",
    "is_log_file",
    "write_mjai",
    "write_tenhou6",
]

READERS: dict[str, Callable[[bytes, str], list[GameLog]]] = {
    TENHOU_XML: read_tenhou_xml,
    TENHOU6: read_tenhou6,
    MJAI: read_mjai,
}
WRITERS: dict[str, Callable[[GameLog], str]] = {TENHOU6: write_tenhou6, MJAI: write_mjai}
#: In a directory, files with these suffixes, or with none (Tenhou log ids), are taken as logs
#: (and ``.txt`` files that start as one); the format itself is then detected from the content.
LOG_SUFFIXES = (".mjlog", ".xml", ".json", ".jsonl", ".ndjson", ".mjson", ".gz", ".log")


def read_bytes(data: bytes, name: str = "<log>") -> list[GameLog]:
    """Read a log held in memory, gzip or not; ``name`` is used in messages and as the fallback
    game id."""
    data = maybe_gunzip(data, name)  # once: the detection and the reader then find plain bytes
    return READERS[detect_format(data, name)](data, name)


def read_log(path: str | os.PathLike[str]) -> list[GameLog]:
    """Read one log file (any supported format, gzip or not) into its games."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise LogFormatError(f"{p}: is a directory (give a log file)") from None
    except OSError as exc:
        raise LogFormatError(f"{p}: cannot read ({exc.strerror or exc})") from None
    return read_bytes(data, str(p))


@dataclass(slots=True)
class LogResult:
    """One file of a batch: its games, or the error that stopped reading it."""

    path: str
    games: list[GameLog]
    error: MjcliError | None = None


#: What mjcli writes into its own output folders beside the logs (simulate's summary, replay's
#: manifest, the bots' faults and stderr, a dataset's contents and task manifests): never logs, so
#: that ``verify OUT`` or ``replay OUT`` over such a folder reads its logs alone (these were read as
#: logs that failed, and the command exited 1).
NOT_LOGS = frozenset({"summary.json", "replay.json", "dataset.json", "faults.jsonl"})
NOT_LOG_SUFFIX = ".stderr.log"
NOT_LOG_FOLDER = "_manifests"


def is_log_file(path: Path) -> bool:
    """Is a file met while walking a folder a log? By its name: a log suffix, or none at all (Tenhou
    log ids), and not one of mjcli's own outputs; what format it is, is then found from its content."""
    name = path.name.lower()
    if name in NOT_LOGS or name.endswith(NOT_LOG_SUFFIX) or path.parent.name == NOT_LOG_FOLDER:
        return False
    if name.endswith(".txt"):
        return _starts_like_log(path)
    return name.endswith(LOG_SUFFIXES) or not path.suffix


def _starts_like_log(path: Path) -> bool:
    """A ``.txt`` file is a log when it starts as one: tenhou.net/6 JSON copied from a browser and
    saved as text is common, and so are notes and READMEs beside logs, which are left alone."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return True  # read as a log: the batch then says why it cannot be
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((b"{", b"[", b"<", b"\x1f\x8b"))


def collect_logs(args: Sequence[str], stdin: Iterable[str] | None = None) -> Inputs:
    """The log files named on a command line: files, folders (walked for :func:`is_log_file`), ``-``."""
    return collect_inputs(args, is_log_file, stdin, what="log")


def expand_paths(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """Files as given; directories recursively, their log files in sorted order."""
    return iter(collect_logs([str(p) for p in paths]).paths)


def read_logs(paths: Iterable[str | os.PathLike[str]]) -> Iterator[LogResult]:
    """Read many logs, one result per file; a bad file gives a result with ``error`` set and the
    batch goes on."""
    for f in expand_paths(paths):
        try:
            yield LogResult(str(f), read_log(f))
        except MjcliError as exc:
            yield LogResult(str(f), [], exc)


def write_game(game: GameLog, fmt: str) -> str:
    try:
        writer = WRITERS[fmt]
    except KeyError:
        raise LogFormatError(f"no writer for format '{fmt}' (choose {', '.join(WRITERS)})") from None
    return writer(game)


def write_games(games: Sequence[GameLog], fmt: str) -> str:
    """The text of a file holding ``games`` in format ``fmt``: mjai games one after another; several
    tenhou.net/6 games as a JSON list (one game stays a plain object, which is what Tenhou's viewer
    opens)."""
    if fmt == TENHOU6 and len(games) > 1:
        return "[" + ",\n".join(write_tenhou6(g).rstrip("\n") for g in games) + "]\n"
    return "".join(write_game(g, fmt) for g in games)
