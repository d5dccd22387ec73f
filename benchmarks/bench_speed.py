"""Speed where users wait, every row as a ratio against a peer measured in the same run.

Rows (the table of the speed issue; README "Speed" has the figures of one run):

* start-up: ``mjcli shanten HAND``, ``score``, ``advise HAND`` and ``--help`` as commands, against a
  ``python -c`` one-liner that imports `mahjong` and counts one hand's shanten (same interpreter and
  venv, alternated, medians);
* scoring one win: the engine's path (``explain=False``), the explained ``score`` and a repeat
  through :class:`~mjcli.riichi.scoring.ScoreCache`, against `mahjong`'s ``estimate_hand_value``
  on the same wins (ids prepared, a ``HandConfig`` per call as its users build one), and RiichiEnv's
  scorer for scale (its han and fu compared with ours on every win);
* ``mjcli shanten - --json``: a stdin batch of random 13/14-tile hands end to end (CPU time of the
  command), against `mahjong` in-process counting the shanten of the same lines (parse + count);
  the same work with `mahjong` (every discard's improving tiles) is timed on a sample too, and the
  shanten of the parsed hands against ``xiangting`` (values compared hand by hand);
* replay, one core: hanchan per CPU second, the four policies, the shared Tenhou hanchan;
* walk a log: every decision point with its legal actions (the engine walk replay does), games per
  CPU second, both sides reading the same mjai files (RiichiEnv's ``Kyoku.steps()``), and the
  number of decision points with a choice compared;
* self-play with a first-legal policy in every seat: hanchan per CPU second (RiichiEnv's
  ``4p-red-half`` game mode: a hanchan, as ours);
* ``replay``, ``verify`` and ``simulate`` with ``--jobs 2`` against ``--jobs 1``, wall time, and the
  peak memory (max RSS) of the replay at ``--jobs 1``;
* that peak memory on 4 and 19 hanchan, on 57 and 171 copies of them, and on 60 and 200 distinct
  simulated hanchan (:func:`memory_by_size`): flat in the number of logs?

Every ratio is a time ratio, mjcli's time over the peer's for the same work: below 1 is faster.

Peers: `mahjong` is a dependency. ``xiangting`` and ``riichienv`` (Rust, on PyPI) are measured when
installed (``make bench`` installs the ``bench`` extra); without them their columns say "skipped".
The machine may be shared: every ratio is of two figures taken in this run, alternated where it
matters, and the load average is printed. Sizes: ``MJCLI_BENCH_HANDS`` (batch, default 100000).
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
from typing import Any

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


def _peer_config(ctx: Any, rules: Any) -> Any:
    """A fresh ``HandConfig`` for a win, as a user of `mahjong` builds one per call (mjcli reuses
    one per distinct configuration: that saving is part of what the row measures)."""
    from mjcli.riichi.scoring import hand_config_fields, new_hand_config

    return new_hand_config(*hand_config_fields(ctx), rules)


def scoring(rounds: int = 40) -> None:
    from mahjong.hand_calculating.hand import HandCalculator

    from benchmarks.bench_scoring import _wins
    from mjcli.riichi.rules import get_rules
    from mjcli.riichi.scoring import ScoreCache, _IdPool, _lib_meld, score_hand
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
    rust = _riichienv_scorer(wins, rules)

    def peer() -> None:
        for ids, win_id, lib_melds, dora, ura, ctx in prepared:
            HandCalculator.estimate_hand_value(
                ids,
                win_id,
                melds=lib_melds,
                dora_indicators=dora,
                ura_dora_indicators=ura,
                config=_peer_config(ctx, rules),
            )

    sides: dict[str, Callable[[], object]] = {
        "mahjong": peer,
        "engine": lambda: [score_hand(c, w, m, x, rules, explain=False) for c, w, m, x in wins],
        "explained": lambda: [score_hand(c, w, m, x, rules) for c, w, m, x in wins],
        "cached": lambda: [cache.score(c, w, m, x, rules, explain=False) for c, w, m, x in wins],
    }
    if rust is not None:
        sides["riichienv"] = rust[0]
    best = {name: float("inf") for name in sides}
    for _ in range(rounds):  # alternated, best of each: the load of other work counts least
        for name, f in sides.items():
            t = time.process_time()
            f()
            best[name] = min(best[name], time.process_time() - t)
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
    if rust is None:
        print(f"    ({len(wins)} recorded Tenhou wins; RiichiEnv's scorer: skipped (not installed))")
        return
    _row(
        "  RiichiEnv's scorer (Rust)",
        f"{per['engine']:.0f} us",
        f"RiichiEnv {per['riichienv']:.1f} us",
        f"x{per['engine'] / per['riichienv']:.1f}",
        "(for scale)",
    )
    print(f"    ({len(wins)} recorded Tenhou wins; same han and fu as mjcli on {rust[1]} of them)")


def _riichienv_scorer(wins: list[tuple], rules: object) -> tuple[Callable[[], object], int] | None:
    """RiichiEnv scoring the same wins (ids prepared as for `mahjong`, its ``Conditions`` per call as
    a user builds them), and on how many of them its han and fu are mjcli's; None when absent."""
    try:
        from riichienv import _riichienv as rv
    except ImportError:
        return None
    from mjcli.riichi.scoring import _IdPool, score_hand
    from mjcli.tiles import kind

    winds = [rv.Wind.East, rv.Wind.South, rv.Wind.West, rv.Wind.North]
    meld_types = {
        "chi": rv.MeldType.Chi,
        "pon": rv.MeldType.Pon,
        "kan": rv.MeldType.Daiminkan,
        "ankan": rv.MeldType.Ankan,
        "kakan": rv.MeldType.Kakan,
    }
    prepared = []
    for concealed, win, melds, ctx in wins:
        pool = _IdPool(rules, "bench")  # type: ignore[arg-type]
        ids = [pool.take(t) for t in concealed]
        at = next((i for i, t in enumerate(concealed) if t == win), None)
        if at is None:
            at = next(i for i, t in enumerate(concealed) if kind(t) == kind(win))
        rmelds = [
            rv.Meld(meld_types[m.kind], [pool.take(t) for t in m.tiles], m.kind != "ankan") for m in melds
        ]
        dora = [4 * kind(t) for t in ctx.dora_indicators]
        ura = [4 * kind(t) for t in ctx.ura_indicators]
        prepared.append((ids, ids[at], rmelds, dora, ura, ctx))

    def score() -> list[object]:
        return [
            rv.HandEvaluator(ids, rmelds).calc(
                win_id,
                dora,
                ura,
                rv.Conditions(
                    tsumo=ctx.tsumo,
                    riichi=ctx.riichi or ctx.double_riichi,
                    double_riichi=ctx.double_riichi,
                    ippatsu=ctx.ippatsu,
                    haitei=ctx.haitei,
                    houtei=ctx.houtei,
                    rinshan=ctx.rinshan,
                    chankan=ctx.chankan,
                    player_wind=winds[ctx.seat_wind],
                    round_wind=winds[ctx.round_wind],
                    riichi_sticks=ctx.sticks,
                    honba=ctx.honba,
                ),
            )
            for ids, win_id, rmelds, dora, ura, ctx in prepared
        ]

    same = sum(
        r.is_win and r.han == ours.han and (r.fu == ours.fu or bool(ours.yakuman))  # type: ignore[attr-defined]
        for r, ours in zip(
            score(),
            (score_hand(c, w, m, x, rules, explain=False) for c, w, m, x in wins),
            strict=True,  # type: ignore[arg-type]
        )
    )
    return score, same


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


