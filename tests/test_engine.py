"""The round engine on hand-built event sequences: legality checks and Tenhou rule details."""

from __future__ import annotations

import dataclasses

import pytest

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.engine.state import Round
from mjcli.riichi.rules import get_rules
from mjcli.tiles import TERMINALS_AND_HONORS, kind, parse_tile, parse_tiles

RULES = get_rules("tenhou")
T = parse_tile


def start(hands, dealer=0, dora="8m", scores=(25000,) * 4, honba=0, sticks=0, round_wind=0, kyoku=1):
    return ev.StartRound(
        round_wind,
        kyoku,
        honba,
        sticks,
        dealer,
        T(dora),
        tuple(scores),
        tuple(tuple(parse_tiles(h)) for h in hands),
    )


def draw(a, t, rinshan=False):
    return ev.Draw(a, T(t), rinshan)


def dis(a, t, tsumogiri=False):
    return ev.Discard(a, T(t), tsumogiri)


def run(s, events) -> Round:
    rnd = Round(s, RULES)
    for i, e in enumerate(events, start=1):
        rnd.apply(e, i)
    return rnd


def illegal(s, events, fragment: str) -> IllegalEvent:
    with pytest.raises(IllegalEvent) as info:
        run(s, events)
    assert fragment in info.value.reason, info.value.reason
    assert info.value.index == len(events), "the last event is the illegal one"
    return info.value


# Hands for the pao scenario (also reused as harmless filler): seat 1 holds two of each dragon.
PAO_HANDS = ["5z2468m2468p2468s", "55z66z77z11p234s99m", "67z1357m1357p135s", "1234z3579m3579p9s"]


def pao_calls(last_discard="1p"):
    return [
        draw(0, "1s"),
        dis(0, "5z"),
        ev.Pon(1, 0, T("5z"), (T("5z"), T("5z"))),
        dis(1, "9m"),
        draw(2, "2s"),
        dis(2, "6z"),
        ev.Pon(1, 2, T("6z"), (T("6z"), T("6z"))),
        dis(1, "9m"),
        draw(2, "3s"),
        dis(2, "7z"),
        ev.Pon(1, 2, T("7z"), (T("7z"), T("7z"))),
        dis(1, last_discard),
    ]


# ---------------------------------------------------------------- legality


def test_discarding_a_tile_not_in_hand_is_reported_with_its_index():
    err = illegal(start(PAO_HANDS), [draw(0, "1s"), dis(0, "9s")], "not in the hand")
    assert "event 2" in str(err) and "Discard" in str(err)


def test_draw_out_of_turn():
    illegal(start(PAO_HANDS), [draw(0, "1s"), dis(0, "1s", True), draw(2, "2s")], "seat 1 draws next")


def test_chi_only_from_the_left():
    events = [draw(0, "1s"), dis(0, "2m"), ev.Chi(2, 0, T("2m"), (T("1m"), T("3m")))]
    illegal(start(PAO_HANDS), events, "player on the left")


def test_tsumogiri_flag_must_match_the_draw():
    illegal(start(PAO_HANDS), [draw(0, "1s"), dis(0, "2m", True)], "tsumogiri")


def test_kuikae_is_not_allowed():
    # Seat 1 calls 4m with 23m: neither 4m nor the other end of the suji (1m) may be discarded now.
    hands = ["4m5z2468p2468s123z", "123m567m11p234s99s", "67z1357m1357p135s", "1234z3579m3579p9s"]
    base = [draw(0, "1s"), dis(0, "4m"), ev.Chi(1, 0, T("4m"), (T("2m"), T("3m")))]
    run(start(hands), [*base, dis(1, "9s")])
    illegal(start(hands), [*base, dis(1, "1m")], "kuikae")


RIICHI_HANDS = ["123m456p789s1122z", *PAO_HANDS[1:]]  # seat 0 tenpai on 1z/2z (shanpon)


