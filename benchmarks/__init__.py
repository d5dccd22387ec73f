"""Benchmarks: each ``benchmarks/bench_<topic>.py`` has a ``run()`` that prints its figures.

Run them all with ``make bench`` (``python -m benchmarks``) or some: ``python -m benchmarks shanten``.
"""

import os
from pathlib import Path

#: the real logs beside the checkout (../shared/logs), read in place
SHARED_LOGS = Path(__file__).resolve().parents[2] / "shared" / "logs"


def tenhou_hanchan() -> list[Path]:
    """The complete Tenhou hanchan of the shared logs (the deliberately truncated copies left out)."""
    return [p for p in sorted((SHARED_LOGS / "tenhou-xml").glob("20*.mjlog")) if "no-" not in p.name]


def load_average() -> str:
    """The machine's load as a benchmark prints it beside its figures."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:  # pragma: no cover - no load average on this system
        return "load average unknown"
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"
