"""One round of riichi mahjong as a state machine over canonical events.

``Round.apply(event, index)`` checks the event against the state (the tile is in the hand, the
call is possible, riichi conditions hold, the dora is revealed when the kan rules say...) and
raises :class:`~mjcli.riichi.engine.legality.IllegalEvent` naming the event's index and why. Wins are
scored by the engine itself when they happen (``mjcli.riichi.engine.scorer``), and the round's settlement
is computed when it ends (:meth:`Round.finish`), independently of anything the log recorded.

Rules are Tenhou's unless the :class:`~mjcli.riichi.rules.Rules` say otherwise: kan dora revealed at once
for a closed kan and after the discard (or before the next kan) for an open or added kan; no
swap-calling (kuikae); riichi needs a closed hand, 1000 points and four tiles left in the wall
(three in three-player); furiten permanent (own river), same-turn (a passed winning tile) and
riichi (passed after riichi).

The number of seats, the tile set, the wall, chi and nukidora come from the rules' variant
(:mod:`mjcli.riichi.variant`). Three-player nukidora (kita, :class:`~mjcli.riichi.engine.events.Nukidora`)
is played like an added kan without a kan: on one's own turn after a draw (not right after a pon,
not on the last tile; in riichi only the North just drawn, which leaves the waits as they were), the
North is set aside, the round goes to the ``KAN`` phase with ``kan_kind == "kita"``, where the others
may call ron on it with any hand that has a yaku (Tenhou: "抜いた北は役満以外でも和了可能"; no
chankan yaku: a North set aside is no kan), then the same player draws a replacement (a win on it is
rinshan kaihou, as Tenhou scores it). Like a call it ends every ippatsu (once the replacement is drawn,
so that a ron on the North can still be ippatsu, as on an added kan), double riichi, chiihou and
nine terminals. No dora indicator is turned; each North set aside is a dora (:mod:`mjcli.riichi.scoring`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from operator import attrgetter
from typing import Any

from mjcli.errors import MjcliError, UnsupportedError
from mjcli.melds import Meld
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.engine.scorer import ScoredWin, pao_units, score_win
from mjcli.riichi.engine.settlement import (
    STICK,
    WinPay,
    draw_tenpai_deltas,
    nagashi_deltas,
    ron_order,
    win_deltas,
)
from mjcli.riichi.engine.waits import is_complete, waits
from mjcli.riichi.rules import Rules
from mjcli.riichi.scoring import WinContext
from mjcli.tiles import (
    DRAGONS,
    NUM_TILES,
    TERMINALS_AND_HONORS,
    WINDS,
    in_hand_order,
    indicator_kind,
    is_honor,
    kind,
)

#: ``tiles.kind`` as a table, for the lines run on every draw, discard and pass: an index is about a
#: third of a function call (bench_speed: "walk a log to every decision", "self-play")
_KIND = tuple(kind(t) for t in range(NUM_TILES))

_MELD_KIND = attrgetter("kind")
_IS_ANKAN = "ankan".__eq__

LIVE_WALL = 70  # 136 tiles - 14 in the dead wall - 4 x 13 dealt (three-player: variant.live_wall, 55)
MAX_KANS = 4

# Phases of a round
TURN = "turn"  # the current player holds 3n+2 tiles and must act
REACT = "react"  # a discard lies on the table: ron, calls, or the next draw
KAN = "kan"  # a kan was declared: chankan, dora, then the rinshan draw
ENDED = "ended"  # a win or a draw has ended the round


@dataclass(slots=True)
class RiverEntry:
    """One discard in a player's river; mutable: ``called`` is set when another player calls it."""

    tile: int
    tsumogiri: bool
    riichi: bool = False  # the riichi declaration tile
    called: bool = False  # taken by another player's call


@dataclass(slots=True)
class Player:
    seat: int
    hand: list[int]
    counts: list[int]
    melds: list[Meld] = field(default_factory=list)
    river: list[RiverEntry] = field(default_factory=list)
    river_kinds: set[int] = field(default_factory=set)
    riichi: bool = False  # riichi accepted (stick paid)
    riichi_declared: bool = False  # declared, the riichi discard not yet made or not yet accepted
    double_riichi: bool = False
    ippatsu: bool = False
    riichi_furiten: bool = False
    same_turn_furiten: bool = False
    kuikae: frozenset[int] = frozenset()  # kinds this player may not discard right after a call
    kita: list[int] = field(default_factory=list)  # Norths set aside (three-player nukidora)
    nagashi: bool = True  # every discard a terminal/honour and none called away (so far)
    discards: int = 0
    # the waits of the 3n+1 hand, worked out on demand or known from the shanten memo: a memo, not
    # part of the player's state, so two players differ only by what they hold and did
    _waits: frozenset[int] | None = field(default=None, compare=False)
    # The shanten of the hand at the last turn its riichi was weighed, with the discards, melds and
    # Norths set aside then: see ``actions._may_be_tenpai`` (not part of the player's state)
    _shanten_at: tuple[int, int, int, int] | None = field(default=None, compare=False, repr=False)

    @property
    def closed(self) -> bool:
        # (C-level maps, no generator: asked at every turn for riichi; a hand without melds, most
        # of them, answered at once; bench_speed: "self-play", "walk a log to every decision")
        melds = self.melds
        return not melds or all(map(_IS_ANKAN, map(_MELD_KIND, melds)))

    def surely_short_of_tenpai(self) -> bool:
        """Is the hand a tile or more from tenpai by the shanten memo alone? One draw and one discard
        lower the shanten by one at most, so a hand at shanten ``s`` at a turn is at ``s - d`` or
        more ``d`` discards later, while no meld was made and no North set aside in between."""
        memo = self._shanten_at
        return (
            memo is not None
            and memo[0] - (self.discards - memo[1]) >= 1
            and memo[2] == len(self.melds)
            and memo[3] == len(self.kita)
        )

    def waits(self) -> frozenset[int]:
        """Kinds completing the 3n+1 hand (memoised until the hand changes)."""
        if self._waits is None:
            self._waits = waits(self.counts)
        return self._waits

    def tenpai(self) -> bool:
        """Tenpai for a draw payment (Tenhou): the concealed hand has a wait. A wait whose four copies
        sit in the player's own kan or pon counts (karaten through a meld is tenpai); one whose four
        copies are all in the concealed hand does not (:func:`waits` leaves such a kind out)."""
        return bool(self.waits())

    def complete_with(self, drawn: int) -> bool:
        """Is the 3n+2 hand, ``drawn`` just drawn into it, complete?

        While the waits of the hand before the draw are memoised (nearly every draw: they were
        worked out when the last discard passed), the drawn tile's kind being one of them says it,
        instead of splitting the 14 tiles again (bench_speed: "walk a log to every decision",
        "self-play"). The memo is always of the 3n+1 hand without the drawn tile: it is dropped when
        the hand changes, and a tsumogiri leaves the hand as it was (``Round._discard``).
        """
        w = self._waits
        if w is None:
            return is_complete(self.counts)
        return _KIND[drawn] in w

    def furiten(self) -> bool:
        return self.riichi_furiten or self.same_turn_furiten or not self.river_kinds.isdisjoint(self.waits())

    def add(self, tile: int) -> None:
        self.hand.append(tile)
        self.counts[_KIND[tile]] += 1

    def remove(self, tile: int) -> None:
        self.hand.remove(tile)
        self.counts[_KIND[tile]] -= 1


