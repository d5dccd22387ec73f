"""The shanten-greedy bot of seed ``003_79b16c3c4696e622.txt`` ("Pythonで麻雀を作る#1").

The seed's code, and how each line is played here:

* ``Janshi.dahai``: after riichi, discard ``tehai[13]``, the tile just drawn. Otherwise compute,
  for each of the 14 tiles in list order, the shanten of the hand without it, and discard the
  first tile with the smallest shanten (``shantenvalue.index(min(shantenvalue))``). The list is the
  13-tile hand sorted (``riipai`` runs after each discard) followed by the drawn tile (``tsumo``
  appends it), so ties go to the first tile in sorted hand order and the drawn tile comes last.
* Shanten is ``mahjong``'s ``calculate_shanten`` with its defaults: the minimum of the regular
  form, seven pairs and thirteen orphans.
* ``Game.ichijun``: a 14-tile hand of shanten -1 wins (tsumo); a hand of shanten 0 before the
  discard, not yet in riichi, declares riichi with that discard when ``len(yama) > 17``.
* Ron, calls, kans and aborts are "not implemented" in the seed.

Readings chosen:

* ``yama`` in the seed is the whole undrawn wall, its 14-tile dead wall included (the round ends
  when ``len(yama) == 14``), so ``len(yama) > 17`` is "more than 3 tiles left in the live wall",
  which is tested on :attr:`PlayerView.wall_left` after the draw. The seed's comment on that line
  says "以上" ("聴牌し、山が残り17牌以上なら強制的に立直する": 17 or more), its code ``> 17``: the code
  is what the seed's bot ran, so at exactly 17 (3 live tiles) it does not declare riichi.
* Every bot of the project takes every win: a ron on offer is taken too (the seed's "-1 shanten
  wins" rule applied to another player's tile). Every other call and every kan is passed.
* After a call (impossible for this bot, but a view may come with melds) there is no drawn tile:
  the list is the sorted hand alone.
* A red five sorts just before the plain fives of its suit (the seed has no red fives).
* Three-player nukidora: like calls and kans, not in the seed: a North is never set aside (it is
  kept or discarded by the shanten rule like any tile).

The library version. The seed ran ``mahjong`` 1.1.11 ("環境 ... Python 3.8.8 / mahjong 1.1.11");
this policy uses the installed 2.x. 1.1.11's regular-form shanten takes a wait on a fifth copy of a
kind the hand holds four of for tenpai: ``9999m123789p789s`` is 0 there, 1 here (fixed in
``mahjong`` 1.3.0, "Correct miscalculation of shanten number for general form"). The correct count
is kept. A decision changes only with a quad in a hand one tile from tenpai: ``456789m567p9999s``
drawing 9m, the seed's code (1.1.11) declares riichi cutting 9m, leaving a "tanki" on the fifth 9s
(no live wait), where this policy declares riichi cutting 9s (a real wait on 3m 6m 9m). On random
hands and in the seed's own self-play no decision differed (a random quad is far from tenpai, where
the miscount does not show); every shanten value the seed prints is the same under both versions.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import attrgetter

from mjcli.riichi.policies.base import BasePolicy, pass_or_first, tsumogiri, turn_actions
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.view import TILE_NAMES, Action, PlayerView
from mjcli.tiles import KIND_OF, KIND_TO_RED, NUM_KINDS, counts34, in_hand_order

NAME = "greedy"
SEED = "003_79b16c3c4696e622.txt (Janshi.dahai, Game.ichijun)"


#: the seed's dead wall: 14 tiles stay in ``yama`` when the round ends
DEAD_WALL = 14


def seed_order(view: PlayerView) -> list[int]:
    """The seed's ``tehai`` list at a discard: the sorted hand, then the drawn tile."""
    order = in_hand_order(view.hand)
    if view.drawn is not None:
        order.append(view.drawn)
    return order


