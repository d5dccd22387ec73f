"""The container every reader returns: one game's canonical events and where they came from."""

from __future__ import annotations

import gzip
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

from mjcli.errors import LogFormatError
from mjcli.inputs import name_text
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


def absent_share_of(rules: object, players: int) -> str:
    """mjcli's own ``absent_share`` key of a log's rules (mjai ``start_game.rules``, tenhou.net/6
    ``rule``): "split" for a three-player game whose tsumo split the absent North's share
    (``--rules sanma-split``), "" otherwise ("lost", tsumo-son, is what a log saying nothing means;
    four players have no absent seat)."""
    value = rules.get("absent_share") if isinstance(rules, dict) else None
    if value in (None, "", "lost"):
        return ""
    if value != "split":
        raise LogFormatError(f"rules absent_share '{_short(value)}' is neither 'lost' nor 'split'")
    return "split" if players == 3 else ""


#: No real score, payment or stick count comes near these: a number beyond them is a corrupt log
#: (and would overflow the 64-bit columns of the Parquet tables downstream).
MAX_POINTS = 10_000_000
MAX_FINAL_POINTS = 100_000.0
MAX_COUNTER = 10_000


def whole_points(value: object, what: str) -> int:
    """A recorded score or payment in points: a whole number within :data:`MAX_POINTS`, or
    LogFormatError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LogFormatError(f"{what} {value!r} is not a number")
    if isinstance(value, float) and not value.is_integer():
        raise LogFormatError(f"{what} {value!r} is not a whole number of points")
    if abs(value) > MAX_POINTS:
        raise LogFormatError(f"{what} {_short(value)} is out of range")
    return int(value)


def counter(value: object, what: str) -> int:
    """A recorded honba or riichi-stick count: a whole number from 0 to :data:`MAX_COUNTER`."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not value.is_integer())
    ):
        raise LogFormatError(f"{what} {value!r} is not a whole number")
    if not 0 <= value <= MAX_COUNTER:
        raise LogFormatError(f"{what} {_short(value)} is out of range")
    return int(value)


def final_points_value(value: object, what: str) -> float:
    """A recorded final result (after uma and oka) in thousands."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise LogFormatError(f"{what} {value!r} is not a number")
    if abs(value) > MAX_FINAL_POINTS:
        raise LogFormatError(f"{what} {_short(value)} is out of range")
    return float(value)


def ratings(values: Sequence[object], n: int) -> tuple[float, ...]:
    """The players' ratings of a log's header: ``n`` finite numbers (an mjlog's text, a
    tenhou.net/6 file's numbers), else none at all: metadata never fails a log, and NaN or an
    infinity would be written out as JSON no parser takes."""
    out: list[float] = []
    for value in values[:n]:
        if isinstance(value, bool):
            return ()
        try:
            x = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            return ()
        if not math.isfinite(x):
            return ()
        out.append(x)
    return tuple(out) if len(out) == n else ()


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 24 else text[:21] + "..."


def malformed(exc: BaseException) -> str:
    """What a KeyError / TypeError / ValueError / IndexError met while reading says, in words (no
    Python exception names in a message)."""
    if isinstance(exc, KeyError):
        return f"the field {exc.args[0]!r} is missing" if exc.args else "a field is missing"
    if isinstance(exc, IndexError):
        return "a list is shorter than the format requires"
    text = str(exc)
    return text if text else "a value has the wrong type"


def game_id_from_name(name: str) -> str:
    """The file name without its log suffixes (``x.mjlog.gz`` -> ``x``), as text (see
    :func:`mjcli.inputs.name_text`)."""
    base = name_text(PurePath(name).name)
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
    """A log file's text: gzip or not (every format: Mortal's datasets are gzipped mjai, a
    tenhou.net/6 download may be saved gzipped), UTF-8 with or without a byte-order mark."""
    data = maybe_gunzip(data, name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"{name}: not UTF-8 text (byte {exc.start})") from None
