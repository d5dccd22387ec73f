"""Seed 000's Hong Kong and Red bots: the seed's own examples as decisions of the Hong Kong PM0 bot,
the level rules (the pung / suit chooser and its reading of the lost signs, the guaranteed faan,
the pure suit), the claim rule, and the Red rule that a joker is never discarded.

Tiles in the seed: B = bamboo (s), C = characters (m), D = dots (p), VS / VN = South / North wind.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.hk.advise import advise_hand, build_view
from mjcli.hk.engine import HandState, Move
from mjcli.hk.engine.wall import shuffled
from mjcli.hk.notation import JOKER, tile_code
from mjcli.hk.policies import get_policy, parse_policy_names
from mjcli.hk.policies.mahjongjoy import (
    PUNG_HAND,
    PURE_SUIT,
    SUIT_HAND,
    chooser,
    claim_allowed,
    guaranteed_faan,
    plan_for,
    pung_points,
    suit_points,
)
from mjcli.hk.rules import get_rules

HK = get_rules("hk")
RED = get_rules("red")


def decide(policy: str, hand: str, rules=HK, **table) -> tuple[str, str]:
    view, legal = build_view(hand, rules, **table)
    move, reason = get_policy(policy).decide(view, legal)
    return move.text(), reason


# ---------------------------------------------------------------- the seed's examples (PM0)


@pytest.mark.parametrize(
    ("hand", "seen", "discard", "level"),
    [
        # 1 "VS ... tres fichas VS en Fichas Expuestas": the South wind is dead
        ("123m55m456p9p789s1s2z", "222z", "discard 2z", "dead tile"),
        # 1b only two South winds exposed: problematic, not dead
        ("123m55m456p9p789s1s2z", "22z", "discard 2z", "problematic tile"),
        # 2 "B2 ... cuatro B1, tres B2, cuatro B3": the B2 is dead (any 14th tile; here 1z)
        ("123m55m78m456p99p2s1z", "1111s222s3333s", "discard 2s", "dead tile"),
        # 2b one B3 back in play: 2-3-4 is possible, the B2 is a unique number tile
        ("123m55m78m456p99p2s1z", "1111s222s333s", "discard 2s", "unique tile (not an honour)"),
        # 3 definition 4's hand (B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN) and a 14th tile 9s:
        # unique C1 C4 VS (and 9s), not B4 D1 D4; the first unique number tile in the seed's order
        # (B, C, D: the order of this very hand as the seed writes it) is B9, as for the Riichi bot
        ("14m1234p124s2444z9s", "", "discard 9s", "unique tile (not an honour)"),
        # 6 "B1, B2 ... cuatro B3": a dead incomplete chow
        ("123m456p789p12s55z9m", "3333s", "discard 1s", "tile of a dead incomplete chow"),
        # 7b two dead pairs ("B2, B2 ... también tienen B2, B2"): the first goes
        (
            "123m456p789p22s77z9s",
            "22s77z",
            "discard 2s",
            "tile of a dead pair (more than one dead pair in hand)",
        ),
        # 8 definition 3 for an honour: a single West with one exposed
        ("123m456p789p22s3z4s1m", "3z", "discard 3z", "problematic tile"),
    ],
)
def test_seed_examples_as_decisions(hand: str, seen: str, discard: str, level: str) -> None:
    move, reason = decide("hk-pm0", hand, seen=seen)
    assert move == discard
    assert reason.startswith(f"PM0 1 {level}:"), reason


def test_seed_example_minor_tiles() -> None:
    # definition 5's first bullet, "B1 B2 B4 C2 C4 C5": B4 and C2 are minor; with the rest of the hand
    # made of complete sets the first minor tile in the seed's order (B before C) goes: B4
    move, reason = decide("hk-pm0", "245m124s123p456p11z")
    assert (move, reason) == ("discard 4s", "PM0 1 minor tile: 4s")


# ---------------------------------------------------------------- the 1-3 faan level


def view_of(hand: str, **table):
    return build_view(hand, HK, **table)[0]


def test_chooser_scores_of_the_notes() -> None:
    v = view_of("111m4p55p12s99s777z5m")  # 14 tiles: the 5m just drawn
    assert pung_points(v) == 5 * 2 + 2 * 2 and chooser(v).kind == PUNG_HAND
    v = view_of("1235678p9p3s5m112z4p")
    assert suit_points(v) == (15 - 2 * 2 + 3, 1) and chooser(v).kind == SUIT_HAND


def test_the_lost_signs_are_read_as_minus_two_plus_one() -> None:
    # pung 6 (three pairs) against suit 9 (15 - 2 x 4 + 2): the reading "+1 per honour" picks the
    # suit; "-1 per honour" would give 5 and the pung hand
    v = view_of("11m22p33s456s789s12z")
    assert pung_points(v) == 6
    assert suit_points(v)[0] == 15 - 2 * 4 + 2 == 9
    assert chooser(v).kind == SUIT_HAND


def test_ties_go_to_the_pung_hand() -> None:
    # pung: two pongs and a pair = 12; suit: 11 man, 2 other tiles, 1 honour = 15 - 4 + 1 = 12
    v = view_of("111m222m345m67m1z88p")
    p, (s, _) = pung_points(v), suit_points(v)
    assert p == 12 and s == 15 - 2 * 2 + 1 == 12
    assert chooser(v).kind == PUNG_HAND


def test_the_suit_hand_discards_the_wrong_suit_first_without_chow_levels() -> None:
    move, reason = decide("hk-pm8", "1235678p9p3s5m112z4p")
    assert move in ("discard 5m", "discard 3s")
    assert "tile of the wrong suit" in reason and reason.startswith("one suit with honours")
    # the same hand at PM0 keeps the 5m and 3s no more than any other unique tile: the first of
    # them in the seed's order (B, C, D) goes
    assert decide("hk-pm0", "1235678p9p3s5m112z4p")[0] == "discard 3s"


# ---------------------------------------------------------------- the 4-6 faan level


def test_guaranteed_faan_switches_to_the_chooser() -> None:
    hand = "123m456m789m12p55z7z"
    with_flower = view_of(hand, flowers="1")  # seat East: flower 1 is its own
    assert guaranteed_faan(with_flower) == "own flower 1"
    assert plan_for("pm16", with_flower).kind == SUIT_HAND
    without = view_of(hand)
    assert guaranteed_faan(without) is None
    plan = plan_for("pm16", without)
    assert plan.kind == PURE_SUIT and plan.suit == 0
    move, reason = decide("hk-pm16", hand)
    assert move in {f"discard {t}" for t in ("1p", "2p", "5z", "7z")}
    assert "tile of another suit or an honour" in reason
    assert guaranteed_faan(view_of("123m456m789m12p555z")) == "dragon pung 5z"
    assert guaranteed_faan(view_of("123m456m789m12p111z")) == "seat-wind pung 1z"
    assert guaranteed_faan(view_of("123m456m789m12p222z", seat="S")) == "seat-wind pung 2z"


def test_the_pure_suit_level_never_calls_another_suit() -> None:
    s = HandState(HK, shuffled(1, 0), 0, 0)
    view = s.view(1)
    bot = get_policy("hk-pm16plus")
    suit = plan_for("pm16plus", view).suit
    other = next(k for k in range(27) if k // 9 != suit)
    call = Move("pung", other)
    hand = list(view.hand)
    hand[other] = 2  # pretend the hand holds a pair of it
    fake = dataclasses.replace(view, hand=hand, phase="claim", offer=(0, other))
    move, reason = bot.decide(fake, [call, Move("pass")])
    assert move.kind == "pass" and "is not of suit" in reason


def test_claim_rule() -> None:
    v = view_of("123m456p789s1122z3z")
    ok, _ = claim_allowed(v, Move("pung", tile_code("1z")))
    assert ok  # 11z pair into a pung: concealed sets stay at 3
    ok, reason = claim_allowed(v, Move("chow", tile_code("4m"), (tile_code("2m"), tile_code("3m"))))
    assert not ok and "drop from 3 to 2" in reason


# ---------------------------------------------------------------- Red


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), bot=st.sampled_from(["red-pm0", "red-pm12", "red-pm12plus", "hk-pm8"]))
def test_red_bots_never_discard_a_joker(seed: int, bot: str) -> None:
    s = HandState(RED, shuffled(seed, 0, 4), seed % 4, 0)
    policy = get_policy(bot)
    for _ in range(40):
        if s.result is not None:
            break
        for seat, legal in list(s.pending().items()):
            move, _ = policy.decide(s.view(seat), legal)
            if move.kind == "discard":
                others = [m for m in legal if m.kind == "discard" and m.tile != JOKER]
                assert move.tile != JOKER or not others
            s.act(seat, move)


def test_red_bands_and_names() -> None:
    assert [get_policy(n).level for n in ("red-pm0", "red-pm12", "red-pm12plus")] == [
        "pm0",
        "pm8",
        "pm16plus",
    ]
    assert parse_policy_names("all") == ["hk-pm0", "hk-pm8", "hk-pm16", "hk-pm16plus"]
    result = advise_hand("123m456pJ789s1135z", RED, ["red-pm0", "red-pm12", "red-pm12plus"])
    assert all(a["tile"] != "J" for a in result["policies"])


def test_the_suit_with_most_tiles_ties_in_the_seeds_hand_order() -> None:
    """A18/A23: a tie between suits goes to the first in the seed's hand order, bamboo (s), then
    characters (m), then dots (p), as A7 reads the seed's "primera ficha"; it went m, p, s."""
    from mjcli.hk.policies.mahjongjoy import _most

    m, p, s = 0, 1, 2
    assert _most([3, 3, 3]) == s
    assert _most([4, 4, 3]) == m
    assert _most([3, 4, 4]) == s and _most([4, 3, 4]) == s
    assert _most([4, 3, 3]) == m and _most([3, 4, 3]) == p and _most([3, 3, 4]) == s
