"""Riichi simulation: seat policies at a table, play whole games through the engine, measure them.

:func:`simulate` plans the games (:func:`game_specs`), plays them in order (in worker processes with
``jobs > 1``, results gathered in game order), writes every game's log (tenhou.net/6 JSON and mjai
JSON lines) as it arrives, then ``games.parquet`` (one row per game and seat), ``rounds.parquet``
(one row per round) and ``summary.json``, and returns the summary: per policy, every figure of
:mod:`mjcli.riichi.simulate.figures` with its 95 % interval, and with ``duplicate`` the paired differences.

Seating: the policy list (one to four names) is repeated to fill the table's seats (four, or three
under three-player rules); game ``i`` rotates it by ``i mod seats`` so that each policy sits in every
seat. With ``duplicate`` each deal is played once per distinct rotation on the same walls, so the
luck of the tiles cancels out in comparisons. Without ``rules``, three names make a three-player
table (``tenhou-sanma``), otherwise a four-player one (``tenhou``).
A game's walls are a function of its seed alone (recorded in ``games.parquet``), the seed a function
of ``(seed, deal)``: the same command gives byte-identical files for any number of jobs.

Names come from a :class:`~mjcli.plugins.Registry` (built-ins, plugins, entry points, outside bots):
the workers build their seats from its specs. An outside bot's faults (answers played by the
fallback) are counted per game and seat (``faults`` in ``games.parquet``), per policy in the
summary, and listed with their positions in ``faults.jsonl``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import json
import multiprocessing.util
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjcli.atomic import write_atomic, write_text_atomic
from mjcli.errors import UsageError
from mjcli.plugins import BOT, BUILTIN, Registry, identity
from mjcli.riichi.bots import MjaiBot
from mjcli.riichi.formats import GameLog, write_mjai, write_tenhou6
from mjcli.riichi.policies import build_policy, builtin_registry
from mjcli.riichi.policies.hand_math import PLAY_MEMO_LIMIT, HandMath
from mjcli.riichi.rules import DEFAULT_HANDS_SHOWN, Rules, get_rules, preset_name
from mjcli.riichi.simulate.driver import GameSpec, PlayedGame, play_game
from mjcli.riichi.simulate.seats import BotSeat, PolicySeat
from mjcli.riichi.simulate.wall import game_seed
from mjcli.runner import SHANTEN_TABLES, Backend, ordered_map, runs_here, shared

if TYPE_CHECKING:
    import polars as pl

    from mjcli.ledger import PartedRun

# Polars (with mjcli.ledger and the figures, which import it) only where the tables and figures are
# made, in the main process: a worker plays games and sends back plain rows (GameOutput), and the
# server that forks the workers never imports Polars (~0.25-0.3 s CPU of its preload, on the critical
# path of --jobs 2; bench_speed ``jobs_and_memory``, the simulate row).

LENGTHS = ("hanchan", "tonpuu")
LOG_DIR = "logs"
TENHOU6_SUFFIX = ".json"
MJAI_SUFFIX = ".mjai.jsonl"
FAULTS_FILE = "faults.jsonl"
_LOG_NAME = re.compile(r"sim-\d{6}(\.json|\.mjai\.jsonl)$")


def games_schema() -> dict[str, Any]:
    """Column types of ``games.parquet`` (one row per seat of each game)."""
    import polars as pl

    return {
        "game": pl.Int64,
        "deal": pl.Int64,
        "rotation": pl.Int64,
        "seed": pl.Int64,
        "seat": pl.Int64,
        "policy": pl.String,
        "score": pl.Int64,
        "placement": pl.Int64,
        "points": pl.Float64,
        "rounds": pl.Int64,
        "wins": pl.Int64,
        "tsumo": pl.Int64,
        "deal_ins": pl.Int64,
        "riichi": pl.Int64,
        "calls": pl.Int64,
        "win_points": pl.Int64,
        "deal_in_points": pl.Int64,
        "faults": pl.Int64,
    }


def rounds_schema() -> dict[str, Any]:
    """Column types of ``rounds.parquet`` (one row per round)."""
    import polars as pl

    return {
        "game": pl.Int64,
        "round_index": pl.Int64,
        "round": pl.String,
        "dealer": pl.Int64,
        "honba": pl.Int64,
        "sticks": pl.Int64,
        "result": pl.String,
        "winners": pl.List(pl.Int64),
        "loser": pl.Int64,
        "han": pl.List(pl.Int64),
        "fu": pl.List(pl.Int64),
        "points": pl.List(pl.Int64),
        "yaku": pl.List(pl.String),
        "riichi": pl.List(pl.Boolean),
        "calls": pl.List(pl.Int64),
        "draw": pl.String,
        "tenpai": pl.List(pl.Boolean),
        "deltas": pl.List(pl.Int64),
        "tiles_drawn": pl.Int64,
    }


def parse_players(text: str | Sequence[str], registry: Registry | None = None) -> list[str]:
    """One to four registered policy names (repeats allowed: they fill the seats in order)."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text) if n.strip()]
    if not 1 <= len(names) <= 4:
        raise UsageError(f"--players '{text}': give one to four policy names for the four seats")
    registry = registry if registry is not None else builtin_registry()
    for n in names:
        registry.spec(n)  # UsageError naming an unknown policy
    return names


