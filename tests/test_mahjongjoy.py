"""Seed 000 (MahjongJoy): the definitions on the seed's examples and on hand-made positions, the
PM0 discard priorities, the claim rule and the Riichi section.

The seed writes tiles as B (bamboo = sou), C (characters = man), D (dots = pin), VS/VN (South and
North wind).
"""

import pytest

from mjcli.melds import make_meld
from mjcli.policies import get_policy, pm0
from mjcli.policies.advise import build_view
from mjcli.policies.legal import draw_actions, reaction_actions
from mjcli.policies.mahjongjoy import hand_mode, protected_pair
from mjcli.policies.view import Action, PlayerView, RiverTile
from mjcli.tiles import counts34, kind, parse_tile, parse_tiles, tile_name

MJ = get_policy("mahjongjoy")
SEED_HAND = "14m1234p124s2444z"  # B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def k(text: str) -> int:
    return kind(parse_tile(text))


def which(pred, hand) -> list[str]:
    return [tile_name(x) for x in range(34) if hand[x] and pred(x)]


NONE = [0] * 34


# ---------------------------------------------------------------- the seed's own examples


def test_unique_tiles_of_the_seed_example():
    hand = c(SEED_HAND)
    assert which(lambda x: pm0.is_unique(x, hand), hand) == ["1m", "4m", "2z"]  # C1 C4 VS
    assert not pm0.is_unique(k("4s"), hand)  # B4: B2 differs by 2
    assert not pm0.is_unique(k("1p"), hand) and not pm0.is_unique(k("4p"), hand)


def test_minor_tiles_of_the_seed_example():
    hand = c(SEED_HAND)
    assert which(lambda x: pm0.is_minor(x, hand), hand) == ["1p", "4p", "4s"]  # D1 D4 B4


def test_minor_tiles_next_to_an_incomplete_chow():
    # B1 B2 B4 / C2 C4 C5: B4 and C2 are minor; B1 B2 (and C4 C5) are an incomplete chow.
    hand = c("245m124s")
    assert which(lambda x: pm0.is_minor(x, hand), hand) == ["2m", "4s"]
    assert not pm0.is_unique(k("1s"), hand) and not pm0.is_minor(k("1s"), hand)
    assert not pm0.is_unique(k("2s"), hand) and not pm0.is_minor(k("2s"), hand)


def test_dead_tile_examples():
    # VS in hand, three VS exposed
    hand, exposed = c("2z"), c("222z")
    assert pm0.is_dead(k("2z"), hand, exposed)
    # B2 in hand; exposed four B1, three B2, four B3
    hand, exposed = c("2s"), c("1111222333s3s")
    assert pm0.is_dead(k("2s"), hand, exposed)
    # one B3 back in play and the B2 can make B2 B3 B4 again
    assert not pm0.is_dead(k("2s"), hand, c("1111222333s"))


def test_dead_incomplete_chow_example():
    # B1 B2 with four B3 exposed
    assert pm0.dead_incomplete_chows(c("12s"), c("3333s")) == [(k("1s"), k("2s"))]
    assert pm0.dead_incomplete_chows(c("12s"), c("333s")) == []
    # a middle chow needs both ends gone
    assert pm0.dead_incomplete_chows(c("45s"), c("3333s")) == []
    assert pm0.dead_incomplete_chows(c("45s"), c("33336666s")) == [(k("4s"), k("5s"))]


def test_dead_pair_example():
    # B2 B2 in hand, B2 B2 exposed
    assert pm0.is_dead_pair(k("2s"), c("22s"), c("22s"))
    assert not pm0.is_dead_pair(k("2s"), c("22s"), c("2s"))


def test_problematic_tiles():
    # a single honour with one or two copies exposed
    assert pm0.is_problematic(k("5z"), c("5z"), c("5z"))
    assert pm0.is_problematic(k("5z"), c("5z"), c("55z"))
    assert not pm0.is_problematic(k("5z"), c("5z"), NONE)
    assert not pm0.is_problematic(k("5z"), c("5z"), c("555z"))  # dead, not problematic
    assert not pm0.is_problematic(k("5z"), c("55z"), c("5z"))  # a pair
    # a number tile that can only pair: every chow through 1s needs a 2s, all exposed
    assert pm0.is_problematic(k("1s"), c("1s"), c("2222s"))
    assert not pm0.is_problematic(k("1s"), c("1s"), c("222s"))


def test_incomplete_chows_without_the_third():
    assert pm0.incomplete_chows(c("12s")) == [(k("1s"), k("2s"))]
    assert pm0.incomplete_chows(c("35s")) == [(k("3s"), k("5s"))]
    assert pm0.incomplete_chows(c("123s")) == []  # every two of them have their third
    assert pm0.incomplete_chows(c("1234s")) == []
    assert pm0.incomplete_chows(c("89s1p")) == [(k("8s"), k("9s"))]
    # never across suits
    assert pm0.incomplete_chows(c("9m1p")) == []


def test_tiles_of_a_complete_chow_are_not_incomplete_chow_tiles():
    hand = c("1235s")
    assert not pm0.is_incomplete_chow_tile(k("3s"), hand)
    assert pm0.is_incomplete_chow_tile(k("5s"), hand)


def test_max_combinations():
    assert pm0.max_combinations(c(SEED_HAND)) == 2  # D123 or D234, and VN VN VN
    assert pm0.max_combinations(c("11223344p")) == 4  # four pairs beat two chows
    assert pm0.max_sets(c("11223344p")) == 2
    assert pm0.max_sets(c("1111m")) == 1
    # two 123 chows and the pairs 11 22 33 (five) beat four 123 chows (four)
    assert pm0.max_combinations(c("111122223333m")) == 5
    assert pm0.max_sets(c("111122223333m")) == 4


