"""Play one whole game at a table: the wall deals and draws, the policies decide, the engine rules.

Everything a rule decides is the engine's (:mod:`mjcli.riichi.engine`): the legal actions, what the table
does next (:func:`~mjcli.riichi.engine.actions.table_step`), every round's settlement and the next round's
start (:class:`~mjcli.riichi.engine.table.Game`). This module only supplies what the engine leaves to the
table: tiles from the wall (:mod:`mjcli.riichi.simulate.wall`), the players' answers
(:mod:`mjcli.riichi.simulate.seats`)
and the choice between simultaneous claims (:mod:`mjcli.riichi.simulate.claims`). Every event goes through
``Game.apply``, which checks it, so a game played here is a legal game by construction.

When a round ends, its ``Win`` / ``RoundDraw`` events are rewritten with what the engine settled
(deltas, han, fu, points, yaku, ura indicators, pao, hands shown; tenpai at a draw) and the game's
``EndGame`` with the final scores and points: the record is a complete log that ``mjcli verify``
can check against the engine again and Tenhou's viewer can show.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mjcli.errors import MjcliError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import Move, table_step
from mjcli.riichi.engine.settlement import MANGAN_BASE, ranking
from mjcli.riichi.engine.state import ENDED, KAN, REACT, TURN, Round, RoundOutcome
from mjcli.riichi.engine.table import Game, round_label
from mjcli.riichi.formats.yaku_names import TENHOU_ID
from mjcli.riichi.policies.bridge import ViewBuilder, reacting_seats
from mjcli.riichi.rules import Rules
from mjcli.riichi.simulate.claims import Resolution, resolve
from mjcli.riichi.simulate.seats import PolicySeat, Where
from mjcli.riichi.simulate.wall import Wall
from mjcli.tiles import NUM_TILES, in_hand_order

#: A game that has not ended after this many rounds is a bug (Tenhou's rules end one within ~40).
MAX_ROUNDS = 200

#: called after every event of a round with the game, the round and its wall (for invariant tests)
Observer = Callable[[Game, Round, Wall], None]
#: the wall of each round (round number in the game -> a fresh, undealt wall)
Walls = Callable[[int], Wall]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a run: which walls, and which policy sits where."""

    index: int  # the game's number in the run (file names, the `game` column)
    seed: int  # the game's own seed: its walls are a function of it alone
    deal: int  # games with the same deal share their walls (--duplicate)
    rotation: int  # how far the policy list is rotated round the table
    policies: tuple[str, ...]  # the policy in each seat, seat 0 = first dealer
    rules: Rules
    hands_shown: tuple[int, ...] = ()  # seats that play with their hand shown to the table


@dataclass(slots=True)
class SeatTally:
    """One seat's round-level counts over a game (the raw material of the per-policy rates)."""

    rounds: int = 0
    wins: int = 0
    tsumo: int = 0
    deal_ins: int = 0
    riichi: int = 0
    calls: int = 0  # rounds in which the seat called (chi, pon or open kan) at least once
    win_points: int = 0  # value of the hands won (before honba and sticks)
    deal_in_points: int = 0  # value of the hands dealt into
    faults: int = 0  # an outside bot's decisions played by the fallback (see simulate.seats.BotSeat)


@dataclass(slots=True)
class PlayedGame:
    spec: GameSpec
    events: list[Any]
    scores: tuple[int, ...]
    points: tuple[float, ...]
    placements: tuple[int, ...]  # 1..4 (three-player: 1..3) per seat
    tallies: list[SeatTally]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    faults: list[dict[str, Any]] = field(default_factory=list)  # outside bots' faults, with positions

    @property
    def game_id(self) -> str:
        return game_id(self.spec)


def game_id(spec: GameSpec) -> str:
    return f"sim-{spec.index:06d}"


