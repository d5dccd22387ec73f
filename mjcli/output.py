"""Output helpers shared by the commands: JSON lines and plain text tables."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any


def emit_json(obj: Any) -> None:
    """One JSON object on one line of stdout (NDJSON when called once per input)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")


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
