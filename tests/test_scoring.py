"""The scoring adapter: each limit, each fu component, errors, and agreement with the library."""

from __future__ import annotations

import pytest
from hand_strategies import redden
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.hand_calculating.scores import ScoresCalculator

from mjcli.errors import InvalidHandError, MjcliError, NotationError, ScoringError, UsageError
from mjcli.melds import make_meld, parse_melds
from mjcli.riichi.rules import get_rules, variant
from mjcli.riichi.scoring import WinContext, base_points, score_hand, settle
from mjcli.tiles import parse_tile, parse_tiles, wind_from_letter

TENHOU = get_rules("tenhou")


def score(hand: str, win: str, melds: str = "", seat: str = "S", round_: str = "E", rules=TENHOU, **flags):
    ctx = WinContext(seat_wind=wind_from_letter(seat), round_wind=wind_from_letter(round_), **flags)
    return score_hand(parse_tiles(hand), parse_tile(win), parse_melds(melds), ctx, rules)


def fu_of(result, fragment: str) -> int:
    hits = [fu for reason, fu in result.fu_details if fragment in reason]
    assert len(hits) == 1, (fragment, result.fu_details)
    return hits[0]


# ---------------------------------------------------------------- limits, by han (dora tune the han)
# Riichi + pinfu ron on a closed hand is 2 han 30 fu; indicators 3m (dora 4m x2), 8s (dora 9s x2) and
# 1m (dora 2m x1) add exact amounts.
PINFU = "234m456m345p678s99s"


@pytest.mark.parametrize(
    ("dora", "han", "limit", "base", "ron"),
    [
        ("", 2, None, 480, 2000),
        ("1m", 3, None, 960, 3900),
        ("3m", 4, None, 1920, 7700),
        ("3m1m", 5, "mangan", 2000, 8000),
        ("3m3m", 6, "haneman", 3000, 12000),
        ("3m3m1m", 7, "haneman", 3000, 12000),
        ("3m3m3m", 8, "baiman", 4000, 16000),
        ("3m3m3m8s", 10, "baiman", 4000, 16000),
        ("3m3m3m8s1m", 11, "sanbaiman", 6000, 24000),
        ("3m3m3m8s8s", 12, "sanbaiman", 6000, 24000),
        ("3m3m3m8s8s1m", 13, "kazoe yakuman", 8000, 32000),
    ],
)
def test_each_limit(dora, han, limit, base, ron):
    r = score(PINFU, "6s", riichi=True, dora_indicators=tuple(parse_tiles(dora)))
    assert (r.han, r.fu, r.limit, r.base_points) == (han, 30, limit, base)
    assert r.payments == {"discarder": ron}
    if han > 2:
        assert ("dora", "Dora", han - 2) in r.yaku


def test_formula_mangan_and_kiriage():
    # 3 han 70 fu: 70 x 32 = 2240 > 2000 -> mangan by the formula (closed ron + 9p triplet + West kan)
    r = score("234m567s999p88m", "4m", "ankan:3333z", riichi=True, ippatsu=True, dora_indicators=(0,))
    assert (r.han, r.fu, r.limit, r.base_points) == (3, 70, "mangan", 2000)
    # 4 han 30 fu is 7700 on Tenhou, 8000 with kiriage
    plain = score(PINFU, "6s", riichi=True, dora_indicators=tuple(parse_tiles("3m")))
    kiri = score(
        PINFU,
        "6s",
        riichi=True,
        dora_indicators=tuple(parse_tiles("3m")),
        rules=variant(TENHOU, kiriage=True),
    )
    assert (plain.limit, plain.payments) == (None, {"discarder": 7700})
    assert (kiri.limit, kiri.payments) == ("mangan", {"discarder": 8000})
    assert kiri.notes


def test_kazoe_off_gives_sanbaiman():
    r = score(PINFU, "6s", riichi=True, dora_indicators=tuple(parse_tiles("3m3m3m8s8s1m")))
    r2 = score(
        PINFU,
        "6s",
        riichi=True,
        dora_indicators=tuple(parse_tiles("3m3m3m8s8s1m")),
        rules=variant(TENHOU, kazoe_yakuman=False),
    )
    assert (r.limit, r.base_points) == ("kazoe yakuman", 8000)
    assert (r2.limit, r2.base_points) == ("sanbaiman", 6000)


