"""The MahjongJoy Riichi bot (seed ``000_0655bb32b8765f27.txt``, "Algoritmo para bots de Mahjong Riichi").

The Riichi section decides between a closed and an open hand, then "actúa exactamente del mismo
modo que el bot Hong Kong MP0", whose definitions and discard priorities live in
:mod:`mjcli.analysis.pm0`. The seed's rules, quoted, and how each is played:

* "Si el bot ya tiene una combinación expuesta, solo buscará combinaciones de mano abiertas. Si
  el bot tiene un Pon, un Kan cerrado o un par de Dragones o Viento propio o Viento dominante,
  buscará crear una mano abierta. De lo contrario, el bot intentará formar una mano cerrada."
  (:func:`hand_mode`)
* "Un bot declarará Riichi siempre que tenga oportunidad de declararlo."
* "En caso de que el bot esté construyendo una mano abierta y tenga solo una pareja de Dragones o
  Viento propio o Viento Dominante (y no Yaku), el bot no debe descartar nunca fichas de ese par
  y, en su lugar, elegirá descartar fichas de Chows o Pons ocultos." (:func:`protected_pair`,
  :func:`choose_discard`)
* PM0 1, "Descartar": "busca las fichas conforme a las Prioridades para descartar [...] y
  selecciona la primera ficha con la máxima prioridad" (the list is :data:`pm0.PRIORITIES`),
  looking at "las fichas de su propia mano y las Fichas Expuestas" (:func:`exposed_counts`).
* PM0 2, "Declarar Mahjong": "El bot siempre acepta una declaración de Mahjong" (tsumo and ron).
* PM0 3, "Hacer un Kong": "El bot siempre acepta añadir una ficha para hacer un Kong".
* PM0 4, "Pong, Kong, Chow": compare "el número máximo de combinaciones ocultas (solo Chow, Pong,
  Kong)" before and after the call; call when it does not change, and call a kong when it drops
  by 1 (:func:`claim_allowed`).

Ambiguities of the seed and the readings chosen:

* Open or closed (reading 1). "Si el bot tiene un Pon, un Kan cerrado o un par de Dragones o
  Viento propio o Viento dominante, buscará crear una mano abierta": the qualifier "de Dragones o
  Viento propio o Viento dominante" is read as covering all three. The section is about getting
  the one yaku a hand needs ("la mano debe contener al menos 1 Yaku"); "un Pon" here cannot be a
  called pon (that is "una combinación expuesta", the sentence before), so it is a concealed
  triplet, and a plain one (``555m``, or a closed kan ``5555m``) gives no yaku and no reason to
  open the hand; the same document qualifies the pung the same way for the same purpose in its Hong
  Kong section ("1 Fan garantizado (... Pung de Dragones o Pung de Viento propio o Viento
  dominante)"). So a yakuhai kind held three or four times, a yakuhai closed kan or a yakuhai pair
  opens the hand; a plain triplet, kan or pair does not. (East seat in an East round: the double
  wind counts once, as any yakuhai kind.) The grammar alone would also allow the literal reading
  (the qualifier is the pair's only, so any concealed triplet or closed kan opens the hand): it is
  kept as the policy ``mahjongjoy-literal`` (:class:`LiteralMahjongJoyPolicy`), which differs in
  nothing else.
* A closed hand makes no call at all (calling would open it); only an open hand uses PM0 4.
* Exposed tiles, read literally: every river tile, the combinations "de otros jugadores" (their
  closed kans included: they lie on the table as much as the open ones) and the dora indicators
  (kan dora included, each indicator counted); not the player's own melds, not the ura dora, which
  nobody sees during play, and not another player's concealed hand shown at the table (the seed's
  list is closed: rivers, open combinations, dora indicators; :attr:`PlayerView.shown_hands` is left
  alone). The offered tile of a reaction counts (it lies in a river).
* The protected pair (reading 2). "tenga solo una pareja de Dragones ... (y no Yaku)": "solo una
  pareja" is read as "only one pair". The sentence keeps the hand's one source of a yaku; with two
  yakuhai pairs the hand has two, so neither is protected, and the priority list (whose dead-pair
  levels come first: a dead yakuhai pair can no longer become a pon, so it is no source of a yaku)
  breaks one; from then on the other is the only one, and protected. So this reading never gives
  up the last source of a yaku. "no Yaku" is read as no yakuhai triplet or kan, concealed or called
  (the only yaku the section talks about). The pair is never discarded: when it is the only tile of
  the first priority level that has candidates, a tile of a concealed chow or pon goes instead
  (:func:`pm0.concealed_set_kinds`: a kind held three times or one of three consecutive kinds all
  held; the ones whose discard keeps the most combinations first, then hand order); the list does
  not move on to its next level. When that level holds other tiles too, the first of them goes (it
  has the same, highest, priority). When the hand has no concealed chow or pon, the seed's
  instruction cannot be followed and its "no debe descartar nunca" stands: the list goes on below
  the pair's level (not in the seed).
* Riichi "whenever possible" chooses, among the discards that riichi allows, the one the priority
  list ranks first; the pair rule does not apply (riichi is a yaku).
* PM0 3 ("always add a tile to make a kong") is read as covering both kongs a player makes from
  its own draw: the added kan and the closed kan, which is always taken. Nine-terminals abort:
  never (not mentioned).
* Several calls allowed by PM0 4 at once: kong before pong before chow, then the lowest tiles.
* "La primera ficha" of a priority level (reading 3) is the first in the seed's own hand order:
  bamboo (sou), characters (man), dots (pin), each 1-9, then East South West North, then the
  dragons (:func:`pm0.seed_rank`). Every example hand of the seed is written in that order ("B1 B2
  B4 C1 C4 D1 D2 D3 D4 VS VN VN VN"), so of its unique tiles C1, C4 and a drawn B9 the first is
  B9. When a hand has no tile in any level (every tile in a complete combination), a tile whose
  discard keeps the most combinations is discarded, the first in that order (not in the seed).
* Red fives: the seed has none. Between a red five and a plain five of the same kind the plain
  one is discarded (the red one is a dora).
* Three-player nukidora (the seed plays four-player): a North is always set aside when allowed,
  read from PM0 3 ("always adds a tile to make a kong") and from the Hong Kong game PM0 was written
  for, where a bonus tile is always laid aside and replaced: a North set aside is such a tile (a
  dora and a replacement draw). Kongs come first.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import compress, repeat
from operator import attrgetter, ge, itemgetter

from mjcli.analysis import pm0
from mjcli.riichi.policies.base import BasePolicy, actions_by_kind, turn_actions
from mjcli.riichi.policies.view import TILE_NAMES, Action, PlayerView
from mjcli.tiles import KIND_OF, is_red, kind, sort_key, tile_name, to_mpsz

NAME = "mahjongjoy"
LITERAL_NAME = "mahjongjoy-literal"
SEED = "000_0655bb32b8765f27.txt (Definiciones; Hong Kong PM0 1-4; Algoritmo para bots de Mahjong Riichi)"

_SEED_RANK = pm0.SEED_RANK

_CALL_RANK = {"open_kan": 0, "pon": 1, "chi": 2}

_KINDS = range(34)

#: an action's fields as a tuple (the memo key of :func:`choose_discard`), made in C
_ACTION_FIELDS = attrgetter("kind", "tile", "consumed")

#: reason of a discard made by the pair rule
SET_TILE = "tile of a concealed chow or pon"


def exposed_counts(view: PlayerView) -> list[int]:
    """Definition 1: rivers, the other players' melds and the dora indicators (not own melds)."""
    return list(_exposed(view))


