"""Riichi's entry in the ``--game`` table: the options each command takes here, their defaults, and
the body of each command (options in, output printed, exit code out).

The bodies parse what only a person types (hands, winds, comma lists), call the library
(:mod:`mjcli.riichi.scoring`, :mod:`~mjcli.riichi.verify`, :mod:`~mjcli.riichi.replay`, ...) and
print its text or JSON. Heavy modules are imported inside the bodies, so that reading this table
(for ``--help``) costs nothing.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mjcli.errors import InvalidHandError, MjcliError, UsageError, quoted, short_path
from mjcli.games import Command, GameEntry
from mjcli.output import emit_json, games_rate, plural, terminal_bar
from mjcli.riichi.rules import DEFAULT_HANDS_SHOWN

DEFAULT_PLAYERS = "akagi,mahjongjoy,greedy,efficiency"

T = TypeVar("T")


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
    open_riichi: bool = False,
    discarder_riichi: bool = False,
) -> int:
    from mjcli.riichi.explain import explain
    from mjcli.riichi.scoring import hand_label, score_typed
    from mjcli.tiles import tile_name

    if riichi and double_riichi:
        raise UsageError("--riichi and --double-riichi together: give one (a double riichi is the riichi)")
    if open_riichi and not (riichi or double_riichi):
        raise UsageError("--open-riichi is a kind of riichi: give --riichi or --double-riichi too")
    first = [f"--{n}" for n, on in (("tenhou", tenhou), ("chiihou", chiihou)) if on]
    others = [
        f"--{n}"
        for n, on in (
            ("riichi", riichi),
            ("double-riichi", double_riichi),
            ("ippatsu", ippatsu),
            ("rinshan", rinshan),
            ("chankan", chankan),
            ("haitei", haitei),
            ("houtei", houtei),
        )
        if on
    ]
    if first and others:
        # the library scores the yakuman and silently drops the rest: refused, as no win is both
        raise UsageError(
            f"{first[0]} is a win on the first draw, before any discard or call: not with {', '.join(others)}"
        )
    if ura and not (riichi or double_riichi):
        raise UsageError("--ura counts only for a hand in riichi: give --riichi or --double-riichi too")
    if discarder_riichi and not (open_riichi and not tsumo):
        raise UsageError(
            "--discarder-riichi is about a ron on an open riichi: give --open-riichi, no --tsumo"
        )
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
        "open_riichi": open_riichi,
        "discarder_riichi": discarder_riichi,
    }
    rules = _three_player_rules(rules, sanma, "score")
    typed = score_typed(
        hand,
        win,
        melds=melds,
        dora=dora,
        ura=ura,
        seat=WINDS[read_seat(seat)[1]],
        round_wind=WINDS[read_wind(round_, "--round")],
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


def shanten(
    hands: list[str], seen: str, shanten_only: bool, sanma: bool, as_json: bool, fields: str | None = None
) -> int:
    """Hands from the command line (the first bad one is the error), or ``-``: one hand per line of
    standard input, every good line answered and every bad one reported with its line number (in
    order, as JSON objects with ``--json``); exit 2 at the end when a line was bad. ``sanma``:
    three-player hands (no 2m-8m; a hand or ``--seen`` holding one is bad). ``fields``: the JSON
    fields to write (:data:`mjcli.riichi.hand_lines.FIELDS`, comma-separated; all by default)."""
    from mjcli.analysis import SANMA_ABSENT, shanten_batch, shanten_sanma
    from mjcli.analysis import shanten as shanten_of
    from mjcli.riichi.hand_lines import select
    from mjcli.riichi.hand_report import (
        BadLine,
        analyse,
        analyse_batch,
        check_sanma,
        check_seen,
        read_hand,
        read_hands,
        render,
    )
    from mjcli.tiles import NUM_KINDS, check_counts, counts34, is_red, parse_tiles, tile_name

    seen_tiles = parse_tiles(seen)
    check_counts(seen_tiles, what=f"--seen '{seen}'")
    seen_counts = counts34(seen_tiles)
    seen_reds = tuple(t for t in seen_tiles if is_red(t))
    absent = [k for k in SANMA_ABSENT if seen_counts[k]] if sanma else []
    if absent:
        raise InvalidHandError(
            f"--seen '{seen}' holds {tile_name(absent[0])}: three-player mahjong has no 2m-8m"
        )
    if fields is not None and not as_json:
        raise UsageError("--fields chooses the fields of the JSON objects: give --json too")
    from mjcli.riichi.hand_lines import FIELDS, parse_fields

    chosen = FIELDS if fields is None else parse_fields(fields)
    if shanten_only:
        left_out = [f for f in chosen if f not in ("hand", "size", "shanten")]
        if fields is not None and left_out:
            raise UsageError(
                f"--fields {','.join(left_out)}: --shanten-only leaves out everything but hand, size and "
                "shanten (give one or the other)"
            )
        chosen = tuple(f for f in chosen if f in ("hand", "size", "shanten"))
    if "-" in hands and len(hands) > 1:
        raise UsageError("'-' (read hands from stdin) cannot be mixed with hands on the command line")
    stdin_bytes = getattr(sys.stdin, "buffer", None)
    if "-" in hands and as_json and stdin_bytes is not None and hasattr(sys.stdout, "buffer"):
        return _shanten_stream(stdin_bytes, seen_counts, chosen, sanma, seen_reds)
    if "-" in hands:
        entries = read_hands(sys.stdin, seen_counts, sanma, seen_reds)
        if not entries:
            raise UsageError("no hands on standard input (give one hand per line)")
        parsed = [e for e in entries if not isinstance(e, BadLine)]
        import numpy as np  # the batch path only: a quick command never loads numpy

        batch = np.array([h.counts for h in parsed], dtype=np.uint8).reshape(-1, NUM_KINDS)
        values = [int(v) for v in shanten_batch(batch, sanma=sanma)]
        if sanma:  # the numpy draw tables know the four-player tile set only: hand by hand
            analysed = iter(
                [analyse(h, v, seen_counts, shanten_only, sanma) for h, v in zip(parsed, values, strict=True)]
            )
        else:
            analysed = iter(analyse_batch(parsed, values, seen_counts, shanten_only))
    else:
        entries = [read_hand(text, what=f"hand '{text}'") for text in hands]
        for h in entries:
            if sanma:
                check_sanma(h)
            check_seen(h, seen_counts, seen_reds)
        analysed = iter(
            [
                analyse(
                    h, (shanten_sanma if sanma else shanten_of)(h.counts), seen_counts, shanten_only, sanma
                )
                for h in entries
            ]
        )
    results = []
    bad = 0
    for entry in entries:
        if isinstance(entry, BadLine):
            bad += 1
            if as_json:
                emit_json(entry.to_json())
            else:
                print(f"error: {entry.message()}", file=sys.stderr)
            continue
        result = next(analysed)
        if as_json:
            emit_json(select(result.to_json(), chosen))
        else:
            results.append(result)
    if not as_json and results:
        print(render(results, shanten_only))
    return 2 if bad else 0


def _shanten_stream(
    stdin: Any, seen_counts: list[int], fields: tuple[str, ...], sanma: bool, seen_reds: tuple[int, ...] = ()
) -> int:
    """``shanten - --json``: every line answered in order, chunk by chunk, as the lines come
    (:mod:`mjcli.riichi.hand_lines`); a bad line is a JSON object with its number; exit 2 at the
    end when a line was bad."""
    from mjcli.analysis import shanten_sanma
    from mjcli.errors import one_line
    from mjcli.riichi.hand_lines import HandLines, dumps, needs_analysis, select, write_answers
    from mjcli.riichi.hand_report import BadLine, analyse, check_sanma, check_seen, read_hand

    analysed = needs_analysis(fields)

    def answer(line: str, number: int) -> Any:
        text = line.strip()
        if not text:
            return "", False
        try:
            hand = read_hand(text, what=f"hand '{text}'")
            if sanma:
                check_sanma(hand)
            check_seen(hand, seen_counts, seen_reds)
        except MjcliError as exc:
            return dumps(BadLine(number, text, one_line(str(exc))).to_json()), True
        if not sanma:  # a four-player hand: analysed in the batch with the others
            return hand
        result = analyse(hand, shanten_sanma(hand.counts), seen_counts, not analysed, sanma)
        return dumps(select(result.to_json(), fields)), False

    lines = HandLines(seen_counts, fields, answer, sanma, seen_reds)
    sys.stdout.flush()
    write_answers(stdin, sys.stdout.buffer, lines)
    if not lines.entries:
        raise UsageError("no hands on standard input (give one hand per line)")
    return 2 if lines.bad else 0


# ---------------------------------------------------------------- names: built-in, plugin, entry point, bot


def _registry(
    plugin: list[str] | None,
    bot: list[str] | None,
    bot_timeout: float | None = None,
    bot_framing: str | None = None,
    log_dir: Path | None = None,
) -> Any:
    """Every policy name the command knows (:func:`mjcli.riichi.policies.policy_registry`), the
    bots' stderr going to ``log_dir/NAME.stderr.log`` (started afresh)."""
    import dataclasses

    from mjcli.riichi.bots import bot_spec, check_settings
    from mjcli.riichi.policies import policy_registry

    if not bot and (bot_timeout is not None or bot_framing is not None):
        raise UsageError("--bot-timeout and --bot-framing apply to the bots given with --bot")
    settings = check_settings(bot_timeout, bot_framing)
    if log_dir is not None:
        settings = dataclasses.replace(settings, log_dir=str(log_dir))
    specs = [bot_spec(text, settings) for text in bot or ()]
    if log_dir is not None:
        for spec in specs:
            (log_dir / f"{spec.name}.stderr.log").unlink(missing_ok=True)
    return policy_registry(plugin or (), specs)