#: the rows of the batch: every field, then what the speed issue asks at least (each 14-tile hand's
#: discard table, with the shanten and ukeire of every discard), then the shanten alone
BATCH_ROWS = (
    ("full", []),
    ("discards", ["--fields", "hand,size,shanten,ukeire,discards"]),
    ("shanten", ["--fields", "hand,size,shanten"]),
)


def shanten_batch() -> None:
    """The issue's size (100k hands; ``MJCLI_BENCH_HANDS``), start-up included. The peer is timed once
    (~11 s of `mahjong` on a quiet machine), each of our rows once before it and once after it: a
    row's figure is the mean of the two, taken around the peer's on a shared machine."""
    count = int(os.environ.get("MJCLI_BENCH_HANDS", "100000"))
    lines = _random_lines(count)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.txt"
        path.write_text("\n".join(lines) + "\n")
        runs: dict[str, list[float]] = {label: [] for label, _ in BATCH_ROWS}

        def ours() -> None:
            for label, extra in BATCH_ROWS:
                _, cpu = _timed_run([str(BIN / "mjcli"), "shanten", "-", "--json", *extra], stdin=path)
                runs[label].append(cpu)

        ours()
        t = time.process_time()
        _mahjong_shanten(lines)
        peer = time.process_time() - t
        ours()
        results = {label: statistics.mean(cpus) for label, cpus in runs.items()}
        sample = lines[:200]
        t = time.process_time()
        _mahjong_same_work(sample)
        same = (time.process_time() - t) / len(sample) * count
    for label, cpu in results.items():
        _row(
            f"shanten - --json {label} ({count // 1000}k)",
            f"{cpu:.2f} s CPU",
            f"mahjong shanten {peer:.2f} s",
            f"x{cpu / peer:.2f}",
            "<= x0.2 (5 times faster)",
        )
    print("    (discards: --fields hand,size,shanten,ukeire,discards; shanten: --fields hand,size,shanten)")
    _row(
        "  the same work with mahjong",
        f"{results['full']:.2f} s CPU",
        f"mahjong {same:.1f} s",
        f"x{results['full'] / same:.4f}",
        "(for scale)",
    )
    xiangting_row(lines)


