"""Seed 001 (Akagi NPC): every worked example of the seed, and each rule on a hand made for it."""

import pytest

from mjcli.riichi.advise import build_view
from mjcli.riichi.policies import get_policy
from mjcli.riichi.policies.akagi import (
    discard_stage,
    is_body,
    is_head,
    live_waits,
    pick,
    tie_break_key,
    waits_to_body,
)
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.legal import draw_actions, reaction_actions
from mjcli.riichi.policies.view import Action, PlayerView
from mjcli.tiles import counts34, kind, parse_tile, parse_tiles, tile_name

AKAGI = get_policy("akagi")


def decide(hand: str, **kw):
    view = build_view(parse_tiles(hand), **kw)
    return AKAGI.decide(view, draw_actions(view))


def names(kinds):
    return sorted(tile_name(k) for k in kinds)


# ---------------------------------------------------------------- the seed's worked examples


def test_worked_example_1_discards_8m():
    # 23m 88m 34556p 33s 5s 77s: no isolated tile, every loose tile has two waits; of the pairs
    # 7s (waits 6s 7s) and 3s (3s 4s) have two waits, 8m only 8m -> 8m.
    a = decide("2388m34556p33577s")
    assert (a.kind, tile_name(a.tile)) == ("discard", "8m")
    assert a.reason.startswith("2.1***")


def test_worked_example_1_waits_as_the_seed_lists_them():
    c = counts34(parse_tiles("2388m34556p33577s"))
    assert names(waits_to_body(kind(parse_tile("5s")), c)) == ["4s", "6s"]
    assert names(waits_to_body(kind(parse_tile("7s")), c)) == ["6s", "7s"]
    assert names(waits_to_body(kind(parse_tile("3s")), c)) == ["3s", "4s"]
    assert names(waits_to_body(kind(parse_tile("8m")), c)) == ["8m"]
    assert names(waits_to_body(kind(parse_tile("2m")), c)) == ["1m", "4m"]
    assert all(is_body(kind(parse_tile(t)), c) for t in ("3p", "4p", "5p", "6p"))


def test_worked_example_2_discards_9s():
    # 78889m (body) 2333455p (body) 99s: the 9s pair waits only on 9s.
    a = decide("78889m2333455p99s")
    assert (a.kind, tile_name(a.tile)) == ("discard", "9s")
    assert a.reason.startswith("2.1***")
    c = counts34(parse_tiles("78889m2333455p99s"))
    assert all(is_body(k, c) for k in range(34) if c[k] and k != kind(parse_tile("9s")))


def test_worked_example_3_discards_7p_closer_to_a_terminal_than_6s():
    # 78m 23p 6p 77p 111s 5667s: nothing in stages 1-3; stage 4 breaks a pair, 7p (two from 9)
    # before 6s (three from 9): "6삭과 7통 중 귀족패에 근접한 7통을 버립니다".
    a = decide("78m23677p1115667s")
    assert (a.kind, tile_name(a.tile)) == ("discard", "7p")
    assert a.reason.startswith("2.1****")
    c = counts34(parse_tiles("78m23677p1115667s"))
    assert len(waits_to_body(kind(parse_tile("6s")), c)) >= 2
    assert len(waits_to_body(kind(parse_tile("7p")), c)) >= 2
    assert names(waits_to_body(kind(parse_tile("6p")), c)) == ["5p", "8p"]


def test_section_2_example_134689_discards_9_then_1():
    # 9, 8 and 1 have one wait each; 9 and 1 are terminals; 9 is the rightmost.
    k, reason = discard_stage(counts34(parse_tiles("134689m")))
    assert tile_name(k) == "9m" and reason.startswith("2.1**")
    k, _ = discard_stage(counts34(parse_tiles("13468m")))
    assert tile_name(k) == "1m"