def _resolved(
    resolve: Callable[[Any], T],
    plugin: list[str] | None,
    bot: list[str] | None,
    bot_timeout: float | None,
    bot_framing: str | None,
) -> tuple[Any, T]:
    """The registry of a run and what ``resolve`` makes of it (the names asked for, checked). When
    no plugin or bot is given, the built-ins' registry answers alone if it knows every name: looking
    up the installed entry points (the import of importlib.metadata and a scan of site-packages,
    ~40 ms) is about a fifth of a typed hand's advise, and time before the first worker of a replay
    or a simulation starts (Polars imports it too, but later, while the workers run). A name it does
    not know may be an entry point's: then every source is asked."""
    if not plugin and not bot and bot_timeout is None and bot_framing is None:
        from mjcli.riichi.policies import builtin_registry

        with contextlib.suppress(MjcliError):
            builtins = builtin_registry()
            return builtins, resolve(builtins)
    registry = _registry(plugin, bot, bot_timeout, bot_framing)
    return registry, resolve(registry)


def _fault_lines(faults: list[dict[str, Any]], where: str | None, limit: int = 5) -> list[str]:
    """The faults of a run's bots, for a person: counts per bot and kind, the first few in full."""
    if not faults:
        return ["bot faults: none"]
    counts: dict[tuple[str, str], int] = {}
    for f in faults:
        key = (f["bot"], f["fault"])
        counts[key] = counts.get(key, 0) + 1
    shown = ", ".join(f"{bot} {kind} {n}" for (bot, kind), n in sorted(counts.items()))
    lines = [f"{len(faults)} bot fault(s): {shown}" + (f" (all in {where})" if where else "")]
    # what went wrong; the decisions of a process that had already failed are only counted
    telling = [f for f in faults if f["fault"] != "unanswered"] or faults
    for f in telling[:limit]:
        place = " ".join(
            f"{k} {f[k]}" for k in ("file", "game", "round", "turn", "seat", "event") if f.get(k) is not None
        )
        answer = f"; answered {f['answer']!r}" if f.get("answer") else ""
        played = f"; played {f['played']}" if f.get("played") else ""
        detail = " ".join(str(f["detail"]).split())
        lines.append(f"  {f['bot']} {f['fault']} at {place}: {detail[:300]}{answer[:200]}{played}")
    if len(faults) > min(limit, len(telling)):
        lines.append(f"  ... and {len(faults) - min(limit, len(telling))} more")
    return lines


# ---------------------------------------------------------------- advise


def advise(
    hand: str,
    policies: str,
    dora: str | None,
    seen: str | None,
    round_: str | None,
    seat: str | None,
    melds: str | None,
    riichi_by: str | None,
    honba: int | None,
    turn: int | None,
    sanma: bool,
    as_json: bool,
    plugin: list[str] | None = None,
    bot: list[str] | None = None,
    bot_timeout: float | None = None,
    bot_framing: str | None = None,
    offered: str | None = None,
    from_: str | None = None,
    shown: str | None = None,
    hands_shown: str | None = None,
    game_index: int | None = None,
) -> int:
    """``hand`` is a hand in mpsz or a log file. For a hand, ``round_`` is the round wind and
    ``seat`` the seat (see :func:`read_seat`); ``offered`` and ``from_`` a discard to answer (the
    hand is then 13 tiles); ``shown`` other seats' hands shown at the table. For a log, the position
    is ``round_`` (a round label such as ``E2``), ``honba``, ``turn`` (as in replay's
    ``decisions.parquet``) and ``seat``, in game ``game_index`` of a file that holds several (which
    must then be named); ``hands_shown`` the players whose hand is shown (default: as the log
    records)."""
    from mjcli.melds import parse_melds
    from mjcli.riichi.advise import advise_hand, advise_log, render, split_round_honba
    from mjcli.riichi.policies.base import PolicyError
    from mjcli.tiles import parse_tiles

    registry, policies = _resolved(
        lambda known: known.parse_names(policies), plugin, bot, bot_timeout, bot_framing
    )
    try:
        if _names_log(hand):
            from mjcli.riichi.replay import parse_hands_shown_names  # replay's tables: only for a log

            _refuse_for(
                # (the sentence reads "--dora does not apply to a position of the log '...'"; it
                # said "does not apply to '...' is a log")
                f"a position of the log '{short_path(hand)}' (the log gives them)",
                dora=dora,
                seen=seen,
                melds=melds,
                riichi_by=riichi_by,
                offered=offered,
                from_=from_,
                shown=shown,
            )
            if turn is None or round_ is None or seat is None:
                raise UsageError(
                    f"'{hand}' is a log: name the position with --round, --honba, --turn, --seat"
                )
            if sanma:
                raise UsageError("--sanma is for a typed hand: a log says itself how many play")
            kind, value = read_seat(seat)
            label, honba_ = split_round_honba(round_, honba)
            result = advise_log(
                hand,
                label,
                honba_,
                turn,
                value,
                policies=policies,
                registry=registry,
                seat_is_wind=kind == "wind",
                hands_shown=parse_hands_shown_names(hands_shown),
                game_index=game_index,
            )
        else:
            _refuse_for(
                "a typed hand (not a log)",
                honba=honba,
                turn=turn,
                hands_shown=hands_shown,
                game_index=game_index,
            )
            if (offered is None) != (from_ is None):
                raise UsageError("--offered and --from go together: the tile and the seat that discarded it")
            in_riichi = [
                read_seat(w, "--riichi-by")[1] for w in (riichi_by or "").replace(" ", ",").split(",") if w
            ]
            result = advise_hand(
                hand,
                melds=parse_melds(melds or ""),
                dora=parse_tiles(dora or ""),
                seen=parse_tiles(seen or ""),
                round_wind=read_wind(round_ or "E", "--round"),
                seat_wind=read_seat(seat or "E")[1],
                riichi_by=in_riichi,
                policies=policies,
                players=3 if sanma else 4,
                registry=registry,
                offered=offered,
                offered_by=None if from_ is None else read_seat(from_, "--from")[1],
                shown=_read_shown(shown),
            )
    except PolicyError as exc:  # a policy's bug (a plugin's): one line and exit 1, as in replay
        return _policy_bug(exc)
    if as_json:
        emit_json(result)
    else:
        print(render(result))
    # a bot's fault (shown in its row) gives exit 1, as in replay and simulate
    return 1 if any(p.get("fault") for p in result.get("policies", ())) else 0  # type: ignore[union-attr]


