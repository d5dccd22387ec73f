"""Dou Dizhu's entry in the ``--game`` table: the options each command takes here, their defaults,
and the body of each command (options in, output printed, exit code out).

Heavy modules are imported inside the bodies, so that reading this table (for ``--help``) costs
nothing.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

from mjcli.errors import UsageError
from mjcli.games import Command, GameEntry, plugin_bugs_stop
from mjcli.output import emit_json, format_table, frame_text, games_rate, plural, terminal_bar

DEFAULT_POLICIES = "zhanpai,greedy,random"


def _registry(plugin: list[str] | None) -> Any:
    """The Dou Dizhu names a command knows: built-ins, entry points, ``--plugin`` values."""
    from mjcli.doudizhu.policies import policy_registry

    return policy_registry(plugin or ())


@plugin_bugs_stop
def advise(
    hand: str,
    lead: str | None,
    landlord: bool,
    policies: str | None,
    weights: str,
    kicker: str,
    seed: int,
    as_json: bool,
    plugin: list[str] | None = None,
) -> int:
    from mjcli.doudizhu.advise import advise as advise_hand
    from mjcli.doudizhu.policies import parse_policies
    from mjcli.plugins import BUILTIN, PLUGIN

    registry = _registry(plugin)
    names = parse_policies(policies, registry) if policies else list(registry.of_source(BUILTIN, PLUGIN))
    result = advise_hand(
        hand,
        lead_text=lead,
        landlord=landlord,
        policies=names,
        weights=weights,
        kicker=kicker,
        seed=seed,
        registry=registry,
    )
    if as_json:
        emit_json(result)
        return 0
    p = result["plan"]
    situation = (
        f"against {result['lead']['cards']} ({result['lead']['type']})" if result["lead"] else "free lead"
    )
    print(f"hand {result['hand']} ({plural(result['cards'], 'card')}), {result['role']}, {situation}")
    print(f"plan ({p['weights']} weights): Pn {p['pn']}, {plural(len(p['steps']), 'step')}")
    print(
        format_table(
            ["step", "type", "cards"], [[i + 1, s["type"], s["cards"]] for i, s in enumerate(p["steps"])]
        )
    )
    print()
    rows = [[a["policy"], a["move"], a["type"], a["reason"]] for a in result["policies"]]
    print(format_table(["policy", "move", "type", "reason"], rows))
    return 0


@plugin_bugs_stop
def replay(
    records: list[str],
    policies: str,
    out: str | None,
    jobs: int | None,
    as_json: bool,
    plugin: list[str] | None = None,
    ray: str | None = None,
    resume: bool = False,
) -> int:
    from pathlib import Path

    from mjcli.doudizhu.formats import collect_records
    from mjcli.doudizhu.policies import parse_policies
    from mjcli.doudizhu.replay import parted_options
    from mjcli.doudizhu.replay import replay as replay_records
    from mjcli.ledger import CONTENTS, MANIFESTS, PartedRun
    from mjcli.outpaths import output_dir

    registry = _registry(plugin)
    names = parse_policies(policies, registry)
    if resume and out is None:
        raise UsageError("--resume needs --out DIR: the folder of the run to finish")
    from mjcli.runner import backend_for  # here: reading the game table (--help) needs no runner

    backend = backend_for(jobs, ray)
    inputs = collect_records(records, sys.stdin if "-" in records else None)
    if not inputs:
        raise UsageError(f"no record files found in {', '.join(records)}")
    # on Ray or with --resume (and --out) the decisions are a dataset of parts (see mjcli.ledger)
    parting = out is not None and (ray is not None or resume)
    entries = ("decisions", MANIFESTS)
    with (
        output_dir(
            out,
            ("decisions.parquet", "replay.json", *entries, CONTENTS),
            inputs.paths,
            live=entries if parting else (),
            mark="replay.json",
        ) as stage,
        terminal_bar(unit="game") as bar,
        backend.session(),
    ):
        for line in inputs.notes():
            print(line, file=sys.stderr)
        parted = (
            PartedRun(Path(str(out)), ("decisions",), parted_options(names, registry), resume=resume)
            if parting
            else None
        )
        summary = replay_records(
            inputs.paths,
            names,
            out=stage,
            progress=bar.update if bar is not None else None,
            registry=registry,
            backend=backend,
            parted=parted,
        )
        if parted is not None and stage is not None:
            parted.write_contents(stage)
            summary["resumed"] = parted.resumed
    if as_json:
        emit_json(summary)
    else:
        answers = plural(summary["decisions"], "answer")
        print(
            f"{plural(summary['games'], 'game')}, {answers} from {plural(len(names), 'policy', 'policies')}"
        )
        rows = [
            [a["policy"], a["kind"], a["decisions"], f"{a['agree_rate']:.3f}"] for a in summary["agreement"]
        ]
        print(format_table(["policy", "kind", "decisions", "agree"], rows, "llrr"))
        for e in summary["errors"]:
            # a reader's error names its file and line itself ("f.jsonl:1: not JSON")
            said = e["error"] if e["error"].startswith(e["file"]) else f"{e['file']}: {e['error']}"
            print(f"ERROR {said}")
    return 1 if summary["errors"] else 0


#: what a Dou Dizhu simulation writes into --out
SIMULATE_OWNS = ("games.jsonl", "games.parquet", "summary.json")


@plugin_bugs_stop
def simulate(
    players: str,
    games: int,
    seed: int,
    out: str | None,
    duplicate: bool,
    kicker: str,
    jobs: int | None,
    as_json: bool,
    plugin: list[str] | None = None,
    ray: str | None = None,
    resume: bool = False,
) -> int:
    from pathlib import Path

    from mjcli.doudizhu.policies import parse_policies
    from mjcli.doudizhu.simulate import TABLES, game_specs, parted_options, simulate
    from mjcli.doudizhu.summary import duplicate_table, role_table
    from mjcli.ledger import CONTENTS, MANIFESTS, PartedRun
    from mjcli.outpaths import output_dir
    from mjcli.runner import backend_for  # here: reading the game table (--help) needs no runner

    if resume and out is None:
        raise UsageError("--resume needs --out DIR: the folder of the run to finish")
    backend = backend_for(jobs, ray)
    registry = _registry(plugin)
    names = parse_policies(players, registry)
    # on Ray or with --resume (and --out) the tables are a dataset of parts (see mjcli.ledger)
    parting = out is not None and (ray is not None or resume)
    live = (*TABLES, MANIFESTS)
    parted = None
    with contextlib.ExitStack() as stack:
        # a bad --out fails before the work
        stage = stack.enter_context(
            output_dir(
                out, (*SIMULATE_OWNS, *live, CONTENTS), live=live if parting else (), mark="summary.json"
            )
        )
        if parting:
            options = parted_options(names, seed, duplicate, kicker, registry)
            parted = PartedRun(Path(str(out)), TABLES, options, resume=resume)
        stack.enter_context(backend.session())
        how = backend.describe()
        total = len(game_specs(names, games, seed, duplicate, kicker))
        bar = stack.enter_context(terminal_bar(total, unit="game"))
        summary = simulate(
            names,
            games,
            seed,
            out=stage,
            duplicate=duplicate,
            kicker=kicker,
            progress=bar.update if bar is not None else None,
            registry=registry,
            backend=backend,
            parted=parted,
        )
    if parted is not None:
        summary["resumed"] = parted.resumed  # (deals; not in summary.json, which stays the same)
        kept = ""
        if resume:
            kept = f"; {parted.resumed} of {plural(summary['deals'], 'deal')} kept from the earlier run"
        print(
            f"wrote {Path(str(out)) / 'games'}/ and {Path(str(out)) / 'games.jsonl'}{kept}", file=sys.stderr
        )
    if as_json:
        emit_json(summary)
        return 0
    import polars as pl  # after the games: a process without it forks its workers (mjcli.runner)

    print(f"{plural(summary['games'], 'game')}, seed {seed}{', duplicate deals' if duplicate else ''}")
    print(frame_text(role_table(pl.DataFrame(summary["roles"])), width=200, str_len=60))
    if duplicate and summary["comparison"]:
        print()
        print(frame_text(duplicate_table(pl.DataFrame(summary["comparison"])), width=200, str_len=60))
    rate = games_rate(summary["games"], summary["seconds"], parted.resumed if parted is not None else 0, 0)
    played = plural(summary["games"], "game")
    print(f"{played} in {summary['seconds']:.1f} s ({rate}, {how})", file=sys.stderr)
    return 0


def policies(plugin: list[str] | None, as_json: bool) -> int:
    """Every Dou Dizhu policy name known, with where it comes from."""
    from mjcli.plugins import print_registry

    return print_registry(_registry(plugin), as_json)


#: Dou Dizhu's paragraph of each command's --help
HELP = {
    "advise": """Dou Dizhu (--game doudizhu): HAND in 3456789TJQKA2BR notation (10 for T, B/R the jokers).
