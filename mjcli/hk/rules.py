"""Hong Kong Old Style rule sets as data: the faan table, the minimum, the cap, the payment scheme.

:data:`ITEMS` is the default faan table (the one this project specifies), each entry with its id, its name
as shown, its faan and its family:

* ``hand``: the shape and tiles of the hand (counted toward the minimum);
* ``win``: how it was won (counted toward the minimum);
* ``bonus``: flowers and seasons (counted toward the minimum unless the rules say not:
  ``bonus_counts=False``, ``--min-without-bonus``; the Wikipedia "Old Hong Kong" rules do not count
  them, the default does);
* ``limit``: limit hands, scored at the cap and alone.

Where items overlap, only the tighter one scores (the principle of
https://en.wikipedia.org/wiki/Hong_Kong_mahjong_scoring_rules: "only the criteria with the
tighter requirements are scored"): small three dragons includes its two dragon pungs (as
specified), great three dragons its three; small and great four winds include the wind pungs; all
honours and all terminals include all pungs (and all terminals mixed terminals); all one suit
excludes mixed one suit; double kong replacement replaces kong replacement; a full set of four
flowers (or seasons) replaces its own-flower faan (as specified), all eight bonus tiles
replace every bonus item. Mixed terminals stacks with all pungs (as usually played).

Variants are options (:class:`HKRules` fields): ``min_faan``, ``bonus_counts``, ``cap``,
``payment`` (a name of :data:`PAYMENTS`), and any item's faan (``faan`` overrides).

**Red mahjong** (``--game red``, the preset ``red``) is this rule set with jokers. MahjongJoy's own
Red rules could not be found. What was found: a "Red Mahjong" page of the same kind of site
(https://gameclubusa.com/red_mahjong.shtml: 2-4 players, "resembles both Cribbage and Gin Rummy",
4 sets and a pair, a minimum to go out, "only the winner of the hand scores", sets "can ONLY be
either a sequence of 3 (chow) or 3 of a kind (pung)", the text cut before its jokers); MHING, the
rummy-like card game (150 cards, so 6 "mhing" jokers; "There are no restrictions how many mhing
cards are used in combos and in which place", and jokers in combos are never exchanged,
https://jmhing.sourceforge.net/manual.php); American mahjong (8 jokers; "a discarded joker cannot
be called", https://minimahjer.com/blogs/news/jokers-in-american-mahjong); Four Winds ("Usually the
number of jokers is four and they can be used to replace any regular tile", with options for
jokers in chows, pairs and singles, https://4windsmj.com/kb/help/4winex02.htm). It is **not** the
Chinese 红中麻将 (red dragons wild). The design built here, every point ours, resting on those:

1. 148 tiles: the Hong Kong 144 and **4 jokers** (Four Winds' usual number), dealt and drawn like
   any tile (a joker is not a bonus tile: it is never replaced).
2. A joker stands for **any suit or honour tile, in any set of the concealed hand or in the pair**,
   as many per set as held, with no limit of four copies (MHING's "no restrictions"); not in
   thirteen orphans or nine gates, which name their tiles.
3. Jokers stay in the hand: **declared melds are real tiles only** (a pung, chow or kong claim,
   a concealed or added kong), so no joker is ever exchanged (as in MHING) and kong robbing is as
   in Hong Kong.
4. A joker may be discarded, but **a discarded joker can be claimed by nobody**, not even for a
   win (the American rule). The seed's Red bots never discard one.
5. Scoring: the Hong Kong table above, each joker counted as the tile it stands for (the scorer
   tries every choice and keeps the best), **plus "no jokers" 1 faan** for a winning hand without
   a joker (the counterpart of "no bonus tiles": some rule sets value a hand with jokers lower).
   Minimum 3 faan (``--min-faan``), cap 13, payments as in Hong Kong.
6. Kongs as in Hong Kong (the seed's Red bots act "exactamente igual que en las variantes Hong
   Kong", which make kongs); gameclubusa's Red has no kongs: a difference kept on purpose.
7. The seed's Red point bands (0; above 0 and below 12; 12 and above) are mapped to faan with the
   seed's own Hong Kong headers (8 PM ~ 3 faan, 16 PM ~ 6 faan): ``red-pm0`` for a minimum of 0,
   ``red-pm12`` for 1-4 faan, ``red-pm12plus`` for 5 and more (:mod:`mjcli.hk.policies.mahjongjoy`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mjcli.errors import UsageError

HAND, WIN, BONUS, LIMIT = "hand", "win", "bonus", "limit"


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    name: str
    faan: int
    family: str


#: the default faan table, in the order the README and the score output list it
ITEMS: tuple[Item, ...] = (
    Item("chicken_hand", "chicken hand", 0, HAND),
    Item("common_hand", "common hand (four chows)", 1, HAND),
    Item("all_pungs", "all pungs", 3, HAND),
    Item("mixed_one_suit", "mixed one suit", 3, HAND),
    Item("all_one_suit", "all one suit", 7, HAND),
    Item("dragon_pung", "dragon pung", 1, HAND),
    Item("seat_wind", "seat-wind pung", 1, HAND),
    Item("prevailing_wind", "prevailing-wind pung", 1, HAND),
    Item("small_three_dragons", "small three dragons", 5, HAND),
    Item("great_three_dragons", "great three dragons", 8, HAND),
    Item("small_four_winds", "small four winds", 6, HAND),
    Item("great_four_winds", "great four winds", 13, LIMIT),
    Item("all_honours", "all honours", 10, HAND),
    Item("all_terminals", "all terminals", 10, HAND),
    Item("mixed_terminals", "mixed terminals", 1, HAND),
    Item("self_drawn", "self-drawn", 1, WIN),
    Item("fully_concealed", "fully concealed", 1, WIN),
    Item("robbing_kong", "robbing a kong", 1, WIN),
    Item("last_tile", "last tile", 1, WIN),
    Item("kong_replacement", "kong replacement", 1, WIN),
    Item("double_kong_replacement", "double kong replacement", 8, WIN),
    Item("no_bonus", "no bonus tiles", 1, BONUS),
    Item("own_flower", "own flower", 1, BONUS),
    Item("own_season", "own season", 1, BONUS),
    Item("all_flowers", "a full set of four flowers", 2, BONUS),
    Item("all_seasons", "a full set of four seasons", 2, BONUS),
    Item("thirteen_orphans", "thirteen orphans", 13, LIMIT),
    Item("nine_gates", "nine gates", 13, LIMIT),
    Item("all_kongs", "all kongs", 13, LIMIT),
    Item("heavenly", "heavenly hand", 13, LIMIT),
    Item("earthly", "earthly hand", 13, LIMIT),
    Item("all_bonus", "all eight bonus tiles", 13, LIMIT),
    Item("no_jokers", "no jokers (Red)", 1, HAND),
)
ITEM_BY_ID: dict[str, Item] = {i.id: i for i in ITEMS}
#: items that exist only in the Red variant
RED_ONLY = frozenset({"no_jokers"})
#: items whose faan are bonus faan (not counted toward the minimum with bonus_counts=False)
BONUS_ITEMS = frozenset({"no_bonus", "own_flower", "own_season", "all_flowers", "all_seasons", "all_bonus"})


# ---------------------------------------------------------------- payments


def _half_spicy(faan: int) -> int:
    """半辣上: doubling up to 4 faan, then x1.5 and x4/3 in turn (0 faan = 1; zh Wikipedia
    廣東麻雀籌碼計法): 1 2 4 8 16 24 32 48 64 96 128 192 256 384."""
    if faan <= 4:
        return 1 << faan
    base = 16 << ((faan - 4) // 2)
    return base * 3 // 2 if (faan - 4) % 2 else base


def _simplified(faan: int) -> int:
    """Wikipedia's "Old Hong Kong" simplified table: up to 3 faan 1, 4-6 2, 7-9 4, 10+ 8."""
    return 1 if faan <= 3 else 2 if faan <= 6 else 4 if faan <= 9 else 8