def greedy_discard(
    math: HandMath,
    tiles: Sequence[int],
    allowed: Sequence[int] | None = None,
    counts: Sequence[int] | None = None,
) -> tuple[int, list[int]]:
    """Index of the first tile whose removal gives the least shanten, and every tile's shanten.

    ``allowed`` (default: all) are the tiles that may be cut; the others keep their place in the
    list but are never chosen (shanten of a forbidden tile is reported as 99). ``counts``, when
    given, are the 34 counts of ``tiles`` (the view's, already worked out: not counted again).
    """
    if counts is None:
        counts = counts34(tiles)
    after = math.shanten_after_discards(bytes(counts))  # per kind: copies leave the same
    kind_of = KIND_OF
    if allowed is None:
        values = [after[kind_of[t]] for t in tiles]
    else:
        values = [99 if t not in allowed else after[kind_of[t]] for t in tiles]
    return values.index(min(values)), values


_TILE_OF = attrgetter("tile")
_KINDS = range(NUM_KINDS)


def _first_of_least(view: PlayerView, hand: bytes, after: dict[int, int], best: int) -> int:
    """The first tile of :func:`seed_order` whose kind's discard leaves ``best`` shanten (``after``:
    :meth:`HandMath.shanten_after_discards` of ``hand``, the view's concealed counts), with no
    sort: the lowest such kind the hand holds without the drawn tile, as the hand sorts it (its red
    five first), else the drawn tile (no seed_order sorted and walked tile by tile, no set of the
    discards built in Python: with the yakuhai table of the views, 4249 -> 4190 M instructions for 8
    hanchan, callgrind; bench_speed: "replay, 4 policies, one core")."""
    drawn = view.drawn
    drawn_kind = -1 if drawn is None else KIND_OF[drawn]
    for k in compress(_KINDS, hand):  # the kinds held, in kind order (picked in C)
        if after[k] == best and (k != drawn_kind or hand[k] > 1):
            red = KIND_TO_RED.get(k)
            return red if red is not None and red in view.hand else k
    return drawn  # type: ignore[return-value]  # (the hand alone holds no such kind: the drawn tile's)


class GreedyPolicy(BasePolicy):
    name = NAME
    seed = SEED
    win_reason = "shanten -1: the hand is complete, win"

    def react(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return pass_or_first(legal).because("calls are not implemented in the seed: pass")

    def turn(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        # the turn's actions sorted out once for every policy asked (replay, 4 policies, one core)
        _, discards, riichis, _, _, _, _ = turn_actions(view, legal)
        if view.in_riichi:
            a = tsumogiri(view, legal) or (discards[0] if discards else legal[0])
            return a.because("in riichi: discard tehai[13], the drawn tile")
        # the discards' tiles read in C, once: the legal tiles and the action of the chosen one
        tiles = list(map(_TILE_OF, discards))
        legal_tiles = set(tiles)
        # A tile the rules forbid (swap-calling; never for this bot, which does not call) is skipped.
        # the view's counts of the concealed tiles (the order's tiles), as bytes: worked out once per
        # view and read by every policy asked there, not counted again (replay, 4 policies, one core)
        hand = view.concealed_bytes
        drawn = view.drawn
        if not legal_tiles or (legal_tiles.issuperset(view.hand) and (drawn is None or drawn in legal_tiles)):
            # every tile may go (always, for a bot that never calls): greedy_discard's choice, the
            # first tile of the least shanten, found with no value worked out past it (the least
            # read in C from the memo's values; replay, 4 policies, one core)
            after = self.math.shanten_after_discards(hand)
            best = min(after.values())
            tile = _first_of_least(view, hand, after, best)
        else:
            order = seed_order(view)
            idx, values = greedy_discard(self.math, order, legal_tiles, hand)
            tile = order[idx]
            best = values[idx]
        reason = f"{TILE_NAMES[tile]} is the first tile whose discard leaves the least shanten ({best})"
        hand_shanten = self.math.shanten(view.concealed_bytes)
        if hand_shanten == 0 and view.wall_left + DEAD_WALL > 17:
            for a in riichis:
                if a.tile == tile:
                    return a.because(f"{reason}; tenpai with len(yama) > 17: riichi")
            reason += "; tenpai, but riichi is not legal here"
        if tile not in legal_tiles:  # no legal discard of that tile: nothing else the seed could do
            return (discards[0] if discards else legal[0]).because(reason)
        return discards[tiles.index(tile)].because(reason)
