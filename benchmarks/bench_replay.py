"""Replay throughput: the shared complete Tenhou hanchan, every policy at every decision point.

Prints, per core (one process), hanchan per second and decisions per second, where the time goes
(the engine walk with views and legal actions, each policy, the shanten/ukeire columns), and the
wall-clock scaling of the whole ``replay`` run (Parquet included) from 1 to 2 worker processes.
The target is >= 5 hanchan/s/core with the four policies together. Then three-player: the Tenhou
logs of ``fixtures/sanma`` replayed in the same process beside the four-player ones, CPU time per
game and per round (the target: at most 1.5x four-player's per hanchan).

The per-core figure is steady state: one game is replayed first (imports, the shanten tables'
slice caches); the memos of hands belong to a :class:`~mjcli.riichi.policies.hand_math.HandMath`,
which replay makes new for each file, so no timed run profits from having seen the same games
before. It is given in CPU time of this
process (the machine is shared: other load does not count) and in wall time. The load average is
printed with the figures, since wall times and the scaling depend on it.
"""

from __future__ import annotations

import gc
import os
import tempfile
import time
from pathlib import Path

from benchmarks import load_average, tenhou_hanchan
from mjcli.riichi.formats import read_log
from mjcli.riichi.policies import POLICY_NAMES, HandMath, get_policy
from mjcli.riichi.replay import (
    Columns,
    ReplayOptions,
    add_rows,
    ask,
    decisions_of,
    prepare_hands,
    replay_file,
    run_replay,
)

SANMA = Path(__file__).resolve().parents[1] / "fixtures" / "sanma"
TARGET = 5.0


def _warm(paths: list[Path]) -> None:
    replay_file(paths[0], paths[0].name, ReplayOptions(tuple(POLICY_NAMES)))


def _one_core(paths: list[Path]) -> tuple[int, int, float, float]:
    """(hanchan, decision points, CPU seconds, wall seconds) of replay_file on every path, all
    policies, one process."""
    opts = ReplayOptions(tuple(POLICY_NAMES))
    games = points = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for p in paths:
        r = replay_file(p, p.name, opts)
        games += r.game_count
        points += r.decisions.height // len(POLICY_NAMES)
    return games, points, time.process_time() - cpu, time.perf_counter() - wall


def _split(paths: list[Path]) -> None:
    """CPU time of each stage on the same games, per hanchan, in the order replay runs them (the
    policies asked later and the row figures find some hands already worked out, as in replay)."""
    logs = [g for p in paths for g in read_log(p)]
    gc.disable()  # as replay_game does while it replays a game
    try:
        _stages(logs)
    finally:
        gc.enable()


def _stages(logs: list) -> None:
    t0 = time.process_time()
    for g in logs:  # streaming, as replay walks (keeping every view would time the collector)
        for _ in decisions_of(g.events):
            pass
    walk = time.process_time() - t0
    per_game = [list(decisions_of(g.events)) for g in logs]
    decisions = [d for points in per_game for d in points]
    n = len(logs)
    print(
        f"  engine walk, views, legal actions   {1000 * walk / n:6.1f} ms/hanchan "
        f"({len(decisions) / n:.0f} points)"
    )
    answers = []
    # one for the policies and the figures, as replay has it; its memos large enough to keep every
    # game's hands (replay asks a game's policies right after preparing its hands)
    math = HandMath(memo_limit=1 << 22)
    t0 = time.process_time()
    for points in per_game:  # as replay_game does: each game's hands in one batch
        prepare_hands(math, points)
    print(f"  hands in one numpy batch a game     {1000 * (time.process_time() - t0) / n:6.1f} ms/hanchan")
    for name in POLICY_NAMES:
        policy = get_policy(name, math=math)
        t0 = time.process_time()
        answers.append([(name, ask(policy, name, d, "bench")) for d in decisions])
        print(f"  policy {name:<28} {1000 * (time.process_time() - t0) / n:6.1f} ms/hanchan")
    cols = Columns()
    t0 = time.process_time()
    for i, d in enumerate(decisions):
        add_rows(cols, d, [a[i] for a in answers], "bench", "", 0, math)
    frame = cols.frame()
    print(
        f"  rows: figures, text, frame          {1000 * (time.process_time() - t0) / n:6.1f} ms/hanchan "
        f"({frame.height} rows)"
    )