Prints the seed's plan of the hand (its steps, their types, and Pn: lower is better) and each
policy's move with its reason, on a free lead or against --lead (played by the previous player, an
opponent); --landlord when we are the landlord.

Example: mjcli advise --game doudizhu 222AAAKKKJJT98766554433""",
    "replay": """Dou Dizhu (--game doudizhu): RECORDS are JSON-lines game records as `mjcli simulate
--game doudizhu --out DIR` writes them (DIR/games.jsonl), or directories holding them. Every bid,
lead and follow is rebuilt with the rules engine and put to each policy; --out DIR gets
decisions.parquet (file, game_id, round, turn, seat, player, kind, hand, actual, policy, choice,
agree, reason). A file or record that cannot be read is reported and the batch goes on (exit 1).

Example: mjcli replay --game doudizhu sim/games.jsonl --policies zhanpai,greedy --out rep""",
    "simulate": """Dou Dizhu (--game doudizhu): games with bidding, policies rotated over the seats; the
summary gives WP (share of games won) and ADP (average points) per policy as landlord and as peasant
with 95 % intervals. --duplicate instead plays each deal DouZero-style (seat 0 landlord, no bidding)
with the first policy against each other one: A|BB, B|BB and B|AA on the same deals, and reports A's
gain as landlord, as peasants, and with the sides swapped. --out DIR gets games.parquet (one row per
game and seat), games.jsonl (the records, for `mjcli replay --game doudizhu`) and summary.json.

