"""Riichi's entry in the ``--game`` table: the options each command takes here, their defaults, and
the body of each command (options in, output printed, exit code out).

The bodies parse what only a person types (hands, winds, comma lists), call the library
(:mod:`mjcli.riichi.scoring`, :mod:`~mjcli.riichi.verify`, :mod:`~mjcli.riichi.replay`, ...) and
print its text or JSON. Heavy modules are imported inside the bodies, so that reading this table
(for ``--help``) costs nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mjcli.errors import InvalidHandError, UsageError
from mjcli.games import Command, GameEntry
from mjcli.output import emit_json, terminal_bar
from mjcli.runner import jobs_for

DEFAULT_PLAYERS = "akagi,mahjongjoy,greedy,efficiency"


# ---------------------------------------------------------------- score


def score(
    hand: str,
    win: str | None,
    tsumo: bool,
    riichi: bool,
    double_riichi: bool,
    ippatsu: bool,
    rinshan: bool,
    chankan: bool,
    haitei: bool,
    houtei: bool,
    tenhou: bool,
    chiihou: bool,
    melds: str,
    dora: str,
    ura: str,
    seat: str,
    round_: str,
    honba: int,
    sticks: int,
    rules: str | None,
    sanma: bool,
    kita: int,
    as_json: bool,
) -> int:
    from mjcli.riichi.explain import explain
    from mjcli.riichi.scoring import hand_label, score_typed
    from mjcli.tiles import tile_name

    flags = {
        "tsumo": tsumo,
        "riichi": riichi,
        "double_riichi": double_riichi,
        "ippatsu": ippatsu,
        "rinshan": rinshan,
        "chankan": chankan,
        "haitei": haitei,
        "houtei": houtei,
        "tenhou": tenhou,
        "chiihou": chiihou,
    }
    rules = _three_player_rules(rules, sanma, "score")
    typed = score_typed(
        hand,
        win,
        melds=melds,
        dora=dora,
        ura=ura,
        seat=seat,
        round_wind=round_,
        honba=honba,
        sticks=sticks,
        rules=rules,
        kita=kita,
        **flags,
    )
    result, ctx = typed.result, typed.ctx
    if as_json:
        payload: dict[str, object] = {
            "hand": hand_label(typed.concealed, typed.melds),
            "win": tile_name(typed.win_tile),
            "melds": [f"{m.kind}:{''.join(hand_label(m.tiles, []))}" for m in typed.melds],
            "seat": "ESWN"[ctx.seat_wind],
            "round": "ESWN"[ctx.round_wind],
            "rules": typed.rules.name,
        }
        if typed.rules.players == 3:
            payload["kita"] = ctx.kita
        payload.update(result.to_dict())
        emit_json(payload)
    else:
        print(explain(result, typed.concealed, typed.win_tile, typed.melds, ctx, typed.rules))
    return 0


def _three_player_rules(rules: str | None, sanma: bool, command: str) -> str:
    """The preset asked for: ``--rules`` if given (``--sanma`` then needs a three-player one), else
    ``tenhou-sanma`` with ``--sanma`` and ``tenhou`` without."""
    from mjcli.riichi.rules import get_rules

    if rules is None:
        return "tenhou-sanma" if sanma else "tenhou"
    if sanma and get_rules(rules).players != 3:
        raise UsageError(f"{command} --sanma with --rules '{rules}', a four-player rule set")
    return rules


# ---------------------------------------------------------------- shanten


def shanten(hands: list[str], seen: str, shanten_only: bool, sanma: bool, as_json: bool) -> int:
    import numpy as np

    from mjcli.analysis import SANMA_ABSENT, shanten_batch, shanten_sanma
    from mjcli.analysis import shanten as shanten_of
    from mjcli.riichi.hand_report import analyse, check_seen, read_hand, read_hands, render
    from mjcli.tiles import NUM_KINDS, check_counts, counts34, parse_tiles, tile_name

    if "-" in hands:
        if len(hands) > 1:
            raise UsageError("'-' (read hands from stdin) cannot be mixed with hands on the command line")
        parsed = read_hands(sys.stdin)
        batch = np.array([h.counts for h in parsed], dtype=np.uint8).reshape(-1, NUM_KINDS)
        values = [int(v) for v in shanten_batch(batch, sanma=sanma)]
    else:
        parsed = [read_hand(text, what=f"hand '{text}'") for text in hands]
        values = [(shanten_sanma if sanma else shanten_of)(h.counts) for h in parsed]
    seen_tiles = parse_tiles(seen)
    check_counts(seen_tiles, what=f"--seen '{seen}'")
    seen_counts = counts34(seen_tiles)
    absent = [k for k in SANMA_ABSENT if seen_counts[k]] if sanma else []
    if absent:
        raise InvalidHandError(
            f"--seen '{seen}' holds {tile_name(absent[0])}: three-player mahjong has no 2m-8m"
        )
    for h in parsed:
        check_seen(h, seen_counts)
    results = []
    for h, value in zip(parsed, values, strict=True):
        result = analyse(h, value, seen_counts, shanten_only, sanma)
        if as_json:
            emit_json(result.to_json())
        else:
            results.append(result)
    if not as_json and results:
        print(render(results, shanten_only))
    return 0


# ---------------------------------------------------------------- advise


def advise(
    hand: str,
    policies: str,
    dora: str | None,
    seen: str | None,
    round_: str,
    seat: str,
    melds: str | None,
    riichi_by: str | None,
    honba: int,
    turn: int | None,
    sanma: bool,
    as_json: bool,
) -> int:
    """``hand`` is a hand in mpsz (``round_``/``seat`` are then winds, E S W N) or a log file
    (``round_`` a round label such as ``E2``, ``seat`` a seat number 0-3, ``honba`` and ``turn``
    the position: ``turn`` as in replay's ``decisions.parquet``)."""
    from mjcli.melds import parse_melds
    from mjcli.riichi.advise import advise_hand, advise_log, render
    from mjcli.tiles import parse_tiles, wind_from_letter

    if Path(hand).is_file():
        if turn is None:
            raise UsageError(f"'{hand}' is a log: name the position with --round, --honba, --turn, --seat")
        if not seat.strip().isdigit():
            raise UsageError(f"--seat '{seat}': for a log, give the seat number 0-3")
        if sanma:
            raise UsageError("--sanma is for a typed hand: a log says itself how many play")
        result = advise_log(hand, round_, honba, turn, int(seat), policies=policies)
    else:
        winds = [wind_from_letter(w) for w in (riichi_by or "").replace(" ", ",").split(",") if w.strip()]
        result = advise_hand(
            hand,
            melds=parse_melds(melds or ""),
            dora=parse_tiles(dora or ""),
            seen=parse_tiles(seen or ""),
            round_wind=wind_from_letter(round_),
            seat_wind=wind_from_letter(seat),
            riichi_by=winds,
            policies=policies,
            players=3 if sanma else 4,
        )
    if as_json:
        emit_json(result)
    else:
        print(render(result))
    return 0


# ---------------------------------------------------------------- verify


def verify(logs: list[str], out: Path | None, as_json: bool, jobs: int | None, rules: str) -> int:
    from mjcli.ledger import write_table
    from mjcli.riichi.formats import collect_logs
    from mjcli.riichi.rules import get_rules
    from mjcli.riichi.verify import (
        Summary,
        game_schema,
        mismatch_schema,
        report_lines,
        round_schema,
        verify_paths,
    )

    rule_set = get_rules(rules)
    inputs = collect_logs(logs, sys.stdin if "-" in logs else None)
    if not inputs:
        raise UsageError(f"no log files found in {', '.join(logs)}")
    if out is not None and out.exists() and not out.is_dir():
        raise UsageError(f"--out '{out}' exists and is not a directory")
    summary = Summary()
    rows: list[dict[str, object]] = []
    game_rows: list[dict[str, object]] = []
    mismatch_rows: list[dict[str, object]] = []
    with terminal_bar(len(inputs), unit="log", leave=False) as bar:
        for reports in verify_paths(inputs.paths, rule_set, jobs_for(jobs)):
            for r in reports:
                summary.add(r)
                if out is not None:
                    rows.extend(row.to_dict() for row in r.rows)
                    game_rows.append(r.to_row())
                    mismatch_rows.extend(m.to_row(r.file, r.game) for m in r.mismatches)
                if as_json:
                    emit_json(r.to_dict())
                else:
                    if bar is not None:
                        bar.clear()
                    print("\n".join(report_lines(r)))
            if bar is not None:
                bar.update(1)
    if out is not None:
        target = write_table(rows, out / "verify.parquet", schema=round_schema())
        # Each game's verdict and every difference found, with its round (what `mjcli report` lists).
        write_table(game_rows, out / "verify_games.parquet", schema=game_schema())
        write_table(mismatch_rows, out / "verify_mismatches.parquet", schema=mismatch_schema())
        print(f"wrote {target} ({len(rows)} rounds)", file=sys.stderr)
    if as_json:
        emit_json(summary.to_dict())
    else:
        print(
            f"{summary.logs} logs: {summary.ok} ok, {summary.mismatch} mismatching, {summary.error} "
            f"errors; {summary.rounds_matching}/{summary.rounds} rounds match"
        )
    return 0 if summary.ok == summary.logs else 1


# ---------------------------------------------------------------- convert


def convert(log: str, to: str, output: str | None, as_json: bool) -> int:
    from mjcli.atomic import write_text_atomic
    from mjcli.riichi.engine.events import StartRound
    from mjcli.riichi.formats import MJAI, TENHOU6, read_log, write_games

    fmt = to.strip().lower()
    if fmt not in (TENHOU6, MJAI):
        raise UsageError(f"--to '{to}' is not a format convert writes (choose tenhou6 or mjai)")
    if as_json and output is None:
        raise UsageError("--json needs -o FILE (without it, stdout is the converted log)")
    games = read_log(log)
    for g in games:
        if not g.complete:
            print(f"warning: {log}: incomplete game: {g.problem}", file=sys.stderr)
    text = write_games(games, fmt)
    if output is None:
        sys.stdout.write(text)
        return 0
    write_text_atomic(output, text)
    summary = {
        "input": log,
        "output": output,
        "from": games[0].format if games else None,
        "to": fmt,
        "games": len(games),
        "rounds": sum(sum(isinstance(e, StartRound) for e in g.events) for g in games),
        "complete": all(g.complete for g in games),
    }
    if as_json:
        emit_json(summary)
    else:
        state = "" if summary["complete"] else " (incomplete)"
        print(
            f"{log} ({summary['from']}) -> {output} ({fmt}): {summary['games']} game(s), "
            f"{summary['rounds']} round(s){state}"
        )
    return 0


# ---------------------------------------------------------------- replay and summary


def replay(
    records: list[str],
    policies: str,
    out: Path | None,
    jobs: int | None,
    as_json: bool,
    seat: list[int] | None,
    player: list[str] | None,
    by: str | None,
    baseline: Path | None,
    max_changes: int,
    rules: str,
) -> int:
    """Replay the logs; print the summary (and the changes against ``baseline``); the exit code."""
    import shutil
    import tempfile

    from mjcli.riichi.formats import collect_logs
    from mjcli.riichi.policies import parse_policy_names
    from mjcli.riichi.replay import ReplayOptions
    from mjcli.riichi.rules import get_rules
    from mjcli.riichi.summary import BY_CHOICES, scan

    names = tuple(parse_policy_names(policies))
    if by is not None and by not in BY_CHOICES:
        raise UsageError(f"--by '{by}' is not one of {', '.join(BY_CHOICES)}")
    if baseline is not None:
        scan(baseline)  # a missing or foreign baseline is a usage error before any work
    if max_changes < 0:
        raise UsageError(f"--max-changes {max_changes} is negative")
    get_rules(rules)
    seats = None
    if seat:
        for s in seat:
            if not 0 <= s <= 3:
                raise UsageError(f"--seat {s} is not 0..3 (seat 0 is the first dealer)")
        seats = tuple(sorted(set(seat)))
    options = ReplayOptions(names, seats, tuple(player) if player else None, rules)
    inputs = collect_logs(records, sys.stdin if "-" in records else None)
    if not inputs:
        raise UsageError(f"no log files found in {', '.join(records)}")
    workers = jobs_for(jobs)
    target = out if out is not None else Path(tempfile.mkdtemp(prefix="mjcli-replay-"))
    try:
        return _replay_into(
            inputs, options, target, workers, as_json, by, baseline, max_changes, out is not None
        )
    finally:
        if out is None:
            shutil.rmtree(target, ignore_errors=True)


def _replay_into(
    inputs: Any,
    options: Any,
    out: Path,
    jobs: int,
    as_json: bool,
    by: str | None,
    baseline: Path | None,
    max_changes: int,
    keep: bool,
) -> int:
    import time

    from mjcli.ledger import write_table
    from mjcli.riichi.replay import FileResult, PolicyFailure, run_replay
    from mjcli.riichi.summary import compare_baseline, format_changes, format_summary, scan, summarise

    with terminal_bar(len(inputs), unit="log", leave=False) as bar:
        progress = None
        if bar is not None:
            started = time.perf_counter()
            decided = 0

            def progress(result: FileResult) -> None:
                nonlocal decided
                decided += result.decisions.height // max(1, len(options.policies))
                rate = decided / max(1e-9, time.perf_counter() - started)
                bar.set_postfix_str(f"{rate:,.0f} decisions/s", refresh=False)
                bar.update(1)

        try:
            result = run_replay(inputs.items, options, out, jobs, progress)
        except PolicyFailure as exc:
            print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 1
    lf = scan(result.decisions_path)  # type: ignore[arg-type]
    summary = summarise(lf, by)
    summary.update(
        {
            "files": result.files,
            "skipped": result.errors,
            "incomplete": len(result.incomplete),
            "out": str(out) if keep else None,
        }
    )
    code = 1 if result.errors else 0
    changes = None
    if baseline is not None:
        changes, counts = compare_baseline(lf, baseline)
        write_table(changes, out / "changes.parquet")
        summary["baseline"] = {"path": str(baseline), "changed": changes.height, **counts, "max": max_changes}
        if changes.height > max_changes:
            code = 1
    if as_json:
        if changes is not None:
            summary["changes"] = changes.to_dicts()
        emit_json(summary)
    else:
        print(format_summary(summary))
        for e in result.errors:
            print(f"SKIPPED {e}")
        if result.incomplete:
            print(f"{len(result.incomplete)} log(s) end before their game does (replayed up to the cut)")
        if changes is not None:
            b = summary["baseline"]
            print("")
            print(
                f"baseline {baseline}: {b['changed']} changed of {b['compared']} compared decisions "
                f"({b['only_old']} only in the baseline, {b['only_new']} only in this run; max {max_changes})"
            )
            if changes.height:
                print(format_changes(changes))
    if keep:
        print(f"wrote {result.decisions_path} ({result.rows} rows) and {result.games_path}", file=sys.stderr)
    return code


def summary(path: Path, by: str | None, as_json: bool) -> int:
    from mjcli.riichi.summary import format_summary, summarise

    result = summarise(path, by)
    if as_json:
        emit_json(result)
    else:
        print(format_summary(result))
    return 0


# ---------------------------------------------------------------- simulate


def simulate(
    players: str,
    games: int,
    seed: int,
    out: Path | None,
    length: str | None,
    rules: str | None,
    duplicate: bool,
    jobs: int | None,
    as_json: bool,
) -> int:
    """Simulate, print the summary (or its JSON); 1 when a policy broke the rules and stopped the run."""
    import time

    from mjcli.riichi.simulate.figures import render
    from mjcli.riichi.simulate.run import default_rules, game_specs, parse_players, simulate, table_rules
    from mjcli.riichi.simulate.seats import PolicyError

    workers = jobs_for(jobs)
    names = parse_players(players)
    rules = rules or default_rules(names)
    total = len(game_specs(names, games, seed, table_rules(rules, length, names), duplicate))
    with terminal_bar(total, unit="game") as bar:
        progress = None
        if bar is not None:
            started = time.perf_counter()
            rounds = 0

            def progress(n: int) -> None:
                nonlocal rounds
                rounds += n
                bar.update(1)
                bar.set_postfix_str(f"{rounds / max(time.perf_counter() - started, 1e-9):.0f} rounds/s")

        try:
            result = simulate(
                names,
                games,
                seed,
                out=out,
                length=length,
                rules=rules,
                duplicate=duplicate,
                jobs=workers,
                progress=progress,
            )
        except PolicyError as exc:
            # A policy bug, found by playing: report where, and stop (the logs of the games before stay).
            print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 1
    if as_json:
        emit_json(result)
    else:
        print(render(result))
    rate = result["games"] / result["seconds"] if result["seconds"] else 0.0
    print(
        f"{result['games']} games, {result['rounds']} rounds in {result['seconds']:.1f} s "
        f"({rate:.1f} games/s, {workers} job{'s' if workers != 1 else ''})",
        file=sys.stderr,
    )
    return 0


# ---------------------------------------------------------------- the table entry

#: riichi's paragraph of each command's --help (the command's own first line comes from its skin)
HELP = {
    "score": """Riichi (--game riichi, the default): HAND is the concealed tiles in mpsz (0 = red five,
1z-7z = E S W N White Green Red). It may include the winning tile (14 tiles, less 3 per meld) or
leave it out (one fewer), and --win names it; without --win the last tile written is the winning
tile. Ron unless --tsumo. Seat and round default to East. Yaku and fu come from the mahjong library;
the arithmetic is explained as seed 004 teaches it.

Three-player: --sanma (Tenhou's rules: the two others pay a tsumo, 200 per honba on a ron) and
--kita N, the Norths set aside (each a dora).

Example: mjcli score 234m456p678s11222z --win 2z --tsumo

Example: mjcli score 345m222s66p567s --melds chi:678p --win 5m --tsumo --seat S

Example: mjcli score 123p456p789s11z99m --win 9m --sanma --tsumo --kita 2""",
    "shanten": """Riichi (--game riichi, the default): hands in mpsz (0 = red five, 1z-7z = E S W N White
Green Red). A hand of 13 tiles (or 10, 7, 4, 1 next to open melds) gets its shanten and the tiles that
lower it, with how many of each are still unseen. A hand of 14 (or 11, 8, 5, 2) gets a row per
discard: the shanten left, the ukeire count and the tiles. Shanten -1 = complete, 0 = tenpai (seven
pairs and thirteen orphans count); at tenpai the ukeire tiles are the winning tiles. Unseen copies =
4 - in the hand - in --seen; a discarded tile counts as gone. HAND may be '-': one hand per line from
stdin (blank lines skipped), computed as one batch. --sanma: three-player hands (no 2m-8m in the
hand, none among the tiles that help; 1m and 9m make no runs).

Example: mjcli shanten 123m456p789s1135z

Example: mjcli shanten 123m456p789s11355z --seen 2z2z4s

Example: printf '19m19p19s1234567z\\n123m456p789s1122z\\n' | mjcli shanten - --json""",
    "advise": """Riichi (--game riichi, the default): HAND is a hand or a game log. A hand is 14 tiles in
mpsz (3 fewer per meld given with --melds); the last tile written is the one just drawn. --policy
takes names separated by commas, or all (akagi, mahjongjoy, greedy, efficiency). --seen lists tiles
seen elsewhere (rivers, other melds); --riichi-by the seat winds that declared riichi (E,S,W,N; the
player's own seat means the hand is already in riichi). A log (any format verify reads) with
--round E2 --honba 0 --turn 8 --seat 1 takes the decision of seat 1 (0-3, seat 0 = the first dealer)
in round E2 with 0 honba that comes right after move 8 of the round: --turn counts the round's moves
(draws, discards, calls, kans) from 0, exactly as the turn column of replay's decisions.parquet. It
shows what the player actually did there beside the policies. --sanma: a three-player hand (seats
E/S/W, no 2m-8m, no chi; a North may be set aside: nukidora).

Example: mjcli advise 2388m34556p33577s --policy akagi,greedy""",
    "verify": """Riichi (--game riichi, the default): LOGS are files (Tenhou mjlog XML, tenhou.net/6 JSON,
mjai JSON lines; gzip too), directories (walked recursively) or - for a list of paths on standard
input. Each is compared round by round with the engine: winners, han, fu, yaku, points, every score
delta, tenpai, shown hands, final scores and points. Three-player logs are played under Tenhou's
three-player rules (tenhou-sanma).

Example: mjcli verify ../shared/logs/tenhou-xml --json""",
    "convert": """Riichi (--game riichi, the default): LOG may be Tenhou mjlog XML (plain or gzip),
tenhou.net/6 JSON or mjai JSON lines, detected from the content; --to tenhou6 (opens in Tenhou's
viewer) or mjai. A log that stops before the game's end is converted as far as it goes, with a
warning on stderr. Three-player games are written as Tenhou writes them (an empty fourth seat).

Example: mjcli convert 2010081709gm-00a9-0000-fe3371ad.mjlog --to tenhou6 -o game.json""",
    "replay": """Riichi (--game riichi, the default): LOGS are files (Tenhou mjlog XML, tenhou.net/6
JSON, mjai JSON lines; gzip too), folders (walked recursively) or - for a list of paths on standard
input. At every decision point (a seat with more than one legal action) each policy of --policy
(default: all) is asked, given exactly the view that player had. --out DIR gets decisions.parquet
(one row per decision point and policy) and games.parquet (one row per game and seat).
--baseline OLD.parquet compares the choices with an older run and exits 1 when more than
--max-changes decisions changed. Logs that cannot be read or that the engine rejects are listed and
skipped (exit 1).

Example: mjcli replay ../shared/logs/tenhou-xml --out rep --policy akagi,efficiency --by player""",
    "summary": """Riichi (--game riichi, the default): DIR is a replay's output folder (or its
decisions.parquet); --by adds a table per player, policy, round or kind.

Example: mjcli summary rep --by player""",
    "simulate": """Riichi (--game riichi, the default): full Tenhou-rules games through the rules engine,
policies (one to four) rotated over the seats. --duplicate plays each deal's walls once per seat
rotation. --out DIR gets logs/ (tenhou.net/6 JSON and mjai for every game), games.parquet,
rounds.parquet and summary.json; the summary gives per policy the placement, score, points, win /
deal-in / tsumo / riichi / call rates and sizes with 95 % intervals.

Three policies make a three-player table (--rules tenhou-sanma); --rules tenhou seats them round four.

Example: mjcli simulate --players akagi,mahjongjoy,greedy,efficiency --games 100 --seed 1 --out sim

Example: mjcli simulate --players akagi,mahjongjoy,efficiency --games 10 --out sim3""",
}

_SCORE_FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei")

GAME = GameEntry(
    name="riichi",
    title="Riichi (Japanese) mahjong, Tenhou rules",
    commands={
        "score": Command(
            score,
            help=HELP["score"],
            options={
                "hand": None,
                "win": None,
                **dict.fromkeys((*_SCORE_FLAGS, "tenhou", "chiihou"), False),
                "melds": "",
                "dora": "",
                "ura": "",
                "seat": "E",
                "round_": "E",
                "honba": 0,
                "sticks": 0,
                "rules": None,
                "sanma": False,
                "kita": 0,
                "as_json": False,
            },
        ),
        "shanten": Command(
            shanten,
            help=HELP["shanten"],
            options={"hands": None, "seen": "", "shanten_only": False, "sanma": False, "as_json": False},
        ),
        "advise": Command(
            advise,
            help=HELP["advise"],
            options={
                "hand": None,
                "policies": "all",
                "dora": None,
                "seen": None,
                "round_": "E",
                "seat": "E",
                "melds": None,
                "riichi_by": None,
                "honba": 0,
                "turn": None,
                "sanma": False,
                "as_json": False,
            },
        ),
        "verify": Command(
            verify,
            help=HELP["verify"],
            options={"logs": None, "out": None, "as_json": False, "jobs": None, "rules": "tenhou"},
        ),
        "convert": Command(
            convert, help=HELP["convert"], options={"log": None, "to": None, "output": None, "as_json": False}
        ),
        "replay": Command(
            replay,
            help=HELP["replay"],
            options={
                "records": None,
                "policies": "all",
                "out": None,
                "jobs": None,
                "as_json": False,
                "seat": None,
                "player": None,
                "by": None,
                "baseline": None,
                "max_changes": 0,
                "rules": "tenhou",
            },
        ),
        "summary": Command(
            summary, help=HELP["summary"], options={"path": None, "by": None, "as_json": False}
        ),
        "simulate": Command(
            simulate,
            help=HELP["simulate"],
            options={
                "players": DEFAULT_PLAYERS,
                "games": 100,
                "seed": 0,
                "out": None,
                "length": None,
                "rules": None,
                "duplicate": False,
                "jobs": None,
                "as_json": False,
            },
        ),
    },
)
