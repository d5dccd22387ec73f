"""The MahjongJoy Riichi bot (seed ``000_0655bb32b8765f27.txt``, "Algoritmo para bots de Mahjong Riichi").

The Riichi section decides between a closed and an open hand, then "acts exactly like the Hong
Kong PM0 bot", whose definitions and discard priorities live in :mod:`mjcli.policies.pm0`:

* Open hand when the bot already has an exposed combination, or holds a pon, a closed kan or a
  pair of dragons, own wind or round wind; otherwise a closed hand.
* Riichi whenever it can be declared.
* An open hand with only one pair of yakuhai (and no yaku) never discards from that pair; it
  discards tiles of concealed chows or pons instead.
* PM0 1, discard: the first tile (hand order) of the highest priority in the list.
* PM0 2, declare mahjong: always (tsumo and ron).
* PM0 3, make a kong by adding a tile: always.
* PM0 4, pong / kong / chow: compare the maximum number of concealed combinations (chow, pong,
  kong) before and after the call; call when it does not change, and call a kong when it drops by 1.

Ambiguities of the seed and the readings chosen:

* "un Pon, un Kan cerrado o un par de Dragones o Viento propio o Viento dominante": the yakuhai
  qualifier is read as applying to all three (a concealed triplet, closed kan or pair of a
  dragon, the seat wind or the round wind), since the section's point is having a yaku.
* A closed hand makes no call at all (calling would open it); only an open hand uses PM0 4.
* "Yaku" in the pair rule is a yakuhai triplet or kan, concealed or called, that the hand already has.
* Riichi "whenever possible" chooses, among the discards that riichi allows, the one the priority
  list ranks first.
* PM0 3 ("always add a tile to make a kong") is read as covering both kongs a player makes from
  its own draw: the added kan and the closed kan. Nine-terminals abort: never (not mentioned).
* Several calls allowed by PM0 4 at once: kong before pong before chow, then the lowest tiles.
* Exposed tiles include the player's own open melds (see :mod:`mjcli.policies.pm0`), and the ura
  dora that the seed lists are not visible during play, so they never count.
* "The first tile" of a priority level is the first in hand order (man, pin, sou, honours; a red
  five before the plain fives). When a hand has no tile in any level (every tile in a complete
  combination), a tile whose discard keeps the most combinations is discarded (not in the seed).
"""

from __future__ import annotations

from collections.abc import Sequence

from mjcli.policies import pm0
from mjcli.policies.base import require_legal, win
from mjcli.policies.view import Action, PlayerView
from mjcli.tiles import kind, sort_key, tile_name, to_mpsz

NAME = "mahjongjoy"
SEED = "000_0655bb32b8765f27.txt (Definiciones; Hong Kong PM0 1-4; Algoritmo para bots de Mahjong Riichi)"

_CALL_RANK = {"open_kan": 0, "pon": 1, "chi": 2}


def hand_mode(view: PlayerView) -> tuple[bool, str]:
    """(open?, why): the Riichi section's choice between an open and a closed hand."""
    if not view.is_closed:
        return True, "has an exposed combination"
    yakuhai = view.yakuhai_kinds()
    counts = view.concealed_counts()
    for m in view.own_melds:
        if m.kind == "ankan" and kind(m.tiles[0]) in yakuhai:
            return True, f"has a closed kan of {tile_name(kind(m.tiles[0]))}"
    for k in sorted(yakuhai):
        if counts[k] >= 3:
            return True, f"has a pon of {tile_name(k)}"
    for k in sorted(yakuhai):
        if counts[k] == 2:
            return True, f"has a pair of {tile_name(k)}"
    return False, "no exposed combination and no yakuhai pon, kan or pair"


def protected_pair(view: PlayerView) -> int | None:
    """The only yakuhai pair of an open hand without yaku: the kind never to discard from."""
    yakuhai = view.yakuhai_kinds()
    counts = view.concealed_counts()
    if any(counts[k] >= 3 for k in yakuhai):
        return None
    if any(m.kind != "chi" and kind(m.tiles[0]) in yakuhai for m in view.own_melds):
        return None
    pairs = [k for k in sorted(yakuhai) if counts[k] == 2]
    return pairs[0] if len(pairs) == 1 else None


