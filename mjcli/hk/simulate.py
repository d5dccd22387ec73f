"""Hong Kong (and Red) simulation: seat the policies, play whole games through the engine, write
the logs and tables, summarise.

:func:`simulate` plans the games (:func:`game_specs`), plays them in order (in worker processes
through :func:`mjcli.runner.ordered_map` with ``jobs > 1``, results in game order), writes each
game's log (:mod:`mjcli.hk.formats.hklog`) as it arrives, then ``games.parquet`` (one row per game
and seat), ``rounds.parquet`` (one row per hand) and ``summary.json``, and returns the summary
(:mod:`mjcli.hk.figures`: per policy, every figure with its 95 % interval; with ``duplicate`` the
paired differences).

Seating as for riichi: the policy list (one to four names) is repeated to fill the four seats;
game ``i`` rotates it by ``i mod 4``. With ``duplicate`` each deal is played once per distinct
rotation on the same walls (a hand's wall is a function of the game's seed and the hand's number).
A game's seed is a digest of ``(seed, deal)``, so the same command writes the same bytes for any
number of jobs.
"""

from __future__ import annotations

import functools
import json
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjcli.atomic import write_atomic, write_text_atomic
from mjcli.errors import MjcliError, UsageError, short_path
from mjcli.hk.engine import GameProgress, HandState, IllegalMove, placements
from mjcli.hk.engine.table import WIND_LETTERS
from mjcli.hk.engine.wall import game_seed, shuffled
from mjcli.hk.figures import paired_differences, policy_summary
from mjcli.hk.formats import write_game
from mjcli.hk.notation import tile_text
from mjcli.hk.policies import Policy, get_policy, plugin_identities
from mjcli.hk.rules import HKRules
from mjcli.ledger import PartedRun, RowBuffer, grouped, table_source, text_sha256, to_frame
from mjcli.plugins import Registry
from mjcli.runner import Backend, ordered_map

# Polars is imported where a frame is made or read, not here: a process that has imported it does
# not fork its workers (mjcli.runner.forks_workers)
if TYPE_CHECKING:
    import polars as pl

LOG_DIR = "logs"
_LOG_NAME = re.compile(r"hk-\d{6}\.json$")

#: column types as Python types, which Polars reads as Int64, String and List: this module imports
#: Polars only where it reads a frame, so that a run's process can fork its workers
#: (mjcli.runner.forks_workers)
GAMES_SCHEMA: dict[str, Any] = {
    "game": int,
    "deal": int,
    "rotation": int,
    "seed": int,
    "seat": int,
    "policy": str,
    "score": int,
    "placement": int,
    "hands": int,
    "wins": int,
    "self_drawn": int,
    "deal_ins": int,
    "calls": int,
    "win_faan": int,
    "win_points": int,
    "deal_in_points": int,
}
ROUNDS_SCHEMA: dict[str, Any] = {
    "game": int,
    "hand_index": int,
    "round": str,
    "prevailing": str,
    "dealer": int,
    "repeat": int,
    "result": str,
    "how": str,
    "winner": int,
    "discarder": int,
    "tile": str,
    "faan": int,
    "items": list[str],
    "deltas": list[int],
    "calls": list[int],
    "bonus": list[int],
    "wall_left": int,
}


class PolicyError(MjcliError):
    """A policy answered a move that is not legal: the run stops, naming where."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    index: int
    seed: int
    deal: int
    rotation: int
    policies: tuple[str, ...]
    rules: HKRules


def parse_players(text: str | Sequence[str], registry: Registry | None = None) -> list[str]:
    """One to four registered policy names (repeats allowed: they fill the seats in order), known to
    ``registry`` (default: the built-ins)."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text) if n.strip()]
    if not 1 <= len(names) <= 4:
        raise UsageError(f"--players '{text}': give one to four policy names for the four seats")
    for n in names:
        if registry is None:
            get_policy(n)
        else:
            registry.spec(n)
    return names


def lineup(names: Sequence[str], rotation: int) -> tuple[str, ...]:
    base = [names[i % len(names)] for i in range(4)]
    return tuple(base[(s + rotation) % 4] for s in range(4))


