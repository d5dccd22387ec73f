"""Hong Kong's and Red's entries in the ``--game`` table (:data:`GAME` and :data:`RED`): the options
each command takes, their defaults, and the body of each command (options in, output printed,
exit code out). Red is the same engine under the ``red`` rule set (four jokers), so each body takes
the preset's name; the two entries differ only in it and in their default policies.

Every body that writes files claims its ``--out`` folder through :func:`mjcli.outpaths.output_dir`
before the work (checked, locked, written through a hidden stage, moved in place at the end; the
entries it owns are ``*_OWNS`` here), and says on stderr which inputs were read once only.

Heavy modules are imported inside the bodies, so that reading this table (for ``--help``) costs
nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mjcli.errors import MjcliError, UsageError, one_line
from mjcli.games import Command, GameEntry, plugin_bugs_stop
from mjcli.output import emit_json, games_rate, plural, terminal_bar

HK_PLAYERS = "hk-pm0,hk-pm8,hk-pm16,hk-pm16plus"
RED_PLAYERS = "red-pm0,red-pm12,red-pm12plus"


def _seat(text: str, option: str = "--seat") -> str:
    """A seat as typed, as riichi reads it: digits are a seat number, 0 to 3 (seat 0 is the
    dealer, East), letters a wind (E S W N, or the words); the wind letter."""
    t = text.strip()
    if t.lstrip("+-").isdigit():
        if t not in ("0", "1", "2", "3"):
            raise UsageError(f"{option} {t}: seat numbers are 0 to 3 (seat 0 is the dealer)")
        return "ESWN"[int(t)]
    return _wind(t, option)


def _wind(text: str, option: str) -> str:
    """A wind as typed, E S W N (or the words): its letter. Digits are seat numbers, never winds."""
    from mjcli.tiles import wind_from_letter

    t = text.strip()
    try:
        if not t.isalpha():
            raise UsageError(t)
        return "ESWN"[wind_from_letter(t)]
    except MjcliError:
        raise UsageError(f"{option} '{text}' is not a wind (use E, S, W or N)") from None


def _rules(preset: str, min_faan: int | None = None, payment: str | None = None, strict: bool = False) -> Any:
    from mjcli.hk.rules import get_rules

    rules = get_rules(preset).with_options(min_faan=min_faan, payment=payment)
    return rules.with_options(bonus_counts=False) if strict else rules


# ---------------------------------------------------------------- score


def score(
    preset: str,
    hand: str,
    win: str | None,
    tsumo: bool,
    rinshan: bool,
    double_rinshan: bool,
    chankan: bool,
    haitei: bool,
    houtei: bool,
    tenhou: bool,
    chiihou: bool,
    melds: str,
    seat: str,
    round_: str,
    flowers: str | None,
    seasons: str | None,
    min_faan: int | None,
    payment: str | None,
    min_without_bonus: bool,
    as_json: bool,
) -> int:
    from mjcli.hk.hand_report import score_json, score_text
    from mjcli.hk.scoring import score_typed

    if haitei and not tsumo:
        raise UsageError("--haitei is the last tile drawn from the wall: add --tsumo (or use --houtei)")
    if houtei and tsumo:
        raise UsageError("--houtei is a win on the last discard: drop --tsumo (or use --haitei)")
    typed = score_typed(
        hand,
        win,
        _rules(preset, min_faan, payment, min_without_bonus),
        melds=melds,
        seat=_seat(seat),
        round_wind=_wind(round_, "--round"),
        flowers=flowers,
        seasons=seasons,
        self_drawn=tsumo,
        last_tile=haitei or houtei,
        kong_replacement=rinshan or double_rinshan,
        double_kong_replacement=double_rinshan,
        robbing_kong=chankan,
        heavenly=tenhou,
        earthly=chiihou,
    )
    if as_json:
        emit_json(score_json(typed))
    else:
        print(score_text(typed))
    return 0


# ---------------------------------------------------------------- shanten


def shanten(preset: str, hands: list[str], seen: str, shanten_only: bool, as_json: bool) -> int:
    """Hands from the command line (the first bad one is the error), or ``-``: one hand per line of
    standard input, every good line answered and every bad one reported with its line number (in
    order, as JSON objects with ``--json``); exit 2 at the end when a line was bad."""
    from mjcli.hk.hand_report import analyse, shanten_text
    from mjcli.hk.notation import JOKER, parse_hand
    from mjcli.hk.rules import get_rules

    rules = get_rules(preset)
    jokers = rules.red
    seen_counts = [0] * 34
    seen_codes = parse_hand(seen, jokers=jokers, max_jokers=rules.jokers, what=f"--seen '{seen}'")
    for c in seen_codes:
        if c != JOKER:  # a joker seen is no kind's copy: it only leaves fewer jokers for the hand
            seen_counts[c] += 1
    seen_jokers = seen_codes.count(JOKER)
    if "-" not in hands:
        results = [analyse(h, jokers, seen_counts, shanten_only, seen_jokers) for h in hands]
        if as_json:
            for r in results:
                emit_json(r.to_json())
        elif results:
            print(shanten_text(results, shanten_only))
        return 0
    if len(hands) > 1:
        raise UsageError("'-' (read hands from stdin) cannot be mixed with hands on the command line")
    # (a byte-order mark, from a file saved by a Windows editor, is no part of line 1)
    lines = [
        (n, line.removeprefix("\ufeff").strip() if n == 1 else line.strip())
        for n, line in enumerate(sys.stdin, start=1)
        if line.strip()
    ]
    if not lines:
        raise UsageError("no hands on standard input (give one hand per line)")
    good, bad = [], 0
    for number, text in lines:
        try:
            result = analyse(text, jokers, seen_counts, shanten_only, seen_jokers)
        except MjcliError as exc:
            bad += 1
            error = one_line(str(exc))
            if as_json:  # the same error object as riichi's shanten -
                emit_json({"line": number, "input": one_line(f"'{text}'")[1:-1], "error": error})
            else:
                print(f"error: stdin line {number}: {error}", file=sys.stderr)
            continue
        if as_json:
            emit_json(result.to_json())
        else:
            good.append(result)
    if good:
        print(shanten_text(good, shanten_only))
    return 2 if bad else 0


# ---------------------------------------------------------------- advise


def _registry(plugin: list[str] | None) -> Any:
    """The Hong Kong and Red names a command knows: built-ins, entry points, ``--plugin`` values."""
    from mjcli.hk.policies import policy_registry

    return policy_registry(plugin or ())


def _own_bots(preset: str) -> tuple[str, ...]:
    """The game's seed bots: what ``--policies all`` names, with the plugins given."""
    from mjcli.hk.policies import HK_POLICIES, RED_POLICIES

    return RED_POLICIES if preset == "red" else HK_POLICIES


