"""The worked examples of seed 004 ("日本麻将点数的详细算法", shared/seeds/004_5cfcee8c8f23c8df.txt).

The seed's tile pictures are lost; its text keeps, for six example hands, the yaku ("三、番数计算"),
the fu table ("四、符数计算 ... 对于之前的例子，大家来算一下符数吧"), the base points
("五、基本点数的计算 ... 计算基本点数") and the payments ("六、得点失点计算"). Each hand below is
built to match every fact the text keeps about that example; the comments quote the passage.
"""

from __future__ import annotations

import pytest
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.hand_calculating.scores import ScoresCalculator

from mjcli.melds import parse_melds
from mjcli.riichi.rules import get_rules, variant
from mjcli.riichi.scoring import WinContext, base_points, payments_for, score_hand, settle
from mjcli.tiles import parse_tile, parse_tiles, wind_from_letter

TENHOU = get_rules("tenhou")


def score(hand: str, win: str, melds: str = "", seat: str = "E", round_: str = "E", rules=TENHOU, **flags):
    ctx = WinContext(seat_wind=wind_from_letter(seat), round_wind=wind_from_letter(round_), **flags)
    return score_hand(parse_tiles(hand), parse_tile(win), parse_melds(melds), ctx, rules)


def fu_values(result) -> dict[str, int]:
    return {reason: fu for reason, fu in result.fu_details}


# ---------------------------------------------------------------- example 1
# 番数: "第一个例子只有1番: 断幺九". 符数 row 1: "20 … 两面0 2s暗刻4 26 → 30".
# 得点: "闲家自摸 240 … +1100(300,500)"; ron variant: "如果子家是铳和的话,得点分别是1000和4500".
# One han of tanyao only with 2 tsumo fu means an open hand (kuitan): a closed tsumo would add menzen tsumo.
EX1 = dict(hand="345m222s66p567s", win="5m", melds="chi:678p", seat="S")


def test_example1_open_tanyao_tsumo_26_fu_to_30_base_240_pays_300_500():
    r = score(**EX1, tsumo=True)
    assert [(y[0], y[2]) for y in r.yaku] == [("tanyao", 1)]
    assert r.fu_raw == 26 and r.fu == 30
    fu = fu_values(r)
    assert fu["base fu (futei)"] == 20 and fu["won by tsumo"] == 2
    assert fu["wait: ryanmen (two-sided, 345m) on 5m"] == 0
    assert fu["222s in hand: closed triplet"] == 4  # "2s暗刻4"
    assert r.base_points == 240  # "30×2^(1+2)=240"
    # "240*-2=-480≈-500" from the dealer, "240*-1=-240≈-300" from each other player
    assert r.payments == {"dealer": 500, "non_dealer": 300}
    assert r.total == 1100  # "+1100(300,500)"


def test_example1_as_ron_is_1000():
    r = score(**EX1)  # "如果子家是铳和的话,得点分别是1000…": 4 x 240 = 960, rounded up to 1000
    assert (r.han, r.fu, r.base_points) == (1, 30, 240)
    assert r.payments == {"discarder": 1000} and r.total == 1000


# ---------------------------------------------------------------- example 2
# 番数: "第二个例子只有1番: 暗杠了发(只要碰发就有一番)。杠一万是没有番数的".
# 符数 row 2: "20 10 双碰0 发暗杠32+1m暗杠32+9m明刻4 102 → 110". Those parts sum to 98: the other
# 4 fu must come from the pair column, lost with the pictures; a double-wind pair gives exactly 4
# (Tenhou rule), so the hand is South seat in the South round with a South pair.
# 得点: "闲家铳和 880 +3520 880*-4=-3520"; the reading: 3520 rounds up to 3600.
def test_example2_hatsu_kan_ron_102_fu_to_110_base_880():
    r = score("234p999m22z", "9m", "ankan:6666z,ankan:1111m", seat="S", round_="S")
    assert [(y[0], y[2]) for y in r.yaku] == [("hatsu", 1)]
    fu = fu_values(r)
    assert fu["closed hand won by ron (menzen kafu)"] == 10  # "门清铳和 10"
    assert fu["wait: shanpon (two pairs) on 9m"] == 0  # "双碰0"
    assert fu["ankan 6666z: closed kan of terminals/honours"] == 32  # "发暗杠32"
    assert fu["ankan 1111m: closed kan of terminals/honours"] == 32  # "1m暗杠32"
    # "9m明刻4": the shanpon triplet completed by ron counts as open
    assert fu["999m in hand: open triplet of terminals/honours (completed by ron)"] == 4
    assert fu["pair 22z (seat wind and round wind)"] == 4
    assert r.fu_raw == 102 and r.fu == 110
    assert r.base_points == 880  # "110×2^(1+2)=880"
    assert 4 * r.base_points == 3520 and r.payments == {"discarder": 3600} and r.total == 3600


