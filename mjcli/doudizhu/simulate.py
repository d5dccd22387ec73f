"""Play whole Dou Dizhu games between policies, in parallel, with the same results for any --jobs.

Two modes:

- Table games (default): game ``g`` seats the listed policies rotated by ``g`` (seat ``s`` gets
  ``players[(s + g) % len(players)]``), deals from ``"{seed}:{g}"``, bids, plays, and settles
  with the standard stake (bid, bombs, rocket, spring).
- Duplicate (DouZero-style): deal ``d`` is played with seat 0 as the landlord and no bidding, under
  DouZero's scoring (landlord +-2, each peasant +-1, times 2^bombs). The first listed policy A is
  compared with each other listed policy B on the same deals, in three line-ups:
  ``A|BB`` (A landlord, B peasants), ``B|BB`` and ``B|AA``. ``A|BB`` against ``B|BB`` measures
  A as landlord against the same opponents, ``B|AA`` against ``B|BB`` A as peasants, and
  ``A|BB`` with ``B|AA`` is DouZero's comparison with the sides swapped.

Each game is a pure function of its spec, so games are farmed out to worker processes and
collected in order.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjcli.atomic import atomic_path, write_atomic, write_text_atomic
from mjcli.doudizhu.cards import deal
from mjcli.doudizhu.engine import LANDLORD, PEASANT, DoudizhuRules, play_game
from mjcli.doudizhu.moves import KickerRule, kicker_rule
from mjcli.doudizhu.policies import PluginError, get_policy
from mjcli.doudizhu.summary import duplicate_summary, role_summary
from mjcli.errors import UsageError
from mjcli.ledger import PartedRun, grouped, text_sha256, to_frame
from mjcli.plugins import Registry, identity
from mjcli.runner import Backend, ordered_map

# Polars is imported where a frame is made or read, not here: a process that has imported it does
# not fork its workers (mjcli.runner.forks_workers)
if TYPE_CHECKING:
    import polars as pl


@dataclass(frozen=True, slots=True)
class GamePlan:
    game: int
    deal: int
    seed: str
    players: tuple[str, str, str]
    lineup: str  # "table" or e.g. "zhanpai|greedy,greedy"
    duplicate: bool
    kicker: str


def game_specs(players: list[str], games: int, seed: int, duplicate: bool, kicker: str) -> list[GamePlan]:
    if not players:
        raise UsageError("--players names no policy")
    if games < 1:
        raise UsageError(f"--games must be at least 1, got {games}")
    specs: list[GamePlan] = []
    if not duplicate and len(players) > 3:
        # (as riichi's one to four): more would rotate a pool of policies through three seats,
        # which no summary reads as a table; --duplicate plays the first against each of the others
        raise UsageError(
            f"--players '{','.join(players)}': give one to three policy names for the three seats "
            "(or --duplicate, which plays the first against each of the others)"
        )
    if not duplicate:
        k = len(players)
        for g in range(games):
            seats = tuple(players[(s + g) % k] for s in range(3))
            specs.append(GamePlan(g, g, f"{seed}:{g}", seats, "table", False, kicker))  # type: ignore[arg-type]
        return specs
    if len(players) < 2:
        raise UsageError("--duplicate compares the first policy with the others: name at least two")
    # A name given twice would play the same line-ups twice (a game is a pure function of its deal
    # and line-up) and the comparison, which finds games by line-up, would count each deal twice (or
    # three times when the first policy is also an opponent: A|AA is every line-up at once).
    repeated = next((n for i, n in enumerate(players) if n in players[:i]), None)
    if repeated is not None:
        raise UsageError(
            f"--players '{','.join(players)}': '{repeated}' is named twice; --duplicate compares the "
            "first policy with each other one, so name each once"
        )
    a = players[0]
    for d in range(games):
        for b in players[1:]:
            for landlord, peasant in ((a, b), (b, b), (b, a)):
                lineup = f"{landlord}|{peasant},{peasant}"
                specs.append(
                    GamePlan(len(specs), d, f"{seed}:{d}", (landlord, peasant, peasant), lineup, True, kicker)
                )
    return specs


def play_spec(spec: GamePlan, built: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play one game of the spec; the record carries the spec's identifiers. ``built``: the policy
    objects by name (policies keep no state between decisions, so one serves every seat)."""
    built = built if built is not None else _policies_by_name(spec.players)
    policies = [built[n] for n in spec.players]
    try:
        return _play_spec(spec, policies)
    except PluginError as exc:  # a plugin's bug stops the run: which game
        raise PluginError(f"game {spec.game} (seed {spec.seed}): {exc}") from None