def policies(plugin: list[str] | None, as_json: bool) -> int:
    """Every Hong Kong and Red policy name known, with where it comes from."""
    from mjcli.plugins import print_registry

    return print_registry(_registry(plugin), as_json)


@plugin_bugs_stop
def advise(
    preset: str,
    hand: str,
    policies: str,
    seen: str,
    round_: str,
    seat: str,
    melds: str,
    flowers: str | None,
    seasons: str | None,
    min_faan: int | None,
    as_json: bool,
    plugin: list[str] | None = None,
) -> int:
    from mjcli.hk.advise import advise_hand, render
    from mjcli.hk.policies import parse_policy_names

    registry = _registry(plugin)
    result = advise_hand(
        hand,
        _rules(preset, min_faan),
        parse_policy_names(policies, _own_bots(preset), registry),
        registry,
        melds=melds,
        seen=seen,
        seat=_seat(seat),
        round_wind=_wind(round_, "--round"),
        flowers=flowers,
        seasons=seasons,
    )
    if as_json:
        emit_json(result)
    else:
        print(render(result))
    return 0


# ---------------------------------------------------------------- simulate


#: what a Hong Kong simulation writes into --out
SIMULATE_OWNS = ("logs", "games.parquet", "rounds.parquet", "summary.json")


@plugin_bugs_stop
def simulate(
    preset: str,
    players: str,
    games: int,
    seed: int,
    out: str | None,
    duplicate: bool,
    jobs: int | None,
    as_json: bool,
    length: str,
    min_faan: int | None,
    payment: str | None,
    min_without_bonus: bool,
    ray: str | None = None,
    resume: bool = False,
    plugin: list[str] | None = None,
) -> int:
    """Simulate, print the summary (or its JSON); 1 when a policy broke the rules."""
    from mjcli.hk.figures import render
    from mjcli.hk.simulate import LOG_DIR, TABLES, PolicyError, game_specs, parse_players, parted_options
    from mjcli.hk.simulate import simulate as run
    from mjcli.ledger import CONTENTS, MANIFESTS, PartedRun
    from mjcli.outpaths import output_dir
    from mjcli.runner import backend_for  # here: reading the game table (--help) needs no runner

    if resume and out is None:
        raise UsageError("--resume needs --out DIR: the folder of the run to finish")
    backend = backend_for(jobs, ray)
    rules = _rules(preset, min_faan, payment, min_without_bonus).with_options(length=length)
    registry = _registry(plugin)
    names = parse_players(players, registry)
    # on Ray or with --resume (and --out) the tables are a dataset of parts and the logs are written
    # in place by the tasks (see mjcli.ledger)
    parting = out is not None and (ray is not None or resume)
    live = (LOG_DIR, *TABLES, MANIFESTS)
    parted = None
    with contextlib.ExitStack() as stack:
        # a bad --out fails before the work
        stage = stack.enter_context(
            output_dir(
                out,
                (*SIMULATE_OWNS, *TABLES, MANIFESTS, CONTENTS),
                live=live if parting else (),
                mark="summary.json",
            )
        )
        if parting:
            options = parted_options(names, seed, rules, duplicate, registry)
            parted = PartedRun(Path(str(out)), TABLES, options, resume=resume, folders=(LOG_DIR,))
        total = len(game_specs(names, games, seed, rules, duplicate))
        bar = stack.enter_context(terminal_bar(total, unit="game"))
        stack.enter_context(backend.session())
        how = backend.describe()
        progress = None if bar is None else (lambda n: bar.update(1))
        try:
            result = run(
                names,
                games,
                seed,
                rules,
                out=stage,
                duplicate=duplicate,
                progress=progress,
                backend=backend,
                parted=parted,
                registry=registry,
            )
        except PolicyError as exc:
            # A policy bug, found by playing: reported where. The logs of the games before are kept
            # (for the bug report); no table or summary.json is, so it never reads as a run.
            print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 1
    if parted is not None:
        result["resumed"] = parted.resumed  # (deals; not in summary.json, which stays the same)
    if as_json:
        emit_json(result)
    else:
        print(render(result))
    if parted is not None:
        kept = ""
        if resume:
            kept = f"; {parted.resumed} of {plural(result['deals'], 'deal')} kept from the earlier run"
        print(f"wrote {Path(str(out)) / 'games'}/ and {Path(str(out)) / 'rounds'}/{kept}", file=sys.stderr)
    rate = games_rate(result["games"], result["seconds"], parted.resumed if parted is not None else 0)
    print(
        f"{plural(result['games'], 'game')}, {plural(result['hands'], 'hand')} in {result['seconds']:.1f} s "
        f"({rate}, {how})",
        file=sys.stderr,
    )
    return 0