def play_game(
    spec: GameSpec,
    seats: Sequence[PolicySeat],
    observer: Observer | None = None,
    walls: Walls | None = None,
) -> PlayedGame:
    """Play ``spec`` to its end with ``seats[s]`` deciding for seat ``s``.

    The walls are those of the game's seed unless ``walls`` gives them (tests set up a deal). A seat
    that follows the game's events (an outside bot: it has ``start_game``/``end_game``) is handed
    the event list first and returns its faults at the end.
    """
    rules = spec.rules
    n = rules.players
    game = Game(rules)
    events: list[Any] = []
    for seat in seats:
        prepare = getattr(seat, "set_players", None)  # a policy seat's hand figures follow the table
        if prepare is not None:
            prepare(n)
    table = _Table(game, events, spec, seats, observer, walls)
    followers = [s for s in dict.fromkeys(seats) if hasattr(s, "start_game")]
    for s in followers:
        s.start_game(events, spec.policies)  # type: ignore[attr-defined]
    gr = ev.GameRules(
        players=n,
        red_fives=rules.red_fives,
        open_tanyao=rules.open_tanyao,
        length=rules.length,
        open_riichi=rules.open_riichi,
        hands_shown=spec.hands_shown,
        # a split North share is said (verify and convert read the payments by it): no site's
        # preset plays it
        absent_share="split" if n == 3 and rules.absent_share == "split" else "",
        # the logs name a site other than Tenhou's (whose rules are what a log naming none means)
        site="" if rules.site == "tenhou" else rules.site,
    )
    tallies = [SeatTally() for _ in range(n)]
    rounds: list[dict[str, Any]] = []
    faults: list[dict[str, Any]] = []
    try:
        table.apply(ev.StartGame(names=tuple(spec.policies), rules=gr, game_id=game_id(spec)))
        round_index = 0
        while not game.over:
            if round_index >= MAX_ROUNDS:
                raise MjcliError(
                    f"game {spec.index} (seed {spec.seed}) has not ended after {MAX_ROUNDS} rounds"
                )
            rounds.append(table.play_round(round_index, tallies))
            round_index += 1
        table.apply(ev.EndGame())
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM: an outside bot is killed, not told the game is over (end_game below
        # then finds it stopped): one in the middle of an answer or hanging would hold the stop up
        for s in followers:
            abort = getattr(s, "abort", None)
            if abort is not None:
                abort()
        raise
    finally:
        for s in followers:
            # a fault at the game's end has no decision, and so no game and seed of its own
            faults.extend(
                f if "game" in f else {"game": spec.index, "seed": spec.seed, **f}
                for f in s.end_game()  # type: ignore[attr-defined]
            )
    faults.sort(key=lambda f: (f["event"], f["seat"]))
    for f in faults:
        tallies[f["seat"]].faults += 1
    res = game.result
    assert res is not None
    events[-1] = ev.EndGame(scores=res.scores, points=res.points)
    order = ranking(res.scores)
    placements = [0] * n
    for place, seat in enumerate(order, start=1):
        placements[seat] = place
    return PlayedGame(spec, events, res.scores, res.points, tuple(placements), tallies, rounds, faults)


class _Table:
    """The moves of one game's table: applies events to the engine and records them."""

    def __init__(
        self,
        game: Game,
        events: list[Any],
        spec: GameSpec,
        seats: Sequence[PolicySeat],
        observer: Observer | None,
        walls: Walls | None = None,
    ) -> None:
        self.game = game
        self.events = events
        self.spec = spec
        self.seats = seats
        self.observer = observer
        self.walls = walls
        self.wall: Wall | None = None
        self.rnd: Round | None = None
        self.views: ViewBuilder | None = None
        # the round in play's ``apply`` and its wall's ``draw`` (set by play_round)
        self._round_apply: Callable[[object, int], None] = game.apply
        self._draw_live: Callable[[], int] = int

    def apply(self, e: object) -> None:
        self.game.apply(e, len(self.events))
        self.events.append(e)
        if self.observer is not None and self.rnd is not None and self.wall is not None:
            self.observer(self.game, self.rnd, self.wall)

    def _play(self, e: object) -> None:
        """:meth:`apply` for a draw the table made or a discard the engine listed (not a win or a
        draw of the round, which the game records): the round's ``Round.apply_made`` checks it, as
        ``Game.apply`` would after finding the round in play, but for the seats the engine set
        (nearly every event of a game: one call and the seat checks fewer each; bench_speed
        "self-play, first-legal policy")."""
        events = self.events
        self._round_apply(e, len(events))
        events.append(e)
        if self.observer is not None:
            self.observer(self.game, self.rnd, self.wall)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ one round

    def play_round(self, round_index: int, tallies: list[SeatTally]) -> dict[str, Any]:
        exp = self.game.expected
        assert exp is not None
        rules = self.spec.rules
        if self.walls is not None:
            wall = self.walls(round_index)
        else:
            wall = Wall.shuffled(self.spec.seed, round_index, rules.red_fives, rules.variant)
        hands = wall.dealt_tiles(exp.dealer)
        start = ev.StartRound(
            round_wind=exp.round_wind,
            kyoku=exp.kyoku,
            honba=exp.honba,
            sticks=exp.sticks,
            dealer=exp.dealer,
            dora_marker=wall.dora_markers[0],
            scores=tuple(exp.scores),
            hands=tuple(tuple(in_hand_order(h)) for h in hands),
        )
        self.rnd = None
        self.wall = wall
        first = len(self.events)
        self.apply(start)
        rec = self.game.current
        assert rec is not None
        rnd = rec.state
        self.rnd = rnd
        self._round_apply = rnd.apply_made
        self._draw_live = wall.draw
        self.views = ViewBuilder(rnd)
        where = Where(self.spec.index, self.spec.seed, round_label(exp.round_wind, exp.kyoku, exp.honba))
        while rnd.phase != ENDED:
            phase = rnd.phase
            if phase == TURN:
                self._turn(rnd, where)
            elif phase == REACT:
                self._react(rnd, where)
            elif phase == KAN:
                self._kan(rnd, where)
            else:  # pragma: no cover - the engine has no other phase
                raise MjcliError(f"unknown phase {rnd.phase!r}")
        end_at = len(self.events)
        self.apply(ev.EndRound())
        out = rec.outcome
        assert out is not None
        self._record_outcome(rnd, out, first, end_at)
        return self._round_row(rnd, out, round_index, first, tallies)

    def _turn(self, rnd: Round, where: Where) -> None:
        seat = rnd.current
        action = self.seats[seat].choose(rnd, seat, where, self.views)
        if action is None:  # pragma: no cover - a player to move always has an action
            raise MjcliError(f"{where.round}: seat {seat} has no legal action")
        for e in action:
            if rnd.pending_dora and isinstance(e, ev.Discard):  # (no call when none is owed: most turns)
                self._reveal_owed_dora(rnd)  # an open or added kan's indicator turns as its player discards
            # (a discard shows no tiles and wins nothing: applied as it is, two calls fewer a turn;
            # bench_speed "self-play")
            if type(e) is ev.Discard:
                self._play(e)
            else:
                self.apply(self._with_ura(rnd, _canonical(e)))

    def _kan(self, rnd: Round, where: Where) -> None:
        step = table_step(rnd)
        while step.kind == "dora":  # a closed kan's indicator (and any still owed) turns at once
            self.apply(ev.NewDora(self._wall.reveal_dora()))
            step = table_step(rnd)
        # Robbing the kan (chankan; only thirteen orphans may rob a closed kan).
        answers = self._answers(rnd, rnd.kan_actor, where)
        if answers and self._wins(rnd, resolve(rnd.kan_actor, answers, rnd.rules), answers):
            return
        step = table_step(rnd)
        if step.kind != "draw" or not step.rinshan:  # pragma: no cover - the engine's order
            raise MjcliError(f"{where.round}: expected the replacement draw after a kan, not {step.kind}")
        self.apply(ev.Draw(step.seat, self._wall.draw_rinshan(), rinshan=True))

    def _react(self, rnd: Round, where: Where) -> None:
        """Answers to the discard on the table, then the table's own moves; one pass per discard."""
        call: Move | None = None
        if rnd.last_tile is not None:
            # Seats that surely have nothing but a pass (most seats, most discards) are not asked,
            # which would build their legal actions only to take the lone pass; the test of
            # ``may_react`` made for the three seats in one call (bench_speed: "self-play").
            current = rnd.current
            others = reacting_seats(rnd, _OTHERS[rnd.n][current])
            answers = self._answers(rnd, current, where, others) if others else None
            if answers:  # (nearly every discard passes: no claim to weigh)
                res = resolve(current, answers, rnd.rules)
                if self._wins(rnd, res, answers):
                    return
                call = res.call
        step = table_step(rnd)
        if call is None and step.kind == "draw":  # (nearly every discard: the next seat draws)
            self._play(_DRAWS[step.seat][self._draw_live()])
            return
        while step.kind == "event" and isinstance(step.event, ev.RiichiAccepted):
            self.apply(step.event)  # the stick is paid before anything else happens on the tile
            step = table_step(rnd)
        if step.kind == "event":
            self.apply(step.event)  # an abortive or exhaustive draw: it takes precedence over any call
            return
        if call is not None:
            for e in call:
                self.apply(_canonical(e))
            return
        if step.kind == "draw":
            self._play(_DRAWS[step.seat][self._wall.draw()])
            return
        raise MjcliError(f"{where.round}: unexpected table move {step.kind}")  # pragma: no cover

    def _wins(self, rnd: Round, res: Resolution, answers: dict[int, Move]) -> bool:
        """Apply the rons that won out (or the triple-ron abort); True if the round ended on them."""
        if res.triple_ron:
            self.apply(ev.RoundDraw(ev.TRIPLE_RON))
            return True
        for seat in res.wins:  # in settlement order: the seat nearest the discarder first
            self.apply(self._with_ura(rnd, answers[seat][0]))
        return bool(res.wins)

    def _answers(
        self, rnd: Round, target: int, where: Where, others: Sequence[int] | None = None
    ) -> dict[int, Move]:
        """The moves of the seats other than ``target`` that have one (all of them, or ``others``)."""
        answers: dict[int, Move] = {}
        for seat in _OTHERS[rnd.n][target] if others is None else others:
            a = self.seats[seat].choose(rnd, seat, where, self.views)
            if a:
                answers[seat] = a
        return answers

    @property
    def _wall(self) -> Wall:
        assert self.wall is not None
        return self.wall

    def _reveal_owed_dora(self, rnd: Round) -> None:
        while rnd.pending_dora:
            self.apply(ev.NewDora(self._wall.reveal_dora()))

    def _with_ura(self, rnd: Round, e: object) -> object:
        """A winner in riichi sees the ura indicators under every dora indicator turned."""
        if isinstance(e, ev.Win) and rnd.players[e.actor].riichi:
            return dataclasses.replace(e, ura_markers=tuple(self._wall.ura_markers()))
        return e

    # ------------------------------------------------------------------ the record

    def _record_outcome(self, rnd: Round, out: RoundOutcome, first: int, end_at: int) -> None:
        """Write the engine's settlement onto the round's outcome events (what a log records)."""
        by_actor = {w.actor: w for w in out.wins}
        # A win or a draw ends the round: they are the round's last events (a double ron's two wins
        # one after the other), found from the end instead of testing every event of the round
        # (bench_speed: "self-play, first-legal policy").
        last = end_at
        while last > first and type(self.events[last - 1]) in _OUTCOME_EVENTS:
            last -= 1
        for i in range(last, end_at):
            e = self.events[i]
            if isinstance(e, ev.Win):
                w = by_actor[e.actor]
                yaku = tuple(sorted(w.scored.yaku, key=lambda yh: TENHOU_ID.get(yh[0], 99)))
                self.events[i] = dataclasses.replace(
                    e,
                    deltas=tuple(w.deltas),
                    han=sum(h for _, h in yaku),
                    fu=w.scored.fu if w.scored.base < MANGAN_BASE else None,
                    points=w.value,
                    yaku=yaku,
                    pao=w.pao,
                    hand=w.hand,
                )
            elif isinstance(e, ev.RoundDraw):
                reason = out.kind
                self.events[i] = ev.RoundDraw(
                    reason=reason,
                    deltas=tuple(out.deltas),
                    tenpai=out.tenpai,
                    hands=_shown_hands(rnd, reason),
                )

    def _round_row(
        self, rnd: Round, out: RoundOutcome, round_index: int, first: int, tallies: list[SeatTally]
    ) -> dict[str, Any]:
        start = rnd.start
        n = rnd.n
        # a seat's calls (Chi, Pon and OpenKan events) are its melds but its closed kans: each call
        # makes one meld, an added kan only turns its pon into a kan (counted from the melds, not
        # by testing every event of the round; bench_speed: "self-play, first-legal policy")
        calls = [sum(m.kind != "ankan" for m in p.melds) for p in rnd.players]
        riichi = [p.riichi or p.riichi_declared for p in rnd.players]
        winners = [w.actor for w in out.wins]
        loser = out.wins[0].target if out.wins and out.wins[0].target != out.wins[0].actor else None
        for s in range(n):
            t = tallies[s]
            t.rounds += 1
            t.riichi += riichi[s]
            t.calls += calls[s] > 0
        for w in out.wins:
            t = tallies[w.actor]
            t.wins += 1
            t.win_points += w.value
            if w.actor == w.target:
                t.tsumo += 1
            else:
                tallies[w.target].deal_ins += 1
                tallies[w.target].deal_in_points += w.value
        return {
            "game": self.spec.index,
            "round_index": round_index,
            "round": round_label(start.round_wind, start.kyoku, start.honba),
            "dealer": start.dealer,
            "honba": start.honba,
            "sticks": start.sticks,
            "result": out.kind,
            "winners": winners,
            "loser": loser,
            "han": [w.scored.han for w in out.wins],
            "fu": [w.scored.fu for w in out.wins],
            "points": [w.value for w in out.wins],
            "yaku": [",".join(f"{y}:{h}" for y, h in w.scored.yaku) for w in out.wins],
            "riichi": riichi,
            "calls": calls,
            "draw": None if out.wins else out.kind,
            "tenpai": list(out.tenpai) if out.tenpai is not None else None,
            "deltas": list(out.deltas),
            "tiles_drawn": rnd.variant.live_wall - rnd.wall,
        }


#: the events that end a round (see ``_Table._record_outcome``)
_OUTCOME_EVENTS = (ev.Win, ev.RoundDraw)

#: [players][seat]: the other seats in turn order from the next one
_OTHERS = {n: tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n)) for n in (3, 4)}