def game_specs(
    names: Sequence[str], games: int, seed: int, rules: HKRules, duplicate: bool
) -> list[GameSpec]:
    """Every game of the run, in order; ``games`` counts deals when ``duplicate``."""
    if games < 1:
        raise UsageError(f"--games {games}: play at least one game")
    specs: list[GameSpec] = []
    for deal in range(games):
        gseed = game_seed(seed, deal)
        if duplicate:
            seen: set[tuple[str, ...]] = set()
            for rotation in range(4):
                seats = lineup(names, rotation)
                if seats not in seen:
                    seen.add(seats)
                    specs.append(GameSpec(len(specs), gseed, deal, rotation, seats, rules))
        else:
            rotation = deal % 4
            specs.append(GameSpec(deal, gseed, deal, rotation, lineup(names, rotation), rules))
    return specs


# ---------------------------------------------------------------- one game


@dataclass(slots=True)
class GameOutput:
    index: int
    log: str
    seats: list[dict[str, Any]]
    rounds: list[dict[str, Any]]


def play_hand(state: HandState, bots: Sequence[Policy], where: str) -> None:
    """Ask the seats until the hand is over."""
    while state.result is None:
        for seat, legal in state.pending().items():
            move, _ = bots[seat].decide(state.view(seat), legal)
            try:
                state.act(seat, move)  # checks that the move is legal (once, there)
            except IllegalMove:
                raise PolicyError(
                    f"{where}: policy {bots[seat].name} in seat {seat} answered '{move.text()}', "
                    f"not among {', '.join(m.text() for m in legal)}"
                ) from None


def play_game(spec: GameSpec, bots: dict[str, Policy]) -> GameOutput:
    rules = spec.rules
    seated = [bots[n] for n in spec.policies]
    progress = GameProgress(rules)
    hands: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []
    tally = [
        dict.fromkeys(
            ("wins", "self_drawn", "deal_ins", "calls", "win_faan", "win_points", "deal_in_points"), 0
        )
        for _ in range(4)
    ]
    while not progress.finished:
        label = progress.label()
        wall = shuffled(spec.seed, progress.hand_index, rules.jokers)
        state = HandState(rules, wall, progress.dealer, progress.prevailing)
        play_hand(state, seated, f"game {spec.index} hand {progress.hand_index} ({label})")
        r = state.result
        assert r is not None
        record = {
            "index": progress.hand_index,
            "round": label,
            "prevailing": WIND_LETTERS[progress.prevailing],
            "dealer": progress.dealer,
            "repeat": progress.repeat,
            "wall": [tile_text(t) for t in wall],
            "events": state.events,
            "result": r.to_dict(),
        }
        calls = [sum(1 for m in state.melds[s] if m.kind != "ankan") for s in range(4)]
        rounds.append(
            {
                "game": spec.index,
                "hand_index": progress.hand_index,
                "round": label,
                "prevailing": WIND_LETTERS[progress.prevailing],
                "dealer": progress.dealer,
                "repeat": progress.repeat,
                "result": r.kind,
                "how": r.how,
                "winner": r.winner,
                "discarder": r.discarder,
                "tile": None if r.tile is None else tile_text(r.tile),
                "faan": None if r.score is None else r.score.faan,
                "items": [] if r.score is None else [f"{i}:{f}" for i, _, f in r.score.items],
                "deltas": list(r.deltas),
                "calls": calls,
                "bonus": [len(b) for b in state.bonus],
                "wall_left": state.wall.left,
            }
        )
        for s in range(4):
            tally[s]["calls"] += calls[s] > 0
        if r.winner is not None and r.score is not None:
            t = tally[r.winner]
            t["wins"] += 1
            t["self_drawn"] += r.discarder is None
            t["win_faan"] += r.score.faan
            t["win_points"] += r.deltas[r.winner]
            if r.discarder is not None:
                tally[r.discarder]["deal_ins"] += 1
                tally[r.discarder]["deal_in_points"] -= r.deltas[r.discarder]
        progress.after(r)
        record["scores"] = list(progress.scores)
        hands.append(record)
    places = placements(progress.scores)
    game = {
        "format": "mjcli-hk-log",
        "version": 1,
        "game": rules.name,
        "rules": rules.to_dict(),
        "seed": spec.seed,
        "deal": spec.deal,
        "rotation": spec.rotation,
        "players": list(spec.policies),
        "hands": hands,
        "final": {"scores": list(progress.scores), "placements": places},
    }
    seats = [
        {
            "game": spec.index,
            "deal": spec.deal,
            "rotation": spec.rotation,
            "seed": spec.seed,
            "seat": s,
            "policy": spec.policies[s],
            "score": progress.scores[s],
            "placement": places[s],
            "hands": len(hands),
            **tally[s],
        }
        for s in range(4)
    ]
    return GameOutput(spec.index, write_game(game), seats, rounds)


