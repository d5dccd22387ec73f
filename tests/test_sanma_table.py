"""Three-player table details: the simulator's wall, pao, the abortive draws that can happen, and
hands with 1m/9m (thirteen orphans) under three-player rules."""

from __future__ import annotations

from collections import Counter

import pytest
from test_engine import dis, draw
from test_sanma_engine import HANDS, kita, run, start

from mjcli.errors import MjcliError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import legal_actions
from mjcli.riichi.engine.settlement import WinPay, nagashi_deltas, win_deltas
from mjcli.riichi.rules import get_rules
from mjcli.riichi.scoring import WinContext, score_hand
from mjcli.riichi.simulate.wall import Wall, layout_of
from mjcli.riichi.variant import THREE_PLAYER
from mjcli.tiles import RED_FIVES, kind, parse_tile, parse_tiles

SANMA = get_rules("tenhou-sanma")
T = parse_tile


def test_the_three_player_wall():
    lay = layout_of(THREE_PLAYER)
    assert (lay.tiles, lay.deal, lay.live_end, lay.rinshan, lay.dora, lay.ura) == (
        108,
        39,
        94,
        (94, 98),
        (98, 103),
        (103, 108),
    )
    w = Wall.shuffled(3, 0, variant=THREE_PLAYER)
    counts = Counter(kind(w.tile(i)) for i in w.ids)
    assert len(counts) == 27 and set(counts.values()) == {4} and not set(counts) & set(range(1, 8))
    assert sorted(t for t in (w.tile(i) for i in w.ids) if t in RED_FIVES) == [T("0p"), T("0s")]
    hands = w.dealt_tiles(1)
    assert [len(h) for h in hands] == [13, 13, 13]
    assert w.live_left == 55
    # eight replacement draws (four kans, four Norths): the dead wall's four, then the live wall's end
    firsts = [w.draw() for _ in range(40)]
    extra = [w.draw_rinshan() for _ in range(8)]
    assert extra[:4] == [w.tile(i) for i in w.ids[94:98]]
    assert extra[4:] == [w.tile(i) for i in reversed(w.ids[90:94])]
    assert len(firsts) + len(extra) + w.live_left == 55 and w.live_left == 7
    drawn = [w.draw() for _ in range(7)]
    assert drawn == [w.tile(i) for i in w.ids[79:86]] and w.live_left == 0
    with pytest.raises(MjcliError):
        w.draw()
    assert sorted(w.unseen_ids()) == sorted(w.ids[86:90] + w.ids[99:108])


def test_pao_with_three_players():
    # daisangen tsumo by seat 1 (liable: seat 2) with one honba: the liable seat pays it all, as a ron
    d, value = win_deltas(
        WinPay(1, None, 8000, pao=2, pao_base=8000), 0, 1, 0, 3, honba_ron=200, honba_tsumo=100
    )
    assert d == [0, 32200, -32200] and value == 32000
    # ron from seat 0: the liable seat and the discarder split it, the liable seat pays the honba
    d, _ = win_deltas(WinPay(1, 0, 8000, pao=2, pao_base=8000), 0, 1, 0, 3, honba_ron=200, honba_tsumo=100)
    assert d == [-16000, 32200, -16200]


def test_nagashi_mangan_is_a_mangan_tsumo_without_the_north():
    assert nagashi_deltas([False, True, False], 0) == [-4000, 6000, -2000]
    assert nagashi_deltas([True, False, False], 0) == [8000, -4000, -4000]
    assert nagashi_deltas([True, False, False], 0, split=True) == [12000, -6000, -6000]


def test_four_winds_cannot_abort_a_three_player_round():
    hands = ["1z19m137p1379s567z", "1z55z123p456p789s4z", "1z2233p4455s688p9p"]
    rnd = run(
        [draw(0, "8s"), dis(0, "1z"), draw(1, "8s"), dis(1, "1z"), draw(2, "8s"), dis(2, "1z")], start(hands)
    )
    assert not rnd.four_winds_pending() and rnd.variant.four_winds is False
    rnd.apply(draw(0, "9s"), 7)  # play goes on


def test_nine_terminals_is_not_offered_after_a_north_set_aside():
    nine = ["4z19m19p19s1235z11p", *HANDS[1:]]
    rnd = run([draw(0, "6z")], start(nine))
    assert (ev.RoundDraw(ev.NINE_TERMINALS),) in legal_actions(rnd, 0)
    rnd = run([draw(0, "6z"), kita(0), draw(0, "7z", rinshan=True)], start(nine))
    assert (ev.RoundDraw(ev.NINE_TERMINALS),) not in legal_actions(rnd, 0)


def test_thirteen_orphans_and_1m_9m_hands_score_in_three_player():
    kokushi = score_hand(parse_tiles("19m19p19s12345677z"), T("7z"), (), WinContext(tsumo=True), SANMA)
    assert kokushi.yakuman == 1 and kokushi.payments == {"each": 16000} and kokushi.total == 32000
    chinroutou = score_hand(parse_tiles("111m999m111p999p11s"), T("9p"), (), WinContext(seat_wind=1), SANMA)
    assert chinroutou.yakuman >= 1 and chinroutou.total == 32000
