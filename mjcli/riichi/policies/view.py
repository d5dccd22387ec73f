"""What a policy sees and what it answers: :class:`PlayerView`, :class:`Action`, :class:`DecisionPoint`.

A view holds exactly what one player could see at the table: their own concealed tiles (and the
tile just drawn), every river and open meld, the dora indicators, scores, winds, riichi
declarations and the number of tiles left in the live wall. It never holds another player's
concealed tiles or the wall's contents, so a policy cannot cheat by construction; the one exception
is a table rule, not a leak: a seat that plays with its hand shown (seed 001's "패를 모두 공개한 채로
게임을 진행한다") shows it to everyone, in :attr:`PlayerView.shown_hands`.

Everything is plain frozen dataclasses of ints and tuples so that the engine (or a test) can
build a view in one expression, and so that equal views compare equal (policies are deterministic
functions of the view and the legal actions). A view works out its concealed and visible counts once,
on first use, outside its fields (so they take no part in equality, hash or repr).

Seats are 0..3; winds are 0..3 = East South West North; tiles are ``mjcli.tiles`` codes (0..36,
red fives 34-36). A three-player view has three seats in every per-seat field (``scores`` gives
the number: :attr:`PlayerView.players`) and ``kita``, the Norths each seat has set aside.
"""

from __future__ import annotations

import operator
from collections import namedtuple
from collections.abc import Iterable, Sequence
from dataclasses import FrozenInstanceError, dataclass
from typing import Any

from mjcli.analysis import SANMA_ABSENT
from mjcli.melds import Meld
from mjcli.tiles import KIND_OF, NORTH, NUM_KINDS, NUM_TILES, counts34, tile_name, to_mpsz

#: action kinds, in the order they are listed to a person
ACTION_KINDS = (
    "tsumo",
    "ron",
    "riichi",
    "discard",
    "closed_kan",
    "added_kan",
    "nukidora",
    "open_kan",
    "pon",
    "chi",
    "nine_terminals",
    "pass",
)
#: actions answering another player's discard (or added kan, for a robbing ron)
REACTION_KINDS = frozenset({"ron", "chi", "pon", "open_kan", "pass"})
#: actions taking another player's discard into a meld
CALL_KINDS = frozenset({"chi", "pon", "open_kan"})


#: :func:`~mjcli.tiles.tile_name` of every tile code (0..36), a table: the policies name a tile in the
#: reason of nearly every answer (a lookup, not a call; with unseen_counts made from the bytes,
#: 4134 -> 4105 M instructions for 8 hanchan, callgrind; bench_speed "replay, 4 policies, one core")
TILE_NAMES: tuple[str, ...] = tuple(tile_name(t) for t in range(NUM_TILES))

_new_object = object.__new__
_add = operator.add
#: at a kind's seen + own copies, the copies left unseen: max(0, 4 - sum)
_LEFT_OF_SUM = bytes(max(0, 4 - n) for n in range(256))
_set_attribute = object.__setattr__  # (a frozen dataclass refuses its own __setattr__)
_new_tuple = tuple.__new__
_tuple_eq = tuple.__eq__
_tuple_ne = tuple.__ne__


class _once_per_view:
    """``functools.cached_property`` without its lock: Python 3.11's takes a lock on every first
    access (~2 us), which a replay pays for every fact of every view (five a decision point: ~7 ms a
    hanchan of bench_speed's replay row). A fact is a pure function of a frozen view, so two threads
    working it out at once would only store the same value twice (Python 3.12 dropped the lock)."""

    def __init__(self, func: Any) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


@dataclass(frozen=True, slots=True)
class RiverTile:
    """One discard as it lies in a river."""

    tile: int
    tsumogiri: bool = False  # the tile just drawn was discarded
    called: bool = False  # taken by another player: it now lies in their meld, not here
    riichi: bool = False  # the discard that declared riichi (turned sideways)


def shown_counts(
    rivers: Sequence[Sequence[RiverTile]], melds: Sequence[Sequence[Meld]], indicators: Iterable[int]
) -> list[int]:
    """The copies of each kind shown on the table: river tiles not called away, the melds' tiles
    and the dora indicators (kinds through a table: asked at every decision point)."""
    counts = [0] * NUM_KINDS
    kind_of = KIND_OF
    for river in rivers:
        for r in river:
            if not r.called:
                counts[kind_of[r.tile]] += 1
    for seat_melds in melds:
        for m in seat_melds:
            for t in m.tiles:
                counts[kind_of[t]] += 1
    for t in indicators:
        counts[kind_of[t]] += 1
    return counts