def _policy_bug(exc: MjcliError) -> int:
    """A policy's bug (a plugin's, most often) on one line, and the exit status a bug of a policy
    gets in every command: 1 (a usage error is 2)."""
    print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
    return 1


#: file names that can only be a log, never a hand in mpsz
_LOG_SUFFIXES = (".mjlog", ".json", ".jsonl", ".xml", ".gz", ".txt", ".log")


def _names_log(text: str) -> bool:
    """Does advise's HAND name a log file? A path that does not exist, or a folder, is an error; a
    string that cannot be a path (too long, for one) is a hand."""
    path = Path(text)
    try:
        exists = path.exists()
        folder = path.is_dir()
    except (OSError, ValueError):
        return False
    if folder:
        raise UsageError(f"'{text}' is a directory: give a log file or a hand")
    if exists:
        return True
    if "/" in text or os.sep in text or text.lower().endswith(_LOG_SUFFIXES):
        raise UsageError(f"log '{short_path(text)}' does not exist")  # as every command says it
    return False


def _read_shown(text: str | None) -> dict[int, str]:
    """``--shown W:123m456p789s1122z,N:...``: other seats' hands shown at the table, by seat."""
    out: dict[int, str] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        seat, sep, tiles = part.partition(":")
        if not sep or not tiles.strip():
            raise UsageError(f"--shown '{part.strip()}' is not SEAT:TILES (e.g. W:123m456p789s1122z)")
        s = read_seat(seat, "--shown")[1]
        if s in out:
            raise UsageError(f"--shown names seat {WINDS[s]} twice")
        out[s] = tiles.strip()
    return out


def _refuse_for(what: str, **options: object) -> None:
    """Options given that mean nothing for ``what`` are an error naming them."""
    given = [
        "--" + name.rstrip("_").replace("_", "-") for name, value in options.items() if value is not None
    ]
    if given:
        raise UsageError(f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to {what}")


# ---------------------------------------------------------------- seats and winds as typed

#: the winds in seat order from the dealer
WINDS = "ESWN"


def _replay_seat(text: str | int) -> int:
    """A seat of ``replay --seat``: a seat number, 0 to 3 (seat 0 is the first dealer). A wind is
    refused by name: over a whole game it is a different seat each round."""
    t = str(text).strip()
    if not t.lstrip("+-").isdigit():
        try:
            read_wind(t, "--seat")
        except UsageError:
            # read_seat's "is not a wind (use E, S, W or N)" sent a user to winds, which replay
            # refuses below
            raise UsageError(
                f"--seat {quoted(t)}: replay takes seat numbers 0-3 (seat 0 is the first dealer; "
                "give several as 0,1)"
            ) from None
    kind, value = read_seat(t)
    if kind == "wind":
        raise UsageError(
            f"--seat {str(text).strip()}: replay takes seat numbers 0-3 (seat 0 is the first dealer); "
            "a wind is another seat every round (--player names a player)"
        )
    return value


def read_seat(text: str, option: str = "--seat") -> tuple[str, int]:
    """A seat as typed: digits are a seat number, 0 to 3 (seat 0 is the dealer: in a log, the first
    dealer; for a typed hand, East), letters a wind (E S W N, or east...): ``("number", n)`` or
    ``("wind", w)``. For a typed hand both name the same seat: seat 1 is South."""
    t = text.strip()
    if t.lstrip("+-").isdigit():
        if t not in ("0", "1", "2", "3"):
            raise UsageError(f"{option} {t}: seat numbers are 0 to 3 (seat 0 is the dealer)")
        return "number", int(t)
    return "wind", read_wind(t, option)


def read_wind(text: str, option: str) -> int:
    """A wind as typed, E S W N (or the words): 0 to 3."""
    from mjcli.tiles import wind_from_letter

    t = text.strip()
    if not t.isalpha():  # digits are seat numbers, never winds (wind_from_letter would take 1-4)
        raise UsageError(f"{option} '{text}' is not a wind (use E, S, W or N)")
    try:
        return wind_from_letter(t)
    except MjcliError:
        raise UsageError(f"{option} '{text}' is not a wind (use E, S, W or N)") from None


# ---------------------------------------------------------------- verify


def verify(
    logs: list[str],
    out: str | None,
    as_json: bool,
    jobs: int | None,
    rules: str | None,
    ray: str | None = None,
    resume: bool = False,
) -> int:
    from mjcli.runner import forks_workers, jobs_for, start_workers_early

    few = SMALL_VERIFY_BYTES_FORKED if forks_workers() else SMALL_VERIFY_BYTES
    if ray is None and jobs_for(jobs) > 1 and _logs_under(logs, few):
        jobs = 1  # a few logs: the workers would cost more than they save (see SMALL_VERIFY_BYTES)
    if ray is None and _several(logs):
        start_workers_early(jobs, VERIFY_WORKERS)  # before the imports below (see replay)
    # mjcli.ledger (Polars) only where a table is written: ~0.25 s CPU of a verify without --out
    from mjcli.outpaths import output_dir
    from mjcli.riichi.formats import collect_logs
    from mjcli.riichi.rules import get_rules
    from mjcli.riichi.verify import (
        TABLES,
        ReportNote,
        Summary,
        game_schema,
        mismatch_schema,
        parted_options,
        round_schema,
        verify_paths,
    )

    # without --rules each log is played under its own site's preset (the engine's choice)
    rule_set = get_rules(rules) if rules is not None else None
    backend = _batch_backend(jobs, ray, resume, out)
    inputs = collect_logs(logs, sys.stdin if "-" in logs else None)
    if not inputs:
        raise UsageError(f"no log files found in {', '.join(logs)}")
    summary = Summary()
    rows: list[dict[str, object]] = []
    game_rows: list[dict[str, object]] = []
    mismatch_rows: list[dict[str, object]] = []
    written = ("verify.parquet", "verify_games.parquet", "verify_mismatches.parquet")
    parting = _parted(out, ray, resume)
    owns = (*written, *_parted_entries(TABLES)) if out is not None else ()  # no --out: nothing is written
    live = _parted_entries(TABLES)[:-1] if parting else ()
    parted = None
    with output_dir(out, owns, inputs.paths, live=live, mark=written[0]) as stage, backend.session():
        _print_notes(inputs)

        def show(note: ReportNote, bar: Any) -> None:
            summary.add_note(note)
            if as_json:
                emit_json(note.data)
            else:
                if bar is not None:
                    bar.clear()
                print("\n".join(note.lines))

        with terminal_bar(len(inputs), unit="log", leave=False) as bar:
            if parting:
                from mjcli.ledger import PartedRun
                from mjcli.riichi.verify import verify_fingerprint, verify_split, verify_task
                from mjcli.runner import shared

                parted = PartedRun(Path(str(out)), TABLES, parted_options(rule_set), resume=resume)
                for notes in parted.run(
                    verify_task,
                    verify_split,
                    verify_fingerprint,
                    [str(p) for p in inputs.paths],
                    label=str,
                    setup=shared(rule_set),
                    backend=backend,
                ):
                    for note in notes["reports"]:
                        show(ReportNote.from_json(note), bar)
                    if bar is not None:
                        bar.update(1)
            else:
                for reports in verify_paths(inputs.paths, rule_set, backend=backend):
                    for r in reports:
                        if out is not None:
                            rows.extend(row.to_dict() for row in r.rows)
                            game_rows.append(r.to_row())
                            mismatch_rows.extend(m.to_row(r.file, r.game) for m in r.mismatches)
                        show(ReportNote.of(r), bar)
                    if bar is not None:
                        bar.update(1)
        if stage is not None and parted is not None:
            parted.write_contents(stage)
        elif stage is not None:
            from mjcli.ledger import write_table

            write_table(rows, stage / "verify.parquet", schema=round_schema())
            # Each game's verdict and every difference found, with its round (what `mjcli report` lists).
            write_table(game_rows, stage / "verify_games.parquet", schema=game_schema())
            write_table(mismatch_rows, stage / "verify_mismatches.parquet", schema=mismatch_schema())
    if parted is not None:
        kept = ""
        if resume:
            kept = f"; {parted.resumed} of {plural(len(inputs), 'log')} kept from the earlier run"
        print(
            f"wrote {Path(str(out)) / 'verify'}/ ({plural(parted.rows('verify'), 'round')}{kept})",
            file=sys.stderr,
        )
    elif out is not None:
        print(f"wrote {Path(out) / 'verify.parquet'} ({plural(len(rows), 'round')})", file=sys.stderr)
    if as_json:
        emit_json(summary.to_dict())
    else:
        print(
            f"{plural(summary.logs, 'log')}: {summary.ok} ok, {summary.mismatch} mismatching, "
            f"{plural(summary.error, 'error')}; {summary.rounds_matching}/{summary.rounds} rounds match"
            + (f"; rules {summary.rules_text()}" if summary.rules else "")
        )
    return 0 if summary.ok == summary.logs else 1


# ---------------------------------------------------------------- convert


def convert(log: str, to: str, output: str | None, as_json: bool) -> int:
    from mjcli.atomic import write_text_atomic
    from mjcli.outpaths import claim_file
    from mjcli.riichi.engine.events import StartRound
    from mjcli.riichi.formats import MJAI, TENHOU6, read_log, write_games

    fmt = to.strip().lower()
    if fmt not in (TENHOU6, MJAI):
        raise UsageError(f"--to '{to}' is not a format convert writes (choose tenhou6 or mjai)")
    if output == "-":  # the usual name of standard output (it made a file named '-')
        output = None
    if as_json and output is None:
        raise UsageError("--json needs -o FILE (without it, stdout is the converted log)")
    from_stdin = log == "-"  # the log itself on standard input (`zcat x.mjlog.gz | mjcli convert - ...`)
    target = claim_file(output, inputs=[] if from_stdin else [log]) if output is not None else None
    if from_stdin:
        from mjcli.riichi.formats import read_bytes

        games = read_bytes(sys.stdin.buffer.read() if sys.stdin is not None else b"", "stdin")
    else:
        if not Path(log).exists() and not Path(log).is_symlink():
            raise UsageError(f"log '{short_path(log)}' does not exist")  # as every command says it
        games = read_log(log)
    for g in games:
        if not g.complete:
            print(f"warning: {log}: incomplete game: {g.problem}", file=sys.stderr)
    text = write_games(games, fmt)
    if target is None:
        sys.stdout.write(text)
        return 0
    write_text_atomic(target, text)
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
            f"{log} ({summary['from']}) -> {output} ({fmt}): {plural(summary['games'], 'game')}, "
            f"{plural(summary['rounds'], 'round')}{state}"
        )
    return 0


