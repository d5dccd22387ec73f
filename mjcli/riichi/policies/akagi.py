"""The Akagi NPC bot (seed ``001_bd47c5ad97e20050.txt``, "마작 NPC Ver.1.0 규칙과 해설").

The seed, section by section, and how each rule is played here:

1. Basic rules. The hand is always shown, "패를 모두 공개한 채로 게임을 진행한다" (a table option, not a
   decision: ``simulate`` seats every ``akagi`` with its hand shown unless told otherwise, and
   every other seat's view then holds it, :attr:`PlayerView.shown_hands`). Tiles are kept
   sorted man, pin, sou, East South West North White Green Red, numbers ascending, the drawn tile
   sorted in at once. No nine-terminals abort, chi, pon or open kan is ever declared. A closed kan
   is declared as soon as four of a kind are held, except after riichi when the kan would change
   the waits. Every tile that can belong to a meld ("body", 몸통) formed in any way from the hand
   counts as body: 778889 is all body.
2. Discard rules. Among several candidates: honours first, then a terminal (1 or 9, the "noble"
   tiles, 귀족패), then the tile closest to a terminal (2/8, then 3/7, then 4/6 alike, then 5), and
   of the tiles still tied the rightmost in the sorted hand.
   2.1 Not tenpai, in stages: (1) tiles neither body nor pair ("head", 머리) with no wait to become
   body; (2) such tiles with exactly one wait; (3) pairs with at most one wait; (4) pairs.
   2.2 Tenpai: riichi at once, discarding the tile that leaves the most varied waits (always an open
   riichi in the seed).

A tile's waits "to become body" are the tiles that, added to the hand, complete a meld containing
it: for ``23`` both tiles wait on 1 and 4, for ``35`` on 4, in ``223`` the 2 waits on 1, 2 and 4.

Ambiguities of the seed and the readings chosen:

* Body and pair are properties of a kind: every copy of a kind that fits in some meld is body; a
  pair is a kind held exactly twice, body or not (worked example 3 breaks the 6s pair of 5667s,
  all body); a kind held three times is a triplet, body, and not a pair (example 3 passes 111s).
* A pair's waits include its own kind (the third copy): the seed counts it for 8m in example 1
  ("8m waits only on 8m") but leaves it out for 7p in example 3 ("58p"); both readings pass 7p.
  For the 6s of 5667s the seed writes "6삭은 467삭 대기" (4-6-7s); its own definition ("수패 223이
  있을 경우 2의 대기는 1, 2, 4") gives 4s (456), 6s (666) and 8s (678), and 7s completes no meld with
  a 6s (56677s still holds only 567): "467" is the seed's slip. Both are more than one wait, which
  is all example 3 needs.
* Stage 3 "머리 중 몸통이 되기 위한 대기가 하나 이하인 패": of several such pairs, the general tie-break
  of section 2 ("타패 대상이 여럿일 경우", for every choice) decides: honour, terminal, closeness to a
  terminal, rightmost. The stage's note ("귀족패로 구성된 것이나 오른쪽에 가장 가까운 것") is read as a
  shorthand of it: the two differ only when no pair is noble, where the rule prefers the one
  closer to a terminal (2p of 22p before 5s of 55s) and the note's words the rightmost.
* No stage of 2.1 catches a hand of only body tiles, pairs and two-wait singles (e.g. six
  two-sided shapes). Then the non-body non-pair tiles with the fewest waits are discarded, and if
  every tile is body, every tile is a candidate (same tie-break). The seed never reaches this.
* "Tenpai" is a hand from which one discard leaves a wait. "Most varied waits" counts distinct
  winning kinds, without the kinds the player holds all four of (in hand and own kans).
  Ties between tenpai discards take the general tie-break of section 2 (2.2 names none).
* A closed kan in riichi is declared when it keeps the waits ("오름 불가 상황이 되지 않는 경우에 한해":
  the seed proved a win on the replacement tile possible); the engine offers no other.
* "이것은 항상 오픈 리치로 간주한다" (the riichi "is always deemed an open riichi"): the policy
  declares riichi; whether it is open is the table's. Under the ``open-riichi`` rule the riichi of
  a seat playing with its hand shown is an open riichi (2 han, yakuman for a player not in riichi
  who deals into it: :mod:`mjcli.riichi.rules`); under Tenhou's rules it is an ordinary one. When
  riichi is not legal (too few points or wall tiles) the same tile is discarded without it.
* Wins: the seed expects open riichi with menzen tsumo "unless someone deliberately deals in", so
  both a tsumo and a ron on offer are taken. Added kan cannot arise (the bot never pons).
* Red fives sort just before the plain fives of their suit, so "rightmost" keeps a red five.
* Three-player nukidora (the seed plays four-player): a North is set aside when the tile section 2
  would discard (without riichi) is a North: setting it aside leaves the very hand that discard
  would, with a dora and a draw more (as the closed kan of section 1 is taken at once). A North
  the hand keeps (in a pair, a triplet, a thirteen-orphans wait) stays. In riichi the engine offers
  only the North just drawn: it is set aside (the waits stay the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import compress, repeat
from operator import eq

from mjcli.analysis.pm0 import MEMO_ENTRIES  # (the same trade as pm0's memos)
from mjcli.riichi.policies.base import (
    BasePolicy,
    actions_by_kind,
    kans_by_kind,
    pass_or_first,
    tsumogiri,
    turn_actions,
)
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.view import TILE_NAMES, Action, PlayerView
from mjcli.tiles import KIND_OF, NUM_TILES, is_honor, kind, number_of, runs_with, sort_key, tile_name, to_mpsz

NAME = "akagi"
SEED = "001_bd47c5ad97e20050.txt (Akagi NPC Ver.1.0, sections 1, 2, 2.1, 2.2)"


# ---------------------------------------------------------------- the seed's notions


#: per kind, its runs; and per kind, each run as (the other two kinds), for the helpers below
_RUNS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(tuple(runs_with(k)) for k in range(34))
_OTHERS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(tuple(x for x in run if x != k) for run in _RUNS[k])
    for k in range(34)  # type: ignore[misc]
)


def is_body(k: int, counts: Sequence[int]) -> bool:
    """Can kind ``k`` belong to some meld made from the hand (a triplet, or a run)?"""
    c = counts[k]
    if c >= 3:
        return True
    if not c:
        return False
    for a, b in _OTHERS[k]:  # noqa: SIM110 - a loop, not any(): this runs for every tile
        if counts[a] and counts[b]:
            return True
    return False


def is_head(k: int, counts: Sequence[int]) -> bool:
    """A pair: a kind held exactly twice (see the module notes)."""
    return counts[k] == 2


def waits_to_body(k: int, counts: Sequence[int]) -> frozenset[int]:
    """The kinds that, drawn, complete a meld containing ``k`` with the hand's other tiles."""
    out: set[int] = set()
    if counts[k] == 2:
        out.add(k)
    for a, b in _OTHERS[k]:
        # exactly one of the run's two other kinds missing: that kind completes the run
        if counts[a]:
            if not counts[b]:
                out.add(b)
        elif counts[b]:
            out.add(a)
    return frozenset(out)