# ---------------------------------------------------------------- PM0 1: the priority list


def test_priority_dead_before_unique():
    levels = dict(pm0.discard_levels(c("2z9m"), c("222z")))
    assert [tile_name(x) for x in levels["dead tile"]] == ["2z"]
    assert [tile_name(x) for x in levels["unique tile (not an honour)"]] == ["9m"]


def test_seed_hand_discards_the_first_unique_number_tile():
    view = build_view(parse_tiles(SEED_HAND + "9s"))
    a = MJ.decide(view, draw_actions(view))
    # unique number tiles: C1 C4 and the drawn 9s; the first in hand order is C1
    assert (a.kind, tile_name(a.tile)) == ("discard", "1m")
    assert "unique tile (not an honour)" in a.reason


def test_honour_unique_after_number_unique():
    view = build_view(parse_tiles("123m456p78s11z5z9m99s"))
    a = MJ.decide(view, draw_actions(view))
    # 9m is a unique number tile (5z a unique honour, lower priority)
    assert tile_name(a.tile) == "9m"


def test_minor_tile_before_incomplete_chow():
    view = build_view(parse_tiles("123m456p124s55777z"))
    a = MJ.decide(view, draw_actions(view))
    # (tenpai, so the minor tile goes with riichi)
    assert (a.kind, tile_name(a.tile)) == ("riichi", "4s")
    assert "minor tile" in a.reason


# ---------------------------------------------------------------- Riichi section


def test_closed_hand_without_yakuhai_and_open_with_a_yakuhai_pair():
    assert hand_mode(build_view(parse_tiles("123m456p124s9s3344z")))[0] is False
    # 77z (Red) pair -> open hand
    is_open, why = hand_mode(build_view(parse_tiles("123m456p124s9s3377z")))
    assert is_open and "pair of 7z" in why
    # own wind: South pair for the South seat only
    assert hand_mode(build_view(parse_tiles("123m456p124s9s2244z"), seat_wind=1))[0] is True
    assert hand_mode(build_view(parse_tiles("123m456p124s9s2244z"), seat_wind=2))[0] is False


def _reaction_view(hand: str, tile: str, by: int, melds=()) -> PlayerView:
    all_melds = [(), (), (), ()]
    all_melds[1] = tuple(melds)
    return PlayerView(
        seat=1,
        hand=tuple(parse_tiles(hand)),
        melds=tuple(all_melds),
        rivers=tuple((RiverTile(parse_tile(tile)),) if s == by else () for s in range(4)),
        offered=parse_tile(tile),
        offered_by=by,
    )


def test_closed_hand_makes_no_call():
    view = _reaction_view("123m456p2355s144z", "5s", 0)
    assert not hand_mode(view)[0]
    legal = reaction_actions(view)
    assert any(a.kind == "pon" for a in legal)
    assert MJ.decide(view, legal).kind == "pass"


def test_open_hand_claim_rule_pon_of_a_pair():
    view = _reaction_view("123m456p2355s777z", "5s", 2)
    assert hand_mode(view)[0]  # a concealed Red pon
    a = MJ.decide(view, reaction_actions(view))
    assert a.kind == "pon" and "stay at" in a.reason


def test_open_hand_claim_rule_refuses_a_call_that_breaks_a_set():
    # pon of 2s would take two 2s out of 222s: the sets drop from 3 to 2 -> no pon; the kan of
    # the same triplet drops them by exactly one -> kong.
    view = _reaction_view("123m456p222s46s77z", "2s", 2)
    legal = reaction_actions(view)
    pon = next(a for a in legal if a.kind == "pon")
    kan = next(a for a in legal if a.kind == "open_kan")
    assert MJ.decide(view, [pon, Action("pass")]).kind == "pass"
    assert MJ.decide(view, [kan, pon, Action("pass")]).kind == "open_kan"


def test_open_hand_chi_when_the_sets_stay():
    view = _reaction_view("123m11456p46s577z", "5s", 0)
    assert hand_mode(view)[0]
    a = MJ.decide(view, reaction_actions(view))
    assert a.kind == "chi" and sorted(tile_name(t) for t in a.consumed) == ["4s", "6s"]


def test_only_yakuhai_pair_of_an_open_hand_is_kept():
    # open hand (chi 234m), complete but without yaku, a single Red pair: the pair would be the
    # first priority-list tile ("tile of a pair"), but it is kept and a chow tile goes instead.
    melds = [make_meld("chi", parse_tiles("234m"))]
    view = build_view(parse_tiles("567p789s345s77z"), melds=melds)
    assert protected_pair(view) == k("7z")
    legal = draw_actions(view)
    assert not any(a.kind == "tsumo" for a in legal)
    a = MJ.decide(view, legal)
    assert (a.kind, tile_name(a.tile)) == ("discard", "5p")
    assert "keeps the only yakuhai pair" in a.reason and pm0.BEYOND in a.reason


def test_riichi_whenever_possible():
    view = build_view(parse_tiles("123m456p789s11235s"))
    a = MJ.decide(view, draw_actions(view))
    assert a.kind == "riichi"


def test_always_declares_mahjong_and_adds_to_a_kong():
    view = build_view(parse_tiles("123m456p789s11z222z"), seat_wind=1)
    assert MJ.decide(view, draw_actions(view)).kind == "tsumo"
    melds = [make_meld("pon", parse_tiles("555z"))]
    view = build_view(parse_tiles("123m456p78s11z5z"), melds=melds)
    legal = draw_actions(view)
    assert any(a.kind == "added_kan" for a in legal)
    assert MJ.decide(view, legal).kind == "added_kan"


@pytest.mark.parametrize("level", pm0.PRIORITIES)
def test_every_priority_level_is_named_in_reasons(level):
    assert level and level[0].islower()