# ---------------------------------------------------------------- verify


#: what a Hong Kong verify writes into --out (the names riichi's verify uses for the same tables)
VERIFY_OWNS = ("verify.parquet", "verify_games.parquet", "verify_mismatches.parquet")


def verify(
    preset: str,
    logs: list[str],
    out: str | None,
    as_json: bool,
    jobs: int | None,
    ray: str | None = None,
    resume: bool = False,
) -> int:
    from mjcli.hk.formats import collect_logs
    from mjcli.hk.verify import (
        GAMES_SCHEMA,
        MISMATCH_SCHEMA,
        ROW_SCHEMA,
        TABLES,
        note_of,
        parted_options,
        verify_fingerprint,
        verify_paths,
        verify_split,
        verify_task,
    )
    from mjcli.ledger import CONTENTS, MANIFESTS, PartedRun, write_table
    from mjcli.outpaths import output_dir
    from mjcli.runner import backend_for  # here: reading the game table (--help) needs no runner

    if resume and out is None:
        raise UsageError("--resume needs --out DIR: the folder of the run to finish")
    backend = backend_for(jobs, ray)
    inputs = collect_logs(logs, sys.stdin if "-" in logs else None)
    if not inputs:
        raise UsageError(f"no log files found in {', '.join(logs)}")
    counts = {"ok": 0, "mismatch": 0, "error": 0}
    hands = matching = 0
    rows: list[dict[str, Any]] = []
    game_rows: list[dict[str, Any]] = []
    mismatch_rows: list[dict[str, Any]] = []
    # on Ray or with --resume (and --out) the tables are a dataset of parts (see mjcli.ledger)
    parting = out is not None and (ray is not None or resume)
    live = (*TABLES, MANIFESTS)
    owns = (*VERIFY_OWNS, *live, CONTENTS)
    parted = None
    with (
        output_dir(out, owns, inputs.paths, live=live if parting else (), mark=VERIFY_OWNS[0]) as stage,
        backend.session(),
    ):
        _print_notes(inputs)
        items = [(i.path, i.label) for i in inputs]
        if parting:
            parted = PartedRun(Path(str(out)), TABLES, parted_options(preset), resume=resume)
            notes = parted.run(
                verify_task,
                verify_split,
                verify_fingerprint,
                items,
                label=lambda item: item[1],
                backend=backend,
            )
        else:
            notes = map(
                note_of, _kept_rows(verify_paths(items, backend=backend), rows, game_rows, mismatch_rows)
            )
        with terminal_bar(len(inputs), unit="log", leave=False) as bar:
            for note in notes:
                counts[note["status"]] += 1
                hands += note["hands"]
                matching += note["matching"]
                if bar is not None:
                    bar.clear()
                if as_json:
                    emit_json(note["data"])
                else:
                    print("\n".join(note["lines"]))
                if bar is not None:
                    bar.update(1)
        if stage is not None and parted is not None:
            parted.write_contents(stage)
        elif stage is not None:
            write_table(rows, stage / "verify.parquet", schema=ROW_SCHEMA)
            write_table(game_rows, stage / "verify_games.parquet", schema=GAMES_SCHEMA)
            write_table(mismatch_rows, stage / "verify_mismatches.parquet", schema=MISMATCH_SCHEMA)
    if parted is not None:
        kept = (
            f"; {parted.resumed} of {plural(len(inputs), 'log')} kept from the earlier run" if resume else ""
        )
        print(f"wrote {Path(str(out)) / 'verify'}/ ({plural(hands, 'hand')}{kept})", file=sys.stderr)
    elif out is not None:
        print(f"wrote {Path(out) / 'verify.parquet'} ({plural(len(rows), 'hand')})", file=sys.stderr)
    summary = {"summary": True, "logs": len(inputs), **counts, "hands": hands, "hands_matching": matching}
    if as_json:
        emit_json(summary)
    else:
        print(
            f"{plural(len(inputs), 'log')}: {counts['ok']} ok, {counts['mismatch']} mismatching, "
            f"{plural(counts['error'], 'error')}; {matching}/{hands} hands match"
        )
    return 0 if counts["ok"] == len(inputs) else 1


