"""MahjongJoy's Hong Kong and Red bots (seed ``000_0655bb32b8765f27.txt``), faithfully.

The seed's definitions and the Hong Kong PM0 discard priorities are those of
:mod:`mjcli.analysis.pm0` (shared with the Riichi bot; its docstring quotes definitions 1-8 and
the readings of their ambiguities). This module adds what the Hong Kong and Red sections say. The
seed's sentences, quoted, then how each is played:

**PM0** ("Algoritmo para bots de Mahjong Hong Kong PM0"): 1 "Descartar": "busca las fichas
conforme a las Prioridades para descartar [...] y selecciona la primera ficha con la máxima
prioridad" (:data:`pm0.PRIORITIES`, the first tile of a level in the seed's hand order, as the
Riichi bot: A7);
2 "El bot siempre acepta una declaración de Mahjong"; 3 "El bot siempre acepta añadir una ficha
para hacer un Kong" (the added kong and the concealed kong of four own tiles, A9); 4 "Pong, Kong,
Chow": "comparar el número máximo de combinaciones ocultas (solo Chow, Pong, Kong) antes y después
de declarar una combinación. Se declara [...] cuando [...] no varía; cuando [...] disminuye en 1 -
en este caso se declara la combinación Kong" (:func:`claim_allowed`).

**1 < PM <= 8 (1, 2, 3 faan)** (``hk-pm8``): "el bot intentará formar una de dos combinaciones
relativamente sencillas: Pung o Un Palo con Honores. Siempre que el bot descarta, debe determinar
cuál [...] es más probable", by points: "Mano de Pung: +5 puntos por cada Pong o Kong oculto o
expuesto, +2 puntos por cada pareja"; "Un Palo con Honores: 15 puntos básicos, 2 puntos por cada
ficha de un palo no común, 1 punto por cada ficha de Dragón o Viento" (:func:`pung_points`,
:func:`suit_points`). "Si un bot forma Un palo con honores, el primer elemento de las prioridades
para descartar pasa a ser: [missing] • Al descartar una ficha del palo incorrecto si un bot no
forma un Pung, los cálculos para el descarte no implican comprobar si hay Chow." "El resto del
algoritmo es igual que con PM0."

**8 < PM <= 16 (4, 5, 6 faan)** (``hk-pm16``): "Si una mano contiene 1 Fan garantizado (Flor o
Estación de Viento Propio, Pung de Dragones o Pung de Viento propio o Viento dominante) el bot se
comporta del mismo modo que en el nivel anterior. Sin 1 Fan garantizado [...] forma una
combinación de Un solo palo y descarta fichas de otros palos así como las fichas de Viento y
Dragón." (:func:`guaranteed_faan`)

**16 < PM (7+ faan)** (``hk-pm16plus``): "un bot solo forma una combinación de Un solo palo y
ayuda a reunir las fichas que falten con la ayuda del azar al coger (Flores, Coger la última
ficha, Cerrar la mano con una ficha cogida del muro)."

**Red** (``red-pm0``, ``red-pm12``, ``red-pm12plus``): "el bot no debe descartar nunca los
Comodines. Por lo demás, el bot actúa exactamente igual que en las variantes Hong Kong [...]. Si
los puntos mínimos son más de 0 pero menos de 12, el bot intentará reunir Todos los Pungs o la
combinación de Flush con Honores [by the Hong Kong rules]. Si los puntos mínimos son más de 12, el
bot solo reunirá Flush Puros. Un bot reunirá el palo con la mayoría de fichas en una mano propia e
intentará descartar primero fichas del resto de palos y fichas de Honores."

Ambiguities (numbered A1-A30 as in the project's research notes on seed 000) and the readings
chosen:

* A1 PM's unit: the headers' faan are the mapping: ``--min-faan`` 0 is PM0 (``hk-pm0``), 1-3
  ``hk-pm8``, 4-6 ``hk-pm16``, 7 and more ``hk-pm16plus`` (A12: "16 < PM <= (7 + Fan)" is read
  as no upper bound; A13: the level's "mínimo de 3 Fan" is the table's minimum, up to 3). A bot
  plays its own level whatever the table's minimum: a lower level at a higher table may hold
  hands it cannot declare, which it then keeps playing.
* A2 the bots never aim at special hands, but always declare a legal win, whatever it is.
* A3 exposed tiles: the rivers and the other players' melds (their concealed kongs too, which
  lie on the table); never the own melds, bonus tiles or jokers.
* A7 "la primera ficha": the first in the seed's own hand order, the one every hand it writes is
  in ("B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN"): bamboo (s), characters (m), dots (p), then East
  South West North, White Green Red (:func:`pm0.seed_rank`, as the Riichi bot reads it). Until
  2026-12-07 these bots took m, p, s, which nothing in the seed says (a reviewer's finding: the
  two bots read one sentence two ways).
* A8 a win below the table's minimum is not a mahjong, so it is never offered.
* A10/A11 PM0 4 decides calls on another player's discard: a pung or chow when the maximum of
  concealed sets does not change, a kong when it drops by at most one; kong before pung before
  chow, then the lowest tiles. It is used on every discard (Hong Kong has no closed-hand switch).
* A14 "Pung" is the all-pungs hand, "Un Palo con Honores" mixed one suit; a hand that ends with no
  honour (all one suit) is welcome.
* A15 ties between the two scores: the pung hand (it suits any mix of suits). The choice is made
  afresh at every discard ("Siempre que el bot descarta, debe determinar"), so no memory is kept.
* A16 pung points: a kind held three or four times in the closed hand, or an own pung or kong
  meld, is a pong (+5); a kind held exactly twice a pair (+2); chows score nothing.
* A17 the lost signs: 15 - 2 per tile of another suit + 1 per honour tile (honours help a mixed
  one suit). The other reading (15 - 2 x off-suit - 1 x honours) is rejected; the test hand
  ``11m22p33s456s789s12z`` pins it (suit 9 > pung 6).
* A18 "palo no común": every number tile not of the suit with most tiles (ties: s, then m, then p,
  the seed's hand order of A7; until 2026-12-08 m, p, s, the kind order A7 had left).
* A19 both scores count the closed hand and the bot's own melds (the pung score says "expuesto"),
  never bonus tiles or jokers.
* A20 the missing first priority: with the suit hand chosen, a new first level "tile of the wrong
  suit" (number tiles of the other suits) comes before the PM0 list; inside it the tile is picked
  by the PM0 levels without the chow ones ("los cálculos para el descarte no implican comprobar si
  hay Chow": dead incomplete chow, minor tile and incomplete chow are skipped); honours are never
  in it. Rejected: reading the bullet as a rule for the pung hand.
* A21 calls at the 1-3 faan level: PM0 4 unchanged ("El resto del algoritmo es igual que con PM0"),
  even when a call works against the chosen hand (the next discard's choice then counts the meld).
  At the pure-suit levels ("solo forma una combinación de Un solo palo") a tile of another suit or
  an honour is never called: a called tile can never be discarded again.
* A22 the guaranteed faan: the own flower or own season (bonus tile number = seat wind), or a
  dragon, seat-wind or prevailing-wind pung held (three or four in the closed hand, or an own
  pung or kong meld); a pair does not count.
* A23 the single suit: the one with most number tiles in the closed hand and the own melds,
  chosen afresh at every discard; ties in the seed's hand order (s, m, p; see A18).
* A24 discarding toward one suit: one first level holding the other suits' tiles and the honours
  together, the tile picked by the PM0 levels (dead tile first, ...); then the PM0 list.
* A25 "ayuda a reunir las fichas que falten con la ayuda del azar": nothing more to do: the bot
  builds the suit and takes a legal win as soon as luck gives one (flowers, the last tile and a
  self-drawn win are faan items of the table).
* A26/A30 jokers: never discarded (unless nothing else is left, which the Red rules make
  impossible for a hand of more than two tiles with four jokers: then forced); the definitions,
  the priorities and the claim rule are computed on the closed hand without its jokers (a joker
  can complete anything, so with jokers as wildcards no tile would ever be dead).
* A27 "con muy pocas excepciones": only the two stated (jokers, the point bands).
* A28/A29 the Red bands: minimum 0 is PM0 (``red-pm0``); more than 0 and below 12 points the
  chooser (``red-pm12``); 12 and above the pure suit (``red-pm12plus``; 12 itself, in neither of
  the seed's bands, goes with "more than 12"). The points are mapped to faan with the seed's Hong
  Kong headers (8 PM ~ 3 faan, 16 PM ~ 6 faan, so 12 PM ~ 4.5 faan): ``red-pm12`` suits a
  ``--min-faan`` of 1-4, ``red-pm12plus`` 5 and more. Jokers count in no suit and score nothing
  in the chooser. The Red section names no "guaranteed faan" level: there is none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import NamedTuple

from mjcli.analysis import pm0
from mjcli.hk.engine import Move, SeatView
from mjcli.hk.notation import JOKER, bonus_number, tile_text
from mjcli.tiles import DRAGONS, WINDS

SEED = "000_0655bb32b8765f27.txt (Definiciones; Hong Kong PM0 1-4; 1 < PM <= 8; 8 < PM <= 16; 16 < PM; Rojo)"

#: the levels: PM0, the 1-3 faan chooser, 4-6 faan (guaranteed faan or a pure suit), 7+ pure suit
LEVELS = ("pm0", "pm8", "pm16", "pm16plus")
_CALL_RANK = {"kong": 0, "pung": 1, "chow": 2}
_KIND, _TILE = itemgetter(0), itemgetter(1)  # Move.kind, Move.tile (a move is a named tuple)
#: PM0 levels that look at chows, skipped inside the suit hand's first level (A20)
_CHOW_LEVELS = frozenset({pm0.PRIORITIES[2], pm0.PRIORITIES[6], pm0.PRIORITIES[7]})

PUNG_HAND, SUIT_HAND, PURE_SUIT, PM0_PLAN = "pung hand", "one suit with honours", "one single suit", "PM0"


# ---------------------------------------------------------------- what the bot counts


def _meld_kinds(view: SeatView) -> list[int]:
    return [k for m in view.melds for k in (m.kind34,) * 3]


def pung_points(view: SeatView) -> int:
    """+5 per pong or kong (a kind held 3-4 times in the closed hand, an own pung or kong meld),
    +2 per pair (a kind held exactly twice)."""
    hand = view.hand
    pongs = hand.count(3) + hand.count(4) + sum(1 for m in view.melds if m.kind != "chi")
    return 5 * pongs + 2 * hand.count(2)


def suit_tiles(view: SeatView) -> list[int]:
    """Number tiles per suit (m, p, s) in the closed hand and the own melds (jokers in none)."""
    hand = view.hand
    per = [sum(hand[0:9]), sum(hand[9:18]), sum(hand[18:27])]
    for m in view.melds:
        t = m.tiles[0]  # a meld's tiles are of one suit
        if t < 27:
            per[t // 9] += len(m.tiles)
    return per


def _most(per: Sequence[int]) -> int:
    """The suit with most tiles, ties in the seed's hand order: s, m, p (A18, A23; written out, not
    a max with a key: asked at every decision of the suit levels)."""
    common = 0 if per[0] > per[2] else 2
    return 1 if per[1] > per[common] else common


def main_suit(view: SeatView) -> int:
    """The suit with most tiles (closed hand and own melds); ties in s, m, p order."""
    return _most(suit_tiles(view))


def suit_points(view: SeatView) -> tuple[int, int]:
    """(points, common suit): 15 - 2 per tile of the other suits + 1 per honour tile."""
    per = suit_tiles(view)
    common = _most(per)
    off = per[0] + per[1] + per[2] - per[common]
    honours = sum(view.hand[27:]) + sum(len(m.tiles) for m in view.melds if m.tiles[0] >= 27)
    return 15 - 2 * off + honours, common


#: the kinds whose pung is a guaranteed faan, in hand order (winds, then dragons), by seat wind
#: and prevailing wind (made once: asked at every decision of the 4-6 faan level)
_FAAN_PUNGS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sorted({WINDS[seat], WINDS[prevailing], *DRAGONS})) for prevailing in range(4))
    for seat in range(4)
)


def guaranteed_faan(view: SeatView) -> str | None:
    """The guaranteed faan the hand holds (A22), named, or None."""
    own = view.seat_wind + 1
    for b in view.bonus:
        if bonus_number(b) == own:
            return f"own {'flower' if b < 39 else 'season'} {own}"
    seat = WINDS[view.seat_wind]
    melded = {m.kind34 for m in view.melds if m.kind != "chi"}
    hand = view.hand
    for k in _FAAN_PUNGS[view.seat_wind][view.prevailing_wind]:
        if hand[k] >= 3 or k in melded:
            if k in DRAGONS:
                return f"dragon pung {tile_text(k)}"
            return f"{'seat' if k == seat else 'prevailing'}-wind pung {tile_text(k)}"
    return None


# ---------------------------------------------------------------- the plan of a level


class Plan(NamedTuple):
    """What the bot builds now: ``kind`` one of PM0_PLAN, PUNG_HAND, SUIT_HAND, PURE_SUIT;
    ``suit`` the suit (0-2) of a suit plan; ``why`` the words of the reason. (A named tuple:
    one is made at every decision, and a frozen dataclass is several times slower to build.)"""

    kind: str
    suit: int = -1
    why: str = ""


_PM0 = Plan(PM0_PLAN)


def chooser(view: SeatView) -> Plan:
    """The 1-3 faan level's choice between the pung hand and one suit with honours (A15-A19)."""
    pung = pung_points(view)
    suit, common = suit_points(view)
    if suit > pung:
        return Plan(SUIT_HAND, common, f"suit {'mps'[common]} {suit} > pung {pung}")
    return Plan(PUNG_HAND, -1, f"pung {pung} >= suit {'mps'[common]} {suit}")