def xiangting_row(lines: list[str]) -> None:
    """mjcli's shanten of parsed hands, one call a hand and the numpy batch, against xiangting's
    replacement number (shanten + 1) of the same hands; the values are compared hand by hand."""
    try:
        from xiangting import PlayerCount, calculate_replacement_number
    except ImportError:
        print("    xiangting: skipped (not installed; pip install -e '.[bench]')")
        return
    import numpy as np

    from mjcli.analysis.shanten_calc import reset_cache, shanten, shanten_batch
    from mjcli.tiles import counts34, parse_tiles

    hands = [counts34(parse_tiles(line)) for line in lines]
    array = np.array(hands, dtype=np.uint8)
    best = {"xiangting": float("inf"), "one": float("inf"), "batch": float("inf")}
    for _ in range(3):  # alternated, best of each
        t = time.process_time()
        theirs = [calculate_replacement_number(h, PlayerCount.FOUR) - 1 for h in hands]
        best["xiangting"] = min(best["xiangting"], time.process_time() - t)
        reset_cache()  # each round from a process that has looked up a few hands, not these
        t = time.process_time()
        ours = [shanten(h) for h in hands]
        best["one"] = min(best["one"], time.process_time() - t)
        t = time.process_time()
        batch = shanten_batch(array)
        best["batch"] = min(best["batch"], time.process_time() - t)
    xt = best["xiangting"]
    for label, key in (("one call a hand", "one"), ("numpy batch", "batch")):
        _row(
            f"  shanten of parsed hands, {label}",
            f"{best[key]:.3f} s CPU",
            f"xiangting {xt:.3f} s",
            f"x{best[key] / xt:.2f}",
            "(for scale)",
        )
    same = sum(a == b == c for a, b, c in zip(ours, batch.tolist(), theirs, strict=True))
    print(f"    (same shanten as xiangting on {same} of {len(hands)} hands)")


def _shared_hanchan() -> list[Path]:
    return [p for p in sorted((SHARED_LOGS / "tenhou-xml").glob("20*.mjlog")) if "no-" not in p.name]


