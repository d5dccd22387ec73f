"""Speed where users wait, every row as a ratio against a peer measured in the same run.

Rows (the table of the speed issue; README "Speed" has the figures of one run):

* start-up: ``mjcli shanten HAND``, ``score``, ``advise HAND`` and ``--help`` as commands, against a
  ``python -c`` one-liner that imports `mahjong` and counts one hand's shanten (same interpreter and
  venv, alternated, medians);
* scoring one win: the engine's path (``explain=False``), the explained ``score`` and a repeat
  through :class:`~mjcli.riichi.scoring.ScoreCache`, against `mahjong`'s ``estimate_hand_value``
  on the same wins (ids prepared, a ``HandConfig`` per call as its users build one);
* ``mjcli shanten - --json``: a stdin batch of random 13/14-tile hands end to end (CPU time of the
  command), against `mahjong` in-process counting the shanten of the same lines (parse + count);
  the same work with `mahjong` (every discard's improving tiles) is timed on a sample too;
* replay, one core: hanchan per CPU second, the four policies, the shared Tenhou hanchan;
* walk a log: every decision point with its legal actions (the engine walk replay does), games/s;
* self-play with a first-legal policy in every seat: hanchan per CPU second;
* ``replay --jobs 2`` against ``--jobs 1``, wall time, and the peak memory (max RSS) of the run.

Every ratio is a time ratio, mjcli's time over the peer's for the same work: below 1 is faster.

Peers: `mahjong` is a dependency. ``xiangting`` and ``riichienv`` (Rust, on PyPI) are measured when
installed (``pip install -e '.[bench]'``); without them their columns say "skipped". The machine
may be shared: every ratio is of two figures taken in this run, alternated where it matters, and
the load average is printed. Sizes: ``MJCLI_BENCH_HANDS`` (batch, default 20000).
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks import SHARED_LOGS

BIN = Path(sys.executable).parent
HAND = "123m456p789s1122z"
PEER_ONE_LINER = (
    "from mahjong.shanten import Shanten; from mahjong.tile import TilesConverter as T; "
    "print(Shanten().calculate_shanten(T.string_to_34_array(man='123', pin='456', sou='789', honors='1122')))"
)
STARTUP = {
    "shanten HAND": ["shanten", HAND],
    "score": ["score", "234m456p678s11222z", "--win", "2z", "--tsumo"],
    "advise HAND": ["advise", "123m456p789s11223z"],
    "--help": ["--help"],
}


def _row(work: str, ours: str, peer: str, ratio: str, target: str) -> None:
    print(f"  {work:<34} {ours:>20} {peer:>26} {ratio:>10}   target {target}")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


#: the commands run as a user's would: with the .pyc files written (a PYTHONDONTWRITEBYTECODE=1 in
#: the bench's own environment would make every start-up compile mjcli from source, ~0.15 s more)
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _timed_run(argv: list[str], stdin: Path | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds of one command."""
    cpu, wall = _children_cpu(), time.perf_counter()
    with open(stdin or os.devnull, "rb") as f:
        subprocess.run(
            argv, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=_ENV
        )
    return time.perf_counter() - wall, _children_cpu() - cpu


def startup(rounds: int = 7) -> None:
    env_argv = {"peer": [str(BIN / "python"), "-c", PEER_ONE_LINER]}
    env_argv |= {name: [str(BIN / "mjcli"), *args] for name, args in STARTUP.items()}
    times: dict[str, list[float]] = {name: [] for name in env_argv}
    for r in range(rounds + 1):
        for name, argv in env_argv.items():
            wall, _ = _timed_run(argv)
            if r:  # the first round writes the .pyc files
                times[name].append(wall)
    peer = statistics.median(times["peer"])
    for name in STARTUP:
        ours = statistics.median(times[name])
        _row(
            f"start-up: mjcli {name}",
            f"{ours * 1000:.0f} ms",
            f"one-liner {peer * 1000:.0f} ms",
            f"x{ours / peer:.2f}",
            "<= 0.15 s (x1.8 of a 0.084 s one-liner)",
        )


