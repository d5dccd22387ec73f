"""Walk Dou Dizhu game records and ask policies at every decision point (bids, leads, follows).

Rows follow the columns of the riichi replay's decisions.parquet where they apply: file, game_id,
round ("1": a Dou Dizhu game is one round), turn, seat, player (who sat there in the record), kind
(bid/lead/follow), hand, actual, policy, choice, agree, reason; then lead (the combination to beat
on a follow) and role (landlord or peasant; null while bidding). A file that cannot be read, or a
record that breaks the rules, is reported and the batch goes on.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjcli.atomic import write_text_atomic
from mjcli.doudizhu.cards import format_counts
from mjcli.doudizhu.engine import BidView
from mjcli.doudizhu.formats import bid_text, move_text, read_records, walk
from mjcli.doudizhu.policies import PluginError, get_policy
from mjcli.errors import LogFormatError, UsageError, one_line
from mjcli.inputs import manifest, name_text
from mjcli.ledger import PartedRun, text_sha256, to_frame, write_table
from mjcli.plugins import BUILTIN, Registry, identity, reopening_options
from mjcli.runner import Backend, ordered_map

# Polars is imported where a frame is made, not here: a process that has imported it does not fork
# its workers (mjcli.runner.forks_workers); the column types below are Python types, which
# Polars reads as Int64, String and Boolean columns
if TYPE_CHECKING:
    import polars as pl

DECISIONS_SCHEMA = {
    "file": str,
    "game_id": str,
    "round": str,
    "turn": int,
    "seat": int,
    "player": str,
    "kind": str,
    "hand": str,
    "actual": str,
    "policy": str,
    "choice": str,
    "agree": bool,
    "reason": str,
    "lead": str,
    "role": str,
    "kicker": str,
}


def replay_record(
    file: str, record: dict[str, Any], policies: list[str], built: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The decision rows of one record; raises LogFormatError if the record is broken.

    ``built`` holds the policy objects by name (built here when not given)."""
    built = built if built is not None else {name: get_policy(name) for name in policies}
    rows: list[dict[str, Any]] = []
    game_id = str(record.get("game", record.get("seed", "")))
    players = record.get("players", ["?"] * 3)
    # the record's kicker rule (walk checks it is a name), for `mjcli advise --kicker` in the report
    kicker = str((record.get("rules") or {}).get("kicker", "douzero"))
    for point in walk(record):
        if isinstance(point.view, BidView):
            lead, role = None, None
        else:
            lead = point.view.lead.text() if point.view.lead is not None else None
            role = "landlord" if point.view.landlord == point.seat else "peasant"
        for name in policies:
            # Each question gets its own generator, so answers do not depend on the order asked.
            rng = random.Random(f"replay:{game_id}:{point.turn}:{name}")
            policy = built[name]
            try:
                if isinstance(point.view, BidView):
                    level, reason = policy.bid(point.view, rng)
                    choice = bid_text(level if level > point.view.highest else 0)
                else:
                    move, reason = policy.play(point.view, rng)
                    choice = move_text(move)
            except PluginError as exc:  # a plugin's bug stops the run: which record, which turn
                raise PluginError(f"{file} game {game_id} turn {point.turn}: {exc}") from None
            rows.append(
                {
                    "file": file,
                    "game_id": game_id,
                    "round": "1",
                    "turn": point.turn,
                    "seat": point.seat,
                    "player": str(players[point.seat]),
                    "kind": point.kind,
                    "hand": format_counts(point.view.hand),
                    "actual": point.actual,
                    "policy": name,
                    "choice": choice,
                    "agree": choice == point.actual,
                    "reason": reason,
                    "lead": lead,
                    "role": role,
                    "kicker": kicker,
                }
            )
    return rows


#: records sent to a worker at a time: enough to keep a worker busy between two messages
BLOCK = 64

#: a block of records of one file: (file, index of the first record, the records)
Block = tuple[str, int, list[dict[str, Any]]]
#: what a block gives back: per record, (index, rows, error or None)
BlockRows = list[tuple[int, list[dict[str, Any]], str | None]]


def _replay_block(context: tuple[list[str], dict[str, Any]], block: Block) -> BlockRows:
    names, built = context
    file, first, records = block
    out: BlockRows = []
    for i, record in enumerate(records, first):
        try:
            out.append((i, replay_record(file, record, names, built), None))
        except LogFormatError as exc:  # one line, a long input in it cut (a 3000-card "hand")
            out.append((i, [], one_line(str(exc))))
    return out


def _replay_block_of_file(context: tuple[list[str], dict[str, Any]], block: Block) -> tuple[str, BlockRows]:
    return block[0], _replay_block(context, block)


def _block_split(result: tuple[str, BlockRows]) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    """A block's rows as the part of a parted run, and what the summary needs of it (JSON values)."""
    import polars as pl

    file, results = result
    rows = [r for _, game_rows, _ in results for r in game_rows]
    note = {
        "records": len(results),
        "games": sum(1 for _, _, error in results if error is None),
        "errors": [
            {"file": file, "error": f"record {i + 1}: {error}"}
            for i, _, error in results
            if error is not None
        ],
    }
    return {"decisions": pl.DataFrame(rows, schema=DECISIONS_SCHEMA)}, note