def default_rules(names: Sequence[str]) -> str:
    """The preset of a table when none is named: three policies make a three-player table."""
    return "tenhou-sanma" if len(names) == 3 else "tenhou"


def table_rules(
    rules: str, length: str | None = None, names: Sequence[str] | None = None, open_riichi: bool = False
) -> Rules:
    """A rule preset, with the game length asked for (None: the preset's own) and the open-riichi
    house rule when asked for (:attr:`Rules.open_riichi`); ``names`` (the policies) must fit its
    seats."""
    if length is not None and length not in LENGTHS:
        raise UsageError(f"--length '{length}': use hanchan or tonpuu")
    base = get_rules(rules)
    if names is not None and len(names) > base.players:
        raise UsageError(
            f"--players names {len(names)} policies, but rules '{base.name}' seat {base.players} players"
        )
    if length is not None and base.length != length:
        # A preset of that length keeps its own name (tenhou + tonpuu is "tenhou-tonpuu", as verify and
        # replay name it); otherwise the name says what was changed.
        lengthened = dataclasses.replace(base, length=length)
        base = dataclasses.replace(lengthened, name=preset_name(lengthened) or f"{base.name}+{length}")
    if open_riichi and not base.open_riichi:
        base = dataclasses.replace(base, name=f"{base.name}+open-riichi", open_riichi=True)
    return base


def parse_hands_shown(text: str | Sequence[str], registry: Registry | None = None) -> tuple[str, ...]:
    """``--hands-shown``: policy names separated by commas, or ``none``; a UsageError names an unknown one."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text) if n.strip()]
    if names == ["none"]:
        return ()
    registry = registry if registry is not None else builtin_registry()
    for n in names:
        try:
            registry.spec(n)
        except UsageError:
            raise UsageError(f"--hands-shown '{text}': '{n}' is not a policy (give names, or none)") from None
    return tuple(dict.fromkeys(names))


def shown_seats(seats: Sequence[str], hands_shown: Sequence[str]) -> tuple[int, ...]:
    """The seats whose policy is one of ``hands_shown``."""
    return tuple(s for s, name in enumerate(seats) if name in hands_shown)


def lineup(names: Sequence[str], rotation: int, seats: int = 4) -> tuple[str, ...]:
    """The policy in each seat: the names repeated to the table's seats, rotated ``rotation`` seats on."""
    base = [names[i % len(names)] for i in range(seats)]
    return tuple(base[(s + rotation) % seats] for s in range(seats))