def test_yakuman_multiples():
    # daisangen + tsuuiisou (ron on the shanpon, so no suuankou): different yakuman add up on Tenhou
    r = score("555z666z777z111z22z", "1z")
    assert (r.yakuman, r.limit, r.base_points, r.payments) == (
        2,
        "double yakuman",
        16000,
        {"discarder": 64000},
    )
    # + suuankou (tsumo on the shanpon): triple
    r = score("555z666z777z111z22z", "1z", tsumo=True)
    assert (r.yakuman, r.limit, r.base_points, r.total) == (3, "triple yakuman", 24000, 96000)
    # suuankou tanki is a single yakuman on Tenhou ...
    r = score("555z666z777z111z22z", "2z", tsumo=True)
    assert r.yakuman == 3 and ("suuankou_tanki", "Suu Ankou Tanki", 13) in r.yaku
    # ... and double where double yakuman count: 1 + 1 + 2 = quadruple, base 32000 (not the seed's 24000)
    r = score("555z666z777z111z22z", "2z", tsumo=True, rules=variant(TENHOU, double_yakuman=True))
    assert (r.yakuman, r.limit, r.base_points) == (4, "quadruple yakuman", 32000)


def test_yakuman_ignores_dora_and_other_yaku():
    r = score("222m333p999s444z88s", "4z", tsumo=True, riichi=True, dora_indicators=tuple(parse_tiles("1m")))
    assert [y[0] for y in r.yaku] == ["suuankou"]


# ---------------------------------------------------------------- each fu component


def test_closed_ron_pinfu_30_and_pinfu_tsumo_20():
    r = score(PINFU, "6s", riichi=True)
    assert fu_of(r, "base fu") == 20 and fu_of(r, "menzen kafu") == 10 and r.fu_raw == 30
    assert fu_of(r, "ryanmen") == 0 and fu_of(r, "pair 99s (no value)") == 0
    t = score(PINFU, "6s", riichi=True, tsumo=True)
    assert ("pinfu", "Pinfu", 1) in t.yaku and t.fu == 20
    assert fu_of(t, "no tsumo fu (fixed 20)") == 0


def test_open_hand_without_fu_ron_is_fixed_30():
    r = score("234m567p345s88s", "2m", "chi:456s")
    assert fu_of(r, "open hand without fu won by ron") == 2 and r.fu_raw == 22 and r.fu == 30


def test_open_hand_without_fu_tsumo_earns_the_tsumo_fu():
    """Seed 004: "即使吃碰后自摸，这2符还是能收入囊中" (even after a chi or pon a tsumo earns its 2
    fu); the fixed 30 is an open pinfu shape won by ron. The library books those 2 fu as "hand
    without fu": the lines say what the seed says (a reviewer's finding), the total is the same."""
    t = score("234m567p345s88s", "2m", "chi:456s", tsumo=True)
    lines = [text for text, _ in t.fu_details]
    assert fu_of(t, "won by tsumo") == 2 and t.fu_raw == 22 and t.fu == 30
    assert not any("won by ron" in x or "no tsumo fu" in x for x in lines), lines


@pytest.mark.parametrize(
    ("hand", "win", "fragment", "fu"),
    [
        ("123m456p789s234s55z", "3m", "penchan", 2),  # 12m waiting on 3m
        ("789m456p789s234s55z", "7m", "penchan", 2),  # 89m waiting on 7m
        ("123m456p789s234s55z", "3s", "kanchan", 2),  # 24s waiting on 3s
        ("123m456p789s345s55z", "5z", "tanki", 2),
        ("111m456p789s345s55z", "1m", "shanpon", 0),
    ],
)
def test_waits(hand, win, fragment, fu):
    r = score(hand, win, riichi=True)
    assert fu_of(r, fragment) == fu


@pytest.mark.parametrize(
    ("seat", "round_", "pair", "words", "fu"),
    [
        ("S", "E", "55z", "dragon", 2),
        ("S", "E", "22z", "seat wind", 2),
        ("S", "E", "11z", "round wind", 2),
        ("E", "E", "11z", "seat wind and round wind", 4),
        ("S", "E", "44z", "no value", 0),
    ],
)
def test_pairs(seat, round_, pair, words, fu):
    r = score(f"234m456p678s345s{pair}", "2m", seat=seat, round_=round_, riichi=True)
    assert fu_of(r, f"pair {pair} ({words})") == fu


