"""What the readers share: canonical placement of kan dora, and the facts a format leaves out.

Formats differ in what they state. Tenhou XML shows the winner's hand and the tenpai hands at a
draw; tenhou.net/6 JSON and mjai do not. tenhou.net/6 has no dora events at all, and mjai dialects
place them differently. So every reader builds its events, then runs them through the helpers here,
which derive the missing facts *by the rules* from the events themselves. The same derivation for
every format is what makes the readers agree (tests compare XML and tenhou.net/6 readings of the
same games, where XML states the facts and tenhou.net/6 does not).

Canonical kan-dora placement (Tenhou rules): a closed kan reveals its indicator at once, right after
the ``ClosedKan`` event (before the replacement draw). An open or added kan reveals it when the kan
player next discards (``NewDora`` just before that ``Discard``, so a ron on that tile counts it) or
declares another kan (``NewDora`` just after that kan event, before that kan's own indicator). A
round that ends first (replacement-tile win, robbed kan) never reveals it.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjcli.errors import LogFormatError
from mjcli.riichi.engine.events import (
    EXHAUSTIVE,
    FOUR_RIICHI,
    NAGASHI_MANGAN,
    NINE_TERMINALS,
    TRIPLE_RON,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    NewDora,
    Nukidora,
    OpenKan,
    Pon,
    Riichi,
    RiichiAccepted,
    RoundDraw,
    StartRound,
    Win,
)
from mjcli.riichi.engine.table import round_label
from mjcli.riichi.engine.waits import waits
from mjcli.tiles import counts34, in_hand_order, kind, tile_name

# ---------------------------------------------------------------- tenpai
# The hand tests are the rules engine's own (mjcli.riichi.engine.waits): one definition of a complete hand.


def waits_of(concealed: Sequence[int]) -> list[int]:
    """Kinds that complete the concealed hand. A kind of which the concealed hand holds all four
    copies is left out (pure karaten: noten on Tenhou); one whose copies are in the player's own kan
    or pon stays (Tenhou scores such a hand tenpai at a draw)."""
    return sorted(waits(counts34(concealed)))


def is_tenpai(concealed: Sequence[int]) -> bool:
    return bool(waits_of(concealed))


# ---------------------------------------------------------------- table state


class Table:
    """The public and private state a reader needs to fill in derived facts: hands, melds, the last
    draw and discard. It checks that every tile moved was there, which catches corrupt logs."""

    def __init__(self, start: StartRound, where: str) -> None:
        self.where = where
        self.players = len(start.hands)
        self.dealer = start.dealer
        self.round_wind = start.round_wind
        self.hands: list[list[int]] = [list(h) for h in start.hands]
        self.melds: list[list[tuple[int, ...]]] = [[] for _ in range(self.players)]
        self.meld_sets: list[list[int]] = [[] for _ in range(self.players)]  # kinds of pons and kans
        self.discards: list[list[int]] = [[] for _ in range(self.players)]
        self.called_from: list[int] = [0] * self.players  # how many of each seat's discards were called
        self.riichi = [False] * self.players
        self.last: Event | None = None
        self.last_draw: Draw | None = None
        self.last_discard: Discard | None = None
        self.kans: list[int] = []  # actor of each kan, in order
        self.draws = 0
        self.any_call = False
        self.markers = [start.dora_marker]

    def _take(self, seat: int, tile: int) -> None:
        try:
            self.hands[seat].remove(tile)
        except ValueError:
            raise LogFormatError(
                f"{self.where}: seat {seat} plays {tile_name(tile)}, which is not in the hand"
            ) from None

    def apply(self, e: Event) -> None:
        # Events are final dataclasses (no subclasses): one type() test per branch instead of an
        # isinstance chain (union isinstance is slow); draws and discards, most events, come first.
        t = type(e)
        if t is Draw:
            if e.tile is not None:
                self.hands[e.actor].append(e.tile)
            self.last_draw = e
            self.draws += 1
            self.last = e
            return
        if t is Discard:
            self._take(e.actor, e.tile)
            self.discards[e.actor].append(e.tile)
            self.last_discard = e
            self.last = e
            return
        if t is Riichi:
            self.riichi[e.actor] = True
        elif t is Chi or t is Pon or t is OpenKan:
            for tile in e.consumed:  # (not ``t``: the event's type is tested again below)
                self._take(e.actor, tile)
            self.melds[e.actor].append(tuple(e.consumed) + (e.tile,))
            self.called_from[e.target] += 1
            self.any_call = True
            if t is not Chi:
                self.meld_sets[e.actor].append(kind(e.tile))
            if t is OpenKan:
                self.kans.append(e.actor)
        elif t is ClosedKan:
            for tile in e.consumed:
                self._take(e.actor, tile)
            self.melds[e.actor].append(tuple(e.consumed))
            self.meld_sets[e.actor].append(kind(e.consumed[0]))
            self.kans.append(e.actor)
            self.any_call = True
        elif t is AddedKan:
            self._take(e.actor, e.tile)
            for i, m in enumerate(self.melds[e.actor]):
                if len(m) == 3 and all(kind(t) == kind(e.tile) for t in m):
                    self.melds[e.actor][i] = m + (e.tile,)
                    break
            else:
                raise LogFormatError(f"{self.where}: seat {e.actor} adds a kan without a pon of it")
            self.kans.append(e.actor)
        elif t is Nukidora:
            self._take(e.actor, e.tile)
            self.melds[e.actor].append((e.tile,))
        elif t is NewDora:
            self.markers.append(e.marker)
        if t not in _NOT_LAST:
            self.last = e  # the last action: a second ron of a double ron still sees the discard/kan

    def tenpai(self, seat: int) -> bool:
        return is_tenpai(self.hands[seat])

    def win_tile(self, actor: int, target: int) -> int:
        """The winning tile: the last draw for a tsumo, else the tile just discarded or added to a kan
        (a robbed kan), or a closed kan's tile (thirteen orphans may rob a closed kan)."""
        last = self.last
        if actor == target:
            if self.last_draw is None or self.last_draw.actor != actor or self.last_draw.tile is None:
                raise LogFormatError(f"{self.where}: seat {actor} wins by tsumo without a draw")
            return self.last_draw.tile
        if isinstance(last, AddedKan) and last.actor == target:
            return last.tile
        if isinstance(last, ClosedKan) and last.actor == target:
            return last.consumed[0]
        if isinstance(last, Nukidora) and last.actor == target:
            return last.tile
        if self.last_discard is None or self.last_discard.actor != target:
            raise LogFormatError(f"{self.where}: seat {actor} wins on seat {target}'s tile, not discarded")
        return self.last_discard.tile

    def win_hand(self, actor: int, target: int, tile: int) -> tuple[int, ...]:
        hand = list(self.hands[actor])
        if actor != target:
            hand.append(tile)
        return sorted_tiles(hand)

    def dragon_and_wind_sets(self, seat: int, extra: int | None = None) -> list[int]:
        """Kinds of which the seat holds a set (meld or three concealed copies, counting ``extra``)."""
        counts = counts34(self.hands[seat] + ([extra] if extra is not None else []))
        return sorted(set(self.meld_sets[seat]) | {k for k in range(27, 34) if counts[k] >= 3})

    def nagashi(self) -> list[int]:
        """Seats that qualify for nagashi mangan: every discard a terminal or honour, none called."""
        out = []
        for s in range(self.players):
            d = self.discards[s]
            if d and self.called_from[s] == 0 and all(k in _ORPHANS for k in map(kind, d)):
                out.append(s)
        return out