_EXPOSED = ("mahjongjoy.exposed",)


def _exposed(view: PlayerView) -> tuple[int, ...]:
    """:func:`exposed_counts`, worked out once per view (both readings of the seed ask for it)."""
    got = view.memo.get(_EXPOSED)
    if got is None:
        melds = view.own_melds
        if not melds:
            # a hand without melds (most): the view's visible counts themselves (none is below 0),
            # no copy (bench_speed: "replay, 4 policies, one core")
            got = view.memo[_EXPOSED] = view.visible_tuple
            return got  # type: ignore[return-value]
        counts = view.visible_counts()
        for m in melds:
            for t in m.tiles:
                counts[KIND_OF[t]] -= 1
        # (below 0 only where a view's counts miss some of its own meld: clamped then alone, the
        # smallest count read in C; replay, 4 policies, one core)
        if min(counts) < 0:
            counts = [c if c > 0 else 0 for c in counts]
        got = view.memo[_EXPOSED] = tuple(counts)
    return got  # type: ignore[return-value]


def hand_mode(view: PlayerView, literal: bool = False) -> tuple[bool, str]:
    """(open?, why): the Riichi section's choice between an open and a closed hand.

    Reading 1 (see the module notes): a yakuhai pon (three or four in hand), a yakuhai closed kan
    or a yakuhai pair opens the hand. ``literal``: any concealed pon or closed kan does.
    """
    # Both readings ask at every turn and every call on offer: both answers are worked out in one
    # pass over the melds and counts and kept in the view's memo, so that the other reading finds
    # its own (replay, 4 policies, one core).
    memo = view.memo
    got = memo.get(_HAND_MODES)
    if got is None:
        got = memo[_HAND_MODES] = _hand_modes(view)
    return got[1 if literal else 0]  # type: ignore[index,no-any-return]


_HAND_MODES = ("mahjongjoy.hand_modes",)