def plan_for(level: str, view: SeatView) -> Plan:
    if level == "pm0":
        return _PM0
    if level == "pm8":
        return chooser(view)
    if level == "pm16":
        faan = guaranteed_faan(view)
        if faan is not None:
            p = chooser(view)
            return Plan(p.kind, p.suit, f"guaranteed faan ({faan}); {p.why}")
        suit = main_suit(view)
        return Plan(PURE_SUIT, suit, f"no guaranteed faan; suit {'mps'[suit]}")
    suit = main_suit(view)
    return Plan(PURE_SUIT, suit, f"suit {'mps'[suit]}")


def _off_plan(k: int, plan: Plan) -> bool:
    """A tile the plan's first level discards: another suit's (and, for a pure suit, an honour)."""
    if k >= 27:
        return plan.kind == PURE_SUIT
    return k // 9 != plan.suit


#: the kinds :func:`_off_plan` keeps, by plan kind and suit: the suit's (and the honours for
#: SUIT_HAND), so that the off-plan kinds of a hand are one set difference, made in C
_KEPT = {
    SUIT_HAND: tuple(frozenset(range(9 * s, 9 * s + 9)) | frozenset(range(27, 34)) for s in range(3)),
    PURE_SUIT: tuple(frozenset(range(9 * s, 9 * s + 9)) for s in range(3)),
}