def terminal_distance(k: int) -> int:
    """0 for a terminal, 1 for 2/8, 2 for 3/7, 3 for 4/6, 4 for 5 (honours: 0)."""
    if is_honor(k):
        return 0
    n = number_of(k)
    return min(n - 1, 9 - n)


def tie_break_key(k: int) -> tuple[int, int, int, int]:
    """Larger is discarded first: honour, terminal, closeness to a terminal, rightmost."""
    return (int(is_honor(k)), int(not is_honor(k) and terminal_distance(k) == 0), -terminal_distance(k), k)


_KINDS = range(34)
_SORT_KEY = tuple(sort_key(t) for t in range(NUM_TILES))

#: :func:`tie_break_key` of every kind (a table: the tie-break is asked at every discard)
_TIE_BREAK = tuple(tie_break_key(k) for k in range(34))


#: the same, as a key function: a list's ``__getitem__`` (a tuple's is a slower method wrapper;
#: replay, 4 policies, one core)
_TIE_BREAK_OF = list(_TIE_BREAK).__getitem__


def pick(kinds: Sequence[int]) -> int:
    return max(kinds, key=_TIE_BREAK_OF)


@lru_cache(maxsize=MEMO_ENTRIES)
def _group_loose(vec: bytes, start: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The loose kinds of one group (counts ``vec``, first kind ``start``), and those of them with
    no wait: :func:`discard_stage`'s stage-1 sorting out, which looks at a kind's own suit only (a
    run never leaves its suit). Hands change a tile at a time, so most groups of a hand were met a
    moment before: cached by value (bounded), four lookups a turn instead of a Python step per
    single tile (replay, 4 policies, one core). A suit's from its pattern's (the same in every
    suit), an honour held once is loose with no wait (it is in no run)."""
    if start >= 27:
        singles = tuple([start + i for i in compress(range(len(vec)), map(eq, vec, repeat(1)))])
        return singles, singles
    loose, stage1 = _pattern_loose(vec)
    return tuple([start + i for i in loose]), tuple([start + i for i in stage1])


@lru_cache(maxsize=MEMO_ENTRIES)
def _pattern_loose(vec: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`_group_loose` of a suit's counts ``vec``, as indices (0-8): keyed by the pattern, not
    its suit, so a pattern met in one suit is known in the others."""
    loose: list[int] = []  # neither body nor pair: held once (a kind held 3+ times is body), in no run
    stage1: list[int] = []  # loose, and no run of it has either other kind in hand (no wait)
    others = _OTHERS  # (the first suit's runs: indices within the suit)
    for i in compress(range(len(vec)), map(eq, vec, repeat(1))):
        body = wait = False
        for a, b in others[i]:
            if vec[a]:
                if vec[b]:
                    body = True
                    break
                wait = True
            elif vec[b]:
                wait = True
        if not body:
            loose.append(i)
            if not wait:
                stage1.append(i)
    return tuple(loose), tuple(stage1)


def discard_stage(counts: Sequence[int]) -> tuple[int, str]:
    """Section 2.1 on a hand of 34 counts: the kind to discard and the stage that chose it."""
    # A kind's waits to become body are worked out only where a stage reads them (stage 1 only asks
    # whether a loose tile has none; the pairs only when no loose tile is chosen): the same stages,
    # fewer sets built (replay, 4 policies, one core: most turns end at stage 1). The loose kinds
    # come group by group, each group's cached (:func:`_group_loose`), in kind order as before.
    hand = bytes(counts)
    g0, g1 = _group_loose(hand[0:9], 0), _group_loose(hand[9:18], 9)
    g2, g3 = _group_loose(hand[18:27], 18), _group_loose(hand[27:34], 27)
    stage1 = g0[1] + g1[1] + g2[1] + g3[1]
    if stage1:
        k = pick(stage1)
        return k, f"2.1* {TILE_NAMES[k]} is neither body nor pair and has no wait to become body"
    loose = g0[0] + g1[0] + g2[0] + g3[0]
    present = list(compress(_KINDS, counts))
    waits = {k: waits_to_body(k, counts) for k in loose}
    stage2 = [k for k in loose if len(waits[k]) == 1]
    if stage2:
        k = pick(stage2)
        w = tile_name(next(iter(waits[k])))
        return k, f"2.1** {tile_name(k)} is neither body nor pair and has one wait ({w}) to become body"
    heads = [k for k in present if is_head(k, counts)]
    for k in heads:
        waits[k] = waits_to_body(k, counts)
    stage3 = [k for k in heads if len(waits[k]) <= 1]
    if stage3:
        k = pick(stage3)
        w = to_mpsz(sorted(waits[k])) or "none"
        return k, f"2.1*** the pair {tile_name(k)}{tile_name(k)} has at most one wait ({w}) to become body"
    if heads:
        k = pick(heads)
        return k, f"2.1**** no other candidate: break the pair {tile_name(k)}{tile_name(k)}"
    # Not covered by the seed (see the module notes): fewest waits among loose tiles, else any tile.
    pool = loose or present
    for k in pool:
        if k not in waits:
            waits[k] = waits_to_body(k, counts)
    fewest = min(len(waits[k]) for k in pool)
    k = pick([k for k in pool if len(waits[k]) == fewest])
    what = "loose tile" if loose else "tile (all body)"
    return k, f"beyond 2.1: {what} {tile_name(k)} with the fewest waits ({fewest}) to become body"


def live_waits(math: HandMath, counts: Sequence[int], held: Sequence[int]) -> frozenset[int]:
    """Waits of a 3n+1 concealed hand, without kinds of which ``held`` (hand + kans) has all four."""
    return frozenset(w for w in math.waits(counts) if held[w] < 4)


# ---------------------------------------------------------------- the policy


class AkagiPolicy(BasePolicy):
    name = NAME
    seed = SEED
    win_reason = "wins: the bot takes every tsumo and every ron on offer"

    def react(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return pass_or_first(legal).because("1. never declares chi, pon or open kan")

    def turn(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        # the turn's actions sorted out once for every policy asked (replay, 4 policies, one core)
        _, discards, riichis, _, closed, nuki, tiled = turn_actions(view, legal)
        if closed is not None:
            kan = self._closed_kan(view, legal)
            if kan is not None:
                return kan
        if nuki is not None and view.in_riichi:
            return nuki.because("nukidora: the North just drawn is set aside (the waits stay)")
        if view.in_riichi:
            a = tsumogiri(view, legal) or next((a for a in legal if a.kind == "discard"), legal[0])
            return a.because("after riichi the drawn tile is discarded")
        choice = self._discard(
            view, discards if tiled else [a for a in discards if a.tile is not None], riichis
        )
        north = nuki is not None and choice.kind == "discard" and kind(choice.tile) == kind(nuki.tile)  # type: ignore[arg-type]
        if nuki is not None and north:
            return nuki.because(f"nukidora: the North is set aside instead of discarded ({choice.reason})")
        return choice

    def _closed_kan(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        # two quads in hand: the lower kind first, whatever the order of the legal actions
        for a in kans_by_kind(legal):
            if a.kind != "closed_kan":
                continue
            if view.in_riichi:
                # 1. no kan that would change the waits after riichi (the engine should not offer
                # one; checked here so the rule is visible in the policy itself).
                before = list(view.concealed_counts())
                if view.drawn is not None:
                    before[kind(view.drawn)] -= 1
                after = view.concealed_counts()
                after[kind(a.consumed[0])] -= 4
                if self.math.waits(before) != self.math.waits(after):
                    continue
            return a.because("1. four of a kind: closed kan at once")
        return None

    def _discard(self, view: PlayerView, discards: Sequence[Action], riichi: Sequence[Action]) -> Action:
        """Section 2 over the legal ``discards`` (each naming its tile) and ``riichi`` discards."""
        # the discards by kind, sorted out once for the policies asked at the view (replay, 4
        # policies, one core)
        by_kind = actions_by_kind(view, discards)
        # 2.2: tenpai -> the discard leaving the most varied waits, with riichi.
        best: dict[int, int] = {}
        # shanten above 0 means no discard leaves a wait: skip the per-discard wait search
        tenpai_possible = self.math.shanten(view.concealed_bytes) <= 0
        if tenpai_possible:
            counts = view.concealed_counts()
            held = list(counts)
            for m in view.own_melds:
                for t in m.tiles:
                    held[KIND_OF[t]] += 1
            # a discard leaving a shanten above 0 leaves no wait (a hand one tile from complete is
            # tenpai): its waits are not searched (the shanten of each discard is memoised)
            after = self.math.shanten_after_discards(view.concealed_bytes)
            for k in by_kind:
                if after[k] > 0:
                    continue
                counts[k] -= 1
                n = len(live_waits(self.math, counts, held))
                counts[k] += 1
                if n:
                    best[k] = n
        if best:
            riichis = {a.tile: a for a in riichi}
            most = max(best.values())
            k = pick([k for k, n in best.items() if n == most])
            a = _rightmost(by_kind[k])
            tile = a.tile
            kinds = f"{most} kind{'s' if most > 1 else ''}"
            reason = f"2.2 tenpai: {TILE_NAMES[tile]} leaves the most varied waits ({kinds})"  # type: ignore[index]
            r = riichis.get(tile) or next((x for t, x in riichis.items() if kind(t) == k), None)
            if r is not None:
                return r.because(reason + "; riichi at once (an open riichi in the seed)")
            return a.because(reason + "; riichi is not legal here")
        k, reason = discard_stage(view.concealed_bytes)  # (the counts, as bytes)
        if k not in by_kind:
            # A tile the rules forbid (swap-call restriction): rerun the stages without it.
            trimmed = view.concealed_counts()
            for x in range(34):
                if x not in by_kind:
                    trimmed[x] = 0
            k, reason = discard_stage(trimmed)
            reason += " (among the tiles that may legally be discarded)"
        return _rightmost(by_kind[k]).because(reason)


def _rightmost(same_kind: Sequence[Action]) -> Action:
    """Of the discards of one kind, the first discarding the last tile in hand order (the largest
    sort key: the tiles of one kind with equal keys are one tile code)."""
    if len(same_kind) == 1:
        return same_kind[0]
    tile = max((a.tile for a in same_kind), key=_SORT_KEY.__getitem__)  # type: ignore[arg-type]
    return next(a for a in same_kind if a.tile == tile)