# ---------------------------------------------------------------- example 3
# 番数: "第三个例子有3番: 七对子2番+断幺九1番". 符数: "七对子固定25符 25".
# 基本点数: "25×2^(3+2)=800". 得点: "庄家铳和 800 +4800 800*-6=-4800".
def test_example3_seven_pairs_tanyao_dealer_ron_4800():
    r = score("22m44m66p88p33s77s55s", "5s", seat="E")
    assert sorted((y[0], y[2]) for y in r.yaku) == [("chiitoitsu", 2), ("tanyao", 1)]
    assert r.fu_details == [("seven pairs (chiitoitsu): fixed 25 fu", 25)]
    assert (r.han, r.fu, r.base_points) == (3, 25, 800)
    assert r.payments == {"discarder": 4800} and r.total == 4800


# ---------------------------------------------------------------- example 4
# 番数: "第四个例子有2番: 门清自摸1番+岭上开花1番". 符数 row 4: "单骑2 9p暗刻8+西暗杠32 64 → 70"
# (20 base + 2 tsumo + 2 tanki + 8 + 32). 基本点数: "70×2^(2+2)=1120".
# 得点: "1120*-2≈-2300 … +4700(1200,2300)"; ron variant "…1000和4500".
def test_example4_rinshan_tsumo_64_fu_to_70_pays_1200_2300():
    r = score("234m567s999p8m8m", "8m", "ankan:3333z", seat="S", tsumo=True, rinshan=True)
    assert sorted((y[0], y[2]) for y in r.yaku) == [("rinshan", 1), ("tsumo", 1)]
    fu = fu_values(r)
    assert fu["won by tsumo"] == 2  # rinshan keeps the tsumo fu (Tenhou rule)
    assert fu["wait: tanki (single tile) on 8m"] == 2  # "单骑2"
    assert fu["999p in hand: closed triplet of terminals/honours"] == 8  # "9p暗刻8"
    assert fu["ankan 3333z: closed kan of terminals/honours"] == 32  # "西暗杠32"
    assert r.fu_raw == 64 and r.fu == 70
    assert r.base_points == 1120
    assert r.payments == {"dealer": 2300, "non_dealer": 1200} and r.total == 4700


def test_example4_value_as_ron_is_4500():
    # The text's ron variant of 2 han 70 fu: a closed ron (20 + 10) with the same 9p triplet and
    # West kan (8 + 32) on a two-sided wait is 70 fu; riichi + ippatsu make the 2 han.
    r = score("234m567s999p88m", "4m", "ankan:3333z", seat="S", riichi=True, ippatsu=True)
    assert (r.han, r.fu_raw, r.fu, r.base_points) == (2, 70, 70, 1120)
    assert r.payments == {"discarder": 4500}  # 4 x 1120 = 4480, rounded up to 4500


# ---------------------------------------------------------------- example 5
# 番数: "第五个例子有8番: 混一色2番+场风东1番+自风东1番+对对胡2番+三暗刻2番" (open honitsu: 2 han).
# 符数 row 5: "4+4+4+8 44 → 50" (20 + 2 tsumo + 2 tanki + the four triplets).
# 基本点数: "倍满4000"; 得点: "庄家自摸 4000 24000(每人8000) 4000*-2=-8000".
def test_example5_dealer_baiman_tsumo_24000():
    r = score("111z222m777m5m5m", "5m", "pon:999m", seat="E", round_="E", tsumo=True)
    assert sorted((y[0], y[2]) for y in r.yaku) == [
        ("honitsu", 2),
        ("round_wind_east", 1),
        ("sanankou", 2),
        ("seat_wind_east", 1),
        ("toitoi", 2),
    ]
    assert r.han == 8
    sets = [fu for reason, fu in r.fu_details if "triplet" in reason]
    assert sorted(sets) == [4, 4, 4, 8]  # "4+4+4+8"
    assert r.fu_raw == 44 and r.fu == 50
    assert (r.limit, r.base_points) == ("baiman", 4000)
    assert r.payments == {"each": 8000} and r.total == 24000


# ---------------------------------------------------------------- example 6
# 番数: "第六个例子是四暗刻,为役满". 符数 row 6: "4+4+8+8 46 → 50" (20 + 2 tsumo + the four triplets).
# 基本点数: "役满8000"; 得点: "8000*-4=32000 +32000".
def test_example6_suuankou_tsumo_32000():
    r = score("222m333p999s444z88s", "4z", seat="S", round_="E", tsumo=True)
    assert [(y[0], y[2]) for y in r.yaku] == [("suuankou", 13)]
    sets = [fu for reason, fu in r.fu_details if "triplet" in reason]
    assert sorted(sets) == [4, 4, 8, 8] and r.fu_raw == 46 and r.fu == 50
    assert (r.limit, r.base_points, r.yakuman) == ("yakuman", 8000, 1)
    assert r.payments == {"dealer": 16000, "non_dealer": 8000} and r.total == 32000


def test_example6_value_as_non_dealer_ron_is_32000():
    r = score("19m19p19s1234567z9s", "9s", seat="S")  # a kokushi ron: "8000*-4=32000"
    assert r.base_points == 8000 and r.payments == {"discarder": 32000}


# ---------------------------------------------------------------- the tables themselves


