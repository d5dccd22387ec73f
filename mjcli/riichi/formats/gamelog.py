"""The container every reader returns: one game's canonical events and where they came from."""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass, field
from pathlib import PurePath

from mjcli.errors import LogFormatError
from mjcli.riichi.engine.events import Event, GameRules, StartGame

TENHOU_XML = "tenhou_xml"
TENHOU6 = "tenhou6"
MJAI = "mjai"
FORMATS = (TENHOU_XML, TENHOU6, MJAI)


@dataclass(slots=True)
class GameLog:
    """One game read from a file.

    ``complete`` is False when the file stops before the game's end (a cut or truncated log); the
    events read so far are still there and ``problem`` says where the log stops.
    """

    path: str
    format: str
    game_id: str
    events: list[Event] = field(default_factory=list)
    complete: bool = True
    problem: str | None = None

    @property
    def start(self) -> StartGame | None:
        e = self.events[0] if self.events else None
        return e if isinstance(e, StartGame) else None

    @property
    def rules(self) -> GameRules:
        start = self.start
        return start.rules if start is not None else GameRules()

    @property
    def players(self) -> int:
        return self.rules.players


def game_id_from_name(name: str) -> str:
    """The file name without its log suffixes (``x.mjlog.gz`` -> ``x``)."""
    base = PurePath(name).name
    for suffix in (".gz", ".mjlog", ".xml", ".json", ".jsonl", ".ndjson", ".mjson", ".txt"):
        if base.lower().endswith(suffix):
            base = base[: -len(suffix)]
    return base


def maybe_gunzip(data: bytes, name: str) -> bytes:
    """Tenhou serves mjlog files gzip-compressed whatever their name says: detect by the magic bytes."""
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise LogFormatError(f"{name}: corrupt gzip data ({exc})") from None


def decode_text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"{name}: not UTF-8 text (byte {exc.start})") from None