def _off_plan_kinds(kinds: Sequence[int], plan: Plan) -> set[int]:
    """The kinds (0-33) among ``kinds`` for which :func:`_off_plan` holds."""
    return set(kinds).difference(_KEPT[plan.kind][plan.suit])


# ---------------------------------------------------------------- decisions


def exposed_counts(view: SeatView) -> list[int]:
    """Definition 1 (A3): rivers and the other players' melds, not the own melds."""
    return view.exposed_counts()


def choose_discard(view: SeatView, candidates: Sequence[int], plan: Plan) -> tuple[int, str]:
    """The kind to discard among ``candidates`` (kinds, jokers excluded) and the level that chose it."""
    allowed = set(candidates)
    exposed = view.exposed_counts()
    # (the levels' kinds are met with set methods, isdisjoint and intersection, which run in C)
    if plan.kind in (SUIT_HAND, PURE_SUIT):
        first = _off_plan_kinds(allowed, plan)
        if first:
            name = "tile of the wrong suit" if plan.kind == SUIT_HAND else "tile of another suit or an honour"
            skip = _CHOW_LEVELS if plan.kind == SUIT_HAND else ()
            for level, kinds in pm0.discard_levels(view.hand, exposed, pm0.SEED_RANK):
                if level in skip or first.isdisjoint(kinds):
                    continue
                if level == pm0.BEYOND:  # in no level of the list (as read here): the first one
                    k = next(k for k in kinds if k in first)
                    return k, f"{name}: {tile_text(k)}"
                k = min(first.intersection(kinds), key=pm0.SEED_RANK)
                return k, f"{name} ({level}): {tile_text(k)}"
            # not reached when the candidates are tiles of the hand (the last level holds them
            # all), so the levels are not kept for the walk below: made again if ever needed
    for level, kinds in pm0.discard_levels(view.hand, exposed, pm0.SEED_RANK):
        if allowed.isdisjoint(kinds):
            continue
        k = (
            next(k for k in kinds if k in allowed)
            if level == pm0.BEYOND
            else min(allowed.intersection(kinds), key=pm0.SEED_RANK)
        )
        return k, f"{level}: {tile_text(k)}"
    k = min(allowed, key=pm0.SEED_RANK)
    return k, f"first tile: {tile_text(k)}"


