"""A logged game played again through the engine: every decision point, and every hand's result
beside the engine's.

:func:`walk` reads a game (:mod:`mjcli.hk.formats.hklog`) and yields, in order, a :class:`Decision`
before each recorded decision (the seat's view, its legal moves, what the log says it did) and a
:class:`HandEnd` after each hand (the engine's result and the differences from the log's). The
engine checks every step: the wall must be the whole set, every automatic event (draws,
replacements) must be the one the engine makes, every decision must be legal. A step it refuses
raises :class:`LogFormatError` naming the hand and the event.

The view in a :class:`Decision` is the engine's own state: use it before asking for the next item.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from mjcli.errors import LogFormatError, MjcliError
from mjcli.hk.engine import (
    CLAIM,
    ROB,
    GameProgress,
    HandResult,
    HandState,
    Move,
    SeatView,
    parse_move,
    placements,
)
from mjcli.hk.engine.table import WIND_LETTERS
from mjcli.hk.notation import full_set, tile_code, value_text
from mjcli.hk.rules import HKRules


@dataclass(slots=True)
class Decision:
    hand: int
    round: str
    turn: int  # index of the decision's event in the hand's events
    seat: int
    kind: str  # discard, kong, win (own turn); claim, win (another's discard); rob
    view: SeatView
    legal: list[Move]
    actual: Move
    state: HandState


@dataclass(slots=True)
class HandEnd:
    hand: int
    round: str
    result: HandResult
    recorded: dict[str, Any]
    mismatches: list[tuple[str, Any, Any]] = field(default_factory=list)  # (what, log, engine)


@dataclass(slots=True)
class GameEnd:
    scores: list[int]
    placements: list[int]
    mismatches: list[tuple[str, Any, Any]] = field(default_factory=list)


def decision_kind(state: HandState, legal: list[Move]) -> str:
    kinds = {m.kind for m in legal}
    if state.phase == ROB:
        return "rob"
    if "win" in kinds:
        return "win"
    if state.phase == CLAIM:
        return "claim"
    return "kong" if kinds & {"ckong", "akong"} else "discard"


#: the JSON type of every field of the log's rules (HKRules.from_dict takes what it is given)
#: the most faan a log's rules may give a cap or an item: past every table's (13, or 10 or 8 in some
#: clubs), far short of a number whose 2^faan points would take long to compute
MAX_LOG_FAAN = 64

_RULE_TYPES: dict[str, type] = {
    "name": str,
    "min_faan": int,
    "bonus_counts": bool,
    "cap": int,
    "payment": str,
    "jokers": int,
    "length": str,
    "max_hands": int,
    "faan": dict,
}


#: the JSON type names of the messages
_NAMES = {str: "text", int: "a whole number", bool: "true or false", dict: "an object", list: "a list"}


def _is(value: Any, kind: type) -> bool:
    """``value`` is a JSON value of ``kind`` (true and false are not numbers here)."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def rules_of(game: dict[str, Any]) -> HKRules:
    data = game["rules"]
    if not isinstance(data, dict):
        raise LogFormatError(f'the log\'s "rules" is {value_text(data)}, not an object')
    # checked here, where the log is read: a string where a number belongs would otherwise fail
    # deep in the engine, as a TypeError or an AttributeError that stops a whole batch
    for key, kind in _RULE_TYPES.items():
        if key in data and not _is(data[key], kind):
            raise LogFormatError(f'the log\'s rules: "{key}" is {value_text(data[key])}, not {_NAMES[kind]}')
    for item, faan in data.get("faan", {}).items():
        if not _is(faan, int):
            raise LogFormatError(
                f'the log\'s rules: the faan of "{item}" is {value_text(faan)}, not a number'
            )
    # the numbers only a log sets (cap, max_hands) and min_faan, said in the log's own keys: the rule
    # set's own check names the command line's --min-faan, which a log's reader never gave; a cap or
    # an item's faan far past any table (2^faan points) would make the arithmetic run without end
    defaults = HKRules()
    cap = data.get("cap", defaults.cap)
    if not 1 <= cap <= MAX_LOG_FAAN:
        raise LogFormatError(f'the log\'s rules: "cap" is {cap}, not 1 to {MAX_LOG_FAAN}')
    min_faan = data.get("min_faan", defaults.min_faan)
    if not 0 <= min_faan <= cap:
        raise LogFormatError(f'the log\'s rules: "min_faan" is {min_faan}, not 0 to the cap ({cap})')
    if data.get("max_hands", defaults.max_hands) < 1:
        raise LogFormatError(f'the log\'s rules: "max_hands" is {data["max_hands"]}, not a number of hands')
    for item, faan in data.get("faan", {}).items():
        if not 0 <= faan <= MAX_LOG_FAAN:
            raise LogFormatError(f'the log\'s rules: the faan of "{item}" is {faan}, not 0 to {MAX_LOG_FAAN}')
    try:
        return HKRules.from_dict(data)
    except (MjcliError, TypeError, ValueError) as exc:
        raise LogFormatError(f"the log's rules are not a rule set: {exc}") from None