def test_section_2_four_and_six_are_equally_close_and_the_right_one_goes():
    assert tile_name(pick([kind(parse_tile("4m")), kind(parse_tile("6m"))])) == "6m"
    assert tile_name(pick([kind(parse_tile("6p")), kind(parse_tile("4s"))])) == "4s"
    # honours first, then terminals, then closeness, then rightmost
    order = sorted(
        (kind(parse_tile(t)) for t in ("5m", "1p", "9m", "2s", "7z", "1z", "3p")), key=tie_break_key
    )
    assert [tile_name(k) for k in reversed(order)] == ["7z", "1z", "1p", "9m", "2s", "3p", "5m"]


def test_section_2_1_wait_examples():
    c = counts34(parse_tiles("23m"))
    assert names(waits_to_body(1, c)) == names(waits_to_body(2, c)) == ["1m", "4m"]
    c = counts34(parse_tiles("35m"))
    assert names(waits_to_body(2, c)) == names(waits_to_body(4, c)) == ["4m"]
    c = counts34(parse_tiles("223m"))
    assert names(waits_to_body(1, c)) == ["1m", "2m", "4m"]
    # 1245: 4 and 5 wait on 3 and 6, 1 and 2 only on 3 -> the terminal 1
    c = counts34(parse_tiles("1245m"))
    assert names(waits_to_body(3, c)) == names(waits_to_body(4, c)) == ["3m", "6m"]
    assert discard_stage(c)[0] == 0


def test_778889_is_all_body():
    c = counts34(parse_tiles("778889m"))
    assert all(is_body(k, c) for k in (6, 7, 8))


def test_stage_1_isolated_honour_before_isolated_terminal():
    a = decide("123m456p789s23s1z9p5s")
    assert tile_name(a.tile) == "1z" and a.reason.startswith("2.1* ")


# ---------------------------------------------------------------- 2.2, kans, calls


def test_tenpai_riichi_with_the_most_varied_waits():
    # 123m456p789s11235s: dropping 5s waits on 1s 4s (two kinds), dropping 1s on 5s only.
    a = decide("123m456p789s11235s")
    assert (a.kind, tile_name(a.tile)) == ("riichi", "5s")
    assert a.reason.startswith("2.2")


def test_tenpai_without_riichi_allowed_discards_the_same_tile():
    view = build_view(parse_tiles("123m456p789s11235s"))
    legal = [a for a in draw_actions(view) if a.kind != "riichi"]
    a = AKAGI.decide(view, legal)
    assert (a.kind, tile_name(a.tile)) == ("discard", "5s")


def test_closed_kan_at_once_before_riichi():
    a = decide("1111m456p789s1235s")
    assert a.kind == "closed_kan" and kind(a.tile) == 0


def test_no_closed_kan_after_riichi_when_it_changes_the_waits():
    hand = parse_tiles("1112345m456p789s")
    view = PlayerView(seat=0, hand=tuple(hand), drawn=0, riichi=(True, False, False, False))
    legal = [Action("discard", 0), Action("closed_kan", 0, (0, 0, 0, 0))]
    a = AKAGI.decide(view, legal)
    assert a == Action("discard", 0)


def test_never_calls_but_takes_ron():
    hand = tuple(parse_tiles("123m456p789s1135s"))
    view = PlayerView(seat=1, hand=hand, offered=parse_tile("4s"), offered_by=0)
    tile = parse_tile("4s")
    legal = [Action("chi", tile, (parse_tile("3s"), parse_tile("5s"))), Action("pass")]
    assert AKAGI.decide(view, legal).kind == "pass"
    assert AKAGI.decide(view, [Action("ron", tile), *legal]).kind == "ron"


def test_never_aborts_on_nine_terminals():
    view = build_view(parse_tiles("19m19p19s1234567z5m"), first_turn=True)
    legal = draw_actions(view)
    assert any(a.kind == "nine_terminals" for a in legal)
    assert AKAGI.decide(view, legal).kind != "nine_terminals"


def test_rightmost_copy_keeps_the_red_five():
    # example 2 with the 9s pair replaced by 0p 5p: the pair waits only on 5p, and of its two
    # copies the rightmost in hand order (red five sorts first) is the plain 5p.
    a = decide("78889m2333455s05p")
    assert (a.kind, tile_name(a.tile)) == ("discard", "5p")