def _play_spec(spec: GamePlan, policies: list[Any]) -> dict[str, Any]:
    kicker = KickerRule(spec.kicker)
    if spec.duplicate:
        hands, kitty = deal(random.Random(f"deal:{spec.seed}"))
        rules = DoudizhuRules(kicker=kicker, bidding=False, springs=False)  # DouZero's setting
        record = play_game(
            policies, f"{spec.seed}:{spec.lineup}", rules, hands=hands, kitty=kitty, landlord=0
        )
    else:
        record = play_game(policies, spec.seed, DoudizhuRules(kicker=kicker))
    return {"game": spec.game, "deal": spec.deal, "lineup": spec.lineup, **record}


def _policies_by_name(names: Sequence[str], registry: Registry | None = None) -> dict[str, Any]:
    return {name: get_policy(name, registry) for name in dict.fromkeys(names)}


def run_games(
    specs: list[GamePlan],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    registry: Registry | None = None,
    backend: Backend | None = None,
) -> Iterator[dict[str, Any]]:
    """Records of the specs' games, in spec order, played by ``jobs`` worker processes (which
    build the policies from ``registry``'s specs)."""
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    names = sorted({n for spec in specs for n in spec.players})
    setup = functools.partial(_policies_by_name, names, registry)
    for rec in ordered_map(_play_task, specs, jobs=jobs, setup=setup, backend=backend):
        if progress:
            progress(1)
        yield rec


def _play_task(built: dict[str, Any], spec: GamePlan) -> dict[str, Any]:
    return play_spec(spec, built)


