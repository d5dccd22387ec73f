"""Three-player (sanma) rules of the one engine, on hand-built rounds and against the `mahjong` library.

Sources of each rule: real Tenhou sanma logs (``fixtures/sanma``, verified round by round in
``test_sanma_logs.py``) and the translation of Tenhou's rule list (riichi.wiki "Tenhou.net rules",
three-player section): no chi; North set aside (抜きドラ) with a replacement draw, like a call for
ippatsu, double riichi, chiihou and nine terminals; "抜いた北は役満以外でも和了可能" (any hand with
a yaku may ron a North set aside); 200 per honba on a ron; 2000 of noten payments in all.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.shanten import Shanten
from test_engine import dis, draw

from mjcli.analysis import SANMA_ABSENT, discard_table, shanten, shanten_batch, shanten_sanma, ukeire
from mjcli.errors import InvalidHandError, UsageError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import legal_actions, table_step
from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.engine.settlement import WinPay, draw_tenpai_deltas, tsumo_shares, win_deltas
from mjcli.riichi.engine.state import KAN, Round
from mjcli.riichi.engine.table import Game, next_round
from mjcli.riichi.rules import for_players, get_rules
from mjcli.riichi.scoring import WinContext, score_hand
from mjcli.riichi.variant import THREE_PLAYER, variant_for
from mjcli.tiles import NORTH, counts34, kind, parse_tile, parse_tiles

SANMA = get_rules("tenhou-sanma")
T = parse_tile
N = NORTH

# Seat 0 (dealer) holds a lone North; seat 1 waits on North alone with a white-dragon triplet (a
# yaku); seat 2 is far from tenpai. No 2m-8m anywhere.
HANDS = ["4z19m137p1379s567z", "555z123p456p789s4z", "2233p4455s6688p9p"]


def start(hands=HANDS, dealer=0, dora="1s", scores=(35000,) * 3, honba=0, sticks=0):
    return ev.StartRound(
        0,
        dealer + 1,
        honba,
        sticks,
        dealer,
        T(dora),
        tuple(scores),
        tuple(tuple(parse_tiles(h)) for h in hands),
    )


def run(events, s=None, rules=SANMA) -> Round:
    rnd = Round(s or start(), rules)
    for i, e in enumerate(events, start=1):
        rnd.apply(e, i)
    return rnd


def illegal(events, fragment: str, s=None) -> None:
    with pytest.raises(IllegalEvent) as info:
        run(events, s)
    assert fragment in info.value.reason, info.value.reason
    assert info.value.index == len(events)


def kita(seat: int) -> ev.Nukidora:
    return ev.Nukidora(seat, N)


# ---------------------------------------------------------------- the variant and the presets


def test_the_three_player_set_and_table():
    v = SANMA.variant
    assert v is THREE_PLAYER is variant_for(3)
    assert (v.players, v.tiles, v.live_wall, v.chi, v.nukidora) == (3, 108, 55, False, N)
    assert v.kinds == tuple(k for k in range(34) if k not in SANMA_ABSENT) and len(v.kinds) == 27
    assert (SANMA.start_points, SANMA.return_points, SANMA.uma) == (35000, 40000, (20, 0, -20))
    assert (SANMA.honba_points, SANMA.honba_tsumo_points, SANMA.noten_payment) == (200, 100, 2000)
    assert SANMA.absent_share == "lost" and get_rules("sanma-split").absent_share == "split"
    assert SANMA.hand_options().is_three_player and not get_rules("tenhou").hand_options().is_three_player
    # a three-player log read with the default rules is played under the three-player preset
    assert for_players(get_rules("tenhou-nored"), 3).players == 3
    assert not for_players(get_rules("tenhou-nored"), 3).red_fives
    assert for_players(SANMA, 4) == get_rules("tenhou")
    with pytest.raises(UsageError, match="absent_share"):
        get_rules("tenhou-sanma").__class__(name="x", players=3, uma=(1, 0, -1), absent_share="maybe")


def test_a_wind_has_three_rounds_and_the_dealer_goes_round_three_seats():
    from mjcli.riichi.engine.table import RoundStart

    after_e3 = next_round(RoundStart(0, 3, 0, 0, 2, (40000, 30000, 35000)), "ron", False, True, SANMA)
    assert after_e3 is not None and (after_e3.round_wind, after_e3.kyoku, after_e3.dealer) == (1, 1, 0)
    # South 3 is the last round: someone has the return points (40000), so the game ends
    assert next_round(RoundStart(1, 3, 0, 0, 2, (45000, 30000, 30000)), "ron", False, True, SANMA) is None
    # nobody has 40000: the game goes into West
    west = next_round(RoundStart(1, 3, 0, 0, 2, (39000, 33000, 33000)), "ron", False, True, SANMA)
    assert west is not None and (west.round_wind, west.kyoku) == (2, 1)


# ---------------------------------------------------------------- nukidora


def test_a_north_set_aside_draws_a_replacement_and_shortens_the_wall():
    rnd = run([draw(0, "8s"), kita(0)])
    assert rnd.phase == KAN and rnd.kan_kind == "kita" and rnd.players[0].kita == [N]
    step = table_step(rnd)
    assert (step.kind, step.seat, step.rinshan) == ("draw", 0, True)  # no dora indicator for a kita
    rnd.apply(draw(0, "9s", rinshan=True), 3)
    assert rnd.rinshan and rnd.wall == 55 - 2 and rnd.dora == [T("1s")]
    assert rnd.interrupted  # like a call: no double riichi, chiihou or nine terminals after it


def test_others_may_ron_a_north_set_aside_with_any_yaku_and_it_is_no_chankan():
    rnd = run([draw(0, "8s"), kita(0)])
    assert (ev.Win(1, 0, N),) in legal_actions(rnd, 1)
    assert legal_actions(rnd, 2) == []  # nothing to win with: the table draws the replacement
    rnd.apply(ev.Win(1, 0, N), 3)
    out = rnd.finish(4, ev.EndRound())
    w = out.wins[0]
    assert dict(w.scored.yaku) == {"haku": 1}  # no chankan: nothing was robbed from a kan
    # 40 fu 1 han from the dealer: 1300; the absent North seat pays nothing on a ron anyway
    assert (w.scored.han, w.scored.fu, out.deltas) == (1, 40, [-1300, 1300, 0])


def test_a_player_who_lets_a_north_go_by_is_furiten_for_the_turn():
    rnd = run([draw(0, "8s"), kita(0), draw(0, "9s", rinshan=True), dis(0, "9s", True)])
    assert rnd.players[1].same_turn_furiten


def test_a_north_set_aside_ends_ippatsu_once_the_replacement_is_drawn():
    # seat 1 declares riichi on its first discard; seat 0 then sets a North aside: no ippatsu any more
    hands = ["4z19m137p1379s567z", "555z123p456p789s2z", "2233p4455s6688p9p"]
    events = [
        draw(0, "8s"),
        dis(0, "8s", True),
        draw(1, "4z"),
        ev.Riichi(1),
        dis(1, "2z"),
        ev.RiichiAccepted(1),
        draw(2, "1p"),
        dis(2, "1p", True),
        draw(0, "4z"),
        kita(0),
    ]
    rnd = run(events, start(hands))
    assert rnd.players[1].ippatsu  # a ron on this very North could still be ippatsu
    rnd.apply(draw(0, "7s", rinshan=True), len(events) + 1)
    assert not rnd.players[1].ippatsu


def test_north_set_aside_rules():
    # not right after a pon (no tile drawn)
    pon_hands = ["4z19m137p1379s566z", "555z123p456p789s4z", "2233p4455s6688p9p"]
    pon = [draw(0, "8s"), dis(0, "8s", True), draw(1, "6z"), dis(1, "6z", True)]
    illegal(
        [*pon, ev.Pon(0, 1, T("6z"), (T("6z"), T("6z"))), kita(0)], "after one's own draw", start(pon_hands)
    )
    # only a North, and only one held
    illegal([draw(0, "8s"), ev.Nukidora(0, T("5z"))], "only a North")
    illegal([draw(2, "8s")], "seat 0 draws next")
    # never on the last tile: the replacement would take a tile the wall no longer has
    rnd = run([])
    rnd.wall = 1
    rnd.apply(draw(0, "8s"), 1)
    assert not any(isinstance(m[0], ev.Nukidora) for m in legal_actions(rnd, 0) if m)
    with pytest.raises(IllegalEvent, match="last tile"):
        rnd.apply(kita(0), 2)
    # a four-player round has no nukidora at all
    hands4 = (*(tuple(parse_tiles(h)) for h in HANDS), tuple(parse_tiles("2223334445556m")))
    r4 = Round(ev.StartRound(0, 1, 0, 0, 0, T("1s"), (25000,) * 4, hands4), get_rules("tenhou"))
    r4.apply(draw(0, "8s"), 1)
    assert not any(m and isinstance(m[0], ev.Nukidora) for m in legal_actions(r4, 0))
    with pytest.raises(IllegalEvent, match="no nukidora in four-player"):
        r4.apply(kita(0), 2)


def test_in_riichi_only_the_north_just_drawn_may_be_set_aside():
    # seat 0 in riichi on 4z/9s, its North pair part of the hand: that North is not set aside
    hands = ["44z123p789p123s99s", "555z123p456p789s2z", "2233p4455s6688p9p"]
    riichi = [draw(0, "7s"), ev.Riichi(0), dis(0, "7s", True), ev.RiichiAccepted(0)]
    more = [draw(1, "1s"), dis(1, "1s", True), draw(2, "3s"), dis(2, "3s", True)]
    rnd = run([*riichi, *more, draw(0, "8p")], start(hands))
    assert not any(m and isinstance(m[0], ev.Nukidora) for m in legal_actions(rnd, 0))
    with pytest.raises(IllegalEvent, match="just drawn"):
        rnd.apply(kita(0), 10)
    rnd = run([*riichi, *more, draw(0, "4z")], start(hands))
    assert (ev.Nukidora(0, N),) in legal_actions(rnd, 0)


def test_no_chi_in_three_player():
    s = start()
    rnd = run([draw(0, "2p"), dis(0, "2p", True)], s)  # seat 1 holds 1p3p: a chi in four-player
    assert not any(m and isinstance(m[0], ev.Chi) for m in legal_actions(rnd, 1))
    with pytest.raises(IllegalEvent, match="no chi"):
        rnd.apply(ev.Chi(1, 0, T("2p"), (T("1p"), T("3p"))), 3)


def test_tiles_two_to_eight_man_do_not_exist():
    with pytest.raises(IllegalEvent, match="2m-8m"):
        Round(start(["4z12m137p1379s567z", *HANDS[1:]]), SANMA)
    with pytest.raises(IllegalEvent, match="2m-8m"):
        run([draw(0, "5m")])


# ---------------------------------------------------------------- payments


def test_tsumo_son_the_absent_north_does_not_pay():
    # non-dealer mangan tsumo: 4000 from the dealer, 2000 from the other: 6000 (Tenhou X14 round 4)
    assert tsumo_shares(2000, 1, 0, players=3) == [4000, 0, 2000]
    # dealer haneman: 6000 each (X14 round 1)
    assert tsumo_shares(3000, 0, 0, players=3) == [0, 6000, 6000]
    # split (北家折半): each payer adds half the North's four-player payment, rounded up to 100
    # (三人麻雀.com "丸どり" method A: a non-dealer's 1000/2000 is paid 1500/2500). 30 fu 1 han, base
    # 240: North's 300 -> 150 -> 200 each; 30 fu 3 han, base 960: 1000/2000 -> 1500/2500, not the
    # 1500/2400 of the share halved before rounding (1.5 and 2.5 x 960)
    assert tsumo_shares(240, 1, 0, players=3, split=True) == [700, 0, 500]
    assert tsumo_shares(960, 1, 0, players=3, split=True) == [2500, 0, 1500]
    assert tsumo_shares(960, 0, 0, players=3, split=True) == [0, 3000, 3000]  # 2000 all -> 3000 all
    assert tsumo_shares(2000, 0, 0, players=3, split=True) == [0, 6000, 6000]
    # honba: 200 a ron, 100 from each payer of a tsumo
    d, _ = win_deltas(WinPay(1, 0, 2000), 0, 2, 1, 3, honba_ron=200, honba_tsumo=100)
    assert d == [-8400, 9400, 0]
    d, _ = win_deltas(WinPay(1, None, 2000), 0, 2, 0, 3, honba_ron=200, honba_tsumo=100)
    assert d == [-4200, 6400, -2200]


def test_noten_payments_are_2000_in_all():
    assert draw_tenpai_deltas([True, False, False], 2000) == [2000, -1000, -1000]
    assert draw_tenpai_deltas([True, True, False], 2000) == [1000, 1000, -2000]
    assert draw_tenpai_deltas([False, False, False], 2000) == [0, 0, 0]


def test_uma_and_oka_of_the_three_player_table():
    g = Game(SANMA)
    points = g.points_choice.candidates[0].points((59200, 22800, 23000), SANMA.return_points)
    # one decimal: (59200 - 40000) + 20 uma + 15 oka = 54.2 (Tenhou gives 54.0 under its old whole-point rule)
    assert points == [54.2, -37.2, -17.0]


# ---------------------------------------------------------------- scoring against the mahjong library


def _complete_sanma_hand(rng: random.Random) -> list[int]:
    kinds = [k for k in range(34) if k not in SANMA_ABSENT]
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                k = rng.choice([k for k in kinds if k < 27 and k % 9 <= 6 and k >= 9])
                for x in (k, k + 1, k + 2):
                    counts[x] += 1
            else:
                counts[rng.choice(kinds)] += 3
        counts[rng.choice(kinds)] += 2
        if max(counts) <= 4 and counts[N] <= 2:
            return [k for k in range(34) for _ in range(counts[k])]


def test_payments_and_north_dora_agree_with_the_mahjong_library():
    """Our payments (tsumo-son, 200/100 honba) against the library's own cost with
    ``is_three_player``, and the North dora against their definition (each North set aside is one
    dora, one more per dora indicator pointing at North: West, 3z)."""
    rng = random.Random(16)
    checked = 0
    while checked < 150:
        hand = _complete_sanma_hand(rng)
        kita = rng.randint(0, 4 - counts34(hand)[N])
        win = rng.choice(hand)
        tsumo = rng.random() < 0.5
        seat = rng.randint(0, 2)
        dora = rng.choice([T("3z"), T("9m"), T("1p"), T("4z")])
        ctx = WinContext(
            tsumo=tsumo,
            riichi=True,
            seat_wind=seat,
            round_wind=0,
            honba=rng.randint(0, 3),
            dora_indicators=(dora,),
            kita=kita,
        )
        try:
            ours = score_hand(hand, win, (), ctx, SANMA)
        except Exception:
            continue  # a hand the draw made impossible (five copies with the indicator)
        config = HandConfig(
            is_tsumo=tsumo,
            is_riichi=True,
            player_wind=27 + seat,
            round_wind=27,
            tsumi_number=ctx.honba,
            num_nuki_dora=kita,
            options=SANMA.hand_options(),
        )
        # plain physical ids (the red fives are 52 and 88): the hand holds no red five
        free = {k: [i for i in range(4 * k, 4 * k + 4) if i not in (52, 88)] for k in set(hand)}
        if any(hand.count(k) > len(free[k]) for k in free):
            continue
        ids = [free[k].pop(0) for k in hand]
        lib = HandCalculator.estimate_hand_value(
            ids, ids[hand.index(win)], dora_indicators=[4 * kind(dora)], config=config
        )
        assert lib.error is None
        cost = lib.cost
        if not tsumo:
            assert ours.payments == {"discarder": cost["main"] + cost["main_bonus"]}
        elif seat == 0:
            assert ours.payments == {"each": cost["main"] + cost["main_bonus"]}
        else:
            assert ours.payments == {
                "dealer": cost["main"] + cost["main_bonus"],
                "non_dealer": cost["additional"] + cost["additional_bonus"],
            }
        assert ours.total == cost["total"]
        pointed = {T("3z"): N, T("9m"): 0, T("1p"): T("2p"), T("4z"): T("1z")}[dora]  # 9m points at 1m
        in_hand = hand.count(pointed)
        north_dora = kita * (1 + (kind(dora) == T("3z")))
        if not ours.yakuman:  # a yakuman counts no dora
            assert dict((y, h) for y, _, h in ours.yaku).get("dora", 0) == in_hand + north_dora
        checked += 1


def test_scoring_refuses_what_three_players_do_not_have():
    ctx = WinContext(tsumo=True)
    with pytest.raises(InvalidHandError, match="no 2m-8m"):
        score_hand(parse_tiles("234m456p789s111z99m"), T("9m"), (), ctx, SANMA)
    with pytest.raises(UsageError, match="no North seat"):
        north_seat = WinContext(tsumo=True, seat_wind=3)
        score_hand(parse_tiles("123p456p789s111z99m"), T("9m"), (), north_seat, SANMA)
    with pytest.raises(UsageError, match="three-player rule"):
        score_hand(parse_tiles("123p456p789s111z99m"), T("9m"), (), WinContext(kita=1), get_rules("tenhou"))
    with pytest.raises(InvalidHandError, match="copies"):
        score_hand(parse_tiles("123p456p789s444z99m"), T("9m"), (), WinContext(tsumo=True, kita=2), SANMA)


# ---------------------------------------------------------------- shanten and ukeire


def _sanma_counts(draw_fn, size: int) -> list[int]:
    kinds = [k for k in range(34) if k not in SANMA_ABSENT]
    counts = [0] * 34
    while sum(counts) < size:
        k = draw_fn(kinds)
        if counts[k] < 4:
            counts[k] += 1
    return counts


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2, 4, 5, 7, 8, 10, 11, 13, 14]))
def test_sanma_shanten_is_the_mahjong_librarys_three_player_shanten(rng, size):
    # 1m and 9m drawn more often: they are where three-player differs (1111m cannot join a 123m run)
    counts = _sanma_counts(lambda kinds: rng.choice([*kinds, 0, 0, 0, 8, 8, 8]), size)
    assert shanten_sanma(counts) == Shanten.calculate_shanten(counts, is_three_player=True)
    assert int(shanten_batch(__import__("numpy").array([counts]), sanma=True)[0]) == shanten_sanma(counts)


def test_where_three_player_shanten_differs_from_four_player():
    counts = counts34(parse_tiles("1111m111122233z"))  # the mahjong library's own example
    assert (shanten(counts), shanten_sanma(counts)) == (1, 2)


def test_sanma_ukeire_never_counts_two_to_eight_man():
    hand = counts34(parse_tiles("19m19p19s1234567z"))  # thirteen orphans, 13-sided
    assert ukeire(hand, sanma=True).total == ukeire(hand).total == 39
    open_end = counts34(parse_tiles("11m99m123p456p789s"))  # 1m/9m shanpon: no 1m-2m-3m in sanma
    assert [k for k, _ in ukeire(open_end, sanma=True).tiles] == [0, 8]
    single = counts34(parse_tiles("19m123p456p789s11z"))
    four = [k for k, _ in ukeire(single).tiles]
    three = [k for k, _ in ukeire(single, sanma=True).tiles]
    assert set(three) < set(four) and not set(three) & set(SANMA_ABSENT) and set(four) & set(SANMA_ABSENT)
    table = discard_table(counts34(parse_tiles("11m99m123p456p789s1z")), sanma=True)
    assert all(not set(o.kinds) & set(SANMA_ABSENT) for o in table)
    with pytest.raises(InvalidHandError, match="no 2m-8m"):
        ukeire(counts34(parse_tiles("23m123p456p789s11z")), sanma=True)


def test_riichi_with_three_tiles_left_in_three_player_and_not_below() -> None:
    """The engine and the legal list of a typed hand agree: three tiles left allow a riichi in
    three-player (the declarer draws once more), two do not; four-player asks for four."""
    from mjcli.riichi.advise import build_view
    from mjcli.riichi.policies.legal import draw_actions
    from mjcli.tiles import parse_tiles

    hand = parse_tiles("2444p24567s1166z1z")
    for players, wall, offered in ((3, 3, True), (3, 2, False), (4, 4, True), (4, 3, False)):
        view = build_view(hand, (), (), (), 0, 1, (), wall_left=wall, players=players)
        assert any(a.kind == "riichi" for a in draw_actions(view)) is offered, (players, wall)