def replay_and_walk() -> None:
    from mjcli.riichi.policies import POLICY_NAMES
    from mjcli.riichi.replay import ReplayOptions, replay_file

    paths = _shared_hanchan()[:8]
    opts = ReplayOptions(tuple(POLICY_NAMES))
    replay_file(paths[0], paths[0].name, opts)  # imports, tables
    t = time.process_time()
    games = sum(replay_file(p, p.name, opts).game_count for p in paths)
    cpu = time.process_time() - t
    _row("replay, 4 policies, one core", f"{games / cpu:.2f} hanchan/cpu-s", "-", "", ">= 15 hanchan/s/core")
    # the row keeps the name (code comments cite it); the built-in policies are five now
    print(f"    ({len(POLICY_NAMES)} policies asked at every decision: {', '.join(POLICY_NAMES)})")
    walk(paths)


def _walk_ours(files: list[Path]) -> int:
    """Read each mjai log and walk it to every decision point with its legal actions (replay's walk)."""
    from mjcli.riichi.formats import read_log
    from mjcli.riichi.replay import decisions_of

    return sum(1 for f in files for g in read_log(f) for _ in decisions_of(g.events))


def _walk_riichienv(files: list[Path]) -> int:
    """RiichiEnv reading the same mjai logs and stepping through every decision point of every seat,
    asking each for its legal actions (``Kyoku.steps()``, all seats in one pass: its fastest way)."""
    from riichienv import MjaiReplay

    steps = 0
    for f in files:
        for kyoku in MjaiReplay.from_jsonl(str(f)).take_kyokus():
            for _seat, obs, _action in kyoku.steps():
                obs.legal_actions()
                steps += 1
    return steps


def _riichienv_choices(files: list[Path]) -> int:
    """RiichiEnv's decision points with a choice (two or more different legal actions), a riichi's
    discard not counted apart: it asks for it as a step of its own, mjcli's riichi action carries it."""
    from riichienv import ActionType, MjaiReplay

    count = 0
    for f in files:
        for kyoku in MjaiReplay.from_jsonl(str(f)).take_kyokus():
            riichi_by: set[int] = set()
            for seat, obs, action in kyoku.steps():
                if seat in riichi_by:
                    riichi_by.discard(seat)
                    continue
                if action.action_type == ActionType.RIICHI:
                    riichi_by.add(seat)
                actions = {(int(a.action_type), a.tile, tuple(a.consume_tiles)) for a in obs.legal_actions()}
                count += len(actions) >= 2
    return count


def walk(paths: list[Path], rounds: int = 3) -> None:
    """Both sides read the same mjai files (mjcli writes them from the Tenhou logs: RiichiEnv reads
    mjai and Mahjong Soul, not Tenhou's XML) and walk them to every decision point."""
    from mjcli.riichi.formats import read_log, write_game

    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, p in enumerate(paths):
            for j, g in enumerate(read_log(p)):
                files.append(Path(tmp) / f"{i}-{j}.jsonl")
                files[-1].write_text(write_game(g, "mjai"))
        sides: dict[str, Callable[[list[Path]], int]] = {"ours": _walk_ours}
        try:
            import riichienv  # noqa: F401

            sides["riichienv"] = _walk_riichienv
        except ImportError:
            pass
        best = {name: float("inf") for name in sides}
        counts = {}
        for _ in range(rounds):  # alternated, best of each
            for name, f in sides.items():
                t = time.process_time()
                counts[name] = f(files)
                best[name] = min(best[name], time.process_time() - t)
        games = len(files)
        ours = games / best["ours"]
        if "riichienv" not in sides:
            _row("walk a log to every decision", f"{ours:.1f} games/cpu-s", "RiichiEnv: skipped", "", ">= x1")
            print(f"    ({counts['ours']} decision points in {games} games)")
            return
        peer = games / best["riichienv"]
        _row(
            "walk a log to every decision",
            f"{ours:.1f} games/cpu-s",
            f"RiichiEnv {peer:.1f} games/cpu-s",
            f"x{peer / ours:.2f}",
            "<= x1 (RiichiEnv)",
        )
        choices = _riichienv_choices(files)
        aborts = _nine_terminal_aborts(files)
        same = "the same" if choices == counts["ours"] - aborts else "NOT the same"
        print(
            f"    ({games} games read from mjai by both; decision points with a choice: mjcli "
            f"{counts['ours']}, RiichiEnv {choices} + {aborts} nine-terminals abort(s) it does not step = "
            f"{choices + aborts}: {same}; it also steps {counts['riichienv'] - choices} times with one "
            "action or for a riichi's discard)"
        )


