"""Legal actions of a position without the game engine: for ``advise`` on a typed hand, and for tests.

The engine is the authority on legality during a game; this builder covers what a typed position
allows under Tenhou's rules, from the view alone:

* after a draw (:func:`draw_actions`): a discard of every distinct tile (only the drawn tile after
  riichi); riichi with each discard that leaves a wait, when the hand is closed, not yet in riichi,
  the player has 1000 points and at least 4 tiles are left in the wall; tsumo when the hand is
  complete with a yaku (checked by :mod:`mjcli.riichi.scoring`); a closed kan of every kind held four
  times (after riichi only of the drawn tile and only when the waits stay the same); an added kan
  for every own pon whose fourth tile is in hand (not on the last tile); nine terminals on the first
  turn with nine or more different terminals and honours;
* on another player's discard (:func:`reaction_actions`): ron when the hand is complete with a
  yaku and the player is not furiten by their own river; pon (two of the kind), open kan (three),
  chi (only from the player on the left) with every distinct choice of tiles, red fives told
  apart, none after riichi or on the last tile; and pass.

Three-player views (``view.players == 3``, rules ``tenhou-sanma`` unless given): no chi; after a
draw a North may be set aside (``nukidora``; in riichi only the North just drawn), not on the last
tile.

Not modelled here (the engine's job): temporary furiten, the swap-call restriction, four-kan and
four-riichi limits.
"""

from __future__ import annotations

import dataclasses
from itertools import product

from mjcli.errors import InvalidHandError, MjcliError
from mjcli.riichi.engine.waits import is_complete
from mjcli.riichi.engine.waits import waits as hand_waits
from mjcli.riichi.policies.view import Action, PlayerView
from mjcli.riichi.rules import Rules, get_rules
from mjcli.tiles import TERMINALS_AND_HONORS, is_honor, kind, runs_with, sort_key


def _distinct(tiles: list[int]) -> list[int]:
    return sorted(set(tiles), key=sort_key)


def has_yaku(
    view: PlayerView, concealed: list[int], win_tile: int, tsumo: bool, rules: Rules | None = None
) -> bool:
    """Is the complete hand ``concealed`` (winning tile included) worth at least one yaku?"""
    # imported here: the scorer (with `mahjong`'s yaku classes) is 20 ms of `advise HAND`'s start-up,
    # and only a complete hand asks it (bench_speed: "start-up: mjcli advise HAND")
    from mjcli.riichi.scoring import WinContext, score_hand

    ctx = WinContext(
        tsumo=tsumo,
        riichi=view.in_riichi,
        seat_wind=view.seat_wind,
        round_wind=view.round_wind,
        honba=view.honba,
        dora_indicators=tuple(view.dora_indicators),
        haitei=tsumo and view.wall_left == 0,
        houtei=not tsumo and view.wall_left == 0,
        kita=view.kita[view.seat] if view.kita else 0,
    )
    rules = rules or _rules_of(view)
    try:
        # only whether it scores: no explanation written (bench_speed: "score one win, engine path")
        score_hand(concealed, win_tile, view.own_melds, ctx, rules, explain=False)
    except InvalidHandError:
        # A typed hand (advise) may write all four fives of a suit plain, which the scorer refuses
        # under red-five rules ("write it as 0s"): that refusal hid the win of a complete hand. A red
        # five is a dora and never a yaku, so whether the hand scores is the same with them off.
        if not rules.red_fives:
            return False
        try:
            plain = dataclasses.replace(rules, name=f"{rules.name}+plain-fives", red_fives=False)
            score_hand(concealed, win_tile, view.own_melds, ctx, plain, explain=False)
        except MjcliError:
            return False
    except MjcliError:
        return False
    return True


def _rules_of(view: PlayerView) -> Rules:
    return get_rules("tenhou-sanma" if view.players == 3 else "tenhou")


def _held(view: PlayerView) -> list[int]:
    counts = view.concealed_counts()
    for m in view.own_melds:
        for t in m.tiles:
            counts[kind(t)] += 1
    return counts


def waits_of(view: PlayerView, counts: list[int]) -> frozenset[int]:
    """Waits of a 3n+1 concealed hand, without kinds the player holds all four of."""
    held = _held(view)
    return frozenset(w for w in hand_waits(counts) if held[w] < 4)