Example: mjcli simulate --game doudizhu --players zhanpai,greedy,random --games 200 --seed 1 --out sim""",
    "policies": """Dou Dizhu (--game doudizhu): the built-in policies, those installed packages declare
(entry-point group mjcli.doudizhu.policies) and those given with --plugin NAME=TARGET. A plugin
answers decide(view, legal) with one of legal (or a pair: the choice and its reason): bid levels
(0 = pass) on a BidView, moves (None = pass) on a PlayView.

Example: mjcli policies --game doudizhu --plugin first=examples/doudizhu_plugin.py:FirstLegal""",
}


GAME = GameEntry(
    name="doudizhu",
    title="Dou Dizhu (the card game of seed 002)",
    commands={
        "advise": Command(
            advise,
            help=HELP["advise"],
            options={
                "hand": None,
                "lead": None,
                "landlord": False,
                "policies": None,
                "weights": "seed",
                "kicker": "douzero",
                "seed": 0,
                "as_json": False,
                "plugin": None,
            },
        ),
        "replay": Command(
            replay,
            help=HELP["replay"],
            options={
                "records": None,
                "policies": DEFAULT_POLICIES,
                "out": None,
                "jobs": None,
                "as_json": False,
                "plugin": None,
                "ray": None,
                "resume": False,
            },
        ),
        "simulate": Command(
            simulate,
            help=HELP["simulate"],
            options={
                "players": DEFAULT_POLICIES,
                "games": 100,
                "seed": 0,
                "out": None,
                "duplicate": False,
                "kicker": "douzero",
                "jobs": None,
                "as_json": False,
                "plugin": None,
                "ray": None,
                "resume": False,
            },
        ),
        "policies": Command(policies, help=HELP["policies"], options={"plugin": None, "as_json": False}),
    },
)
