"""Score a winning hand: the one adapter over the ``mahjong`` library.

The library finds the yaku, han and fu (we never re-decide those). This module turns our tiles,
melds and win conditions into its inputs, turns its answer into a :class:`ScoreResult` that
explains the arithmetic the way seed 004 teaches it, and does the last steps itself so each can be
shown: base points, the limit names, what every payer pays (rounded up to 100), honba and sticks.
The library's own payment figures are checked against ours in the tests.

The arithmetic (seed 004, "后编"):

* base points = fu x 2^(han+2), capped at 2000 (mangan); from 5 han the base depends on han alone:
  mangan 2000 (5), haneman 3000 (6-7), baiman 4000 (8-10), sanbaiman 6000 (11-12),
  (kazoe) yakuman 8000 (13+), and 8000 per yakuman unit for double, triple... yakuman;
* ron: the discarder pays 4 x base (6 x base to a dealer); tsumo: a dealer receives 2 x base from
  each player, a non-dealer 2 x base from the dealer and 1 x base from each other player;
  each payment is rounded up to a multiple of 100;
* honba: 300 points per honba on a ron, 100 from each payer on a tsumo; riichi sticks: 1000 each.

Three-player rules (``rules.players == 3``): the library's ``is_three_player`` (a dora indicator 9m
points at 1m) and its ``num_nuki_dora``: each North set aside (``WinContext.kita``) is one dora, plus
one for each dora indicator pointing at North, and for a winner in riichi one ura dora for each ura
indicator pointing at North, all inside "Dora" / "Ura Dora" as Tenhou reports them. A tsumo is paid
by the two other seats only: the absent North seat's share is lost (tsumo-son, Tenhou), or split
between the payers under ``absent_share="split"``; honba are the rules' (Tenhou: 200 on a ron, 100
from each payer on a tsumo). 2m-8m do not exist: a hand or indicator holding one is an input error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from threading import get_ident

from mahjong.constants import CHUN, HAKU, HATSU
from mahjong.hand_calculating import divider as _divider
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld as LibMeld

from mjcli.errors import InvalidHandError, MjcliError, ScoringError, UsageError
from mjcli.melds import Meld, melds_to_text
from mjcli.riichi.rules import Rules
from mjcli.tiles import (
    KIND_TO_RED,
    NORTH,
    NUM_KINDS,
    NUM_TILES,
    RED_5M,
    RED_5P,
    RED_5S,
    RED_FIVE_KIND,
    RED_FIVES,
    RED_IDS,
    check_counts,
    is_red,
    kind,
    parse_tile,
    parse_tiles,
    tile_name,
    to_mpsz,
)

_MULTI_YAKUMAN = ("yakuman", "double yakuman", "triple yakuman", "quadruple yakuman")


# ---------------------------------------------------------------- inputs and result


@dataclass(frozen=True)
class WinContext:
    """How and where the hand was won. Winds are 0..3 = E S W N; the dealer is seat wind East."""

    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    # Open riichi (house rule, see ``Rules.open_riichi``): with ``riichi`` or ``double_riichi``.
    open_riichi: bool = False
    # A ron on an open riichi whose discarder was in riichi: the normal value, not a yakuman.
    discarder_riichi: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    honba: int = 0
    sticks: int = 0
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    kita: int = 0  # three-player: Norths the winner has set aside (nukidora)

    @property
    def dealer(self) -> bool:
        return self.seat_wind == 0


@dataclass(frozen=True)
class ScoreResult:
    """A scored win, with every step of the arithmetic kept for explanation.

    ``fu_details`` are (reason, fu) lines summing to ``fu_raw``, which rounds up to ``fu``;
    ``yaku`` are (canonical id, display name, han) with yakuman as 13 han per unit and dora listed
    as yaku ("dora", "aka_dora", "ura_dora"). ``payments`` are per payer role, honba included:
    ron ``{"discarder": n}``, dealer tsumo ``{"each": n}``, non-dealer tsumo
    ``{"dealer": a, "non_dealer": b}``. ``total`` is what the winner receives, sticks included.
    """

    han: int
    fu: int
    fu_details: list[tuple[str, int]]
    yaku: list[tuple[str, str, int]]
    limit: str | None
    base_points: int
    hand_value: int
    payments: dict[str, int]
    total: int
    dealer: bool = False
    tsumo: bool = False
    honba: int = 0
    sticks: int = 0
    yakuman: int = 0  # yakuman units (0 for an ordinary hand; kazoe yakuman counts 0 here)
    notes: tuple[str, ...] = field(default=())

    @property
    def fu_raw(self) -> int:
        """The fu before rounding up to a multiple of ten (25 for seven pairs)."""
        return sum(f for _, f in self.fu_details)

    def deltas(self, winner: int, dealer: int, loser: int | None, players: int = 4) -> tuple[int, ...]:
        """Score change of every seat: honba included, sticks to the winner; sums to sticks x 1000."""
        if not (0 <= winner < players and 0 <= dealer < players):
            raise UsageError(f"seat out of range: winner {winner}, dealer {dealer} ({players} players)")
        if (winner == dealer) != self.dealer:
            role = "the dealer" if self.dealer else "not the dealer"
            raise UsageError(
                f"this win was scored for {role}, but winner {winner} / dealer {dealer} disagree"
            )
        out = [0] * players
        if "discarder" in self.payments:
            if loser is None or loser == winner or not 0 <= loser < players:
                raise UsageError(f"a ron needs a discarder other than the winner (got {loser})")
            out[loser] -= self.payments["discarder"]
        else:
            if loser is not None:
                raise UsageError(f"a tsumo has no discarder (got {loser})")
            for seat in range(players):
                if seat == winner:
                    continue
                if "each" in self.payments:
                    out[seat] -= self.payments["each"]
                else:
                    out[seat] -= self.payments["dealer" if seat == dealer else "non_dealer"]
        out[winner] += self.total
        return tuple(out)

    def to_dict(self) -> dict[str, object]:
        """Plain data for ``--json``: the same facts as the human explanation."""
        return {
            "han": self.han,
            "fu": self.fu,
            "fu_raw": self.fu_raw,
            "fu_details": [{"reason": r, "fu": f} for r, f in self.fu_details],
            "yaku": [{"id": i, "name": n, "han": h} for i, n, h in self.yaku],
            "yakuman": self.yakuman,
            "limit": self.limit,
            "base_points": self.base_points,
            "dealer": self.dealer,
            "tsumo": self.tsumo,
            "hand_value": self.hand_value,
            "honba": self.honba,
            "sticks": self.sticks,
            "payments": dict(self.payments),
            "total": self.total,
            "notes": list(self.notes),
        }


# ---------------------------------------------------------------- the arithmetic (pure)


def round_up_100(points: int) -> int:
    return -(-points // 100) * 100


def base_points(han: int, fu: int, rules: Rules, yakuman: int = 0) -> tuple[int, str | None]:
    """Base points and limit name for a hand. ``yakuman`` = units of real yakuman (han ignored then).

    Seed 004's limit table gives triple yakuman 32000 and quadruple 24000; that is a slip: each
    yakuman unit is 8000 (triple 24000, quadruple 32000), which is what we and the library use.
    """
    if yakuman:
        name = _MULTI_YAKUMAN[yakuman - 1] if yakuman <= len(_MULTI_YAKUMAN) else f"{yakuman}x yakuman"
        return 8000 * yakuman, name
    if han >= 13:
        return (8000, "kazoe yakuman") if rules.kazoe_yakuman else (6000, "sanbaiman")
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    if han >= 5:
        return 2000, "mangan"
    base = fu * 2 ** (han + 2)
    if rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return 2000, "mangan"
    if base > 2000:
        return 2000, "mangan"
    return base, None


def payment_shares(dealer: bool, tsumo: bool) -> dict[str, float]:
    """Multiples of the base points each payer role owes (before rounding), as at a four-player
    table; three-player ``absent_share="split"`` adds :func:`absent_half` to each share of a tsumo."""
    if not tsumo:
        return {"discarder": 6 if dealer else 4}
    return {"each": 2} if dealer else {"dealer": 2, "non_dealer": 1}


def absent_half(base: int, dealer: bool) -> int:
    """What each of the two payers of a three-player tsumo adds under ``absent_share="split"``
    (北家折半): half of what the absent North would pay at a four-player table (2 x base from a
    dealer's tsumo, 1 x base from a non-dealer's, rounded up to 100 like any payment), rounded up to
    100 (a half ending in 50 goes up, as it would rounded to the nearest 100 too). Source: 三人麻雀.com,
    "丸どり" method A ("北家分の支払いのみを折半"): a non-dealer's 1000/2000 is paid 1500/2500; the
    share halved before rounding gave 1500/2400. A dealer's tsumo is split the same way (2000 all ->
    3000 all, a mangan's 4000 all -> 6000 all); that page's 丸どり instead halves the dealer's ron
    value (5800 -> 2900 all), which differs from this by the rounding only."""
    return round_up_100(round_up_100(base * (2 if dealer else 1)) // 2)


def payments_for(
    base: int, dealer: bool, tsumo: bool, honba: int = 0, rules: Rules | None = None
) -> dict[str, int]:
    """What each payer role pays, each share rounded up to 100, honba added (the rules' per honba:
    Tenhou 300 on a ron, 100 from each payer of a tsumo)."""
    if rules is None:
        bonus = (300 if not tsumo else 100) * honba
        split = False
    else:
        bonus = (rules.honba_points if not tsumo else rules.honba_tsumo_points) * honba
        split = rules.players == 3 and rules.absent_share == "split"
    extra = absent_half(base, dealer) if split and tsumo else 0
    return {
        role: round_up_100(int(mult * base)) + extra + bonus
        for role, mult in payment_shares(dealer, tsumo).items()
    }


def payers_count(role: str, players: int = 4) -> int:
    """How many players pay a role's amount: each = all others, non_dealer = all but winner and dealer."""
    return {"discarder": 1, "dealer": 1, "each": players - 1, "non_dealer": players - 2}[role]