def test_worked_example_3_stages_1_to_3_pass_every_tile():
    # 78m 23p 6p 77p 111s 5667s, the seed's walk through the stages:
    # "5667삭은 몸통", "1삭도 몸통", "7통은 머리", "6통은 58통 대기", "23통은 14통 대기",
    # "78만은 69만 대기" (stage 2 passes them all); "6삭은 467삭 대기", "7통은 58통 대기" (stage 3).
    c = counts34(parse_tiles("78m23677p1115667s"))
    assert all(is_body(kind(parse_tile(t)), c) for t in ("5s", "6s", "7s", "1s"))
    assert not is_body(kind(parse_tile("7p")), c) and is_head(kind(parse_tile("7p")), c)
    assert names(waits_to_body(kind(parse_tile("7m")), c)) == ["6m", "9m"]
    assert names(waits_to_body(kind(parse_tile("8m")), c)) == ["6m", "9m"]
    assert names(waits_to_body(kind(parse_tile("2p")), c)) == ["1p", "4p"]
    assert names(waits_to_body(kind(parse_tile("3p")), c)) == ["1p", "4p"]
    # no loose tile (neither body nor pair) has fewer than two waits: stages 1 and 2 find nothing
    loose = [k for k in range(34) if c[k] and not is_body(k, c) and not is_head(k, c)]
    assert names(loose) == ["2p", "3p", "6p", "7m", "8m"]
    assert all(len(waits_to_body(k, c)) >= 2 for k in loose)
    # the pairs 7p and 6s both have two or more waits: stage 3 finds nothing either
    assert [tile_name(k) for k in range(34) if is_head(k, c)] == ["7p", "6s"]


def test_never_pons_or_makes_an_open_kan():
    tile = parse_tile("5s")
    view = PlayerView(seat=1, hand=tuple(parse_tiles("123m456p789s555s1z")), offered=tile, offered_by=3)
    legal = reaction_actions(view)
    assert {a.kind for a in legal} == {"open_kan", "pon", "pass"}
    a = AKAGI.decide(view, legal)
    assert a.kind == "pass" and a.reason.startswith("1. never declares")
    # from the player on the left, with a chi on offer as well
    view = PlayerView(seat=1, hand=tuple(parse_tiles("123m456p4555s6s12z")), offered=tile, offered_by=0)
    legal = reaction_actions(view)
    assert {"pon", "open_kan", "chi"} <= {a.kind for a in legal}
    assert AKAGI.decide(view, legal).kind == "pass"


# ---------------------------------------------------------------- cases the seed states without an example


@pytest.mark.parametrize(
    ("hand", "expected", "pairs"),
    [
        # 5z and 6z each wait only on themselves (44p 55p have three waits): honours, the rightmost
        ("789m4455p789s5566z", "6z", ["5z", "6z"]),
        # 99m and 55s each wait only on themselves: the terminal
        ("99m123p55s111z23m45p", "9m", ["9m", "5s"]),
        # 77m (7m) and 99s (9s): the terminal
        ("2377m45p55667899s", "9s", ["7m", "9s"]),
        # 22p (2p) and 55s (5s), neither noble: the one closer to a terminal (the general rule of
        # section 2), where the stage's note read literally ("오른쪽에 가장 가까운 것") would take 5s
        ("1133467m22678p55s", "2p", ["2p", "5s"]),
    ],
)
def test_stage_3_chooses_between_pairs_by_the_general_tie_break(hand, expected, pairs):
    # "이러한 패가 없을 경우 머리 중 몸통이 되기 위한 대기가 하나 이하인 패를 버린다"
    c = counts34(parse_tiles(hand))
    assert names(k for k in range(34) if is_head(k, c) and len(waits_to_body(k, c)) <= 1) == sorted(pairs)
    a = decide(hand)
    assert a.label() == f"discard {expected}" and a.reason.startswith("2.1*** ")


