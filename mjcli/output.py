"""Output helpers shared by the commands: JSON lines, plain text tables (also of Polars frames) and
the progress bar."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl
    from tqdm import tqdm


def emit_json(obj: Any) -> None:
    """One JSON object on one line of stdout (NDJSON when called once per input)."""
    sys.stdout.write(json_line(obj))


def json_line(obj: Any) -> str:
    """``obj`` as one line of JSON, UTF-8 text whatever its strings hold: the bytes of a file name
    that is not UTF-8 (kept by Python as lone surrogates, in a file's own field or inside an error
    message that names it) are written as ``\\xff`` text, as :func:`mjcli.inputs.name_text`
    writes them, and any other lone surrogate as its JSON escape (the output was not UTF-8)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = _SURROGATE.sub(_surrogate_text, text)
    return text + "\n"


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_text(match: re.Match[str]) -> str:
    code = ord(match.group())
    # a surrogate can only stand inside a JSON string here: escaped so that the string reads back
    return f"\\\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], align: str | None = None) -> str:
    """A plain aligned text table. ``align`` is one char per column: 'l' or 'r' (default: left)."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))
    align = align or "l" * len(headers)

    def line(values: Sequence[str]) -> str:
        parts = [
            v.rjust(w) if a == "r" else v.ljust(w) for v, w, a in zip(values, widths, align, strict=True)
        ]
        return "  ".join(parts).rstrip()

    out = [line(list(headers)), line(["-" * w for w in widths])]
    out.extend(line(r) for r in cells)
    return "\n".join(out)


def frame_text(df: pl.DataFrame, *, width: int, str_len: int, align_right: bool = False) -> str:
    """A Polars frame as a Markdown-style text table: every row and column, no shape or type lines.

    ``width`` caps the table width in characters, ``str_len`` the shown length of a string cell;
    ``align_right`` right-aligns the cells. Polars is imported here, not at the top, so commands
    that only use the JSON and plain-table helpers do not pay for loading it."""
    import polars as pl

    options: dict[str, Any] = {
        "tbl_rows": -1,
        "tbl_cols": -1,
        "tbl_hide_dataframe_shape": True,
        "tbl_hide_column_data_types": True,
        "tbl_width_chars": width,
        "fmt_str_lengths": str_len,
        "tbl_formatting": "ASCII_MARKDOWN",
    }
    if align_right:
        # Set only when asked: passing None would also clear an alignment set in the environment.
        options["tbl_cell_alignment"] = "RIGHT"
    with pl.Config(**options):
        return str(df)


@contextmanager
def terminal_bar(total: int | None = None, *, unit: str, leave: bool = True) -> Iterator[tqdm | None]:
    """A tqdm bar on stderr, closed when the block ends; None when stderr is not a terminal, so that
    piped or logged runs get no bar lines. tqdm is imported only when a bar is shown."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    class Bar(tqdm):
        # No monitor thread (it only adjusts ``miniters`` of a bar whose updates slow down): a
        # process running no other thread may fork its --jobs workers (mjcli.runner.forks_workers).
        monitor_interval = 0

    bar = Bar(total=total, unit=unit, file=sys.stderr, leave=leave)
    try:
        yield bar
    finally:
        bar.close()


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games`` (``many``: the plural when it is not ``word + "s"``)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def games_rate(games: int, seconds: float, kept_deals: int = 0, digits: int = 1) -> str:
    """A simulation's speed for its closing line, ``"12.3 games/s"``. A resumed run's figure counts
    the games of the deals it kept from the earlier run (played then, read back now), and says so."""
    rate = games / seconds if seconds else 0.0
    text = f"{rate:.{digits}f} games/s"
    return f"{text} counting {plural(kept_deals, 'kept deal')}" if kept_deals else text