@dataclass(slots=True)
class WinOutcome:
    """One winner's result as the engine computed it."""

    actor: int
    target: int
    tile: int
    scored: ScoredWin
    pao: int | None
    hand: tuple[int, ...] = ()  # concealed tiles with the winning tile, sorted
    deltas: list[int] = field(default_factory=list)
    value: int = 0  # the hand's value before honba and sticks
    # A riichi win whose log does not say its ura indicators: the log's Win, whose recorded deltas,
    # han and yaku the settlement fits the ura dora count to (``Round._fit_ura``; ``scored`` has none)
    ura_unknown: ev.Win | None = None


@dataclass(slots=True)
class RoundOutcome:
    """How a round ended, with the engine's own settlement."""

    kind: str  # "tsumo", "ron", or a draw reason from mjcli.riichi.engine.events.DRAW_REASONS
    deltas: list[int]  # all seats, from the outcome alone (riichi sticks paid during play excluded)
    wins: list[WinOutcome] = field(default_factory=list)
    tenpai: tuple[bool, ...] | None = None
    nagashi: tuple[bool, ...] | None = None
    dealer_continues: bool = False  # renchan
    sticks_taken: bool = False  # the riichi sticks on the table went to a winner


class Round:
    """State of one round; feed it the round's events with :meth:`apply`."""

    def __init__(
        self, start: ev.StartRound, rules: Rules, index: int = 0, hands_shown: frozenset[int] = frozenset()
    ) -> None:
        variant = rules.variant
        n = variant.players
        if len(start.hands) != n or len(start.scores) != n:
            raise UnsupportedError(
                f"event {index}: a round of {len(start.hands)} hands and {len(start.scores)} scores under "
                f"{n}-player rules ('{rules.name}')"
            )
        self.rules = rules
        # seats playing with their hand shown; under the open-riichi rule their riichi is open
        self.hands_shown = hands_shown
        self.variant = variant
        self.n = n
        self.start = start
        self.dealer = start.dealer
        self.round_wind = start.round_wind
        self.honba = start.honba
        self.sticks = start.sticks
        self.scores = list(start.scores)
        self.dora = [start.dora_marker]
        self.players: list[Player] = []
        for seat, hand in enumerate(start.hands):
            if len(hand) != 13:
                raise IllegalEvent(index, start, f"seat {seat} is dealt {len(hand)} tiles, not 13")
            self.players.append(Player(seat, list(hand), _counts(hand)))
        self._check_tile_counts(index, start)
        # [seat]: the other players, in seat order (``_pass_tile`` after every discard: no seat
        # compared per player; bench_speed "walk a log to every decision", "self-play")
        self._others = tuple(tuple(q for q in self.players if q.seat != s) for s in range(n))
        self.wall = variant.live_wall
        self.phase = REACT  # as if a discard by the player before the dealer had just passed
        self.current = (self.dealer - 1) % n
        self.last_tile: int | None = None  # the discard on the table, or the kan tile in a chankan window
        self.drawn: int | None = None  # tile drawn this turn (None after a call)
        self.rinshan = False  # this turn's draw came from the dead wall
        self.kan_kind = ""  # in the KAN phase: "ankan", "kan" or "kakan"
        self.kan_actor = -1
        self.kans = [0] * n
        self.kan_total = 0
        self.riichi_count = 0
        self.pending_dora = 0  # kan indicators owed
        self.pending_open = False  # the owed indicator is an open/added kan's (revealed after the discard)
        self.interrupted = False  # a call (any kan included) has happened this round
        self.first_winds: list[int] = []
        self.pao: list[int | None] = [None] * n
        self.pao_kind = [""] * n
        self.wins: list[WinOutcome] = []
        self.win_chankan = False
        self.draw_reason: str | None = None
        self.outcome: RoundOutcome | None = None
        # Wins scored in the state as it is now, by (seat, tile, tsumo, chankan, ura): emptied by
        # every event. A ron offered to a seat (its legal actions) and then taken (the Win event) is
        # scored once, not twice (bench_speed: "walk a log to every decision", "self-play").
        self._scored: dict[tuple[int, int, bool, bool, tuple[int, ...]], ScoredWin] = {}

    # ------------------------------------------------------------------ helpers

    def _check_tile_counts(self, index: int, event: object) -> None:
        tiles = [t for p in self.players for t in p.hand] + self.dora
        # The dealt tiles and the first indicator counted in one loop, and checked once: no fifth
        # copy, no second red five, no kind the set lacks. Only a deal that fails a check is revealed
        # tile by tile, for ``_reveal``'s own error (a round's start in a fifth of the time of a
        # ``_reveal`` call per tile; bench_speed: "walk a log to every decision", "self-play").
        seen = [0] * 34
        for t in tiles:
            seen[_KIND[t]] += 1  # (the kind as ``_reveal`` reads it)
        reds = [t for t in tiles if t >= 34]
        absent = self.variant.absent_kinds
        if max(seen) <= 4 and len(set(reds)) == len(reds) and not any(seen[k] for k in absent):
            self.seen = seen
            self.seen_red: set[int] = set(reds)
            return
        self.seen = [0] * 34
        self.seen_red = set()
        for t in tiles:
            self._reveal(t, index, event)

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % self.n

    @property
    def tiles_left(self) -> int:
        """Tiles left in the live wall (rinshan draws take theirs from it too)."""
        return self.wall

    def _pass_tile(self, tile: int, skip: int) -> None:
        """Everyone but ``skip`` let ``tile`` go by: same-turn and riichi furiten."""
        k = _KIND[tile]
        for p in self._others[skip]:
            # the memoised waits read directly: this runs for every player after every discard
            w = p._waits
            if w is None:
                w = p.waits()
            if k in w:
                p.same_turn_furiten = True
                if p.riichi:
                    p.riichi_furiten = True

    def _after_call(self) -> None:
        self.interrupted = True
        for p in self.players:
            p.ippatsu = False

    # ------------------------------------------------------------------ apply

    def apply(self, event: object, index: int) -> None:
        t = type(event)
        handler = _HANDLERS.get(t)
        if handler is None:
            raise IllegalEvent(index, event, "not an event of a round in play")
        if self.phase == ENDED and t is not ev.Win:  # (a type with a handler: exactly Win, or not)
            raise IllegalEvent(index, event, "the round has already ended")
        # Actor then target, unrolled: no tuple and loop per event; read only from the types that
        # have them (``getattr`` with a default on a missing slot raises and clears an
        # AttributeError inside: a draw has no target; bench_speed "self-play, first-legal policy")
        n = self.n
        if t in _HAS_ACTOR:
            seat = event.actor  # type: ignore[attr-defined]
            if type(seat) is not int or not 0 <= seat < n:
                raise IllegalEvent(index, event, f"seat {seat!r} is not 0..{n - 1}")
            if t in _HAS_TARGET:
                seat = event.target  # type: ignore[attr-defined]
                if type(seat) is not int or not 0 <= seat < n:
                    raise IllegalEvent(index, event, f"seat {seat!r} is not 0..{n - 1}")
        try:
            handler(self, event, index)  # (a Win reads the memo of the state it is won in, then it goes)
        finally:
            if self._scored:
                self._scored = {}

    def apply_made(self, event: object, index: int) -> None:
        """:meth:`apply` for an event the table made for the state as it is, of a kind a round in play
        takes: a move from :func:`~mjcli.riichi.engine.actions.legal_actions`, a draw of the seat
        :func:`~mjcli.riichi.engine.actions.table_step` names. Its handler checks it as ever; the
        seats it names are not checked again, which the engine itself set (every draw and discard
        of a self-play game; bench_speed "self-play, first-legal policy")."""
        try:
            _HANDLERS[type(event)](self, event, index)
        finally:
            if self._scored:
                self._scored = {}

    # ------------------------------------------------------------------ draws and discards

    def _leave_react(self, index: int, event: object) -> None:
        """The discard on the table is not won on: it passes (furiten for those waiting on it)."""
        if self.phase == REACT and self.last_tile is not None:
            discarder = self.current
            declared = self.players[discarder]
            if declared.riichi_declared and not declared.riichi:
                # The stick is paid as soon as nobody wins on the riichi tile, before any call.
                raise IllegalEvent(index, event, f"seat {discarder}'s riichi was not accepted first")
            self._pass_tile(self.last_tile, discarder)
            if self.kan_total == 4 and self.four_kans_pending():
                raise IllegalEvent(index, event, "four kans by several players must abort the round")
            if self.riichi_count == 4 and self.rules.abortive_draws:
                raise IllegalEvent(index, event, "four riichi must abort the round")
            if len(self.first_winds) == 4 and self.four_winds_pending():
                raise IllegalEvent(index, event, "four winds on the first turn must abort the round")

    def _draw(self, e: ev.Draw, index: int) -> None:
        if e.tile is None:
            raise UnsupportedError(f"event {index}: a hidden draw (player-view log) cannot be verified")
        if self.phase == KAN:
            if e.actor != self.kan_actor:
                raise IllegalEvent(index, e, f"the rinshan draw belongs to seat {self.kan_actor}")
            if self.pending_dora and not (self.pending_open and self.pending_dora == 1):
                raise IllegalEvent(index, e, "a kan dora indicator should have been revealed first")
            if self.kan_kind in ("kakan", "kita"):
                self._pass_tile(self.last_tile, e.actor)  # the added tile (or the North) was not robbed
                for p in self.players:
                    p.ippatsu = False
            self.rinshan = True
        elif self.phase == REACT:
            nxt = (self.current + 1) % self.n
            if e.actor != nxt:
                raise IllegalEvent(index, e, f"seat {nxt} draws next")
            if e.rinshan:
                raise IllegalEvent(index, e, "a rinshan draw without a kan")
            if self.wall <= 0:
                raise IllegalEvent(index, e, "the live wall is empty")
            if self.pending_dora:
                raise IllegalEvent(index, e, "a kan dora indicator should have been revealed first")
            self._leave_react(index, e)
            self.rinshan = False
        else:
            raise IllegalEvent(index, e, f"seat {self.current} must discard first")
        self.wall -= 1
        tile = e.tile
        k = _KIND[tile]
        p = self.players[e.actor]
        p.hand.append(tile)  # (``Player.add`` inline: every draw)
        p.counts[k] += 1
        seen = self.seen
        if seen[k] < 4 and tile < 34 and k not in self.variant.absent_kinds:
            seen[k] += 1  # (``_reveal`` when it has nothing to say: nearly every draw)
        else:
            self._reveal(tile, index, e)
        self.current = e.actor
        self.drawn = e.tile
        self.last_tile = None
        self.phase = TURN

    def _reveal(self, tile: int, index: int, event: object) -> None:
        """A tile comes out of the wall (draw or dora indicator): never a fifth copy."""
        k = _KIND[tile]
        seen = self.seen  # read once: this runs for every tile drawn
        seen[k] += 1
        if seen[k] > 4 or (tile >= 34 and tile in self.seen_red):
            raise IllegalEvent(index, event, "a fifth copy of this tile (or a second red five)")
        if k in self.variant.absent_kinds:
            raise IllegalEvent(index, event, f"{self.variant.name} mahjong has no such tile (2m-8m)")
        if tile >= 34:
            self.seen_red.add(tile)

    def _discard(self, e: ev.Discard, index: int) -> None:
        if self.phase != TURN or e.actor != self.current:
            raise IllegalEvent(index, e, f"seat {e.actor} may not discard now")
        # the event's and the turn's fields read once into locals: this runs for every discard
        tile = e.tile
        drawn = self.drawn
        p = self.players[e.actor]
        hand = p.hand
        try:
            # (the tile's place, found once: the hand is searched once for the test and the removal
            # below, not twice; bench_speed "walk a log to every decision", "self-play")
            at = hand.index(tile)
        except ValueError:
            raise IllegalEvent(index, e, "the tile is not in the hand") from None
        if e.tsumogiri and (drawn is None or drawn != tile):
            raise IllegalEvent(index, e, "marked as tsumogiri but the tile was not just drawn")
        k = _KIND[tile]
        if k in p.kuikae:
            raise IllegalEvent(index, e, "swap-calling (kuikae) is not allowed")
        if self.pending_dora:
            # Tenhou: an open or added kan's indicator is turned as the kan player discards.
            raise IllegalEvent(index, e, "a kan dora indicator should have been revealed first")
        declaring = p.riichi_declared and not p.riichi
        if p.riichi:
            if tile != drawn:
                raise IllegalEvent(index, e, "a player in riichi must discard the tile drawn")
            if drawn is not None and p.complete_with(drawn):
                # Letting one's own winning tile go by in riichi is furiten for the rest of the round.
                p.riichi_furiten = True
        del hand[at]  # (``hand.remove(tile)``: its first copy)
        p.counts[k] -= 1
        if drawn is None or k != _KIND[drawn]:
            # The 3n+1 hand changed (a tsumogiri leaves it as it was). One that the turn's riichi
            # check found a tile or more from tenpai (its shanten memo: see ``actions._may_be_tenpai``)
            # waits on nothing whatever it discards (a discard never lowers the shanten): its waits
            # are known without working them out at the next pass (bench_speed: "walk a log to
            # every decision", "self-play")
            p._waits = _NO_WAITS if p.surely_short_of_tenpai() else None
        if declaring and not p.waits():
            raise IllegalEvent(index, e, "the riichi discard does not leave the hand tenpai")
        if p.ippatsu and not declaring:
            p.ippatsu = False
        p.river.append(RiverEntry(tile, e.tsumogiri, declaring))
        p.river_kinds.add(k)
        if p.nagashi and k not in _YAOCHUU:
            p.nagashi = False
        p.discards += 1
        p.same_turn_furiten = False
        if p.kuikae:
            p.kuikae = frozenset()  # (most discards follow no call: nothing to reset)
        if not self.interrupted and p.discards == 1:
            self.first_winds.append(k)
        elif p.discards == 2 and self.first_winds:
            # A second discard: the first go-round is over and four winds can no longer abort it.
            # Forgotten, so that the test on four first discards (``len(first_winds) == 4``) before
            # every pass says no at once for the rest of the round (bench_speed: "walk a log to
            # every decision", "self-play").
            self.first_winds = []
        self.phase = REACT
        self.last_tile = tile
        self.drawn = None

    def four_winds_pending(self) -> bool:
        fw = self.first_winds
        return (
            self.rules.abortive_draws
            and self.variant.four_winds
            and not self.interrupted
            and len(fw) == 4
            and fw[0] in WINDS
            and fw.count(fw[0]) == 4
            and all(p.discards == 1 for p in self.players)
        )

    def four_kans_pending(self) -> bool:
        return self.rules.abortive_draws and self.kan_total == 4 and max(self.kans) < 4

    # ------------------------------------------------------------------ riichi

    def _riichi(self, e: ev.Riichi, index: int) -> None:
        p = self.players[e.actor]
        if self.phase != TURN or e.actor != self.current or self.drawn is None:
            raise IllegalEvent(index, e, "riichi is declared after one's own draw")
        if p.riichi or p.riichi_declared:
            raise IllegalEvent(index, e, "already in riichi")
        if not p.closed:
            raise IllegalEvent(index, e, "riichi needs a closed hand")
        if self.scores[e.actor] < self.rules.riichi_stick:
            raise IllegalEvent(index, e, f"riichi needs {self.rules.riichi_stick} points")
        if self.wall < self.variant.riichi_wall:
            raise IllegalEvent(
                index, e, f"riichi needs at least {self.variant.riichi_wall} tiles left in the wall"
            )
        p.riichi_declared = True
        p.double_riichi = p.discards == 0 and not self.interrupted

    def _riichi_accepted(self, e: ev.RiichiAccepted, index: int) -> None:
        p = self.players[e.actor]
        if not (p.riichi_declared and not p.riichi and p.river and p.river[-1].riichi):
            raise IllegalEvent(index, e, "no riichi discard to accept")
        if self.phase != REACT or self.current != e.actor:
            raise IllegalEvent(index, e, "riichi is accepted right after the riichi discard")
        p.riichi = True
        p.ippatsu = True
        self.riichi_count += 1
        self.scores[e.actor] -= STICK
        self.sticks += 1

    # ------------------------------------------------------------------ calls

    def _take_discard(self, e: ev.Chi | ev.Pon | ev.OpenKan, index: int) -> Player:
        if self.phase != REACT or self.last_tile is None or e.target != self.current:
            raise IllegalEvent(index, e, "no discard of that player to call")
        if e.actor == e.target:
            raise IllegalEvent(index, e, "a player cannot call his own discard")
        if e.tile != self.last_tile:
            raise IllegalEvent(index, e, "the called tile is not the discard on the table")
        if self.wall <= 0:
            raise IllegalEvent(index, e, "the last discard of the round cannot be called")
        p = self.players[e.actor]
        if p.riichi or p.riichi_declared:
            raise IllegalEvent(index, e, "a player in riichi cannot call")
        hand = list(p.hand)
        for t in e.consumed:
            if t not in hand:
                raise IllegalEvent(index, e, "the tiles shown are not in the hand")
            hand.remove(t)
        self._leave_react(index, e)
        discarder = self.players[e.target]
        discarder.river[-1].called = True
        discarder.nagashi = False
        for t in e.consumed:
            p.remove(t)
        p._waits = None
        self._after_call()
        return p

    def _chi(self, e: ev.Chi, index: int) -> None:
        if not self.variant.chi:
            raise IllegalEvent(index, e, f"there is no chi in {self.variant.name} mahjong")
        if e.actor != (e.target + 1) % self.n:
            raise IllegalEvent(index, e, "chi is only from the player on the left")
        ks = sorted(kind(t) for t in (e.tile, *e.consumed))
        if len(ks) != 3 or is_honor(ks[0]) or ks != [ks[0], ks[0] + 1, ks[0] + 2] or ks[0] // 9 != ks[2] // 9:
            raise IllegalEvent(index, e, "not a run of three in one suit")
        p = self._take_discard(e, index)
        c = kind(e.tile)
        forbidden = {c}
        if c == ks[0] and c % 9 <= 5:
            forbidden.add(c + 3)
        elif c == ks[2] and c % 9 >= 3:
            forbidden.add(c - 3)
        self._meld(p, "chi", e, forbidden)

    def _pon(self, e: ev.Pon, index: int) -> None:
        if len(e.consumed) != 2 or any(kind(t) != kind(e.tile) for t in e.consumed):
            raise IllegalEvent(index, e, "a pon is two tiles matching the discard")
        p = self._take_discard(e, index)
        self._meld(p, "pon", e, {kind(e.tile)})
        self._check_pao(p, e.target, kind(e.tile))

    def _open_kan(self, e: ev.OpenKan, index: int) -> None:
        if len(e.consumed) != 3 or any(kind(t) != kind(e.tile) for t in e.consumed):
            raise IllegalEvent(index, e, "an open kan is three tiles matching the discard")
        self._check_kan_allowed(e, index)
        p = self._take_discard(e, index)
        self._meld(p, "kan", e, set())
        self._check_pao(p, e.target, kind(e.tile))
        self._start_kan(e.actor, "kan", None)

    def _meld(self, p: Player, name: str, e: ev.Chi | ev.Pon | ev.OpenKan, forbidden: set[int]) -> None:
        # (hand order by ``in_hand_order``, no key function called per tile: every call of a
        # self-play game; bench_speed "self-play")
        tiles = tuple(in_hand_order((e.tile, *e.consumed)))
        p.melds.append(Meld(name, tiles, e.tile, e.target))
        p.kuikae = frozenset(forbidden)
        self.current = e.actor
        self.phase = TURN
        self.drawn = None
        self.last_tile = None

    def _check_pao(self, p: Player, target: int, k: int) -> None:
        """Daisangen / daisuushii liability: the call completing the third dragon / fourth wind set."""
        if not self.rules.pao:
            return
        sets = {kind(m.tiles[0]) for m in p.melds if m.kind != "chi"}
        if k in DRAGONS and all(d in sets for d in DRAGONS):
            self.pao[p.seat] = target
            self.pao_kind[p.seat] = "daisangen"
        elif k in WINDS and all(w in sets for w in WINDS):
            self.pao[p.seat] = target
            self.pao_kind[p.seat] = "daisuushi"

    def _check_kan_allowed(self, e: object, index: int) -> None:
        if self.kan_total >= MAX_KANS:
            raise IllegalEvent(index, e, "no fifth kan")
        if self.wall <= 0:
            raise IllegalEvent(index, e, "no kan on the last tile")

    def _start_kan(self, actor: int, kan_kind: str, tile: int | None) -> None:
        self.kans[actor] += 1
        self.kan_total += 1
        # An earlier open kan's indicator still owed is turned first (the log shows both in order).
        self.pending_dora += 1
        self.pending_open = kan_kind != "ankan"
        self.kan_kind = kan_kind
        self.kan_actor = actor
        self.current = actor
        self.phase = KAN
        self.last_tile = tile
        self.drawn = None

    def _closed_kan(self, e: ev.ClosedKan, index: int) -> None:
        p = self.players[e.actor]
        if self.phase != TURN or e.actor != self.current or self.drawn is None:
            raise IllegalEvent(index, e, "a closed kan is declared after one's own draw")
        k = kind(e.consumed[0]) if e.consumed else -1
        if len(e.consumed) != 4 or any(kind(t) != k for t in e.consumed):
            raise IllegalEvent(index, e, "a closed kan is four tiles of one kind")
        hand = list(p.hand)
        for t in e.consumed:
            if t not in hand:
                raise IllegalEvent(index, e, "the tiles are not in the hand")
            hand.remove(t)
        self._check_kan_allowed(e, index)
        if p.riichi:
            # In riichi only the drawn tile may complete the kan, and the waits must not change.
            before_counts = p.counts[:]
            before_counts[k] -= 1  # the hand as it was before the draw
            before = waits(before_counts)
            if kind(self.drawn) != k:
                raise IllegalEvent(index, e, "in riichi a closed kan must use the tile just drawn")
            after_counts = p.counts[:]
            after_counts[k] -= 4
            if waits(after_counts) != before:
                raise IllegalEvent(index, e, "in riichi a closed kan may not change the waits")
        for t in e.consumed:
            p.remove(t)
        p._waits = None
        p.melds.append(Meld("ankan", tuple(in_hand_order(e.consumed)), None, None))
        self._after_call()
        self._start_kan(e.actor, "ankan", e.consumed[0])

    def _added_kan(self, e: ev.AddedKan, index: int) -> None:
        p = self.players[e.actor]
        if self.phase != TURN or e.actor != self.current or self.drawn is None:
            raise IllegalEvent(index, e, "an added kan is declared after one's own draw")
        k = kind(e.tile)
        pons = [i for i, m in enumerate(p.melds) if m.kind == "pon" and kind(m.tiles[0]) == k]
        if not pons:
            raise IllegalEvent(index, e, "no pon to add the tile to")
        if e.tile not in p.hand:
            raise IllegalEvent(index, e, "the added tile is not in the hand")
        self._check_kan_allowed(e, index)
        old = p.melds[pons[0]]
        p.remove(e.tile)
        p._waits = None
        p.melds[pons[0]] = Meld(
            "kakan", tuple(in_hand_order((*old.tiles, e.tile))), old.called, old.from_seat
        )
        self.interrupted = True
        # Ippatsu ends with the kan, but a chankan on this very tile can still be ippatsu:
        # the flags are cleared when the rinshan draw shows nobody robbed the kan.
        self._start_kan(e.actor, "kakan", e.tile)

    def _nukidora(self, e: ev.Nukidora, index: int) -> None:
        """Kita: a North set aside on one's own turn (see the module docstring)."""
        p = self.players[e.actor]
        north = self.variant.nukidora
        if north is None:
            raise IllegalEvent(index, e, f"there is no nukidora in {self.variant.name} mahjong")
        if kind(e.tile) != north:
            raise IllegalEvent(index, e, "only a North is set aside as nukidora")
        if self.phase != TURN or e.actor != self.current or self.drawn is None:
            raise IllegalEvent(index, e, "a North is set aside after one's own draw (not right after a pon)")
        if e.tile not in p.hand:
            raise IllegalEvent(index, e, "the North is not in the hand")
        if self.wall <= 0:
            raise IllegalEvent(index, e, "no nukidora on the last tile")
        if p.riichi_declared and not p.riichi:
            raise IllegalEvent(index, e, "a riichi is declared with a discard")
        if p.riichi and kind(self.drawn) != north:
            raise IllegalEvent(index, e, "in riichi only the North just drawn may be set aside")
        p.remove(e.tile)
        p._waits = None
        p.kita.append(e.tile)
        self.interrupted = True
        self.kan_kind = "kita"
        self.kan_actor = e.actor
        self.current = e.actor
        self.phase = KAN
        self.last_tile = e.tile
        self.drawn = None

    def _new_dora(self, e: ev.NewDora, index: int) -> None:
        if self.pending_dora <= 0:
            raise IllegalEvent(index, e, "a new dora indicator without a kan")
        if self.pending_open and self.pending_dora == 1 and self.phase == KAN and self.kan_kind != "ankan":
            raise IllegalEvent(index, e, "an open kan's dora is revealed after the kan player's discard")
        self.pending_dora -= 1
        if self.pending_dora == 0:
            self.pending_open = False
        self._reveal(e.marker, index, e)
        self.dora.append(e.marker)

    # ------------------------------------------------------------------ wins

    def _win(self, e: ev.Win, index: int) -> None:
        p = self.players[e.actor]
        if e.actor == e.target:
            self._check_tsumo(e, index, p)
            self.wins.append(self._outcome(e, index, p, tuple(in_hand_order(p.hand)), tsumo=True))
            self.phase = ENDED
            return
        # Ron: on the discard on the table, on an added kan (chankan), or kokushi on a closed kan.
        if self.phase == ENDED:
            if not self.wins or self.wins[0].actor == self.wins[0].target:
                raise IllegalEvent(index, e, "the round has already ended")
            if any(w.actor == e.actor for w in self.wins):
                raise IllegalEvent(index, e, "this player has already won")
            # Tenhou: two winners at most; a third claimant aborts the round (sanchahou), so a third
            # win exists only under rules without that abort.
            limit = (3 if not self.rules.triple_ron_abort else 2) if self.rules.double_ron else 1
            if len(self.wins) >= limit:
                raise IllegalEvent(index, e, f"at most {limit} players may win on one tile")
            if e.target != self.wins[0].target or e.tile != self.wins[0].tile:
                raise IllegalEvent(index, e, "a multiple ron is on the same tile")
        elif self.phase == REACT:
            # (A ron on a riichi tile comes before RiichiAccepted: that stick is never paid.)
            if self.last_tile is None or e.target != self.current or e.tile != self.last_tile:
                raise IllegalEvent(index, e, "ron on a tile that is not the discard on the table")
            if self.players[e.target].riichi and self.players[e.target].river[-1].riichi:
                raise IllegalEvent(index, e, "ron after the riichi on this tile was accepted")
        elif self.phase == KAN and self.kan_kind in ("kakan", "ankan", "kita"):
            if e.target != self.kan_actor or self.last_tile is None or kind(e.tile) != kind(self.last_tile):
                raise IllegalEvent(index, e, "chankan on a tile that is not the kan tile")
        else:
            raise IllegalEvent(index, e, "there is no tile to win on")
        if e.actor == e.target:
            raise IllegalEvent(index, e, "ron on one's own tile")
        k = kind(e.tile)
        if k not in p.waits():
            raise IllegalEvent(index, e, "the tile does not complete the hand")
        if p.furiten():
            raise IllegalEvent(index, e, "the player is furiten")
        # a ron on a North set aside is no chankan (nothing is robbed from a kan)
        chankan = (self.phase == KAN and self.kan_kind != "kita") or (
            self.phase == ENDED and self.win_chankan
        )
        if self.phase == KAN and self.kan_kind == "ankan":
            if not self.rules.kokushi_robs_closed_kan:
                raise IllegalEvent(index, e, f"no ron on a closed kan under {self.rules.name}'s rules")
            p.add(e.tile)
            orphans = _is_orphans_counts(p.counts)
            p.remove(e.tile)
            if not orphans:
                raise IllegalEvent(index, e, "only thirteen orphans may rob a closed kan")
        self.win_chankan = chankan
        hand = tuple(in_hand_order((*p.hand, e.tile)))
        self.wins.append(self._outcome(e, index, p, hand, tsumo=False, chankan=chankan))
        self.phase = ENDED

    def _check_tsumo(self, e: ev.Win, index: int, p: Player) -> None:
        if self.phase != TURN or e.actor != self.current or self.drawn is None:
            raise IllegalEvent(index, e, "tsumo is only on one's own draw")
        if kind(e.tile) != kind(self.drawn):
            raise IllegalEvent(index, e, "the winning tile is not the tile drawn")
        if not is_complete(p.counts):
            raise IllegalEvent(index, e, "the hand is not complete")

    def _outcome(
        self, e: ev.Win, index: int, p: Player, hand: tuple[int, ...], tsumo: bool, chankan: bool = False
    ) -> WinOutcome:
        ura: tuple[int, ...] = ()
        if p.riichi and e.ura_markers:
            ura = tuple(e.ura_markers[: len(self.dora)])
        try:
            scored = self.score_for(p.seat, e.tile, tsumo, chankan, ura)
        except MjcliError as exc:  # complete but no yaku, impossible tiles...
            raise IllegalEvent(index, e, str(exc)) from None
        outcome = WinOutcome(e.actor, e.target, e.tile, scored, self._pao_for(e.actor, scored), hand)
        if p.riichi and not e.ura_known:
            outcome.ura_unknown = e
        return outcome

    def _ura_options(self, p: Player, tile: int, tsumo: bool, chankan: bool) -> Iterator[ScoredWin]:
        """A riichi win whose log leaves its ura indicators out (a Mortal-style mjai ``hora``
        without ``ura_markers``, written by mjai-reviewer's convlog before its commit 01b37b6 of
        2021-11-27, or a tenhou.net/6 round with no ura list): the hand scored with 1, 2, ... ura
        dora, one for each count its tiles allow, fewest first. The indicators are made up to give
        each count (as many as the dora indicators shown, none of a kind whose four copies would
        then be in sight); only the count reaches the score."""
        held = list(p.counts)
        if not tsumo:
            held[_KIND[tile]] += 1
        for m in p.melds:
            for t in m.tiles:
                held[_KIND[t]] += 1
        held[30] += len(p.kita)  # a North set aside counts as a dora of its kind
        seen = held[:]
        for t in self.dora:
            seen[_KIND[t]] += 1
        targets = [k for k in range(34) if held[k]]
        found: dict[int, tuple[int, ...]] = {}
        for size in range(1, len(self.dora) + 1):
            for picked in combinations_with_replacement(targets, size):
                total = sum(held[k] for k in picked)
                if total in found:
                    continue
                markers = tuple(indicator_kind(k, self.n) for k in picked)
                if all(seen[m] + markers.count(m) <= 4 for m in set(markers)):
                    found[total] = markers
        for total in sorted(found):
            try:
                yield self.score_for(p.seat, tile, tsumo, chankan, found[total])
            except MjcliError:
                continue  # an indicator set the scorer refuses: the next count

    def _fit_ura(
        self,
        w: WinOutcome,
        loser: int | None,
        honba: int,
        sticks: int,
        split: bool,
        first: tuple[list[int], int],
    ) -> tuple[list[int], int]:
        """The deltas (and value) of ``w`` with the fewest ura dora that agree with what its log
        recorded: its deltas, and the ura dora its yaku list or han say (a haneman's 6 and 7 han
        pay the same); failing those, its deltas alone; failing those too, none (the deltas then
        mismatch). ``first``: the deltas with none."""
        log = w.ura_unknown
        assert log is not None
        said = dict(log.yaku).get("ura_dora", 0) if log.yaku is not None else None

        def agrees(scored: ScoredWin, got: tuple[list[int], int], strict: bool) -> bool:
            if log.deltas is not None and got[0] != list(log.deltas):
                return False
            if not strict:
                return True
            if said is not None and dict(scored.yaku).get("ura_dora", 0) != said:
                return False
            return log.han is None or scored.yakuman > 0 or scored.han == log.han

        if log.deltas is None and said is None and log.han is None:
            return first  # nothing recorded to fit
        # the fewest ura that agree with everything recorded, else with the deltas alone
        tried = []
        for scored, pao, got in self._ura_candidates(w, loser, honba, sticks, split, first):
            if agrees(scored, got, True):
                w.scored, w.pao = scored, pao
                return got
            tried.append((scored, pao, got))
        for scored, pao, got in tried:
            if agrees(scored, got, False):
                w.scored, w.pao = scored, pao
                return got
        return first

    def _ura_candidates(
        self,
        w: WinOutcome,
        loser: int | None,
        honba: int,
        sticks: int,
        split: bool,
        first: tuple[list[int], int],
    ) -> Iterator[tuple[ScoredWin, int | None, tuple[list[int], int]]]:
        """``w`` as scored (no ura dora), then with each count :meth:`_ura_options` allows: the
        scored hand, its liable seat and its deltas (and value)."""
        yield w.scored, w.pao, first
        for scored in self._ura_options(self.players[w.actor], w.tile, w.actor == w.target, self.win_chankan):
            pao = self._pao_for(w.actor, scored)
            pao_base = self._pao_base(w, scored) if pao is not None else 0
            yield (
                scored,
                pao,
                self._win_deltas(WinPay(w.actor, loser, scored.base, pao, pao_base), honba, sticks, split),
            )

    def score_for(
        self, seat: int, tile: int, tsumo: bool, chankan: bool = False, ura: tuple[int, ...] = ()
    ) -> ScoredWin:
        """Score ``seat`` winning now on ``tile`` (the drawn tile for tsumo); ScoringError if no yaku."""
        key = (seat, tile, tsumo, chankan, ura)
        got = self._scored.get(key)
        if got is None:
            got = self._scored[key] = self._score_now(seat, tile, tsumo, chankan, ura)
        return got

    def _score_now(self, seat: int, tile: int, tsumo: bool, chankan: bool, ura: tuple[int, ...]) -> ScoredWin:
        p = self.players[seat]
        first_turn = p.discards == 0 and not self.interrupted
        open_riichi = p.riichi and self.is_open_riichi(seat)
        # the discarder of a ron: the player on turn, or the kan's player for a robbed kan; one whose
        # riichi is declared with that very tile is not in riichi yet (its stick is never paid)
        discarder = None if tsumo else (self.kan_actor if chankan else self.current)
        concealed = list(p.hand)
        if tsumo:
            win_tile = self.drawn if self.drawn is not None else tile
        else:
            win_tile = tile
            concealed.append(tile)
        ctx = WinContext(
            tsumo=tsumo,
            riichi=p.riichi,
            double_riichi=p.riichi and p.double_riichi,
            ippatsu=p.riichi and p.ippatsu,
            rinshan=tsumo and self.rinshan,
            chankan=chankan,
            haitei=tsumo and not self.rinshan and self.wall == 0,
            houtei=not tsumo and not chankan and self.wall == 0,
            tenhou=tsumo and first_turn and seat == self.dealer,
            chiihou=tsumo and first_turn and seat != self.dealer,
            open_riichi=open_riichi,
            discarder_riichi=open_riichi and discarder is not None and self.players[discarder].riichi,
            seat_wind=self.seat_wind(seat),
            round_wind=self.round_wind,
            honba=self.honba,
            sticks=self.sticks,
            dora_indicators=tuple(self.dora),
            ura_indicators=ura,
            kita=len(p.kita),
        )
        return score_win(concealed, win_tile, p.melds, ctx, self.rules)

    def is_open_riichi(self, seat: int) -> bool:
        """Is (or would be) ``seat``'s riichi an open riichi: the house rule is on and the seat plays
        with its hand shown."""
        return self.rules.open_riichi and seat in self.hands_shown

    def _pao_for(self, seat: int, scored: ScoredWin) -> int | None:
        liable = self.pao[seat]
        if liable is None or pao_units(scored, self.pao_kind[seat]) == 0:
            return None
        return liable

    # ------------------------------------------------------------------ draws

    def _round_draw(self, e: ev.RoundDraw, index: int) -> None:
        reason = e.reason
        if reason in (ev.EXHAUSTIVE, ev.NAGASHI_MANGAN):
            if not (self.phase == REACT and self.wall == 0 and self.last_tile is not None):
                raise IllegalEvent(index, e, "an exhaustive draw needs the last discard with the wall empty")
            if self.pending_dora:
                raise IllegalEvent(index, e, "a kan dora indicator should have been revealed first")
            self._pass_tile(self.last_tile, self.current)
        elif reason == ev.NINE_TERMINALS:
            p = self.players[self.current]
            if not (
                self.phase == TURN and self.drawn is not None and p.discards == 0 and not self.interrupted
            ):
                raise IllegalEvent(index, e, "nine terminals is declared on one's first uninterrupted draw")
            if sum(1 for k in TERMINALS_AND_HONORS if p.counts[k]) < 9:
                raise IllegalEvent(index, e, "fewer than nine different terminals and honours")
        elif reason == ev.FOUR_RIICHI:
            if self.riichi_count != 4:
                raise IllegalEvent(index, e, "four riichi needs four accepted riichi")
        elif reason == ev.FOUR_WINDS:
            if not (self.phase == REACT and self.four_winds_pending()):
                raise IllegalEvent(index, e, "four winds needs the same wind as all four first discards")
        elif reason == ev.FOUR_KANS:
            if not (self.phase == REACT and self.four_kans_pending()):
                raise IllegalEvent(index, e, "four kans needs four kans by several players and a discard")
        elif reason == ev.TRIPLE_RON:
            self._check_triple_ron(e, index)
        else:
            raise IllegalEvent(index, e, f"unknown draw reason '{reason}'")
        if not self.rules.abortive_draws and reason not in (ev.EXHAUSTIVE, ev.NAGASHI_MANGAN):
            raise IllegalEvent(index, e, "abortive draws are not played under these rules")
        self.draw_reason = ev.EXHAUSTIVE if reason == ev.NAGASHI_MANGAN else reason
        self.phase = ENDED

    def _check_triple_ron(self, e: ev.RoundDraw, index: int) -> None:
        if not self.rules.triple_ron_abort:
            raise IllegalEvent(index, e, "a triple ron is three wins under these rules")
        if self.phase == REACT and self.last_tile is not None:
            target, tile = self.current, self.last_tile
        elif self.phase == KAN and self.kan_kind == "kakan" and self.last_tile is not None:
            target, tile = self.kan_actor, self.last_tile
        else:
            raise IllegalEvent(index, e, "a triple ron needs a tile to win on")
        ok = 0
        chankan = self.phase == KAN
        for p in self.players:
            if p.seat == target or kind(tile) not in p.waits() or p.furiten():
                continue
            try:  # a claimant needs a yaku: a hand that cannot win cannot call ron
                self.score_for(p.seat, tile, tsumo=False, chankan=chankan)
            except MjcliError:
                continue
            ok += 1
        if ok < 3:
            raise IllegalEvent(index, e, f"only {ok} players can win on this tile")

    # ------------------------------------------------------------------ settlement

    def finish(self, index: int, event: object) -> RoundOutcome:
        """Settle the round; ``event`` (the end of round) is named if it is not over."""
        if self.outcome is not None:
            return self.outcome
        if self.phase != ENDED:
            raise IllegalEvent(index, event, "the round ends without a win or a draw")
        if self.wins:
            self.outcome = self._settle_wins()
        else:
            self.outcome = self._settle_draw()
        for s in range(self.n):
            self.scores[s] += self.outcome.deltas[s]
        return self.outcome

    def _settle_wins(self) -> RoundOutcome:
        first = self.wins[0]
        tsumo = first.actor == first.target
        n = self.n
        rules = self.rules
        split = n == 3 and rules.absent_share == "split"
        order = [first.actor] if tsumo else ron_order(first.target, [w.actor for w in self.wins], n)
        total = [0] * n
        by_actor = {w.actor: w for w in self.wins}
        for i, seat in enumerate(order):
            w = by_actor[seat]
            pao = w.pao
            pay = WinPay(
                winner=seat,
                loser=None if tsumo else w.target,
                base=w.scored.base,
                pao=pao,
                pao_base=self._pao_base(w) if pao is not None else 0,
            )
            # Tenhou: with a double ron the honba and the sticks go to the first winner only.
            honba = self.honba if i == 0 else 0
            sticks = self.sticks if i == 0 else 0
            d, value = self._win_deltas(pay, honba, sticks, split)
            if w.ura_unknown is not None:  # ura dora the log did not show: fitted to what it recorded
                d, value = self._fit_ura(w, pay.loser, honba, sticks, split, (d, value))
            w.deltas = d
            w.value = value
            for s in range(n):
                total[s] += d[s]
        return RoundOutcome(
            kind="tsumo" if tsumo else "ron",
            deltas=total,
            wins=self.wins,
            dealer_continues=self.dealer in order,
            sticks_taken=True,
        )

    def _win_deltas(self, pay: WinPay, honba: int, sticks: int, split: bool) -> tuple[list[int], int]:
        rules = self.rules
        return win_deltas(
            pay,
            self.dealer,
            honba,
            sticks,
            self.n,
            honba_ron=rules.honba_points,
            honba_tsumo=rules.honba_tsumo_points,
            split=split,
        )

    def _pao_base(self, w: WinOutcome, scored: ScoredWin | None = None) -> int:
        """What the liable seat answers for: the whole hand (Tenhou: a second yakuman in the hand
        included), or only the liable yakuman's units (``rules.pao_whole_hand`` off). ``scored``:
        the hand scored otherwise than ``w.scored`` (ura dora the log did not show)."""
        scored = scored or w.scored
        if self.rules.pao_whole_hand:
            return scored.base
        return 8000 * pao_units(scored, self.pao_kind[w.actor])

    def _settle_draw(self) -> RoundOutcome:
        reason = self.draw_reason or ev.EXHAUSTIVE
        if reason != ev.EXHAUSTIVE:
            return RoundOutcome(kind=reason, deltas=[0] * self.n, dealer_continues=True)
        tenpai = tuple(p.tenpai() for p in self.players)
        nagashi = tuple(self.rules.nagashi_mangan and p.nagashi for p in self.players)
        if any(nagashi):
            deltas = nagashi_deltas(nagashi, self.dealer, self.n == 3 and self.rules.absent_share == "split")
            kind_ = ev.NAGASHI_MANGAN
        else:
            deltas = draw_tenpai_deltas(tenpai, self.rules.noten_payment)
            kind_ = ev.EXHAUSTIVE
        return RoundOutcome(
            kind=kind_,
            deltas=deltas,
            tenpai=tenpai,
            nagashi=nagashi,
            dealer_continues=tenpai[self.dealer],
        )