def choose_discard(
    view: PlayerView, candidates: Sequence[Action], protect: int | None = None
) -> tuple[Action, str]:
    """PM0 1 over the legal ``candidates`` (discards or riichi discards): the action and its level."""
    hand = view.concealed_counts()
    exposed = view.visible_counts()
    by_kind: dict[int, list[Action]] = {}
    for a in sorted(candidates, key=lambda a: sort_key(a.tile)):  # type: ignore[arg-type]
        by_kind.setdefault(kind(a.tile), []).append(a)  # type: ignore[arg-type]
    for level, kinds in pm0.discard_levels(hand, exposed):
        allowed = [k for k in kinds if k in by_kind and k != protect]
        if level == pm0.BEYOND and not allowed:
            allowed = [k for k in kinds if k in by_kind]
        if allowed:
            k = allowed[0] if level == pm0.BEYOND else min(allowed)
            return by_kind[k][0], f"{level}: {tile_name(by_kind[k][0].tile)}"  # type: ignore[arg-type]
    a = min(candidates, key=lambda a: sort_key(a.tile))  # type: ignore[arg-type]
    return a, f"first tile: {tile_name(a.tile)}"  # type: ignore[arg-type]


def claim_allowed(view: PlayerView, call: Action) -> tuple[bool, str]:
    """PM0 4: the maximum of concealed chows/pongs/kongs before and after the call."""
    hand = view.concealed_counts()
    before = pm0.max_sets(hand)
    after_hand = list(hand)
    for t in call.consumed:
        after_hand[kind(t)] -= 1
    after = pm0.max_sets(after_hand)
    if after == before:
        return True, f"concealed combinations stay at {before}"
    if after == before - 1 and call.kind == "open_kan":
        return True, f"concealed combinations drop from {before} to {after}: a kong is declared"
    return False, f"concealed combinations would drop from {before} to {after}"


class MahjongJoyPolicy:
    name = NAME
    seed = SEED

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        require_legal(legal, NAME)
        w = win(legal)
        if w is not None:
            return w.because("PM0 2: always declares mahjong")
        if all(a.kind in ("chi", "pon", "open_kan", "pass") for a in legal):
            return self._react(view, legal)
        for a in legal:
            if a.kind == "added_kan":
                return a.because("PM0 3: always adds a tile to make a kong")
        for a in legal:
            if a.kind == "closed_kan":
                return a.because("PM0 3: always makes a kong of its own four tiles")
        is_open, why = hand_mode(view)
        riichis = [a for a in legal if a.kind == "riichi"]
        if riichis:
            a, level = choose_discard(view, riichis)
            return a.because(f"Riichi: declares riichi whenever possible; PM0 1 {level}")
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:
            return legal[0].because("the only legal action")
        if view.in_riichi:
            return discards[0].because("after riichi the drawn tile is discarded")
        protect = protected_pair(view) if is_open else None
        a, level = choose_discard(view, discards, protect)
        mode = f"{'open' if is_open else 'closed'} hand ({why})"
        if protect is not None:
            mode += f"; keeps the only yakuhai pair {tile_name(protect)}{tile_name(protect)}"
        return a.because(f"PM0 1 {level}; {mode}")

    def _react(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        passing = next((a for a in legal if a.kind == "pass"), legal[0])
        calls = [a for a in legal if a.kind in _CALL_RANK]
        if not calls:
            return passing.because("nothing to call")
        is_open, why = hand_mode(view)
        if not is_open:
            return passing.because(f"Riichi: builds a closed hand ({why}), so it does not call")
        calls.sort(key=lambda a: (_CALL_RANK[a.kind], [sort_key(t) for t in a.consumed]))
        reasons = []
        for call in calls:
            ok, reason = claim_allowed(view, call)
            if ok:
                return call.because(f"PM0 4 (open hand: {why}): {reason}")
            reasons.append(f"{call.kind} {to_mpsz(call.consumed)}: {reason}")
        return passing.because("PM0 4: " + "; ".join(reasons))