def scoring(rounds: int = 20) -> None:
    from mahjong.hand_calculating.hand import HandCalculator

    from benchmarks.bench_scoring import _wins
    from mjcli.riichi.rules import get_rules
    from mjcli.riichi.scoring import ScoreCache, _hand_config, _IdPool, _lib_meld, score_hand
    from mjcli.tiles import kind

    rules = get_rules("tenhou")
    wins = _wins()
    prepared = []
    for concealed, win, melds, ctx in wins:
        pool = _IdPool(rules, "bench")
        ids = [pool.take(t) for t in concealed]
        win_id = ids[next(i for i, t in enumerate(concealed) if kind(t) == kind(win))]
        lib_melds = []
        for m in melds:
            m_ids = [pool.take(t) for t in m.tiles]
            ids.extend(m_ids)
            lib_melds.append(_lib_meld(m, m_ids))
        dora = [4 * kind(t) for t in ctx.dora_indicators]
        ura = [4 * kind(t) for t in ctx.ura_indicators]
        prepared.append((ids, win_id, lib_melds, dora, ura, ctx))
    cache = ScoreCache()

    def peer() -> None:
        for ids, win_id, lib_melds, dora, ura, ctx in prepared:
            HandCalculator.estimate_hand_value(
                ids,
                win_id,
                melds=lib_melds,
                dora_indicators=dora,
                ura_dora_indicators=ura,
                config=_hand_config(ctx, rules),
            )

    sides: dict[str, Callable[[], object]] = {
        "mahjong": peer,
        "engine": lambda: [score_hand(c, w, m, x, rules, explain=False) for c, w, m, x in wins],
        "explained": lambda: [score_hand(c, w, m, x, rules) for c, w, m, x in wins],
        "cached": lambda: [cache.score(c, w, m, x, rules, explain=False) for c, w, m, x in wins],
    }
    best = {name: float("inf") for name in sides}
    for _ in range(rounds):  # alternated, best of each: the load of other work counts least
        for name, f in sides.items():
            t = time.perf_counter()
            f()
            best[name] = min(best[name], time.perf_counter() - t)
    per = {name: b / len(wins) * 1e6 for name, b in best.items()}
    for name, label, target in (
        ("engine", "score one win, engine path", "<= x1.0"),
        ("explained", "score one win, explained", "<= x1.3"),
        ("cached", "score one win, repeated (cache)", "~0"),
    ):
        _row(
            label,
            f"{per[name]:.0f} us",
            f"mahjong {per['mahjong']:.0f} us",
            f"x{per[name] / per['mahjong']:.2f}",
            target,
        )
    print(f"    ({len(wins)} recorded Tenhou wins; RiichiEnv's scorer: not wired here, see README)")


def _random_lines(count: int, seed: int = 7) -> list[str]:
    from mjcli.tiles import to_mpsz

    rng = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)]
    lines = []
    for i in range(count):
        rng.shuffle(wall)
        lines.append(to_mpsz(wall[: 13 + i % 2]))
    return lines


def _mahjong_shanten(lines: list[str]) -> list[int]:
    from mahjong.shanten import Shanten
    from mahjong.tile import TilesConverter

    out = []
    for line in lines:
        parts = {"m": "", "p": "", "s": "", "z": ""}
        digits = ""
        for ch in line:
            if ch.isdigit():
                digits += ch
            else:
                parts[ch] += digits
                digits = ""
        c = TilesConverter.string_to_34_array(
            man=parts["m"], pin=parts["p"], sou=parts["s"], honors=parts["z"]
        )
        out.append(Shanten.calculate_shanten(c))
    return out


def _mahjong_same_work(lines: list[str]) -> None:
    """What `mjcli shanten` answers, with `mahjong`: improving tiles (13) or every discard's (14)."""
    from mahjong.shanten import Shanten

    from mjcli.tiles import counts34, parse_tiles

    calc = Shanten.calculate_shanten
    for line in lines:
        c = counts34(parse_tiles(line))
        hands = (
            [c] if sum(c) % 3 == 1 else [[x - (j == k) for j, x in enumerate(c)] for k in range(34) if c[k]]
        )
        for h in hands:
            now = calc(h)
            for j in range(34):
                if h[j] < 4:
                    h[j] += 1
                    calc(h) < now  # noqa: B015  (the work, not the answer, is measured)
                    h[j] -= 1


def shanten_batch() -> None:
    count = int(os.environ.get("MJCLI_BENCH_HANDS", "20000"))
    lines = _random_lines(count)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.txt"
        path.write_text("\n".join(lines) + "\n")
        results = {}
        for label, extra in (
            ("full --json", []),
            ("--json --fields hand,size,shanten", ["--fields", "hand,size,shanten"]),
        ):
            _, cpu = _timed_run([str(BIN / "mjcli"), "shanten", "-", "--json", *extra], stdin=path)
            results[label] = cpu
        t = time.process_time()
        _mahjong_shanten(lines)
        peer = time.process_time() - t
        sample = lines[:200]
        t = time.process_time()
        _mahjong_same_work(sample)
        same = (time.process_time() - t) / len(sample) * count
    for label, cpu in results.items():
        _row(
            f"shanten - {label} ({count // 1000}k)",
            f"{cpu:.2f} s CPU",
            f"mahjong shanten {peer:.2f} s",
            f"x{peer / cpu:.2f}",
            ">= x5",
        )
    _row(
        "  the same work with mahjong",
        f"{results['full --json']:.2f} s CPU",
        f"mahjong {same:.1f} s",
        f"x{same / results['full --json']:.1f}",
        "(for scale)",
    )
    try:
        from xiangting import PlayerCount, calculate_replacement_number

        from mjcli.tiles import counts34, parse_tiles

        hands = [counts34(parse_tiles(line)) for line in lines]
        t = time.process_time()
        for h in hands:
            calculate_replacement_number(h, PlayerCount.FOUR)
        xt = time.process_time() - t
        _row("  xiangting, shanten only (parsed)", "", f"xiangting {xt:.2f} s", "", "")
    except ImportError:
        print("    xiangting: skipped (not installed; pip install -e '.[bench]')")