@dataclass(frozen=True, slots=True)
class Payment:
    """Who pays how many base units P: on a discard win (discarder, each other loser) and on a
    self-drawn win (each loser); ``base`` names the faan -> P function."""

    name: str
    base: str
    discarder: int
    others: int
    self_drawn: int
    text: str


BASES = {"doubling": lambda f: 1 << f, "half-spicy": _half_spicy, "simplified": _simplified}

#: the payment schemes (``--payment``); each is zero-sum: the winner gets what the losers pay
PAYMENTS: dict[str, Payment] = {
    p.name: p
    for p in (
        Payment(
            "half-gun",
            "doubling",
            2,
            1,
            2,
            "半銃 (half-gun), full-spicy base P = 2^faan: a discard win, the discarder pays 2P and the "
            "two others P each; a self-drawn win, each loser pays 2P",
        ),
        Payment(
            "full-gun",
            "doubling",
            4,
            0,
            2,
            "全銃 (full-gun, the discarder pays for all), P = 2^faan: a discard win, the discarder "
            "pays 4P alone; a self-drawn win, each loser pays 2P",
        ),
        Payment(
            "half-spicy",
            "half-spicy",
            2,
            1,
            2,
            "half-gun shares over the 半辣上 (half-spicy) base: P doubles up to 4 faan, then grows "
            "x1.5 and x4/3 in turn (5 faan 24, 6 faan 32, 7 faan 48 ...)",
        ),
        Payment(
            "simplified",
            "simplified",
            2,
            1,
            2,
            "half-gun shares over Wikipedia's simplified Old Hong Kong base: up to 3 faan P = 1, "
            "4-6 faan 2, 7-9 faan 4, 10 or more 8",
        ),
    )
}