def claim_allowed(view: SeatView, call: Move, before: int | None = None) -> tuple[bool, str]:
    """PM0 4 on the closed hand without jokers: the maximum of concealed sets before and after
    (``before`` may be passed, the same for every call on one discard)."""
    hand = list(view.hand)
    if before is None:
        before = pm0.max_sets(hand)
    used = call.uses if call.kind == "chow" else (call.tile,) * (3 if call.kind == "kong" else 2)
    for t in used:
        hand[t] -= 1
    after = pm0.max_sets(hand)
    if after == before:
        return True, f"concealed combinations stay at {before}"
    if after == before - 1 and call.kind == "kong":
        return True, f"concealed combinations drop from {before} to {after}: a kong is declared"
    return False, f"concealed combinations would drop from {before} to {after}"


@dataclass(frozen=True)
class SeedBot:
    """One of the seed's bots: ``level`` (:data:`LEVELS`) and whether it is a Red bot (it then
    never discards a joker; Hong Kong bots never see jokers in their lists either, so at a Red
    table they keep them too)."""

    name: str
    level: str
    red: bool = False
    seed: str = SEED

    def decide(self, view: SeatView, legal: Sequence[Move]) -> tuple[Move, str]:
        if view.phase == "turn":
            return self.turn(view, legal)
        return self.react(view, legal)

    def turn(self, view: SeatView, legal: Sequence[Move]) -> tuple[Move, str]:
        if list(map(_KIND, legal)).count("discard") == len(legal):
            # only discards (most turns): the tile -> move table made in C
            discards = dict(zip(map(_TILE, legal), legal, strict=True))
        else:
            discards = {m.tile: m for m in legal if m.kind == "discard"}
            for m in legal:
                if m.kind == "win":
                    return m, "PM0 2: always declares mahjong"
            for m in legal:
                if m.kind == "akong":
                    return m, "PM0 3: always adds a tile to make a kong"
            for m in legal:
                if m.kind == "ckong":
                    return m, "PM0 3: always makes a kong of its own four tiles"
        kinds = list(discards)
        if JOKER in discards:
            kinds.remove(JOKER)
        if not kinds:
            if JOKER in discards:
                return discards[JOKER], "only jokers are left to discard (forced)"
            return legal[0], "the only legal move"
        plan = plan_for(self.level, view)
        k, level = choose_discard(view, kinds, plan)
        return discards[k], f"{self._plan_words(plan)}PM0 1 {level}"

    def react(self, view: SeatView, legal: Sequence[Move]) -> tuple[Move, str]:
        passing = next((m for m in legal if m.kind == "pass"), legal[0])
        for m in legal:
            if m.kind == "win":
                return m, "PM0 2: always declares mahjong" + (
                    " (robbing a kong)" if view.phase == "rob" else ""
                )
        calls = sorted(
            (m for m in legal if m.kind in _CALL_RANK), key=lambda m: (_CALL_RANK[m.kind], m.uses, m.tile)
        )
        if not calls:
            return passing, "nothing to call"
        plan = plan_for(self.level, view)
        reasons = []
        before = None  # the hand's count, made once for all the calls
        for call in calls:
            if plan.kind == PURE_SUIT and _off_plan(call.tile, plan):
                reasons.append(f"{call.text()}: {tile_text(call.tile)} is not of suit {'mps'[plan.suit]}")
                continue
            if before is None:
                before = pm0.max_sets(view.hand)
            ok, reason = claim_allowed(view, call, before)
            if ok:
                return call, f"{self._plan_words(plan)}PM0 4: {reason}"
            reasons.append(f"{call.text()}: {reason}")
        return passing, f"{self._plan_words(plan)}PM0 4: " + "; ".join(reasons)

    @staticmethod
    def _plan_words(plan: Plan) -> str:
        if plan.kind == PM0_PLAN:
            return ""
        return f"{plan.kind} ({plan.why}); "


#: every seed bot by name (levels as the A1 and A28 readings map them)
BOTS: dict[str, SeedBot] = {
    b.name: b
    for b in (
        SeedBot("hk-pm0", "pm0"),
        SeedBot("hk-pm8", "pm8"),
        SeedBot("hk-pm16", "pm16"),
        SeedBot("hk-pm16plus", "pm16plus"),
        SeedBot("red-pm0", "pm0", red=True),
        SeedBot("red-pm12", "pm8", red=True),
        SeedBot("red-pm12plus", "pm16plus", red=True),
    )
}
