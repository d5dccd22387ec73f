"""Faan of a Hong Kong (or Red) winning hand under a rule set's table (:mod:`mjcli.hk.rules`).

A hand is scored from its concealed tiles (the winning tile included, jokers as :data:`JOKER`),
its declared melds (:class:`mjcli.melds.Meld`: ``chi``, ``pon``, ``kan``, ``ankan``, ``kakan``;
melds are real tiles only) and how it was won (:class:`WinContext`). Every way to split the
concealed tiles into sets and a pair is tried (jokers stand for any tile: the Red design in
:mod:`mjcli.hk.rules`); the split worth the most is kept: first one that reaches the minimum, then
the most faan.

Winning shapes: four sets and a pair (chows, pungs, kongs), and thirteen orphans. Seven pairs is
not in the default table, so it is not a winning hand (as in the Old Style tables that leave it
out; some tables score it 4: scribd's Hong Kong summary, mahjong.nu).

Readings where the table is silent (each also in the README):

* "fully concealed" is scored on a discard win too (the first worked example of the README) and a concealed
  kong keeps the hand concealed;
* a kong-replacement win is self-drawn (both items, as in most tables: "Going out on Kong
  replacement, 2 fans (self pick is included)", mahjong.nu);
* "last tile" is a win on the last tile of the wall, self-drawn, or on the discard that follows it;
* "earthly hand" is a non-dealer's win on the dealer's first discard, before any call or kong;
  "heavenly hand" the dealer's self-drawn win on the dealt hand, before any kong;
* a limit hand (an item worth the cap or more) is scored alone, at the cap ("limit hands score
  only ..., not winds, dragons or flowers", https://wikihq.org/wiki/Hong_Kong_mahjong_scoring_rules);
  otherwise the total is the sum of the items, cut to the cap;
* "chicken hand" (0 faan) is listed when no hand item (shape, suits, honours) applies.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from mjcli.errors import InvalidHandError, NotationError, ScoringError, UsageError
from mjcli.hk.notation import (
    JOKER,
    RED_JOKERS,
    counts_text,
    hand_text,
    parse_bonus_numbers,
    parse_hand,
    tile_code,
    tile_text,
)
from mjcli.hk.rules import BONUS_ITEMS, ITEM_BY_ID, HKRules
from mjcli.melds import Meld, parse_melds
from mjcli.output import plural
from mjcli.tiles import DRAGONS, NUM_KINDS, WINDS, check_counts, to_mpsz, wind_from_letter

WIND_NAMES = ("East", "South", "West", "North")
_HONOUR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True)
class WinContext:
    """How and where the hand was won. Winds are 0..3 = E S W N; seat wind East is the dealer.
    ``flowers``/``seasons`` are the numbers (1-4) of the bonus tiles the winner has set aside."""

    self_drawn: bool = False
    seat_wind: int = 0
    prevailing_wind: int = 0
    flowers: tuple[int, ...] = ()
    seasons: tuple[int, ...] = ()
    last_tile: bool = False
    kong_replacement: bool = False
    double_kong_replacement: bool = False
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False

    def check(self, melds: Sequence[Meld], win_copies: int) -> None:
        """Raise :class:`UsageError` on conditions that cannot go together, and, given the hand's
        ``melds`` and how many copies of the winning tile it holds (melds and the winning tile
        included), on conditions that the hand could not have been won under: the engine's own
        contexts (:meth:`mjcli.hk.engine.state.HandState.context`) always pass."""
        replacement = self.kong_replacement or self.double_kong_replacement
        if replacement and not self.self_drawn:
            raise UsageError("a kong replacement win is self-drawn: add --tsumo")
        if self.robbing_kong and self.self_drawn:
            raise UsageError("robbing a kong is a win on another player's tile: drop --tsumo")
        if self.heavenly and (not self.self_drawn or self.seat_wind != 0):
            raise UsageError("a heavenly hand is the dealer's (seat E) self-drawn win: --tsumo --seat E")
        if self.earthly and (self.self_drawn or self.seat_wind == 0):
            raise UsageError("an earthly hand is a non-dealer's win on the dealer's first discard")
        # the engine: a kong can neither be made nor robbed once the wall is empty, and any kong
        # before the first discard ends the chance of a heavenly or earthly hand
        if self.robbing_kong and self.last_tile:
            raise UsageError(
                "robbing a kong and the last tile cannot go together: no kong is made once the wall is empty"
            )
        if (self.heavenly or self.earthly) and (replacement or self.robbing_kong or self.last_tile):
            raise UsageError("a heavenly or earthly hand is won on the dealt hand: no kong, no last tile")
        kongs = sum(m.is_kan for m in melds)
        if (self.heavenly or self.earthly) and melds:
            raise UsageError("a heavenly or earthly hand is won before any call or kong: drop --melds")
        if self.double_kong_replacement and kongs < 2:
            raise UsageError(
                f"a win on a kong's replacement after another kong needs two kongs in --melds ({kongs} given)"
            )
        if self.kong_replacement and kongs < 1:
            raise UsageError(
                "a win on a kong's replacement needs a kong in --melds (kan:, or ankan: for a concealed one)"
            )
        if self.robbing_kong and win_copies > 1:
            raise UsageError(
                f"robbing a kong: the robbed kong holds the other three copies of the winning tile, "
                f"but the hand holds {win_copies}"
            )


@dataclass(frozen=True, slots=True)
class Group:
    """One set or the pair of a winning hand. ``kind`` is the pung's kind or the chow's lowest;
    ``jokers`` how many jokers stand in it; ``concealed`` false for a meld that opens the hand."""

    shape: str  # chow, pung, kong or pair
    kind: int
    concealed: bool = True
    jokers: int = 0

    def kinds(self) -> tuple[int, ...]:
        return (self.kind, self.kind + 1, self.kind + 2) if self.shape == "chow" else (self.kind,)

    def text(self) -> str:
        k = self.kind
        tiles = {"chow": [k, k + 1, k + 2], "pung": [k] * 3, "kong": [k] * 4, "pair": [k] * 2}[self.shape]
        body = to_mpsz(tiles)
        return f"{self.shape} {body}" + (
            f" ({self.jokers} joker{'s' * (self.jokers > 1)})" if self.jokers else ""
        )


@dataclass(frozen=True)
class HKScore:
    """A scored hand. ``items`` are (id, name, faan) in table order; ``faan`` the total cut to the
    cap (the cap for a limit hand); ``counted`` what counts toward the minimum; ``groups`` the split
    scored (empty for thirteen orphans)."""

    faan: int
    raw: int
    counted: int
    limit: bool
    items: tuple[tuple[str, str, int], ...]
    groups: tuple[Group, ...] = field(default=())

    def legal(self, min_faan: int) -> bool:
        return self.counted >= min_faan

    def item_ids(self) -> list[str]:
        return [i for i, _, _ in self.items]

    def to_dict(self) -> dict[str, object]:
        return {
            "faan": self.faan,
            "raw_faan": self.raw,
            "counted_faan": self.counted,
            "limit": self.limit,
            "items": [{"id": i, "name": n, "faan": f} for i, n, f in self.items],
            "groups": [g.text() for g in self.groups],
        }


# ---------------------------------------------------------------- splitting the concealed tiles


def _meld_group(m: Meld) -> Group:
    k = m.kind34
    if m.kind == "chi":
        return Group("chow", k, False)
    if m.kind == "pon":
        return Group("pung", k, False)
    return Group("kong", k, m.kind == "ankan")


def _chow_starts(i: int) -> Iterator[int]:
    """Starts of the chows through kind ``i`` (lowest first); none for an honour."""
    if i >= 27:
        return
    base = i - i % 9
    for s in (i - 2, i - 1, i):
        if base <= s <= base + 6:
            yield s


def splits(counts: list[int], jokers: int, sets: int) -> Iterator[list[Group]]:
    """Every way to split ``counts`` (+ ``jokers``) into ``sets`` sets and one pair. Groups made of
    jokers alone come with ``kind = -1`` (their kind is chosen by the scorer). ``counts`` is
    changed while iterating and restored after."""
    yield from _split(counts, jokers, sets, True, 0, [])


def _split(
    counts: list[int], jokers: int, sets: int, pair: bool, i: int, acc: list[Group]
) -> Iterator[list[Group]]:
    while i < NUM_KINDS and counts[i] == 0:
        i += 1
    if i == NUM_KINDS:
        if jokers == 3 * sets + 2 * pair:
            yield acc + [Group("pung", -1, True, 3)] * sets + ([Group("pair", -1, True, 2)] if pair else [])
        return
    c = counts[i]
    if pair:
        for real in (2, 1):
            if c >= real and jokers >= 2 - real:
                counts[i] -= real
                yield from _split(
                    counts, jokers - 2 + real, sets, False, i, [*acc, Group("pair", i, True, 2 - real)]
                )
                counts[i] += real
    if not sets:
        return
    for real in (3, 2, 1):
        if c >= real and jokers >= 3 - real:
            counts[i] -= real
            yield from _split(
                counts, jokers - 3 + real, sets - 1, pair, i, [*acc, Group("pung", i, True, 3 - real)]
            )
            counts[i] += real
    for s in _chow_starts(i):
        yield from _chow(counts, jokers, sets, pair, i, acc, s)


def _chow(
    counts: list[int], jokers: int, sets: int, pair: bool, i: int, acc: list[Group], s: int
) -> Iterator[list[Group]]:
    """Chows from ``s`` holding one real ``i`` (the lowest real kind left): lower places are
    jokers; higher places a real tile or a joker (only the real tile when no joker is left)."""
    below = i - s
    if jokers < below:
        return
    options: list[list[int]] = [[]]  # for each higher place, 1 = real tile, 0 = joker
    for k in range(i + 1, s + 3):
        options = [
            o + [r]
            for o in options
            for r in ((1, 0) if counts[k] and jokers else (1,) if counts[k] else (0,))
        ]
    for o in options:
        used = below + o.count(0)
        if used > jokers:
            continue
        taken = [k for k, r in zip(range(i + 1, s + 3), o, strict=True) if r]
        counts[i] -= 1
        for k in taken:
            counts[k] -= 1
        yield from _split(counts, jokers - used, sets - 1, pair, i, [*acc, Group("chow", s, True, used)])
        counts[i] += 1
        for k in taken:
            counts[k] += 1


def is_thirteen_orphans(counts: Sequence[int], jokers: int = 0) -> bool:
    """The thirteen terminals and honours once each and one of them twice (no jokers)."""
    if jokers:
        return False
    return (
        sum(counts) == 14 and all(counts[k] >= 1 for k in ORPHANS) and sum(counts[k] for k in ORPHANS) == 14
    )


# ---------------------------------------------------------------- the items of one split


def _honour_name(k: int) -> str:
    return _HONOUR_NAMES[k - 27]


def _hand_items(
    groups: Sequence[Group], ctx: WinContext, rules: HKRules, jokers_held: int
) -> list[tuple[str, str, int]]:
    """The hand items of one split (every kind known)."""
    out: list[tuple[str, str, int]] = []
    v = rules.value
    sets = [g for g in groups if g.shape != "pair"]
    pair = next(g for g in groups if g.shape == "pair")
    kinds = [k for g in groups for k in g.kinds()]
    suits = {k // 9 for k in kinds if k < 27}
    honours = any(k >= 27 for k in kinds)
    pungs = [g.kind for g in sets if g.shape != "chow"]
    all_pungs = len(pungs) == 4
    all_chows = not pungs
    if not suits:
        out.append(("all_honours", "all honours", v("all_honours")))
    elif all(k in _TERMINALS for k in kinds):
        out.append(("all_terminals", "all terminals", v("all_terminals")))
    else:
        if all_pungs:
            out.append(("all_pungs", "all pungs", v("all_pungs")))
        if honours and all(k in _TERMINALS or k >= 27 for k in kinds):
            out.append(("mixed_terminals", "mixed terminals", v("mixed_terminals")))
    if all_chows:
        out.append(("common_hand", "common hand (four chows)", v("common_hand")))
    if len(suits) == 1:
        if honours:
            out.append(("mixed_one_suit", "mixed one suit", v("mixed_one_suit")))
        else:
            out.append(("all_one_suit", "all one suit", v("all_one_suit")))
    dragons = [k for k in pungs if k in DRAGONS]
    if len(dragons) == 3:
        out.append(("great_three_dragons", "great three dragons", v("great_three_dragons")))
    elif len(dragons) == 2 and pair.kind in DRAGONS:
        out.append(("small_three_dragons", "small three dragons", v("small_three_dragons")))
    else:
        out.extend(("dragon_pung", f"dragon pung ({_honour_name(k)})", v("dragon_pung")) for k in dragons)
    winds = [k for k in pungs if k in WINDS]
    if len(winds) == 4:
        out.append(("great_four_winds", "great four winds", v("great_four_winds")))
    elif len(winds) == 3 and pair.kind in WINDS:
        out.append(("small_four_winds", "small four winds", v("small_four_winds")))
    else:
        seat, prevailing = WINDS[ctx.seat_wind], WINDS[ctx.prevailing_wind]
        if seat in winds:
            out.append(("seat_wind", f"seat-wind pung ({_honour_name(seat)})", v("seat_wind")))
        if prevailing in winds:
            out.append(
                (
                    "prevailing_wind",
                    f"prevailing-wind pung ({_honour_name(prevailing)})",
                    v("prevailing_wind"),
                )
            )
    if sum(1 for g in sets if g.shape == "kong") == 4:
        out.append(("all_kongs", "all kongs", v("all_kongs")))
    if not out:
        out.append(("chicken_hand", "chicken hand", v("chicken_hand")))
    if rules.red and not jokers_held:
        out.append(("no_jokers", "no jokers", v("no_jokers")))
    return out


def _context_items(ctx: WinContext, rules: HKRules, concealed: bool) -> list[tuple[str, str, int]]:
    """Items of how the hand was won and of its bonus tiles."""
    v = rules.value
    out: list[tuple[str, str, int]] = []
    for flag, item in (
        (ctx.self_drawn, "self_drawn"),
        (concealed, "fully_concealed"),
        (ctx.robbing_kong, "robbing_kong"),
        (ctx.last_tile, "last_tile"),
        (ctx.kong_replacement and not ctx.double_kong_replacement, "kong_replacement"),
        (ctx.double_kong_replacement, "double_kong_replacement"),
        (ctx.heavenly, "heavenly"),
        (ctx.earthly, "earthly"),
    ):
        if flag:
            out.append((item, ITEM_BY_ID[item].name, v(item)))
    own = ctx.seat_wind + 1
    if len(ctx.flowers) == 4 and len(ctx.seasons) == 4:
        out.append(("all_bonus", "all eight bonus tiles", v("all_bonus")))
    elif not ctx.flowers and not ctx.seasons:
        out.append(("no_bonus", "no bonus tiles", v("no_bonus")))
    else:
        for held, full, single, word in (
            (ctx.flowers, "all_flowers", "own_flower", "flower"),
            (ctx.seasons, "all_seasons", "own_season", "season"),
        ):
            if len(held) == 4:
                out.append((full, ITEM_BY_ID[full].name, v(full)))
            elif own in held:
                out.append((single, f"own {word} ({own})", v(single)))
    return out


def _total(items: list[tuple[str, str, int]], rules: HKRules) -> HKScore:
    """The total of a split's items: a limit hand alone at the cap, or the sum cut to the cap;
    ``counted`` leaves out the bonus items when the rules say bonus faan do not count."""

    def counts(i: str) -> bool:
        return rules.bonus_counts or i not in BONUS_ITEMS

    counted = min(rules.cap, sum(f for i, _, f in items if counts(i)))
    limits = [it for it in items if it[2] >= rules.cap]
    if limits:
        if any(counts(i) for i, _, _ in limits):
            counted = rules.cap
        return HKScore(rules.cap, sum(f for *_, f in limits), counted, True, tuple(limits))
    raw = sum(f for *_, f in items)
    return HKScore(min(raw, rules.cap), raw, counted, raw >= rules.cap, tuple(items))


_ORDER = {item: n for n, item in enumerate(ITEM_BY_ID)}


def _ordered(items: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    return sorted(items, key=lambda it: _ORDER[it[0]])


def _joker_choices(group: Group) -> Iterator[Group]:
    """The kinds a group of jokers alone may stand for: any pung (or pair) kind, any chow."""
    if group.shape == "pair":
        for k in range(NUM_KINDS):
            yield Group("pair", k, True, 2)
        return
    for k in range(NUM_KINDS):
        yield Group("pung", k, True, 3)
    for k in range(27):
        if k % 9 <= 6:
            yield Group("chow", k, True, 3)


def _filled(groups: list[Group]) -> Iterator[list[Group]]:
    """The split with each jokers-only group given every kind it may stand for."""
    free = [n for n, g in enumerate(groups) if g.kind < 0]
    if not free:
        yield groups
        return
    n = free[0]
    for g in _joker_choices(groups[n]):
        yield from _filled([*groups[:n], g, *groups[n + 1 :]])


def score_counts(
    counts: Sequence[int],
    jokers: int,
    melds: Sequence[Meld],
    ctx: WinContext,
    rules: HKRules,
) -> HKScore | None:
    """The best score of a hand given as 34 counts of its concealed tiles (the winning tile
    included) and jokers, or None when it is not a winning hand."""
    meld_groups = [_meld_group(m) for m in melds]
    opened = any(m.opened for m in melds)
    context = _context_items(ctx, rules, not opened)
    best: HKScore | None = None
    best_key: tuple[bool, int, int, int] | None = None

    def consider(items: list[tuple[str, str, int]], groups: tuple[Group, ...]) -> None:
        nonlocal best, best_key
        s = _total(_ordered(items), rules)
        key = (s.legal(rules.min_faan), s.faan, s.counted, s.raw)
        if best_key is None or key > best_key:
            best, best_key = HKScore(s.faan, s.raw, s.counted, s.limit, s.items, groups), key

    if not melds and is_thirteen_orphans(counts, jokers):
        consider([("thirteen_orphans", "thirteen orphans", rules.value("thirteen_orphans")), *context], ())
    sets = 4 - len(melds)
    if sum(counts) + jokers != 3 * sets + 2:
        return best
    work = list(counts)
    for split in splits(work, jokers, sets):
        for groups in _filled(split):
            all_groups = tuple(groups) + tuple(meld_groups)
            items = _hand_items(all_groups, ctx, rules, jokers) + context
            if not melds and not jokers and _nine_gates(counts):
                items.append(("nine_gates", "nine gates", rules.value("nine_gates")))
            consider(items, all_groups)
    return best


def _nine_gates(counts: Sequence[int]) -> bool:
    suit = next((s for s in range(3) if sum(counts[s * 9 : s * 9 + 9]) == 14), None)
    if suit is None:
        return False
    v = counts[suit * 9 : suit * 9 + 9]
    return all(c >= need for c, need in zip(v, _NINE_GATES, strict=True))


# ---------------------------------------------------------------- from what a person types


@dataclass(frozen=True)
class TypedHand:
    """A hand read from the command line, with its parsed parts."""

    concealed: list[int]  # codes, winning tile included, jokers as JOKER
    win_tile: int
    melds: list[Meld]
    ctx: WinContext
    rules: HKRules
    score: HKScore

    def label(self) -> str:
        text = hand_text(self.concealed)
        return text + "".join(f" + {m.kind}:{to_mpsz(m.tiles)}" for m in self.melds)


def read_win_hand(hand: str, win: str | None, melds: Sequence[Meld], jokers: bool) -> tuple[list[int], int]:
    """The concealed codes (winning tile included) and the winning tile, from what was typed:
    the hand with the winning tile (then ``win`` names it, default the last tile written) or
    without it (then ``win`` is needed)."""
    codes = parse_hand(hand, jokers=jokers)
    full = 14 - 3 * len(melds)
    if len(codes) == full - 1:
        if win is None:
            raise UsageError(f"hand '{hand}' has {len(codes)} tiles: name the winning tile with --win")
        win_tile = tile_code(win)
        codes.append(win_tile)
    elif len(codes) == full:
        win_tile = tile_code(win) if win is not None else codes[-1]
        if win_tile not in codes:
            raise InvalidHandError(f"hand '{hand}' does not hold the winning tile {win}")
    else:
        raise InvalidHandError(
            f"hand '{hand}' has {len(codes)} concealed tiles; with {plural(len(melds), 'meld')} write {full} "
            f"(winning tile included) or {full - 1} and --win"
        )
    if win_tile >= NUM_KINDS and win_tile != JOKER:
        raise InvalidHandError(f"the winning tile {win} is a bonus tile")
    if win_tile == JOKER and not jokers:
        raise NotationError(f"--win '{win}': jokers (J) exist only in Red mahjong (--game red)")
    if codes.count(JOKER) > RED_JOKERS:  # the hand had its share, and --win J adds one more
        raise InvalidHandError(
            f"hand '{hand}' and --win {win} hold {codes.count(JOKER)} jokers; the Red set has {RED_JOKERS}"
        )
    everything = [c for c in codes if c != JOKER] + [t for m in melds for t in m.tiles]
    check_counts(everything, f"hand '{hand}' with its melds", red_fives=False)
    return codes, win_tile


def score_typed(
    hand: str,
    win: str | None,
    rules: HKRules,
    *,
    melds: str = "",
    seat: str = "E",
    round_wind: str = "E",
    flowers: str | None = None,
    seasons: str | None = None,
    self_drawn: bool = False,
    last_tile: bool = False,
    kong_replacement: bool = False,
    double_kong_replacement: bool = False,
    robbing_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
) -> TypedHand:
    """Score a typed hand; :class:`ScoringError` when it is not a winning hand or is below the
    table's minimum ("1 faan, the table's minimum is 3")."""
    meld_list = parse_melds(melds)
    for m in meld_list:
        if any(t >= NUM_KINDS for t in m.tiles):
            raise InvalidHandError(f"meld '{m}': Hong Kong tiles have no red fives")
    concealed, win_tile = read_win_hand(hand, win, meld_list, jokers=rules.red)
    ctx = WinContext(
        self_drawn=self_drawn,
        seat_wind=wind_from_letter(seat),
        prevailing_wind=wind_from_letter(round_wind),
        flowers=parse_bonus_numbers(flowers, "--flowers"),
        seasons=parse_bonus_numbers(seasons, "--seasons"),
        last_tile=last_tile,
        kong_replacement=kong_replacement,
        double_kong_replacement=double_kong_replacement,
        robbing_kong=robbing_kong,
        heavenly=heavenly,
        earthly=earthly,
    )
    # Red design point 4 (mjcli/hk/rules.py, README's Red section): "a discarded joker can be claimed
    # by nobody, not even for a win"; and kongs are of real tiles (point 3), so no joker is robbed.
    # A joker wins only when drawn: self-drawn (or on a kong's replacement, which is self-drawn too)
    if win_tile == JOKER and not self_drawn:
        raise InvalidHandError(
            f"hand '{hand}': the winning tile is a joker, and a discarded joker can be claimed by "
            "nobody, not even for a win (Red): a joker wins self-drawn (--tsumo); --win names another tile"
        )
    ctx.check(meld_list, concealed.count(win_tile) + sum(m.tiles.count(win_tile) for m in meld_list))
    counts = [0] * NUM_KINDS
    for c in concealed:
        if c != JOKER:
            counts[c] += 1
    jokers = concealed.count(JOKER)
    result = score_counts(counts, jokers, meld_list, ctx, rules)
    label = counts_text(counts, jokers) + "".join(f" + {m.kind}:{to_mpsz(m.tiles)}" for m in meld_list)
    if result is None:
        raise ScoringError(
            f"hand '{label}' is not a winning hand (four sets and a pair, or thirteen orphans)"
        )
    if not result.legal(rules.min_faan):
        bonus = "" if rules.bonus_counts else " without bonus faan"
        raise ScoringError(
            f"hand '{label}' (win {tile_text(win_tile)}): "
            f"{result.counted} faan{bonus}, the table's minimum is {rules.min_faan}"
        )
    return TypedHand(concealed, win_tile, list(meld_list), ctx, rules, result)


__all__ = [
    "Group",
    "HKScore",
    "TypedHand",
    "WinContext",
    "is_thirteen_orphans",
    "score_counts",
    "score_typed",
    "splits",
]