def record_line(record: dict[str, Any]) -> str:
    """A game's line of ``games.jsonl``."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


# ---------------------------------------------------------------- a parted run (see mjcli.ledger)

#: the tables of a simulation as a parted run: the seats' rows, and each game's record (a line of
#: games.jsonl, which the run writes from them at its end)
TABLES = ("games", "records")
#: column types as Python types, which Polars reads as Int64, String, Boolean and Float64: this
#: module imports Polars only where it makes a frame, so that a run's process can fork its workers
#: (mjcli.runner.forks_workers)
RECORDS_SCHEMA = {"game": int, "record": str}


def _play_group(built: dict[str, Any], group: tuple[GamePlan, ...]) -> list[dict[str, Any]]:
    return [play_spec(spec, built) for spec in group]


def _split_group(records: list[dict[str, Any]]) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    frames = {
        "games": to_frame([row for r in records for row in seat_rows(r)], GAMES_SCHEMA),
        "records": to_frame([{"game": r["game"], "record": record_line(r)} for r in records], RECORDS_SCHEMA),
    }
    return frames, {"games": len(records)}


def _group_label(group: tuple[GamePlan, ...]) -> str:
    return f"deal {group[0].deal}"


def _group_fingerprint(group: tuple[GamePlan, ...]) -> tuple[str, str]:
    """A deal's label and the digest of its games' plans."""
    plans = [[g.game, g.deal, g.seed, list(g.players), g.lineup, g.duplicate, g.kicker] for g in group]
    return _group_label(group), text_sha256(json.dumps(plans))


def parted_options(
    players: Sequence[str], seed: int, duplicate: bool, kicker: str, registry: Registry | None
) -> dict[str, Any]:
    """What a simulation's rows depend on besides its games' plans (a parted run's options)."""
    return {
        "command": "simulate",
        "game": "doudizhu",
        "players": list(players),
        # the built-ins' code is mjcli's own (its version is in the digest)
        "policies": [identity(registry.spec(n)) if registry else {"name": n} for n in dict.fromkeys(players)],
        "seed": seed,
        "duplicate": duplicate,
        "kicker": kicker,
    }


def _write_records(parted: PartedRun, target: Path) -> None:
    """games.jsonl from the records' parts, in game order, a part at a time."""
    import polars as pl

    with atomic_path(target) as tmp, tmp.open("w", encoding="utf-8") as f:
        for part in parted.part_paths("records"):
            f.writelines(pl.read_parquet(part, columns=["record"])["record"].to_list())


def seat_rows(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of games.parquet for one game: one per seat."""
    rows = []
    landlord = record["landlord"]
    for seat in range(3):
        role = LANDLORD if seat == landlord else PEASANT
        rows.append(
            {
                "game": record["game"],
                "deal": record["deal"],
                "seed": record["seed"],
                "lineup": record["lineup"],
                "seat": seat,
                "policy": record["players"][seat],
                "role": role,
                "bid": record["bid"],
                "bombs": record["bombs"],
                "spring": record["spring"],
                "stake": record["stake"],
                "points": record["points"][seat],
                "win": record["landlord_won"] == (role == LANDLORD),
                "plays": sum(1 for p in record["plays"] if p[0] == seat and p[2] != "pass"),
                "turns": len(record["plays"]),
            }
        )
    return rows


def simulate(
    players: list[str],
    games: int,
    seed: int,
    *,
    out: str | os.PathLike[str] | None = None,
    duplicate: bool = False,
    kicker: str = "douzero",
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    registry: Registry | None = None,
    backend: Backend | None = None,
    parted: PartedRun | None = None,
) -> dict[str, Any]:
    """Play the games; write ``games.parquet``, ``games.jsonl`` (records) and ``summary.json`` under
    ``out`` (atomically); return the summary (role table, duplicate comparison, speed). ``registry``
    resolves the names (default: the built-ins). With ``parted`` the seats' rows and the records
    are that run's dataset, written by the tasks, a deal's games a task (see :mod:`mjcli.ledger`);
    ``out`` gets ``games.jsonl`` (from the records' parts) and the summary."""
    kicker_rule(kicker)
    if backend is not None:
        jobs = backend.workers()
    for name in players:
        get_policy(name, registry)
    specs = game_specs(players, games, seed, duplicate, kicker)
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    out_dir = Path(out) if out is not None else None
    if parted is not None:
        names = sorted({n for spec in specs for n in spec.players})
        for note in parted.run(
            _play_group,
            _split_group,
            _group_fingerprint,
            grouped(specs, lambda spec: spec.deal),  # a duplicate set is one task
            label=_group_label,
            setup=functools.partial(_policies_by_name, names, registry),
            jobs=jobs,
            backend=backend,
        ):
            if progress:
                progress(note["games"])
        frame = parted.scan("games").collect()
        if out_dir is not None:
            _write_records(parted, out_dir / "games.jsonl")
    else:
        with contextlib.ExitStack() as stack:
            records = None
            if out_dir is not None:
                tmp = stack.enter_context(atomic_path(out_dir / "games.jsonl"))
                records = stack.enter_context(tmp.open("w", encoding="utf-8"))
            for record in run_games(specs, jobs, progress, registry, backend):
                rows.extend(seat_rows(record))
                if records is not None:
                    records.write(record_line(record))
        frame = to_frame(rows, GAMES_SCHEMA)
    import polars as pl  # once the games are played: the workers are forked without it

    seconds = time.perf_counter() - start
    roles = role_summary(frame)
    dup = duplicate_summary(frame, players) if duplicate else pl.DataFrame()
    summary = {
        "game": "doudizhu",
        "players": players,
        "games": len(specs),
        "deals": games,
        "seed": seed,
        "duplicate": duplicate,
        "kicker": kicker,
        "roles": roles.to_dicts(),
        "comparison": dup.to_dicts(),
        "landlord_wins": int(frame.filter(pl.col("role") == "landlord")["win"].sum()),
        "seconds": round(seconds, 3),
        "jobs": jobs,
    }
    if out_dir is not None:
        if parted is None:
            write_atomic(out_dir / "games.parquet", frame.write_parquet)
        else:
            parted.write_contents(out_dir)
        # The summary file holds no timing, so the same command writes the same bytes.
        stable = {k: v for k, v in summary.items() if k not in ("seconds", "jobs")}
        write_text_atomic(out_dir / "summary.json", json.dumps(stable, indent=1) + "\n")
    return summary


GAMES_SCHEMA = {
    "game": int,
    "deal": int,
    "seed": str,
    "lineup": str,
    "seat": int,
    "policy": str,
    "role": str,
    "bid": int,
    "bombs": int,
    "spring": bool,
    "stake": int,
    "points": int,
    "win": bool,
    "plays": int,
    "turns": int,
}
