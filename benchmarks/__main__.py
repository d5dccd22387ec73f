"""Run every ``benchmarks/bench_*.py`` (or the ones named on the command line) and print their figures."""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def available() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))


def main(argv: list[str]) -> int:
    names = available()
    wanted = [a.removeprefix("bench_").removesuffix(".py") for a in argv] or names
    unknown = [w for w in wanted if w not in names]
    if unknown:
        print(f"error: no benchmark named {', '.join(unknown)} (have: {', '.join(names)})", file=sys.stderr)
        return 2
    for name in wanted:
        module = importlib.import_module(f"benchmarks.bench_{name}")
        print(f"==== {name} " + "=" * max(0, 60 - len(name)), flush=True)
        start = time.perf_counter()
        module.run()
        print(f"---- {name}: {time.perf_counter() - start:.1f} s\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