# ---------------------------------------------------------------- replay and summary


#: the files a riichi replay writes into --out (a parted run: the tables as parts, see mjcli.ledger)
REPLAY_OWNS = ("decisions.parquet", "games.parquet", "changes.parquet", "replay.json")


def replay(
    records: list[str],
    policies: str,
    out: str | None,
    jobs: int | None,
    as_json: bool,
    seat: list[str] | list[int] | None,
    player: list[str] | None,
    by: str | None,
    baseline: Path | None,
    max_changes: int | None,
    rules: str | None,
    plugin: list[str] | None = None,
    bot: list[str] | None = None,
    bot_timeout: float | None = None,
    bot_framing: str | None = None,
    strict_bots: bool = False,
    ray: str | None = None,
    resume: bool = False,
    hands_shown: str | None = None,
) -> int:
    """Replay the logs; print the summary (and the changes against ``baseline``); the exit code."""
    import tempfile

    from mjcli.runner import start_workers_early

    if ray is None and _several(records):
        # before the imports below: the workers' server imports the same meanwhile, on the other core
        start_workers_early(jobs, REPLAY_WORKERS)

    # Polars (mjcli.ledger, the summary) is imported once the workers run: ~0.25 s CPU less before
    # the first log is sent to them (bench_speed ``jobs_and_memory``, the replay row)
    from mjcli.outpaths import output_dir
    from mjcli.riichi.formats import collect_logs
    from mjcli.riichi.replay import (
        FAULTS_FILE,
        TABLES,
        PolicyError,
        ReplayOptions,
        parse_hands_shown_names,
        parted_options,
    )
    from mjcli.riichi.rules import get_rules

    backend = _batch_backend(jobs, ray, resume, out, bot)
    registry, names = _resolved(
        lambda known: tuple(known.parse_names(policies)), plugin, bot, bot_timeout, bot_framing
    )
    if by is not None:
        from mjcli.riichi.summary import BY_CHOICES

        if by not in BY_CHOICES:
            raise UsageError(f"--by '{by}' is not one of {', '.join(BY_CHOICES)}")
    if max_changes is not None and baseline is None:
        # a gate that is never run must not look passed (exit 0)
        raise UsageError("--max-changes goes with --baseline: it bounds the decisions changed against it")
    max_changes = 0 if max_changes is None else max_changes
    if max_changes < 0:
        raise UsageError(f"--max-changes {max_changes} is negative")
    if rules is not None:
        get_rules(rules)  # an unknown preset is refused before any work
    shown = parse_hands_shown_names(hands_shown)
    seats = None
    if seat:
        # repeated, or several in one (--seat 0,1): both ways, as --policy takes its names
        seats = tuple(sorted({_replay_seat(x) for s in seat for x in str(s).split(",") if x.strip()}))
        if not seats:  # `--seat ''` or `--seat ,`: it replayed no decision at all, and exited 0
            raise UsageError(f"--seat {quoted(','.join(map(str, seat)))}: names no seat (give 0-3, or 0,1)")
    inputs = collect_logs(records, sys.stdin if "-" in records else None)
    if not inputs:
        raise UsageError(f"no log files found in {', '.join(records)}")
    # the baseline as the files it is read from: `--baseline DIR --out DIR` writes over them (the
    # folder itself, as an input, is not what the output's files are checked against)
    olds: list[Path] = []
    if baseline is not None:
        from mjcli.riichi.summary import decisions_files

        olds = decisions_files(baseline)
    read = [*inputs.paths, *olds]
    parting = _parted(out, ray, resume)
    owns = (*REPLAY_OWNS, *_bot_outputs(registry, FAULTS_FILE), *_parted_entries(TABLES))
    parted = None
    try:
        with contextlib.ExitStack() as stack:
            stage = stack.enter_context(
                output_dir(
                    out, owns, read, live=_parted_entries(TABLES)[:-1] if parting else (), mark="replay.json"
                )
            )
            # a missing, foreign or damaged baseline is an error before any work
            gate = None
            if baseline is not None:
                from mjcli.riichi.summary import read_baseline

                gate = (baseline, read_baseline(baseline))
            _print_notes(inputs)
            if stage is None:  # no --out: the tables still go to files, in a folder removed at the end
                stage = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mjcli-replay-")))
            if bot:  # the bots' stderr goes beside the outputs
                registry = _registry(plugin, bot, bot_timeout, bot_framing, stage)
            options = ReplayOptions(
                names, seats, tuple(player) if player else None, rules, registry, strict_bots, shown
            )
            stack.enter_context(backend.session())
            if parting:
                from mjcli.ledger import PartedRun

                parted = PartedRun(Path(out), TABLES, parted_options(options), resume=resume)
            code, rows, gate_error = _replay_into(
                inputs, options, stage, backend, as_json, by, gate, max_changes, out, parted
            )
    except PolicyError as exc:  # a policy bug, found by replaying: reported, and nothing is written
        return _policy_bug(exc)
    if out is not None:
        target = Path(out)
        if parting and parted is not None:
            kept = (
                f"; {parted.resumed} of {plural(len(inputs), 'log')} kept from the earlier run"
                if resume
                else ""
            )
            print(
                f"wrote {target / 'decisions'}/ ({plural(rows, 'row')}{kept}) and {target / 'games'}/",
                file=sys.stderr,
            )
        else:
            decisions, games = target / "decisions.parquet", target / "games.parquet"
            print(f"wrote {decisions} ({plural(rows, 'row')}) and {games}", file=sys.stderr)
    if gate_error is not None:
        raise gate_error
    return code


