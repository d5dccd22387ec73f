"""The tile-efficiency baseline (no seed gives it; the project's "standard strong baseline").

Rules, in the order they are tried:

1. Win: take every tsumo and ron on offer.
2. Nine terminals: abort when allowed, unless the hand is already within 2 of tenpai (shanten
   counting thirteen orphans), where playing on for thirteen orphans is worth more.
3. Closed or added kan: declare when the shanten of the hand left (the quad set aside as a meld)
   is no worse than the best discard's. After riichi the engine only offers kans that keep the
   waits, which are then always taken. Of several kans that qualify: a closed one before an added
   one, then the lowest kind (the same kan whatever the order the actions come in).
4. Discard: the lowest shanten, then the most ukeire (improving tiles counted by the copies the
   player has not seen: not in the own hand, rivers, melds or dora indicators; a hand another
   seat plays shown, :attr:`PlayerView.shown_hands`, is left out: the baseline plays the same
   whatever the table shows), then the
   documented tie-break: keep dora and red fives; throw honours (non-yakuhai before yakuhai)
   before terminals before tiles nearer the middle (2/8, 3/7, 4/6, 5); then the rightmost tile in
   hand order (a plain five before a red one).
5. Riichi: declared with that discard whenever it leaves tenpai and riichi is legal.
3b. Nukidora (three-player): set a North aside when the hand without it has no worse a shanten
   than the best discard leaves (the kan rule: the hand keeps its value, and gains a dora and a
   draw); in riichi (only the North just drawn is offered) always.
6. Calls (chi, pon, open kan): only when the call makes the shanten strictly lower (after the best
   discard that follows it) and leaves a yaku: a yakuhai triplet (called now, already called or
   concealed) or an all-simples hand (open tanyao, on in Tenhou's rules) after that discard. Of
   several such calls: lowest shanten, then most ukeire, then kan, pon, chi, then lowest tiles.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjcli.riichi.policies.base import BasePolicy, actions_by_kind, kans_by_kind, turn_actions
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.view import TILE_NAMES, Action, PlayerView, copies_left
from mjcli.tiles import (
    KIND_OF,
    NUM_TILES,
    dora_kind,
    is_honor,
    is_red,
    is_terminal_or_honor,
    kind,
    number_of,
    sort_key,
)

NAME = "efficiency"
SEED = "none (the project's baseline: shanten, then ukeire over unseen tiles)"

_CALL_RANK = {"open_kan": 0, "pon": 1, "chi": 2}
#: the kinds an all-simples hand holds none of, in kind order
_TERMINALS_AND_HONORS = tuple(k for k in range(34) if is_terminal_or_honor(k))


def dora_kinds(indicators: Sequence[int], players: int = 4) -> set[int]:
    """The kinds the dora indicators point at (:func:`mjcli.tiles.dora_kind`)."""
    return {dora_kind(t, players) for t in indicators}


def _tile_facts(tile: int) -> tuple[int, int, int | None, tuple[int, int]]:
    """What :func:`throw_first_key` reads of a tile: its kind, 1 for a red five, its edge (None for
    an honour, whose edge depends on the yakuhai kinds) and its sort key."""
    k = kind(tile)
    if is_honor(k):
        edge = None
    elif k % 9 in (0, 8):
        edge = 1
    else:
        edge = -min(number_of(k) - 1, 9 - number_of(k))
    return k, int(is_red(tile)), edge, sort_key(tile)


#: :func:`_tile_facts` of every tile, a table (the tie-break is asked of every tied discard: a
#: lookup, not five calls; replay, 4 policies, one core)
_TILE_FACTS = tuple(_tile_facts(t) for t in range(NUM_TILES))


def throw_first_key(tile: int, dora: set[int], yakuhai: frozenset[int]) -> tuple[int, ...]:
    """Larger is thrown first among discards of equal shanten and ukeire (rule 4's tie-break)."""
    k, red, edge, order = _TILE_FACTS[tile]
    if edge is None:  # an honour
        edge = 3 if k not in yakuhai else 2
    return (-(int(k in dora) + red), edge, *order)


def best_discards(
    math: HandMath, counts: Sequence[int], seen: Sequence[int], allowed: set[int] | None = None
) -> tuple[int, dict[int, int]]:
    """The least shanten a discard leaves, and the ukeire (unseen copies) of each discard that does.

    Ukeire is only worked out for the discards of least shanten: the others can never be chosen.
    Copies are counted against the full hand (the discarded tile is not coming back), as the
    discard table of :mod:`mjcli.analysis` does. ``allowed`` limits the discards to some kinds.
    """
    least, improving = math.least_discards(bytes(counts), None if allowed is None else frozenset(allowed))
    return least, _ukeire_left(improving, counts, seen)


def _ukeire_left(
    improving: dict[int, tuple[int, ...]], counts: Sequence[int], seen: Sequence[int]
) -> dict[int, int]:
    """:func:`best_discards`'s ukeire of the discards ``improving`` (from :meth:`HandMath.least_discards`
    of ``counts``) over the copies neither in ``counts`` nor in ``seen``."""
    # (a list: its items are read faster than a bytes' through ``__getitem__``)
    return _ukeire(improving, list(copies_left(counts, seen)))


def _ukeire(improving: dict[int, tuple[int, ...]], left: Sequence[int]) -> dict[int, int]:
    # each sum over a C-level ``map`` of the counts' item getter, not a list comprehension (a frame
    # per discard of every turn: replay, 4 policies, one core)
    get = left.__getitem__
    return {d: sum(map(get, kinds)) for d, kinds in improving.items()}


_VIEW_BEST = ("efficiency.view_best_discards",)


def view_best_discards(math: HandMath, view: PlayerView) -> tuple[int, dict[int, int]]:
    """:func:`best_discards` of the view's own 3n+2 hand over what the view has not seen, worked
    out once per view and kept in its memo (a shared value: never change it). Replay's figures of
    a discard (:class:`mjcli.riichi.replay.Effects`) read the same numbers there instead of working
    each discard out again (replay, 4 policies, one core)."""
    memo = view.memo
    got = memo.get(_VIEW_BEST)
    if got is None:
        least, improving = math.least_discards(view.concealed_bytes, None)
        got = memo[_VIEW_BEST] = (least, _ukeire(improving, view.unseen_counts()))
    return got  # type: ignore[return-value]


def keep_view_best_discards(view: PlayerView, figures: tuple[int, dict[int, int]]) -> None:
    """Store ``figures``, :func:`view_best_discards` of ``view`` worked out elsewhere (replay's hand
    batch, :meth:`HandMath.prepare <mjcli.riichi.policies.hand_math.HandMath.prepare>`, sums the
    ukeire of every turn's view in numpy: replay, 4 policies, one core), in the view's memo."""
    view.memo[_VIEW_BEST] = figures


def _is_simple(t: int) -> bool:
    return not is_terminal_or_honor(kind(t))


class EfficiencyPolicy(BasePolicy):
    name = NAME
    seed = SEED
    win_reason = "1. a win is always taken"

    def turn(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        math = self.math
        counts = view.concealed_tuple  # (read only: no copy)
        if sum(counts) % 3 == 2:
            best_shanten, ukeire = view_best_discards(math, view)
        else:  # not a discard decision (never asked of a 3n+1 hand by the engine)
            best_shanten, ukeire = math.shanten(counts), {}
        # the rules below in their order; most turns offer only discards (and riichi): the kinds on
        # offer are looked at once, not in one pass over the legal actions per rule
        # (sorted out once for every policy asked: replay, 4 policies, one core)
        offered, discards, riichis, _, _, _, tiled = turn_actions(view, legal)
        if not tiled:
            discards = tuple([a for a in discards if a.tile is not None])
            riichis = tuple([a for a in riichis if a.tile is not None])
        if "nine_terminals" in offered:
            for a in legal:
                if a.kind == "nine_terminals" and math.shanten(counts) > 2:
                    return a.because("2. nine terminals: abort (more than 2 from tenpai)")
        if "closed_kan" in offered or "added_kan" in offered:
            for a in kans_by_kind(legal):
                rest = list(counts)
                if a.kind == "closed_kan":
                    rest[kind(a.consumed[0])] -= 4
                else:
                    rest[kind(a.tile)] -= 1  # type: ignore[arg-type]
                s = math.shanten(rest)
                if view.in_riichi or s <= best_shanten:
                    return a.because(f"3. {a.kind.replace('_', ' ')} keeps shanten at {s}")
        if "nukidora" in offered:
            for a in legal:
                if a.kind == "nukidora":
                    if view.in_riichi:
                        return a.because("3b. nukidora in riichi: the North just drawn is set aside")
                    rest = list(counts)
                    rest[kind(a.tile)] -= 1  # type: ignore[arg-type]
                    s = math.shanten(rest)
                    if s <= best_shanten:
                        return a.because(f"3b. nukidora keeps shanten at {s}")
        # the discards and riichi discards naming their tile, each in the order given
        if not discards and not riichis:
            return legal[0].because("the only legal action")
        if view.in_riichi:
            a = next(iter(discards))
            return a.because("after riichi the drawn tile is discarded")
        discards = discards or riichis
        kind_of = KIND_OF
        # the most ukeire among the least-shanten discards, then the tie-break (which differs for
        # every tile: a red five is not a plain five); the others never win
        by_kind = actions_by_kind(view, discards)
        if ukeire and by_kind.keys() >= ukeire.keys():
            # every least-shanten kind may go (nearly every turn): the most ukeire read from the
            # figures and the tied discards from the discards by kind (sorted out once for the
            # policies asked at the view), not a Python step a discard (replay, 4 policies, one
            # core); the tie-break below ranks every tile apart, whatever their order
            most = max(ukeire.values())
            tied = [a for k, u in ukeire.items() if u == most for a in by_kind[k]]
        else:
            ranked = [(ukeire[k], a) for a in discards if (k := kind_of[a.tile]) in ukeire]  # type: ignore[index]
            if not ranked:
                # every least-shanten discard is forbidden (swap-call rule): rank the legal ones alone
                allowed = {kind_of[a.tile] for a in discards}  # type: ignore[index]
                best_shanten, ukeire = best_discards(math, counts, view.visible_counts(), allowed)
                ranked = [(ukeire[k], a) for a in discards if (k := kind_of[a.tile]) in ukeire]  # type: ignore[index]
            most = max([u for u, _ in ranked])
            tied = [a for u, a in ranked if u == most]
        if len(tied) == 1:
            best = tied[0]  # the tie-break's max of one (its keys are only worked out for ties)
        else:
            dora = dora_kinds(view.dora_indicators, view.players)
            yakuhai = view.yakuhai_kinds()
            best = max(tied, key=lambda a: throw_first_key(a.tile, dora, yakuhai))  # type: ignore[arg-type]
        uke = ukeire[kind_of[best.tile]]  # type: ignore[index]
        reason = f"4. {TILE_NAMES[best.tile]}: shanten {best_shanten}, ukeire {uke}"  # type: ignore[index]
        if best_shanten == 0:
            for a in riichis:
                if a.tile == best.tile:
                    return a.because(reason + "; 5. tenpai: riichi")
        return best.because(reason)

    def react(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        math = self.math
        passing = next((a for a in legal if a.kind == "pass"), legal[0])
        counts = view.concealed_tuple  # (read only: no copy)
        seen = view.visible_tuple
        now = math.shanten(view.concealed_bytes)
        yakuhai = view.yakuhai_kinds()
        found = []
        for call in legal:
            if call.kind not in _CALL_RANK:
                continue
            rest = list(counts)
            for t in call.consumed:
                rest[kind(t)] -= 1
            # a call that does not lower the shanten is never made: its yaku is not looked at
            if call.kind == "open_kan":
                after = math.shanten(rest)
            else:
                after, improving = math.least_discards(bytes(rest), None)
            if after >= now:
                continue
            if call.kind != "open_kan":
                # best_discards' ukeire, counted only for a call that lowers the shanten (most do
                # not: no copies left counted for them; replay, 4 policies, one core)
                bests = _ukeire_left(improving, rest, seen)
            call_kind = kind(call.tile)  # type: ignore[arg-type]
            melds_simple = all(_is_simple(t) for m in view.own_melds for t in m.tiles)
            melds_simple = melds_simple and all(_is_simple(t) for t in (*call.consumed, call.tile))
            has_yakuhai = (call.kind != "chi" and call_kind in yakuhai) or any(
                m.kind != "chi" and kind(m.tiles[0]) in yakuhai for m in view.own_melds
            )
            if call.kind == "open_kan":
                uke, ok_tanyao = 0, False
                conc_yakuhai = any(rest[k] >= 3 for k in yakuhai)
            else:
                uke = max(bests.values())
                ok_tanyao = melds_simple and any(
                    all(rest[k] - (k == d) == 0 for k in _TERMINALS_AND_HONORS) for d in bests
                )
                conc_yakuhai = any(rest[k] >= 3 for k in yakuhai)
            if not (has_yakuhai or conc_yakuhai or ok_tanyao):
                continue
            yaku = "yakuhai" if (has_yakuhai or conc_yakuhai) else "tanyao"
            key = (after, -uke, _CALL_RANK[call.kind], [sort_key(t) for t in call.consumed])
            found.append((key, call, f"6. call lowers shanten {now} -> {after} and keeps a yaku ({yaku})"))
        if found:
            found.sort(key=lambda f: f[0])
            return found[0][1].because(found[0][2])
        return passing.because(f"6. no call lowers shanten ({now}) and keeps a yaku: pass")