def _kept_rows(
    reports: Iterable[Any],
    rows: list[dict[str, Any]],
    game_rows: list[dict[str, Any]],
    mismatch_rows: list[dict[str, Any]],
) -> Iterator[Any]:
    """The reports as they come, their rows kept for the tables on the way."""
    for r in reports:
        rows.extend(r.rows)
        game_rows.append(r.to_row())
        mismatch_rows.extend(r.mismatch_rows())
        yield r


def _print_notes(inputs: Any) -> None:
    """The inputs left out because they repeat an earlier one, one line each on stderr."""
    for line in inputs.notes():
        print(line, file=sys.stderr)


# ---------------------------------------------------------------- replay and summary


#: what a Hong Kong replay writes into --out
REPLAY_OWNS = ("decisions.parquet", "games.parquet", "replay.json")


@plugin_bugs_stop
def replay(
    preset: str,
    records: list[str],
    policies: str,
    out: str | None,
    jobs: int | None,
    as_json: bool,
    ray: str | None = None,
    resume: bool = False,
    plugin: list[str] | None = None,
) -> int:
    import tempfile

    from mjcli.hk.formats import collect_logs
    from mjcli.hk.policies import parse_policy_names
    from mjcli.hk.replay import TABLES, parted_options
    from mjcli.hk.replay import replay as run
    from mjcli.hk.summary import format_summary, summarise
    from mjcli.ledger import CONTENTS, MANIFESTS, PartedRun
    from mjcli.outpaths import output_dir

    registry = _registry(plugin)
    names = parse_policy_names(policies, _own_bots(preset), registry)
    if resume and out is None:
        raise UsageError("--resume needs --out DIR: the folder of the run to finish")
    from mjcli.runner import backend_for  # here: reading the game table (--help) needs no runner

    backend = backend_for(jobs, ray)
    inputs = collect_logs(records, sys.stdin if "-" in records else None)
    if not inputs:
        raise UsageError(f"no log files found in {', '.join(records)}")
    # on Ray or with --resume (and --out) the tables are a dataset of parts (see mjcli.ledger)
    parting = out is not None and (ray is not None or resume)
    live = (*TABLES, MANIFESTS)
    parted = None
    with contextlib.ExitStack() as stack:
        stage = stack.enter_context(
            output_dir(
                out,
                (*REPLAY_OWNS, *live, CONTENTS),
                inputs.paths,
                live=live if parting else (),
                mark="replay.json",
            )
        )
        if parting:
            parted = PartedRun(Path(str(out)), TABLES, parted_options(names, preset, registry), resume=resume)
        _print_notes(inputs)
        if stage is None:  # no --out: the tables still go to files, in a folder removed at the end
            stage = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mjcli-hk-replay-")))
        with terminal_bar(len(inputs), unit="log", leave=False) as bar, backend.session():
            result = run(
                [(i.path, i.label) for i in inputs],
                names,
                out=stage,
                backend=backend,
                progress=None if bar is None else bar.update,
                game=preset,
                parted=parted,
                registry=registry,
            )
        if parted is not None:
            parted.write_contents(stage)
        summary = summarise(result.decisions)
        summary.update({"files": result.files, "games": result.games, "skipped": result.errors})
        if parted is not None:
            summary["resumed"] = parted.resumed
        if as_json:
            emit_json(summary)
        else:
            print(f"{plural(result.games, 'game')}, " + format_summary(summary))
            for e in result.errors:
                print(f"SKIPPED {e}")
    if out is not None:
        target = Path(out)
        if parted is not None:
            kept = (
                f"; {parted.resumed} of {plural(len(inputs), 'log')} kept from the earlier run"
                if resume
                else ""
            )
            print(
                f"wrote {target / 'decisions'}/ ({plural(result.rows, 'row')}{kept}) and {target / 'games'}/",
                file=sys.stderr,
            )
        else:
            print(
                f"wrote {target / 'decisions.parquet'} ({plural(result.rows, 'row')}) and "
                f"{target / 'games.parquet'}",
                file=sys.stderr,
            )
    return 1 if result.errors else 0