#: what replay's workers import: its work (``mjcli.riichi.replay._replay_task``), the shanten tables
#: (:data:`mjcli.runner.SHANTEN_TABLES`), the batch analysis with numpy and the log readers (imported
#: on a worker's first log otherwise: about 0.1 s and 0.02-0.04 s of each worker, bench_speed
#: ``jobs_and_memory``); named here, before any of them is imported. None of them imports Polars.
REPLAY_WORKERS = (
    "mjcli.analysis.warm",
    "mjcli.riichi.replay",
    "mjcli.analysis.discard_batch",
    "mjcli.riichi.formats",
)

#: what verify's workers import (``mjcli.riichi.verify.verify_task``, and the log readers as for replay)
VERIFY_WORKERS = ("mjcli.riichi.verify", "mjcli.riichi.formats")
#: what self-play's workers import (``mjcli.riichi.simulate.run._play_task``, as for replay)
SIMULATE_WORKERS = ("mjcli.analysis.warm", "mjcli.riichi.simulate.run", "mjcli.analysis.discard_batch")


#: a verify of log files or folders whose files add up to less than this runs in the main process
#: whatever ``--jobs`` says: less than half a second of work, which the workers cannot shorten. On
#: the shared Tenhou hanchan (13-22 KB of XML each; an mjai one is ~70 KB and less work a byte),
#: with the collector's settings of mjcli.process_settings, best of 3-4 alternated runs each:
#: 19 hanchan (300 KB) 0.32 s at ``--jobs 1`` against 0.39 s at ``--jobs 2``, 25 hanchan 0.39 /
#: 0.44 s, 30 (470 KB) 0.44 / 0.46 s, 38 (600 KB) 0.59 / 0.48 s, 57 0.73 / 0.59 s: starting the
#: workers (their server's imports, each worker's own start) costs ~0.3 s of CPU that two cores
#: win back only above ~500 KB (bench_speed: "verify --jobs 2 vs 1", 4 and 19 hanchan). The output
#: is the same for any number of workers; a list on stdin keeps the workers.
SMALL_VERIFY_BYTES = 512 * 1024
#: the same where the workers are forked from the main process (mjcli.runner.forks_workers): each
#: starts in a few milliseconds with what the main process imported. Medians of 5 alternated runs
#: (a list on stdin, which keeps the workers): 6 hanchan (97 KB) 0.32 s at ``--jobs 1`` against
#: 0.39 s at ``--jobs 2``, 9 (144 KB) 0.37 / 0.41 s, 12 (193 KB) 0.57 / 0.46 s, 15 (237 KB)
#: 0.51 / 0.46 s, 19 (292 KB) 0.53 / 0.45 s.
SMALL_VERIFY_BYTES_FORKED = 192 * 1024


def _logs_under(records: list[str], limit: int) -> bool:
    """Do ``records``, files named one by one or folders, hold fewer than ``limit`` bytes in all?
    Every file of a folder counts, its logs or not (the sum only errs towards the workers), and the
    walk stops at ``limit``. A list on stdin (``-``) or a path that cannot be read answers no: the
    command reports it as it would anyway."""
    total = 0
    for record in records:
        if record == "-":
            return False
        try:
            st = os.stat(record)
            if stat.S_ISDIR(st.st_mode):
                # the same walk as mjcli.inputs.collect_inputs makes of a folder
                files = ((str(p), p.stat().st_size) for p in Path(record).rglob("*") if p.is_file())
            elif stat.S_ISREG(st.st_mode):
                files = iter([(record, st.st_size)])
            else:
                return False
            for path, size in files:
                total += _content_size(path, size)
                if total >= limit:
                    return False
        except OSError:
            return False
    return bool(records)


def _content_size(path: str, size: int) -> int:
    """The bytes a reader reads from the file: a gzip file's uncompressed size (its trailer's ISIZE,
    exact below 4 GiB), ``size`` otherwise: a gzip Tenhou log is 2-3 times smaller than its XML
    (21,737 -> 9,747 bytes for a shared hanchan), and as much more work per byte."""
    with open(path, "rb") as f:
        if size < 18 or f.read(2) != b"\x1f\x8b":
            return size
        f.seek(-4, os.SEEK_END)
        return int.from_bytes(f.read(4), "little")


def _several(records: list[str]) -> bool:
    """Can these arguments name more than one log (a folder, stdin's list, two paths)? Only then are
    workers worth starting before the logs are collected."""
    return len(records) > 1 or (len(records) == 1 and (records[0] == "-" or os.path.isdir(records[0])))


def _batch_backend(
    jobs: int | None, ray: str | None, resume: bool, out: str | None, bot: list[str] | None = None
) -> Any:
    """The back end of a batch command (:func:`mjcli.runner.backend_for`), its options checked."""
    from mjcli.runner import backend_for

    if resume and out is None:
        raise UsageError("--resume needs --out DIR: the folder of the run to finish")
    if ray is not None and bot:
        raise UsageError(
            "--bot does not run on Ray (its processes would outlive the tasks on the nodes): use --jobs"
        )
    return backend_for(jobs, ray)


def _parted(out: str | None, ray: str | None, resume: bool) -> bool:
    """Do the tasks write the tables themselves, as parts (see mjcli.ledger)? With --out, on Ray
    (the rows stay where they are made) or with --resume (the parts are what a rerun keeps)."""
    return out is not None and (ray is not None or resume)


def _parted_entries(tables: tuple[str, ...]) -> tuple[str, ...]:
    """The entries of a parted run in --out: the tables' folders, the manifests, then dataset.json."""
    from mjcli.outpaths import CONTENTS, MANIFESTS

    return (*tables, MANIFESTS, CONTENTS)


def _bot_outputs(registry: Any, faults_file: str) -> tuple[str, ...]:
    """What a run writes beside its tables for outside bots: the faults and each bot's stderr."""
    bots = [spec.name for spec in registry.specs if spec.source == "bot"]
    return (faults_file, *(f"{name}.stderr.log" for name in bots)) if bots else ()


