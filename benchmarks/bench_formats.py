"""How fast the log readers and writers are on the shared logs (games per second, per format)."""

from __future__ import annotations

import time

from benchmarks import SHARED_LOGS
from mjcli.riichi.engine.events import StartRound
from mjcli.riichi.formats import read_bytes, write_game

LOGS = SHARED_LOGS


def _rate(label: str, blobs: list[tuple[str, bytes]], repeat: int) -> None:
    t0 = time.perf_counter()
    rounds = 0
    for _ in range(repeat):
        for name, data in blobs:
            for g in read_bytes(data, name):
                rounds += sum(isinstance(e, StartRound) for e in g.events)
    dt = time.perf_counter() - t0
    n = len(blobs) * repeat
    print(f"read {label:<28} {n / dt:8.1f} files/s  {rounds / dt:9.1f} rounds/s  ({n} files, {dt:.2f} s)")


def run() -> None:
    hanchan = sorted((LOGS / "tenhou-xml").glob("20*.mjlog"))
    hanchan = [p for p in hanchan if "no-" not in p.name]
    xml = [(str(p), p.read_bytes()) for p in hanchan]
    t6 = [(str(p), p.read_bytes()) for p in sorted((LOGS / "tenhou6").glob("*.json"))]
    mjai = [(str(p), p.read_bytes()) for p in sorted((LOGS / "mjai").glob("*.jsonl"))]
    _rate("tenhou XML (hanchan)", xml, 5)
    _rate("tenhou.net/6 (hanchan)", t6, 5)
    _rate("mjai (hanchan)", mjai, 10)
    games = [g for name, data in xml for g in read_bytes(data, name)]
    for fmt in ("tenhou6", "mjai"):
        t0 = time.perf_counter()
        for _ in range(5):
            for g in games:
                write_game(g, fmt)
        dt = time.perf_counter() - t0
        print(f"write {fmt:<27} {5 * len(games) / dt:8.1f} games/s")


if __name__ == "__main__":
    run()
