"""How fast riichi simulation is: hanchan per second per core with the four seed policies.

Figures: (1) games played in one process, with the time split between the policies' decisions and
everything else (engine, wall, bridge, records); (2) the whole command's work (logs and Parquet
written) with 1 and 2 jobs; the target is at least 5 hanchan per second per core; (3) three-player
(``tenhou-sanma``, three of the seed policies) against four-player, CPU time per hanchan in the same
process: the target is at most 1.5x.
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from collections import defaultdict
from typing import Any

from mjcli.riichi.simulate.run import game_specs, simulate, table_rules

NAMES = ["akagi", "mahjongjoy", "greedy", "efficiency"]
GAMES = 40


class _Timed:
    """A policy wrapper adding the time spent in ``decide`` to a shared account."""

    def __init__(self, policy: Any, account: dict[str, float], counts: dict[str, int]) -> None:
        self.policy = policy
        self.name = policy.name
        self.account = account
        self.counts = counts

    def decide(self, view: Any, legal: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return self.policy.decide(view, legal)
        finally:
            self.account[self.name] += time.perf_counter() - t0
            self.counts[self.name] += 1


def _in_process() -> None:
    from mjcli.riichi.simulate.driver import play_game
    from mjcli.riichi.simulate.seats import PolicySeat

    account: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    seats = {}
    for n in NAMES:
        seat = PolicySeat(n)
        seat.policy = _Timed(seat.policy, account, counts)  # type: ignore[assignment]
        seats[n] = seat
    specs = game_specs(NAMES, GAMES, 2026, table_rules("tenhou", "hanchan"), duplicate=False)
    rounds = events = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for spec in specs:
        g = play_game(spec, [seats[p] for p in spec.policies])
        rounds += len(g.rounds)
        events += len(g.events)
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    policy_s = sum(account.values())
    print(
        f"in one process: {GAMES} hanchan, {rounds} rounds, {events} events in {dt:.2f} s ({cpu:.2f} s CPU)"
    )
    print(f"  {GAMES / dt:.1f} hanchan/s, {rounds / dt:.0f} rounds/s ({rounds / GAMES:.1f} rounds a hanchan)")
    print(f"  per CPU second (what one free core gives): {GAMES / cpu:.1f} hanchan")
    print(f"  policies {policy_s / dt:.0%} of the time, engine + table + bridge {1 - policy_s / dt:.0%}")
    for n in NAMES:
        us = 1e6 * account[n] / max(counts[n], 1)
        print(f"    {n:<11} {counts[n]:6d} decisions, {us:7.0f} us each")


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the worker processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _command(jobs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), _cpu()
        s = simulate(NAMES, GAMES, 7, out=os.path.join(tmp, "sim"), jobs=jobs)
        dt, cpu = time.perf_counter() - t0, _cpu() - c0
    print(
        f"simulate --games {GAMES} --jobs {jobs} (logs + Parquet written): {dt:.2f} s wall, {cpu:.2f} s CPU, "
        f"{s['games'] / dt:.1f} hanchan/s, {s['rounds'] / dt:.0f} rounds/s"
    )
    return dt


def _per_hanchan(names: list[str], rules: str, games: int) -> tuple[float, float]:
    """CPU seconds per hanchan and rounds per hanchan of ``games`` games played in this process."""
    from mjcli.riichi.simulate.driver import play_game
    from mjcli.riichi.simulate.run import seats_for

    specs = game_specs(names, games, 2026, table_rules(rules, "hanchan"), duplicate=False)
    seats = seats_for(names)
    rounds = 0
    c0 = time.process_time()
    for spec in specs:
        rounds += len(play_game(spec, [seats[p] for p in spec.policies]).rounds)
    return (time.process_time() - c0) / games, rounds / games


def _three_player() -> None:
    four, four_rounds = _per_hanchan(NAMES, "tenhou", GAMES // 2)
    three_names = ["akagi", "mahjongjoy", "efficiency"]
    three, three_rounds = _per_hanchan(three_names, "tenhou-sanma", GAMES // 2)
    print(
        f"three-player (tenhou-sanma, {','.join(three_names)}): {1000 * three:.0f} ms CPU a hanchan "
        f"({three_rounds:.1f} rounds) vs four-player {1000 * four:.0f} ms ({four_rounds:.1f} rounds): "
        f"{three / four:.2f}x the time (target at most 1.5x)"
    )


def run() -> None:
    print(f"cores visible: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} (other work shares them)")
    _three_player()
    _in_process()
    one = _command(1)
    two = _command(2)
    print(f"2 jobs vs 1: {one / two:.2f}x")


if __name__ == "__main__":
    run()
