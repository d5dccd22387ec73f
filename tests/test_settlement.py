"""Settlement arithmetic: conservation under every payment rule, and Tenhou's known figures."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjcli.riichi.engine.settlement import (
    WinPay,
    ceil100,
    draw_tenpai_deltas,
    final_points,
    final_scores,
    nagashi_deltas,
    ranking,
    ron_order,
    win_deltas,
)

BASES = st.sampled_from([240, 320, 480, 640, 960, 1280, 1600, 1920, 2000, 3000, 4000, 6000, 8000, 16000])
seats = st.integers(0, 3)


@given(
    base=BASES,
    winner=seats,
    dealer=seats,
    loser=st.one_of(st.none(), seats),
    honba=st.integers(0, 8),
    sticks=st.integers(0, 6),
    pao=st.one_of(st.none(), seats),
    units=st.integers(0, 2),
)
def test_a_win_moves_exactly_the_sticks_onto_the_scores(
    base, winner, dealer, loser, honba, sticks, pao, units
):
    if loser == winner:
        loser = None
    if pao == winner:
        pao = None
    pao_base = min(base, 8000 * units) if pao is not None else 0
    d, value = win_deltas(WinPay(winner, loser, base, pao, pao_base), dealer, honba, sticks)
    assert sum(d) == 1000 * sticks
    assert d[winner] == value + 300 * honba + 1000 * sticks
    assert all(x <= 0 for s, x in enumerate(d) if s != winner)
    payers = {s for s, x in enumerate(d) if x < 0}
    if loser is not None and pao is None:
        assert payers == {loser}


@pytest.mark.parametrize(
    ("base", "winner", "dealer", "loser", "expected"),
    [
        (2000, 1, 0, None, [-4000, 8000, -2000, -2000]),  # non-dealer mangan tsumo 2000/4000
        (2000, 0, 0, None, [12000, -4000, -4000, -4000]),  # dealer mangan tsumo 4000 all
        (320, 2, 0, None, [-700, -400, 1500, -400]),  # 30 fu 1 han tsumo: 400/700 (rounded up)
        (480, 3, 1, 2, [0, 0, -2000, 2000]),  # 30 fu 2 han ron: 1920 -> 2000
        (960, 1, 1, 0, [-5800, 5800, 0, 0]),  # dealer 30 fu 3 han ron: 5760 -> 5800
    ],
)
def test_payment_table(base, winner, dealer, loser, expected):
    assert win_deltas(WinPay(winner, loser, base), dealer, 0, 0)[0] == expected


def test_honba_on_tsumo_and_ron():
    assert win_deltas(WinPay(1, None, 2000), 0, 2, 1)[0] == [-4200, 9600, -2200, -2200]
    assert win_deltas(WinPay(1, 3, 2000), 0, 2, 1)[0] == [0, 9600, 0, -8600]


def test_pao_tsumo_and_ron_and_ron_from_the_liable_player():
    yakuman = WinPay(2, None, 8000, pao=0, pao_base=8000)
    assert win_deltas(yakuman, 3, 1, 0)[0] == [-32300, 0, 32300, 0]  # as if the liable player dealt in
    split = WinPay(2, 1, 8000, pao=0, pao_base=8000)
    assert win_deltas(split, 3, 1, 2)[0] == [-16300, -16000, 34300, 0]  # the liable pays the honba
    direct = WinPay(2, 0, 8000, pao=0, pao_base=8000)
    assert win_deltas(direct, 3, 0, 0)[0] == [-32000, 0, 32000, 0]
    # Two yakuman of which one is pao: the other is paid as an ordinary tsumo.
    double = WinPay(2, None, 16000, pao=0, pao_base=8000)
    assert win_deltas(double, 3, 0, 0)[0] == [-32000 - 8000, -8000, 32000 + 32000, -16000]


def test_ron_order_is_turn_order_from_the_discarder():
    assert ron_order(3, [2, 0]) == [0, 2]
    assert ron_order(0, [3, 1]) == [1, 3]


@given(st.lists(st.booleans(), min_size=4, max_size=4))
def test_tenpai_payments_sum_to_zero(tenpai):
    d = draw_tenpai_deltas(tenpai)
    assert sum(d) == 0
    k = sum(tenpai)
    if 0 < k < 4:
        assert sorted(set(d)) == sorted({3000 // k, -3000 // (4 - k)})


@given(st.lists(st.booleans(), min_size=4, max_size=4), seats)
def test_nagashi_payments_sum_to_zero(nagashi, dealer):
    d = nagashi_deltas(nagashi, dealer)
    assert sum(d) == 0
    if sum(nagashi) == 1:
        assert max(d) == (12000 if nagashi[dealer] else 8000)


def test_ties_rank_by_seat_and_leftover_sticks_go_to_first():
    assert ranking([30000, 30000, 20000, 20000]) == [0, 1, 2, 3]
    assert ranking([20000, 30000, 20000, 30000]) == [1, 3, 0, 2]
    assert final_scores([20000, 30000, 20000, 28000], 2) == [20000, 32000, 20000, 28000]


@pytest.mark.parametrize(
    ("scores", "points"),
    [
        # Recorded `owari` results of Tenhou games in ../shared/logs (x.5 rounds toward zero).
        ((20100, 35800, 5200, 38900), (-20.0, 16.0, -45.0, 49.0)),
        ((25500, 11200, 43800, 19500), (6.0, -39.0, 53.0, -20.0)),
        ((24500, 29300, 30400, 15800), (-15.0, 9.0, 40.0, -34.0)),
        ((10500, 24800, 50600, 14100), (-39.0, 5.0, 60.0, -26.0)),
        ((-8300, 30600, 47400, 30300), (-58.0, 11.0, 57.0, -10.0)),
    ],
)
def test_final_points_match_tenhou(scores, points):
    assert tuple(final_points(scores, 30000, (20, 10, -10, -20))) == points


@given(st.lists(st.integers(-300, 1000).map(lambda x: x * 100), min_size=4, max_size=4))
def test_final_points_sum_to_zero(scores):
    assert sum(final_points(scores, 30000, (20, 10, -10, -20))) == 0


def test_ceil100():
    assert [ceil100(x) for x in (0, 1, 100, 101, 1920, 7680)] == [0, 100, 100, 200, 2000, 7700]
