"""Imported for its effect, by the process the runner forks its workers from (its forkserver, or the
command's own process where it forks them, see :func:`mjcli.runner.forks_workers`), before the first
fork: the shanten tables loaded and the slice cache seeded once there, so that every worker starts
with them (instead of each worker reading and building them again on its first lookup, about
0.1-0.2 s each)."""

from mjcli.analysis import shanten_calc

shanten_calc.reset_cache()