def test_riichi_needs_points_and_a_tenpai_discard():
    s_poor = start(RIICHI_HANDS, scores=(900, 25000, 25000, 25000))
    illegal(s_poor, [draw(0, "9m"), ev.Riichi(0)], "1000 points")
    illegal(start(RIICHI_HANDS), [draw(0, "9m"), ev.Riichi(0), dis(0, "1z")], "tenpai")
    rnd = run(start(RIICHI_HANDS), [draw(0, "9m"), ev.Riichi(0), dis(0, "9m", True), ev.RiichiAccepted(0)])
    assert rnd.players[0].riichi and rnd.scores[0] == 24000 and rnd.sticks == 1
    assert rnd.players[0].double_riichi and rnd.players[0].ippatsu


def test_riichi_player_must_discard_the_drawn_tile():
    events = [draw(0, "9m"), ev.Riichi(0), dis(0, "9m", True), ev.RiichiAccepted(0)]
    events += [draw(1, "1s"), dis(1, "1s", True), draw(2, "2s"), dis(2, "2s", True), draw(3, "3s")]
    events += [dis(3, "3s", True), draw(0, "7s")]
    illegal(start(RIICHI_HANDS), [*events, dis(0, "1m")], "tile drawn")
    run(start(RIICHI_HANDS), [*events, dis(0, "7s", True)])


def test_riichi_must_be_accepted_before_the_next_draw():
    events = [draw(0, "9m"), ev.Riichi(0), dis(0, "9m", True), draw(1, "1s")]
    illegal(start(RIICHI_HANDS), events, "not accepted")


# ---------------------------------------------------------------- furiten and yaku

FILLER = ["2468m2468p2468s5z", "1357m1357p1357s6z"]


def test_ron_without_yaku_is_illegal():
    hands = ["123m456p789s1122z", *FILLER, "9m9p9s3z44z55z66z777z"]
    events = [draw(0, "3z"), dis(0, "3z", True), draw(1, "1s"), dis(1, "1s", True)]
    events += [draw(2, "2s"), dis(2, "2s", True), draw(3, "2z"), dis(3, "2z")]
    rnd = run(start(hands), events)
    assert rnd.players[0].waits() == frozenset({T("1z"), T("2z")})
    illegal(start(hands), [*events, ev.Win(0, 3, T("2z"))], "no yaku")


def test_ron_needs_the_tile_to_complete_the_hand():
    hands = ["123m456p789s1122z", *FILLER, "9m9p9s3z44z55z66z777z"]
    events = [draw(0, "3z"), dis(0, "3z", True), draw(1, "1s"), dis(1, "5z")]
    illegal(start(hands), [*events, ev.Win(0, 1, T("5z"))], "does not complete")


def test_permanent_furiten_blocks_ron():
    # Seat 0 riichis discarding 4p while waiting on 1p/4p: furiten for the whole round.
    hands = ["123m789s11z23p456p", *FILLER, "9m1p9s3z44z55z66z777z"]
    events = [draw(0, "4p"), ev.Riichi(0), dis(0, "4p", True), ev.RiichiAccepted(0)]
    events += [draw(1, "1s"), dis(1, "1s", True), draw(2, "2s"), dis(2, "2s", True)]
    events += [draw(3, "3s"), dis(3, "1p")]
    illegal(start(hands), [*events, ev.Win(0, 3, T("1p"))], "furiten")


def _riichi_tenpai_round():
    """Seat 0 in (double) riichi waiting on 1z/2z; seat 3 then discards 2z."""
    hands = ["123m456p789s1122z", *FILLER, "9m9p9s3z44z55z66z777z"]
    events = [draw(0, "3z"), ev.Riichi(0), dis(0, "3z", True), ev.RiichiAccepted(0)]
    events += [draw(1, "1s"), dis(1, "1s", True), draw(2, "2s"), dis(2, "2s", True)]
    events += [draw(3, "2z"), dis(3, "2z", True)]
    return start(hands), events