def _print_notes(inputs: Any) -> None:
    for line in inputs.notes():
        print(line, file=sys.stderr)


def _replay_into(
    inputs: Any,
    options: Any,
    stage: Path,
    backend: Any,
    as_json: bool,
    by: str | None,
    gate: tuple[Path, Any] | None,
    max_changes: int,
    out: str | None,
    parted: Any,
) -> tuple[int, int, UsageError | None]:
    """Replay into ``stage`` (the tables into ``parted``'s folder when given) and print the summary:
    (exit code, rows, the baseline's error if it cannot gate this run: raised after the run's own
    files are in place)."""
    import time

    from mjcli.riichi.replay import run_replay

    with terminal_bar(len(inputs), unit="log", leave=False) as bar:
        progress = None
        if bar is not None:
            started = time.perf_counter()
            decided = 0

            def progress(rows: int) -> None:
                nonlocal decided
                decided += rows // max(1, len(options.policies))
                rate = decided / max(1e-9, time.perf_counter() - started)
                bar.set_postfix_str(f"{rate:,.0f} decisions/s", refresh=False)
                bar.update(1)

        # The summary added up file by file as the rows are written (a parted run's are read back).
        # Its module (Polars) is imported at the first file's rows, not before the workers start.
        parts: list[Any] = []

        def add_up(frame: Any) -> None:
            if not parts:
                from mjcli.riichi.summary import SummaryParts

                parts.append(SummaryParts(by))
            parts[0].add(frame)

        result = run_replay(
            inputs.items,
            options,
            stage,
            progress=progress,
            backend=backend,
            parted=parted,
            summary=add_up if parted is None else None,
        )
    import polars as pl  # after the run (see replay above)

    from mjcli.ledger import write_table
    from mjcli.riichi.summary import compare_baseline, format_changes, format_summary, scan, summarise

    if parted is not None:
        parted.write_contents(stage)
    if options.seats and result.games:
        # a seat no game has (seat 3 of three-player logs) replayed nothing and exited 0: refused
        # as a player who plays in none of the logs is
        have = set(pl.scan_parquet(result.games_path).select("seat").unique().collect()["seat"])
        missing = [str(s) for s in options.seats if s not in have]
        if missing:
            raise UsageError(
                f"--seat {','.join(missing)}: no game of these logs has that seat "
                f"(seats: {', '.join(map(str, sorted(have)))}; three-player games have 0-2)"
            )
    if options.players is not None or options.hands_shown:
        # a name that plays in none of the logs is a typo: refused, as the run's output is dropped
        seen = set(pl.scan_parquet(result.games_path).select("player").collect()["player"].str.to_lowercase())
        for option, names in (("--player", options.players), ("--hands-shown", options.hands_shown)):
            missing = [p for p in names or () if p.lower() not in seen]
            if missing:
                known = ", ".join(sorted(n for n in seen if n)) or "none"
                raise UsageError(
                    f"{option} {', '.join(missing)}: no such player in these logs (players: {known})"
                )
    lf = scan(result.decisions_path)  # type: ignore[arg-type]
    summary = summarise(lf, by, parts[0] if parts else None)
    summary.update(
        {
            "files": result.files,
            "skipped": result.errors,
            "incomplete": len(result.incomplete),
            "out": out,
            # games by the rule set they were played under (each log's own without --rules)
            "rules": result.rules_played(),
        }
    )
    if parted is not None:
        summary["resumed"] = result.resumed
    if result.faults_path is not None:
        summary["bot_faults"] = len(result.faults)
    code = 1 if result.errors or result.faults else 0
    changes = gate_error = None
    if gate is not None:
        baseline, old = gate
        try:
            changes, counts = compare_baseline(lf, old)
        except UsageError as exc:
            gate_error = exc
        else:
            write_table(changes, stage / "changes.parquet")
            summary["baseline"] = {
                "path": str(baseline),
                "changed": changes.height,
                **counts,
                "max": max_changes,
            }
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
            n = len(result.incomplete)
            verb = "ends" if n == 1 else "end"
            print(f"{plural(n, 'log')} {verb} before the game does (replayed up to the cut)")
        if result.faults_path is not None:
            where = str(Path(out) / result.faults_path.name) if out is not None else None
            for line in _fault_lines(result.faults, where):
                print(line)
        if changes is not None:
            b = summary["baseline"]
            print("")
            print(
                f"baseline {b['path']}: {b['changed']} changed of {b['compared']} compared decisions "
                f"({b['only_old']} only in the baseline, {b['only_new']} only in this run; max {max_changes})"
            )
            if changes.height:
                kept = str(Path(out) / "changes.parquet") if out is not None else None
                print(format_changes(changes, written=kept))
    return code, result.rows, gate_error


def summary(path: Path, by: str | None, as_json: bool) -> int:
    from mjcli.riichi.summary import format_summary, summarise

    replay = (path / "decisions.parquet").exists() or (path / "decisions").is_dir()
    if path.is_dir() and not replay and (path / "summary.json").is_file():  # a simulation's folder
        from mjcli.riichi.simulate.run import folder_summary

        if by is not None:
            raise UsageError("--by applies to a replay's decisions, not to a simulation")
        from mjcli.riichi.simulate.figures import render

        figures = folder_summary(path)
        if as_json:
            emit_json(figures)
        else:
            print(render(figures))
        return 0
    result = summarise(path, by)
    manifest = path / "replay.json" if path.is_dir() else path.parent / "replay.json"
    played = _manifest_field(manifest, "rules_played")
    if isinstance(played, dict) and played:  # the replay's games by rule set, said again
        result["rules"] = played
    if as_json:
        emit_json(result)
    else:
        print(format_summary(result))
    return 0


def _manifest_field(path: Path, name: str) -> Any:
    """One field of a replay's ``replay.json`` (None without the file, the field, or a readable
    object: the summary is then said without it)."""
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data.get(name) if isinstance(data, dict) else None


# ---------------------------------------------------------------- simulate


#: what a riichi simulation writes into --out
SIMULATE_OWNS = ("logs", "games.parquet", "rounds.parquet", "summary.json")