# Events that are not "the last action" a later ron looks back at (Table.last).
_NOT_LAST = frozenset((Win, RoundDraw, NewDora, RiichiAccepted))
_ORPHANS = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


def sorted_tiles(tiles: Sequence[int]) -> tuple[int, ...]:
    """``tiles`` in hand order (``sort_key``), as a tuple."""
    # (``in_hand_order``: no key function called per tile; every dealt hand a reader reads, bench_speed
    # "walk a log to every decision")
    return tuple(in_hand_order(tiles))


def shown_hands(
    table: Table, reason: str, tenpai: Sequence[bool] | None
) -> tuple[tuple[int, ...] | None, ...]:
    """The hands a draw shows, as Tenhou shows them: tenpai hands at an exhaustive draw (also with
    nagashi mangan), the declarer's 14 tiles for nine terminals, every hand at four riichi, the three
    claimants' hands at a triple ron; none at four winds or four kans."""
    n = table.players
    show = [False] * n
    if reason in (EXHAUSTIVE, NAGASHI_MANGAN) and tenpai is not None:
        show = list(tenpai)
    elif reason == NINE_TERMINALS and table.last_draw is not None:
        show[table.last_draw.actor] = True
    elif reason == FOUR_RIICHI:
        show = [True] * n
    elif reason == TRIPLE_RON and table.last_discard is not None:
        show = [s != table.last_discard.actor for s in range(n)]
    return tuple(sorted_tiles(table.hands[s]) if show[s] else None for s in range(n))