def visible_from_shown(
    shown: Sequence[int],
    rivers: Sequence[Sequence[RiverTile]],
    melds: Sequence[Sequence[Meld]],
    offered: int | None,
    by: int | None,
    kita: Sequence[int],
    players: int,
    most: int | None = None,
) -> tuple[int, ...]:
    """A view's visible counts from the table's shown copies (:func:`shown_counts`, not changed):
    plus the Norths set aside, every kind a three-player set lacks as four, and an offered tile
    shown nowhere else; at most four a kind. A four-player view's counts are ``shown`` as they are,
    with no copy (the view builder keeps them up to date; bench_speed: "replay, 4 policies, one
    core"). ``most``: the largest of ``shown``, when the caller keeps it."""
    hidden = False  # an offered tile shown nowhere else
    if offered is not None and by is not None:
        # the offered tile is usually already shown: last in its river, or in an added kan
        river = rivers[by]
        in_river = bool(river) and river[-1].tile == offered and not river[-1].called
        set_aside = KIND_OF[offered] == NORTH and kita and kita[by]  # a North set aside
        hidden = not (in_river or set_aside or any(offered in m.tiles for m in melds[by]))
    counts = shown
    if kita or players == 3 or hidden:
        counts = list(shown)
        if kita:
            counts[NORTH] += sum(kita)
        if players == 3:
            for k in SANMA_ABSENT:
                counts[k] = 4
        if hidden:
            counts[KIND_OF[offered]] += 1  # type: ignore[index]
        most = None
    # (the caller's largest count read, not the 34 counts compared one by one: a view's counts as
    # they are at every decision point; bench_speed "walk a log to every decision", "self-play")
    if (max(counts) if most is None else most) > 4:
        return tuple([c if c < 4 else 4 for c in counts])
    return tuple(counts)


def copies_left(own: Sequence[int], seen: Sequence[int]) -> bytes:
    """Per kind, the copies neither in ``own`` nor in ``seen`` (34 counts each): ``max(0, 4 - own
    - seen)``, as bytes. Worked out in C: the two counts added by ``map``, the sums' bytes turned
    into what is left by one table (a Python step a kind costs ~3 us a hand; bench_speed:
    "replay, 4 policies, one core"). For counts of 0..4 apiece (or any whose sums fit a byte);
    others (a negative count) go the long way. (A caller reading many items makes it a list:
    a list's ``__getitem__`` is quicker than a bytes'.)"""
    try:
        return bytes(map(_add, own, seen)).translate(_LEFT_OF_SUM)
    except ValueError:
        return bytes([u if (u := 4 - n - s) > 0 else 0 for n, s in zip(own, seen, strict=True)])


def _unordered(op: str, a: object, b: object) -> bool:
    """An ordering of an Action: none. TypeError, as for the dataclass it was, also against a plain
    tuple (whose own comparison would otherwise answer)."""
    if isinstance(b, tuple) and not isinstance(b, Action):
        raise TypeError(f"'{op}' not supported between instances of {type(a).__name__!r} and 'tuple'")
    return NotImplemented


#: a named tuple of an Action's three fields, for its C-level field readers only (Action itself is
#: no named tuple: it has none of their extras, ``_fields``, ``_replace``..., and takes a reason)
_ActionFields = namedtuple("_ActionFields", ("kind", "tile", "consumed"))