def simulate(
    players: str,
    games: int,
    seed: int,
    out: str | None,
    length: str | None,
    rules: str | None,
    duplicate: bool,
    jobs: int | None,
    as_json: bool,
    plugin: list[str] | None = None,
    bot: list[str] | None = None,
    bot_timeout: float | None = None,
    bot_framing: str | None = None,
    strict_bots: bool = False,
    ray: str | None = None,
    open_riichi: bool = False,
    hands_shown: str = ",".join(DEFAULT_HANDS_SHOWN),
    resume: bool = False,
) -> int:
    """Simulate, print the summary (or its JSON); 1 when a policy broke the rules and stopped the run,
    or when an outside bot made a fault (its move played by the fallback)."""
    import tempfile
    import time

    from mjcli.runner import start_workers_early

    if ray is None and games > 1:
        start_workers_early(jobs, SIMULATE_WORKERS)  # before the imports below (see replay)

    # Polars (mjcli.ledger, the figures) is imported once the workers play (see replay)
    from mjcli.outpaths import output_dir
    from mjcli.riichi.simulate.run import (
        FAULTS_FILE,
        LOG_DIR,
        TABLES,
        default_rules,
        game_specs,
        parse_hands_shown,
        parse_players,
        parted_options,
        simulate,
        table_rules,
    )
    from mjcli.riichi.simulate.seats import PolicyError

    backend = _batch_backend(jobs, ray, resume, out, bot)
    # (a bad name fails before any work)
    registry, (names, shown) = _resolved(
        lambda known: (parse_players(players, known), parse_hands_shown(hands_shown, known)),
        plugin,
        bot,
        bot_timeout,
        bot_framing,
    )
    rules = rules or default_rules(names)
    table = table_rules(rules, length, names, open_riichi)
    # on Ray or with --resume (and --out) the tables are a dataset of parts and the logs are written
    # in place by the tasks (see mjcli.ledger)
    parting = _parted(out, ray, resume)
    owns = (*SIMULATE_OWNS, *_bot_outputs(registry, FAULTS_FILE), *_parted_entries(TABLES))
    live = (LOG_DIR, *_parted_entries(TABLES)[:-1]) if parting else ()
    parted = None
    # (the registry as given: the one below names this run's folder for the bots' stderr)
    options = parted_options(names, registry, table, seed, duplicate, shown, strict_bots)
    with contextlib.ExitStack() as stack:
        # a bad --out fails before the work
        stage = stack.enter_context(output_dir(out, owns, live=live, mark="summary.json"))
        stack.enter_context(backend.session())
        if bot:  # the bots' stderr goes beside the outputs (or to a folder removed at the end)
            logs = stage or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mjcli-bots-")))
            registry = _registry(plugin, bot, bot_timeout, bot_framing, logs)
        if parting:
            from mjcli.ledger import PartedRun

            parted = PartedRun(Path(str(out)), TABLES, options, resume=resume, folders=(LOG_DIR,))
        total = len(game_specs(names, games, seed, table, duplicate))
        bar = stack.enter_context(terminal_bar(total, unit="game"))
        progress = None
        if bar is not None:
            started = time.perf_counter()
            rounds = 0

            def progress(n: int) -> None:
                nonlocal rounds
                rounds += n
                bar.update(1)
                bar.set_postfix_str(f"{rounds / max(time.perf_counter() - started, 1e-9):.0f} rounds/s")

        how = backend.describe()
        try:
            result = simulate(
                names,
                games,
                seed,
                out=stage,
                length=length,
                rules=rules,
                duplicate=duplicate,
                progress=progress,
                registry=registry,
                strict_bots=strict_bots,
                backend=backend,
                open_riichi=open_riichi,
                hands_shown=hands_shown,
                parted=parted,
            )
        except PolicyError as exc:
            # A policy bug, found by playing: report where, and stop. The logs of the games before
            # are kept (for the bug report); no table or summary.json is, so it never reads as a run.
            print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 1
    if parted is not None:
        result["resumed"] = parted.resumed  # (deals; not in summary.json, which stays the same)
    faults = result.get("fault_list", [])
    if as_json:
        emit_json(result)
    else:
        from mjcli.riichi.simulate.figures import render

        print(render(result))
        if "faults" in result:
            where = str(Path(out) / FAULTS_FILE) if out is not None else None
            for line in _fault_lines(faults, where):
                print(line)
    if parted is not None:
        kept = ""
        if resume:
            kept = f"; {parted.resumed} of {plural(result['deals'], 'deal')} kept from the earlier run"
        print(f"wrote {Path(str(out)) / 'games'}/ and {Path(str(out)) / 'rounds'}/{kept}", file=sys.stderr)
    rate = games_rate(result["games"], result["seconds"], parted.resumed if parted is not None else 0)
    played = f"{plural(result['games'], 'game')}, {plural(result['rounds'], 'round')}"
    print(f"{played} in {result['seconds']:.1f} s ({rate}, {how})", file=sys.stderr)
    return 1 if faults else 0


# ---------------------------------------------------------------- policies and bot check


def policies(plugin: list[str] | None, bot: list[str] | None, as_json: bool) -> int:
    """Every policy name known, with where it comes from."""
    from mjcli.plugins import print_registry

    return print_registry(_registry(plugin, bot), as_json)


def bot_check(
    bot: str,
    seed: int,
    length: str,
    bot_timeout: float | None,
    bot_framing: str | None,
    as_json: bool,
    rules: str | None = None,
    sanma: bool = False,
) -> int:
    """One short seeded game with the bot in every seat; 0 when clean, 1 on any problem."""
    import tempfile

    from mjcli.riichi.rules import get_rules
    from mjcli.riichi.simulate.bot_check import check_bot
    from mjcli.riichi.simulate.run import LENGTHS

    if length not in LENGTHS:
        raise UsageError(f"--length '{length}': use hanchan or tonpuu")
    preset = _three_player_rules(rules, sanma, "bot check")
    get_rules(preset)  # an unknown preset is refused before the bot is started
    with tempfile.TemporaryDirectory(prefix="mjcli-bot-check-") as tmp:
        registry = _registry(None, [bot], bot_timeout, bot_framing, Path(tmp))
        spec = registry.specs[-1]
        report = check_bot(spec, seed, length, preset)
    result = report.to_dict()
    if as_json:
        emit_json(result)
        return 0 if report.clean else 1
    t = result["time_per_decision"]
    shake = ", ".join(f"{x:.2f} s" for x in result["handshake_seconds"]) or "none"
    print(f"bot {report.bot}: {report.command}")
    seats = {3: "three", 4: "four"}[report.players]
    print(
        f"game      1 {length} (seed {seed}, rules {report.rules}), {report.rounds} rounds, "
        f"the bot in all {seats} seats"
    )
    print(
        f"handshake {len(result['handshake_seconds'])} of {report.players} processes answered "
        f"start_game ({shake})"
    )
    for problem in report.start_failures:
        print(f"  problem: {' '.join(problem.split())[:400]}")
    print(f"decisions {report.decisions}, faults {result['faults']} (illegal answers {result['illegal']})")
    if t["median_ms"] is not None:
        print(
            f"time per decision: median {t['median_ms']:.2f} ms, p90 {t['p90_ms']:.2f} ms, "
            f"max {t['max_ms']:.2f} ms"
        )
    if report.faults:
        for line in _fault_lines(report.faults, None, limit=10):
            print(line)
    if report.stopped:
        print(f"stopped: {report.stopped}")
    print("clean" if report.clean else "problems found")
    return 0 if report.clean else 1


# ---------------------------------------------------------------- the table entry

#: riichi's paragraph of each command's --help (the command's own first line comes from its skin)
HELP = {
    "score": """Riichi (--game riichi, the default): HAND is the concealed tiles in mpsz (0 = red five,
1z-7z = E S W N White Green Red). It may include the winning tile (14 tiles, less 3 per meld) or
leave it out (one fewer), and --win names it; without --win the last tile written is the winning
tile. Ron unless --tsumo. --seat is a seat number 0-3 (seat 0 is the dealer, East; 1 South...) or a
wind E S W N; --round a wind; both default to East. Yaku and fu come from the mahjong library; the
arithmetic is explained as seed 004 teaches it.

Three-player: --sanma (Tenhou's rules: the two others pay a tsumo, 200 per honba on a ron) and
--kita N, the Norths set aside (each a dora).

Example: mjcli score 234m456p678s11222z --win 2z --tsumo

Example: mjcli score 345m222s66p567s --melds chi:678p --win 5m --tsumo --seat S

--open-riichi (a house rule; Tenhou has none) makes the riichi an open riichi: 2 han, 3 with
--double-riichi; a ron on it is a yakuman unless --discarder-riichi (the discarder was in riichi
already and pays the normal value); a tsumo scores normally.

Example: mjcli score 234567m34599p678s --win 4m --tsumo --riichi --open-riichi --seat S --dora 1m

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
    "advise": """Riichi (--game riichi, the default): HAND is a hand or a game log. A hand is 14
tiles in mpsz (3 fewer per meld given with --melds); the last tile written is the one just drawn.
--policy takes names separated by commas, or all (akagi, mahjongjoy, greedy, efficiency,
mahjongjoy-literal). --seen lists tiles seen elsewhere (rivers, other melds); --riichi-by the seats
that declared riichi (the player's own seat means the hand is already in riichi, so it must be
tenpai). Seats, everywhere: a digit is a seat number 0-3, a letter a wind E S W N. For a typed hand
seat 0 is the dealer, East, so --seat 1 and --seat S are the same seat (default 0). A log (any
format verify reads) with --round E2 --honba 0 --turn 8 --seat 1 takes the decision of seat 1 (seat
0 = the first dealer; --seat S would be the seat that is South in E2) in round E2 with 0 honba that
comes right after move 8 of the round: --turn counts the round's moves (draws, discards, calls,
kans) from 0, exactly as the turn column of replay's decisions.parquet; in a file of several games
--game-index N names one (from 0, replay's game column). It shows what the player
actually did there beside the policies; --dora, --seen, --melds and --riichi-by come from the log
and are refused. --sanma: a three-player hand (seats E/S/W, no 2m-8m, no chi; a North may be set
aside: nukidora); a log says itself how many play.

--offered TILE --from SEAT asks about another player's discard instead ("would you call this?"):
the hand is then the 13 tiles held (3 fewer per meld), and the answers are ron, pon, chi, kan or
pass. --shown SEAT:TILES,... (a typed hand) gives other seats' hands shown at the table (seed 001's
NPC plays with its hand shown); for a log, --hands-shown NAMES or none overrides which players' hands
the log records as shown.