def draw_actions(view: PlayerView, rules: Rules | None = None) -> tuple[Action, ...]:
    """Every legal action after a draw (or after a call, when ``view.drawn`` is None)."""
    rules = rules or _rules_of(view)
    concealed = list(view.concealed)
    counts = view.concealed_counts()
    out: list[Action] = []
    complete = view.drawn is not None and is_complete(counts)
    if complete and has_yaku(view, concealed, view.drawn, tsumo=True, rules=rules):  # type: ignore[arg-type]
        out.append(Action("tsumo", view.drawn))
    if view.in_riichi and view.drawn is not None:
        out.append(Action("discard", view.drawn))
    else:
        out.extend(Action("discard", t) for t in _distinct(concealed))
    can_riichi = (
        view.is_closed
        and not view.in_riichi
        and view.scores[view.seat] >= rules.riichi_stick  # (as the engine: the rule set's stick)
        and view.wall_left >= rules.variant.riichi_wall  # (three in three-player, as the engine)
        and view.drawn is not None
    )
    if can_riichi:
        for t in _distinct(concealed):
            counts[kind(t)] -= 1
            if waits_of(view, counts):
                out.append(Action("riichi", t))
            counts[kind(t)] += 1
    if view.drawn is not None and view.wall_left > 0:
        for k in range(34):
            if counts[k] != 4:
                continue
            four = tuple(sorted((t for t in concealed if kind(t) == k), key=sort_key))
            if view.in_riichi:
                if kind(view.drawn) != k:
                    continue
                before = list(counts)
                before[k] -= 1
                after = list(counts)
                after[k] -= 4
                if waits_of(view, before) != waits_of(view, after):
                    continue
            out.append(Action("closed_kan", four[0], four))
        for m in view.own_melds:
            if m.kind == "pon" and counts[m.kind34]:
                tile = next(t for t in concealed if kind(t) == m.kind34)
                out.append(Action("added_kan", tile, m.tiles))
        north = rules.variant.nukidora
        if north is not None and counts[north] and (not view.in_riichi or kind(view.drawn) == north):
            out.append(Action("nukidora", north))
    nine_kinds = sum(1 for k in TERMINALS_AND_HONORS if counts[k]) >= 9
    if view.first_turn and view.drawn is not None and nine_kinds:
        out.append(Action("nine_terminals"))
    return tuple(out)


def _choices(concealed: list[int], kinds: list[int]) -> set[tuple[int, ...]]:
    """Every distinct way (red fives told apart) to take one tile of each of ``kinds`` from the hand."""
    pools = []
    for k in kinds:
        pools.append(_distinct([t for t in concealed if kind(t) == k]))
    out = set()
    for combo in product(*pools):
        need = {}
        for t in combo:
            need[t] = need.get(t, 0) + 1
        if all(concealed.count(t) >= n for t, n in need.items()):
            out.add(tuple(sorted(combo, key=sort_key)))
    return out


def _same_kind_choices(concealed: list[int], k: int, n: int) -> set[tuple[int, ...]]:
    tiles = sorted((t for t in concealed if kind(t) == k), key=sort_key)
    out = set()
    # red five or not is the only difference between copies
    for start in range(len(tiles) - n + 1):
        out.add(tuple(tiles[start : start + n]))
    return out


def reaction_actions(view: PlayerView, rules: Rules | None = None) -> tuple[Action, ...]:
    """Every legal answer to ``view.offered`` discarded by ``view.offered_by``."""
    if view.offered is None or view.offered_by is None:
        raise ValueError("a reaction needs the offered tile and the seat that offered it")
    rules = rules or _rules_of(view)
    tile = view.offered
    k = kind(tile)
    concealed = list(view.concealed)
    counts = view.concealed_counts()
    out: list[Action] = []
    waits = waits_of(view, counts) if sum(counts) % 3 == 1 else frozenset()
    if k in waits:
        furiten = any(kind(r.tile) in waits for r in view.rivers[view.seat])
        if not furiten and has_yaku(view, [*concealed, tile], tile, tsumo=False, rules=rules):
            out.append(Action("ron", tile))
    if not view.in_riichi and view.wall_left > 0:
        if counts[k] >= 3:
            for c in sorted(_same_kind_choices(concealed, k, 3), key=lambda c: [sort_key(t) for t in c]):
                out.append(Action("open_kan", tile, c))
        if counts[k] >= 2:
            for c in sorted(_same_kind_choices(concealed, k, 2), key=lambda c: [sort_key(t) for t in c]):
                out.append(Action("pon", tile, c))
        if rules.variant.chi and view.offered_by == (view.seat - 1) % view.players and not is_honor(k):
            for run in runs_with(k):
                others = [x for x in run if x != k]
                if all(counts[o] for o in others):
                    for c in sorted(_choices(concealed, others), key=lambda c: [sort_key(t) for t in c]):
                        out.append(Action("chi", tile, c))
    out.append(Action("pass"))
    return tuple(out)
