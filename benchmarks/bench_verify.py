"""How fast verify is on the shared complete hanchan: parsing + full engine + scoring every win.

Figures are per core (one process): hanchan verified per second, split into the read and the
engine's share, for each format holding complete games; then the three-player Tenhou logs of
``fixtures/sanma`` (one per format), their time per hanchan beside four-player's (the target is at
most 1.5x four-player's time). On a shared machine the wall-clock rate
also measures the other processes: the CPU-time rate (this process's own seconds) and the load
average are printed beside it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from benchmarks import SHARED_LOGS
from mjcli.riichi.formats import read_bytes
from mjcli.riichi.verify import OK, verify_log

LOGS = SHARED_LOGS
SANMA = Path(__file__).resolve().parents[1] / "fixtures" / "sanma"


def _files() -> dict[str, list[Path]]:
    xml = [p for p in sorted((LOGS / "tenhou-xml").glob("20*.mjlog")) if "no-" not in p.name]
    return {
        "tenhou XML": xml,
        "tenhou.net/6": sorted((LOGS / "tenhou6").glob("*.json")),
        "mjai": sorted((LOGS / "mjai").glob("*.jsonl")),
    }


def _rate(label: str, paths: list[Path], repeat: int) -> tuple[int, float]:
    blobs = [(str(p), p.read_bytes()) for p in paths]
    read_s = engine_s = 0.0
    games = rounds = bad = 0
    for _ in range(repeat):
        for name, data in blobs:
            t0 = time.perf_counter()
            logs = read_bytes(data, name)
            t1 = time.perf_counter()
            for g in logs:
                r = verify_log(g)
                games += 1
                rounds += r.rounds
                bad += r.status != OK
            engine_s += time.perf_counter() - t1
            read_s += t1 - t0
    total = read_s + engine_s
    print(
        f"verify {label:<14} {games / total:7.1f} hanchan/s  {rounds / total:8.1f} rounds/s  "
        f"(read {1000 * read_s / games:.1f} ms + engine {1000 * engine_s / games:.1f} ms per game; "
        f"{games} games, {bad} not ok)"
    )
    return games, total


def run() -> None:
    games = 0
    total = 0.0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cpu = time.process_time()
    for label, paths in _files().items():
        g, t = _rate(label, paths, 3)
        games += g
        total += t
    cpu = time.process_time() - cpu
    print(f"verify all formats     {games / total:7.1f} hanchan/s per core (target >= 50)")
    sanma = sorted(p for p in SANMA.iterdir() if p.suffix in (".mjlog", ".json", ".mjson"))
    g3, t3 = _rate("three-player", sanma, 10)
    print(
        f"three-player vs four-player: {1000 * t3 / g3:.1f} vs {1000 * total / games:.1f} ms a hanchan "
        f"({t3 / g3 / (total / games):.2f}x the time, target at most 1.5x)"
    )
    print(
        f"                       {games / cpu:7.1f} hanchan/s per CPU second of this process "
        f"(load average {load:.1f} on {os.cpu_count()} cores at the start)"
    )


if __name__ == "__main__":
    run()