def game_specs(
    names: Sequence[str],
    games: int,
    seed: int,
    rules: Rules,
    duplicate: bool,
    hands_shown: Sequence[str] = DEFAULT_HANDS_SHOWN,
) -> list[GameSpec]:
    """Every game of the run, in order. ``games`` counts deals when ``duplicate``; the seats of the
    policies in ``hands_shown`` play with their hand shown."""
    if games < 1:
        raise UsageError(f"--games {games}: play at least one game")
    n = rules.players
    specs: list[GameSpec] = []
    for deal in range(games):
        gseed = game_seed(seed, deal)
        if duplicate:
            seen: set[tuple[str, ...]] = set()
            for rotation in range(n):
                seats = lineup(names, rotation, n)
                if seats in seen:
                    continue  # e.g. A,B,A,B: rotations 0 and 2 are the same game
                seen.add(seats)
                shown = shown_seats(seats, hands_shown)
                specs.append(GameSpec(len(specs), gseed, deal, rotation, seats, rules, shown))
        else:
            rotation = deal % n
            seats = lineup(names, rotation, n)
            specs.append(GameSpec(deal, gseed, deal, rotation, seats, rules, shown_seats(seats, hands_shown)))
    return specs


# ---------------------------------------------------------------- playing (in a worker or here)


@dataclass(slots=True)
class GameOutput:
    """What one game leaves behind: its two logs and its rows."""

    index: int
    tenhou6: str
    mjai: str
    seats: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    faults: list[dict[str, Any]] = dataclasses.field(default_factory=list)


Seat = PolicySeat | BotSeat


def seats_for(
    names: Sequence[str], registry: Registry | None = None, strict_bots: bool = False
) -> dict[str, Seat]:
    """One seat object per policy name: policies keep no state between decisions, so one instance
    serves every seat it sits in, game after game (built once per worker by the runner), and they
    share one HandMath (bounded memos of hand figures). An outside bot's seat object runs one
    process per seat it plays; the processes are stopped when the worker ends (or by
    :func:`close_seats`)."""
    math = HandMath(memo_limit=PLAY_MEMO_LIMIT)
    registry = registry if registry is not None else builtin_registry()
    seats: dict[str, Seat] = {}
    for n in dict.fromkeys(names):
        policy = build_policy(registry.spec(n), math)
        if isinstance(policy, MjaiBot):
            seats[n] = BotSeat(n, policy, strict_bots)
        else:
            seats[n] = PolicySeat(n, math=math, policy=policy)
    if any(isinstance(s, BotSeat) for s in seats.values()):
        multiprocessing.util.Finalize(None, close_seats, args=(seats,), exitpriority=10)
    return seats


def close_seats(seats: dict[str, Seat]) -> None:
    """Stop the outside bots' processes."""
    for s in seats.values():
        if isinstance(s, BotSeat):
            s.close()


def play(spec: GameSpec, seats: dict[str, Seat] | None = None) -> PlayedGame:
    """Play one planned game with the registered policies (``seats``: prebuilt, by name)."""
    own = seats is None
    seats = seats if seats is not None else seats_for(spec.policies)
    try:
        return play_game(spec, [seats[n] for n in spec.policies])
    finally:
        if own:
            close_seats(seats)


def game_output(g: PlayedGame) -> GameOutput:
    log = GameLog(path=g.game_id, format="simulate", game_id=g.game_id, events=g.events)
    spec = g.spec
    seats = []
    for s in range(len(spec.policies)):
        t = g.tallies[s]
        seats.append(
            {
                "game": spec.index,
                "deal": spec.deal,
                "rotation": spec.rotation,
                "seed": spec.seed,
                "seat": s,
                "policy": spec.policies[s],
                "score": g.scores[s],
                "placement": g.placements[s],
                "points": g.points[s],
                "rounds": t.rounds,
                "wins": t.wins,
                "tsumo": t.tsumo,
                "deal_ins": t.deal_ins,
                "riichi": t.riichi,
                "calls": t.calls,
                "win_points": t.win_points,
                "deal_in_points": t.deal_in_points,
                "faults": t.faults,
            }
        )
    return GameOutput(spec.index, write_tenhou6(log), write_mjai(log), seats, g.rounds, g.faults)


def _play_task(seats: dict[str, Seat], spec: GameSpec) -> GameOutput:
    return game_output(play(spec, seats))