def _hand_modes(view: PlayerView) -> tuple[tuple[bool, str], tuple[bool, str]]:
    """:func:`hand_mode` of both readings: (reading 1's, the literal one's)."""
    melds = view.own_melds
    if melds and not view.is_closed:
        exposed = (True, "has an exposed combination")
        return exposed, exposed
    yakuhai = view.yakuhai_kinds()
    plain = literal = None
    for m in melds:
        if m.kind == "ankan":
            k = kind(m.tiles[0])
            if literal is None:  # the literal reading: the first closed kan
                literal = (True, f"has a closed kan of {TILE_NAMES[k]}")
            if plain is None and k in yakuhai:  # reading 1: the first yakuhai one
                plain = (True, f"has a closed kan of {TILE_NAMES[k]}")
    counts = view.concealed_tuple  # (read only: no copy)
    # (the literal reading's 34 kinds looked at only when some kind is held three times, the
    # yakuhai kinds' counts read in C and searched only when one holds a pon or a pair: with
    # _protected_pair's the same way, ~20 M instructions fewer for 8 hanchan, callgrind; bench_speed
    # "replay, 4 policies, one core")
    ordered, held = _yakuhai_order(yakuhai)
    found = held(counts)
    if literal is None and max(counts) >= 3:
        k = next(compress(_KINDS, map(ge, counts, repeat(3))))  # the first (picked in C)
        literal = (True, f"has a pon of {TILE_NAMES[k]}")
    if plain is None and max(found) >= 3:
        k = next(compress(ordered, map(ge, found, repeat(3))))
        plain = (True, f"has a pon of {TILE_NAMES[k]}")
    pair = None
    if 2 in found:
        pair = (True, f"has a pair of {TILE_NAMES[ordered[found.index(2)]]}")
    if plain is None:
        plain = pair or (False, "no exposed combination, no yakuhai pon, closed kan or pair")
    if literal is None:
        literal = pair or (False, "no exposed combination, no pon or closed kan, no yakuhai pair")
    return plain, literal


@lru_cache(maxsize=64)
def _yakuhai_order(yakuhai: frozenset[int]) -> tuple[tuple[int, ...], itemgetter[tuple[int, ...]]]:
    """The yakuhai kinds in kind order, and what reads their counts from 34 counts (as a tuple):
    per set of yakuhai kinds (16 in all; asked of every view's own hand)."""
    ordered = tuple(sorted(yakuhai))
    return ordered, itemgetter(*ordered)


def protected_pair(view: PlayerView) -> int | None:
    """The only yakuhai pair of an open hand without yaku: the kind never to discard from."""
    # both readings of the seed ask it of an open hand's view: the second finds the first's answer
    # (replay, 4 policies, one core)
    memo = view.memo
    if _PROTECTED in memo:
        return memo[_PROTECTED]  # type: ignore[return-value]
    got = memo[_PROTECTED] = _protected_pair(view)
    return got


_PROTECTED = ("mahjongjoy.protected_pair",)


def _protected_pair(view: PlayerView) -> int | None:
    yakuhai = view.yakuhai_kinds()
    ordered, held = _yakuhai_order(yakuhai)
    found = held(view.concealed_tuple)  # the yakuhai kinds' counts, in kind order (read in C)
    if max(found) >= 3:
        return None
    if any(m.kind != "chi" and kind(m.tiles[0]) in yakuhai for m in view.own_melds):
        return None
    return ordered[found.index(2)] if found.count(2) == 1 else None


def _pick(actions: Sequence[Action]) -> Action:
    """The action discarding a plain copy of its kind when there is one (keeps a red five)."""
    if len(actions) == 1:  # (most kinds: no generator made; replay, 4 policies, one core)
        return actions[0]
    return next((a for a in actions if not is_red(a.tile)), actions[0])  # type: ignore[arg-type]


def choose_discard(
    view: PlayerView, candidates: Sequence[Action], protect: int | None = None
) -> tuple[Action, str]:
    """PM0 1 over the legal ``candidates`` (discards or riichi discards): the action and its level.

    ``protect`` is the kind of the pair rule (:func:`protected_pair`).
    """
    # Both readings of the seed (mahjongjoy, mahjongjoy-literal) discard the same way whenever
    # they agree on the pair rule: the second asked at a view finds the first's answer (this
    # halves the priority list's share of a replay; bench_speed's replay row).
    key = ("mahjongjoy.choose_discard", protect, *map(_ACTION_FIELDS, candidates))
    memo = view.memo
    got = memo.get(key)
    if got is None:
        got = memo[key] = _choose_discard(view, candidates, protect)
    return got  # type: ignore[return-value]


