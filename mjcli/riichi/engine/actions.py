"""Decision points: what a player may do now, and what the table must do when nobody acts.

The engine's form of an action is a :data:`Move`: the tuple of events it produces (``()``,
:data:`PASS_MOVE`, is a pass), so choosing a move and feeding its events to
:meth:`Round.apply <mjcli.riichi.engine.state.Round.apply>` is all a driver (replay, simulate) needs.
Draws and dora indicators come from the wall, not from a decision: :func:`table_step` says which
one is due (or which automatic event: riichi accepted, an abortive or exhaustive draw).

After a draw: discard any tile (kuikae excepted) / riichi and discard / tsumo / closed or added kan
/ nukidora (three-player: set a North aside) / nine-terminals abort. On a discard: ron / pon / open
kan / chi (not in three-player) / pass. On an added kan: ron (chankan) / pass; on a closed kan only
thirteen orphans may rob it; on a North set aside, a ron with any hand that has a yaku / pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from mjcli.analysis import shanten as _shanten
from mjcli.errors import MjcliError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.state import KAN, REACT, TURN, Player, Round
from mjcli.riichi.engine.waits import is_complete, is_tenpai, waits
from mjcli.tiles import NUM_TILES, TERMINALS_AND_HONORS, is_honor, kind

#: ``tiles.kind`` as a table (the reactions read it for every tile of a hand)
_KIND = tuple(kind(t) for t in range(NUM_TILES))

#: an action as the engine takes it: the events it produces, in order (the policies' form is
#: :class:`mjcli.riichi.policies.view.Action`; :mod:`mjcli.riichi.policies.bridge` translates)
Move = tuple[object, ...]
#: the pass: no event
PASS_MOVE: Move = ()


def _distinct(tiles: list[int]) -> list[int]:
    return sorted(set(tiles))


def can_win(rnd: Round, seat: int, tile: int, tsumo: bool, chankan: bool = False) -> bool:
    """Can a complete hand win (callers have checked that ``tile`` completes it): it needs a yaku.

    A hand in riichi has one (riichi), and so does a closed hand won by tsumo (menzen tsumo): those
    are not scored here, the others are (scored for real: a complete hand without yaku cannot win).
    Scoring is the library's full hand evaluation, the dearest call of a turn's legal actions, and
    the win that follows is scored once by the engine anyway (bench_speed: "walk a log to every
    decision", "self-play").
    """
    p = rnd.players[seat]
    if p.riichi or (tsumo and not chankan and p.closed):
        return True
    try:
        rnd.score_for(seat, tile, tsumo, chankan)
    except MjcliError:
        return False
    return True


def legal_actions(rnd: Round, seat: int) -> list[Move]:
    """Every move ``seat`` may make now. On a discard every other seat has at least ``[PASS_MOVE]``;
    empty when the seat has nothing to decide (not its turn, or the fourth identical first wind)."""
    if rnd.phase == TURN and seat == rnd.current:
        return turn_moves(rnd, seat)
    if rnd.phase == REACT and seat != rnd.current and rnd.last_tile is not None:
        # (the call only once four first discards are down, as in ``Round._leave_react``: every seat
        # on every discard passes here; bench_speed "self-play")
        if len(rnd.first_winds) == 4 and rnd.four_winds_pending():
            return []  # the fourth identical wind aborts the round at once (as Tenhou does)
        return _react_actions(rnd, seat)
    if rnd.phase == KAN and seat != rnd.kan_actor and rnd.kan_kind in ("kakan", "ankan", "kita"):
        return _chankan_actions(rnd, seat)
    return []


#: every discard action, [seat][tsumogiri][tile]: events are immutable, and a turn lists a dozen
#: (one table per seat and mark, indexed by the tile once in the comprehensions that read them)
DISCARD_MOVES: tuple[tuple[tuple[Move, ...], tuple[Move, ...]], ...] = tuple(
    (
        tuple((ev.Discard(s, t, False),) for t in range(NUM_TILES)),
        tuple((ev.Discard(s, t, True),) for t in range(NUM_TILES)),
    )
    for s in range(4)
)
#: every riichi action, [seat][tsumogiri][tile]: the declaration and its discard (one object a move,
#: not a ``Riichi`` event built per tile on every turn that may declare)
RIICHI_MOVES: tuple[tuple[tuple[Move, ...], tuple[Move, ...]], ...] = tuple(
    tuple(tuple((ev.Riichi(s), d[0]) for d in table) for table in seat)
    for s, seat in enumerate(DISCARD_MOVES)
)


def turn_options(rnd: Round, seat: int) -> tuple[list[Move], list[int], list[int], bool]:
    """What the seat on turn may do, in parts (its moves: :func:`turn_moves`):

    * the rarer moves, in order: a tsumo, nine terminals, kans, nukidora;
    * the tiles it may discard, one per tile code, in code order (kuikae kinds left out; in riichi
      only the tile drawn);
    * those of them whose discard may come with a riichi declaration, in the same order;
    * whether the drawn tile's code may be discarded twice over: as the drawn copy (tsumogiri) and
      as a copy from the hand.

    The parts, not the moves: the policy bridge makes its actions from them with no loop over
    moves (``bridge.legal_listed``; bench_speed: "walk a log to every decision", "self-play").
    """
    p = rnd.players[seat]
    out: list[Move] = []
    drawn = rnd.drawn
    if drawn is not None:
        # (``Player.complete_with`` inline: the drawn kind among the memoised waits, every turn;
        # bench_speed "self-play, first-legal policy")
        w = p._waits
        if (_KIND[drawn] in w if w is not None else is_complete(p.counts)) and can_win(
            rnd, seat, drawn, tsumo=True
        ):
            out.append((ev.Win(seat, seat, drawn),))
        if (
            rnd.rules.abortive_draws
            and p.discards == 0
            and not rnd.interrupted
            and sum(1 for k in TERMINALS_AND_HONORS if p.counts[k]) >= 9
        ):
            out.append((ev.RoundDraw(ev.NINE_TERMINALS),))
        # (a kan needs four of a kind in hand or a pon to add to: most turns have neither, and the
        # kan scan is not entered; bench_speed: "self-play". The four looked for in a bytearray of
        # the counts, at C speed, not by 34 comparisons of Python ints: "walk a log to every
        # decision")
        if (p.melds or 4 in bytearray(p.counts)) and rnd.kan_total < 4 and rnd.wall > 0:
            out.extend(_kan_actions(rnd, seat))
        north = rnd.variant.nukidora
        if north is not None and rnd.wall > 0 and p.counts[north]:
            if not p.riichi:
                out.append((ev.Nukidora(seat, north),))
            elif kind(drawn) == north:
                out.append((ev.Nukidora(seat, drawn),))  # in riichi only the North just drawn
    if p.riichi:
        assert drawn is not None
        return out, [drawn], [], False
    kuikae = p.kuikae
    hand = p.hand
    distinct = sorted(set(hand))
    if kuikae:
        distinct = [t for t in distinct if _KIND[t] not in kuikae]  # (a table: a turn after a call)
    # (the drawn kind's count read first: most draws are of a kind the hand held no copy of, and
    # the hand is then not searched twice over; bench_speed "walk a log to every decision")
    twice = drawn is not None and p.counts[_KIND[drawn]] > 1 and hand.count(drawn) > 1 and drawn in distinct
    riichi: list[int] = []
    if (
        drawn is not None
        and not p.riichi_declared
        and rnd.wall >= rnd.variant.riichi_wall
        and rnd.scores[seat] >= rnd.rules.riichi_stick
        and (not p.melds or p.closed)  # (no property call for a hand without melds: most turns)
        # A discard leaving a wait needs a hand within one tile of complete: a 3n+2 hand whose
        # shanten is above 0 leaves none, which spares the wait check of every discard.
        # (the hand before the draw waiting already says so without counting: bench_speed "self-play")
        and (bool(p._waits) or _may_be_tenpai(p))
    ):
        tenpai_after: dict[int, bool] = {}  # per kind (two copies of a kind leave the same hand)
        for t in distinct:
            k = _KIND[t]
            ok = tenpai_after.get(k)
            if ok is None:
                c = p.counts[:]
                c[k] -= 1
                ok = tenpai_after[k] = is_tenpai(c)
            if ok:
                riichi.append(t)
    return out, distinct, riichi, twice


def turn_moves(rnd: Round, seat: int) -> list[Move]:
    """The moves of the seat on turn, from :func:`turn_options`: the rarer ones, then one discard
    per tile code (the drawn tile's as tsumogiri, followed by its copy from the hand when there is
    one), then the riichi declarations with their discards, in the same order."""
    out, tiles, riichi, twice = turn_options(rnd, seat)
    drawn = rnd.drawn
    for (plain, drawn_copy), chosen in ((DISCARD_MOVES[seat], tiles), (RIICHI_MOVES[seat], riichi)):
        # (a list comprehension over a per-seat table, the drawn tile patched in after: a turn's
        # discards in a third of the time of a loop testing every tile; bench_speed: "walk a log to
        # every decision", "self-play")
        moves = [plain[t] for t in chosen]
        if drawn is not None and drawn in chosen:
            at = chosen.index(drawn)
            moves[at] = drawn_copy[drawn]
            if twice:
                moves.insert(at + 1, plain[drawn])
        out.extend(moves)
    return out


def _may_be_tenpai(p: Player) -> bool:
    """False when no discard of this 3n+2 hand can leave it waiting (its shanten is above 0).

    One draw and one discard lower the shanten of a hand by one at most (a tile added lowers it by
    one at most, a tile taken away never lowers it). So a hand that was at shanten ``s`` at a turn
    is at ``s - d`` or more ``d`` discards later, as long as no meld was made and no North set aside
    in between: while that is still 1 or more the hand is not counted again. A hand two or more
    from tenpai is counted about every other turn, not at each (bench_speed: "walk a log to every
    decision", "self-play").
    """
    if p.surely_short_of_tenpai():
        return False
    try:
        s = _shanten(bytes(p.counts))
    except (MjcliError, ValueError):  # a hand the table cannot take: let the wait check decide
        return True
    p._shanten_at = (s, p.discards, len(p.melds), len(p.kita))
    return s <= 0


def _kan_actions(rnd: Round, seat: int) -> list[Move]:
    p = rnd.players[seat]
    out: list[Move] = []
    counts = p.counts
    # (a closed kan needs four of a kind: one C-level test spares the scan of 34 kinds on nearly
    # every turn; bench_speed: "self-play")
    for k in range(34) if 4 in bytearray(counts) else ():
        if counts[k] != 4:
            continue
        if p.riichi:
            if rnd.drawn is None or kind(rnd.drawn) != k:
                continue
            c = p.counts[:]
            c[k] -= 4
            before = p.counts[:]
            before[k] -= 1  # the hand as it was before the draw
            if waits(c) != waits(before):
                continue
        tiles = tuple(t for t in p.hand if kind(t) == k)
        out.append((ev.ClosedKan(seat, tiles),))
    if not p.riichi:
        for m in p.melds:
            # (a pon whose fourth tile is not in hand has nothing to add: the hand is not searched;
            # a hand that calls often holds pons on most turns; its kind from the table, not a
            # call; bench_speed "self-play")
            if m.kind != "pon" or not counts[_KIND[m.tiles[0]]]:
                continue
            for t in _distinct([t for t in p.hand if kind(t) == kind(m.tiles[0])]):
                out.append((ev.AddedKan(seat, t, m.tiles),))
    return out


def _react_actions(rnd: Round, seat: int) -> list[Move]:
    p = rnd.players[seat]
    tile = rnd.last_tile
    assert tile is not None
    k = kind(tile)
    out: list[Move] = []
    if k in p.waits() and not p.furiten() and can_win(rnd, seat, tile, tsumo=False):
        out.append((ev.Win(seat, rnd.current, tile),))
    if p.riichi or p.riichi_declared or rnd.wall <= 0 or (rnd.kan_total == 4 and rnd.four_kans_pending()):
        return [*out, PASS_MOVE]  # no calls in riichi, on the last tile, or on the discard after a 4th kan
    target = rnd.current
    if p.counts[k] >= 2:  # (else no pon nor kan: the hand is not searched for the kind)
        same = [t for t in p.hand if _KIND[t] == k]  # (a table, not a call per tile)
        for pair in sorted({tuple(sorted(c)) for c in combinations(same, 2)}):
            out.append((ev.Pon(seat, target, tile, pair),))
        if len(same) == 3 and sum(rnd.kans) < 4:
            out.append((ev.OpenKan(seat, target, tile, tuple(same)),))
    if rnd.variant.chi and seat == (target + 1) % rnd.n and not is_honor(k):
        out.extend(_chi_actions(rnd, seat, target, tile))
    out.append(PASS_MOVE)
    return out


def _chi_runs(k: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """The runs a chi of kind ``k`` may make, lowest first: the two kinds taken from the hand, and
    the kinds kuikae then forbids to discard (the called kind, and the kind at the run's other end)."""
    n = k % 9
    out = []
    for lo in (k - 2, k - 1, k):
        if lo < 0 or lo // 9 != k // 9 or lo % 9 > 6 or lo % 9 > n or n - lo % 9 > 2:
            continue
        need = [x for x in (lo, lo + 1, lo + 2) if x != k]
        forbidden = {k}
        if k == lo and k % 9 <= 5:
            forbidden.add(k + 3)
        elif k == lo + 2 and k % 9 >= 3:
            forbidden.add(k - 3)
        out.append((need[0], need[1], tuple(sorted(forbidden))))
    return tuple(out)


#: [kind]: :func:`_chi_runs`, worked out once (a chi is weighed on most discards to the next seat;
#: bench_speed: "walk a log to every decision", "self-play")
_CHI_RUNS = tuple(_chi_runs(k) for k in range(34))


def _chi_actions(rnd: Round, seat: int, target: int, tile: int) -> list[Move]:
    p = rnd.players[seat]
    counts = p.counts
    out: list[Move] = []
    for a_kind, b_kind, forbidden in _CHI_RUNS[_KIND[tile]]:
        if not counts[a_kind] or not counts[b_kind]:
            continue  # (the hand is searched only for a run it holds)
        # Kuikae: the call is refused when every tile left would be a forbidden discard. The tiles
        # taken are of the run's other kinds, never forbidden ones, so that is: the forbidden kinds
        # hold every tile but the two (counted, instead of a copy of the hand per pair of tiles;
        # bench_speed: "walk a log to every decision").
        if sum(map(counts.__getitem__, forbidden)) == len(p.hand) - 2:
            continue
        choices_b = _tiles_of_kind(p.hand, b_kind)
        for a in _tiles_of_kind(p.hand, a_kind):
            for b in choices_b:
                out.append((ev.Chi(seat, target, tile, (a, b)),))
    return out


def _tiles_of_kind(hand: list[int], k: int) -> list[int]:
    """The distinct tiles of kind ``k`` in ``hand`` (which holds some), in code order.

    A kind other than a five has one tile code, the kind itself: the hand is searched only for a
    five, which may be red (a chi's two kinds on every chi offered; bench_speed: "walk a log to
    every decision").
    """
    if k < 27 and k % 9 == 4:
        return sorted({t for t in hand if _KIND[t] == k})
    return [k]


def _chankan_actions(rnd: Round, seat: int) -> list[Move]:
    p = rnd.players[seat]
    tile = rnd.last_tile
    if tile is None:
        return []
    k = kind(tile)
    out: list[Move] = []
    if k in p.waits() and not p.furiten():
        if rnd.kan_kind == "kita":
            if can_win(rnd, seat, tile, tsumo=False):  # any hand with a yaku; no chankan yaku
                out.append((ev.Win(seat, rnd.kan_actor, tile),))
        elif rnd.kan_kind == "ankan":
            if not rnd.rules.kokushi_robs_closed_kan:
                return []
            c = p.counts[:]
            c[k] += 1
            orphans = sum(1 for x in TERMINALS_AND_HONORS if c[x]) == 13 and sum(c) == 14
            if orphans and can_win(rnd, seat, tile, tsumo=False, chankan=True):
                out.append((ev.Win(seat, rnd.kan_actor, tile),))
        elif can_win(rnd, seat, tile, tsumo=False, chankan=True):
            out.append((ev.Win(seat, rnd.kan_actor, tile),))
    if out:
        out.append(PASS_MOVE)
    return out


# ---------------------------------------------------------------- the table's own moves


@dataclass(frozen=True, slots=True)
class TableStep:
    """What happens when no player acts: ``kind`` is "event" (apply ``event``), "dora" (turn the
    next kan indicator from the wall), "draw" (``seat`` draws; ``rinshan`` from the dead wall) or
    "end" (the round is over)."""

    kind: str
    event: object | None = None
    seat: int = -1
    rinshan: bool = False


def table_step(rnd: Round) -> TableStep:
    """The table's next move once every player has passed (or before the first draw)."""
    if rnd.phase == "ended":
        return TableStep("end")
    if rnd.phase == KAN:
        if rnd.pending_dora and not (rnd.pending_open and rnd.pending_dora == 1):
            return TableStep("dora")
        return TableStep("draw", seat=rnd.kan_actor, rinshan=True)
    if rnd.phase == TURN:
        if rnd.pending_dora:
            return TableStep("dora")  # an open kan's indicator, turned as its player discards
        raise MjcliError(f"seat {rnd.current} must act: the table has no move")
    # REACT: the discard passed.
    discarder = rnd.players[rnd.current]
    if discarder.riichi_declared and not discarder.riichi and rnd.last_tile is not None:
        return TableStep("event", ev.RiichiAccepted(rnd.current))
    if rnd.last_tile is not None and rnd.rules.abortive_draws:
        if rnd.riichi_count == 4:
            return TableStep("event", ev.RoundDraw(ev.FOUR_RIICHI))
        if len(rnd.first_winds) == 4 and rnd.four_winds_pending():  # (no call before: see above)
            return TableStep("event", ev.RoundDraw(ev.FOUR_WINDS))
        if rnd.kan_total == 4 and rnd.four_kans_pending():  # (asked only at four kans: every discard)
            return TableStep("event", ev.RoundDraw(ev.FOUR_KANS))
    if rnd.wall == 0:
        return TableStep("event", ev.RoundDraw(ev.EXHAUSTIVE))
    return _NEXT_DRAW[rnd.n][rnd.current]


#: [players][discarder]: the next seat's draw, the table's move after nearly every discard (steps are
#: immutable: one per seat, not a frozen dataclass built per discard; bench_speed "self-play")
_NEXT_DRAW = {n: tuple(TableStep("draw", seat=(s + 1) % n) for s in range(n)) for n in (3, 4)}