def log_names(index: int) -> tuple[str, str]:
    """The two log files of game ``index`` (tenhou.net/6, mjai), relative to the run's folder."""
    name = f"{LOG_DIR}/sim-{index:06d}"
    return name + TENHOU6_SUFFIX, name + MJAI_SUFFIX


# ---------------------------------------------------------------- a parted run (see mjcli.ledger)

#: the tables of a simulation: files ``NAME.parquet``, or a parted run's folders
TABLES = ("games", "rounds")


def _play_group(seats: dict[str, Seat], group: tuple[GameSpec, ...]) -> list[GameOutput]:
    return [game_output(play(spec, seats)) for spec in group]


def _split_group(outputs: list[GameOutput]) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    """A deal's games as the parts of a parted run, and what the summary needs of them."""
    from mjcli.ledger import to_frame

    frames = {
        "games": to_frame([row for o in outputs for row in o.seats], games_schema()),
        "rounds": to_frame([row for o in outputs for row in o.rounds], rounds_schema()),
    }
    faults = [f for o in outputs for f in o.faults]
    return frames, {"rounds": [len(o.rounds) for o in outputs], "faults": faults}


def _group_logs(outputs: list[GameOutput]) -> dict[str, str]:
    files: dict[str, str] = {}
    for o in outputs:
        tenhou6, mjai = log_names(o.index)
        files[tenhou6] = o.tenhou6
        files[mjai] = o.mjai
    return files


def _group_label(group: tuple[GameSpec, ...]) -> str:
    return f"deal {group[0].deal}"


def _group_fingerprint(group: tuple[GameSpec, ...]) -> tuple[str, str]:
    """A deal's label and the digest of its games' plans (seeds, seats, rules, hands shown)."""
    plans = [
        [s.index, s.seed, s.deal, s.rotation, list(s.policies), s.rules.name, list(s.hands_shown)]
        for s in group
    ]
    from mjcli.ledger import text_sha256

    return _group_label(group), text_sha256(json.dumps(plans))


def parted_options(
    names: Sequence[str],
    registry: Registry,
    table: Rules,
    seed: int,
    duplicate: bool,
    shown: Sequence[str],
    strict_bots: bool,
) -> dict[str, Any]:
    """What a simulation's rows depend on besides its games' plans (a parted run's options)."""
    return {
        "command": "simulate",
        "game": "riichi",
        "players": list(names),
        "policies": [identity(registry.spec(n)) for n in dict.fromkeys(names)],
        "rules": dataclasses.asdict(table),
        "seed": seed,
        "duplicate": duplicate,
        "hands_shown": list(shown),
        "strict_bots": strict_bots,
    }


def run_games(
    specs: Sequence[GameSpec],
    jobs: int = 1,
    registry: Registry | None = None,
    strict_bots: bool = False,
    backend: Backend | None = None,
) -> Iterator[GameOutput]:
    """The games' outputs in game order, whatever ``jobs`` (or ``backend``) is."""
    names = sorted({n for spec in specs for n in spec.policies})
    if runs_here(backend, jobs, len(specs)):
        # in this process: the bots' processes are stopped as soon as the run ends (or stops)
        seats = seats_for(names, registry, strict_bots)
        try:
            yield from ordered_map(_play_task, specs, jobs=1, setup=shared(seats))
        finally:
            close_seats(seats)
        return
    setup = functools.partial(seats_for, names, registry, strict_bots)
    # With the built-in policies only, this process plays games itself while the workers start
    # (runner's ``main_helps``, as replay and verify; bench_speed: "simulate --jobs 2 vs 1"). Not
    # with a plugin or a bot, whose set-up may start processes that only a worker's end would stop.
    known = registry if registry is not None else builtin_registry()
    helps = all(known.spec(n).source == BUILTIN for n in names)
    yield from ordered_map(
        _play_task,
        specs,
        jobs=jobs,
        setup=setup,
        backend=backend,
        preload=(SHANTEN_TABLES,),
        main_helps=helps,
        imports_meanwhile=("polars",),  # the caller's tables of the games, from the first one on
    )


# ---------------------------------------------------------------- the run


