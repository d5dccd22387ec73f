"""One hand of Hong Kong (or Red) mahjong: the rules engine as a state machine.

:class:`HandState` is built from a wall (:mod:`mjcli.hk.engine.wall`), deals, replaces the dealt
bonus tiles (from the back of the wall, in seat order from the dealer), and then stops at every
decision point: :meth:`~HandState.pending` says which seats decide and what each may do;
:meth:`~HandState.act` applies one seat's answer and runs the automatic steps (draws, bonus
replacements, the claim window) up to the next decision point or the end of the hand. Every step
is appended to :attr:`~HandState.events` as ``[seat, text]`` (``draw 5m``, ``replace F2``,
``discard 5m``, ``pung 5m``, ``pass``...): the hand's record, which replaying through a new state
reproduces exactly.

The rules (Hong Kong Old Style as this project specifies them; the README repeats them):

* 144 tiles (Red: 148, with jokers); dealer 14 tiles, others 13; a bonus tile (flower or season)
  is set aside at once and replaced from the back of the wall (so is a kong); no dead wall.
* On one's turn after a draw: win (self-drawn), a concealed kong (four in hand), an added kong
  (the fourth tile onto an own pung), or a discard. Right after a pung or chow only a discard. A
  kong needs a tile left in the wall for its replacement.
* On a discard, any player may win or pung (kong with three in hand), the next player may chow;
  a win beats a pung or kong, which beats a chow; of several winners the first in turn after the
  discarder takes it (head bump, "Only one player can go Mahjong (the first in turn to claim the
  tile in case of discard)", http://www.mahjongclub.com/hong-kong). Every player with an option
  answers (``pass`` too); the answers are recorded, then resolved.
* An added kong can be robbed: players who can win on its tile are asked; a robbed kong is a win
  on a discard by the player who added it. A concealed kong cannot be robbed.
* A win needs the rules' minimum faan (:meth:`HKScore.legal`); a hand below it is not a win, so no
  furiten is needed. A discarded joker can be claimed by nobody (Red).
* The wall exhausted (a draw is due and no tile is left) ends the hand in a draw; only the winner
  scores (:func:`mjcli.hk.rules.settlement`, which sums to zero).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress

from mjcli.errors import MjcliError
from mjcli.hk.engine.actions import AKONG, CKONG, DISCARD, KONG, MOVE_TEXT, PASS, PUNG, WIN, Move
from mjcli.hk.engine.view import SeatView
from mjcli.hk.engine.wall import Wall
from mjcli.hk.notation import JOKER, bonus_number, is_bonus, is_flower, tile_text
from mjcli.hk.rules import HKRules, settlement
from mjcli.hk.scoring import HKScore, WinContext, score_counts
from mjcli.hk.shape import is_complete, shanten
from mjcli.melds import Meld
from mjcli.tiles import NUM_KINDS

TURN, CLAIM, ROB, OVER = "turn", "claim", "rob", "over"

#: per tile, the chows it can complete: (the two hand tiles, the move), made once (asked at
#: every discard for the next seat)
_CHOWS: tuple[tuple[tuple[int, int, Move], ...], ...] = tuple(
    tuple(
        (t + a, t + b, Move("chow", t, (t + a, t + b)))
        for a, b in ((-2, -1), (-1, 1), (1, 2))
        if t < 27 and t % 9 + a >= 0 and t % 9 + b <= 8
    )
    for t in range(35)
)


class IllegalMove(MjcliError):
    """A seat answered something that is not among its legal moves."""


@dataclass(slots=True)
class HandResult:
    """How a hand ended. ``kind`` ``win`` or ``draw``; ``how`` ``self-drawn``, ``discard``,
    ``robbing a kong`` or ``exhausted``; ``discarder`` pays as such (the kong's player when robbed);
    ``deltas`` every seat's change (sums to zero)."""

    kind: str
    how: str
    winner: int | None = None
    discarder: int | None = None
    tile: int | None = None
    score: HKScore | None = None
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "how": self.how,
            "winner": self.winner,
            "from": self.discarder,
            "tile": None if self.tile is None else tile_text(self.tile),
            "faan": None if self.score is None else self.score.faan,
            "items": [] if self.score is None else [[i, f] for i, _, f in self.score.items],
            "deltas": list(self.deltas),
        }


