"""How fast Hong Kong simulation is: games (one East round) per second per core with the four seed
bots (hk-pm0, hk-pm8, hk-pm16, hk-pm16plus), the target being at least 20.

Figures: (1) games played in one process, per wall second and per CPU second (what one free core
gives), with the time split between the bots' decisions and the rest (engine, wall, records);
(2) the whole command's work (logs and Parquet written) with 1 and 2 jobs; (3) the references
measured in the same run: riichi simulation (tonpuu, its four policies) on this machine now, and
the faan scorer against PyPI hk-mahjong's (in its test-only venv, when ``make peers`` has made it).
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from mjcli.hk.rules import get_rules
from mjcli.hk.simulate import game_specs, play_game, simulate

NAMES = ["hk-pm0", "hk-pm8", "hk-pm16", "hk-pm16plus"]
GAMES = 40
TARGET = 20.0
ROOT = Path(__file__).resolve().parents[1]


class _Timed:
    def __init__(self, policy: Any, account: dict[str, float], counts: dict[str, int]) -> None:
        self.policy, self.name, self.account, self.counts = policy, policy.name, account, counts

    def decide(self, view: Any, legal: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return self.policy.decide(view, legal)
        finally:
            self.account[self.name] += time.perf_counter() - t0
            self.counts[self.name] += 1


def _in_process() -> float:
    from mjcli.hk.policies import get_policy

    account: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    bots = {n: _Timed(get_policy(n), account, counts) for n in NAMES}
    specs = game_specs(NAMES, GAMES, 2026, get_rules("hk"), duplicate=False)
    hands = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for spec in specs:
        hands += len(play_game(spec, bots).rounds)  # type: ignore[arg-type]
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    policy_s = sum(account.values())
    print(f"in one process: {GAMES} games (East round), {hands} hands in {dt:.2f} s ({cpu:.2f} s CPU)")
    print(f"  {GAMES / dt:.1f} games/s, {hands / dt:.0f} hands/s ({hands / GAMES:.1f} hands a game)")
    print(f"  per CPU second (what one free core gives): {GAMES / cpu:.1f} games (target {TARGET:.0f})")
    print(f"  bots {policy_s / dt:.0%} of the time, engine + records {1 - policy_s / dt:.0%}")
    for n in NAMES:
        us = 1e6 * account[n] / max(counts[n], 1)
        print(f"    {n:<12} {counts[n]:6d} decisions, {us:6.0f} us each")
    return GAMES / cpu


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _command(jobs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), _cpu()
        s = simulate(NAMES, GAMES, 7, get_rules("hk"), out=os.path.join(tmp, "sim"), jobs=jobs)
        dt, cpu = time.perf_counter() - t0, _cpu() - c0
    print(
        f"simulate --game hk --games {GAMES} --jobs {jobs} (logs + Parquet written): {dt:.2f} s wall, "
        f"{cpu:.2f} s CPU, {s['games'] / dt:.1f} games/s, {s['hands'] / dt:.0f} hands/s"
    )
    return dt


def _riichi_reference() -> float:
    from mjcli.riichi.simulate.run import game_specs as riichi_specs
    from mjcli.riichi.simulate.run import play, seats_for, table_rules

    names = ["akagi", "mahjongjoy", "greedy", "efficiency"]
    specs = riichi_specs(names, 12, 2026, table_rules("tenhou", "tonpuu"), duplicate=False)
    seats = seats_for(names)
    c0 = time.process_time()
    rounds = sum(len(play(spec, seats).rounds) for spec in specs)
    cpu = time.process_time() - c0
    print(
        f"reference, riichi tonpuu (same run): {len(specs) / cpu:.1f} games/CPU s, "
        f"{rounds / cpu:.0f} rounds/CPU s"
    )
    return len(specs) / cpu


def _scoring_reference() -> None:
    peer = ROOT / ".venv-peers" / "hk" / "bin" / "python"
    tests = ROOT / "tests"
    if not peer.exists():
        print("reference, hk-mahjong's scorer: not measured (run `make peers` first)")
        return
    sys.path.insert(0, str(tests))
    import dataclasses

    from test_hk_peer import ORACLE, ours, random_hand  # the cross-check test's generator and adapter

    rng = random.Random(1)
    hands = [random_hand(rng) for _ in range(2000)]
    rules = dataclasses.replace(get_rules("hk"), min_faan=0)
    t0 = time.perf_counter()
    for h in hands:
        ours(h, rules)
    mine = time.perf_counter() - t0
    text = "".join(json.dumps(h) + "\n" for h in hands)
    t0 = time.perf_counter()
    subprocess.run([str(peer), str(ORACLE)], input="", capture_output=True, text=True, check=True)
    start_up = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run([str(peer), str(ORACLE)], input=text, capture_output=True, text=True, check=True)
    theirs = time.perf_counter() - t0 - start_up
    print(
        f"scoring {len(hands)} random winning hands: mjcli {len(hands) / mine:.0f} hands/s, "
        f"hk-mahjong 0.1.0 {len(hands) / max(theirs, 1e-9):.0f} hands/s (its start-up taken off): "
        f"{theirs / mine:.2f}x"
    )


def run() -> None:
    print(f"cores visible: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} (other work shares them)")
    simulate(NAMES, 2, 99, get_rules("hk"))  # warm the bots' caches
    hk = _in_process()
    one = _command(1)
    two = _command(2)
    print(f"2 jobs vs 1: {one / two:.2f}x")
    riichi = _riichi_reference()
    print(f"Hong Kong games per riichi tonpuu game, per CPU second: {hk / riichi:.2f}x")
    _scoring_reference()


if __name__ == "__main__":
    run()