def simulate(
    players: str | Sequence[str],
    games: int,
    seed: int,
    *,
    out: str | os.PathLike[str] | None = None,
    length: str | None = None,
    rules: str | None = None,
    duplicate: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    registry: Registry | None = None,
    strict_bots: bool = False,
    backend: Backend | None = None,
    open_riichi: bool = False,
    hands_shown: str | Sequence[str] = DEFAULT_HANDS_SHOWN,
    parted: PartedRun | None = None,
) -> dict[str, Any]:
    """Play the run and return its summary; with ``out``, write the logs and tables there.

    With ``parted`` (a run whose folder ``out`` is, or will be once staged) the tables are that
    run's dataset and the logs go to its folder, written by the tasks themselves, a deal's games a
    task (see :mod:`mjcli.ledger`; :func:`parted_options` is what the run's options must be);
    ``out`` gets the summary (and the faults).

    The seats of the policies named in ``hands_shown`` (default: every ``akagi`` seat; ``"none"`` or
    ``()``: no seat) play with their hand shown; ``open_riichi`` plays the house rule
    (:attr:`~mjcli.riichi.rules.Rules.open_riichi`: the riichi of such a seat is an open riichi).

    ``progress`` is called once per game with the number of rounds it had. ``rules`` None: see
    :func:`default_rules`. ``registry`` resolves the names (default: the built-ins); with outside
    bots among the players the summary has ``faults`` (per policy) and ``out`` gets ``faults.jsonl``;
    ``strict_bots`` stops the run at a bot's first fault (:class:`~mjcli.riichi.simulate.seats.BotFault`).
    """
    registry = registry if registry is not None else builtin_registry()
    names = parse_players(players, registry)
    bots = sorted({n for n in names if registry.spec(n).source == BOT})
    table = table_rules(rules or default_rules(names), length, names, open_riichi)
    shown = parse_hands_shown(hands_shown, registry)
    if backend is not None:
        jobs = backend.workers()
    if jobs < 1:
        raise UsageError(f"--jobs {jobs}: use at least one job")
    out_dir = Path(out) if out is not None else None
    if out_dir is not None:
        for d in (out_dir, out_dir / LOG_DIR):
            if d.exists() and not d.is_dir():
                raise UsageError(f"--out: '{d}' exists and is not a directory")
        _clear_old_logs(out_dir / LOG_DIR)
    specs = game_specs(names, games, seed, table, duplicate, shown)
    faults: list[dict[str, Any]] = []
    start = time.perf_counter()
    if parted is not None:
        for note in _run_parted(parted, specs, jobs, registry, strict_bots, backend):
            faults.extend(note["faults"])
            if progress is not None:
                for n in note["rounds"]:
                    progress(n)
        seconds = time.perf_counter() - start
        frame = parted.scan("games").collect()
        rounds_count = parted.rows("rounds")
    else:
        outputs = run_games(specs, jobs, registry, strict_bots, backend)
        with contextlib.closing(outputs):
            # The first game before the tables are opened: Polars is then imported while the workers
            # play, not before they start (see the note at the imports)
            first = next(outputs, None)
            from mjcli.ledger import RowBuffer

            seat_rows = RowBuffer(games_schema())
            round_rows = RowBuffer(rounds_schema())
            for o in itertools.chain([first] if first is not None else [], outputs):
                seat_rows.extend(o.seats)
                round_rows.extend(o.rounds)
                faults.extend(o.faults)
                if out_dir is not None:
                    for name, text in zip(log_names(o.index), (o.tenhou6, o.mjai), strict=True):
                        write_text_atomic(out_dir / name, text)
                if progress is not None:
                    progress(len(o.rounds))
        seconds = time.perf_counter() - start
        frame = seat_rows.frame()
        rounds_frame = round_rows.frame()
        rounds_count = rounds_frame.height
    from mjcli.riichi.simulate.figures import paired_differences, policy_summary

    policies = list(dict.fromkeys(names))
    summary: dict[str, Any] = {
        "game": "riichi",
        "players": names,
        "seed": seed,
        "rules": table.name,
        "length": table.length,
        "duplicate": duplicate,
        "hands_shown": [n for n in dict.fromkeys(names) if n in shown],
        "deals": games,
        "games": len(specs),
        "rounds": rounds_count,
        "policies": policy_summary(frame, policies, table.players),
        "paired": paired_differences(frame, policies) if duplicate and len(policies) > 1 else [],
        "seconds": round(seconds, 3),
        "jobs": jobs,
    }
    if table.players != 4:
        summary["seats"] = table.players  # (four-player summaries stay as they always were)
    if bots:
        summary["faults"] = {n: sum(1 for f in faults if f["bot"] == n) for n in bots}
        summary["fault_list"] = faults
    if out_dir is not None:
        if parted is None:
            write_atomic(out_dir / "games.parquet", frame.write_parquet)
            write_atomic(out_dir / "rounds.parquet", rounds_frame.write_parquet)
        else:
            parted.write_contents(out_dir)
        # No timing in the file: the same command writes the same bytes.
        stable = {k: v for k, v in summary.items() if k not in ("seconds", "jobs", "fault_list")}
        write_text_atomic(out_dir / "summary.json", json.dumps(stable, indent=1, ensure_ascii=False) + "\n")
        if bots:
            text = "".join(json.dumps(f, ensure_ascii=False) + "\n" for f in faults)
            write_text_atomic(out_dir / FAULTS_FILE, text)
    return summary