def test_riichi_ron_with_ippatsu_and_double_riichi():
    s, events = _riichi_tenpai_round()
    rnd = run(s, [*events, ev.Win(0, 3, T("2z"), ura_markers=(T("9s"),))])
    out = rnd.finish(99, None)
    yaku = dict(out.wins[0].scored.yaku)
    assert yaku.get("daburu_riichi") == 2 and yaku.get("ippatsu") == 1
    assert out.deltas[0] == -out.deltas[3] + 1000 and out.deltas[3] < 0  # his own stick back


def test_riichi_then_tsumo_on_the_next_own_draw_keeps_ippatsu_and_counts_ura():
    # issue 12's akochan report: riichi, nobody calls, tsumo on the very next own draw: riichi,
    # ippatsu, menzen tsumo, pinfu, dora 1, ura 1 = 6 han. (The 5 the report saw was the ura lost:
    # akochan writes ``uradora_marker``, singular; tests/test_verify_eras_dialects.py reads it.)
    hands = ["123m456p234s55m78s", *PAO_HANDS[1:]]
    go_round = [draw(1, "8p"), dis(1, "8p", True), draw(2, "3p"), dis(2, "3p", True)]
    go_round += [draw(3, "2p"), dis(3, "2p", True)]
    events = [draw(0, "1z"), dis(0, "1z", True), *go_round]
    events += [draw(0, "9p"), ev.Riichi(0), dis(0, "9p", True), ev.RiichiAccepted(0), *go_round]
    events += [draw(0, "6s"), ev.Win(0, 0, T("6s"), ura_markers=(T("1m"),))]
    out = run(start(hands, dora="4p"), events).finish(99, None)
    yaku = dict(out.wins[0].scored.yaku)
    assert yaku == {"tsumo": 1, "riichi": 1, "ippatsu": 1, "pinfu": 1, "dora": 1, "ura_dora": 1}
    assert out.wins[0].scored.han == 6 and out.deltas == [18000 + 1000, -6000, -6000, -6000]  # + own stick


def test_riichi_furiten_after_passing_a_winning_tile():
    s, events = _riichi_tenpai_round()
    events += [draw(0, "8p"), dis(0, "8p", True), draw(1, "3s"), dis(1, "3s", True)]
    events += [draw(2, "4s"), dis(2, "4s", True), draw(3, "1z"), dis(3, "1z", True)]
    illegal(s, [*events, ev.Win(0, 3, T("1z"))], "furiten")


def test_same_turn_furiten_ends_with_own_discard():
    # Seat 0 (yakuhai shanpon 1z/5z, no riichi) lets seat 1's 5z go by: no ron on 1z this go-around.
    hands = ["123m456p789s1155z", *FILLER, "9m9p9s3z44z22z66z777z"]
    events = [draw(0, "3z"), dis(0, "3z", True), draw(1, "1s"), dis(1, "5z")]
    events += [draw(2, "1z"), dis(2, "1z", True)]
    illegal(start(hands), [*events, ev.Win(0, 2, T("1z"))], "furiten")
    events += [draw(3, "3s"), dis(3, "3s", True), draw(0, "8p"), dis(0, "8p", True)]
    events += [draw(1, "2s"), dis(1, "2s", True), draw(2, "1z"), dis(2, "1z", True)]
    rnd = run(start(hands), [*events, ev.Win(0, 2, T("1z"))])
    assert rnd.finish(99, None).deltas[0] > 0


# ---------------------------------------------------------------- kans and dora


KAN_HANDS = ["1111m456p789s112z", "2468m2468p2468s5z", "3579m1357p1357s6z", "9p9s3z44z22z66z777z5m"]


def test_closed_kan_reveals_its_dora_before_the_replacement_draw():
    kan = [draw(0, "9s"), ev.ClosedKan(0, tuple(parse_tiles("1111m")))]
    illegal(start(KAN_HANDS), [*kan, draw(0, "8s", rinshan=True)], "dora")
    rnd = run(start(KAN_HANDS), [*kan, ev.NewDora(T("1p")), draw(0, "8s", rinshan=True), dis(0, "8s", True)])
    assert rnd.dora == [T("8m"), T("1p")] and rnd.tiles_left == 70 - 2