def _choose_discard(
    view: PlayerView, candidates: Sequence[Action], protect: int | None
) -> tuple[Action, str]:
    hand = view.concealed_tuple  # (read only: no copy)
    exposed = _exposed(view)
    # the candidates of each kind in the order given: the plain copy of a kind is always the tile
    # of the kind's own code, so the first plain one (_pick) is the same as in hand order (sorted
    # out once for the policies asked at the view: replay, 4 policies, one core)
    by_kind = actions_by_kind(view, candidates)
    for level, kinds in pm0.discard_levels(hand, exposed, _SEED_RANK):
        if not kinds:
            continue  # (no candidate at this level either way: most levels of most hands)
        allowed = [k for k in kinds if k in by_kind and k != protect]
        if not allowed and protect is not None and protect in kinds and protect in by_kind:
            sets = [k for k in pm0.concealed_set_kinds(hand, pm0.seed_rank) if k in by_kind]
            if sets:
                a = _pick(by_kind[sets[0]])
                return a, (
                    f"{SET_TILE}: {tile_name(a.tile)} instead of the pair "  # type: ignore[arg-type]
                    f"{tile_name(protect)}{tile_name(protect)} ({level})"
                )
        if level == pm0.BEYOND and not allowed:
            allowed = [k for k in kinds if k in by_kind]
        if allowed:
            k = allowed[0] if level == pm0.BEYOND else min(allowed, key=_SEED_RANK)
            a = _pick(by_kind[k])
            return a, f"{level}: {TILE_NAMES[a.tile]}"  # type: ignore[index]
    a = _pick(by_kind[min(by_kind, key=_SEED_RANK)])
    return a, f"first tile: {TILE_NAMES[a.tile]}"  # type: ignore[index]


def _shared_choice(
    view: PlayerView, candidates: tuple[Action, ...], protect: int | None
) -> tuple[Action, str]:
    """:func:`choose_discard` of candidates that
    :func:`~mjcli.riichi.policies.base.turn_actions` gave, kept in the view's memo with the
    candidates themselves: the other reading asking with the same tuple (``is``) and the
    same pair rule finds the answer with no key of the candidates' fields to build and hash
    (replay, 4 policies, one core)."""
    key = ("mahjongjoy.shared_choice", protect)
    memo = view.memo
    got = memo.get(key)
    if got is not None and got[0] is candidates:
        return got[1]  # type: ignore[no-any-return]
    choice = _choose_discard(view, candidates, protect)
    memo[key] = (candidates, choice)
    return choice


def claim_allowed(view: PlayerView, call: Action) -> tuple[bool, str]:
    """PM0 4: the maximum of concealed chows/pongs/kongs before and after the call."""
    hand = view.concealed_tuple  # (read only: no copy)
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


class MahjongJoyPolicy(BasePolicy):
    """Seed 000's Riichi bot under the readings of the module notes (reading 1: only a yakuhai pon,
    closed kan or pair opens a hand)."""

    name = NAME
    seed = SEED
    win_reason = "PM0 2: always declares mahjong"
    #: the literal reading of the open/closed sentence (any concealed pon or closed kan opens)
    literal = False

    def turn(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        # the rules below read the legal actions in this order: an added kan, a closed kan (of
        # several, the lowest kind: turn_actions) or nukidora, then the riichi discards, then the
        # discards
        _, discards, riichis, added, closed, nuki, _ = turn_actions(view, legal)
        if added is not None:
            return added.because("PM0 3: always adds a tile to make a kong")
        if closed is not None:
            return closed.because("PM0 3: always makes a kong of its own four tiles")
        if nuki is not None:
            return nuki.because("PM0 3 (three-player): always sets a North aside, like a bonus tile")
        if riichis:
            a, level = _shared_choice(view, riichis, None)
            return a.because(f"Riichi: declares riichi whenever possible; PM0 1 {level}")
        if not discards:
            return legal[0].because("the only legal action")
        if view.in_riichi:
            return discards[0].because("after riichi the drawn tile is discarded")
        is_open, why = hand_mode(view, self.literal)  # (only the discards below read it)
        protect = protected_pair(view) if is_open else None
        a, level = _shared_choice(view, discards, protect)
        mode = f"{'open' if is_open else 'closed'} hand ({why})"
        if protect is not None:
            mode += f"; keeps the only yakuhai pair {TILE_NAMES[protect]}{TILE_NAMES[protect]}"
        return a.because(f"PM0 1 {level}; {mode}")

    def react(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        passing = next((a for a in legal if a.kind == "pass"), legal[0])
        calls = [a for a in legal if a.kind in _CALL_RANK]
        if not calls:
            return passing.because("nothing to call")
        is_open, why = hand_mode(view, self.literal)
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


class LiteralMahjongJoyPolicy(MahjongJoyPolicy):
    """``mahjongjoy-literal``: the same bot with the open/closed sentence read literally, the
    yakuhai qualifier the pair's only, so any concealed pon (``555m``) or closed kan opens the hand
    (the other readings are the default's)."""

    name = LITERAL_NAME
    literal = True