def _run_parted(
    parted: PartedRun,
    specs: Sequence[GameSpec],
    jobs: int,
    registry: Registry | None,
    strict_bots: bool,
    backend: Backend | None,
) -> Iterator[dict[str, Any]]:
    """The notes of every deal of a parted run, in order (see :func:`run_games` for the seats)."""
    from mjcli.ledger import grouped

    names = sorted({n for spec in specs for n in spec.policies})
    groups = grouped(specs, lambda spec: spec.deal)  # a duplicate set is one task
    common = {"label": _group_label, "jobs": jobs, "backend": backend, "files": _group_logs}
    if runs_here(backend, jobs, len(groups)):
        seats = seats_for(names, registry, strict_bots)
        try:
            yield from parted.run(
                _play_group, _split_group, _group_fingerprint, groups, setup=shared(seats), **common
            )
        finally:
            close_seats(seats)
        return
    setup = functools.partial(seats_for, names, registry, strict_bots)
    yield from parted.run(_play_group, _split_group, _group_fingerprint, groups, setup=setup, **common)


def folder_summary(folder: Path) -> dict[str, Any]:
    """The summary of a simulation's ``--out`` folder: its summary.json, with every figure worked out
    again from its games table (``games.parquet``, or the parts of a run on Ray or resumed)."""
    import polars as pl

    from mjcli.ledger import table_source
    from mjcli.riichi.simulate.figures import paired_differences, policy_summary

    try:
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        if not isinstance(summary, dict):
            raise TypeError("summary.json holds no object")
        game = summary.get("game", "riichi")
        if game not in ("riichi",):
            hint = "its summary.json holds its figures" if game == "doudizhu" else "give that --game"
            raise UsageError(f"'{folder}' holds a simulation of --game {game}: {hint}")
        frame = pl.read_parquet(table_source(folder, "games"))  # type: ignore[arg-type]
        policies = list(dict.fromkeys(summary["players"]))
        seats = int(summary.get("seats", 4))
        duplicate = bool(summary["duplicate"])
    except (OSError, ValueError, KeyError, TypeError, pl.exceptions.PolarsError) as exc:
        raise UsageError(f"'{folder}' is not a riichi simulation's output ({type(exc).__name__})") from None
    summary["policies"] = policy_summary(frame, policies, seats)
    summary["paired"] = paired_differences(frame, policies) if duplicate and len(policies) > 1 else []
    return summary


def _clear_old_logs(logs: Path) -> None:
    """Logs of an earlier run in the same directory would be read with this run's by `verify`:
    remove the files this command writes (and only those)."""
    if not logs.is_dir():
        return
    for f in logs.iterdir():
        if f.is_file() and _LOG_NAME.match(f.name):
            f.unlink()