def _scaling(paths: list[Path]) -> None:
    inputs = [(p, p.name) for p in paths]
    opts = ReplayOptions(tuple(POLICY_NAMES))
    walls = {}
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in (1, 2):
            t0 = time.perf_counter()
            run = run_replay(inputs, opts, Path(tmp) / f"j{jobs}", jobs=jobs)
            walls[jobs] = time.perf_counter() - t0
            print(
                f"  --jobs {jobs}: {walls[jobs]:6.2f} s wall, {run.games / walls[jobs]:5.2f} hanchan/s "
                f"({run.rows} rows written)"
            )
        same = (Path(tmp) / "j1" / "decisions.parquet").read_bytes() == (
            Path(tmp) / "j2" / "decisions.parquet"
        ).read_bytes()
    print(
        f"  speed-up 1 -> 2 jobs: x{walls[1] / walls[2]:.2f} on {os.cpu_count()} cores "
        f"(the 2 workers start cold: imports, tables; {load_average()}); identical files: {same}"
    )


def _per_game(paths: list[Path], repeat: int) -> tuple[float, float, int, int]:
    """(CPU seconds a game, CPU seconds a round, games, rounds) of replay_file over ``paths``,
    ``repeat`` times, all policies, in this process."""
    opts = ReplayOptions(tuple(POLICY_NAMES))
    games = rounds = 0
    cpu = time.process_time()
    for _ in range(repeat):
        for p in paths:
            r = replay_file(p, p.name, opts)
            games += r.game_count
            rounds += int(r.games.unique("game")["rounds"].sum())  # a row per seat: one per game
    cpu = time.process_time() - cpu
    return cpu / games, cpu / rounds, games, rounds


def _three_player(paths: list[Path]) -> None:
    sanma = sorted(p for p in SANMA.iterdir() if p.suffix in (".mjlog", ".json", ".mjson"))
    _warm(sanma)
    four, four_round, g4, r4 = _per_game(paths, 1)
    three, three_round, g3, r3 = _per_game(sanma, 5)
    print(
        f"three-player replay ({g3} games of fixtures/sanma, {r3 / g3:.1f} rounds each): "
        f"{1000 * three:.0f} ms CPU a game, {1000 * three_round:.1f} ms a round; four-player "
        f"({g4} hanchan, {r4 / g4:.1f} rounds each): {1000 * four:.0f} ms a game, "
        f"{1000 * four_round:.1f} ms a round: {three / four:.2f}x a game, {three_round / four_round:.2f}x "
        "a round (target at most 1.5x)"
    )


def run() -> None:
    paths = tenhou_hanchan()
    print(f"before: {load_average()}")
    _warm(paths)
    games, points, cpu, wall = _one_core(paths)
    rate = games / cpu
    print(
        f"replay, {len(POLICY_NAMES)} policies, one core: {rate:5.2f} hanchan/s CPU time "
        f"({games / wall:5.2f} wall), {points / cpu:7.0f} decision points/s, "
        f"{len(POLICY_NAMES) * points / cpu:7.0f} policy decisions/s "
        f"({games} hanchan, {points / games:.0f} points each; target >= {TARGET} hanchan/s/core: "
        f"{'met' if rate >= TARGET else 'NOT met'})"
    )
    print("where the time goes (one core, CPU time):")
    _split(paths)
    print("scaling (whole command path, Parquet included):")
    _scaling(paths)
    _three_player(paths)


if __name__ == "__main__":
    run()