def _nine_terminal_aborts(files: list[Path]) -> int:
    from mjcli.riichi.formats import read_log
    from mjcli.riichi.replay import decisions_of

    return sum(
        d.actual.kind == "nine_terminals" for f in files for g in read_log(f) for d in decisions_of(g.events)
    )


class FirstLegal:
    """The self-play peer's policy: the first legal action, always."""

    name = "first-legal"

    def decide(self, view: object, legal: list) -> object:
        return legal[0]


def self_play(games: int = 8) -> None:
    from mjcli.riichi.engine import events as ev
    from mjcli.riichi.simulate.driver import play_game
    from mjcli.riichi.simulate.run import game_specs, table_rules
    from mjcli.riichi.simulate.seats import PolicySeat

    names = ["greedy"] * 4  # the names only label the seats; every seat plays FirstLegal
    seats = [PolicySeat(n, policy=FirstLegal()) for n in names]  # type: ignore[arg-type]
    specs = game_specs(names, games, 2026, table_rules("tenhou", "hanchan"), duplicate=False)
    t = time.process_time()
    played = [play_game(spec, seats) for spec in specs]
    cpu = time.process_time() - t
    ours = games / cpu
    rounds = sum(type(e) is ev.StartRound for g in played for e in g.events)
    our_moves = (ev.Draw, ev.Discard, ev.Chi, ev.Pon, ev.OpenKan, ev.ClosedKan, ev.AddedKan, ev.Nukidora)
    moves = sum(type(e) in our_moves for g in played for e in g.events)
    peer, ratio, note = "RiichiEnv: skipped (not installed)", "", ""
    try:
        from riichienv import RiichiEnv

        t = time.process_time()
        envs = []
        for seed in range(games):
            # "4p-red-half": a hanchan with red fives, as ours (its default is a single round)
            env = RiichiEnv(game_mode="4p-red-half", seed=seed)
            obs = env.reset()
            while not env.done():
                obs = env.step({pid: o.legal_actions()[0] for pid, o in obs.items()})
            envs.append(env)
        rcpu = time.process_time() - t
        # its rounds counted from its log after the clock, as ours are (reading ``mjai_log`` makes
        # the whole game's events as Python dicts, work that is not self-play's)
        peer_rounds = sum(e["type"] == "start_kyoku" for env in envs for e in env.mjai_log)
        peer_moves = sum(e["type"] in _MJAI_MOVES for env in envs for e in env.mjai_log)
        peer = f"RiichiEnv {games / rcpu:.1f}/cpu-s"
        ratio = f"x{(games / rcpu) / ours:.2f}"
        # The games are not of one length: the first legal action is not the same move on both
        # sides (ours call more pons and kans), so the games go differently and ours more often
        # play on into the West round (both do when no one has 30,000 at the end of the South). A
        # move (draw, discard, call, kan) is nearly the same work on both sides.
        note = (
            f"; RiichiEnv {peer_rounds / games:.1f} (its own walls). Moves (draws, discards, calls, "
            f"kans) per CPU s: mjcli {moves / cpu:,.0f}, RiichiEnv {peer_moves / rcpu:,.0f}: "
            f"x{(peer_moves / rcpu) / (moves / cpu):.2f} per move"
        )
    except ImportError:
        pass
    _row("self-play, first-legal policy", f"{ours:.1f} hanchan/cpu-s", peer, ratio, "<= x1 RiichiEnv")
    print(f"    (rounds per hanchan: mjcli {rounds / games:.1f}{note})")