def test_open_kan_reveals_its_dora_when_the_kan_player_discards():
    hands = ["5m222z2468p2468s1z", "111z3z2468m2468p5z", "1357m1357p1357s6z", "9m9p9s3z44z66z777z55s"]
    kan = [draw(0, "9s"), dis(0, "1z"), ev.OpenKan(1, 0, T("1z"), tuple(parse_tiles("111z")))]
    illegal(start(hands), [*kan, ev.NewDora(T("1p"))], "after the kan player's discard")
    illegal(start(hands), [*kan, draw(1, "8s", rinshan=True), dis(1, "8s", True)], "dora")
    rnd = run(start(hands), [*kan, draw(1, "8s", rinshan=True), ev.NewDora(T("1p")), dis(1, "8s", True)])
    assert len(rnd.dora) == 2
    assert rnd.pao == [None, None, None, None]


# ---------------------------------------------------------------- settlements


def test_pao_tsumo_liable_pays_all():
    events = [*pao_calls(), draw(2, "4s"), dis(2, "4s", True), draw(3, "5s"), dis(3, "5s", True)]
    events += [draw(0, "6s"), dis(0, "6s", True), draw(1, "1p"), ev.Win(1, 1, T("1p"))]
    rnd = run(start(PAO_HANDS), events)
    assert rnd.pao[1] == 2
    out = rnd.finish(99, None)
    assert out.wins[0].pao == 2
    assert out.deltas == [0, 32000, -32000, 0]


def test_pao_ron_is_split_with_the_discarder():
    hands = list(PAO_HANDS)
    hands[1] = "55z66z77z11p23s99m8s"
    hands[3] = "1234z3579m357p1s9s"
    # Seat 1 keeps 11p23s after the third dragon call: waits 1s/4s; seat 3 deals in with 1s.
    events = [*pao_calls("8s"), draw(2, "6s"), dis(2, "6s", True), draw(3, "7s"), dis(3, "1s")]
    rnd = run(start(hands, honba=2, sticks=1), [*events, ev.Win(1, 3, T("1s"))])
    out = rnd.finish(99, None)
    # 32000 split 16000/16000; the liable player pays the honba; the stick goes to the winner.
    assert out.deltas == [0, 32000 + 600 + 1000, -16000 - 600, -16000]


# Seat 1 holds the dragon pairs and honours only: with the three dragon pons it waits on 2z for
# daisangen + tsuuiisou (two yakuman); seat 2 feeds the third dragon and is liable.
DOUBLE_YAKUMAN_HANDS = ["5z2468m2468p2468s", "55z66z77z111z2z33z4z", "67z1357m1357p135s", "1234z3579m3579p9s"]


def double_yakuman_calls():
    return [
        draw(0, "1s"),
        dis(0, "5z"),
        ev.Pon(1, 0, T("5z"), (T("5z"), T("5z"))),
        dis(1, "4z"),
        draw(2, "2s"),
        dis(2, "6z"),
        ev.Pon(1, 2, T("6z"), (T("6z"), T("6z"))),
        dis(1, "3z"),
        draw(2, "3s"),
        dis(2, "7z"),
        ev.Pon(1, 2, T("7z"), (T("7z"), T("7z"))),
        dis(1, "3z"),
        draw(2, "4s"),
        dis(2, "4s", True),
    ]


def test_pao_on_two_yakuman_tsumo_charges_the_liable_seat_the_whole_hand():
    # Tenhou (issue 12's Houou game, 3 honba: [64900, 0, -64900, 0] with the winner in seat 0):
    # the liable seat pays both yakuman and the honba; nobody else pays.
    events = [*double_yakuman_calls(), draw(3, "5s"), dis(3, "5s", True), draw(0, "6s"), dis(0, "6s", True)]
    events += [draw(1, "2z"), ev.Win(1, 1, T("2z"))]
    rnd = run(start(DOUBLE_YAKUMAN_HANDS, honba=3), events)
    out = rnd.finish(99, None)
    assert {y for y, _ in out.wins[0].scored.yaku} == {"daisangen", "tsuisou"}
    assert out.wins[0].pao == 2 and out.wins[0].value == 64000
    assert out.deltas == [0, 64900, -64900, 0]
    # Mahjong Soul's rule (liable yakuman only): the other yakuman is an ordinary tsumo.
    other = Round(start(DOUBLE_YAKUMAN_HANDS, honba=3), dataclasses.replace(RULES, pao_whole_hand=False))
    for i, e in enumerate(events, start=1):
        other.apply(e, i)
    assert other.finish(99, None).deltas == [-16000, 64900, -32900 - 8000, -8000]


