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
#: arena's lock costs nothing measurable. And freed pages go back to the system at once, not after
#: Polars' 0.5 s and 1 s decays (``dirty_decay_ms:500,muzzy_decay_ms:1000``, its defaults): a run
#: makes and drops a frame per log, and the pages of the last few stayed held. Replay of 19 hanchan
#: 161 / 161 / 163 -> 155 / 154 / 156 MiB peak, of 60 distinct simulated hanchan 176 / 179 / 178
#: -> 170 / 170 / 168 MiB, CPU the same (8.02 against 8.04 s, medians; alternated). Workers inherit it.
POLARS_ALLOCATOR = ("_RJEM_MALLOC_CONF", "narenas:1,dirty_decay_ms:0,muzzy_decay_ms:0")

#: numpy's BLAS (OpenBLAS, in numpy's wheels) runs on one thread unless the user set its count.
#: Otherwise importing numpy starts a thread per core that spins, waiting for work, for a while:
#: 0.10-0.15 s of CPU per process that imports numpy (numpy/numpy#29193, OpenMathLib/OpenBLAS#5171;
#: mjcli's matrix products are a few columns wide, never worth a second thread), and a process
#: with that thread cannot fork its workers (:func:`mjcli.runner.forks_workers`) when a plugin
#: imported numpy. Measured: ``mjcli shanten - --json`` of one hand 0.42 -> 0.27 s CPU (median of 15
#: alternated runs); bench rows ``shanten - --json`` and the ``--jobs`` rows, whose workers import it.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "1")

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
    """Give this process the settings above (before it imports Polars and numpy: the allocator's and
    the BLAS threads' are read then)."""
    os.environ.setdefault(*POLARS_ALLOCATOR)
    os.environ.setdefault(*BLAS_THREADS)
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
