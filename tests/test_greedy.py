"""Seed 003 (the shanten-greedy bot): checked against the seed's own ``dahai`` and riichi code."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from mjcli.policies import get_policy
from mjcli.policies.advise import build_view
from mjcli.policies.greedy import seed_order
from mjcli.policies.legal import draw_actions
from mjcli.policies.view import Action, PlayerView
from mjcli.tiles import counts34, kind, parse_tile, parse_tiles, sort_key, tile_from_id136, tile_name

GREEDY = get_policy("greedy")


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
