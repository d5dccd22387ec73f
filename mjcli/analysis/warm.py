"""Imported for its effect, by the runner's forkserver only: the shanten tables loaded and the slice
cache seeded once in the server, so that every worker forked from it starts with them (instead of
each worker reading and building them again on its first lookup, about 0.2 s each)."""

from mjcli.analysis import shanten_calc

shanten_calc.reset_cache()