def base_points(faan: int, payment: Payment) -> int:
    return int(BASES[payment.base](faan))


def settlement(
    faan: int, winner: int, discarder: int | None, payment: Payment, players: int = 4
) -> list[int]:
    """Every seat's score change for one win: the losers pay the winner; the list sums to zero."""
    p = base_points(faan, payment)
    deltas = [0] * players
    for seat in range(players):
        if seat == winner:
            continue
        if discarder is None:
            share = payment.self_drawn
        else:
            share = payment.discarder if seat == discarder else payment.others
        deltas[seat] -= share * p
        deltas[winner] += share * p
    return deltas


# ---------------------------------------------------------------- the rule set

LENGTHS = ("east", "full")


@dataclass(frozen=True)
class HKRules:
    """One table's rules. ``faan`` maps item id -> faan (missing items at the default table's
    value); ``jokers`` is 0 for Hong Kong, 4 for Red. ``length``: ``east`` (one round of the
    prevailing wind: each seat deals at least once) or ``full`` (four rounds, East to North).
    ``max_hands`` stops a game that draws without end (the dealer keeps the deal on a draw)."""

    name: str = "hk"
    min_faan: int = 3
    bonus_counts: bool = True
    cap: int = 13
    payment: str = "half-gun"
    jokers: int = 0
    length: str = "east"
    max_hands: int = 64
    faan: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.payment not in PAYMENTS:
            raise UsageError(f"--payment '{self.payment}' is not one of {', '.join(PAYMENTS)}")
        if not 0 <= self.min_faan <= self.cap:
            raise UsageError(f"--min-faan {self.min_faan}: use 0 to the cap ({self.cap})")
        if self.length not in LENGTHS:
            raise UsageError(f"--length '{self.length}': use east or full")
        if self.jokers not in (0, 4, 8):
            raise UsageError(f"jokers {self.jokers}: use 0, 4 or 8")
        unknown = sorted(set(self.faan) - set(ITEM_BY_ID))
        if unknown:
            raise UsageError(f"unknown faan item(s): {', '.join(unknown)}")

    @property
    def red(self) -> bool:
        return self.name == "red" or self.jokers > 0

    def value(self, item: str) -> int:
        return self.faan.get(item, ITEM_BY_ID[item].faan)

    def items(self) -> list[Item]:
        """The table of this rule set (Red-only items only in Red), with its own values."""
        return [
            dataclasses.replace(i, faan=self.value(i.id)) for i in ITEMS if self.red or i.id not in RED_ONLY
        ]

    @property
    def scheme(self) -> Payment:
        return PAYMENTS[self.payment]

    def with_options(self, **changes: Any) -> HKRules:
        """A copy with the options that were given (None: keep)."""
        given = {k: v for k, v in changes.items() if v is not None}
        return dataclasses.replace(self, **given) if given else self

    def describe(self) -> str:
        bonus = "bonus faan count" if self.bonus_counts else "bonus faan do not count"
        jokers = f", {self.jokers} jokers" if self.jokers else ""
        return (
            f"{self.name}: minimum {self.min_faan} faan ({bonus}), cap {self.cap}, "
            f"payment {self.payment}{jokers}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "min_faan": self.min_faan,
            "bonus_counts": self.bonus_counts,
            "cap": self.cap,
            "payment": self.payment,
            "jokers": self.jokers,
            "length": self.length,
            "max_hands": self.max_hands,
            "faan": dict(sorted(self.faan.items())),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HKRules:
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


#: the presets: Hong Kong Old Style (the default table) and Red (four jokers)
PRESETS: dict[str, HKRules] = {"hk": HKRules(), "red": HKRules(name="red", jokers=4)}


def get_rules(name: str) -> HKRules:
    try:
        return PRESETS[name]
    except KeyError:
        raise UsageError(f"unknown rule set '{name}' (use {' or '.join(PRESETS)})") from None