def summary(preset: str, path: Path, as_json: bool) -> int:
    from mjcli.hk.summary import format_summary, load, summarise

    replay = (path / "decisions.parquet").exists() or (path / "decisions").is_dir()
    if path.is_dir() and not replay and (path / "summary.json").is_file():  # a simulation's folder
        from mjcli.hk.figures import render
        from mjcli.hk.simulate import folder_summary

        figures = folder_summary(path)
        if as_json:
            emit_json(figures)
        else:
            print(render(figures))
        return 0
    result = summarise(load(path))
    if as_json:
        emit_json(result)
    else:
        print(format_summary(result))
    return 0


# ---------------------------------------------------------------- the table entries

_SCORE_HELP = """{title} (--game {name}): HAND is the concealed tiles in mpsz (1z-7z = E S W N White Green
Red{jokers}), with the winning tile (14 tiles, 3 fewer per meld; --win names it, default the last
written) or without it (then --win). Won on a discard unless --tsumo; --melds pon:111z,chi:456s,
kan:5555p,ankan:9999s,kakan:2222m; --seat is a seat number 0-3 (seat 0 is the dealer, East; 1
South...) or a wind E S W N, --round a wind, both default to East; bonus tiles held
as numbers: --flowers 1,3 --seasons 2 (tile n belongs to seat wind n: 1 East ... 4 North). Win
conditions: --rinshan (kong replacement), --double-rinshan, --chankan (robbing a kong), --haitei (the
last wall tile, self-drawn), --houtei (the last discard), --tenhou (heavenly), --chiihou (earthly).
Table: --min-faan (default 3), --min-without-bonus (bonus faan do not count toward it), --payment
half-gun|full-gun|half-spicy|simplified. A hand below the minimum is refused (exit 2).

Example: mjcli score --game {name} 999s777z22s --win 2s --melds pon:111m,pon:555p"""