@pytest.mark.parametrize(
    ("hand", "tied", "expected"),
    [
        ("222456m123789p1s1z", ["1s", "1z"], "1z"),  # an honour first
        ("2345m1237899p999s", ["2m", "5m", "9p"], "9p"),  # then a terminal
        ("44566788m222p456s", ["4m", "6m", "8m"], "8m"),  # then the closest to a terminal: 8
        ("345567888m27789p", ["2p", "7p"], "2p"),  # 2 (one from 1) before 7 (two from 9)
        ("567m34456p234456s", ["3p", "4p"], "3p"),  # 3 before 4
        # "4와 6은 귀족패에 근접한 정도가 동일합니다. 이 경우 오른쪽인 6이 최종 타패 대상이 됩니다."
        ("234567m44566s333z", ["4s", "5s", "6s"], "6s"),
        ("1236m4p345888s222z", ["6m", "4p"], "4p"),  # 6m and 4p alike: the rightmost, 4p
    ],
)
def test_ties_between_tenpai_discards_take_the_section_2_tie_break(hand, tied, expected):
    # 2.2 "가장 대기가 다양해지는 패를 버린다" names no tie-break; section 2's applies to every choice
    c = counts34(parse_tiles(hand))
    math = HandMath()
    counts = {}
    for k in range(34):
        if c[k]:
            c[k] -= 1
            counts[tile_name(k)] = len(live_waits(math, c, c))
            c[k] += 1
    most = max(counts.values())
    assert sorted(t for t, n in counts.items() if n == most) == sorted(tied)
    a = decide(hand)
    assert a.label() == f"riichi {expected}" and a.reason.startswith("2.2 tenpai")
    assert f"({most} kind{'s' if most > 1 else ''})" in a.reason


def test_closed_kan_in_riichi_that_keeps_the_waits_is_declared():
    # "오름 불가 상황이 되지 않는 경우에 한해 안커가 모이면 즉시 안깡을 선언한다": in riichi on 1s-4s,
    # the fourth 1m is drawn; 111m is a set whether or not it becomes a kan, so the waits stay
    view = build_view(parse_tiles("111m456p789s23s55z1m"), riichi_by=[0])
    legal = draw_actions(view)
    assert {a.label() for a in legal} == {"discard 1m", "closed kan 1m"}
    a = AKAGI.decide(view, legal)
    assert a.kind == "closed_kan" and a.reason == "1. four of a kind: closed kan at once"


def test_closed_kan_in_riichi_that_changes_the_waits_is_not():
    # 3334m waits on 2m 4m 5m; with 3333m made a kan only 4m is left: the engine offers no kan, and
    # offered one anyway the policy does not take it
    view = build_view(parse_tiles("3334m456p789s111z3m"), riichi_by=[0])
    legal = draw_actions(view)
    assert [a.label() for a in legal] == ["discard 3m"]
    tile = parse_tile("3m")
    a = AKAGI.decide(view, [*legal, Action("closed_kan", tile, (tile,) * 4)])
    assert a.label() == "discard 3m"


def test_worked_example_3_the_6s_waits_as_the_seeds_own_definition_gives_them():
    # "6삭은 467삭 대기이므로 패스" (the 6s of 5667s waits on 4-6-7s). By the seed's own definition
    # ("수패 223이 있을 경우 2의 대기는 1, 2, 4입니다": the tiles that complete a meld holding it) a 6s
    # of 5667s waits on 4s (456), 6s (666) and 8s (678); a 7s completes nothing with it (56677s still
    # holds one 567). "467" is the seed's slip; what its decision needs holds either way: more than
    # one wait, so stage 3 passes the pair.
    c = counts34(parse_tiles("78m23677p1115667s"))
    assert names(waits_to_body(kind(parse_tile("6s")), c)) == ["4s", "6s", "8s"]
    # "7통은 58통 대기": 5p and 8p, and the third 7p as example 1 counts it ("8만은 대기가 8만 뿐")
    assert names(waits_to_body(kind(parse_tile("7p")), c)) == ["5p", "7p", "8p"]