def bots_for(names: Sequence[str], registry: Registry | None = None) -> dict[str, Policy]:
    """One policy object per name (built in each worker from ``registry``'s picklable specs): the
    built-ins keep no state, so one serves every seat and game."""
    return {n: get_policy(n, registry) for n in dict.fromkeys(names)}


def _play_task(bots: dict[str, Policy], spec: GameSpec) -> GameOutput:
    return play_game(spec, bots)


def run_games(
    specs: Sequence[GameSpec],
    jobs: int = 1,
    backend: Backend | None = None,
    registry: Registry | None = None,
) -> Iterator[GameOutput]:
    names = sorted({n for spec in specs for n in spec.policies})
    setup = functools.partial(bots_for, names, registry)
    # the caller's row buffers make frames as the games come in: Polars imported while the workers
    # play their first games, not on a later answer while they wait for more (see the runner)
    yield from ordered_map(
        _play_task, specs, jobs=jobs, setup=setup, backend=backend, imports_meanwhile=("polars",)
    )


def log_name(index: int) -> str:
    """The log file of game ``index``, relative to the run's folder."""
    return f"{LOG_DIR}/hk-{index:06d}.json"


# ---------------------------------------------------------------- a parted run (see mjcli.ledger)

#: the tables of a simulation: files ``NAME.parquet``, or a parted run's folders
TABLES = ("games", "rounds")


def _play_group(bots: dict[str, Policy], group: tuple[GameSpec, ...]) -> list[GameOutput]:
    return [play_game(spec, bots) for spec in group]


def _split_group(outputs: list[GameOutput]) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    """A deal's games as the parts of a parted run, and what the progress needs of them."""
    frames = {
        "games": to_frame([row for o in outputs for row in o.seats], GAMES_SCHEMA),
        "rounds": to_frame([row for o in outputs for row in o.rounds], ROUNDS_SCHEMA),
    }
    return frames, {"hands": [len(o.rounds) for o in outputs]}


def _group_logs(outputs: list[GameOutput]) -> dict[str, str]:
    return {log_name(o.index): o.log for o in outputs}


def _group_label(group: tuple[GameSpec, ...]) -> str:
    return f"deal {group[0].deal}"


def _group_fingerprint(group: tuple[GameSpec, ...]) -> tuple[str, str]:
    """A deal's label and the digest of its games' plans (seeds, seats, rules)."""
    plans = [[s.index, s.seed, s.deal, s.rotation, list(s.policies), s.rules.to_dict()] for s in group]
    return _group_label(group), text_sha256(json.dumps(plans, sort_keys=True))


def parted_options(
    names: Sequence[str], seed: int, rules: HKRules, duplicate: bool, registry: Registry | None = None
) -> dict[str, Any]:
    """What a simulation's rows depend on besides its games' plans (a parted run's options): with
    plugins, what each is (its files' digests)."""
    options = {
        "command": "simulate",
        "game": rules.name,
        "players": list(names),
        "seed": seed,
        "rules": rules.to_dict(),
        "duplicate": duplicate,
    }
    plugins = plugin_identities(names, registry)
    return {**options, "plugins": plugins} if plugins else options


# ---------------------------------------------------------------- the run


