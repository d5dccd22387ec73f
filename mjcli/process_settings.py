"""Settings of a process that runs mjcli's work from start to end: the ``mjcli`` command's own
process (:func:`mjcli.cli.main`) and the worker processes of ``--jobs`` (:mod:`mjcli.runner`).
Nothing here is applied by importing mjcli as a library: a program that embeds it keeps its own.

Both are measured in ``python -m benchmarks speed`` (the rows named at each)."""

from __future__ import annotations

import gc
import os

#: the setting of Polars' own allocator (jemalloc, on Linux) unless the user set one: one arena
#: instead of four per core. Polars reads ``_RJEM_MALLOC_CONF`` when it is imported and appends it
#: to its own defaults (polars/__init__.py; pola-rs/polars#23128 names it the way to tune its
#: jemalloc). With an arena per thread, the frames the main thread builds and the Parquet the pool
#: threads write sit in different arenas and their freed pages are not reused across them: one
#: arena took a replay of 19 hanchan from 203-208 to 192-196 MiB peak (3 alternated pairs, same CPU;
#: "peak memory, replay"). The commands' Polars work is a few threads writing and summing tables, where one
#: arena's lock costs nothing measurable. Workers inherit it.
POLARS_ALLOCATOR = ("_RJEM_MALLOC_CONF", "narenas:1")

#: Python's cycle collector runs after 20,000 new container objects instead of 700, and its older
#: generations after 20 runs of the younger instead of 10. A run keeps tens of thousands of young
#: tuples and dicts alive for a while (a game's events and rows, the hand memos) and makes almost
#: no reference cycles: at 700 the collector walked them again and again, 6% of a replay's CPU
#: (19 hanchan: 138 young and 12 middle collections, 130 ms, and one full one, 44-51 ms) and 13%
#: of a verify's; at these settings 60-80 ms and 10 ms, no full collection (measured with
#: ``gc.callbacks``). Garbage cycles wait longer, a few MB at most; long runs still collect the old
#: generation now and then, so memory stays flat in the number of logs.
COLLECTOR_THRESHOLDS = (20_000, 20, 20)


def apply() -> None:
    """Give this process the settings above (before it imports Polars, for the allocator's)."""
    os.environ.setdefault(*POLARS_ALLOCATOR)
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