# ---------------------------------------------------------------- kan dora


def kan_dora_points(events: Sequence[Event]) -> list[int]:
    """Where the canonical rule reveals kan dora in a round without ``NewDora`` events: for each
    reveal, the index of the event *before which* the ``NewDora`` goes (``len(events)`` = at the end).
    """
    points: list[int] = []
    pending = 0
    pending_actor = -1
    for i, e in enumerate(events):
        if isinstance(e, Discard) and pending and e.actor == pending_actor:
            points.extend([i] * pending)
            pending = 0
        elif isinstance(e, ClosedKan):
            if pending and e.actor == pending_actor:
                points.extend([i + 1] * pending)
                pending = 0
            points.append(i + 1)
        elif isinstance(e, AddedKan | OpenKan):
            if pending and e.actor == pending_actor:
                points.extend([i + 1] * pending)
                pending = 0
            pending += 1
            pending_actor = e.actor
    return points


def place_kan_dora(events: Sequence[Event], markers: Sequence[int] | None = None) -> list[Event]:
    """Put a round's kan-dora indicators where the canonical rule reveals them.

    ``events`` is one round (``StartRound`` to its end); existing ``NewDora`` events are taken out
    and, unless ``markers`` is given, their indicators are the ones placed. If the log reveals a
    different number of indicators than the rule (a log of other rules), its own positions are kept;
    indicators beyond the rule's reveal points (``markers`` given, no positions) go before the
    round's outcome.
    """
    if markers is None and NewDora not in map(type, events):
        # No indicator to place (a round without a kan, nearly every one): the round as it is,
        # found at C speed instead of two passes over its events (events are final classes, so the
        # type is the isinstance test; bench_speed: "walk a log to every decision")
        return list(events)
    body = [e for e in events if not isinstance(e, NewDora)]
    if markers is None:
        markers = [e.marker for e in events if isinstance(e, NewDora)]
        if not markers:
            return list(events)
        points = kan_dora_points(body)
        if len(points) != len(markers):
            return list(events)
    else:
        points = kan_dora_points(body)
    markers = list(markers)
    if len(markers) > len(points):
        end = next((i for i, e in enumerate(body) if isinstance(e, Win | RoundDraw)), len(body))
        points = points + [max(end, points[-1] if points else 0)] * (len(markers) - len(points))
    out: list[Event] = []
    j = 0
    for i, e in enumerate(body):
        while j < len(markers) and points[j] == i:
            out.append(NewDora(markers[j]))
            j += 1
        out.append(e)
    while j < len(markers):
        out.append(NewDora(markers[j]))
        j += 1
    return out


def draw_after_kan(prev: Event | None, actor: int) -> bool:
    """A draw right after the same player's kan or kita is a replacement (rinshan) draw."""
    # a set lookup on the exact type: cheaper than isinstance on a union, and runs for every draw
    return type(prev) in _KAN_LIKE and prev.actor == actor  # type: ignore[union-attr]


_KAN_LIKE = frozenset((ClosedKan, OpenKan, AddedKan, Nukidora))


def start_label(start: StartRound) -> str:
    """``E1-0``: the round a start opens, labelled as everywhere else (:func:`round_label`)."""
    return round_label(start.round_wind, start.kyoku, start.honba)
