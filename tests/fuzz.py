"""``make fuzz``: the fuzz targets of ``fuzzing.py`` for a time budget each, with the counts printed.

    python tests/fuzz.py [--seconds 60]

Each target runs in rounds of hypothesis examples (fresh random seeds every round) until its share
of the budget is used up; the first input that gives anything but a result or a one-line project
error stops the run with hypothesis' report of it (shrunk), and exit code 1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzzing import (
    doudizhu_corpus,
    doudizhu_reader,
    hand_parsers,
    hand_text,
    hk_corpus,
    hk_reader,
    mutated,
    random_bytes,
    riichi_corpus,
    riichi_reader,
    swapped,
)
from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import SearchStrategy

ROUND = 100


def run_for(name: str, strategy: SearchStrategy, target: Callable[[object], None], seconds: float) -> int:
    """Rounds of ``ROUND`` examples until ``seconds`` have passed; the number of inputs tried."""
    count = 0

    @settings(
        max_examples=ROUND,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def one(value: object) -> None:
        nonlocal count
        count += 1
        target(value)

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        one()
    print(f"fuzz {name}: {count} inputs, no failure", flush=True)
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per target [default: 60]")
    seconds = parser.parse_args().seconds
    riichi = riichi_corpus()
    with tempfile.TemporaryDirectory() as scratch:
        doudizhu = doudizhu_corpus(Path(scratch))
        hk = hk_corpus()
        targets: list[tuple[str, SearchStrategy, Callable[[object], None]]] = [
            ("riichi readers, mutated logs", mutated(riichi), riichi_reader),
            ("riichi readers, random bytes", random_bytes, riichi_reader),
            ("riichi engine, mutated logs", mutated(riichi), lambda d: riichi_reader(d, engine=True)),
            ("doudizhu records, mutated", mutated(doudizhu), lambda d: doudizhu_reader(d, Path(scratch))),
            ("hk logs, mutated", mutated(hk), lambda d: hk_reader(d, Path(scratch))),
            ("hk logs, values of other types", swapped(hk), lambda d: hk_reader(d, Path(scratch))),
            ("hand parsers, random strings", hand_text, hand_parsers),
        ]
        total = sum(run_for(name, strategy, target, seconds) for name, strategy, target in targets)
    print(f"fuzz: {total} inputs in all, no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