#: every draw from the live wall, [seat][tile]: events are immutable and equal by value, so one
#: object serves every draw of that tile (not a frozen dataclass built per draw; bench_speed "self-play")
_DRAWS = tuple(tuple(ev.Draw(s, t, rinshan=False) for t in range(NUM_TILES)) for s in range(4))


def _canonical(e: object) -> object:
    """Tiles shown from the hand in canonical order (``tiles.sort_key``, a red five first), as every
    log reader gives them, so that a written log reads back to the very same events."""
    consumed = getattr(e, "consumed", None)
    if consumed is None:
        return e
    ordered = tuple(in_hand_order(consumed))  # (no key function per tile: bench_speed "self-play")
    return e if ordered == consumed else dataclasses.replace(e, consumed=ordered)  # type: ignore[type-var]


def _shown_hands(rnd: Round, reason: str) -> tuple[tuple[int, ...] | None, ...]:
    """The hands Tenhou shows at a draw (see :class:`~mjcli.riichi.engine.events.RoundDraw`)."""
    n = rnd.n
    show = [False] * n
    if reason in (ev.EXHAUSTIVE, ev.NAGASHI_MANGAN):
        show = [p.tenpai() for p in rnd.players]
    elif reason == ev.NINE_TERMINALS:
        show[rnd.current] = True
    elif reason == ev.FOUR_RIICHI:
        show = [True] * n
    elif reason == ev.TRIPLE_RON:
        # the discarder, or the kan's player for a robbed kan: ``current`` in both cases
        show = [s != rnd.current for s in range(n)]
    return tuple(tuple(in_hand_order(p.hand)) if show[s] else None for s, p in enumerate(rnd.players))