def _check_hand(hand: Any) -> None:
    """The types of a hand's fields that the walk reads (their values are the engine's to judge)."""
    if not isinstance(hand, dict):
        raise LogFormatError(f"the hand is {value_text(hand)}, not an object")
    for key, kind in (("wall", list), ("events", list)):
        if not isinstance(hand.get(key), kind):
            raise LogFormatError(f'"{key}" is {value_text(hand.get(key))}, not {_NAMES[kind]}')
    for i, event in enumerate(hand["events"]):
        if not (isinstance(event, list) and len(event) == 2 and _is(event[0], int)):
            raise LogFormatError(f"event {i} is {value_text(event)}, not [seat, text]")
    if hand.get("result") is not None and not isinstance(hand["result"], dict):
        raise LogFormatError(f'"result" is {value_text(hand["result"])}, not an object')


def walk(game: dict[str, Any]) -> Iterator[Decision | HandEnd | GameEnd]:
    """Every decision point and hand end of a game log (see the module's docstring)."""
    rules = rules_of(game)
    progress = GameProgress(rules)
    for n, hand in enumerate(game["hands"]):
        if progress.finished:
            raise LogFormatError(f"hand {n}: the game was over after hand {n - 1}")
        try:
            _check_hand(hand)
            yield from _walk_hand(n, hand, rules, progress)
        except LogFormatError as exc:
            raise LogFormatError(f"hand {n} ({progress.label()}): {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LogFormatError(f"hand {n} ({progress.label()}): malformed hand ({exc!r})") from None
        except MjcliError as exc:
            raise LogFormatError(f"hand {n} ({progress.label()}): {exc}") from None
    final = game.get("final") or {}
    if not isinstance(final, dict):
        raise LogFormatError(f'"final" is {value_text(final)}, not an object')
    end = GameEnd(list(progress.scores), placements(progress.scores))
    if not progress.finished:
        end.mismatches.append(("game over", "the log ends", "the game goes on"))
    for what, mine in (("scores", end.scores), ("placements", end.placements)):
        if final.get(what) != mine:
            end.mismatches.append((f"final {what}", final.get(what), mine))
    yield end


def _walk_hand(
    n: int, hand: dict[str, Any], rules: HKRules, progress: GameProgress
) -> Iterator[Decision | HandEnd]:
    label = progress.label()
    for key, mine in (
        ("round", label),
        ("dealer", progress.dealer),
        ("prevailing", WIND_LETTERS[progress.prevailing]),
        ("repeat", progress.repeat),
    ):
        if hand.get(key) != mine:
            raise LogFormatError(f'"{key}" is {hand.get(key)!r}; after the hands before it is {mine!r}')
    wall = []
    for i, t in enumerate(hand["wall"]):
        try:
            wall.append(tile_code(t))
        except MjcliError as exc:  # the place: the wall's tile, not one of the hand's events
            raise LogFormatError(f"wall tile {i}: {exc}") from None
    if sorted(wall) != full_set(rules.jokers):
        raise LogFormatError(f"the wall is not the set of {len(full_set(rules.jokers))} tiles")
    state = HandState(rules, wall, progress.dealer, progress.prevailing)
    events = hand["events"]
    pos = _sync(state, events, 0)
    while state.result is None:
        if pos >= len(events):
            raise LogFormatError(f"the events stop at {pos} while the hand goes on ({state.phase})")
        seat, text = events[pos]
        pending = state.pending()
        if seat not in pending:
            raise LogFormatError(f"event {pos} {[seat, text]}: seat {seat} has nothing to decide now")
        try:
            move = parse_move(text)
        except LogFormatError as exc:
            raise LogFormatError(f"event {pos}: {exc}") from None
        legal = pending[seat]
        if move not in legal:
            raise LogFormatError(f"event {pos} {[seat, text]}: not a legal move here")
        if len(legal) > 1:
            kind = decision_kind(state, legal)
            yield Decision(n, label, pos, seat, kind, state.view(seat), legal, move, state)
        state.act(seat, move)
        pos = _sync(state, events, pos + 1)
    if pos != len(events):
        raise LogFormatError(f"{len(events) - pos} event(s) after the hand's end")
    result = state.result
    recorded = hand.get("result") or {}
    end = HandEnd(n, label, result, recorded)
    mine = result.to_dict()
    for key in ("kind", "how", "winner", "from", "tile", "faan", "items", "deltas"):
        if recorded.get(key) != mine[key]:
            end.mismatches.append((key, recorded.get(key), mine[key]))
    progress.after(result)
    if hand.get("scores") != progress.scores:
        end.mismatches.append(("scores", hand.get("scores"), list(progress.scores)))
    yield end


def _sync(state: HandState, events: list[Any], pos: int) -> int:
    """Check the engine's automatic events from ``pos`` against the log's; the next position."""
    made = state.events
    for i in range(pos, len(made)):
        if i >= len(events) or list(events[i]) != made[i]:
            got = events[i] if i < len(events) else "nothing"
            raise LogFormatError(f"event {i}: the log has {got}, the engine {made[i]}")
    return len(made)