def settle(
    base: int, dealer: bool, tsumo: bool, honba: int, sticks: int, rules: Rules
) -> tuple[dict[str, int], int, int]:
    """(payments, hand_value, total) for a base: hand_value excludes honba and sticks.

    What :func:`payments_for` gives with and without honba, in one pass over the payer roles read
    from :data:`_PAYERS` instead of the shares and payer counts built for each call (3.3 -> 1.6 us
    CPU at load 11; bench_speed: "score one win, engine path")."""
    players = rules.players
    if tsumo:
        bonus = rules.honba_tsumo_points * honba
        extra = absent_half(base, dealer) if players == 3 and rules.absent_share == "split" else 0
    else:
        bonus = rules.honba_points * honba
        extra = 0  # a ron has one payer: nothing to split
    roles = _PAYERS.get((dealer, tsumo, players))
    if roles is None:
        roles = _payer_roles(dealer, tsumo, players)
    paid: dict[str, int] = {}
    hand_value = total = 0
    for role, mult, payers in roles:
        plain = -(-(mult * base) // 100) * 100 + extra  # round_up_100
        paid[role] = plain + bonus
        hand_value += plain * payers
        total += (plain + bonus) * payers
    return paid, hand_value, total + rules.riichi_stick * sticks


def _payer_roles(dealer: bool, tsumo: bool, players: int) -> tuple[tuple[str, int, int], ...]:
    """(role, its multiple of the base, how many pay it), in :func:`payment_shares`' order."""
    return tuple(
        (role, int(mult), payers_count(role, players)) for role, mult in payment_shares(dealer, tsumo).items()
    )


#: :func:`_payer_roles` of every win of three and four players (constant data)
_PAYERS = {
    (dealer, tsumo, players): _payer_roles(dealer, tsumo, players)
    for dealer in (False, True)
    for tsumo in (False, True)
    for players in (3, 4)
}


# ---------------------------------------------------------------- tiles -> the library's ids


#: the library's meld type of each of our meld kinds
_LIB_MELD_TYPE = {
    "chi": LibMeld.CHI,
    "pon": LibMeld.PON,
    "kakan": LibMeld.SHOUMINKAN,
    "kan": LibMeld.KAN,
    "ankan": LibMeld.KAN,
}


def _lib_meld(m: Meld, ids: list[int]) -> LibMeld:
    """The library's meld of ``m`` with the physical ``ids``."""
    meld_type = _LIB_MELD_TYPE.get(m.kind, LibMeld.KAN)
    opened = m.kind != "ankan"
    if not _FAST_LIB_MELD:
        return LibMeld(meld_type, ids, opened=opened)
    # The library's Meld.__init__ sets its six fields through a __setattr__ of its own (which
    # drops a cached tiles_34 that a new meld cannot have): 2.5 us a meld; the same fields put
    # into the new object's __dict__ in one step, 0.7 us (bench_speed: "score one win, engine
    # path", 1.4 melds a win). _FAST_LIB_MELD: this version's constructor makes exactly them.
    meld = object.__new__(LibMeld)
    meld.__dict__.update(
        type=meld_type, tiles=tuple(ids), opened=opened, called_tile=None, who=None, from_who=None
    )
    return meld


#: the library's Meld holds its fields in its __dict__, as _lib_meld writes them (else: its constructor)
_FAST_LIB_MELD = vars(LibMeld(LibMeld.PON, [4, 5, 6], opened=True)) == {
    "type": LibMeld.PON,
    "tiles": (4, 5, 6),
    "opened": True,
    "called_tile": None,
    "who": None,
    "from_who": None,
}


#: per kind, its plain physical ids in the order they are handed out, with red fives on and off
#: (constant data, built once instead of 34 lists per scored hand)
_PLAIN_IDS = {
    red_fives: tuple(
        tuple(i for i in range(4 * k, 4 * k + 4) if not (red_fives and i in RED_IDS))
        for k in range(NUM_KINDS)
    )
    for red_fives in (False, True)
}


#: red five -> its physical id (what a pool hands out for it, once)
_RED_ID_OF = {t: i for i, t in RED_IDS.items()}

#: per tile code (red fives included), the ids a pool hands out for it in order, red fives on and
#: off (off: none for a red five)
_ID_POOLS = {
    red_fives: _PLAIN_IDS[red_fives]
    + tuple((_RED_ID_OF[t],) if red_fives else () for t in range(NUM_KINDS, NUM_TILES))
    for red_fives in (False, True)
}


class _IdPool:
    """Hands out distinct physical ids (0..135) per tile, red fives as their red id."""

    def __init__(self, rules: Rules, label: object) -> None:
        self.rules = rules
        self.label = label
        self.ids = _PLAIN_IDS[rules.red_fives]
        self.used = [0] * NUM_KINDS  # ids of each kind handed out so far
        self.red_free = dict(_RED_ID_OF) if rules.red_fives else {}

    def take_all(self, tiles: Sequence[int]) -> list[int]:
        """``[self.take(t) for t in tiles]``: plain tiles from the pool in a loop of locals, anything
        else (a red five, a kind used up) through :meth:`take` (the long way, :func:`_checked_ids`;
        a score takes its ids in :func:`_physical_ids`)."""
        pools, used, take = self.ids, self.used, self.take
        out = []
        for t in tiles:
            if t < NUM_KINDS:
                u = used[t]
                pool = pools[t]
                if u < len(pool):
                    used[t] = u + 1
                    out.append(pool[u])
                    continue
            out.append(take(t))
        return out

    def take(self, tile: int) -> int:
        if is_red(tile):
            if tile not in self.red_free:
                raise InvalidHandError(
                    f"{self.label} uses the red five {tile_name(tile)} twice or with red fives off"
                )
            return self.red_free.pop(tile)
        pool, used = self.ids[tile], self.used[tile]
        if used < len(pool):
            self.used[tile] = used + 1
            return pool[used]
        if self.rules.red_fives and tile in KIND_TO_RED:
            red = tile_name(KIND_TO_RED[tile])
            raise InvalidHandError(
                f"{self.label} has 4 plain {tile_name(tile)} but under rules '{self.rules.name}' one of "
                f"them is the red five: write it as {red}"
            )
        raise InvalidHandError(f"{self.label} has too many copies of {tile_name(tile)}")


def hand_label(concealed: Sequence[int], melds: Sequence[Meld]) -> str:
    text = to_mpsz(concealed)
    return f"{text} + {melds_to_text(melds)}" if melds else text


class _HandLabel:
    """``hand '...'`` for error messages, written only when a message needs it: formatting the tiles
    of every scored hand up front cost a tenth of the scoring time."""

    __slots__ = ("concealed", "melds", "suffix")

    def __init__(self, concealed: Sequence[int], melds: Sequence[Meld], suffix: str = "") -> None:
        self.concealed = concealed
        self.melds = melds
        self.suffix = suffix

    def __str__(self) -> str:
        return f"hand '{hand_label(self.concealed, self.melds)}'{self.suffix}"

    def __format__(self, spec: str) -> str:  # what an f-string calls
        return format(str(self), spec)


#: the kind of each tile code (red fives as their five)
_KIND_OF = tuple(kind(t) for t in range(NUM_TILES))
#: the library's cached division and its block type (private: None if a version lacks them)
_DIVIDE_IMPL = getattr(HandDivider, "_divide_hand_impl", None)
_BLOCK = getattr(_divider, "_Block", None)
#: per block type and kind, the block's tiles as the library lists them (``_Block.tiles_34``, a
#: property that matches on the type at every call: ~0.4 us a block, five a reading)
_BLOCK_TILES = (
    {(ty, k): tuple(_BLOCK(k, ty).tiles_34) for ty in _divider._BlockType for k in range(NUM_KINDS)}
    if _BLOCK is not None and hasattr(_divider, "_BlockType")
    else None
)


def _surely_possible(tiles: list[int], reds_allowed: bool) -> bool:
    """True when ``check_counts`` would pass ``tiles`` (no kind 5+ times, each red five at most once)
    and red fives are allowed where they occur; False sends the caller to the checks themselves,
    which name the fault. One pass of counting instead of two ``check_counts``. Only the long way
    (:func:`_checked_ids`) asks: a score counts its tiles in :func:`_physical_ids`."""
    if not reds_allowed or not tiles or min(tiles) < 0 or max(tiles) >= NUM_TILES:
        return False
    counts = [0] * NUM_KINDS
    kind_of = _KIND_OF
    for t in tiles:
        counts[kind_of[t]] += 1
    return max(counts) <= 4 and all(tiles.count(r) <= 1 for r in RED_FIVES)


def _possible_counts(counts: list[int]) -> bool:
    """Counts by tile code (red fives apart) that ``check_counts`` passes: no kind 5+ times, each
    red five at most once."""
    red_m, red_p, red_s = counts[RED_5M], counts[RED_5P], counts[RED_5S]
    return (
        max(counts) <= 4
        and red_m <= 1
        and red_p <= 1
        and red_s <= 1
        and counts[RED_FIVE_KIND[RED_5M]] + red_m <= 4
        and counts[RED_FIVE_KIND[RED_5P]] + red_p <= 4
        and counts[RED_FIVE_KIND[RED_5S]] + red_s <= 4
    )


# ---------------------------------------------------------------- library plumbing


@lru_cache(maxsize=1)
def _yaku_ids() -> dict[type, str]:
    """Library yaku class -> canonical id (the YakuConfig attribute name)."""
    cfg = YakuConfig()
    return {type(obj): attr for attr, obj in vars(cfg).items()}


_LIB_ERRORS = {
    HandCalculator.ERR_OPEN_HAND_RIICHI: (UsageError, "riichi needs a closed hand, but a meld is open"),
    HandCalculator.ERR_OPEN_HAND_DABURI: (
        UsageError,
        "double riichi needs a closed hand, but a meld is open",
    ),
    HandCalculator.ERR_IPPATSU_WITHOUT_RIICHI: (UsageError, "ippatsu needs riichi or double riichi"),
    HandCalculator.ERR_CHANKAN_WITH_TSUMO: (
        UsageError,
        "chankan is a win on another player's kan, not a tsumo",
    ),
    HandCalculator.ERR_RINSHAN_WITHOUT_TSUMO: (UsageError, "rinshan kaihou is a tsumo win"),
    HandCalculator.ERR_HAITEI_WITHOUT_TSUMO: (UsageError, "haitei is a tsumo win (houtei is its ron)"),
    HandCalculator.ERR_HOUTEI_WITH_TSUMO: (UsageError, "houtei is a ron win (haitei is its tsumo)"),
    HandCalculator.ERR_HAITEI_WITH_RINSHAN: (UsageError, "haitei and rinshan cannot both apply"),
    HandCalculator.ERR_HOUTEI_WITH_CHANKAN: (UsageError, "houtei and chankan cannot both apply"),
    HandCalculator.ERR_TENHOU_NOT_AS_DEALER: (
        UsageError,
        "tenhou is the dealer's win; chiihou is a non-dealer's",
    ),
    HandCalculator.ERR_TENHOU_WITHOUT_TSUMO: (UsageError, "tenhou is a tsumo win"),
    HandCalculator.ERR_TENHOU_WITH_MELD: (UsageError, "tenhou needs a hand without melds"),
    HandCalculator.ERR_CHIIHOU_AS_DEALER: (
        UsageError,
        "chiihou is a non-dealer's win; tenhou is the dealer's",
    ),
    HandCalculator.ERR_CHIIHOU_WITHOUT_TSUMO: (UsageError, "chiihou is a tsumo win"),
    HandCalculator.ERR_CHIIHOU_WITH_MELD: (UsageError, "chiihou needs a hand without melds"),
}


def _hand_config(ctx: WinContext, rules: Rules) -> HandConfig:
    """The library's configuration of a win: one object per distinct (conditions, rules), reused.

    Building a ``HandConfig`` builds its ``YakuConfig`` (some 80 yaku objects): ~15 us, a tenth of
    a score (bench_speed: "score one win, engine path"). Reusing one is safe because the library
    changes only its yaku objects' han, each time to the same value for the same configuration
    (double yakuman off) or right before it reads it in the same call (the dora counts), and
    :func:`score_hand` copies the han of every yaku before the next call; the thread is part of
    the key, so two threads never share one between a call and that copy. The key is otherwise
    the value of every field the configuration is made of; at most 256 are kept.
    """
    if ctx.open_riichi and not (ctx.riichi or ctx.double_riichi):
        raise UsageError("open riichi is a riichi: give riichi or double riichi too")
    return _shared_hand_config(hand_config_fields(ctx), rules, get_ident())


def hand_config_fields(ctx: WinContext) -> tuple:
    """The values a win's ``HandConfig`` is made of, in :func:`new_hand_config`'s order."""
    return (
        ctx.open_riichi,
        ctx.kita,
        ctx.tsumo,
        ctx.riichi or ctx.double_riichi,
        ctx.double_riichi,
        ctx.ippatsu,
        ctx.rinshan,
        ctx.chankan,
        ctx.haitei,
        ctx.houtei,
        ctx.tenhou,
        ctx.chiihou,
        ctx.seat_wind,
        ctx.round_wind,
        ctx.honba,
        ctx.sticks,
        ctx.open_riichi and not ctx.tsumo and not ctx.discarder_riichi,
    )


@lru_cache(maxsize=256)
def _shared_hand_config(key: tuple, rules: Rules, thread: int) -> HandConfig:
    return new_hand_config(*key, rules)


def new_hand_config(
    open_riichi: bool,
    kita: int,
    tsumo: bool,
    riichi: bool,
    double_riichi: bool,
    ippatsu: bool,
    rinshan: bool,
    chankan: bool,
    haitei: bool,
    houtei: bool,
    tenhou: bool,
    chiihou: bool,
    seat_wind: int,
    round_wind: int,
    honba: int,
    sticks: int,
    sashikomi: bool,
    rules: Rules,
) -> HandConfig:
    """A fresh ``HandConfig`` (what a user of the library builds for each call)."""
    return HandConfig(
        is_open_riichi=open_riichi,
        num_nuki_dora=kita,
        is_tsumo=tsumo,
        is_riichi=riichi,
        is_daburu_riichi=double_riichi,
        is_ippatsu=ippatsu,
        is_rinshan=rinshan,
        is_chankan=chankan,
        is_haitei=haitei,
        is_houtei=houtei,
        is_tenhou=tenhou,
        is_chiihou=chiihou,
        player_wind=27 + seat_wind,
        round_wind=27 + round_wind,
        tsumi_number=honba,
        kyoutaku_number=sticks,
        options=rules.hand_options(sashikomi),
    )


# ---------------------------------------------------------------- fu explanation

_SET_WORDS = {
    "closed_pon": "closed triplet",
    "open_pon": "open triplet",
    "closed_terminal_pon": "closed triplet of terminals/honours",
    "open_terminal_pon": "open triplet of terminals/honours",
    "closed_kan": "closed kan",
    "open_kan": "open kan",
    "closed_terminal_kan": "closed kan of terminals/honours",
    "open_terminal_kan": "open kan of terminals/honours",
}

#: mpsz text of every group a decomposition can hold (pairs, triplets, kans and runs of kinds),
#: written once by ``to_mpsz``: a lookup instead of formatting tiles for each fu line (constant
#: data; part of what :func:`_explain_lines` saves, bench_speed: "score one win, explained")
_GROUP_TEXT = {
    tuple(group): to_mpsz(group)
    for group in (
        *([k] * n for k in range(NUM_KINDS) for n in (2, 3, 4)),
        *([k, k + 1, k + 2] for suit in (0, 9, 18) for k in range(suit, suit + 7)),
    )
}

#: the library's fu items as plain words (the engine's fu lines, which nobody explains)
_PLAIN_REASONS = {
    reason: reason.replace("_", " ")
    for reason in (
        FuCalculator.BASE,
        FuCalculator.PENCHAN,
        FuCalculator.KANCHAN,
        FuCalculator.VALUED_PAIR,
        FuCalculator.DOUBLE_VALUED_PAIR,
        FuCalculator.PAIR_WAIT,
        FuCalculator.TSUMO,
        FuCalculator.HAND_WITHOUT_FU,
        *_SET_WORDS,
    )
}

_SECOND = itemgetter(1)

_VALUED_PAIR_REASONS = (FuCalculator.VALUED_PAIR, FuCalculator.DOUBLE_VALUED_PAIR)


def _group_text(tiles: Sequence[int]) -> str:
    """``to_mpsz(tiles)``, read from :data:`_GROUP_TEXT` when it holds them (not for red fives)."""
    text = _GROUP_TEXT.get(tuple(tiles))
    return text if text is not None else to_mpsz(tiles)


def _fu_of(detail: dict) -> int:
    return detail["fu"]


def _pair_words(pair: int, ctx: WinContext) -> str:
    if pair < 27:  # a suited pair is never a dragon or a wind
        return "no value"
    why = []
    if pair in (HAKU, HATSU, CHUN):
        why.append("dragon")
    if pair == 27 + ctx.seat_wind:
        why.append("seat wind")
    if pair == 27 + ctx.round_wind:
        why.append("round wind")
    return " and ".join(why) if why else "no value"


def _explain_lines(
    hand: list[list[int]],
    win34: int,
    win_group: list[int],
    details: list[dict],
    ctx: WinContext,
    melds: Sequence[Meld],
) -> list[tuple[str, int]]:
    """Seed 004's order: base, closed ron, tsumo, pair, wait, each triplet/kan; 0-fu lines kept.

    The library's fu items are read in one pass and the hand's groups in another (not a scan of
    either per line), group texts come from :data:`_GROUP_TEXT`: 16-19 -> 9-10 us CPU a win at
    load 7 (bench_speed: "score one win, explained")."""
    if len(hand) == 7:
        return [("seven pairs (chiitoitsu): fixed 25 fu", 25)]
    base = None
    tsumo_fu = without_fu = False
    pair_fu = 0
    waits = set()
    set_details = []
    for d in details:
        reason = d["reason"]
        if reason in _SET_WORDS:
            set_details.append(d)
        elif reason == FuCalculator.BASE:
            if base is None:
                base = d["fu"]
        elif reason in _VALUED_PAIR_REASONS:
            pair_fu += d["fu"]
        elif reason == FuCalculator.TSUMO:
            tsumo_fu = True
        elif reason == FuCalculator.HAND_WITHOUT_FU:
            without_fu = True
        else:
            waits.add(reason)
    pair = None
    sets = []
    for g in hand:
        if len(g) == 2:
            if pair is None:
                pair = g[0]
        elif g[0] == g[1]:
            sets.append(g)
    win_name = tile_name(win34)
    lines: list[tuple[str, int]] = [("base fu (futei)", 20)]
    if base == 30:
        lines.append(("closed hand won by ron (menzen kafu)", 10))
    # An open hand won by tsumo with no other fu: the library books its 2 fu as "hand without fu";
    # seed 004 counts them as the tsumo's ("即使吃碰后自摸，这2符还是能收入囊中": even after a chi or
    # pon a tsumo earns its 2 fu), and the fixed 30 only for an open pinfu shape won by ron.
    if tsumo_fu or (without_fu and ctx.tsumo):
        lines.append(("won by tsumo", 2))
    elif ctx.tsumo:
        lines.append(("tsumo on a pinfu hand: no tsumo fu (fixed 20)", 0))
    lines.append((f"pair {_group_text((pair, pair))} ({_pair_words(pair, ctx)})", pair_fu))
    if FuCalculator.PAIR_WAIT in waits:
        lines.append((f"wait: tanki (single tile) on {win_name}", 2))
    elif FuCalculator.KANCHAN in waits:
        lines.append((f"wait: kanchan (middle of {_group_text(win_group)}) on {win_name}", 2))
    elif FuCalculator.PENCHAN in waits:
        lines.append((f"wait: penchan (edge of {_group_text(win_group)}) on {win_name}", 2))
    elif len(win_group) == 3 and win_group[0] == win_group[1]:
        lines.append((f"wait: shanpon (two pairs) on {win_name}", 0))
    else:
        lines.append((f"wait: ryanmen (two-sided, {_group_text(win_group)}) on {win_name}", 0))
    # The library lists triplet/kan fu in the order of the hand's triplets/kans: pair them up.
    declared = {(m.kind34, m.is_kan): m for m in melds if m.kind != "chi"} if melds else {}
    for group, d in zip(sets, set_details, strict=True):
        reason = d["reason"]
        m = declared.get((group[0], len(group) == 4 or reason.endswith("_kan"))) if declared else None
        what = f"{m.kind} {_group_text(m.tiles)}" if m is not None else f"{_group_text(group)} in hand"
        words = _SET_WORDS[reason]
        if not ctx.tsumo and m is None and win_group == group:
            words += " (completed by ron)"
        lines.append((f"{what}: {words}", d["fu"]))
    if without_fu and not ctx.tsumo:
        lines.append(("open hand without fu won by ron: +2 (fixed 30)", 2))
    return lines


def _generic_lines(details: list[dict]) -> list[tuple[str, int]]:
    """Fallback when the decomposition cannot be recovered: the library's reasons as they are."""
    plain = _PLAIN_REASONS
    return [(plain.get(d["reason"]) or d["reason"].replace("_", " "), d["fu"]) for d in details]


def _divisions(tiles34: list[int], lib_melds: list[LibMeld]) -> list[list[list[int]]]:
    """``HandDivider.divide_hand(tiles34, lib_melds)``: the library's own readings of the hand.

    ``estimate_hand_value`` has just divided this very hand, and the library keeps the divisions
    of its last 128 hands (an ``lru_cache`` on ``_divide_hand_impl``, keyed by the concealed counts
    and the melds' blocks). The public call checks the 34 counts again, rebuilds both keys and turns
    every block of every reading into lists; the key made here as it makes it finds the cached
    readings at a fifth of the cost or less (~7.7 -> ~1.5 us; bench_speed: "score one win,
    explained"); each block's tiles come from a table instead of the block's property.
    With another version of the library's private parts, the public call."""
    if _DIVIDE_IMPL is None or _BLOCK is None or _BLOCK_TILES is None:
        return HandDivider.divide_hand(tiles34, lib_melds)
    blocks = tuple([_BLOCK.from_meld(m) for m in lib_melds])
    pure = list(tiles34)  # the library's ``_get_pure_hand``: the melds' tiles taken out
    tiles_of = _BLOCK_TILES
    for b in blocks:
        for k in tiles_of[b.ty, b.tile_34]:
            pure[k] -= 1
    return [
        [list(tiles_of[b.ty, b.tile_34]) for b in reading] for reading in _DIVIDE_IMPL(tuple(pure), blocks)
    ]


def _sets_in_hand_order(lib_details: list[dict]) -> bool:
    """Whether the library's fu items of the one reading it scored list that reading's
    triplets and kans in the hand's order, as its ``calculate_fu`` made them: its answer sorts the
    items by fu, stably (``sorted(..., reverse=True)`` keeps equal keys in order), so this holds
    when at most one set has an item or all of them have the same fu. :func:`_explain_lines`
    reads the other items by their reason alone, so these items are then the reading's own, and
    the fu of the hand are not counted a second time (~3 us of an explained score's ~17;
    bench_speed: "score one win, explained"). ``tests/test_scoring_fast_paths.py`` checks the
    lines against those of the items counted again."""
    fu = None
    for d in lib_details:
        if d["reason"] in _SET_WORDS:
            if fu is None:
                fu = d["fu"]
            elif d["fu"] != fu:
                return False
    return True


def _adds_up(lines: list[tuple[str, int]], details: list[dict]) -> bool:
    """The explanation's fu are the library's items' (two sums over C-level maps, not generators)."""
    return sum(map(_SECOND, lines)) == sum(map(_fu_of, details))


def _fu_lines(
    tiles34: list[int],
    win_id: int,
    lib_melds: list[LibMeld],
    config: HandConfig,
    fu: int,
    lib_details: list[dict],
    ctx: WinContext,
    melds: Sequence[Meld],
) -> list[tuple[str, int]]:
    """Find the decomposition the library scored (same fu items) and explain it line by line.

    ``tiles34`` are the 34 counts of the hand's tiles (melds included), as the library counts them."""
    target = None
    valued = [HAKU, HATSU, CHUN, config.player_wind, config.round_wind]
    opened = [m.tiles_34 for m in lib_melds if m.opened]
    hands = _divisions(tiles34, lib_melds)
    if len(hands) == 1:
        groups = HandCalculator._find_win_groups(win_id, hands[0], opened)
        if len(groups) == 1:
            # One way to read the hand (189 of the bench's 190 wins): the library scored it, with
            # these same fu items, so there is nothing to compare (no sorting of its items and of
            # ours; bench_speed: "score one win, explained").
            hand, group = hands[0], groups[0]
            if _sets_in_hand_order(lib_details):
                details = lib_details
            else:
                details, got = FuCalculator.calculate_fu(hand, win_id, group, config, valued, lib_melds)
                if got != fu:
                    return _generic_lines(lib_details)
            lines = _explain_lines(hand, win_id // 4, group, details, ctx, melds)
            if _adds_up(lines, details):
                return lines
            return _generic_lines(lib_details)
    for hand in hands:
        for group in HandCalculator._find_win_groups(win_id, hand, opened):
            details, got = FuCalculator.calculate_fu(hand, win_id, group, config, valued, lib_melds)
            if got != fu:
                continue
            # The library's items are a candidate's own, sorted by fu (stably): equal to those of
            # the candidate it scored sorted the same way, which finds it with one sort instead of
            # two by (reason, fu) (bench_speed: "score one win, explained"). Failing that, the
            # same items in any order, as it always was.
            if sorted(details, key=_fu_of, reverse=True) != lib_details:
                if target is None:
                    target = sorted((d["reason"], d["fu"]) for d in lib_details)
                if sorted((d["reason"], d["fu"]) for d in details) != target:
                    continue
            lines = _explain_lines(hand, win_id // 4, group, details, ctx, melds)
            if _adds_up(lines, details):
                return lines
    return _generic_lines(lib_details)


# ---------------------------------------------------------------- the entry point


def score_hand(
    concealed: Sequence[int],
    win_tile: int,
    melds: Sequence[Meld],
    ctx: WinContext,
    rules: Rules,
    *,
    explain: bool = True,
) -> ScoreResult:
    """Score a complete hand. ``concealed`` holds the closed tiles, the winning tile included.

    ``explain=False`` (the engines, which read only the han, fu, yaku and points) keeps the
    library's own fu items as ``fu_details`` instead of finding the decomposition it scored and
    writing it out line by line, which costs a fifth of the time of an explained score.

    Raises :class:`ScoringError` for a hand that is not complete or has no yaku,
    :class:`InvalidHandError` for impossible tiles, :class:`UsageError` for conditions that do not
    fit together (rinshan without tsumo...).
    """
    three = rules.players == 3
    kita = ctx.kita
    # The usual case in one test; the checks that name a fault run only when it fails.
    if (
        not (0 <= ctx.seat_wind <= 3 and 0 <= ctx.round_wind <= 3 and 0 <= kita <= 4)
        or ctx.honba < 0
        or ctx.sticks < 0
        or (kita and not three)
        or (three and ctx.seat_wind == 3)
    ):
        _check_context(ctx, rules)
    concealed = list(concealed)
    label = _HandLabel(concealed, melds)
    expected = 14 - 3 * len(melds)
    if len(concealed) != expected:
        raise InvalidHandError(
            f"{label} has {len(concealed)} concealed tiles; with {len(melds)} meld(s) "
            f"a complete hand has {expected}"
        )
    hand_tiles = concealed + [t for m in melds for t in m.tiles] if melds else concealed
    all_tiles = hand_tiles + [NORTH] * kita if kita else hand_tiles
    if three:
        absent = rules.variant.absent_kinds
        for what, tiles in (
            ("holds", all_tiles),
            ("has the dora indicator", ctx.dora_indicators + ctx.ura_indicators),
        ):
            bad = next((t for t in tiles if kind(t) in absent), None)
            if bad is not None:
                raise InvalidHandError(f"{label} {what} {tile_name(bad)}: three-player mahjong has no 2m-8m")
    extra = (*ctx.dora_indicators, *ctx.ura_indicators, *(NORTH,) * kita)
    ids = _physical_ids(hand_tiles, extra, rules.red_fives)
    if ids is None:  # something to name (or a five written plain that is the red one)
        ids = _checked_ids(concealed, melds, all_tiles, ctx, rules, label, win_tile)
    # Physical ids: the winning tile is the first concealed copy of it (exact red/plain, else by kind).
    win_idx = _win_index(concealed, win_tile)
    if win_idx is None:
        raise _no_win_tile(label, win_tile)
    win_id = ids[win_idx]
    lib_melds = []
    at = len(concealed)
    for m in melds:
        size = len(m.tiles)
        lib_melds.append(_lib_meld(m, ids[at : at + size]))
        at += size
    dora = [4 * kind(t) for t in ctx.dora_indicators]
    ura = [4 * kind(t) for t in ctx.ura_indicators]

    config = _hand_config(ctx, rules)
    resp = HandCalculator.estimate_hand_value(
        ids, win_id, melds=lib_melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if resp.error:
        if resp.error == HandCalculator.ERR_HAND_NOT_WINNING:
            raise ScoringError(f"{label} is not complete (not four sets and a pair, seven pairs or kokushi)")
        if resp.error == HandCalculator.ERR_NO_YAKU:
            raise ScoringError(f"{label} is complete but has no yaku")
        exc, message = _LIB_ERRORS.get(resp.error, (ScoringError, f"cannot score: {resp.error}"))
        raise exc(f"{label}: {message}")

    yaku_ids = _yaku_ids()
    yaku: list[tuple[str, str, int]] = []
    yakuman_han = 0
    is_open = resp.is_open_hand
    for y in resp.yaku or ():
        han = y.han_open if (is_open and y.han_open) else y.han_closed
        yaku.append((yaku_ids.get(type(y)) or y.name.lower(), y.name, han))
        if y.is_yakuman:
            yakuman_han += han
    units = yakuman_han // 13
    han, fu = int(resp.han), int(resp.fu)
    base, limit = base_points(han, fu, rules, units)
    dealer, tsumo = ctx.seat_wind == 0, ctx.tsumo
    payments, hand_value, total = settle(base, dealer, tsumo, ctx.honba, ctx.sticks, rules)

    if resp.fu_details and not explain:
        fu_details = _generic_lines(resp.fu_details)
    elif resp.fu_details:
        # the 34 counts of the hand's kinds, as the library's ``to_34_array`` of the ids gives them
        tiles34 = [0] * NUM_KINDS
        kind_of = _KIND_OF
        for t in hand_tiles:
            tiles34[kind_of[t]] += 1
        fu_details = _fu_lines(tiles34, win_id, lib_melds, config, fu, resp.fu_details, ctx, melds)
    else:
        fu_details = []  # kokushi musou: no sets, no fu (a yakuman needs none)
    if units:
        notes: tuple[str, ...] = ("yakuman: han and fu do not matter, the base is 8000 per yakuman",)
    elif han >= 5:
        notes = ("5 han or more: the fu no longer change the points",)
    elif limit and rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        notes = (f"kiriage: {han} han {fu} fu is rounded up to mangan",)
    else:
        notes = ()
    # A frozen dataclass's __init__ sets its 15 fields one object.__setattr__ at a time; ScoreResult
    # has no __post_init__ and no slots, so the same fields go into the new object's __dict__ in
    # one step (6.3 -> 1.4 us CPU at load 11; bench_speed: "score one win, engine path").
    # tests/test_scoring_fast_paths.py: equal to the constructor's.
    result = object.__new__(ScoreResult)
    result.__dict__.update(
        han=han,
        fu=fu,
        fu_details=fu_details,
        yaku=yaku,
        limit=limit,
        base_points=base,
        hand_value=hand_value,
        payments=payments,
        total=total,
        dealer=dealer,
        tsumo=tsumo,
        honba=ctx.honba,
        sticks=ctx.sticks,
        yakuman=units,
        notes=notes,
    )
    return result


def _check_context(ctx: WinContext, rules: Rules) -> None:
    """Raise the error that names what is wrong with a win's winds, kita, honba or sticks."""
    three = rules.players == 3
    for name, w in (("seat", ctx.seat_wind), ("round", ctx.round_wind)):
        if not 0 <= w <= 3:
            raise UsageError(f"{name} wind {w} is not 0..3 (E S W N)")
    if three and ctx.seat_wind == 3:
        raise UsageError(f"three-player rules ('{rules.name}') have no North seat")
    if ctx.kita and not three:
        raise UsageError(
            f"nukidora (kita {ctx.kita}) is a three-player rule; rules '{rules.name}' are four-player"
        )
    if not 0 <= ctx.kita <= 4:
        raise UsageError(f"kita {ctx.kita}: a player sets aside 0 to 4 Norths")
    if ctx.honba < 0 or ctx.sticks < 0:
        raise UsageError(f"honba ({ctx.honba}) and riichi sticks ({ctx.sticks}) cannot be negative")


def _physical_ids(tiles: list[int], extra: tuple[int, ...], red_fives: bool) -> list[int] | None:
    """The library's ids of ``tiles`` (the concealed tiles, then each meld's), as :class:`_IdPool`
    hands them out, when nothing is wrong with them or the ``extra`` tiles counted beside them
    (dora and ura indicators, kita); None sends the caller to :func:`_checked_ids`, which names
    what is wrong or gives the ids the long way.

    One pass counts the tiles and takes each its id (the j-th copy of a tile code gets its pool's
    j-th id: a tile beyond its pool is a fifth copy, a second red five or a red five with red
    fives off), instead of the counts checked in one pass and the ids taken in another through
    :class:`_IdPool` (13 -> 6 us CPU for the checks and ids of a win, load 11; bench_speed:
    "score one win, engine path")."""
    if min(tiles) < 0 or (extra and min(extra) < 0):
        return None
    pools = _ID_POOLS[red_fives]
    counts = [0] * NUM_TILES
    ids = []
    try:
        for t in tiles:
            j = counts[t]
            ids.append(pools[t][j])
            counts[t] = j + 1
        for t in extra:
            counts[t] += 1
    except (IndexError, TypeError):
        return None
    # the pools hold at most four of a kind and one red five: only the extra tiles can overflow
    if extra and not _possible_counts(counts):
        return None
    return ids


def _checked_ids(
    concealed: list[int],
    melds: Sequence[Meld],
    all_tiles: list[int],
    ctx: WinContext,
    rules: Rules,
    label: _HandLabel,
    win_tile: int,
) -> list[int]:
    """The long way to the ids: the counts checked (hand, kita, indicators), the concealed tiles'
    ids, the winning tile looked for, the melds' ids; each step raises what it finds wrong, in
    that order."""
    kita = ctx.kita
    with_indicators = all_tiles + list(ctx.dora_indicators) + list(ctx.ura_indicators)
    if not _surely_possible(with_indicators, rules.red_fives or not any(t >= NUM_KINDS for t in all_tiles)):
        counted = _HandLabel(concealed, melds, f" with {kita} kita") if kita else label
        check_counts(all_tiles, counted, red_fives=rules.red_fives)
        check_counts(
            with_indicators, _HandLabel(concealed, melds, " with its dora indicators"), red_fives=True
        )
    pool = _IdPool(rules, label)
    ids = pool.take_all(concealed)
    if _win_index(concealed, win_tile) is None:
        raise _no_win_tile(label, win_tile)
    for m in melds:
        ids.extend(pool.take_all(m.tiles))
    return ids


def _win_index(concealed: list[int], win_tile: int) -> int | None:
    """Where the winning tile is among the concealed tiles: its first copy (exact red/plain, else
    by kind); None when it is not there."""
    if win_tile in concealed:
        return concealed.index(win_tile)
    return next((i for i, t in enumerate(concealed) if kind(t) == kind(win_tile)), None)


def _no_win_tile(label: _HandLabel, win_tile: int) -> InvalidHandError:
    return InvalidHandError(f"{label}: the winning tile {tile_name(win_tile)} is not in the concealed tiles")


class ScoreCache:
    """:func:`score_hand` remembered for repeated questions: an object its caller owns (a game's
    policies, a benchmark), never a module-level cache.

    The key is the question's value: the concealed tiles in their order, the winning tile, the
    melds, the :class:`WinContext` and the :class:`Rules` (all hashable values) and ``explain``.
    An answer is the same :class:`ScoreResult` object each time (treat it as read-only), a hand
    that does not score raises the same error again. At most ``maxsize`` questions are kept, the
    least recently asked dropped first. A repeat costs one dict lookup instead of a score
    (hundreds of microseconds).
    """

    def __init__(self, maxsize: int = 4096) -> None:
        self.maxsize = maxsize
        self._answers: dict[tuple, ScoreResult | MjcliError] = {}

    def __len__(self) -> int:
        return len(self._answers)

    def score(
        self,
        concealed: Sequence[int],
        win_tile: int,
        melds: Sequence[Meld],
        ctx: WinContext,
        rules: Rules,
        *,
        explain: bool = True,
    ) -> ScoreResult:
        key = (tuple(concealed), win_tile, tuple(melds), ctx, rules, explain)
        answers = self._answers
        answer = answers.pop(key, None)
        if answer is None:
            try:
                answer = score_hand(concealed, win_tile, melds, ctx, rules, explain=explain)
            except MjcliError as exc:
                answer = exc
            if len(answers) >= self.maxsize:
                del answers[next(iter(answers))]  # the least recently asked
        answers[key] = answer  # (re)inserted last: dicts keep insertion order
        if isinstance(answer, MjcliError):
            raise type(answer)(*answer.args)  # a fresh one: re-raising one object grows its traceback
        return answer


def read_win_hand(hand: str, win: str | None, melds: Sequence[Meld]) -> tuple[list[int], int]:
    """The concealed tiles (winning tile included) and the winning tile, from what was typed."""
    tiles = parse_tiles(hand)
    check_counts(tiles, f"hand '{hand}'")  # five copies or a doubled red five first: the clearest error
    full = 14 - 3 * len(melds)
    if len(tiles) == full - 1:
        if win is None:
            raise UsageError(f"hand '{hand}' has {len(tiles)} tiles: name the winning tile with --win")
        win_tile = parse_tile(win)
        tiles.append(win_tile)
    elif len(tiles) == full:
        win_tile = parse_tile(win) if win is not None else tiles[-1]
        if win_tile not in tiles and any(kind(t) == kind(win_tile) for t in tiles):
            # a five named in the other colour than the hand holds it: the winning tile is the
            # hand's own (its only copy of the red five, or one of its plain fives), never a red
            # five that the hand does not hold, which was shown as the win but counted as no dora
            if is_red(win_tile):
                raise InvalidHandError(
                    f"hand '{hand}': the winning tile {tile_name(win_tile)} is a red five the hand does "
                    f"not hold (it holds {tile_name(kind(win_tile))} plain)"
                )
            win_tile = next(t for t in tiles if kind(t) == win_tile)
    else:
        raise InvalidHandError(
            f"hand '{hand}' has {len(tiles)} concealed tiles; with {len(melds)} meld(s) write {full} "
            f"(winning tile included) or {full - 1} and --win"
        )
    return tiles, win_tile


@dataclass(frozen=True)
class TypedScore:
    """A hand scored from what a person typed, with the parsed inputs the explanation needs."""

    result: ScoreResult
    concealed: list[int]
    win_tile: int
    melds: list[Meld]
    ctx: WinContext
    rules: Rules


def score_typed(
    hand: str,
    win: str | None = None,
    *,
    melds: str = "",
    dora: str = "",
    ura: str = "",
    seat: str = "E",
    round_wind: str = "E",
    honba: int = 0,
    sticks: int = 0,
    rules: str = "tenhou",
    kita: int = 0,
    **conditions: bool,
) -> TypedScore:
    """Score a hand given in notation (mpsz, meld text, wind letters, a rules preset): the one place
    where typed inputs become a :class:`WinContext`. ``conditions`` are its flags (``tsumo``,
    ``riichi``, ``double_riichi``, ``ippatsu``, ``rinshan``, ``chankan``, ``haitei``, ``houtei``,
    ``tenhou``, ``chiihou``, ``open_riichi``, ``discarder_riichi``)."""
    from mjcli.melds import parse_melds
    from mjcli.riichi.rules import get_rules
    from mjcli.tiles import wind_from_letter

    unknown = sorted(set(conditions) - _CONDITIONS)
    if unknown:
        raise UsageError(f"unknown win condition(s): {', '.join(unknown)}")
    rule_set = get_rules(rules)
    meld_list = parse_melds(melds)
    concealed, win_tile = read_win_hand(hand, win, meld_list)
    ctx = WinContext(
        seat_wind=wind_from_letter(seat),
        round_wind=wind_from_letter(round_wind),
        honba=honba,
        sticks=sticks,
        dora_indicators=tuple(parse_tiles(dora)),
        ura_indicators=tuple(parse_tiles(ura)),
        kita=kita,
        **{k: bool(v) for k, v in conditions.items()},
    )
    _check_typed_conditions(ctx, meld_list, concealed, win_tile)
    result = score_hand(concealed, win_tile, meld_list, ctx, rule_set)
    return TypedScore(result, concealed, win_tile, list(meld_list), ctx, rule_set)


def _check_typed_conditions(
    ctx: WinContext, melds: Sequence[Meld], concealed: list[int], win_tile: int
) -> None:
    """Conditions a typed hand could not have been won under, which the library scores anyway: a
    rinshan with no kan (nor, three-player, a North set aside: the engine scores that replacement
    as rinshan too), a rinshan with ippatsu (the kan ends it), a chankan of a tile the hand holds more
    of (the robbed kan holds the other three copies). Only here: a log's wins come with the engine's
    own context."""
    if ctx.rinshan and ctx.tsumo and not ctx.kita and not any(m.is_kan for m in melds):
        raise UsageError(
            "rinshan is a win on a kan's replacement tile: the hand needs a kan (--melds kan:/ankan:/kakan:)"
        )
    if ctx.rinshan and ctx.ippatsu:
        # The kan (or, three-player, the North set aside) ends ippatsu before its replacement is
        # drawn, as the engine plays it (riichi.wiki "Rinshan kaihou": combines with every standard
        # yaku "except chiitoitsu, ippatsu, pinfu, chankan, haitei, and houtei"); the library scores both.
        raise UsageError(
            "ippatsu with rinshan: the kan (or North set aside) whose replacement tile wins ends the ippatsu"
        )
    if ctx.chankan:
        k = kind(win_tile)
        copies = sum(kind(t) == k for t in concealed) + sum(kind(t) == k for m in melds for t in m.tiles)
        if copies > 1:
            raise UsageError(
                f"chankan: the robbed kan holds the other three copies of {tile_name(win_tile)}, "
                f"but the hand holds {copies}"
            )


#: the win-condition flags of :class:`WinContext`
_CONDITIONS = frozenset(
    (
        "tsumo",
        "riichi",
        "double_riichi",
        "ippatsu",
        "rinshan",
        "chankan",
        "haitei",
        "houtei",
        "tenhou",
        "chiihou",
        "open_riichi",
        "discarder_riichi",
    )
)
