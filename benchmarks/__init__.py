"""Benchmarks: each ``benchmarks/bench_<topic>.py`` has a ``run()`` that prints its figures.

Run them all with ``make bench`` (``python -m benchmarks``) or some: ``python -m benchmarks shanten``.
"""

from pathlib import Path

#: the real logs beside the checkout (../shared/logs), read in place
SHARED_LOGS = Path(__file__).resolve().parents[2] / "shared" / "logs"