Example: mjcli advise 2388m34556p33577s --policy akagi,greedy

Example: mjcli advise 9m555m23p68p789s34z --offered 4p --from E --seat S --policy mahjongjoy""",
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
skipped (exit 1). --plugin NAME=file.py:Class and --bot NAME="program {seat}" (an mjai program, one
process per seat) add your own policies under NAME; a bot's answer that is not a legal action in
--bot-timeout seconds is a fault, listed in DIR/faults.jsonl (exit 1; --strict-bots stops at the first).

Seats that played with their hand shown (a log mjcli simulated records them) are shown in every
other seat's view; --hands-shown NAMES (players, as the log names them) replays the log as if those
seats had, --hands-shown none as if no seat had.

Example: mjcli replay ../shared/logs/tenhou-xml --out rep --policy akagi,efficiency --by player""",
    "summary": """Riichi (--game riichi, the default): DIR is a replay's output folder (or its
decisions.parquet); --by adds a table per player, policy, round or kind. A simulation's folder
gets its summary, worked out again from its games table.

Example: mjcli summary rep --by player""",
    "policies": """Riichi (--game riichi, the default): the built-in policies, the policies installed
packages declare (entry-point group mjcli.policies), and those given with --plugin NAME=TARGET
(TARGET: path/to/file.py:Attr or package.module:Attr) and --bot NAME=COMMAND.

Example: mjcli policies --plugin tsumogiri=examples/plugin.py:Tsumogiri""",
    "bot-check": """Riichi (--game riichi, the default): NAME=COMMAND, as --bot takes it ({seat} becomes
the seat 0-3). One East-only game (--length hanchan for a full one) of --seed with the bot in all
four seats: whether each process answered start_game, every fault (no answer in --bot-timeout
seconds, an exit, a line that is not JSON, an action that is not legal) with its position and
answer, and the time per decision. Exit 0 clean, 1 problems found.

Three-player: --sanma plays the game at a three-player table (tenhou-sanma; --rules majsoul-sanma
for Mahjong Soul's) with the bot in all three seats: three names in start_game, no chi, nukidora
offered and answered. Four-player is the default, as most bots (Mortal among them) play only that;
run the check once with --sanma for a bot that plays both. --rules names any preset.

Example: mjcli bot check mine='python examples/mjai_bot.py {seat}'""",
    "simulate": """Riichi (--game riichi, the default): full Tenhou-rules games through the rules engine,
policies (one to four) rotated over the seats. --duplicate plays each deal's walls once per seat
rotation. --out DIR gets logs/ (tenhou.net/6 JSON and mjai for every game), games.parquet,
rounds.parquet and summary.json; the summary gives per policy the placement, score, points, win /
deal-in / tsumo / riichi / call rates and sizes with 95 % intervals. --plugin NAME=file.py:Class and
--bot NAME="program {seat}" seat your own policies under NAME; a bot's fault (no legal answer in
--bot-timeout seconds) is played by a safe fallback, counted and listed (DIR/faults.jsonl; exit 1;
--strict-bots stops at the first).

Hands shown: every akagi seat plays with its hand (and each draw) shown to the table, as seed 001's
NPC does; the other seats' views hold it (PlayerView.shown_hands; an mjai bot gets that seat's tiles
unmasked) and the logs record it. --hands-shown names the policies whose seats do so (default
akagi); --hands-shown none turns it off. --open-riichi plays the open-riichi house rule (off by
default, as on Tenhou): the riichi of a seat with its hand shown is an open riichi, 2 han (3 as a
double riichi), and a player not in riichi who deals into it pays a yakuman.

Three policies make a three-player table (--rules tenhou-sanma); --rules tenhou seats them round four.

Example: mjcli simulate --players akagi,mahjongjoy,greedy,efficiency --games 100 --seed 1 --out sim

Example: mjcli simulate --games 20 --open-riichi --out sim-open

Example: mjcli simulate --players akagi,mahjongjoy,efficiency --games 10 --out sim3""",
}

#: --ray, taken by replay, verify and simulate; --resume (replay: its tables are parts)
_RAY_OPTION = {"ray": None}
_BATCH_OPTIONS = {**_RAY_OPTION, "resume": False}

#: --plugin, --bot and the bots' settings, taken by advise, replay and simulate
_BOT_OPTIONS = {"plugin": None, "bot": None, "bot_timeout": None, "bot_framing": None}

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
                **dict.fromkeys(
                    (*_SCORE_FLAGS, "tenhou", "chiihou", "open_riichi", "discarder_riichi"), False
                ),
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
            options={
                "hands": None,
                "seen": "",
                "shanten_only": False,
                "sanma": False,
                "as_json": False,
                "fields": None,
            },
        ),
        "advise": Command(
            advise,
            help=HELP["advise"],
            options={
                "hand": None,
                "policies": "all",
                "dora": None,
                "seen": None,
                "round_": None,
                "seat": None,
                "melds": None,
                "riichi_by": None,
                "honba": None,
                "turn": None,
                "sanma": False,
                "as_json": False,
                **_BOT_OPTIONS,
                "offered": None,
                "from_": None,
                "shown": None,
                "hands_shown": None,
                "game_index": None,
            },
        ),
        "verify": Command(
            verify,
            help=HELP["verify"],
            options={
                "logs": None,
                "out": None,
                "as_json": False,
                "jobs": None,
                "rules": None,
                **_BATCH_OPTIONS,
            },
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
                "max_changes": None,  # (0 with --baseline; refused without it)
                "rules": None,
                **_BOT_OPTIONS,
                "strict_bots": False,
                **_BATCH_OPTIONS,
                "hands_shown": None,
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
                **_BOT_OPTIONS,
                "strict_bots": False,
                **_BATCH_OPTIONS,
                "open_riichi": False,
                "hands_shown": ",".join(DEFAULT_HANDS_SHOWN),
            },
        ),
        "policies": Command(
            policies, help=HELP["policies"], options={"plugin": None, "bot": None, "as_json": False}
        ),
        "bot-check": Command(
            bot_check,
            help=HELP["bot-check"],
            options={
                "bot": None,
                "seed": 0,
                "length": "tonpuu",
                "bot_timeout": None,
                "bot_framing": None,
                "as_json": False,
                "rules": None,
                "sanma": False,
            },
        ),
    },
)