#: the events of a move in RiichiEnv's mjai log (ours: ``our_moves`` in :func:`self_play`)
_MJAI_MOVES = frozenset(("tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "nukidora"))


#: runs a command and prints the peak RSS (KiB) of its process tree: this process's own children
#: have included every earlier command of the benchmark (the stdin batch's too)
PEAK_RSS = (
    "import resource, subprocess, sys; "
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


#: runs a command and prints the CPU seconds of its whole process tree: the workers' server (and so
#: the workers it forked and waited for) outlives the command's own process and is nobody's child
#: then, so this process takes the orphans over (Linux's child subreaper; elsewhere only the command's
#: own CPU is counted) and waits for every one of them
TREE_CPU = """
import ctypes, os, resource, subprocess, sys
try:
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
except (AttributeError, OSError):
    pass
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)
"""


def _jobs_run(argv: list[str], jobs: int) -> tuple[float, int, float]:
    """(wall seconds, peak RSS in KiB of the largest process waited for, CPU seconds of every process
    it started) of one command."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [a.replace("{tmp}", tmp) for a in argv]
        command = [str(BIN / "mjcli"), *argv, "--jobs", str(jobs)]
        options: dict[str, Any] = {"capture_output": True, "text": True, "check": False, "env": _ENV}
        wall = time.perf_counter()
        out = subprocess.run([str(BIN / "python"), "-c", PEAK_RSS, *command], **options)
        wall = time.perf_counter() - wall
        cpu = subprocess.run([str(BIN / "python"), "-c", TREE_CPU, *command], **options)
        return wall, int(out.stdout.strip() or 0), float(cpu.stdout.strip() or "nan")


def jobs_and_memory() -> None:
    """``--jobs 2`` against ``--jobs 1`` for replay, verify and simulate (wall, alternated, the best of
    two), and the peak memory of the replay at ``--jobs 1``, where one process does everything (at
    ``--jobs 2`` each process holds part of the work: the largest process is not the whole).

    Beside each wall ratio, the CPU of every process of the command (second runs): what ``--jobs 2``
    costs in all (each worker's own start, and the server's imports where the workers are not
    forked from the command's process) against one process. On a shared
    machine the wall ratio is noise and this is not: two cores can give at most ``2 x CPU(1) /
    CPU(2)`` (the "bound"), less the parts only one process can do (start-up, the merge, the writes)."""
    paths = [str(p) for p in _shared_hanchan()]
    runs = {
        f"replay --jobs 2 vs 1 ({len(paths)} hanchan)": ["replay", *paths, "--out", "{tmp}/r"],
        f"verify --jobs 2 vs 1 ({len(paths)} hanchan)": ["verify", *paths],
        # a few logs, as typed in a shell: the main process does them while the workers start
        "verify --jobs 2 vs 1 (4 hanchan)": ["verify", *paths[:4]],
        "simulate --jobs 2 vs 1 (16 games)": ["simulate", "--games", "16", "--seed", "3", "--out", "{tmp}/s"],
    }
    rss = 0
    for name, argv in runs.items():
        walls: dict[int, list[float]] = {1: [], 2: []}
        cpus: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(2):
            for jobs in (1, 2):
                wall, peak, cpu = _jobs_run(argv, jobs)
                walls[jobs].append(wall)
                cpus[jobs].append(cpu)
                if name.startswith("replay") and jobs == 1:
                    rss = max(rss, peak)
        one, two = min(walls[1]), min(walls[2])
        target = "not slower (x1.0)" if "(4 hanchan)" in name else ">= x1.8 on a quiet machine"
        _row(name, f"{one:.2f} s -> {two:.2f} s", "-", f"x{one / two:.2f}", target)
        c1, c2 = min(cpus[1]), min(cpus[2])
        print(f"    (CPU of all its processes {c1:.2f} s -> {c2:.2f} s: bound x{2 * c1 / c2:.2f})")
    _row("peak memory, replay (max RSS of a process)", f"{rss / 1024:.0f} MiB", "-", "", "<= 100 MiB")


def _distinct_copies(folder: str, times: int) -> list[str]:
    """The shared hanchan ``times`` times over, each copy made distinct by trailing newlines (a
    command reads a log given twice with the same content once), written into ``folder``."""
    copies = []
    for n in range(times):
        for p in _shared_hanchan():
            copy = Path(folder) / f"{n}-{p.name}"
            copy.write_bytes(p.read_bytes() + b"\n" * n)
            copies.append(str(copy))
    return copies


def jobs_at_scale() -> None:
    """``--jobs 2`` against ``--jobs 1`` on a batch nine times the one above (171 hanchan; verify and
    replay) and 96 simulated games: what a user auditing many logs gets, where the fixed costs of
    starting workers weigh less. One run each, alternated, with the CPU of every process."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = _distinct_copies(tmp, 9)
        runs = {
            f"replay --jobs 2 vs 1 ({len(paths)} hanchan)": ["replay", *paths, "--out", "{tmp}/r"],
            f"verify --jobs 2 vs 1 ({len(paths)} hanchan)": ["verify", *paths],
            "simulate --jobs 2 vs 1 (96 games)": ["simulate", "--games", "96", "--seed", "3"]
            + ["--out", "{tmp}/s"],
        }
        for name, argv in runs.items():
            (one, _, c1), (two, _, c2) = (_jobs_run(argv, jobs) for jobs in (1, 2))
            _row(name, f"{one:.1f} s -> {two:.1f} s", "-", f"x{one / two:.2f}", ">= x1.8 on a quiet machine")
            print(f"    (CPU of all its processes {c1:.2f} s -> {c2:.2f} s: bound x{2 * c1 / c2:.2f})")


def _simulated_hanchan(folder: str, games: int) -> list[str]:
    """``games`` hanchan played by the built-in bots (``mjcli simulate``, a fixed seed), as mjai logs
    in ``folder``: distinct games, as many as asked, where the shared real ones are 19."""
    subprocess.run(
        [str(BIN / "mjcli"), "simulate", "--games", str(games), "--seed", "2026", "--out", folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
        env=_ENV,
    )
    return [str(p) for p in sorted((Path(folder) / "logs").glob("*.mjai.jsonl"))]


def memory_by_size() -> None:
    """The peak memory (max RSS) of ``replay --jobs 1`` by the number of hanchan replayed: flat in
    the number of logs when the figures are close. Copies: the 19 shared hanchan, then those three
    and nine times (:func:`_distinct_copies`): the same games, so what a run remembers of hands met
    before stops growing early. Distinct: 60 and 200 simulated hanchan (:func:`_simulated_hanchan`),
    every game new, as in an audit of many real logs."""
    shared = _shared_hanchan()
    with tempfile.TemporaryDirectory() as tmp:
        copies = _distinct_copies(tmp, 9)
        simulated = _simulated_hanchan(str(Path(tmp) / "sim"), 200)
        real = [str(p) for p in shared]
        runs = {
            "copies": (real[:4], real, copies[: 3 * len(shared)], copies),
            "distinct": (simulated[:60], simulated),
        }
        for label, sizes in runs.items():
            figures = []
            for paths in sizes:
                _, peak, _ = _jobs_run(["replay", *paths, "--out", "{tmp}/r"], 1)
                figures.append(f"{len(paths)}: {peak / 1024:.0f}")
            name = f"peak memory by hanchan replayed, {label}"
            _row(name, ", ".join(figures) + " MiB", "-", "", "<= 100 MiB, flat")


def run() -> None:
    import gc

    from mjcli import process_settings

    # The rows measured in this process (scoring, replay, walk, self-play) run under the settings
    # the command's own process and its workers get (mjcli.process_settings: the collector's
    # thresholds; Polars is imported already), as `mjcli replay` and `mjcli simulate` run; the
    # benchmarks after this one get Python's defaults back.
    thresholds = gc.get_threshold()
    process_settings.apply()
    try:
        _rows()
    finally:
        gc.set_threshold(*thresholds)


def _rows() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} cores, load average {load:.2f} (other work shares them; ratios are of this run)")
    _row("work", "mjcli", "peer", "mjcli/peer", "")
    for part in (
        startup,
        scoring,
        shanten_batch,
        replay_and_walk,
        self_play,
        jobs_and_memory,
        jobs_at_scale,
        memory_by_size,
    ):
        part()
        sys.stdout.flush()


if __name__ == "__main__":
    run()
