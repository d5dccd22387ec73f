"""Seed 003 (the shanten-greedy bot): checked against the seed's own ``dahai`` and riichi code."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from mjcli.riichi.advise import build_view
from mjcli.riichi.policies import get_policy
from mjcli.riichi.policies.greedy import seed_order
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.legal import draw_actions
from mjcli.riichi.policies.view import Action, PlayerView
from mjcli.tiles import counts34, kind, parse_tile, parse_tiles, sort_key, tile_from_id136, tile_name

GREEDY = get_policy("greedy")
MATH = HandMath()


def seed_dahai(hand13: list[int], drawn: int) -> int:
    """The seed's ``Janshi.dahai`` (not in riichi), line for line, on our tiles.

    ``tehai`` is the hand sorted by ``riipai`` with the drawn tile appended by ``tsumo``; each
    tile's removal is scored with ``Shanten().calculate_shanten`` and the first minimum is cut.
    """
    tehai = sorted(hand13, key=sort_key) + [drawn]
    shantenvalue = [
        Shanten.calculate_shanten(counts34(tehai[:i] + tehai[i + 1 :])) for i in range(len(tehai))
    ]
    return tehai[shantenvalue.index(min(shantenvalue))]


walls = st.permutations(range(136))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls)
def test_discard_matches_the_seed_code(wall):
    tiles = [tile_from_id136(i) for i in wall[:14]]
    view = PlayerView(seat=0, hand=tuple(tiles[:13]), drawn=tiles[13])
    legal = draw_actions(view)
    if any(a.kind == "tsumo" for a in legal):
        return
    a = GREEDY.decide(view, legal)
    assert a.kind in ("discard", "riichi")
    assert a.tile == seed_dahai(tiles[:13], tiles[13])


def test_drawn_tile_comes_last_in_the_list():
    # 234m 456p 678s 11z 5z 6z + drawn 9m: 5z, 6z and 9m all leave shanten 1. Fully sorted, 9m
    # would come first; in the seed's list the drawn tile is last, so 5z goes.
    hand = parse_tiles("234m456p678s115z6z")
    view = PlayerView(seat=0, hand=tuple(hand), drawn=parse_tile("9m"))
    assert [tile_name(t) for t in seed_order(view)][-1] == "9m"
    a = GREEDY.decide(view, draw_actions(view))
    assert (a.kind, tile_name(a.tile)) == ("discard", "5z")
    assert "least shanten (1)" in a.reason


def test_riichi_when_tenpai_and_more_than_17_in_yama():
    view = build_view(parse_tiles("123m456p789s11235s"), wall_left=4)  # yama = 4 + 14 = 18
    a = GREEDY.decide(view, draw_actions(view))
    assert a.kind == "riichi" and "len(yama) > 17" in a.reason


def test_no_riichi_with_17_in_yama_even_if_offered():
    # wall_left 3: len(yama) == 17, not > 17. (Riichi is offered here to test the seed's own rule.)
    # The seed's comment says "山が残り17牌以上なら" (17 or more); its code, which ran, says
    # "len(self.taku.yama) > 17": the code is followed.
    view = build_view(parse_tiles("123m456p789s11235s"), wall_left=3)
    tile = seed_dahai(list(view.hand), view.drawn)
    legal = [*draw_actions(view), Action("riichi", tile)]
    a = GREEDY.decide(view, legal)
    assert a == Action("discard", tile)


def test_in_riichi_discards_the_drawn_tile():
    view = build_view(parse_tiles("123m456p789s1123s9p"), riichi_by=[0])
    a = GREEDY.decide(view, draw_actions(view))
    assert (a.kind, tile_name(a.tile)) == ("discard", "9p")


def test_wins_and_never_calls():
    view = build_view(parse_tiles("123m456p789s11z222z"), seat_wind=1)
    assert GREEDY.decide(view, draw_actions(view)).kind == "tsumo"
    tile = parse_tile("5s")
    react = PlayerView(seat=1, hand=tuple(parse_tiles("123m456p789s55s1z")), offered=tile, offered_by=0)
    legal = [Action("pon", tile, (tile, tile)), Action("pass")]
    assert GREEDY.decide(react, legal).kind == "pass"
    assert GREEDY.decide(react, [Action("ron", tile), *legal]).kind == "ron"


def test_red_five_sorts_first_among_equal_fives():
    # 0p and 5p are the same kind: the seed's "first minimum" takes the one sorted first, the red.
    hand = parse_tiles("123m456p789s05p9s1z")
    view = PlayerView(seat=0, hand=tuple(hand), drawn=parse_tile("2z"))
    order = seed_order(view)
    assert order.index(parse_tile("0p")) < order.index(parse_tile("5p"))
    assert kind(order[0]) == 0


# ---------------------------------------------------------------- the seed's printed game

# Every turn the seed prints (実行結果): the seat, the 13 tiles before the draw (the per-turn line:
# the kyokustart printout shows janshi[i]'s hand under janshi[idx]'s wind, so its North hand is a
# copy of East's), the draw (ツモ) and the discard (打). Wall: 136 - 52 dealt = 84 in yama, one less
# per draw, 14 of them the dead wall; the last row is the draw after which len(yama) == 14.
# The printed "N向聴" is the shanten of the 14 tiles after the draw (``shantensuu()`` after
# ``tsumo``), which is the least shanten over the discards: the number the reason gives.
# (junme, seat wind, 13 tiles, drawn, discarded, printed shanten)
SEED_TURNS = [
    (1, 0, "1268m1p15789s224z", "8p", "1p", 3),
    (1, 1, "3459m3456p8s1z667z", "5z", "9m", 3),
    (1, 2, "256m67p447s12357z", "1p", "2m", 5),
    (1, 3, "4457m378p478s367z", "4p", "4s", 3),
    (2, 0, "1268m8p15789s224z", "2p", "8p", 3),
    (2, 1, "345m3456p8s15667z", "3m", "3m", 3),
    (2, 2, "56m167p447s12357z", "7p", "5m", 4),
    (2, 3, "4457m3478p78s367z", "6s", "3z", 2),
    (15, 0, "6889m6p56799s222z", "9p", "6p", 1),
    (15, 2, "77p445s12355677z", "9s", "5s", 2),
    (16, 0, "6889m9p56799s222z", "5z", "9p", 1),
]


def _wall_left(junme: int, seat: int) -> int:
    """Live-wall tiles left after the draw of ``seat`` (East draws first) in turn ``junme``."""
    return 70 - ((junme - 1) * 4 + seat + 1)


@pytest.mark.parametrize(("junme", "seat", "hand", "drawn", "expected", "printed"), SEED_TURNS)
def test_seed_game_log_discards(junme, seat, hand, drawn, expected, printed):
    view = build_view(parse_tiles(hand + drawn), seat_wind=seat, wall_left=_wall_left(junme, seat))
    legal = draw_actions(view)
    a = GREEDY.decide(view, legal)
    assert a.label() == f"discard {expected}"
    assert a.reason.startswith(
        f"{expected} is the first tile whose discard leaves the least shanten ({printed})"
    )
    assert tile_name(seed_dahai(list(view.hand), view.drawn)) == expected


def test_seed_log_last_draw_before_the_exhaustive_draw():
    # 流局 example: 99m 3455788p 699s 7z draws 3s, "2向聴", discards 3p; len(yama) is then 14.
    view = build_view(parse_tiles("99m3455788p699s7z3s"), seat_wind=1, wall_left=0)
    a = GREEDY.decide(view, draw_actions(view))
    assert a.label() == "discard 3p" and "least shanten (2)" in a.reason


def test_the_library_version_the_seed_ran_counts_a_fifth_copy_as_a_wait():
    # The seed's mahjong 1.1.11 says 9999m123789p789s is tenpai (0); 2.x, kept here, says 1: the
    # "wait" on a fifth 9m does not exist.
    assert MATH.shanten(counts34(parse_tiles("9999m123789p789s"))) == 1
    assert MATH.shanten(counts34(parse_tiles("1111m123456p789s"))) == 1
    # The one kind of decision it changes: 456789m567p9999s drawing 9m. 1.1.11 rates the 9m cut 0
    # (leaving 456789m567p9999s, a "tanki" on the fifth 9s) and the seed's code declares riichi 9m;
    # with the correct count the 9s cut is the first tenpai one (a real wait on 3m 6m 9m).
    view = build_view(parse_tiles("456789m567p9999s9m"), seat_wind=1, wall_left=40)
    a = GREEDY.decide(view, draw_actions(view))
    assert a.label() == "riichi 9s" and "least shanten (0)" in a.reason
    assert tile_name(seed_dahai(list(view.hand), view.drawn)) == "9s"


def test_seed_log_in_riichi_discards_the_draw():
    # 15巡目 North (in riichi since an omitted turn: a free choice would cut the first 4m, which
    # keeps tenpai too) draws 5m and discards it.
    view = build_view(
        parse_tiles("44567m44789p678s5m"), seat_wind=3, riichi_by=[3], wall_left=_wall_left(15, 3)
    )
    assert MATH.shanten(view.concealed_counts()) == 0  # the printed 0向聴
    hand_only = [a for a in draw_actions(view) if a.kind == "discard"]
    assert [a.label() for a in hand_only] == ["discard 5m"]
    assert GREEDY.decide(view, draw_actions(view)).label() == "discard 5m"
    free = build_view(parse_tiles("44567m44789p678s5m"), seat_wind=3)
    assert tile_name(seed_dahai(list(free.hand), free.drawn)) == "4m"


def test_seed_log_riichi_with_the_tenpai_discard():
    # 15巡目 South: 345 78m 456p 123s 66z draws 6s, "0向聴", "打 6索". The log prints no "南家のリーチ"
    # line although the seed prints one whenever shantensu == 0, not in riichi and len(yama) > 17
    # (here 26): South is already in riichi (declared in the omitted turns; it wins [Menzen Tsumo,
    # Riichi] next turn), so the turn is a tsumogiri in riichi.
    tiles = parse_tiles("34578m456p123s66z6s")
    assert MATH.shanten(counts34(tiles)) == 0  # the printed 0向聴
    in_riichi = build_view(tiles, seat_wind=1, riichi_by=[1], wall_left=_wall_left(15, 1))
    assert in_riichi.wall_left + 14 == 26
    a = GREEDY.decide(in_riichi, draw_actions(in_riichi))
    assert a.label() == "discard 6s" and a.reason.startswith("in riichi")
    # Not yet in riichi, the seed's rule would cut the same 6s and declare riichi (len(yama) > 17).
    free = build_view(tiles, seat_wind=1, wall_left=_wall_left(15, 1))
    a = GREEDY.decide(free, draw_actions(free))
    assert a.label() == "riichi 6s" and "least shanten (0)" in a.reason and "len(yama) > 17" in a.reason


def test_seed_log_tsumo_in_riichi():
    # 16巡目 South, in riichi, draws 6m: ツモ! (Menzen Tsumo, Riichi).
    view = build_view(
        parse_tiles("34578m456p123s66z6m"), seat_wind=1, riichi_by=[1], wall_left=_wall_left(16, 1)
    )
    assert MATH.shanten(view.concealed_counts()) == -1  # "ツモ!"
    a = GREEDY.decide(view, draw_actions(view))
    assert a.label() == "tsumo 6m"