def test_pao_on_two_yakuman_ron_is_split_between_discarder_and_liable_seat():
    # Seat 3 deals in: it pays half of the whole hand, the liable seat the other half and the honba.
    events = [*double_yakuman_calls(), draw(3, "5s"), dis(3, "2z"), ev.Win(1, 3, T("2z"))]
    out = run(start(DOUBLE_YAKUMAN_HANDS, honba=3, sticks=1), events).finish(99, None)
    assert out.deltas == [0, 64000 + 900 + 1000, -32000 - 900, -32000]
    # The liable seat deals in itself: it pays all of it, as any discarder would.
    events = [*double_yakuman_calls()[:-2], draw(2, "2z"), dis(2, "2z"), ev.Win(1, 2, T("2z"))]
    hands = list(DOUBLE_YAKUMAN_HANDS)
    hands[3] = "1334z3579m3579p9s"  # the 2z seat 2 draws is not in seat 3's hand
    out = run(start(hands, honba=3), events).finish(99, None)
    assert out.deltas == [0, 64900, -64900, 0]


def test_double_ron_gives_honba_and_sticks_to_the_first_winner():
    hands = ["1p2468m2468s1234z", "123456789m1199p", "123456789s23p55z", "3579m3579s56777z"]
    s = start(hands, dora="4z", honba=1, sticks=1)
    events = [draw(0, "6z"), dis(0, "1p"), ev.Win(2, 0, T("1p")), ev.Win(1, 0, T("1p"))]
    rnd = run(s, events)
    out = rnd.finish(99, None)
    by = {w.actor: w for w in out.wins}
    assert (by[1].value, by[2].value) == (2600, 2600)
    assert by[1].deltas == [-2900, 3900, 0, 0] and by[2].deltas == [-2600, 0, 2600, 0]
    assert out.deltas == [-5500, 3900, 2600, 0]


def test_triple_ron_is_an_abort_only_when_three_can_win():
    hands = ["1p2468m2468s1234z", "123456789m1199p", "123456789s23p55z", "3579m3579s56777z"]
    events = [draw(0, "6z"), dis(0, "1p")]
    illegal(start(hands), [*events, ev.RoundDraw(ev.TRIPLE_RON)], "only 2 players")


def test_nine_terminals_only_on_the_first_uninterrupted_draw():
    hands = ["19m19p19s12345z8m8p", *PAO_HANDS[1:]]
    rnd = run(start(hands), [draw(0, "6z"), ev.RoundDraw(ev.NINE_TERMINALS)])
    out = rnd.finish(9, None)
    assert out.kind == ev.NINE_TERMINALS and out.deltas == [0, 0, 0, 0] and out.dealer_continues
    illegal(start(PAO_HANDS), [draw(0, "6s"), ev.RoundDraw(ev.NINE_TERMINALS)], "fewer than nine")


def test_four_winds_abort():
    hands = ["1z2468m2468p2468s", "1z2468m1357p1357s", "1z1357m3579p99s11s", "1z3579m3579s99p11p"]
    events = []
    for seat, t in enumerate(["5z", "5z", "6z", "6z"]):
        events += [draw(seat, t), dis(seat, "1z")]
    rnd = run(start(hands), [*events, ev.RoundDraw(ev.FOUR_WINDS)])
    assert rnd.finish(99, None).kind == ev.FOUR_WINDS
    illegal(start(hands), [*events, draw(0, "7z")], "four winds")


