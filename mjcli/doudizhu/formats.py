"""Game records as JSON lines (one game per line, as ``simulate`` writes them), and the walk through
one record's decision points with the engine's state at each of them.

A record holds the deal (``hands`` as dealt, ``kitty``), the bids of the final deal as
``[seat, level]`` (0 = pass), the ``landlord``, and every play as ``[seat, cards, kind, main, size]``
(``[seat, "", "pass", "", 0]`` for a pass), plus the result. ``walk`` rebuilds what the player to
act saw before each bid and each play, checking every recorded play with the rules engine.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mjcli.doudizhu.cards import (
    DECK_COUNTS,
    HAND_SIZE,
    KITTY_SIZE,
    NUM_RANKS,
    Counts,
    add,
    parse_hand,
    parse_ranks,
    sub,
)
from mjcli.doudizhu.engine import BidView, DoudizhuRules, PlayView, auction_problem, check_move, game_result
from mjcli.doudizhu.moves import KickerRule, Kind, Move, as_lead, classify
from mjcli.errors import LogFormatError, MjcliError
from mjcli.inputs import Inputs, collect_inputs, utf8_text


@dataclass(frozen=True, slots=True)
class RecordedDecision:
    turn: int
    seat: int
    kind: str  # bid, lead or follow
    view: BidView | PlayView
    actual: str  # the recorded choice: a bid level ("pass", "1".."3") or cards ("pass" for a pass)


def is_record_file(path: Path) -> bool:
    """Is a file met while walking a folder a game-record file (JSON lines)?"""
    return path.name.lower().endswith(".jsonl")


def collect_records(args: Sequence[str], stdin: Iterable[str] | None = None) -> Inputs:
    """The record files named on a command line: files, folders (their ``.jsonl`` files), ``-``."""
    return collect_inputs(args, is_record_file, stdin, what="log")


def read_records(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """The records of a JSON-lines file; a line that is not a JSON object, or a file without any
    record (empty or blank: riichi's and Hong Kong's readers report it too), raises LogFormatError."""
    p = Path(path)
    try:
        handle = p.open(encoding="utf-8-sig")  # a byte-order mark before the first record is read past
    except OSError as exc:
        raise LogFormatError(f"cannot read {str(p)!r}: {exc.strerror or exc}") from None
    with handle:
        n = 0
        found = False
        try:
            for n, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise LogFormatError(f"{p}:{n}: not JSON ({exc.msg})") from None
                except RecursionError:
                    raise LogFormatError(f"{p}:{n}: not a Dou Dizhu game record (nested too deep)") from None
                if not isinstance(record, dict) or "hands" not in record or "plays" not in record:
                    raise LogFormatError(f"{p}:{n}: not a Dou Dizhu game record (no hands or plays)")
                players = record.get("players")
                if isinstance(players, list):  # writable names (a lone surrogate as its escape)
                    record["players"] = [utf8_text(x) if isinstance(x, str) else x for x in players]
                found = True
                yield record
        except UnicodeDecodeError as exc:
            raise LogFormatError(
                f"{p}:{n + 1}: not a text file (byte {exc.object[exc.start]:#04x} is not UTF-8)"
            ) from None
        if not found:
            raise LogFormatError(f"{p}: the file is empty (no game record)")


def bid_text(level: int) -> str:
    return "pass" if level == 0 else str(level)


def move_text(move: Move | None) -> str:
    return "pass" if move is None else move.text()


def _move_of(play: list[Any], rule: KickerRule) -> Move | None:
    _, cards, kind, main, size = play
    if kind == "pass":
        if cards or main or size:
            raise LogFormatError(f"a pass with cards {cards!r}, main {main!r} and size {size}")
        return None
    counts = parse_hand(cards)
    main_rank = parse_ranks(main)[0] if main else -1
    for move in classify(counts, rule):
        if move.kind is Kind(kind) and move.main == main_rank and move.size == size:
            return move
    raise LogFormatError(f"{cards!r} is not a {kind} with main {main!r} and size {size}")


def walk(record: dict[str, Any]) -> Iterator[RecordedDecision]:
    """Every decision point of a record, in order, each with what the player saw."""
    game = record.get("game", "?")
    problem = _shape_problem(record)
    if problem is not None:
        raise LogFormatError(f"game {game}: malformed record ({problem})")
    try:
        yield from _walk(record)
    except LogFormatError:
        raise
    except MjcliError as exc:  # a bad card string inside the record
        raise LogFormatError(f"game {game}: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise LogFormatError(f"game {game}: malformed record ({exc!r})") from None


def _seat(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 2


def _shape_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with the types of a record's fields (a seat out of 0..2 would index another
    seat's hand without any error, so types and ranges are checked before the walk), or None."""
    hands = record.get("hands")
    if not (isinstance(hands, list) and len(hands) == 3 and all(isinstance(h, str) for h in hands)):
        return "hands: three card strings expected"
    if not isinstance(record.get("kitty"), str):
        return "kitty: a card string expected"
    # optional (replay shows "?" without it), but replay names each seat's player from it: a
    # number or a short list would fail there, and "abc" would pass as three players a, b and c
    players = record.get("players", ["?"] * 3)
    if not (isinstance(players, list) and len(players) == 3 and all(isinstance(p, str) for p in players)):
        return "players: three names expected"
    rules = record.get("rules", {})
    if not (isinstance(rules, dict) and isinstance(rules.get("kicker", "douzero"), str)):
        return "rules: an object with a kicker name expected"
    base = rules.get("base", 1)
    if type(base) is not int or base < 1:
        return "rules: base, a whole number from 1, expected"
    if not all(type(rules.get(flag, True)) is bool for flag in ("bidding", "springs")):
        return "rules: bidding and springs, true or false, expected"
    bids = record.get("bids")
    if not isinstance(bids, list) or not all(
        isinstance(b, list) and len(b) == 2 and _seat(b[0]) and type(b[1]) is int and 0 <= b[1] <= 3
        for b in bids
    ):
        return "bids: [seat, level] pairs expected"
    if not _seat(record.get("landlord")) or type(record.get("bid")) is not int:
        return "landlord and bid: a seat 0-2 and a number expected"
    redeals = record.get("redeals", 0)
    if type(redeals) is not int or redeals < 0:
        return "redeals: a whole number from 0 expected"
    plays = record.get("plays")
    if not isinstance(plays, list) or not all(
        isinstance(p, list)
        and len(p) == 5
        and _seat(p[0])
        and isinstance(p[1], str)
        and isinstance(p[2], str)
        and isinstance(p[3], str)
        and type(p[4]) is int
        for p in plays
    ):
        return "plays: [seat, cards, kind, main, size] entries expected"
    return None