#: the handler of each event type a round in play takes, the class's own functions: not a dict of
#: bound methods per round, which made every round a reference cycle (round -> dict -> method ->
#: round) that only the cycle collector freed, with its players, hands and rivers (~2k objects a
#: hanchan), so the collector ran and walked the young objects again and again (bench_speed: "walk
#: a log to every decision": the walk of 8 hanchan 1011M -> 1001M instructions, the collector's
#: CPU in 80 walked hanchan 72 -> 16 ms; "replay, 4 policies, one core" 4247M -> 4231M)
_HANDLERS: dict[type, Callable[[Round, Any, int], None]] = {
    ev.Draw: Round._draw,
    ev.Discard: Round._discard,
    ev.Riichi: Round._riichi,
    ev.RiichiAccepted: Round._riichi_accepted,
    ev.Chi: Round._chi,
    ev.Pon: Round._pon,
    ev.OpenKan: Round._open_kan,
    ev.ClosedKan: Round._closed_kan,
    ev.AddedKan: Round._added_kan,
    ev.Nukidora: Round._nukidora,
    ev.NewDora: Round._new_dora,
    ev.Win: Round._win,
    ev.RoundDraw: Round._round_draw,
}
_YAOCHUU = frozenset(TERMINALS_AND_HONORS)
#: the waits of a hand that waits on nothing
_NO_WAITS: frozenset[int] = frozenset()

#: the events of play inside a round (what ends it aside)
PLAY_EVENTS = frozenset(
    {
        ev.Draw,
        ev.Discard,
        ev.Riichi,
        ev.RiichiAccepted,
        ev.Chi,
        ev.Pon,
        ev.OpenKan,
        ev.ClosedKan,
        ev.AddedKan,
        ev.Nukidora,
        ev.NewDora,
    }
)
_ROUND_EVENTS = PLAY_EVENTS | {ev.Win, ev.RoundDraw}
#: the events of a round with an ``actor`` field, and those of them with a ``target`` too
_HAS_ACTOR = frozenset(t for t in _ROUND_EVENTS if "actor" in t.__dataclass_fields__)
_HAS_TARGET = frozenset(t for t in _HAS_ACTOR if "target" in t.__dataclass_fields__)


def _counts(tiles: tuple[int, ...] | list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[_KIND[t]] += 1  # (a table, not a call: every dealt hand)
    return c


def _is_orphans_counts(counts: list[int]) -> bool:
    return sum(1 for k in TERMINALS_AND_HONORS if counts[k]) == 13 and sum(counts) == 14