@pytest.mark.parametrize(
    ("han", "fu", "base"),
    [(1, 30, 240), (1, 110, 880), (3, 25, 800), (2, 70, 1120)],  # "计算基本点数"
)
def test_base_points_formula(han, fu, base):
    assert base_points(han, fu, TENHOU) == (base, None)


@pytest.mark.parametrize(
    ("han", "limit", "base"),
    # "番数 称呼 基本点数" table: 5 满贯 2000, 6-7 跳满 3000, 8-10 倍满 4000, 11-12 三倍满 6000, 13 役满 8000
    [
        (5, "mangan", 2000),
        (6, "haneman", 3000),
        (7, "haneman", 3000),
        (8, "baiman", 4000),
        (10, "baiman", 4000),
        (11, "sanbaiman", 6000),
        (12, "sanbaiman", 6000),
        (13, "kazoe yakuman", 8000),
    ],
)
def test_limit_table(han, limit, base):
    assert base_points(han, 30, TENHOU) == (base, limit)


def test_formula_over_2000_is_mangan():
    # "1~4番,按公式计算基本点数大于2000 满贯 固定为2000"
    assert base_points(4, 40, TENHOU) == (2000, "mangan")  # 40 x 64 = 2560
    assert base_points(3, 70, TENHOU) == (2000, "mangan")  # 70 x 32 = 2240
    assert base_points(4, 30, TENHOU) == (1920, None)  # below 2000 stays (no kiriage on Tenhou)


def test_multiple_yakuman_follow_the_standard_rule_not_the_seed():
    # The seed's table says "三倍役满 固定为32000" and "四倍役满 固定为24000": the two are swapped.
    # The standard rule (and the mahjong library) is 8000 per yakuman: triple 24000, quadruple 32000.
    assert base_points(0, 0, TENHOU, yakuman=2) == (16000, "double yakuman")  # "双倍役满 16000"
    assert base_points(0, 0, TENHOU, yakuman=3) == (24000, "triple yakuman")
    assert base_points(0, 0, TENHOU, yakuman=4) == (32000, "quadruple yakuman")
    for units in (3, 4):
        lib = ScoresCalculator.calculate_scores(13 * units, 0, HandConfig(), True)
        assert lib["main"] == 4 * base_points(0, 0, TENHOU, yakuman=units)[0]


@pytest.mark.parametrize(
    ("base", "dealer", "tsumo", "payments", "total"),
    # "基本点数系数表": dealer tsumo +6 (2 each), dealer ron 6, non-dealer tsumo +4 (2 dealer, 1 others),
    # non-dealer ron 4; "得到的点数要无条件进位到百位。例如计算出来是3840,要无条件进位到3900".
    [
        (240, False, True, {"dealer": 500, "non_dealer": 300}, 1100),
        (880, False, False, {"discarder": 3600}, 3600),
        (800, True, False, {"discarder": 4800}, 4800),
        (1120, False, True, {"dealer": 2300, "non_dealer": 1200}, 4700),
        (4000, True, True, {"each": 8000}, 24000),
        (8000, False, False, {"discarder": 32000}, 32000),
        (8000, False, True, {"dealer": 16000, "non_dealer": 8000}, 32000),
        (240, False, False, {"discarder": 1000}, 1000),
        (1120, False, False, {"discarder": 4500}, 4500),
        (960, False, False, {"discarder": 3900}, 3900),  # 3840 -> 3900
    ],
)
def test_payment_table(base, dealer, tsumo, payments, total):
    assert payments_for(base, dealer, tsumo) == payments
    assert settle(base, dealer, tsumo, 0, 0, TENHOU)[2] == total


def test_winner_gains_what_the_others_lose():
    # "一、… 和牌得到的点数等于其他三家失去的点数之和"; honba and sticks come on top ("本场", "立直棒")
    r = score(**EX1, tsumo=True, honba=2, sticks=3)
    deltas = r.deltas(winner=1, dealer=0, loser=None)
    assert deltas == (-700, 2700 + 2000, -500, -500)
    assert sum(deltas) == 3000  # only the sticks come from the table


def test_kazoe_yakuman_without_the_rule_stops_at_sanbaiman():
    assert base_points(13, 30, variant(TENHOU, kazoe_yakuman=False)) == (6000, "sanbaiman")


def test_kokushi_fu_is_explained_as_the_seeds_fixed_25():
    # "7.特殊情况 ... B.不是3+3+3+3+2形式的和牌,一律记作25符。这里不是3+3+3+3+2形式的和牌包括“七对子”
    # “国士无双”": the explanation said "kokushi musou has no sets to count" (as if the guide gave it
    # no fu). The figure stays the library's 0 (fu and han mean nothing to a yakuman's points).
    from mjcli.riichi.explain import explain

    ctx = WinContext(seat_wind=1, round_wind=0)
    hand = parse_tiles("19m19p19s1234567z9s")
    r = score_hand(hand, parse_tile("9s"), (), ctx, TENHOU)
    assert (r.fu, r.base_points, r.total) == (0, 8000, 32000)
    text = explain(r, hand, parse_tile("9s"), (), ctx, TENHOU)
    assert "a fixed 25 fu in seed 004" in text
    assert "no sets to count" not in text