def simulate(
    players: str | Sequence[str],
    games: int,
    seed: int,
    rules: HKRules,
    *,
    out: str | os.PathLike[str] | None = None,
    duplicate: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    parted: PartedRun | None = None,
    registry: Registry | None = None,
) -> dict[str, Any]:
    """Play the run and return its summary; with ``out``, write the logs and tables there.
    ``registry`` names the policies (default: the built-ins; plugins and entry points with it).
    ``progress`` is called once per game with its number of hands. With ``parted`` the tables are
    that run's dataset and the logs go to its folder, written by the tasks, a deal's games a task
    (see :mod:`mjcli.ledger`); ``out`` gets the summary."""
    names = parse_players(players, registry)
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
    specs = game_specs(names, games, seed, rules, duplicate)
    start = time.perf_counter()
    if parted is not None:
        setup = functools.partial(bots_for, sorted({n for spec in specs for n in spec.policies}), registry)
        for note in parted.run(
            _play_group,
            _split_group,
            _group_fingerprint,
            grouped(specs, lambda spec: spec.deal),  # a duplicate set is one task
            label=_group_label,
            setup=setup,
            jobs=jobs,
            backend=backend,
            files=_group_logs,
        ):
            if progress is not None:
                for n in note["hands"]:
                    progress(n)
        seconds = time.perf_counter() - start
        frame = parted.scan("games").collect()
        rounds_frame = parted.scan("rounds").select("result").collect()
    else:
        seat_rows = RowBuffer(GAMES_SCHEMA)
        round_rows = RowBuffer(ROUNDS_SCHEMA)
        for o in run_games(specs, jobs, backend, registry):
            seat_rows.extend(o.seats)
            round_rows.extend(o.rounds)
            if out_dir is not None:
                write_text_atomic(out_dir / log_name(o.index), o.log)
            if progress is not None:
                progress(len(o.rounds))
        seconds = time.perf_counter() - start
        frame = seat_rows.frame()
        rounds_frame = round_rows.frame()
    policies = list(dict.fromkeys(names))
    summary: dict[str, Any] = {
        "game": rules.name,
        "players": names,
        "seed": seed,
        "rules": rules.to_dict(),
        "duplicate": duplicate,
        "deals": games,
        "games": len(specs),
        "hands": rounds_frame.height,
        "draws": int((rounds_frame["result"] == "draw").sum()) if rounds_frame.height else 0,
        "policies": policy_summary(frame, policies),
        "paired": paired_differences(frame, policies) if duplicate and len(policies) > 1 else [],
        "seconds": round(seconds, 3),
        "jobs": jobs,
    }
    if out_dir is not None:
        if parted is None:
            write_atomic(out_dir / "games.parquet", frame.write_parquet)
            write_atomic(out_dir / "rounds.parquet", rounds_frame.write_parquet)
        else:
            parted.write_contents(out_dir)
        stable = {k: v for k, v in summary.items() if k not in ("seconds", "jobs")}
        write_text_atomic(out_dir / "summary.json", json.dumps(stable, indent=1, ensure_ascii=False) + "\n")
    return summary


def folder_summary(folder: Path) -> dict[str, Any]:
    """The summary of a simulation's ``--out`` folder: its summary.json, with every figure worked out
    again from its games table (``games.parquet``, or the parts of a run on Ray or resumed)."""
    import polars as pl

    try:
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        if not isinstance(summary, dict):  # what simulate writes is an object; .get below needs one
            shown = short_path(folder / "summary.json")
            raise UsageError(f"'{shown}' is not a simulation's summary (not a JSON object)")
        game = summary.get("game", "riichi")
        if game not in ("hk", "red"):
            hint = "its summary.json holds its figures" if game == "doudizhu" else "give that --game"
            raise UsageError(f"'{folder}' holds a simulation of --game {game}: {hint}")
        frame = pl.read_parquet(table_source(folder, "games"))  # type: ignore[arg-type]
        policies = list(dict.fromkeys(summary["players"]))
        duplicate = bool(summary["duplicate"])
    except (OSError, ValueError, KeyError, TypeError, pl.exceptions.PolarsError) as exc:
        raise UsageError(
            f"'{folder}' is not a Hong Kong simulation's output ({type(exc).__name__})"
        ) from None
    summary["policies"] = policy_summary(frame, policies)
    summary["paired"] = paired_differences(frame, policies) if duplicate and len(policies) > 1 else []
    return summary


def _clear_old_logs(logs: Path) -> None:
    """Logs of an earlier run in the same folder would be read with this run's: remove the files
    this command writes (and only those)."""
    if not logs.is_dir():
        return
    for f in logs.iterdir():
        if f.is_file() and _LOG_NAME.match(f.name):
            f.unlink()