@pytest.mark.parametrize(
    ("melds", "hand", "fragment", "fu"),
    [
        ("pon:222m", "456p678s345s99m", "pon 222m: open triplet", 2),
        ("pon:999m", "456p678s345s22p", "pon 999m: open triplet of terminals/honours", 4),
        ("kan:2222m", "456p678s345s99m", "kan 2222m: open kan", 8),
        ("kan:9999m", "456p678s345s22p", "kan 9999m: open kan of terminals/honours", 16),
        ("ankan:2222m", "456p678s345s99m", "ankan 2222m: closed kan", 16),
        ("ankan:9999m", "456p678s345s22p", "ankan 9999m: closed kan of terminals/honours", 32),
        ("kakan:2222m", "456p678s345s99m", "kakan 2222m: open kan", 8),
        ("", "222m456p678s345s99m", "222m in hand: closed triplet", 4),
        ("", "999m456p678s345s22p", "999m in hand: closed triplet of terminals/honours", 8),
    ],
)
def test_triplets_and_kans(melds, hand, fragment, fu):
    # tsumo on a two-sided wait, so every set keeps its own fu; haitei gives a yaku to open hands
    r = score(hand, "4p", melds, tsumo=True, haitei=True)
    assert fu_of(r, fragment) == fu
    assert r.fu == -(-r.fu_raw // 10) * 10


def test_rounding_is_always_up():
    r = score("345m222s66p567s", "5m", "chi:678p", tsumo=True)
    assert (r.fu_raw, r.fu) == (26, 30)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("hand", "win", "melds", "flags", "exc", "fragment"),
    [
        ("123m456p789s11z245s", "5s", "", {}, ScoringError, "is not complete"),
        ("123m456p789s234s55z", "4s", "", {}, ScoringError, "is complete but has no yaku"),
        ("11m456p789s234s", "1m", "pon:111m", {}, InvalidHandError, "copies of 1m"),
        ("123m456p789s234s55z", "4s", "", {"rinshan": True}, UsageError, "rinshan kaihou is a tsumo win"),
        ("456p789s234s55z", "4s", "chi:123m", {"riichi": True}, UsageError, "riichi needs a closed hand"),
        ("123m456p789s234s55z", "4s", "", {"ippatsu": True}, UsageError, "ippatsu needs riichi"),
        (
            "123m456p789s234s55z",
            "4s",
            "",
            {"tenhou": True, "tsumo": True},
            UsageError,
            "tenhou is the dealer",
        ),
        ("123m456p789s234s5z", "4s", "", {}, InvalidHandError, "has 13 concealed tiles"),
        ("123m456p789s234s55z", "6s", "", {}, InvalidHandError, "winning tile 6s is not in"),
        ("123m456p789s11z", "1z", "kan:5555s", {}, InvalidHandError, "write it as 0s"),
    ],
)
def test_errors_name_the_hand(hand, win, melds, flags, exc, fragment):
    with pytest.raises(exc) as info:
        score(hand, win, melds, **flags)
    message = str(info.value)
    assert fragment in message and "hand '" in message and "\n" not in message


def test_red_fives_count_as_aka_dora_only_with_the_rule():
    r = score("234m406p678s345s99s", "6p", riichi=True)
    assert ("aka_dora", "Aka Dora", 1) in r.yaku
    with pytest.raises(InvalidHandError, match="red fives are off"):
        score("234m406p678s345s99s", "6p", riichi=True, rules=get_rules("tenhou-nored"))
    plain = score("234m456p678s345s99s", "6p", riichi=True, rules=get_rules("tenhou-nored"))
    assert "aka_dora" not in [y[0] for y in plain.yaku] and plain.han == 2


def test_ura_dora_only_with_riichi():
    ura = tuple(parse_tiles("8s"))
    assert ("ura_dora", "Ura Dora", 2) in score(PINFU, "6s", riichi=True, ura_indicators=ura).yaku
    closed_tsumo = score(PINFU, "6s", tsumo=True, ura_indicators=ura)
    assert "ura_dora" not in [y[0] for y in closed_tsumo.yaku]


def test_three_player_rules_need_a_three_player_table():
    # uma for four places does not fit three players
    with pytest.raises(UsageError, match="uma"):
        variant(TENHOU, players=3)
    three = variant(TENHOU, players=3, uma=(20, 0, -20))
    with pytest.raises(InvalidHandError, match="no 2m-8m"):
        score(PINFU, "6s", riichi=True, rules=three)
    r = score("234p456p345s678s99m", "6s", riichi=True, rules=three)
    assert (r.han, r.fu, r.total, r.payments) == (2, 30, 2000, {"discarder": 2000})


def test_deltas_checks_roles():
    r = score(PINFU, "6s", riichi=True)
    assert r.deltas(winner=2, dealer=0, loser=1) == (0, -2000, 2000, 0)
    with pytest.raises(UsageError):
        r.deltas(winner=0, dealer=0, loser=1)  # scored as a non-dealer win
    with pytest.raises(UsageError):
        r.deltas(winner=2, dealer=0, loser=None)  # a ron needs a discarder


# ---------------------------------------------------------------- agreement with the library