def _shared_hanchan() -> list[Path]:
    return [p for p in sorted((SHARED_LOGS / "tenhou-xml").glob("20*.mjlog")) if "no-" not in p.name]


def replay_and_walk() -> None:
    from mjcli.riichi.formats import read_log
    from mjcli.riichi.policies import POLICY_NAMES
    from mjcli.riichi.replay import ReplayOptions, decisions_of, replay_file

    paths = _shared_hanchan()[:8]
    opts = ReplayOptions(tuple(POLICY_NAMES))
    replay_file(paths[0], paths[0].name, opts)  # imports, tables
    t = time.process_time()
    games = sum(replay_file(p, p.name, opts).game_count for p in paths)
    cpu = time.process_time() - t
    _row("replay, 4 policies, one core", f"{games / cpu:.2f} hanchan/cpu-s", "-", "", ">= 15 hanchan/s/core")
    logs = [g for p in paths for g in read_log(p)]
    t = time.process_time()
    points = sum(1 for g in logs for _ in decisions_of(g.events))
    cpu = time.process_time() - t
    games = len(logs)
    _row(
        "walk a log to every decision",
        f"{games / cpu:.1f} games/cpu-s",
        "RiichiEnv: not wired",
        "",
        "<= x1 RiichiEnv",
    )
    print(f"    ({points} decision points in {games} games)")


class FirstLegal:
    """The self-play peer's policy: the first legal action, always."""

    name = "first-legal"

    def decide(self, view: object, legal: list) -> object:
        return legal[0]


def self_play(games: int = 8) -> None:
    from mjcli.riichi.simulate.driver import play_game
    from mjcli.riichi.simulate.run import game_specs, table_rules
    from mjcli.riichi.simulate.seats import PolicySeat

    names = ["greedy"] * 4  # the names only label the seats; every seat plays FirstLegal
    seats = [PolicySeat(n, policy=FirstLegal()) for n in names]  # type: ignore[arg-type]
    specs = game_specs(names, games, 2026, table_rules("tenhou", "hanchan"), duplicate=False)
    t = time.process_time()
    for spec in specs:
        play_game(spec, seats)
    cpu = time.process_time() - t
    ours = games / cpu
    peer = "RiichiEnv: skipped (not installed)"
    try:
        from riichienv import RiichiEnv

        t = time.process_time()
        for _ in range(games):
            env = (
                RiichiEnv(game_mode="4p-red-half")
                if "game_mode" in RiichiEnv.__init__.__doc__ or ""
                else RiichiEnv()
            )
            obs = env.reset()
            while not env.done():
                obs = env.step({pid: o.legal_actions()[0] for pid, o in obs.items()})
        rcpu = time.process_time() - t
        peer = f"RiichiEnv {games / rcpu:.1f}/cpu-s"
        ratio = f"x{(games / rcpu) / ours:.2f}"
    except ImportError:
        ratio = ""
    except Exception as exc:  # the peer's API moves between releases: say so, measure ours anyway
        peer, ratio = f"RiichiEnv: API not recognised ({type(exc).__name__})", ""
    _row("self-play, first-legal policy", f"{ours:.1f} hanchan/cpu-s", peer, ratio, "<= x1 RiichiEnv")


def jobs_and_memory() -> None:
    paths = [str(p) for p in _shared_hanchan()]
    walls = {}
    rss = {}
    for jobs in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            wall, _ = _timed_run(
                [str(BIN / "mjcli"), "replay", *paths, "--out", f"{tmp}/r", "--jobs", str(jobs)]
            )
            walls[jobs] = wall
            rss[jobs] = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    _row(
        f"replay --jobs 2 vs 1 ({len(paths)} hanchan)",
        f"{walls[1]:.1f} s -> {walls[2]:.1f} s",
        "-",
        f"x{walls[1] / walls[2]:.2f}",
        ">= x1.8 on a quiet machine",
    )
    _row("peak memory, replay (max RSS of a process)", f"{rss[1] / 1024:.0f} MiB", "-", "", "<= 100 MiB")


def run() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} cores, load average {load:.2f} (other work shares them; ratios are of this run)")
    _row("work", "mjcli", "peer", "mjcli/peer", "")
    for part in (startup, scoring, shanten_batch, replay_and_walk, self_play, jobs_and_memory):
        part()
        sys.stdout.flush()


if __name__ == "__main__":
    run()