class HandState:
    """One hand; see the module's docstring. Seats are 0-3 (turn order); seat winds follow the
    dealer (the dealer is East)."""

    def __init__(self, rules: HKRules, wall: Sequence[int], dealer: int, prevailing: int) -> None:
        self.rules = rules
        self.wall = Wall(wall)
        self.dealer = dealer
        self.prevailing = prevailing
        self.counts: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.jokers = [0, 0, 0, 0]
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.meld_counts: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.bonus: list[list[int]] = [[], [], [], []]
        self.rivers: list[list[int]] = [[], [], [], []]
        self.visible = [0] * NUM_KINDS
        self.events: list[list[object]] = []
        self.phase = TURN
        self.actor = dealer
        self.drawn: int | None = None
        self.after_call = False
        self.kong_chain = 0
        self.discards_made = 0
        self.interrupted = False
        self.offer: tuple[int, int] | None = None
        self.asked: dict[int, list[Move]] = {}
        self.answers: dict[int, Move] = {}
        self.result: HandResult | None = None
        self._tenpai: list[bool | None] = [None, None, None, None]
        self._turn_moves: list[Move] | None = None
        #: whether the drawn tile completed the hand, when _draw knows it (None: not known)
        self._drawn_completes: bool | None = None
        self.dealt = self.wall.deal(dealer)
        self._deal()

    # ------------------------------------------------------------ small helpers

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def _add(self, seat: int, tile: int) -> None:
        if tile == JOKER:
            self.jokers[seat] += 1
        else:
            self.counts[seat][tile] += 1
        self._tenpai[seat] = None

    def _remove(self, seat: int, tile: int, n: int = 1) -> None:
        if tile == JOKER:
            self.jokers[seat] -= n
        else:
            self.counts[seat][tile] -= n
        self._tenpai[seat] = None

    def _log(self, seat: int, text: str) -> None:
        self.events.append([seat, text])

    def tenpai(self, seat: int) -> bool:
        """Is the seat's hand between turns one tile from complete? (kept until the hand changes)"""
        t = self._tenpai[seat]
        if t is None:
            t = self._tenpai[seat] = shanten(self.counts[seat], self.jokers[seat], len(self.melds[seat])) == 0
        return t

    def completes(self, seat: int, tile: int) -> bool:
        """Would ``tile`` complete the seat's hand (between turns)?"""
        c = self.counts[seat]
        if not self.tenpai(seat) or c[tile] >= 4:
            return False
        c[tile] += 1
        try:
            return is_complete(c, self.jokers[seat], len(self.melds[seat]))
        finally:
            c[tile] -= 1

    # ------------------------------------------------------------ the deal and the draws

    def _deal(self) -> None:
        last: list[int | None] = [None] * 4
        pending = [0] * 4
        for s, tiles in enumerate(self.dealt):
            for t in tiles:
                if is_bonus(t):
                    self.bonus[s].append(t)
                    pending[s] += 1
                else:
                    self._add(s, t)
                    last[s] = t
        for i in range(4):
            s = (self.dealer + i) % 4
            while pending[s]:
                if self.wall.left == 0:
                    self._exhausted()
                    return
                t = self.wall.draw_back()
                self._log(s, "replace " + tile_text(t))
                pending[s] -= 1
                if is_bonus(t):
                    self.bonus[s].append(t)
                    pending[s] += 1
                else:
                    self._add(s, t)
                    last[s] = t
        self._start_turn(self.dealer, last[self.dealer])

    def _start_turn(
        self, seat: int, drawn: int | None, after_call: bool = False, completes: bool | None = None
    ) -> None:
        self.phase = TURN
        self.actor = seat
        self.drawn = drawn
        self.after_call = after_call
        self.offer = None
        self.asked = {}
        self.answers = {}
        self._turn_moves = None
        self._drawn_completes = completes

    def _draw(self, seat: int, back: bool) -> None:
        """Draw for ``seat`` (from the back for a replacement); bonus tiles are set aside and
        replaced; an empty wall ends the hand."""
        while True:
            if self.wall.left == 0:
                self._exhausted()
                return
            t = self.wall.draw_back() if back else self.wall.draw()
            self._log(seat, ("replace " if back else "draw ") + tile_text(t))
            if is_bonus(t):
                self.bonus[seat].append(t)
                back = True
                continue
            # Asked before the tile joins the hand: a hand that was not one tile from complete
            # cannot be complete with one more tile, and whether it was is mostly known already
            # (the claims on the last discard asked it), so most turns need no shanten count of
            # the 14 tiles for the self-drawn win. (A joker is left to the count.)
            completes = None if t == JOKER else self.completes(seat, t)
            self._add(seat, t)
            self._start_turn(seat, t, completes=completes)
            return

    def _exhausted(self) -> None:
        self.phase = OVER
        self.result = HandResult("draw", "exhausted")

    # ------------------------------------------------------------ scoring a win

    def context(self, seat: int, self_drawn: bool, robbing: bool = False) -> WinContext:
        """The win conditions of a win by ``seat`` now (self-drawn, or on the tile on offer)."""
        flowers = tuple(sorted(bonus_number(b) for b in self.bonus[seat] if is_flower(b)))
        seasons = tuple(sorted(bonus_number(b) for b in self.bonus[seat] if not is_flower(b)))
        first = self.discards_made == 0 and not self.interrupted
        earthly = (
            not self_drawn
            and not robbing
            and seat != self.dealer
            and self.discards_made == 1
            and not self.interrupted
            and self.offer is not None
            and self.offer[0] == self.dealer
        )
        return WinContext(
            self_drawn=self_drawn,
            seat_wind=self.seat_wind(seat),
            prevailing_wind=self.prevailing,
            flowers=flowers,
            seasons=seasons,
            last_tile=self.wall.left == 0 and not robbing,
            kong_replacement=self_drawn and self.kong_chain >= 1,
            double_kong_replacement=self_drawn and self.kong_chain >= 2,
            robbing_kong=robbing,
            heavenly=self_drawn and seat == self.dealer and first,
            earthly=earthly,
        )

    def win_score(
        self,
        seat: int,
        tile: int | None,
        self_drawn: bool,
        robbing: bool = False,
        complete: bool | None = None,
    ) -> HKScore | None:
        """The score of ``seat`` winning now (``tile`` added for a win on another's tile), or None
        when that is not a legal win (not complete, or below the minimum). ``complete``: whether
        the hand is complete, when the caller knows it (it spares a shanten count)."""
        counts = self.counts[seat]
        if tile is not None:
            counts = list(counts)
            counts[tile] += 1
        jokers, melds = self.jokers[seat], self.melds[seat]
        if complete is None:
            complete = is_complete(counts, jokers, len(melds))
        if not complete:
            return None
        score = score_counts(counts, jokers, melds, self.context(seat, self_drawn, robbing), self.rules)
        return score if score is not None and score.legal(self.rules.min_faan) else None

    # ------------------------------------------------------------ decision points

    def pending(self) -> dict[int, list[Move]]:
        """The seats that must answer now, each with its legal moves (empty when the hand is over)."""
        if self.phase == TURN:
            return {self.actor: self.turn_moves()}
        if self.phase in (CLAIM, ROB):
            return {s: m for s, m in self.asked.items() if s not in self.answers}
        return {}

    def turn_moves(self) -> list[Move]:
        if self._turn_moves is not None:
            return self._turn_moves
        s = self.actor
        c = self.counts[s]
        moves: list[Move] = []
        if not self.after_call:
            complete = self._drawn_completes
            if complete is not False and self.win_score(s, None, True, complete=complete) is not None:
                moves.append(WIN[self.drawn] if self.drawn is not None else Move("win"))
            if self.wall.left > 0:
                if 4 in c:
                    moves += [CKONG[k] for k, n in enumerate(c) if n == 4]
                # (a meld's tiles are kinds here: tiles[0] is its kind34, without the property's call)
                moves += [AKONG[m.tiles[0]] for m in self.melds[s] if m.kind == "pon" and c[m.tiles[0]]]
        moves += compress(DISCARD, c)  # a discard of every kind held, picked in C
        if self.jokers[s]:
            moves.append(DISCARD[JOKER])
        self._turn_moves = moves
        return moves

    def view(self, seat: int) -> SeatView:
        """What ``seat`` sees now (the engine's own lists, read-only: see :class:`SeatView`)."""
        turn = self.phase == TURN
        return SeatView(
            seat,
            (seat - self.dealer) % 4,
            self.prevailing,
            self.dealer,
            self.phase,
            self.counts[seat],
            self.jokers[seat],
            self.drawn if turn else None,
            self.after_call and turn,
            self.melds[seat],
            self.bonus[seat],
            self.melds,
            self.rivers,
            self.visible,
            self.meld_counts[seat],
            self.wall.left,
            self.offer,
            self.rules,
        )

    def act(self, seat: int, move: Move) -> None:
        """Apply one seat's answer (one of :meth:`pending`'s moves for it), then run on."""
        # pending().get(seat), without building the dict (act runs at every decision)
        if self.phase == TURN:
            legal = self.turn_moves() if seat == self.actor else None
        else:
            legal = None if seat in self.answers else self.asked.get(seat)
        if legal is None:
            raise IllegalMove(f"seat {seat} has nothing to decide now ({self.phase})")
        if move not in legal:
            shown = ", ".join(m.text() for m in legal)
            raise IllegalMove(f"seat {seat}: '{move.text()}' is not legal here (legal: {shown})")
        self._log(seat, MOVE_TEXT.get(move) or move.text())
        if self.phase == TURN:
            self._turn(seat, move)
        else:
            self.answers[seat] = move
            if len(self.answers) == len(self.asked):
                self._resolve()

    # ------------------------------------------------------------ one's own turn

    def _turn(self, seat: int, move: Move) -> None:
        k = move.kind
        if k == "discard":
            self._discard(seat, move.tile)
        elif k == "win":
            score = self.win_score(seat, None, True)
            assert score is not None
            self._win(seat, None, self.drawn, score, "self-drawn")
        elif k == "ckong":
            t = move.tile
            self._remove(seat, t, 4)
            self.melds[seat].append(Meld("ankan", (t, t, t, t)))
            self.meld_counts[seat][t] += 4
            self.visible[t] += 4
            self._kong_done(seat)
        elif k == "akong":
            self._offer_robbing(seat, move.tile)

    def _kong_done(self, seat: int) -> None:
        self.interrupted = True
        self.kong_chain += 1
        self._draw(seat, back=True)  # kong_chain stays until the next discard: the replacement win

    def _discard(self, seat: int, tile: int) -> None:
        self._remove(seat, tile)
        self.rivers[seat].append(tile)
        if tile != JOKER:
            self.visible[tile] += 1
        self.discards_made += 1
        self.kong_chain = 0
        self.offer = (seat, tile)
        self.asked = {}
        self.answers = {}
        if tile != JOKER:
            for i in (1, 2, 3):
                other = (seat + i) % 4
                # most seats can do nothing with the tile (no pair of it, not the next seat's chow,
                # not one tile from complete): known without building their moves
                if i != 1 and self.counts[other][tile] < 2 and not self.tenpai(other):
                    continue
                moves = self._claims(other, tile, next_player=i == 1)
                if moves:
                    self.asked[other] = moves
        if self.asked:
            self.phase = CLAIM
        else:
            self._draw((seat + 1) % 4, back=False)

    def _claims(self, seat: int, tile: int, next_player: bool) -> list[Move]:
        c = self.counts[seat]
        moves: list[Move] = []
        if self.completes(seat, tile) and self.win_score(seat, tile, False, complete=True) is not None:
            moves.append(WIN[tile])
        # The discard after the wall's last tile is the hand's last: it is claimed for a win only
        # (mahjongclub.com/hong-kong, "Last Tile Draw/Discard: winning on the very last tile or the
        # following discard"; a pung or chow of it would make a second last discard, and a kong
        # has no replacement to draw). A reviewer found simulated hands going on after it.
        if self.wall.left == 0:
            if moves:
                moves.append(PASS)
            return moves
        if c[tile] == 3:
            moves.append(KONG[tile])
        if c[tile] >= 2:
            moves.append(PUNG[tile])
        if next_player:
            for a, b, chow in _CHOWS[tile]:
                if c[a] and c[b]:
                    moves.append(chow)
        if moves:
            moves.append(PASS)
        return moves

    def _offer_robbing(self, seat: int, tile: int) -> None:
        self.offer = (seat, tile)
        self.asked = {}
        self.answers = {}
        for i in (1, 2, 3):
            other = (seat + i) % 4
            if (
                self.completes(other, tile)
                and self.win_score(other, tile, False, True, complete=True) is not None
            ):
                self.asked[other] = [WIN[tile], PASS]
        if self.asked:
            self.phase = ROB
        else:
            self._added_kong(seat, tile)

    def _added_kong(self, seat: int, tile: int) -> None:
        self._remove(seat, tile)
        melds = self.melds[seat]
        i = next(n for n, m in enumerate(melds) if m.kind == "pon" and m.kind34 == tile)
        old = melds[i]
        melds[i] = Meld("kakan", (tile,) * 4, old.called, old.from_seat)
        self.meld_counts[seat][tile] += 1
        self.visible[tile] += 1
        self._kong_done(seat)

    # ------------------------------------------------------------ answers to a tile on offer

    def _resolve(self) -> None:
        assert self.offer is not None
        giver, tile = self.offer
        order = [(giver + i) % 4 for i in (1, 2, 3)]
        answered = [(s, self.answers[s]) for s in order if s in self.answers]
        robbing = self.phase == ROB
        for s, m in answered:
            if m.kind == "win":
                score = self.win_score(s, tile, False, robbing=robbing)
                assert score is not None
                if robbing:
                    self._remove(giver, tile)
                else:
                    self.rivers[giver].pop()
                self._win(s, giver, tile, score, "robbing a kong" if robbing else "discard")
                return
        if robbing:
            self._added_kong(giver, tile)
            return
        for kind in ("kong", "pung", "chow"):
            for s, m in answered:
                if m.kind == kind:
                    self._call(s, giver, m)
                    return
        self._draw((giver + 1) % 4, back=False)

    def _call(self, seat: int, giver: int, move: Move) -> None:
        t = move.tile
        self.rivers[giver].pop()
        self.interrupted = True
        if move.kind == "chow":
            a, b = move.uses
            self._remove(seat, a)
            self._remove(seat, b)
            self.melds[seat].append(Meld("chi", tuple(sorted((t, a, b))), t, giver))
            for k in (t, a, b):
                self.meld_counts[seat][k] += 1
            self.visible[a] += 1
            self.visible[b] += 1
            self._start_turn(seat, None, after_call=True)
        elif move.kind == "pung":
            self._remove(seat, t, 2)
            self.melds[seat].append(Meld("pon", (t, t, t), t, giver))
            self.meld_counts[seat][t] += 3
            self.visible[t] += 2
            self._start_turn(seat, None, after_call=True)
        else:
            self._remove(seat, t, 3)
            self.melds[seat].append(Meld("kan", (t, t, t, t), t, giver))
            self.meld_counts[seat][t] += 4
            self.visible[t] += 3
            self.kong_chain = 0
            self._kong_done(seat)

    def _win(self, seat: int, giver: int | None, tile: int | None, score: HKScore, how: str) -> None:
        if tile is not None and giver is not None:
            self._add(seat, tile)
        deltas = settlement(score.faan, seat, giver, self.rules.scheme)
        self.phase = OVER
        self.result = HandResult("win", how, seat, giver, tile, score, deltas)