def _rules_of(record: dict[str, Any]) -> DoudizhuRules:
    """The rule set a record was played under (its ``rules``; the engine's defaults where absent)."""
    given = record.get("rules", {})
    return DoudizhuRules(
        kicker=KickerRule(given.get("kicker", "douzero")),
        base=given.get("base", 1),
        bidding=given.get("bidding", True),
        springs=given.get("springs", True),
    )


def _deal_problem(hands: list[Counts], kitty: Counts) -> str | None:
    """Why three hands and a kitty are not a deal of one deck (17, 17, 17 and 3), or None."""
    sizes = [sum(h) for h in hands]
    if sizes != [HAND_SIZE] * 3 or sum(kitty) != KITTY_SIZE:
        return f"hands of {', '.join(map(str, sizes))} cards and a kitty of {sum(kitty)}, not 17 each and 3"
    if add(add(add(hands[0], hands[1]), hands[2]), kitty) != DECK_COUNTS:
        return "the hands and the kitty are not one deck"
    return None


def _result_problem(record: dict[str, Any], result: dict[str, Any]) -> str | None:
    """The first result field a record holds that differs from what its plays give, or None. A field
    a record leaves out is not checked (the walk needs only the deal, the bids and the plays)."""
    for key, value in result.items():
        if key in record and (type(record[key]) is not type(value) or record[key] != value):
            return f"{key} is {json.dumps(record[key])}, the plays give {json.dumps(value)}"
    return None


def _walk(record: dict[str, Any]) -> Iterator[RecordedDecision]:
    game = record.get("game", "?")
    rules = _rules_of(record)
    rule = rules.kicker
    hands: list[Counts] = [parse_hand(h) for h in record["hands"]]
    kitty = parse_hand(record["kitty"], allow_empty=True)
    landlord = record["landlord"]
    bid = record["bid"]
    # The deal and the auction are checked before the first decision: a replay's bid rows would
    # otherwise ask the policies about bids that could not be made (a "2" after a "3").
    problem = _deal_problem(hands, kitty) or auction_problem(
        record["bids"], landlord, bid, rules, record.get("first_bidder"), record.get("redeals", 1)
    )
    if problem is not None:
        raise LogFormatError(f"game {game}: {problem}")
    turn = 0
    bids: list[tuple[int, int]] = []
    for seat, level in record["bids"]:
        yield RecordedDecision(turn, seat, "bid", BidView(seat, hands[seat], tuple(bids)), bid_text(level))
        bids.append((seat, level))
        turn += 1
    cur = list(hands)
    cur[landlord] = add(cur[landlord], kitty)
    played: Counts = (0,) * NUM_RANKS
    history: list[tuple[int, Move | None]] = []
    lead: Move | None = None
    lead_seat: int | None = None
    seat = landlord
    plays_by_seat = [0, 0, 0]
    bombs = 0
    for i, play in enumerate(record["plays"]):
        if play[0] != seat:
            raise LogFormatError(f"game {game}: play {i} is by seat {play[0]}, expected seat {seat}")
        try:
            move = _move_of(play, rule)
        except LogFormatError as exc:
            raise LogFormatError(f"game {game}: play {i}: {exc}") from None
        problem = check_move(cur[seat], lead, move, rule)
        if problem is not None:
            raise LogFormatError(f"game {game}: play {i} is illegal: {problem}")
        view = PlayView(
            seat=seat,
            hand=cur[seat],
            landlord=landlord,
            bid=bid,
            kitty=kitty,
            cards_left=(sum(cur[0]), sum(cur[1]), sum(cur[2])),
            lead=lead,
            lead_seat=lead_seat,
            played=played,
            history=tuple(history),
            rule=rule,
        )
        yield RecordedDecision(turn, seat, "lead" if lead is None else "follow", view, move_text(move))
        turn += 1
        history.append((seat, move))
        if move is not None:
            cur[seat] = sub(cur[seat], move.cards)
            played = add(played, move.cards)
            lead, lead_seat = as_lead(move, rule), seat
            plays_by_seat[seat] += 1
            bombs += move.is_bomb
            if sum(cur[seat]) == 0:
                if i != len(record["plays"]) - 1:
                    raise LogFormatError(f"game {game}: plays go on after seat {seat} played out")
                result = game_result(landlord, bid, seat, plays_by_seat, bombs, rules)
                problem = _result_problem(record, result)
                if problem is not None:
                    raise LogFormatError(f"game {game}: {problem}")
                return
        seat = (seat + 1) % 3
        if lead_seat == seat:
            lead = None
    raise LogFormatError(f"game {game}: the record ends before anyone played out")
