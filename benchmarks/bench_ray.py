"""Replay and simulate on Ray against the process pool, in one run: hanchan/s of a riichi replay of
the shared Tenhou hanchan (every policy at every decision point) and games/s of a riichi simulation
(:data:`SIM_GAMES` seeded tonpuu games of :data:`SIM_PLAYERS`) on a local Ray with 2 CPUs
(the tables as parts, written by the tasks: what ``--ray --out`` does), with ``--jobs 2`` and on one
core; then Ray's cost per task (a task that does nothing), beside the pool's.

The Ray figure is what a run costs once Ray is up: its start (``ray.init``, 10-30 s here) is
printed apart, as a cluster that is already running does not pay it. Ray's workers start cold on
their first task (imports, shanten tables) like the pool's do. The machine is shared: the load
average is printed with the figures. The rows of the three runs are compared.
"""

from __future__ import annotations

import operator
import tempfile
import time
from pathlib import Path

import polars as pl

from benchmarks import SHARED_LOGS, load_average, tenhou_hanchan
from mjcli.ledger import PartedRun
from mjcli.riichi.policies import POLICY_NAMES
from mjcli.riichi.replay import TABLES, ReplayOptions, parted_options, run_replay
from mjcli.riichi.simulate.run import TABLES as SIM_TABLES
from mjcli.riichi.simulate.run import parted_options as sim_options
from mjcli.riichi.simulate.run import simulate, table_rules
from mjcli.runner import Processes, RayCluster, ordered_map

#: no-op tasks timed for the per-task cost
TASKS = 400
#: tasks sent one after the other (each waits for the one before): the round trip
ROUND_TRIPS = 40
#: games of the simulation timed (tonpuu, seed 1), and its players (simulate's default table)
SIM_GAMES = 64
SIM_PLAYERS = ("akagi", "mahjongjoy", "greedy", "efficiency")


def _replay(paths: list[Path], out: Path, backend, parted: bool) -> tuple[float, int, pl.DataFrame]:
    """(wall seconds, hanchan, decisions in input order) of one replay of ``paths``."""
    opts = ReplayOptions(tuple(POLICY_NAMES))
    run = PartedRun(out, TABLES, parted_options(opts), resume=False) if parted else None
    t0 = time.perf_counter()
    result = run_replay([(p, p.name) for p in paths], opts, out, backend=backend, parted=run)
    wall = time.perf_counter() - t0
    return wall, result.games, pl.read_parquet(result.decisions_path)


def _simulate(out: Path, backend, parted: bool) -> tuple[float, int, pl.DataFrame]:
    """(wall seconds, games, games table in game order) of one simulation."""
    from mjcli.riichi.policies import builtin_registry

    names = list(SIM_PLAYERS)
    registry = builtin_registry()
    run = None
    if parted:
        table = table_rules("tenhou", "tonpuu", names)
        options = sim_options(names, registry, table, 1, False, ("akagi",), False)
        run = PartedRun(out, SIM_TABLES, options, resume=False, folders=("logs",))
    stage = out / "stage"
    stage.mkdir(parents=True)
    t0 = time.perf_counter()
    summary = simulate(names, SIM_GAMES, 1, out=stage, length="tonpuu", backend=backend, parted=run)
    wall = time.perf_counter() - t0
    frame = run.scan("games").collect() if run is not None else pl.read_parquet(stage / "games.parquet")
    return wall, summary["games"], frame


def _per_task(backend) -> tuple[float, float]:
    """(ms per task with many in flight, ms per task in runs of 2 tasks) of a task that does nothing."""
    list(ordered_map(operator.is_not, list(range(20)), backend=backend))  # workers up
    t0 = time.perf_counter()
    assert all(ordered_map(operator.is_not, list(range(TASKS)), backend=backend))
    many = (time.perf_counter() - t0) / TASKS
    t0 = time.perf_counter()
    for i in range(ROUND_TRIPS):
        assert list(ordered_map(operator.is_not, [i, i + 1], backend=backend)) == [True, True]
    alone = (time.perf_counter() - t0) / (2 * ROUND_TRIPS)
    return 1000 * many, 1000 * alone


def run() -> None:
    paths = tenhou_hanchan()
    if not paths:
        print(f"  no logs under {SHARED_LOGS / 'tenhou-xml'}: skipped")
        return
    try:
        import ray  # noqa: F401
    except ImportError:
        print("  Ray is not installed (pip install 'mjcli[ray]'): skipped")
        return
    print(f"  {len(paths)} Tenhou hanchan, policies {', '.join(POLICY_NAMES)}; {load_average()}")
    cluster = RayCluster(None)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        with cluster.session():
            started = time.perf_counter() - t0
            cpus = cluster.workers()
            print(f"  Ray start here (ray.init, {cpus} CPUs): {started:.1f} s (not counted below)")
            ray_wall, games, ray_rows = _replay(paths, Path(tmp) / "ray", cluster, parted=True)
            sim_ray = _simulate(Path(tmp) / "sim-ray", cluster, parted=True)
            ray_many, ray_alone = _per_task(cluster)
        pool_wall, _, pool_rows = _replay(paths, Path(tmp) / "j2", Processes(2), parted=False)
        one_wall, _, one_rows = _replay(paths, Path(tmp) / "j1", Processes(1), parted=False)
        sim_pool = _simulate(Path(tmp) / "sim-j2", Processes(2), parted=False)
        sim_one = _simulate(Path(tmp) / "sim-j1", Processes(1), parted=False)
        pool_many, pool_alone = _per_task(Processes(2))
    for name, wall in ((f"Ray, {cpus} CPUs", ray_wall), ("--jobs 2", pool_wall), ("one core", one_wall)):
        print(
            f"  {name:<14} {wall:7.2f} s  {games / wall:5.2f} hanchan/s  x{one_wall / wall:.2f} of one core"
        )
    same = ray_rows.equals(pool_rows) and pool_rows.equals(one_rows)
    print(f"  the same {ray_rows.height} rows in the three runs: {same}")
    print(f"  simulate: {SIM_GAMES} tonpuu games, policies {', '.join(SIM_PLAYERS)}; {load_average()}")
    for name, (wall, played, _) in (
        (f"Ray, {cpus} CPUs", sim_ray),
        ("--jobs 2", sim_pool),
        ("one core", sim_one),
    ):
        speed = f"{played / wall:5.2f} games/s"
        print(f"  {name:<14} {wall:7.2f} s  {speed:<15} x{sim_one[0] / wall:.2f} of one core")
    same = sim_ray[2].equals(sim_pool[2]) and sim_pool[2].equals(sim_one[2])
    print(f"  the same {sim_ray[2].height} rows of games in the three runs: {same}")
    print(
        f"  per task (a task that does nothing), many in flight: Ray {ray_many:.2f} ms, the pool "
        f"{pool_many:.2f} ms; in runs of 2 tasks: Ray {ray_alone:.2f} ms, the pool {pool_alone:.2f} ms "
        f"(each pool run starts its 2 workers; Ray's stay up)"
    )
