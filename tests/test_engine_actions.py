"""Decision points: the actions the engine offers are exactly the legal ones."""

from __future__ import annotations

from test_engine import FILLER, PAO_HANDS, RIICHI_HANDS, dis, draw, run, start

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import PASS_MOVE, legal_actions, table_step
from mjcli.tiles import parse_tile

T = parse_tile


def kinds(actions):
    return sorted({type(a[0]).__name__ if a else "pass" for a in actions})


def test_after_a_draw_every_tile_and_riichi_where_it_keeps_tenpai():
    rnd = run(start(RIICHI_HANDS), [draw(0, "9m")])
    acts = legal_actions(rnd, 0)
    discards = [a[0] for a in acts if isinstance(a[0], ev.Discard)]
    assert {d.tile for d in discards} == set(rnd.players[0].hand)
    assert [d for d in discards if d.tsumogiri] == [ev.Discard(0, T("9m"), True)]
    riichi = [a for a in acts if isinstance(a[0], ev.Riichi)]
    assert [a[1].tile for a in riichi] == [T("9m")]  # only the drawn 9m keeps the shanpon wait
    assert legal_actions(rnd, 1) == []  # nobody else decides now


def test_in_riichi_only_the_drawn_tile_goes():
    events = [draw(0, "9m"), ev.Riichi(0), dis(0, "9m", True), ev.RiichiAccepted(0)]
    events += [draw(1, "1s"), dis(1, "1s", True), draw(2, "2s"), dis(2, "2s", True), draw(3, "3s")]
    events += [dis(3, "3s", True), draw(0, "7s")]
    rnd = run(start(RIICHI_HANDS), events)
    assert legal_actions(rnd, 0) == [(ev.Discard(0, T("7s"), True),)]


def test_reactions_ron_pon_chi_and_pass():
    # Seat 0 discards 5z: seat 1 (two 5z) may pon it; nobody else may do anything.
    rnd = run(start(PAO_HANDS), [draw(0, "1s"), dis(0, "5z")])
    assert legal_actions(rnd, 1) == [(ev.Pon(1, 0, T("5z"), (T("5z"), T("5z"))),), PASS_MOVE]
    assert legal_actions(rnd, 2) == [PASS_MOVE] and legal_actions(rnd, 3) == [PASS_MOVE]  # nothing but a pass
    assert table_step(rnd).kind == "draw" and table_step(rnd).seat == 1


def test_ron_is_offered_unless_furiten():
    hands = ["123m456p789s1155z", *FILLER, "9m9p9s3z44z22z66z777z"]
    events = [draw(0, "3z"), dis(0, "3z", True), draw(1, "1s"), dis(1, "5z")]
    rnd = run(start(hands), events)
    assert (ev.Win(0, 1, T("5z")),) in legal_actions(rnd, 0)
    rnd = run(start(hands), [*events, draw(2, "1z"), dis(2, "1z", True)])
    assert all(not (a and isinstance(a[0], ev.Win)) for a in legal_actions(rnd, 0))  # passed 5z: furiten


def test_table_accepts_riichi_before_anything_else():
    rnd = run(start(RIICHI_HANDS), [draw(0, "9m"), ev.Riichi(0), dis(0, "9m", True)])
    assert table_step(rnd).event == ev.RiichiAccepted(0)