class Action(tuple):  # (no __slots__: it keeps a reason given in a __dict__)
    """A decision. ``reason`` (the rule of the policy's algorithm that decided) is not part of equality.

    * ``discard``/``riichi``: ``tile`` is the discarded tile (riichi = declare and discard it);
    * ``tsumo``: ``tile`` is the drawn tile; ``ron``: the tile won on;
    * ``chi``/``pon``/``open_kan``: ``tile`` is the called tile, ``consumed`` the tiles from the hand;
    * ``closed_kan``: ``consumed`` the four tiles (``tile`` one of them);
      ``added_kan``: ``tile`` the added tile, ``consumed`` the three tiles of the pon;
    * ``nukidora`` (three-player): ``tile`` is the North set aside;
    * ``nine_terminals`` (abort) and ``pass`` carry no tile.

    Behaves as the frozen dataclass ``Action(kind, tile=None, consumed=(), reason="")`` it was:
    equal (``==``) only to an Action of the same kind, tile and consumed tiles, whatever the
    reasons; hashed as ``hash((kind, tile, consumed))``; not ordered (``<`` raises); immutable;
    the dataclass's repr. Why it is built on a tuple of its three fields: its hash is then the
    tuple's own, computed in C, where a dataclass's ``__hash__`` is a Python call, and every legal
    action is hashed into its seat's :class:`~mjcli.riichi.policies.bridge.Legal` at every
    decision point, the policies' answers looked up there (5% fewer instructions in a walked log
    and in a self-play game, callgrind; bench_speed: "walk a log to every decision", "self-play",
    "replay, 4 policies"). ``reason`` lives outside the tuple (set only when given).
    """

    kind: str = _ActionFields.kind  # type: ignore[assignment]
    tile: int | None = _ActionFields.tile  # type: ignore[assignment]
    consumed: tuple[int, ...] = _ActionFields.consumed  # type: ignore[assignment]
    reason = ""  # (the class's default: an instance holds its own only when one is given)

    def __new__(
        cls, kind: str, tile: int | None = None, consumed: tuple[int, ...] = (), reason: str = ""
    ) -> Action:
        self = _new_tuple(cls, (kind, tile, consumed))
        if reason:
            _set_attribute(self, "reason", reason)
        return self

    # Equal only to an Action, as the dataclass: never to a plain tuple of the same fields (False,
    # not NotImplemented, else the tuple's own comparison would answer)
    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return _tuple_eq(self, other)
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return _tuple_ne(self, other)
        return True if isinstance(other, tuple) else NotImplemented

    __hash__ = tuple.__hash__  # the tuple's (C) hash of (kind, tile, consumed)

    # Not ordered, as the dataclass (the tuple's order would compare actions by their kind's name).
    def __lt__(self, other: object) -> bool:
        return _unordered("<", self, other)

    def __le__(self, other: object) -> bool:
        return _unordered("<=", self, other)

    def __gt__(self, other: object) -> bool:
        return _unordered(">", self, other)

    def __ge__(self, other: object) -> bool:
        return _unordered(">=", self, other)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return (
            f"Action(kind={self.kind!r}, tile={self.tile!r}, consumed={self.consumed!r}, "
            f"reason={self.reason!r})"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (Action, (self.kind, self.tile, self.consumed, self.reason))

    def because(self, reason: str) -> Action:
        """The same action with the deciding rule attached."""
        # the constructor, not dataclasses.replace: every policy answer passes here, and replace
        # (which inspects the fields each time) cost 3% of a replay; and the constructor's work
        # inline, the tuple copied whole (no call of __new__ with the three fields read one by one:
        # bench_speed "replay, 4 policies, one core", "self-play")
        a = _new_tuple(Action, self)
        if reason:
            _set_attribute(a, "reason", reason)
        return a

    def label(self) -> str:
        """Short human form: ``discard 8m``, ``riichi 9s``, ``pon 5z (55z)``, ``pass``."""
        if self.tile is None:
            return self.kind.replace("_", " ")
        text = f"{self.kind.replace('_', ' ')} {tile_name(self.tile)}"
        if self.consumed and self.kind in CALL_KINDS:
            text += f" ({to_mpsz(self.consumed)})"
        return text

    def to_dict(self) -> dict[str, object]:
        return {
            "action": self.kind,
            "tile": None if self.tile is None else tile_name(self.tile),
            "consumed": to_mpsz(self.consumed) if self.consumed else None,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class PlayerView:
    """What seat ``seat`` sees at one decision point.

    ``hand`` is the concealed hand without the drawn tile; ``drawn`` is the tile just drawn (for a
    decision after a draw; ``None`` after a call or when reacting to another player's tile).
    ``melds[s]`` and ``rivers[s]`` are per seat, own seat included. For a reaction,
    ``offered``/``offered_by`` are the tile and the seat that discarded it (or added it to a kan).
    ``shown_hands`` is empty, or per seat the concealed tiles (its drawn tile included, in hand
    order) of each other seat that plays with its hand shown, ``None`` for the others and for the
    player's own seat. They are not in :meth:`visible_counts` (the table's public tiles: rivers,
    melds, indicators); a policy that counts them says so.
    """

    seat: int
    hand: tuple[int, ...]
    drawn: int | None = None
    melds: tuple[tuple[Meld, ...], ...] = ((), (), (), ())
    rivers: tuple[tuple[RiverTile, ...], ...] = ((), (), (), ())
    dora_indicators: tuple[int, ...] = ()
    scores: tuple[int, ...] = (25000, 25000, 25000, 25000)
    round_wind: int = 0
    dealer: int = 0
    honba: int = 0
    sticks: int = 0
    riichi: tuple[bool, ...] = (False, False, False, False)
    wall_left: int = 70  # tiles left to draw in the live wall
    offered: int | None = None
    offered_by: int | None = None
    first_turn: bool = False  # no call yet this round and this is the player's first draw
    shown_hands: tuple[tuple[int, ...] | None, ...] = ()
    kita: tuple[int, ...] = ()  # three-player: Norths each seat has set aside (empty in four-player)

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> PlayerView:
        """The view whose fields are ``fields`` (a new dict naming every field, which the view keeps).

        The same view as ``PlayerView(**fields)`` without the frozen dataclass's ``__init__``, which
        sets its 18 fields one ``object.__setattr__`` call at a time: ~5.5 us a view against ~0.5
        here, at every decision point of a walk, a replay and a self-play game (bench_speed: "walk a
        log to every decision", "self-play", "replay, 4 policies"). The caller owns ``fields``:
        a dict with exactly the field names (``tests/test_bridge_views.py`` checks the builder's
        views against the constructor's), made for this view and not used again.
        """
        view = _new_object(cls)
        _set_attribute(view, "__dict__", fields)
        return view

    # ------------------------------------------------------------ own hand

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def seat_wind(self) -> int:
        return (self.seat - self.dealer) % self.players

    @property
    def concealed(self) -> tuple[int, ...]:
        """Own concealed tiles, the drawn tile included (last)."""
        return self.hand if self.drawn is None else (*self.hand, self.drawn)

    @property
    def own_melds(self) -> tuple[Meld, ...]:
        return self.melds[self.seat]

    @property
    def is_closed(self) -> bool:
        """No opened meld (a concealed kan keeps the hand closed)."""
        return not any(m.opened for m in self.own_melds)

    @property
    def in_riichi(self) -> bool:
        return self.riichi[self.seat]

    def concealed_counts(self) -> list[int]:
        """34 counts of own concealed tiles, the drawn tile included (a new list each call)."""
        return list(self.concealed_tuple)

    @_once_per_view
    def concealed_tuple(self) -> tuple[int, ...]:
        """:meth:`concealed_counts` as the view's own tuple, for a caller that only reads it (the
        policies: no copy per question; bench_speed "replay, 4 policies, one core")."""
        # Worked out once per view (a view is frozen, so the counts hold): replay puts one view to
        # every policy and then works out its own figures, each asking for the same counts.
        # A cached property lives in the instance's __dict__, not in the fields: equality, hash
        # and repr do not see it.
        return tuple(counts34(self.concealed))

    @_once_per_view
    def concealed_bytes(self) -> bytes:
        """The 34 counts of own concealed tiles as bytes: the key of every memo of
        :class:`~mjcli.riichi.policies.hand_math.HandMath`. Made once per view (34 ints made bytes
        cost more than a memo's lookup, and replay's hand batch, the policies and the rows' figures
        all ask about the view's hand: bench_speed "replay, 4 policies, one core"); outside the
        fields, as the counts."""
        return bytes(self.concealed_tuple)

    @_once_per_view
    def memo(self) -> dict[object, object]:
        """What the policies work out from this view, kept for the next policy asked at it.

        Replay and simulate put one view to every policy of the decision, and some of them work out
        the same facts (the two readings of one seed, the same counts): the first to ask stores the
        result here, keyed by a tuple naming the function first, then what else the result depends
        on (the candidate actions...); the view itself is the rest of the key. A value is shared:
        never change it. Outside the fields, like the counts: no part in equality, hash or repr.
        """
        return {}

    # ------------------------------------------------------------ the table

    def visible_counts(self) -> list[int]:
        """34 counts of every tile this player can see outside their own concealed hand.

        Rivers (tiles called away are counted once, in the meld that took them), every meld of
        every seat (own included), the Norths set aside (three-player), the dora indicators, and the
        offered tile when it is shown nowhere else (a view built by hand may leave it out of the
        rivers). Capped at 4 per kind; a new list each call. In a three-player view the kinds not
        in the set (2m-8m) count 4: none of them can ever be drawn.
        """
        return list(self.visible_tuple)

    @_once_per_view
    def visible_tuple(self) -> tuple[int, ...]:
        """:meth:`visible_counts` as the view's own tuple, for a caller that only reads it."""
        # once per view, as concealed_tuple; kinds through a table (a view is asked for its
        # counts at every decision point)
        shown = shown_counts(self.rivers, self.melds, self.dora_indicators)
        return visible_from_shown(
            shown, self.rivers, self.melds, self.offered, self.offered_by, self.kita, self.players
        )

    def unseen_counts(self) -> list[int]:
        """34 counts of the copies this player has not seen anywhere (wall or other hands)."""
        # from the bytes made once per view (no tuple of them kept besides: replay, 4 policies, one core)
        return list(self.unseen_bytes)

    @_once_per_view
    def unseen_bytes(self) -> bytes:
        """:meth:`unseen_counts` as bytes (replay's hand batch reads them: see
        :meth:`~mjcli.riichi.policies.hand_math.HandMath.prepare`). Made once per view, outside
        the fields, as the counts."""
        # max(0, 4 - seen - own) of each kind, in C: the two counts' bytes added as two big
        # integers (no carry: the visible counts are capped at 4, a hand holds fewer than 128 of a
        # kind, so each sum fits its byte) and turned into what is left by one table, with the
        # hand's bytes the view has made already (a third of copies_left's cost; bench_speed:
        # "replay, 4 policies, one core")
        own = self.concealed_bytes
        total = int.from_bytes(own) + int.from_bytes(bytes(self.visible_tuple))
        return total.to_bytes(len(own)).translate(_LEFT_OF_SUM)

    def yakuhai_kinds(self) -> frozenset[int]:
        """Dragons, the round wind and own seat wind: the kinds whose triplet is a yaku."""
        return self._yakuhai_kinds

    @_once_per_view
    def _yakuhai_kinds(self) -> frozenset[int]:
        # read from a table of the 16 sets (no set built per view; replay, 4 policies, one core)
        r, s = self.round_wind, self.seat_wind
        return _YAKUHAI_KINDS[r][s] if 0 <= r < 4 else _yakuhai_set(r, s)


def _yakuhai_set(round_wind: int, seat_wind: int) -> frozenset[int]:
    """The three dragons and the round's and the seat's winds, as kinds."""
    return frozenset({31, 32, 33, 27 + round_wind, 27 + seat_wind})


#: :meth:`PlayerView.yakuhai_kinds` by round wind, then seat wind
_YAKUHAI_KINDS = tuple(tuple(_yakuhai_set(r, s) for s in range(4)) for r in range(4))


@dataclass(frozen=True)
class DecisionPoint:
    """One question the engine asks a player: the view and every legal answer."""

    view: PlayerView
    legal: tuple[Action, ...]

    @property
    def is_reaction(self) -> bool:
        return bool(self.legal) and all(a.kind in REACTION_KINDS for a in self.legal)


# ---------------------------------------------------------------- helpers for policies


def find(legal: Sequence[Action], kind_name: str) -> list[Action]:
    """The legal actions of one kind, in the order given."""
    return [a for a in legal if a.kind == kind_name]


def first(legal: Sequence[Action], kind_name: str) -> Action | None:
    for a in legal:
        if a.kind == kind_name:
            return a
    return None


def action_text(a: Action) -> str:
    """One line per action, first word its kind: ``discard 5m``, ``riichi 0p``, ``pon 7z 77z``,
    ``chi 3m 45m``, ``closed_kan 5m 0555m``, ``added_kan 5m 055m``, ``tsumo 2p``, ``pass``."""
    t = a.tile
    if t is None:
        return a.kind
    # (a tile's name read from the table: no call of tile_name for replay's every answer)
    name = TILE_NAMES[t] if 0 <= t < NUM_TILES else tile_name(t)
    if a.consumed:
        return f"{a.kind} {name} {to_mpsz(a.consumed)}"
    return f"{a.kind} {name}"