_SHANTEN_HELP = """{title} (--game {name}): hands in mpsz{jokers}. Winning shapes are four sets and a pair
and thirteen orphans (seven pairs is not one). A hand of 13 tiles (10, 7, 4, 1 beside melds) gets
its shanten and the tiles that lower it; a hand of 14 (11, 8, 5, 2) a row per discard. '-' reads
hands from stdin.

Example: mjcli shanten --game {name} 123m456p789s1135z"""

_ADVISE_HELP = """{title} (--game {name}): HAND is 14 tiles in mpsz{jokers} (3 fewer per meld of
--melds), the last one written being the tile just drawn. --seen lists the tiles exposed elsewhere
(rivers and other players' melds), --seat (0-3, seat 0 the dealer, or a wind) and --round (a wind;
both default to East), --flowers/--seasons the
bonus tiles held, --min-faan the table's minimum (default 3). Policies: {players} (--policy, or all).

Example: mjcli advise --game {name} 123m456p789s11345z --policy all"""

_SIMULATE_HELP = """{title} (--game {name}): whole games under the Old Style rules of the README
(144 tiles{jokers_sim}, flowers and seasons, claims win > pung/kong > chow, robbing an added kong,
the dealer keeps the deal on a win or a draw, only the winner scores), policies (one to four)
rotated over the seats; --length east (one round of the prevailing wind, the default) or full (four),
--min-faan (default 3), --min-without-bonus, --payment. --duplicate plays each deal's walls once per
seat rotation. --out DIR gets logs/hk-NNNNNN.json (the JSON log of the README, which verify and
replay read), games.parquet, rounds.parquet and summary.json.

Example: mjcli simulate --game {name} --players {players} --games 100 --seed 1 --out sim"""

_VERIFY_HELP = """{title} (--game {name}): LOGS are Hong Kong JSON logs (as simulate --game hk|red writes
them), folders (their .json files, walked recursively) or - for paths on stdin. Every hand is played
again through the engine (every draw, claim and kong checked) and its result, the scores after it,
the dealer's progress and the final scores are compared with the log's. A log's own rules (in the
log) are used.

Example: mjcli verify --game {name} sim/logs"""

_REPLAY_HELP = """{title} (--game {name}): LOGS as for verify. At every decision point (own turn:
discard, kong, win; another's discard: claim or win; an added kong: rob) each policy of --policy
(default: {players}) is asked with exactly that seat's view. --out DIR gets decisions.parquet (file,
game_id, hand_index, round, turn, seat, player, kind, hand, drawn, offered, melds, options, actual,
policy, choice, agree, reason) and games.parquet.

Example: mjcli replay --game {name} sim/logs --out rep"""

_POLICIES_HELP = """{title} (--game {name}): the seed's bots (hk-pm0 ... hk-pm16plus, red-pm0 ...
red-pm12plus), the installed packages' policies (entry-point group mjcli.hk.policies) and those given
with --plugin NAME=TARGET: a Python object whose decide(view, legal) returns one of the legal moves
(view: mjcli.hk.engine.view.SeatView; legal: mjcli.hk.engine.actions.Move), for advise, simulate
and replay under --game hk and --game red.

Example: mjcli policies --game {name} --plugin first=examples/hk_plugin.py:FirstLegal"""


_SUMMARY_HELP = """{title} (--game {name}): DIR is a Hong Kong replay's --out folder (or its
decisions.parquet), or a simulation's (its summary, worked out again from its games table).

Example: mjcli summary --game {name} rep"""


_RED_HELP = """Red mahjong (--game red): as --game hk above, under the Red rule set: four jokers
(J in a hand) that stand for any tile in the concealed sets and the pair, never claimed when
discarded, "no jokers" 1 faan (the README's Red design); the bots are red-pm0, red-pm12 and
red-pm12plus.

Example: {example}"""

