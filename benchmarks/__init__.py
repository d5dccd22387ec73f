"""Benchmarks: each ``benchmarks/bench_<topic>.py`` has a ``run()`` that prints its figures.

Run them all with ``make bench`` (``python -m benchmarks``) or some: ``python -m benchmarks shanten``.
"""