# ---------------------------------------------------------------- a full wall: draws, nagashi, houtei


def _full_round(hands, one_simple=False):
    """Every player discards what he draws for all 70 tiles of the live wall. Seat 1 draws only
    terminals and honours (one simple if ``one_simple``) and the very last tile, a 1z; the other
    seats draw simples."""
    pool = [k for k in range(34) for _ in range(4)]
    for t in [t for h in hands for t in parse_tiles(h)] + [T("8m"), T("1z")]:
        pool.remove(kind(t))
    ones = [k for k in pool if k in TERMINALS_AND_HONORS and k not in (T("1z"), T("2z"))][:17]
    for k in ones:
        pool.remove(k)
    # The others draw simples first (so none of them has a nagashi), then whatever is left
    # except seat 0's waits (1z 2z), so that seat 0 is never furiten.
    simples = sorted(
        (k for k in pool if k not in (T("1z"), T("2z"))), key=lambda k: k in TERMINALS_AND_HONORS
    )
    if one_simple:
        ones[-1] = simples.pop(0)
    events = []
    for i in range(70):
        seat = i % 4
        tile = (T("1z") if i == 69 else ones.pop(0)) if seat == 1 else simples.pop(0)
        events += [ev.Draw(seat, tile), ev.Discard(seat, tile, True)]
    return start(hands), events


NAGASHI_HANDS = ["123m456p789s1122z", "2468m2468p2468s5z", "1357m1357p1357s6z", "3579m3579p99s3z44z"]


def test_exhaustive_draw_with_nagashi_mangan_replaces_tenpai_payments():
    s, events = _full_round(NAGASHI_HANDS)
    rnd = run(s, [*events, ev.RoundDraw(ev.EXHAUSTIVE)])
    out = rnd.finish(999, None)
    assert out.kind == ev.NAGASHI_MANGAN and out.nagashi == (False, True, False, False)
    assert out.tenpai == (True, False, False, False) and out.dealer_continues
    assert out.deltas == [-4000, 8000, -2000, -2000]


def test_exhaustive_draw_tenpai_payments():
    s, events = _full_round(NAGASHI_HANDS, one_simple=True)
    out = run(s, [*events, ev.RoundDraw(ev.EXHAUSTIVE)]).finish(999, None)
    assert out.kind == ev.EXHAUSTIVE and out.deltas == [3000, -1000, -1000, -1000]


def test_houtei_on_the_last_discard_and_nothing_after_it():
    s, events = _full_round(NAGASHI_HANDS)
    rnd = run(s, [*events, ev.Win(0, 1, T("1z"))])
    assert rnd.tiles_left == 0
    yaku = dict(rnd.finish(999, None).wins[0].scored.yaku)
    assert yaku.get("houtei") == 1
    illegal(s, [*events, draw(2, "5m")], "wall is empty")
    illegal(s, [*events, ev.Pon(0, 1, T("1z"), (T("1z"), T("1z")))], "last discard")


def test_a_seat_out_of_range_is_illegal_not_a_crash():
    illegal(start(PAO_HANDS), [draw(0, "1s"), dis(5, "1s")], "not 0..3")


def test_no_ron_on_a_riichi_tile_once_the_stick_is_paid():
    # Seat 3 declares riichi with 1z; seat 0 (waiting on 1z/2z) may ron it only before the acceptance.
    hands = ["123m456p789s1122z", *FILLER, "1z99m99p99s44z55z66z"]
    events = [draw(0, "3z"), dis(0, "3z", True), draw(1, "1s"), dis(1, "1s", True)]
    events += [draw(2, "2s"), dis(2, "2s", True), draw(3, "7z"), ev.Riichi(3), dis(3, "1z")]
    out = run(start(hands), [*events, ev.Win(0, 3, T("1z"))]).finish(99, None)
    assert out.deltas[3] < 0 and sum(out.deltas) == 0  # the riichi stick was never paid
    illegal(start(hands), [*events, ev.RiichiAccepted(3), ev.Win(0, 3, T("1z"))], "accepted")