@settings(max_examples=300, deadline=None)
@given(
    han=st.integers(1, 70),
    fu=st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]),
    dealer=st.booleans(),
    tsumo=st.booleans(),
    honba=st.integers(0, 8),
    sticks=st.integers(0, 6),
    kiriage=st.booleans(),
    kazoe=st.booleans(),
    yakuman=st.booleans(),
)
def test_payments_match_the_library(han, fu, dealer, tsumo, honba, sticks, kiriage, kazoe, yakuman):
    rules = variant(TENHOU, kiriage=kiriage, kazoe_yakuman=kazoe)
    units = min(han // 13, 6) if yakuman else 0
    if yakuman and not units:
        return
    base, _ = base_points(han, fu, rules, units)
    payments, hand_value, total = settle(base, dealer, tsumo, honba, sticks, rules)
    config = HandConfig(
        is_tsumo=tsumo,
        player_wind=27 if dealer else 28,
        tsumi_number=honba,
        kyoutaku_number=sticks,
        options=rules.hand_options(),
    )
    lib = ScoresCalculator.calculate_scores(13 * units if units else han, fu, config, bool(units))
    assert total == lib["total"]
    if not tsumo:
        assert payments == {"discarder": lib["main"] + lib["main_bonus"]}
    elif dealer:
        assert payments == {"each": lib["main"] + lib["main_bonus"]}
    else:
        assert payments == {
            "dealer": lib["main"] + lib["main_bonus"],
            "non_dealer": lib["additional"] + lib["additional_bonus"],
        }
    assert all(v % 100 == 0 for v in payments.values())
    assert hand_value + rules.honba_points * honba + 1000 * sticks == total


@st.composite
def complete_hands(draw):
    """Four sets and a pair from kinds, some of them called, with random win conditions."""
    counts = [0] * 34
    groups: list[list[int]] = []
    for _ in range(4):
        if draw(st.booleans()):
            suit = draw(st.integers(0, 2))
            start = suit * 9 + draw(st.integers(0, 6))
            g = [start, start + 1, start + 2]
        else:
            k = draw(st.integers(0, 33))
            g = [k, k, k]
        groups.append(g)
    pair = draw(st.integers(0, 33))
    for t in [t for g in groups for t in g] + [pair, pair]:
        counts[t] += 1
    if max(counts) > 4:
        return None
    melds = []
    concealed: list[int] = [pair, pair]
    for g in groups:
        call = draw(st.sampled_from(["none", "none", "call", "kan"]))
        if call == "call":
            melds.append(("chi" if g[0] != g[1] else "pon", g))
        elif call == "kan" and g[0] == g[1] and counts[g[0]] == 3:
            melds.append((draw(st.sampled_from(["kan", "ankan", "kakan"])), g + [g[0]]))
            counts[g[0]] += 1
        else:
            concealed.extend(g)
    # one copy of each five may be the red one
    redden(draw, [concealed] + [tiles for _, tiles in melds])
    win = draw(st.sampled_from(concealed))
    tsumo = draw(st.booleans())
    closed = all(kind_name == "ankan" for kind_name, _ in melds)
    riichi = closed and draw(st.booleans())
    ctx = WinContext(
        tsumo=tsumo,
        riichi=riichi,
        seat_wind=draw(st.integers(0, 3)),
        round_wind=draw(st.integers(0, 1)),
        honba=draw(st.integers(0, 4)),
        sticks=draw(st.integers(0, 3)),
        dora_indicators=(draw(st.integers(0, 33)),),
        ura_indicators=(draw(st.integers(0, 33)),) if riichi else (),
    )
    return concealed, win, [make_meld(k, t) for k, t in melds], ctx


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(complete_hands())
def test_random_hands_are_consistent(case):
    if case is None:
        return
    concealed, win, melds, ctx = case
    try:
        r = score_hand(concealed, win, melds, ctx, TENHOU)
    except ScoringError as exc:
        assert "has no yaku" in str(exc)  # four sets and a pair are always complete
        return
    except InvalidHandError as exc:
        assert "indicators" in str(exc) or "red five" in str(exc)  # an indicator made a 5th copy
        return
    assert sum(h for _, _, h in r.yaku) == r.han
    if r.fu_details and r.fu != 25:
        assert r.fu == -(-r.fu_raw // 10) * 10
        assert not any(reason.replace(" ", "_") in _RAW_REASONS for reason, _ in r.fu_details)
    dealer = 0
    winner = ctx.seat_wind  # seats counted from the dealer
    loser = None if ctx.tsumo else (winner + 1) % 4
    deltas = r.deltas(winner, dealer, loser)
    assert sum(deltas) == 1000 * ctx.sticks
    assert deltas[winner] == r.total > 0


_RAW_REASONS = {"closed_pon", "open_pon", "penchan", "kanchan", "pair_wait", "valued_pair", "base"}


def test_not_a_notation_error_for_good_input():
    with pytest.raises(NotationError):
        score("123x", "1m")
    assert issubclass(ScoringError, MjcliError)