def _block_fingerprint(block: Block) -> tuple[str, str]:
    """A block's label (its file and first record) and the SHA-256 of its records."""
    file, first, records = block
    return f"{file}#{first}", text_sha256(json.dumps(records, sort_keys=True, ensure_ascii=False))


def parted_options(policies: list[str], registry: Registry | None = None) -> dict[str, Any]:
    """What a Dou Dizhu replay's rows depend on besides the records (a parted run's options): with
    plugins, what each is (its files' SHA-256, :func:`mjcli.plugins.identity`)."""
    options: dict[str, Any] = {"command": "replay", "game": "doudizhu", "policies": list(policies)}
    # Named alone, a plugin whose file had changed kept its old answers on --resume (its parts'
    # key was the same). Built-ins are mjcli's code (the version is in the key): their options
    # stay as they were, as Hong Kong's replay does.
    specs = [registry.spec(n) for n in dict.fromkeys(policies)] if registry is not None else []
    plugins = [identity(s) for s in specs if s.source != BUILTIN]
    return {**options, "plugins": plugins} if plugins else options


def _policies_by_name(names: list[str], registry: Registry | None = None) -> tuple[list[str], dict[str, Any]]:
    return names, {name: get_policy(name, registry) for name in names}


def _blocks(paths: list[Path], errors: list[dict[str, str]]) -> list[Block]:
    """Every readable record, in blocks; a file that cannot be read (or stops being readable at a
    line) is an error, with the records before it kept."""
    blocks: list[Block] = []
    for path in paths:
        file = name_text(str(path))
        pending: list[dict[str, Any]] = []
        first = 0
        try:
            for i, record in enumerate(read_records(path)):
                if not pending:
                    first = i
                pending.append(record)
                if len(pending) == BLOCK:
                    blocks.append((file, first, pending))
                    pending = []
        except LogFormatError as exc:
            errors.append({"file": file, "error": one_line(str(exc))})
        if pending:
            blocks.append((file, first, pending))
    return blocks


def replay(
    paths: list[Path],
    policies: list[str],
    *,
    out: Path | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    registry: Registry | None = None,
    backend: Backend | None = None,
    parted: PartedRun | None = None,
) -> dict[str, Any]:
    """Replay every record of ``paths``; write ``out/decisions.parquet``; return the summary.

    ``progress`` is called with the number of records done after each block; ``registry`` resolves
    the names (default: the built-ins; plugins are rebuilt from it in each worker). With ``parted``
    the decisions are that run's dataset instead, written by the tasks (see :mod:`mjcli.ledger`)."""
    if not policies:
        raise UsageError("--policies names no policy")
    for name in policies:
        get_policy(name, registry)
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    errors: list[dict[str, str]] = []
    rows: list[dict[str, Any]] = []
    games = 0
    blocks = _blocks(paths, errors)
    setup = functools.partial(_policies_by_name, list(policies), registry)
    if parted is not None:
        for note in parted.run(
            _replay_block_of_file,
            _block_split,
            _block_fingerprint,
            blocks,
            label=lambda block: _block_fingerprint(block)[0],
            setup=setup,
            jobs=jobs,
            backend=backend,
        ):
            games += note["games"]
            errors.extend(note["errors"])
            if progress:
                progress(note["records"])
        lf = parted.scan("decisions")  # the rows stay in their parts: the figures are read lazily
        decisions = parted.rows("decisions")
    else:
        for (file, _, _), results in zip(
            blocks, ordered_map(_replay_block, blocks, jobs=jobs, setup=setup, backend=backend), strict=True
        ):
            for index, game_rows, error in results:
                if error is not None:
                    errors.append({"file": file, "error": f"record {index + 1}: {error}"})
                else:
                    games += 1
                    rows.extend(game_rows)
            if progress:
                progress(len(results))
        frame = to_frame(rows, DECISIONS_SCHEMA)  # (Polars only now: the workers are forked without it)
        if out is not None:
            write_table(frame, Path(out) / "decisions.parquet")
        lf, decisions = frame.lazy(), frame.height
    if out is not None:
        # What was read, beside the table (the ``file`` column is each path as given).
        read: dict[str, Any] = {
            "game": "doudizhu",
            "policies": list(policies),
            "inputs": manifest((p, str(p)) for p in paths),
        }
        reopen = reopening_options(registry.spec(n) for n in policies) if registry is not None else []
        if reopen:  # what makes the plugins known to the report's advise commands
            read["policy_options"] = reopen
        write_text_atomic(Path(out) / "replay.json", json.dumps(read, indent=1, ensure_ascii=False) + "\n")
    import polars as pl

    agreement = (
        lf.group_by(["policy", "kind"], maintain_order=True)
        .agg(pl.len().alias("decisions"), pl.col("agree").mean().alias("agree_rate"))
        .sort(["policy", "kind"])
        .collect()
    )
    return {
        "game": "doudizhu",
        "files": len(paths),
        "games": games,
        "decisions": decisions,
        "errors": sorted(errors, key=lambda e: (e["file"], e["error"])),
        "agreement": agreement.to_dicts(),
    }