_RED_EXAMPLES = {
    "score": "mjcli score --game red 123m456pJ789s55z1z --win 1z",
    "shanten": "mjcli shanten --game red 123m456pJJ89s1135z",
    "advise": "mjcli advise --game red 123m456pJ789s1135z",
    "simulate": "mjcli simulate --game red --games 100 --seed 1 --out sim",
    "verify": "mjcli verify --game red sim/logs",
    "replay": "mjcli replay --game red sim/logs --out rep",
    "summary": "mjcli summary --game red rep",
    "policies": "mjcli policies --game red --plugin first=examples/hk_plugin.py:FirstLegal",
}


def _entry(name: str, title: str, players: str, jokers: str) -> GameEntry:
    fmt = {
        "name": name,
        "title": title,
        "jokers": jokers,
        "players": players,
        "jokers_sim": ", 148 with four jokers" if jokers else "",
    }
    entry = _hk_entry(name, title, players, fmt)
    if name != "red":
        return entry
    commands = {
        c: dataclasses.replace(cmd, help=_RED_HELP.format(example=_RED_EXAMPLES[c]))
        for c, cmd in entry.commands.items()
    }
    return dataclasses.replace(entry, commands=commands)


def _hk_entry(name: str, title: str, players: str, fmt: dict[str, str]) -> GameEntry:
    return GameEntry(
        name=name,
        title=title,
        commands={
            "score": Command(
                functools.partial(score, name),
                help=_SCORE_HELP.format(**fmt),
                options={
                    "hand": None,
                    "win": None,
                    **dict.fromkeys(
                        (
                            "tsumo",
                            "rinshan",
                            "double_rinshan",
                            "chankan",
                            "haitei",
                            "houtei",
                            "tenhou",
                            "chiihou",
                        ),
                        False,
                    ),
                    "melds": "",
                    "seat": "E",
                    "round_": "E",
                    "flowers": None,
                    "seasons": None,
                    "min_faan": None,
                    "payment": None,
                    "min_without_bonus": False,
                    "as_json": False,
                },
            ),
            "shanten": Command(
                functools.partial(shanten, name),
                help=_SHANTEN_HELP.format(**fmt),
                options={"hands": None, "seen": "", "shanten_only": False, "as_json": False},
            ),
            "advise": Command(
                functools.partial(advise, name),
                help=_ADVISE_HELP.format(**fmt),
                options={
                    "hand": None,
                    "policies": "all",
                    "seen": "",
                    "round_": "E",
                    "seat": "E",
                    "melds": "",
                    "flowers": None,
                    "seasons": None,
                    "min_faan": None,
                    "as_json": False,
                    "plugin": None,
                },
            ),
            "simulate": Command(
                functools.partial(simulate, name),
                help=_SIMULATE_HELP.format(**fmt),
                options={
                    "players": players,
                    "games": 100,
                    "seed": 0,
                    "out": None,
                    "duplicate": False,
                    "jobs": None,
                    "as_json": False,
                    "length": "east",
                    "min_faan": None,
                    "payment": None,
                    "min_without_bonus": False,
                    "ray": None,
                    "resume": False,
                    "plugin": None,
                },
            ),
            "verify": Command(
                functools.partial(verify, name),
                help=_VERIFY_HELP.format(**fmt),
                options={
                    "logs": None,
                    "out": None,
                    "as_json": False,
                    "jobs": None,
                    "ray": None,
                    "resume": False,
                },
            ),
            "replay": Command(
                functools.partial(replay, name),
                help=_REPLAY_HELP.format(**fmt),
                options={
                    "records": None,
                    "policies": "all",
                    "out": None,
                    "jobs": None,
                    "as_json": False,
                    "ray": None,
                    "resume": False,
                    "plugin": None,
                },
            ),
            "policies": Command(
                policies, help=_POLICIES_HELP.format(**fmt), options={"plugin": None, "as_json": False}
            ),
            "summary": Command(
                functools.partial(summary, name),
                help=_SUMMARY_HELP.format(**fmt),
                options={"path": None, "as_json": False},
            ),
        },
    )


GAME = _entry("hk", "Hong Kong mahjong (Old Style)", HK_PLAYERS, "")
RED = _entry("red", "Red mahjong (Hong Kong with four jokers)", RED_PLAYERS, "; J = a joker")

__all__ = ["GAME", "RED"]
