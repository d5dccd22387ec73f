"""Replay game logs decision by decision: what each policy would have done where the players chose.

:func:`decisions_of` walks one game through the rules engine and yields every decision point: a
seat with more than one legal action (after a draw or a call, on another player's discard, on an
added kan), with the view that player had and what the player did (:mod:`mjcli.riichi.policies.bridge`).
:func:`replay_game` puts each point to every policy and makes the rows of ``decisions.parquet``;
:func:`replay_paths` does it for many files in worker processes, in input order whatever ``jobs``
is, and :class:`ReplayWriter` streams the rows to Parquet in batches so that memory stays flat.

The key of a decision (stable from run to run; the baseline comparison joins on it) is
``(file, game_id, round, honba, turn, seat, kind)`` with ``policy`` added for a row: ``file`` is
the log's path relative to the folder given on the command line (its name when a file was given),
``turn`` the index (from 0) of the move in the round (draws, discards, calls and kans) right after
which the decision comes, so that no two decisions of one seat in a round share it.

An outside bot (``--bot``, :class:`~mjcli.riichi.bots.MjaiBot`) follows each game from the seats
asked about, one process per seat reused game after game: at each decision of a seat its answer is
the row's choice, and the log's own action is what it is told next. An answer that is not a legal
action is a fault: the row has no choice and names the fault (``fault``), and the run's faults are
listed with their positions (:attr:`FileResult.faults`). A bot's ``meta`` is kept (``meta``) and,
when it holds Mortal's q-values, so are the bot's values of the player's move and of its own choice
(``q_actual``, ``q_choice``, ``q_gap``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import itertools
import multiprocessing.util
import operator
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjcli.errors import PLUGIN_FAULTS, LogFormatError, MjcliError, UsageError
from mjcli.inputs import Input, manifest
from mjcli.melds import melds_to_text
from mjcli.plugins import BUILTIN, Registry, describe, identity
from mjcli.riichi.bots import BotStartError, MjaiBot
from mjcli.riichi.bots.protocol import action_index, meta_text, q_by_index
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.engine.settlement import ranking
from mjcli.riichi.engine.state import KAN, PLAY_EVENTS, REACT, TURN
from mjcli.riichi.engine.table import WIND_LETTERS, Game
from mjcli.riichi.policies import build_policy, builtin_registry
from mjcli.riichi.policies.base import PolicyError
from mjcli.riichi.policies.bridge import (
    PASS,
    Legal,
    ViewBuilder,
    action_of,
    action_text,
    actual_action,
    claimed,
    decision_kind,
    legal_listed,
    reacting_seats,
)
from mjcli.riichi.policies.efficiency import keep_view_best_discards, view_best_discards
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.view import Action, PlayerView, copies_left
from mjcli.riichi.rules import Rules, get_rules
from mjcli.runner import SHANTEN_TABLES, Backend, ordered_map, runs_here, shared
from mjcli.tiles import (
    KIND_OF,
    NUM_TILES,
    SUITS,
    in_hand_order,
    is_red,
    kind,
    number_of,
    suit_of,
    tile_name,
    to_mpsz,
)

if TYPE_CHECKING:
    import polars as pl

    from mjcli.ledger import PartedRun

# Polars (and mjcli.ledger, which imports it) are imported where a frame is made, not with this
# module: a worker returns a file's rows as plain columns (FileColumns) and the main process makes
# the frames, so the server that forks the workers never imports Polars (~0.25-0.3 s CPU of its
# preload, on the critical path of --jobs 2; bench_speed ``jobs_and_memory``, the replay row).

#: events that are moves at the table (the ``turn`` counter)
_MOVES = frozenset({ev.Draw, ev.Discard, ev.Chi, ev.Pon, ev.OpenKan, ev.ClosedKan, ev.AddedKan, ev.Nukidora})
#: events after which some seat may have a choice
_TRIGGERS = frozenset({ev.Draw, ev.Discard, ev.Chi, ev.Pon, ev.ClosedKan, ev.AddedKan, ev.Nukidora})
_DISCARDS = ("discard", "riichi")

_TILE_NAMES = tuple(tile_name(t) for t in range(NUM_TILES))
_DIGITS = "".join("0" if is_red(t) else str(number_of(kind(t))) for t in range(NUM_TILES))
_SUIT_LETTERS = "".join(SUITS[suit_of(kind(t))] for t in range(NUM_TILES))
#: per tile code, the ASCII of its digit ("0" for a red five) and of its suit letter, as
#: ``bytes.translate`` tables (codes 37-255 are no tiles: never met)
_DIGIT_TABLE = bytes.maketrans(bytes(range(NUM_TILES)), _DIGITS.encode())
_SUIT_TABLE = bytes.maketrans(bytes(range(NUM_TILES)), _SUIT_LETTERS.encode())
_SUIT_BYTES = tuple((letter.encode(), letter) for letter in SUITS)


def hand_text(tiles: tuple[int, ...]) -> str:
    """``mjcli.tiles.to_mpsz(tiles)``. Not memoised: 95% of the hands written are new (a hand
    changes at every turn: 4.5% hits on the shared Tenhou logs, 5.6% on distinct simulated games,
    with 8192 entries), and the memo held 2 MB. In hand order the suits come one after the other
    (m, p, s, z), so the text is the tiles' digits, translated in C, cut after each suit's count
    with its letter: four steps a hand instead of a Python step a tile (replay, 4 policies, one
    core)."""
    ordered = bytes(in_hand_order(tiles))
    digits = ordered.translate(_DIGIT_TABLE).decode()
    suits = ordered.translate(_SUIT_TABLE)
    out: list[str] = []
    start = 0
    for code, letter in _SUIT_BYTES:
        n = suits.count(code)
        if n:
            out.append(digits[start : start + n])
            out.append(letter)
            start += n
    return "".join(out)


KEY = ["file", "game_id", "round", "honba", "turn", "seat", "kind"]

#: the columns of ``decisions.parquet``, each with the name of its Polars type (:func:`decisions_schema`)
DECISION_TYPES: dict[str, str] = {
    "file": "String",
    "game_id": "String",
    "game": "Int32",
    "round": "String",
    "honba": "Int32",
    "turn": "Int32",
    "seat": "Int32",
    "player": "String",
    "kind": "String",
    "event": "Int32",
    "hand": "String",
    "drawn": "String",
    "offered": "String",
    "melds": "String",
    "options": "Int32",
    "actual": "String",
    "tsumogiri": "Boolean",
    "policy": "String",
    "choice": "String",
    "agree": "Boolean",
    "equally_good": "Boolean",
    "reason": "String",
    "shanten": "Int32",
    "shanten_after_actual": "Int32",
    "shanten_after_choice": "Int32",
    "ukeire_actual": "Int32",
    "ukeire_choice": "Int32",
    "fault": "String",
    "meta": "String",
    "q_actual": "Float64",
    "q_choice": "Float64",
    "q_gap": "Float64",
}
#: the columns only an outside bot fills (null for every other policy)
BOT_COLUMNS = ("fault", "meta", "q_actual", "q_choice", "q_gap")

#: the columns of ``games.parquet`` (one row per seat of each game), as :data:`DECISION_TYPES`
GAME_TYPES: dict[str, str] = {
    "file": "String",
    "game_id": "String",
    "game": "Int32",
    "format": "String",
    "seat": "Int32",
    "player": "String",
    "score": "Int64",
    "points": "Float64",
    "placement": "Int32",
    "rounds": "Int32",
    "decisions": "Int32",
    "complete": "Boolean",
}


def decisions_schema() -> dict[str, Any]:
    """Column types of ``decisions.parquet``."""
    import polars as pl

    return {name: getattr(pl, kind) for name, kind in DECISION_TYPES.items()}


def games_schema() -> dict[str, Any]:
    """Column types of ``games.parquet``."""
    import polars as pl

    return {name: getattr(pl, kind) for name, kind in GAME_TYPES.items()}


# ---------------------------------------------------------------- decision points of one game


@dataclass(frozen=True)
class LogDecision:
    """One decision point of a logged game and what the player did there.

    (No ``__slots__``: :func:`decisions_of` makes each one from a dict of its fields, as
    :meth:`PlayerView.from_fields <mjcli.riichi.policies.view.PlayerView.from_fields>` does, instead of
    the frozen dataclass's ``__init__`` setting its 11 fields one call at a time: ~5 us less a
    decision point; bench_speed: "walk a log to every decision", "replay, 4 policies".)
    """

    round: str  # "E1"
    honba: int
    turn: int  # index of the move in the round (draw, discard, call, kan) the decision follows
    seat: int
    kind: str  # see mjcli.riichi.policies.bridge.decision_kind
    event: int  # index of the event after which the decision is made
    view: PlayerView
    legal: Legal
    actual: Action
    tsumogiri: bool  # the actual discard was the drawn tile
    # Calls the seat had that would have lost to what the log shows took the tile (another seat's
    # ron, a pon over a chi, an abortive draw): the log writes the seat's answer as a pass whether it
    # passed or called, so a policy answering one of these agrees with that pass.
    lost_calls: frozenset[Action] = frozenset()


def decisions_of(
    events: Sequence[object],
    rules: Rules | None = None,
    seats: Iterable[int] | None = None,
    engine: Game | None = None,
) -> Iterator[LogDecision]:
    """Every decision point of a game's events (of ``seats`` only, if given), in order.

    A kan's dora indicator is in the view once it is turned: at once for a closed kan (those who
    may rob it see it), as its player discards for an open or added kan (after their decision).
    A decision after the log's last event (a cut log) is not yielded: what the player did is
    unknown. Raises
    :class:`~mjcli.riichi.engine.legality.IllegalEvent` where the engine rejects the log, including a
    player's action that is not among the engine's legal actions. ``engine`` (a fresh
    :class:`~mjcli.riichi.engine.table.Game`) is the one to use, for a caller who wants the final state.
    """
    wanted = frozenset(seats) if seats is not None else frozenset(range(4))
    engine = engine if engine is not None else Game(rules)
    n = len(events)
    builder: ViewBuilder | None = None
    pending = False
    moves = 0  # moves made in the round so far
    rec = None  # the record of the round in play
    for i, e in enumerate(events):
        t = type(e)
        if t in PLAY_EVENTS and rec is not None and rec.outcome is None:
            # An action inside the round in play, to its state at once: ``Game.apply``'s hot path
            # without its call (bench_speed: "walk a log to every decision")
            rec.state.apply(e, i)
        else:
            engine.apply(e, i)
        if t is ev.StartRound:
            rec = engine.current
            builder = ViewBuilder(rec.state) if rec is not None else None
            if builder is not None:
                rnd = builder.rnd
                start = rnd.start
                label = f"{WIND_LETTERS[start.round_wind % 4]}{start.kyoku}"  # (once a round, not a point)
                others = _OTHERS[rnd.n]
            moves = 0
            pending = False
            continue
        if t in _MOVES:
            moves += 1
        if t in _TRIGGERS:
            pending = True
        if not pending or builder is None:
            continue
        # (the round's state read once a round, its phase once a point and first: on a turn the
        # next event is not looked at; bench_speed "walk a log to every decision")
        phase = rnd.phase
        if phase != TURN and i + 1 < n and type(events[i + 1]) is ev.NewDora:
            # A closed kan's indicator is turned at once: those who may rob the kan see it. An
            # open kan's comes as its player discards: that player decides without it.
            continue
        pending = False
        if phase == TURN:
            candidates: Sequence[int] = (rnd.current,)
        elif phase == REACT:
            # only the seats that may do more than pass: most discards leave every seat a lone pass
            candidates = reacting_seats(rnd, others[rnd.current])
        elif phase == KAN and rnd.kan_kind in ("kakan", "ankan", "kita"):
            candidates = others[rnd.kan_actor]
        else:
            candidates = ()
        reacting = phase != TURN
        was_claimed: bool | None = None
        for seat in candidates:
            if seat not in wanted:
                continue
            legal = legal_listed(rnd, seat)  # (a reacting seat has passed may_react already)
            if len(legal.actions) < 2:
                continue  # no choice: a forced discard in riichi, a pass with nothing to call
            # What the player did, read at once in the two commonest cases, as ``actual_action``,
            # ``claimed`` and ``_lost_calls`` read them: a turn followed by a discard, and a
            # discard followed by the next draw (nobody took it, a pass lost no call). Most points
            # are one of the two (bench_speed: "walk a log to every decision").
            nxt = events[i + 1] if i + 1 < n else None
            if not reacting and type(nxt) is ev.Discard:
                actual, tsumogiri = action_of((nxt,)), nxt.tsumogiri  # type: ignore[union-attr]
            elif reacting and type(nxt) is ev.Draw:
                actual, tsumogiri, was_claimed = PASS, False, False
            else:
                got = actual_action(events, i, seat, legal, reacting)
                if got is None:
                    continue
                actual, tsumogiri = got
            if actual not in legal.events:  # (Legal.__contains__ without its call)
                j = min(i + 1, n - 1)
                raise IllegalEvent(
                    j, events[j], f"seat {seat}'s action {action_text(actual)} is not legal for the engine"
                )
            if reacting and was_claimed is None:
                was_claimed = claimed(events, i)
            if reacting and type(nxt) is not ev.Draw and actual.kind == "pass":
                lost = _lost_calls(events, i, seat, legal)
            else:
                lost = _NO_CALLS
            # The kind, read from the engine's order of the actions (``decision_kind`` from their
            # set): a ron, when there is one, comes first; on a turn the discards come after the
            # tsumo, kans, nukidora and nine terminals and before the riichi moves, so a turn whose
            # first action is a discard offers discards and maybe riichi alone (bench_speed: "walk
            # a log to every decision")
            first = legal.actions[0].kind
            if reacting:
                kind_ = "win" if first == "ron" else "call" if was_claimed else "pass"
            elif first == "discard":
                kind_ = "riichi" if legal.actions[-1].kind == "riichi" else "discard"
            else:
                kind_ = decision_kind(legal, reacting, bool(was_claimed))
            point = _new_object(LogDecision)
            _set_attribute(
                point,
                "__dict__",
                {
                    "round": label,
                    "honba": start.honba,
                    "turn": moves - 1,
                    "seat": seat,
                    "kind": kind_,
                    "event": i,
                    "view": builder.view(seat),
                    "legal": legal,
                    "actual": actual,
                    "tsumogiri": tsumogiri,
                    "lost_calls": lost,
                },
            )
            yield point


_CALLS = frozenset({"chi", "pon", "open_kan"})
_NO_CALLS: frozenset[Action] = frozenset()
#: [players][seat]: the other seats in seat order (those who may answer a discard or a kan)
_OTHERS = {n: tuple(tuple(s for s in range(n) if s != seat) for seat in range(n)) for n in (3, 4)}
_new_object = object.__new__
_set_attribute = object.__setattr__  # (a frozen dataclass refuses its own __setattr__)


def _lost_calls(events: Sequence[object], i: int, seat: int, legal: Legal) -> frozenset[Action]:
    """The calls of ``seat`` on the tile offered after event ``i`` that what came next outranks: a
    ron by others takes the tile from every call, a pon or kan from a chi, and an abortive draw (four
    riichi, kans or winds) ends the round before any call (what the table does, and ``simulate``)."""
    j = i + 1
    while j < len(events) and isinstance(events[j], ev.RiichiAccepted | ev.NewDora):
        j += 1
    if j >= len(events):
        return frozenset()
    e = events[j]
    if isinstance(e, ev.Win | ev.RoundDraw):
        beaten = _CALLS
    elif isinstance(e, ev.Pon | ev.OpenKan) and e.actor != seat:
        beaten = frozenset({"chi"})
    else:
        return frozenset()
    return frozenset(a for a in legal.actions if a.kind in beaten)


# ---------------------------------------------------------------- hand figures of an action


class Effects:
    """Shanten and ukeire (unseen improving copies) of the concealed hand an action leaves.

    * discard / riichi: the 3n+1 hand left; ukeire counted against the full hand (the discarded
      tile is not coming back), as ``mjcli.analysis.discard_table`` does;
    * pass (on another player's tile): the hand as it is;
    * chi / pon: the hand after the call and its best discard (``discard_table``'s first row);
    * kans: the hand left without the kan's tiles; nukidora: the hand without the North;
      tsumo / ron: shanten -1, no ukeire; nine terminals: none.

    Figures are memoised per action (the policies often agree), and the hands by ``math`` (the
    run's :class:`~mjcli.riichi.policies.hand_math.HandMath`, shared with the policies, which have
    often worked out the same hands at the same decision; a hand that comes back, as a seat's hand
    does between reactions, is not analysed again: only the count of unseen copies changes).
    Without ``math`` a new one is used.
    """

    __slots__ = ("view", "counts", "seen", "unseen", "before", "math", "_memo", "_best")

    def __init__(self, view: PlayerView, math: HandMath | None = None) -> None:
        self.view = view
        self._best: tuple[int | None, dict[int, int]] | None = None
        self.counts = view.concealed_counts()
        self.seen = view.visible_counts()
        self.unseen = view.unseen_counts()  # the view's, which the efficiency policy has often asked for
        self.math = math if math is not None else HandMath()
        if view.players != self.math.players:
            self.math.set_players(view.players)
        self.before = self.math.shanten(view.concealed_bytes)
        self._memo: dict[Action, tuple[int | None, int | None]] = {}

    def of(self, a: Action) -> tuple[int | None, int | None]:
        got = self._memo.get(a)
        if got is None:
            got = self._memo[a] = self._compute(a)
        return got

    def _compute(self, a: Action) -> tuple[int | None, int | None]:
        k = a.kind
        if k in ("tsumo", "ron"):
            return -1, None
        if k == "nine_terminals" or (a.tile is None and k in _DISCARDS):
            return None, None  # a riichi without its tile: a bot's reach where the player had none
        if k in _DISCARDS:
            best = self._best
            if best is None:
                best = self._best = self._best_discards()
            u = best[1].get(KIND_OF[a.tile])  # type: ignore[index]
            if u is not None:
                return best[0], u
        c = bytearray(self.counts)
        base: Sequence[int] | None
        if k in _DISCARDS:
            c[KIND_OF[a.tile]] -= 1  # type: ignore[index]
            base = None  # counted against the full hand: the view's unseen counts
        else:
            if k == "closed_kan":
                c[kind(a.consumed[0])] -= 4
            elif k in ("added_kan", "nukidora", "chi", "pon", "open_kan"):
                for t in a.consumed if k not in ("added_kan", "nukidora") else (a.tile,):  # type: ignore[union-attr]
                    c[kind(t)] -= 1
            base = c
        if sum(c) % 3 == 2:  # after chi / pon: the best discard that follows (discard_table's first)
            least, improving = self.math.least_discards(bytes(c))
            get = list(copies_left(c, self.seen)).__getitem__  # max(0, 4 - n - seen), in C
            return least, max([sum(map(get, kinds)) for kinds in improving.values()])
        current, kinds = self.math.improving_of(bytes(c))
        if base is None or k == "pass":
            # (a C-level map, not a list comprehension's frame: replay, 4 policies, one core; a
            # pass leaves the hand as it is, whose copies left are the view's unseen counts)
            return current, sum(map(self.unseen.__getitem__, kinds))
        return current, sum(map(list(copies_left(base, self.seen)).__getitem__, kinds))

    def _best_discards(self) -> tuple[int | None, dict[int, int]]:
        """The least shanten a discard leaves, and the ukeire of each discard that does, by kind
        (None and none for a hand that is not 3n+2): the efficiency policy's
        figures of the view (:func:`~mjcli.riichi.policies.efficiency.view_best_discards`, kept in
        the view's memo), the same numbers as :meth:`_compute` works out (the hand left, ukeire
        over the view's unseen counts), read there instead of worked out again (replay, 4
        policies, one core)."""
        if sum(self.counts) % 3 != 2:
            return None, {}
        return view_best_discards(self.math, self.view)


def prepare_hands(math: HandMath, points: Sequence[LogDecision]) -> None:
    """Hand ``math`` (:meth:`HandMath.prepare`) the hands the policies and :class:`Effects` will ask
    about at ``points``: each turn's 3n+2 hand, the hand each chi or pon on offer leaves, and the
    3n+1 hands of the reactions and of the player's actual discards."""
    turns: list[bytes] = []
    left: list[bytes] = []
    # each turn's hand with its unseen copies: the efficiency policy's figures of the view
    # (view_best_discards, which the rows read too) come from the batch
    seen: list[tuple[bytes, bytes]] = []
    views: list[PlayerView] = []
    kind_of = KIND_OF
    for d in points:
        # the view's counts as bytes (made once per view, for the policies and rows too), the
        # hands after a discard or call edited from a copy of those bytes (34 ints made bytes
        # again cost more: replay, 4 policies, one core)
        v = d.view
        hand = v.concealed_bytes
        if sum(hand) % 3 == 2:
            seen.append((hand, v.unseen_bytes))
            views.append(v)
            a = d.actual
            if a.kind in _DISCARDS and a.tile is not None:
                rest = bytearray(hand)
                rest[kind_of[a.tile]] -= 1
                left.append(bytes(rest))
            continue
        left.append(hand)
        for a in d.legal.actions:
            if a.kind == "chi" or a.kind == "pon":
                rest = bytearray(hand)
                for t in a.consumed:
                    rest[kind_of[t]] -= 1
                turns.append(bytes(rest))
    figures = math.prepare(turns, left, seen)
    for v, got in zip(views, figures or (), strict=False):
        if got is not None:
            keep_view_best_discards(v, got)


# ---------------------------------------------------------------- rows of one game


#: the columns of a decision point's own (the same on each of its rows, one per policy), in the
#: order :class:`Columns` keeps them; "player" is filled in per game (see replay_game)
POINT_COLUMNS = (
    "file",
    "game_id",
    "game",
    "round",
    "honba",
    "turn",
    "seat",
    "kind",
    "event",
    "hand",
    "drawn",
    "offered",
    "melds",
    "options",
    "actual",
    "tsumogiri",
    "shanten",
    "shanten_after_actual",
    "ukeire_actual",
)
#: the columns of one policy's answer (one value per row)
ANSWER_COLUMNS = tuple(c for c in DECISION_TYPES if c not in POINT_COLUMNS and c != "player")


@dataclass(slots=True)
class Columns:
    """Rows kept column by column: a decision point's own values once (a tuple per point, and its
    player's name), and the answers' values per row; :meth:`frame` repeats each point's values on
    its rows. Why: writing the point's 20 values once instead of once per policy, and turning the
    tuples into columns in one ``zip``, made the rows ~2x cheaper (bench_speed's replay row)."""

    data: dict[str, list[Any]] = field(default_factory=lambda: {c: [] for c in ANSWER_COLUMNS})
    points: list[tuple[Any, ...]] = field(default_factory=list)  # POINT_COLUMNS of each point
    players: list[str] = field(default_factory=list)  # the "player" column of each point
    repeats: list[int] = field(default_factory=list)  # the rows of each point

    def __len__(self) -> int:
        return len(self.data["policy"])

    def mark(self) -> tuple[int, int]:
        """Where the rows end now (for :meth:`truncate`)."""
        return len(self.data["policy"]), len(self.points)

    def truncate(self, mark: tuple[int, int]) -> None:
        """Drop the rows and points added after ``mark``."""
        rows, points = mark
        for col in self.data.values():
            del col[rows:]
        del self.points[points:]
        del self.players[points:]
        del self.repeats[points:]

    def frame(self) -> pl.DataFrame:
        import polars as pl

        schema = decisions_schema()
        rows = len(self)
        data = self.data
        for name in BOT_COLUMNS:  # only a bot's rows fill them: null elsewhere
            col = data[name]
            if len(col) < rows:
                col.extend([None] * (rows - len(col)))
        answers = pl.DataFrame(data, schema={c: schema[c] for c in ANSWER_COLUMNS})
        columns = list(zip(*self.points, strict=True)) if self.points else [[] for _ in POINT_COLUMNS]
        points = pl.DataFrame(
            {**dict(zip(POINT_COLUMNS, columns, strict=True)), "player": self.players},
            schema={c: schema[c] for c in (*POINT_COLUMNS, "player")},
        )
        if any(n != 1 for n in self.repeats):
            import numpy as np

            points = points[np.repeat(np.arange(len(self.repeats)), self.repeats)]
        return pl.concat([points, answers], how="horizontal").select(list(DECISION_TYPES))


def _policy_failure(name: str, d: LogDecision, file: str, problem: str) -> PolicyError:
    v = d.view
    offered = f", offered {tile_name(v.offered)} by seat {v.offered_by}" if v.offered is not None else ""
    drawn = f", drawn {tile_name(v.drawn)}" if v.drawn is not None else ""
    legal = ", ".join(action_text(a) for a in d.legal.actions)
    return PolicyError(
        f"policy '{name}' {problem} at {file} {d.round}-{d.honba} turn {d.turn} seat {d.seat}: hand "
        f"{to_mpsz(v.concealed)}{drawn}{offered}, melds [{melds_to_text(v.own_melds)}], dora "
        f"{to_mpsz(v.dora_indicators)}, legal [{legal}]"
    )


def ask(policy: Any, name: str, d: LogDecision, file: str) -> Action:
    """The policy's answer at ``d``; :class:`PolicyError` (with the view) if it raises or cheats."""
    try:
        a = policy.decide(d.view, d.legal.actions)
    except PLUGIN_FAULTS as exc:  # any exception of a policy is its bug: say where it happened
        raise _policy_failure(name, d, file, f"raised {type(exc).__name__}: {exc}") from exc
    if not isinstance(a, Action) or a not in d.legal.events:  # (Legal.__contains__ without its call)
        raise _policy_failure(name, d, file, f"answered {a!r}, not a legal action")
    return a


def ask_all(policies: Sequence[tuple[str, Any]], d: LogDecision, file: str) -> list[tuple[str, Action]]:
    """Each policy's name and answer at ``d``: :func:`ask` of each, its work inline (the point's
    view, actions and events read once, no call of ``ask`` a policy: replay, 4 policies, one core)."""
    view = d.view
    legal = d.legal
    actions, events = legal.actions, legal.events
    answers: list[tuple[str, Action]] = []
    for name, policy in policies:
        try:
            a = policy.decide(view, actions)
        except PLUGIN_FAULTS as exc:  # any exception of a policy is its bug: say where it happened
            raise _policy_failure(name, d, file, f"raised {type(exc).__name__}: {exc}") from exc
        if not isinstance(a, Action) or a not in events:
            raise _policy_failure(name, d, file, f"answered {a!r}, not a legal action")
        answers.append((name, a))
    return answers


@dataclass(frozen=True, slots=True)
class BotExtras:
    """What a bot's row adds: the fault (None if the answer was legal), its meta (JSON) and q-values."""

    fault: str | None
    meta: str | None
    q_actual: float | None
    q_choice: float | None

    @property
    def q_gap(self) -> float | None:
        if self.q_actual is None or self.q_choice is None:
            return None
        return self.q_choice - self.q_actual


def bot_extras(meta: Any, fault: str | None, actual: Action, choice: Action | None) -> BotExtras:
    """The bot columns of one answer: ``meta`` as JSON and, when it holds q-values, the bot's value
    of the player's action and of its own choice."""
    q = q_by_index(meta)
    q_actual = q_choice = None
    if q is not None:
        i = action_index(actual)
        q_actual = q.get(i) if i is not None else None
        j = action_index(choice) if choice is not None else None
        q_choice = q.get(j) if j is not None else None
    return BotExtras(fault, meta_text(meta), q_actual, q_choice)


def add_rows(
    cols: Columns,
    d: LogDecision,
    answers: Sequence[tuple[str, Action | None]],
    file: str,
    game_id: str,
    game: int,
    math: HandMath | None = None,
    extras: Sequence[BotExtras | None] | None = None,
) -> None:
    """One row per policy for decision ``d`` (``math``: see :class:`Effects`). ``extras`` holds,
    per answer, a bot's columns (None for a policy); an answer of None is a bot's fault."""
    n = len(answers)
    if not n:
        return
    v = d.view
    fx = Effects(v, math)
    actual = d.actual
    s_act, u_act = fx.of(actual)
    discard_actual = actual.kind in _DISCARDS
    actual_text = action_text(actual)
    data = cols.data
    lost = d.lost_calls
    # the columns of an answer, once per distinct action (the policies often agree): the reason
    # is each policy's own
    seen: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    values: list[tuple[Any, ...]] = []
    # (the reasons gathered in this loop, not by a list comprehension of their own, and the
    # options counted without Legal.__len__'s call: add_rows of 8 hanchan 441 -> 429 M
    # instructions, callgrind; bench_speed: "replay, 4 policies, one core")
    reasons: list[str] = []
    for _, choice in answers:
        if choice is None:  # a bot's fault: no choice
            values.append(_FAULT_VALUES)
            reasons.append("")
            continue
        reasons.append(choice.reason)
        key = tuple(choice)  # (kind, tile, consumed) copied in C, not read field by field
        got = seen.get(key)
        if got is None:
            # (both are Actions: their tuples compared in C, not through Action.__eq__, and the
            # actual action's figures and text not looked up again: replay, 4 policies, one core)
            if _tuple_eq(choice, actual):
                s_ch, u_ch, agree, text = s_act, u_act, True, actual_text
            else:
                s_ch, u_ch = fx.of(choice)
                agree = bool(lost) and choice in lost
                text = action_text(choice)
            equal = (
                (agree or (s_act == s_ch and u_act == u_ch))
                if discard_actual and choice.kind in _DISCARDS and choice.tile is not None
                else None
            )
            got = seen[key] = (text, agree, equal, s_ch, u_ch)
        values.append(got)
    texts, agrees, equals, s_chs, u_chs = zip(*values, strict=True)
    data["choice"].extend(texts)
    data["agree"].extend(agrees)
    data["equally_good"].extend(equals)
    data["reason"].extend(reasons)
    data["shanten_after_choice"].extend(s_chs)
    data["ukeire_choice"].extend(u_chs)
    data["policy"].extend(map(_NAME_OF, answers))  # (the names read in C: replay, 4 policies, one core)
    if extras is not None and any(extras):
        rows = len(data["policy"]) - n  # the bot columns are null up to here (see Columns.frame)
        for name in BOT_COLUMNS:
            col = data[name]
            if len(col) < rows:
                col.extend([None] * (rows - len(col)))
        for x in extras:
            data["fault"].append(x.fault if x else None)
            data["meta"].append(x.meta if x else None)
            data["q_actual"].append(x.q_actual if x else None)
            data["q_choice"].append(x.q_choice if x else None)
            data["q_gap"].append(x.q_gap if x else None)
    melds = v.own_melds
    drawn, offered = v.drawn, v.offered
    # the decision's own values (POINT_COLUMNS), repeated on each policy's row by Columns.frame
    cols.points.append(
        (
            file,
            game_id,
            game,
            d.round,
            d.honba,
            d.turn,
            d.seat,
            d.kind,
            d.event,
            hand_text(v.concealed),
            _TILE_NAMES[drawn] if drawn is not None else None,
            _TILE_NAMES[offered] if offered is not None else None,
            melds_to_text(melds) if melds else "",
            len(d.legal.actions),
            actual_text,
            d.tsumogiri if discard_actual else None,
            fx.before,
            s_act,
            u_act,
        )
    )
    cols.players.append("")  # filled in per game by replay_game
    cols.repeats.append(n)


_tuple_eq = tuple.__eq__
_NAME_OF = operator.itemgetter(0)
#: the answer columns of a bot's fault: no choice, no figures
_FAULT_VALUES = (None, False, None, None, None)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while one game is replayed, as it was after.

    A game makes a few hundred thousand short-lived objects (views, actions, rows) and almost no
    reference cycles: freed by their counts, they only make the collector run and walk the live
    objects again and again (about 6% of a replay). What cycles a game leaves are collected later.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _taken(points: list[LogDecision]) -> Iterator[LogDecision]:
    """The points of a game in order, each let go by the list as it is handed out (the list is
    emptied): a point's view, actions and the policies' memos of it are freed as soon as its rows
    are made, while they are still in the CPU cache, instead of all of them at the game's end
    (~32k blocks a hanchan freed cold). The same instructions, fewer cache misses: the frees' share
    of a replay's py-spy samples 5.4% -> 2.2% (64 hanchan, five policies; bench_speed: "replay, 4
    policies, one core")."""
    points.reverse()
    pop = points.pop
    while points:
        yield pop()


@dataclass(slots=True)
class GameRows:
    decisions: Columns
    games: list[dict[str, Any]]
    faults: list[dict[str, Any]] = field(default_factory=list)
    rules: str = ""  # the rule set the game was played under (rules.rules_label)


def _fault_row(fault: Any, d: LogDecision, file: str, game_id: str, game: int, answer: str | None) -> dict:
    """A bot's fault with its position: what the ``faults.jsonl`` file holds."""
    v = d.view
    return {
        "file": file,
        "game_id": game_id,
        "game": game,
        "round": d.round,
        "honba": d.honba,
        "turn": d.turn,
        "seat": d.seat,
        "kind": d.kind,
        "event": d.event,
        "hand": hand_text(v.concealed),
        "drawn": _TILE_NAMES[v.drawn] if v.drawn is not None else None,
        "offered": _TILE_NAMES[v.offered] if v.offered is not None else None,
        "legal": [action_text(a) for a in d.legal.actions],
        "actual": action_text(d.actual),
        **fault.to_dict(),
        "answer": answer,
    }


def _end_fault_row(fault: Any, file: str, game_id: str, game: int) -> dict:
    """A bot's fault at the game's end (``end_game``, or the ``end_kyoku`` sent with it): the
    columns of :func:`_fault_row`, those of a decision empty."""
    position = dict.fromkeys(
        ("round", "honba", "turn", "kind", "event", "hand", "drawn", "offered", "actual")
    )
    return {"file": file, "game_id": game_id, "game": game, **position, "seat": fault.seat, "legal": []} | {
        **fault.to_dict(),
        "kind": "end_game",
    }


def _bot_failure(row: dict[str, Any]) -> PolicyError:
    return PolicyError(
        f"bot '{row['bot']}' {row['fault']} at {row['file']} {row['round']}-{row['honba']} "
        f"turn {row['turn']} seat {row['seat']}: {row['detail']}; "
        + ("no answer; " if row["answer"] is None else f"answer {row['answer']!r}; ")
        + f"hand {row['hand']}, legal [{', '.join(row['legal'])}] (--strict-bots stops at the first fault)"
    )


def with_hands_shown(events: Sequence[object], players: Sequence[str] | None) -> Sequence[object]:
    """The game's events with the seats of ``players`` (names, as the log's ``StartGame`` has them,
    any case) playing with their hand shown: ``None`` keeps what the log records, ``()`` shows none."""
    if players is None or not events or not isinstance(events[0], ev.StartGame):
        return events
    start = events[0]
    wanted = {p.lower() for p in players}
    seats = tuple(s for s, name in enumerate(start.names) if name.lower() in wanted)
    if seats == start.rules.hands_shown:
        return events
    rules = dataclasses.replace(start.rules, hands_shown=seats)
    return [dataclasses.replace(start, rules=rules), *events[1:]]


def parse_hands_shown_names(text: str | None) -> tuple[str, ...] | None:
    """``--hands-shown`` of replay and advise: player names separated by commas, or ``none``
    (None: as the log records)."""
    if text is None:
        return None
    names = tuple(dict.fromkeys(n.strip().lower() for n in text.split(",") if n.strip()))
    if not names:
        raise UsageError(f"--hands-shown '{text}': give player names, or none")
    return () if names == ("none",) else names


def replay_game(
    game: Any,
    policies: Sequence[tuple[str, Any]],
    file: str,
    game_index: int = 0,
    rules: Rules | None = None,
    seats: Iterable[int] | None = None,
    cols: Columns | None = None,
    math: HandMath | None = None,
    strict_bots: bool = False,
    hands_shown: Sequence[str] | None = None,
) -> GameRows:
    """Rows of one :class:`~mjcli.riichi.formats.GameLog`: its decisions (every policy) and one row per seat.

    ``policies`` are (name, policy object) pairs, an outside bot being a
    :class:`~mjcli.riichi.bots.MjaiBot`; ``math`` is the HandMath the policies were built with, for
    the rows' figures to share (a new one if None). Raises :class:`IllegalEvent` (or another
    :class:`MjcliError`) where the engine rejects the log, :class:`PolicyError` on a policy bug
    (and on a bot's first fault with ``strict_bots``). ``hands_shown``: the players whose seats play
    with their hand shown (:func:`with_hands_shown`; None: as the log records).
    """
    events = with_hands_shown(game.events, hands_shown)
    cols = cols if cols is not None else Columns()
    start = len(cols.points)
    names = list(game.start.names) if game.start is not None else []
    seats_n = game.players
    players = [names[s] if s < len(names) else "" for s in range(seats_n)]
    per_seat = [0] * seats_n
    game_id = str(game.game_id or "")
    engine = Game(rules)
    math = math if math is not None else HandMath()
    math.set_players(seats_n)  # the policies built with it work out hands of this game's variant
    bots = [p for _, p in policies if isinstance(p, MjaiBot)]
    faults: list[dict[str, Any]] = []
    for bot in bots:
        bot.start_game(events, players)
    try:
        with _collector_paused():
            points: Iterable[LogDecision] = decisions_of(events, rules, seats, engine)
            if not bots:
                # Every decision point of the game first, then their hands worked out in one numpy
                # batch (HandMath.prepare) for the policies and the figures to find in the memos:
                # with the memos and the collector note below, 3.2 -> 4.1 hanchan per CPU second
                # (bench_speed's replay row, alternated with the code before, load 1.2). Bots are asked as
                # the game goes (a bot's fault comes before a later point the engine rejects, as
                # it did).
                points = list(points)
                # a game's hands are its own (another game's rarely come back): the memos start
                # empty, so that what a worker holds stays flat in the number of logs
                math.clear()
                prepare_hands(math, points)
                points = _taken(points)
            for d in points:
                if not bots:
                    add_rows(cols, d, ask_all(policies, d, file), file, game_id, game_index, math)
                else:
                    answers, extras = _answers_with_bots(policies, d, file, game_id, game_index, faults)
                    add_rows(cols, d, answers, file, game_id, game_index, math, extras)
                    if strict_bots and faults:
                        raise _bot_failure(faults[0])
                per_seat[d.seat] += 1
            # The game's views are gone before the collector is back on (each as its rows are
            # made: see _taken): it runs at once (the game made its allocations while it was off)
            # and would walk every view again, ~60 ms a hanchan (the profile of python -m
            # benchmarks replay).
            points = ()
            # So do the game's hands in the memos (the next game starts them empty anyway): that
            # first collection walked their ~8k young tuples and dicts, 4-8 ms a hanchan down to 1-3
            # (replay, 4 policies, one core).
            math.clear()
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM: the bots are killed, not told the game is over (end_game below then
        # finds none running): one in the middle of an answer or hanging would hold the stop up
        for bot in bots:
            bot.abort()
        raise
    finally:
        for bot in bots:
            for fault in bot.end_game():  # no decision here: a row without a position
                faults.append(_end_fault_row(fault, file, game_id, game_index))
    # the player's name is filled in afterwards: one list slice instead of a lookup per row
    seat = POINT_COLUMNS.index("seat")
    cols.players[start:] = [players[p[seat]] for p in cols.points[start:]]
    rows = _game_rows(game, engine, file, game_index, players, per_seat)
    return GameRows(cols, rows, faults, engine.rules_name())


def _answers_with_bots(
    policies: Sequence[tuple[str, Any]],
    d: LogDecision,
    file: str,
    game_id: str,
    game_index: int,
    faults: list[dict[str, Any]],
) -> tuple[list[tuple[str, Action | None]], list[BotExtras | None]]:
    answers: list[tuple[str, Action | None]] = []
    extras: list[BotExtras | None] = []
    for name, p in policies:
        if not isinstance(p, MjaiBot):
            answers.append((name, ask(p, name, d, file)))
            extras.append(None)
            continue
        got = p.answer(d.seat, d.event, d.legal.actions, recorded=d.actual)
        fault = None
        if got.fault is not None:
            fault = f"{got.fault.kind}: {got.fault.detail}"
            faults.append(_fault_row(got.fault, d, file, game_id, game_index, got.text))
        answers.append((name, got.action))
        extras.append(bot_extras(got.meta, fault, d.actual, got.action))
    return answers, extras


def _game_rows(
    game: Any, engine: Game, file: str, index: int, players: list[str], per_seat: list[int]
) -> list[dict[str, Any]]:
    """Final score and placement of each seat: the engine's result, or the scores where the log stops."""
    finished = [r for r in engine.rounds if r.outcome is not None]
    if engine.result is not None:
        scores, points = list(engine.result.scores), list(engine.result.points)
    else:
        scores = list(engine.scores)
        points = [None] * len(scores)
    order = ranking(scores)
    return [
        {
            "file": file,
            "game_id": str(game.game_id or ""),
            "game": index,
            "format": str(game.format or ""),
            "seat": s,
            "player": players[s],
            "score": scores[s],
            "points": points[s],
            "placement": order.index(s) + 1,
            "rounds": len(finished),
            "decisions": per_seat[s],
            "complete": bool(game.complete and engine.result is not None),
        }
        for s in range(len(scores))
    ]


# ---------------------------------------------------------------- files and batches


@dataclass(frozen=True, slots=True)
class ReplayOptions:
    policies: tuple[str, ...]
    seats: tuple[int, ...] | None = None  # None: every seat
    players: tuple[str, ...] | None = None  # only the seats these players sat at
    rules: str | None = None  # a preset forced on every log (None: each log's own site's preset)
    registry: Registry | None = None  # where the names come from (None: the built-ins)
    strict_bots: bool = False  # a bot's first fault stops the run
    hands_shown: tuple[str, ...] | None = None  # players whose hand is shown (None: as the log says)

    def specs(self) -> list[Any]:
        registry = self.registry if self.registry is not None else builtin_registry()
        return [registry.spec(name) for name in self.policies]


@dataclass(slots=True)
class FileResult:
    """One log file replayed: its rows, or the errors that made its games be skipped."""

    file: str
    path: str
    decisions: pl.DataFrame
    games: pl.DataFrame
    errors: list[str] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)  # games the log cuts short (replayed anyway)
    game_count: int = 0
    faults: list[dict[str, Any]] = field(default_factory=list)  # bots' faults, with their positions
    rules: list[str] = field(default_factory=list)  # the rule set of each game replayed


@dataclass(slots=True)
class FileColumns:
    """One log file replayed, its rows still plain columns: what a worker sends back, and the main
    process makes into a :class:`FileResult` (:meth:`result`). Why: a worker that makes no frame
    never imports Polars (see the note at the imports); the columns pickle as fast as the frames."""

    file: str
    path: str
    decisions: Columns
    games: list[dict[str, Any]]  # the rows of games.parquet
    errors: list[str] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)
    game_count: int = 0
    faults: list[dict[str, Any]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)

    def result(self) -> FileResult:
        return FileResult(
            self.file,
            self.path,
            self.decisions.frame(),
            _games_frame(self.games),
            self.errors,
            self.incomplete,
            self.game_count,
            self.faults,
            self.rules,
        )


def _seats_for(game: Any, options: ReplayOptions) -> tuple[int, ...] | None:
    if options.players is None:
        return options.seats
    names = list(game.start.names) if game.start is not None else []
    wanted = {p.lower() for p in options.players}
    seats = tuple(s for s, name in enumerate(names) if name.lower() in wanted)
    if options.seats is not None:
        seats = tuple(s for s in seats if s in options.seats)
    return seats


def replay_file(
    path: str | os.PathLike[str],
    label: str,
    options: ReplayOptions,
    policies: Sequence[tuple[str, Any]] | None = None,
    math: HandMath | None = None,
) -> FileResult:
    """Read and replay one file; a file or game the engine cannot take becomes an error, not an exception.

    A policy failure is not caught: it is a bug to stop at.
    """
    rules = get_rules(options.rules) if options.rules is not None else None
    own = policies is None
    if policies is None:
        # one HandMath for the file's policies and figures: they often meet the same hands
        math = HandMath()
        policies = [(spec.name, build_policy(spec, math)) for spec in options.specs()]
    elif math is None:
        math = HandMath()
    try:
        return _replay_games(path, label, options, policies, math, rules).result()
    finally:
        if own:
            close_policies(policies)


def close_policies(policies: Sequence[tuple[str, Any]]) -> None:
    """Stop the outside bots among ``policies`` (their processes exit or are killed)."""
    for _, p in policies:
        if isinstance(p, MjaiBot):
            p.close()


def _replay_games(
    path: str | os.PathLike[str],
    label: str,
    options: ReplayOptions,
    policies: Sequence[tuple[str, Any]],
    math: HandMath,
    rules: Rules | None,
) -> FileColumns:
    from mjcli.riichi.formats import read_log

    cols = Columns()
    game_rows: list[dict[str, Any]] = []
    errors: list[str] = []
    incomplete: list[str] = []
    faults: list[dict[str, Any]] = []
    applied: list[str] = []
    try:
        games = read_log(path)
    except MjcliError as exc:
        return FileColumns(label, str(path), Columns(), [], [str(exc)])
    for index, game in enumerate(games):
        mark = cols.mark()
        try:
            rows = replay_game(
                game,
                policies,
                label,
                index,
                rules,
                _seats_for(game, options),
                cols,
                math,
                options.strict_bots,
                options.hands_shown,
            )
        except (PolicyError, BotStartError):
            raise  # a policy's bug, or a bot that cannot start at all (a usage error): not the log's
        except (MjcliError, ArithmeticError, LookupError, TypeError, ValueError) as exc:
            # the game is skipped: drop its rows, say why and go on with the next
            cols.truncate(mark)
            if not isinstance(exc, MjcliError):
                exc = LogFormatError(f"engine failure ({type(exc).__name__}: {exc})")
            gid = f" [{game.game_id}]" if len(games) > 1 else ""
            errors.append(f"{label}{gid}: {exc}")
            continue
        game_rows.extend(rows.games)
        faults.extend(rows.faults)
        applied.append(rows.rules)
        if not game.complete:
            incomplete.append(f"{label}: {game.problem or 'the log ends before the game does'}")
    return FileColumns(
        label,
        str(path),
        cols,
        game_rows,
        errors,
        incomplete,
        game_count=len(games),
        faults=faults,
        rules=applied,
    )


def _games_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    import polars as pl

    return pl.DataFrame(rows, schema=games_schema())


_ReplayContext = tuple[ReplayOptions, list[tuple[str, Any]], HandMath]


def _replay_task(context: _ReplayContext, task: tuple[str, str]) -> FileColumns:
    options, policies, math = context
    rules = get_rules(options.rules) if options.rules is not None else None
    return _replay_games(task[0], task[1], options, policies, math, rules)


def _replay_setup(options: ReplayOptions) -> _ReplayContext:
    """What every file of a run shares, built once per worker from the options' specs: the options,
    the policies (a bot's processes live as long as the worker), and one HandMath for the policies
    and the figures (its memos are bounded)."""
    math = HandMath()
    policies = [(spec.name, build_policy(spec, math)) for spec in options.specs()]
    if any(isinstance(p, MjaiBot) for _, p in policies):
        # A worker ends by running multiprocessing's finalizers: its bots are stopped then.
        multiprocessing.util.Finalize(None, close_policies, args=(policies,), exitpriority=10)
    return options, policies, math


def replay_paths(
    inputs: Sequence[Input], options: ReplayOptions, jobs: int = 1, backend: Backend | None = None
) -> Iterator[FileResult]:
    """Replay files in the order given whatever ``jobs`` (or ``backend``) is."""
    _check_policies(options)
    tasks = [(str(path), label) for path, label in inputs]
    # With the built-in policies only, this process replays files itself while the workers start
    # (runner's ``main_helps``): it loads its own shanten tables meanwhile, but would otherwise sit
    # idle for the forkserver's imports (bench_speed: "replay --jobs 2 vs 1"). Not with a plugin
    # or a bot, whose set-up may start processes that only a worker's end would stop.
    helps = all(spec.source == BUILTIN for spec in options.specs())
    with _replay_setup_for(options, jobs, backend, len(tasks)) as setup:
        for columns in ordered_map(
            _replay_task,
            tasks,
            jobs=jobs,
            setup=setup,
            backend=backend,
            # (numpy with the batch analysis of every log's hands)
            preload=(SHANTEN_TABLES, "mjcli.analysis.discard_batch"),
            main_helps=helps,
            imports_meanwhile=("polars",),  # for ``columns.result()`` below
        ):
            result = columns.result()  # the frames are made here, in the main process
            del columns  # the rows as lists are not kept while the caller writes the frames
            yield result


def _check_policies(options: ReplayOptions) -> None:
    """An unknown name, or a policy that cannot be built, is a usage error before any work starts."""
    for spec in options.specs():
        if spec.source != "bot":
            close_policies([(spec.name, build_policy(spec))])


@contextlib.contextmanager
def _replay_setup_for(
    options: ReplayOptions, jobs: int, backend: Backend | None, tasks: int
) -> Iterator[Callable[[], _ReplayContext]]:
    """The runner's ``setup``: built here once when the tasks run in this process (the bots'
    processes are then stopped as soon as the run ends or stops), else in each worker."""
    if runs_here(backend, jobs, tasks):
        context = _replay_setup(options)
        try:
            yield shared(context)
        finally:
            close_policies(context[1])
        return
    yield functools.partial(_replay_setup, options)


#: the tables of a replay: files ``NAME.parquet``, or a parted run's folders
TABLES = ("decisions", "games")


def _replay_notes(result: FileResult) -> dict[str, Any]:
    """What the run's report needs of one file (kept in a parted run's manifests: JSON values)."""
    return {
        "file": result.file,
        "errors": result.errors,
        "incomplete": result.incomplete,
        "faults": result.faults,
        "rows": result.decisions.height,
        # one row per seat of each game: three or four
        "games": result.games["game"].n_unique() if result.games.height else 0,
        "rules": result.rules,
    }


def _replay_split(columns: FileColumns) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    result = columns.result()
    return {"decisions": result.decisions, "games": result.games}, _replay_notes(result)


def _replay_fingerprint(task: tuple[str, str]) -> tuple[str, str]:
    from mjcli.ledger import file_sha256

    return task[1], file_sha256(task[0])


def parted_options(options: ReplayOptions) -> dict[str, Any]:
    """What a replay's rows depend on besides the logs (a parted run's options): with plugins or
    bots, what each is (its files' SHA-256, :func:`mjcli.plugins.identity`)."""
    return {
        "command": "replay",
        "game": "riichi",
        # A plugin named by its target alone kept, on --resume, the parts its old code had answered
        # after the file changed: a bot author's rerun then gated 0 changes where 255 decisions had
        # changed. Built-ins are mjcli's code (the version is in the key).
        "policies": [
            {"name": spec.name, "source": spec.source, "target": describe(spec)}
            if spec.source == BUILTIN
            else identity(spec)
            for spec in options.specs()
        ],
        "rules": options.rules,
        "seats": list(options.seats) if options.seats is not None else None,
        "players": list(options.players) if options.players is not None else None,
        "strict_bots": options.strict_bots,
        # the seats that play with their hand shown change the views, so the rows
        "hands_shown": list(options.hands_shown) if options.hands_shown is not None else None,
    }


def run_replay(
    inputs: Sequence[Input],
    options: ReplayOptions,
    out: Path,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    parted: PartedRun | None = None,
    summary: Callable[[pl.DataFrame], None] | None = None,
) -> ReplayRun:
    """Replay every input into ``out`` (``decisions.parquet`` streamed in parts, ``games.parquet``,
    and with outside bots ``faults.jsonl``); returns what happened (files, games, rows, errors,
    faults). Nothing is written if the run stops. ``progress`` gets each file's number of rows,
    ``summary`` each file's decisions, in the table's order (not called for a parted run).

    With ``parted`` the tables are that run's dataset instead, written by the tasks themselves (see
    :mod:`mjcli.ledger`), and ``out`` gets the rest."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out '{out}' exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    run = ReplayRun()
    if parted is not None:
        _check_policies(options)
        tasks = [(str(path), label) for path, label in inputs]
        with _replay_setup_for(options, jobs, backend, len(tasks)) as setup:
            for notes in parted.run(
                _replay_task,
                _replay_split,
                _replay_fingerprint,
                tasks,
                label=lambda task: task[1],
                setup=setup,
                jobs=jobs,
                backend=backend,
            ):
                run.add_notes(notes)
                if progress is not None:
                    progress(notes["rows"])
        run.decisions_path = parted.part_paths("decisions")
        run.games_path = parted.part_paths("games")
        run.resumed = parted.resumed
    else:
        results = replay_paths(inputs, options, jobs, backend)
        with contextlib.closing(results):
            # The first file's result before the table is opened: Polars is then imported while the
            # workers replay, not before they start (see the note at the imports)
            first = next(results, None)
            import polars as pl

            from mjcli.ledger import StreamedTable

            games: list[pl.DataFrame] = []
            with StreamedTable(out / "decisions.parquet", Columns().frame()) as decisions:
                for result in itertools.chain([first] if first is not None else [], results):
                    if summary is not None:
                        summary(result.decisions)
                    decisions.add(result.decisions)
                    if result.games.height:
                        games.append(result.games)
                        if len(games) >= GAMES_JOINED_EVERY:
                            games = [pl.concat(games, how="vertical")]
                    run.add(result)
                    if progress is not None:
                        progress(result.decisions.height)
                run.decisions_path = decisions.close()
        from mjcli.ledger import write_table

        run.games_path = write_table(
            pl.concat(games, how="vertical") if games else _games_frame([]), out / "games.parquet"
        )
    if any(spec.source == "bot" for spec in options.specs()):
        run.faults_path = write_faults(run.faults, out / FAULTS_FILE)
    write_manifest(out, inputs, options, run.rules)
    return run


#: the games frames of a run are joined into one every this many logs: a frame of a few rows
#: costs ~17 KiB of its own (bench row "peak memory by hanchan replayed"), and thousands of them
#: would grow with the logs; the joined frame is the same rows, so the file is the same bytes
GAMES_JOINED_EVERY = 256

FAULTS_FILE = "faults.jsonl"


def write_faults(faults: Sequence[dict[str, Any]], path: Path) -> Path:
    """The bots' faults, one JSON object per line (written atomically; empty when there were none)."""
    import json

    from mjcli.atomic import write_text_atomic

    write_text_atomic(path, "".join(json.dumps(f, ensure_ascii=False) + "\n" for f in faults))
    return path


#: what a replay read, beside its tables: the game, the policies and the logs by label
MANIFEST = "replay.json"


def write_manifest(
    out: Path, inputs: Sequence[Input], options: ReplayOptions, rules: dict[str, list[str]] | None = None
) -> None:
    """``out/replay.json``: the game, the options and every log read (its label in the ``file``
    column, its absolute path and the rule set its games were played under), so that a row's log
    can be reopened (``mjcli report``). ``rules``: each file's games' rule sets by label; the top
    ``rules`` is the one they all share (None when they differ), ``rules_asked`` what ``--rules``
    forced (None: each log's own)."""
    import json
    from collections import Counter

    from mjcli.atomic import write_text_atomic
    from mjcli.plugins import reopening_options

    rules = rules or {}
    entries = []
    for entry in manifest(inputs):
        names = list(dict.fromkeys(rules.get(entry["label"], [])))
        entries.append({**entry, "rules": ", ".join(names) if names else None})
    shared = {e["rules"] for e in entries if e["rules"] is not None}
    data = {
        "game": "riichi",
        "policies": list(options.policies),
        "rules": shared.pop() if len(shared) == 1 else None,
        "rules_asked": options.rules,
        "seats": list(options.seats) if options.seats is not None else None,
        "players": list(options.players) if options.players is not None else None,
        "inputs": entries,
        # games by the rule set they were played under, for `mjcli summary DIR` to say again
        "rules_played": dict(sorted(Counter(n for names in rules.values() for n in names).items())),
    }
    if options.hands_shown is not None:
        data["hands_shown"] = list(options.hands_shown)
    reopen = reopening_options(options.specs())
    if reopen:  # what makes the plugins and bots known to the report's advise commands
        data["policy_options"] = reopen
    write_text_atomic(out / MANIFEST, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


@dataclass(slots=True)
class ReplayRun:
    files: int = 0
    games: int = 0
    rows: int = 0
    errors: list[str] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)
    # the tables: a file each, or a parted run's parts in input order
    decisions_path: Path | list[Path] | None = None
    games_path: Path | list[Path] | None = None
    faults: list[dict[str, Any]] = field(default_factory=list)
    faults_path: Path | None = None
    resumed: int = 0  # files an earlier run had replayed (parted runs with resume)
    rules: dict[str, list[str]] = field(default_factory=dict)  # each file's games' rule sets by label

    def rules_played(self) -> dict[str, int]:
        """Games by the rule set they were played under."""
        counts: dict[str, int] = {}
        for names in self.rules.values():
            for name in names:
                counts[name] = counts.get(name, 0) + 1
        return dict(sorted(counts.items()))

    def add(self, r: FileResult) -> None:
        self.add_notes(_replay_notes(r))

    def add_notes(self, notes: dict[str, Any]) -> None:
        self.files += 1
        self.games += notes["games"]
        self.rows += notes["rows"]
        self.errors.extend(notes["errors"])
        self.incomplete.extend(notes["incomplete"])
        self.faults.extend(notes["faults"])
        self.rules[notes["file"]] = list(notes.get("rules", []))  # an older run's notes have none
