"""Tenhou rule points the shared logs do not exercise, each on a hand-built round.

Sources (stated per test where it matters): the translation of Tenhou's rule page
(riichi.wiki / arcturus.su "Tenhou.net rules"), and mjx's engine (mjx-project/mjx
include/mjx/internal/state.cpp, which reproduces Tenhou logs): ``CheckGameOver``, ``NoWinner``,
``Update`` (four riichi, four kans, triple ron), ``ApplyOpen`` (ippatsu) and ``CanRon`` (furiten).
"""

from __future__ import annotations

import dataclasses

from test_engine import dis, draw, illegal, run, start

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.state import Round
from mjcli.riichi.engine.table import Game
from mjcli.riichi.rules import get_rules
from mjcli.tiles import KIND_TO_RED, kind, parse_tile, parse_tiles

T = parse_tile
RULES = get_rules("tenhou")


class Wall:
    """The tiles not dealt (nor the first indicator): handed out as fillers that nobody can use.

    Simples come first (so that four identical first winds never happen by accident); ``avoid``
    kinds (the waits of the hands in the test) are never handed out.
    """

    def __init__(self, hands: list[str], dora: str = "8m", avoid: str = "") -> None:
        pool: list[int] = []
        for k in range(34):
            copies = [k] * 4
            if k in KIND_TO_RED:
                copies[0] = KIND_TO_RED[k]
            pool.extend(copies)
        for t in [t for h in hands for t in parse_tiles(h)] + [T(dora)]:
            pool.remove(t)
        bad = {kind(t) for t in parse_tiles(avoid)} if avoid else set()
        self.pool = sorted((t for t in pool if kind(t) not in bad), key=lambda t: (kind(t) >= 27, kind(t)))

    def take(self, tile: str | None = None) -> int:
        if tile is not None:
            t = T(tile)
            self.pool.remove(t)
            return t
        return self.pool.pop(0)

    def turns(self, seats: list[int] | range) -> list[object]:
        """Each seat in turn draws a filler and discards it at once."""
        out: list[object] = []
        for s in seats:
            t = self.take()
            out += [ev.Draw(s, t), ev.Discard(s, t, True)]
        return out


def seats_from(first: int, n: int) -> list[int]:
    return [(first + i) % 4 for i in range(n)]


# Seat 1 waits on 1z/2z (yakuhai shanpon), seat 2 on 3z/4z; seats 0 and 3 are far from tenpai.
TWO_TENPAI = ["2468m2468p2468s6z", "123m456p789s1122z", "234m678p234s3344z", "1357m1357p1379s7z"]


# ---------------------------------------------------------------- riichi


def test_riichi_with_exactly_1000_points_is_allowed_and_leaves_zero():
    # Tenhou: "You need at least 1000 points ... to declare riichi"; 0 points does not bust.
    hands = ["123m456p789s1122z", *TWO_TENPAI[:1], *TWO_TENPAI[2:]]
    s = start(hands, scores=(1000, 33000, 33000, 33000))
    rnd = run(s, [draw(0, "9m"), ev.Riichi(0), dis(0, "9m", True), ev.RiichiAccepted(0)])
    assert rnd.players[0].riichi and rnd.scores[0] == 0 and rnd.sticks == 1


def test_riichi_needs_four_tiles_left_in_the_live_wall():
    # Tenhou: "a next turn to pick (4 or more tiles in the wall)". Seat 1 draws the 66th tile
    # (4 left): riichi is allowed; seat 2 draws the 67th (3 left): it is not.
    wall = Wall(TWO_TENPAI, avoid="1234z")
    events = wall.turns(seats_from(0, 65))
    t1 = wall.take()
    ok = [*events, ev.Draw(1, t1), ev.Riichi(1), ev.Discard(1, t1, True), ev.RiichiAccepted(1)]
    rnd = run(start(TWO_TENPAI), ok)
    assert rnd.tiles_left == 4 and rnd.players[1].riichi
    t2 = wall.take()
    plain = [*events, ev.Draw(1, t1), ev.Discard(1, t1, True), ev.Draw(2, t2)]
    assert run(start(TWO_TENPAI), plain).tiles_left == 3
    illegal(start(TWO_TENPAI), [*plain, ev.Riichi(2)], "at least 4 tiles left")


def test_double_riichi_needs_a_first_go_around_without_calls():
    # Seat 2 pons the dealer's first discard: seat 3's riichi on his first discard is a plain riichi.
    hands = ["6z2468m2468p2468s", "1357m1357p1357s7z", "66z234m678p234s33z", "123m456p789s1122z"]
    base = [draw(0, "9s"), dis(0, "6z")]
    pon = [ev.Pon(2, 0, T("6z"), (T("6z"), T("6z"))), dis(2, "3z")]
    riichi = [draw(3, "9m"), ev.Riichi(3), dis(3, "9m", True), ev.RiichiAccepted(3)]
    rnd = run(start(hands), [*base, *pon, *riichi])
    assert rnd.players[3].riichi and not rnd.players[3].double_riichi
    # Without the call (seats 1 and 2 just draw and discard) it is a double riichi.
    quiet = [draw(1, "9p"), dis(1, "9p", True), draw(2, "8s"), dis(2, "8s", True)]
    rnd = run(start(hands), [*base, *quiet, *riichi])
    assert rnd.players[3].double_riichi


def test_a_closed_kan_by_anyone_breaks_ippatsu():
    # mjx ApplyOpen: every call but an added kan clears every player's ippatsu at once.
    hands = ["123m456p789s1122z", "1111s2468m1357p6z", "1357m1357p3579s7z", "2222p3579m3579s9p"]
    riichi = [draw(0, "9m"), ev.Riichi(0), dis(0, "9m", True), ev.RiichiAccepted(0)]
    rnd = run(start(hands), riichi)
    assert rnd.players[0].ippatsu
    kan = [draw(1, "6s"), ev.ClosedKan(1, tuple(parse_tiles("1111s"))), ev.NewDora(T("3m"))]
    rnd = run(start(hands), [*riichi, *kan])
    assert not rnd.players[0].ippatsu


def test_ron_on_the_riichi_tile_pays_no_stick_and_scores_no_riichi():
    # Tenhou: "If the tile that was used to declare riichi is won off, no deposit is given out."
    hands = ["123m456p789s1122z", "1357m1357p1357s7z", "2468m2468p2468s6z", "1z99m99p99s44z55z66z"]
    events = [draw(0, "3z"), dis(0, "3z", True), draw(1, "1s"), dis(1, "1s", True)]
    events += [draw(2, "2s"), dis(2, "2s", True), draw(3, "7z"), ev.Riichi(3), dis(3, "1z")]
    rnd = run(start(hands, sticks=1), [*events, ev.Win(0, 3, T("1z"))])
    out = rnd.finish(99, None)
    assert out.deltas[0] == -out.deltas[3] + 1000  # only the stick that was already on the table
    assert rnd.scores[3] == 25000 + out.deltas[3]  # seat 3 never paid his own stick


# ---------------------------------------------------------------- kans, dora, chankan, rinshan


def test_chankan_on_an_added_kan_and_only_kokushi_robs_a_closed_kan():
    # Seat 1 pons 9m, then adds the fourth 9m: seat 3 (waiting on 9m/... with a yaku) robs it.
    hands = ["9m2468p2468s1357m", "99m2468m2468p246s", "1357p1357s1357m6z", "78m123p456p789s55z"]
    pon = [draw(0, "7z"), dis(0, "9m"), ev.Pon(1, 0, T("9m"), (T("9m"), T("9m"))), dis(1, "2m")]
    mid = [draw(2, "6s"), dis(2, "6s", True), draw(3, "1s"), dis(3, "1s", True)]
    mid += [draw(0, "3s"), dis(0, "3s", True)]
    kakan = [draw(1, "9m"), ev.AddedKan(1, T("9m"), tuple(parse_tiles("999m")))]
    rnd = run(start(hands, dora="1z"), [*pon, *mid, *kakan, ev.Win(3, 1, T("9m"))])
    yaku = dict(rnd.finish(99, None).wins[0].scored.yaku)
    assert yaku.get("chankan") == 1


def test_a_closed_kan_is_robbed_by_thirteen_orphans_under_mahjong_soul_only():
    # Seat 1 waits on East alone (kokushi) and seat 0 makes a closed kan of East. Tenhou: no ron on
    # a closed kan at all (RiichiEnv's default_tenhou(), riichi.wiki "Chankan"'s "Kokushi Denied",
    # libriichi); Mahjong Soul: kokushi may rob it (RiichiEnv's default_mjsoul()).
    from mjcli.riichi.engine.actions import legal_actions

    hands = ["1111z2468m2468p6z", "19m19p199s234567z", "1357p1357s1357m7z", "2468s3579m3579p9m"]
    kan = [draw(0, "6s"), ev.ClosedKan(0, tuple(parse_tiles("1111z"))), ev.NewDora(T("3m"))]
    robbed = ev.Win(1, 0, T("1z"))
    illegal(start(hands), [*kan, robbed], "no ron on a closed kan")
    assert robbed not in [m[0] for m in legal_actions(run(start(hands), kan), 1)]
    rnd = Round(start(hands), get_rules("majsoul"))
    for i, e in enumerate(kan, start=1):
        rnd.apply(e, i)
    assert (robbed,) in legal_actions(rnd, 1)
    rnd.apply(robbed, len(kan) + 1)
    out = rnd.finish(99, None)
    assert out.wins[0].scored.yakuman == 1 and out.deltas[1] == 32000 + 0 and out.deltas[0] == -32000
    # the three-player presets follow their sites
    assert (
        not get_rules("tenhou").kokushi_robs_closed_kan and get_rules("majsoul-sanma").kokushi_robs_closed_kan
    )


def test_rinshan_after_an_open_kan_is_scored_without_the_pending_indicator():
    # Tenhou: an open kan's indicator is turned after the kan player's discard; a rinshan win
    # before that discard does not see it (mjx: AddNewDora only on the next discard or kan).
    hands = ["5m2468p2468s1357m", "111z23m456p789s55z", "1357p1357s3579m6z", "2468m9m9p9s3z44z66z7z"]
    kan = [draw(0, "1z"), dis(0, "1z", True), ev.OpenKan(1, 0, T("1z"), tuple(parse_tiles("111z")))]
    rnd = run(start(hands, dora="9s"), [*kan, draw(1, "1m", rinshan=True), ev.Win(1, 1, T("1m"))])
    out = rnd.finish(99, None)
    assert rnd.dora == [T("9s")] and rnd.pending_dora == 1
    yaku = dict(out.wins[0].scored.yaku)
    assert yaku.get("rinshan") == 1 and "haitei" not in yaku


def _four_kans_round():
    """Seat 0 makes three closed kans, then seat 1 (or seat 0 again) the fourth."""
    hands = ["1111m2222m3333p4z", "9999s4678m4678p6z", "2468p2468s3579m7z", "3578s3579m4689p5z"]
    ev0 = [draw(0, "4z"), ev.ClosedKan(0, tuple(parse_tiles("1111m"))), ev.NewDora(T("1z"))]
    ev0 += [draw(0, "2z", rinshan=True), ev.ClosedKan(0, tuple(parse_tiles("2222m"))), ev.NewDora(T("2z"))]
    ev0 += [draw(0, "3z", rinshan=True), ev.ClosedKan(0, tuple(parse_tiles("3333p"))), ev.NewDora(T("3z"))]
    ev0 += [draw(0, "8m", rinshan=True), dis(0, "2z")]
    ev1 = [draw(1, "9m"), ev.ClosedKan(1, tuple(parse_tiles("9999s"))), ev.NewDora(T("6m"))]
    ev1 += [draw(1, "7p", rinshan=True), dis(1, "7p", True)]
    return start(hands, dora="9p"), [*ev0, *ev1]


def test_four_kans_by_two_players_abort_once_the_discard_passes():
    s, events = _four_kans_round()
    illegal(s, [*events, draw(2, "6p")], "four kans")
    rnd = run(s, [*events, ev.RoundDraw(ev.FOUR_KANS)])
    out = rnd.finish(99, None)
    assert out.kind == ev.FOUR_KANS and out.deltas == [0, 0, 0, 0] and out.dealer_continues
    illegal(s, events[:-2] + [ev.RoundDraw(ev.FOUR_KANS)], "four kans")  # not before the discard


# ---------------------------------------------------------------- furiten


def test_ron_on_a_tile_passed_earlier_in_the_same_go_around_is_furiten():
    # Tenhou: "if you pass a winning tile ... you may not ron from another player who discards the
    # same tile in that turn"; the furiten ends with one's own discard, not with a call.
    hands = ["123m456p789s1155z", "1357m1357p1379s7z", "2468m2468p2468s6z", "9m9p9s3z44z22z66z777z"]
    events = [draw(0, "3z"), dis(0, "3z", True), draw(1, "5z"), dis(1, "5z", True)]
    events += [draw(2, "1z"), dis(2, "1z", True)]
    illegal(start(hands), [*events, ev.Win(0, 2, T("1z"))], "furiten")


# ---------------------------------------------------------------- draws


def test_a_wait_held_in_ones_own_kan_is_tenpai_at_an_exhaustive_draw():
    # Tenhou scores a hand waiting on a "5th tile" whose copies are in the player's own kan as
    # tenpai (riichi.wiki "Karaten": 12s44466688p with a kan of 3s; the Tenhou-hosted 名人戦 rules:
    # 「5枚目を待つ聴牌あり(打牌選択可能な手牌で4枚使用している牌を除く)」), as libriichi and mjx do
    # (tenpai is read from the concealed tiles). Seat 1 waits on 2m only and holds a closed kan of
    # 2m: tenpai. Seat 2 (shanpon 3z/4z) is tenpai too.
    hands = ["2468p2468s1357m6z", "2222m13m456p789s1z", "345m678p234s3344z", "1357p1357s3579m9m"]
    wall = Wall(hands, avoid="1z2m3z4z")
    events = [*wall.turns([0]), ev.Draw(1, T("1z")), ev.ClosedKan(1, tuple(parse_tiles("2222m")))]
    events += [ev.NewDora(wall.take())]
    r = wall.take()
    events += [ev.Draw(1, r, True), ev.Discard(1, r, True)]
    events += wall.turns(seats_from(2, 67))
    rnd = run(start(hands), [*events, ev.RoundDraw(ev.EXHAUSTIVE)])
    assert rnd.tiles_left == 0
    assert rnd.players[1].waits() == frozenset({T("2m")})
    out = rnd.finish(999, None)
    assert out.tenpai == (False, True, True, False)
    assert out.deltas == [-1500, 1500, 1500, -1500]


def test_pure_karaten_all_four_in_the_concealed_hand_is_noten():
    # The exception of the same rule: all four copies in the concealed hand (1111m waiting on 1m).
    from mjcli.riichi.engine.state import Player
    from mjcli.riichi.formats.rounds import is_tenpai
    from mjcli.tiles import counts34

    pure = parse_tiles("1111m333p222s444z")
    assert not Player(0, list(pure), counts34(pure)).tenpai()
    assert not is_tenpai(pure)
    # 13m waiting on 2m (kanchan) beside a kan of 2222m: the concealed hand has the wait.
    held_in_kan = parse_tiles("13m456p789s11z")
    assert Player(0, list(held_in_kan), counts34(held_in_kan)).tenpai() and is_tenpai(held_in_kan)


def test_players_are_equal_whether_their_waits_were_worked_out_or_not():
    # The waits are a memo (worked out on demand, or known empty from the shanten memo after a
    # discard): two players holding and having done the same are equal either way.
    from mjcli.riichi.engine.state import Player
    from mjcli.tiles import counts34

    hand = parse_tiles("13m456p789s11z222z")
    asked, fresh = Player(0, list(hand), counts34(hand)), Player(0, list(hand), counts34(hand))
    assert asked.waits() and asked == fresh


def test_triple_ron_aborts_keeps_the_dealer_adds_a_honba_and_keeps_the_sticks():
    # Three players wait on 1p (each with a yaku): the round is aborted (Tenhou: sanchahou).
    hands = ["1p2468m2468s1234z", "123456789m1199p", "123456789s23p55z", "234m678m23p456s88s"]
    game = Game(RULES)
    game.apply(ev.StartGame(("a", "b", "c", "d")), 0)
    s = start(hands, dora="4z", sticks=1, honba=0)
    s = dataclasses.replace(s, scores=(25000, 24000, 25000, 25000))
    events = [s, draw(0, "6z"), dis(0, "1p"), ev.RoundDraw(ev.TRIPLE_RON), ev.EndRound()]
    for i, e in enumerate(events, start=1):
        game.apply(e, i)
    rec = game.rounds[-1]
    assert rec.outcome is not None and rec.outcome.kind == ev.TRIPLE_RON
    assert game.expected is not None
    assert (game.expected.round_wind, game.expected.kyoku, game.expected.honba) == (0, 1, 1)
    assert game.expected.dealer == 0 and game.expected.sticks == 1


def test_nagashi_mangan_pays_no_honba_keeps_the_sticks_and_adds_no_tenpai_payments():
    from test_engine import NAGASHI_HANDS, _full_round

    s, events = _full_round(NAGASHI_HANDS)
    s = dataclasses.replace(s, honba=2, sticks=1, scores=(24000, 25000, 25000, 25000))
    rnd = Round(s, RULES)
    for i, e in enumerate([*events, ev.RoundDraw(ev.NAGASHI_MANGAN)], start=1):
        rnd.apply(e, i)
    out = rnd.finish(999, None)
    assert out.kind == ev.NAGASHI_MANGAN
    assert out.deltas == [-4000, 8000, -2000, -2000]  # no honba, no tenpai payment for seat 0
    assert not out.sticks_taken and out.dealer_continues  # the dealer (seat 0) is tenpai


def test_a_rinshan_win_on_the_last_tile_is_rinshan_not_haitei():
    # The dealer draws the 69th tile (one left), kans, and wins on the replacement tile: that takes
    # the last tile of the wall, but haitei is only the last *live-wall draw* (mjx: is_haitei is not
    # combined with rinshan; the mahjong library refuses both at once).
    hands = ["111p456p789s12m22z", "2468m2468s3579p6z", "1357m1357s3579p7z", "3579m3579s2468p9m"]
    wall = Wall(hands, avoid="1p3m")
    events = wall.turns(seats_from(0, 68))
    events += [ev.Draw(0, T("1p")), ev.ClosedKan(0, tuple(parse_tiles("1111p"))), ev.NewDora(wall.take())]
    events += [ev.Draw(0, T("3m"), True)]
    rnd = run(start(hands), [*events, ev.Win(0, 0, T("3m"))])
    assert rnd.tiles_left == 0
    yaku = dict(rnd.finish(999, None).wins[0].scored.yaku)
    assert yaku.get("rinshan") == 1 and "haitei" not in yaku


def test_a_third_ron_is_a_win_when_the_rules_do_not_abort_triple_ron():
    # Variant rules (triple_ron_abort off): all three claimants win; honba and sticks go to the
    # first after the discarder (mjx Update: winners sorted from the discarder's right).
    rules = dataclasses.replace(RULES, triple_ron_abort=False)
    hands = ["1p2468m2468s1234z", "123456789m1199p", "123456789s23p55z", "234m678m23p456s88s"]
    rnd = Round(start(hands, dora="4z", honba=1, sticks=1), rules)
    rons = [ev.Win(3, 0, T("1p")), ev.Win(1, 0, T("1p")), ev.Win(2, 0, T("1p"))]
    events = [draw(0, "6z"), dis(0, "1p"), *rons]
    for i, e in enumerate(events, start=1):
        rnd.apply(e, i)
    out = rnd.finish(99, None)
    assert [w.actor for w in out.wins] == [3, 1, 2]
    by = {w.actor: w for w in out.wins}
    assert by[1].deltas[1] == by[1].value + 300 + 1000  # seat 1 is first from the discarder
    assert by[2].deltas[2] == by[2].value and by[3].deltas[3] == by[3].value
    # Under Tenhou's rules the third ron is not a win.
    illegal(start(hands, dora="4z"), events, "at most 2")


# ---------------------------------------------------------------- whole games


def _quick_ron_round(dealer, scores, wind=0, kyoku=1, honba=0, sticks=0):
    """The dealer's first discard (5z) is ronned by the next seat (haku shanpon 5z/6z): 1300 points."""
    winner = (dealer + 1) % 4
    hands = ["", "", "", ""]
    hands[dealer] = "5z2468m2468p2468s"
    hands[winner] = "123m456p789s5566z"
    hands[(dealer + 2) % 4] = "1357m1357p1379s7z"
    hands[(dealer + 3) % 4] = "9m9p9s3z44z22z111z77z"
    dealt = tuple(tuple(parse_tiles(h)) for h in hands)
    s = ev.StartRound(wind, kyoku, honba, sticks, dealer, T("8m"), tuple(scores), dealt)
    play = [ev.Draw(dealer, T("6z")), ev.Discard(dealer, T("5z"), False), ev.Win(winner, dealer, T("5z"))]
    return [s, *play, ev.EndRound()]


def _play(game: Game, events: list[object]) -> None:
    base = len(game.rounds) * 100
    for i, e in enumerate(events):
        game.apply(e, base + i)


def _tonpuu_game() -> Game:
    game = Game(get_rules("tenhou"))  # the log's own rules (GO type without the hanchan bit) decide
    game.apply(ev.StartGame(("a", "b", "c", "d"), ev.GameRules(length="tonpuu")), 0)
    return game


def test_an_east_only_game_extends_into_south_while_nobody_has_30000_then_ends_after_south_4():
    # Each dealer deals in 1300 to the next seat: after East 4 everyone is back at 25000, so the
    # tonpuu game goes on into South (sudden death); it ends after South 4 (Tenhou: "Sudden death
    # must end at South 4 for tonpuusen"), and not earlier since nobody reaches 30000.
    game = _tonpuu_game()
    assert game.rules.length == "tonpuu"
    for wind in (0, 1):
        for kyoku in range(1, 5):
            exp = game.expected
            assert exp is not None and (exp.round_wind, exp.kyoku, exp.honba) == (wind, kyoku, 0)
            _play(game, _quick_ron_round(kyoku - 1, exp.scores, wind, kyoku))
            assert game.rounds[-1].start_problems == []
    assert game.over and game.expected is None
    game.apply(ev.EndGame(), 9999)
    assert game.result is not None
    # All tied at 25000: places by seat order from the first dealer; uma 20/10/-10/-20, oka to first.
    assert game.result.scores == (25000, 25000, 25000, 25000)
    assert game.result.points == (35.0, 5.0, -15.0, -25.0)


def test_an_east_only_game_ends_after_east_4_once_someone_has_30000():
    game = _tonpuu_game()
    _play(game, _quick_ron_round(3, (40000, 20000, 20000, 20000), 0, 4))
    assert game.over  # seat 0 has 41300 after East 4
    hanchan = Game(get_rules("tenhou"))
    _play(hanchan, _quick_ron_round(3, (40000, 20000, 20000, 20000), 0, 4))
    assert not hanchan.over and hanchan.expected is not None and hanchan.expected.round_wind == 1


def test_tenpai_yame_ends_an_east_only_game_and_the_leftover_sticks_go_to_first():
    # South 4 (the last round of a tonpuu game, here with the dealer at seat 0 as dealt by the test):
    # the dealer is tenpai and first with 30000 or more at the exhaustive draw: the game ends
    # (Tenhou: "the game automatically stops on both dealer wins and dealer tenpai hands");
    # the stick left on the table goes to first place.
    from test_engine import NAGASHI_HANDS, _full_round

    s, events = _full_round(NAGASHI_HANDS, one_simple=True)
    s = dataclasses.replace(s, round_wind=1, kyoku=4, sticks=1, scores=(33000, 25000, 22000, 19000))
    game = _tonpuu_game()
    _play(game, [s, *events, ev.RoundDraw(ev.EXHAUSTIVE), ev.EndRound()])
    assert game.rounds[-1].outcome is not None and game.rounds[-1].outcome.dealer_continues
    assert game.over
    game.apply(ev.EndGame(), 9999)
    assert game.result is not None and game.result.scores == (33000 + 3000 + 1000, 24000, 21000, 18000)


def test_four_winds_on_a_riichi_tile_is_accepted_with_or_without_the_stick():
    # Seat 3's first discard is the fourth East and his (double) riichi tile. Whether the stick is
    # paid before the abort is not settled: mjx aborts first (IsFourWinds before RiichiScoreChange),
    # mahjax and kobalab's engine accept the riichi first, and no Tenhou log shows the case. A log
    # may do either; the engine's own table accepts the riichi (the tile was not won off), then
    # aborts.
    from mjcli.riichi.engine.actions import legal_actions, table_step

    hands = ["1z2468m2468p2468s", "1z2468m1357p1357s", "1z1357m3579p99s11s", "1z123m456p789s223z"]
    events = []
    for seat, t in enumerate(["5z", "5z", "6z"]):
        events += [draw(seat, t), dis(seat, "1z")]
    events += [draw(3, "3z"), ev.Riichi(3), dis(3, "1z")]
    rnd = run(start(hands), events)
    assert all(legal_actions(rnd, s) == [] for s in range(3))  # no ron, no call: an abort at once
    assert table_step(rnd).event == ev.RiichiAccepted(3)
    rnd.apply(ev.RoundDraw(ev.FOUR_WINDS), 99)
    assert rnd.finish(100, None).kind == ev.FOUR_WINDS and rnd.scores == [25000] * 4 and rnd.sticks == 0
    rnd = run(start(hands), [*events, ev.RiichiAccepted(3), ev.RoundDraw(ev.FOUR_WINDS)])
    assert rnd.finish(100, None).deltas == [0, 0, 0, 0] and rnd.scores[3] == 24000 and rnd.sticks == 1


def test_triple_ron_needs_three_players_who_can_really_win():
    # Seat 3 waits on 1p too, but with no yaku (no riichi, open-able shape, yakuhai-less): he cannot
    # call ron, so a triple ron is impossible (Tenhou only offers ron on a hand with a yaku).
    hands = ["1p2468m2468s1234z", "123456789m1199p", "123456789s23p55z", "234m678m23p456s66z"]
    events = [draw(0, "6z"), dis(0, "1p")]
    rnd = run(start(hands, dora="4z"), events)
    assert T("1p") in rnd.players[3].waits()
    illegal(start(hands, dora="4z"), [*events, ev.RoundDraw(ev.TRIPLE_RON)], "only 2 players")


def test_chiihou_needs_a_first_draw_with_no_call_before_and_renhou_is_no_yaku():
    # Seat 3 is dealt a hand that is complete with his first draw (1z pair, East drawn).
    hands = ["6z2468m2468p2468s", "1357m1357p1357s7z", "66z234m678p234s33z", "123m456p789s1122z"]
    first = [draw(0, "9s"), dis(0, "9s", True), draw(1, "9p"), dis(1, "9p", True)]
    first += [draw(2, "8s"), dis(2, "8s", True)]
    rnd = run(start(hands), [*first, draw(3, "1z"), ev.Win(3, 3, T("1z"))])
    assert dict(rnd.finish(99, None).wins[0].scored.yaku).get("chiihou") == 13
    # A pon (seat 2 calls the dealer's 6z) before seat 3's first draw: no chiihou, only menzen tsumo.
    called = [draw(0, "9s"), dis(0, "6z"), ev.Pon(2, 0, T("6z"), (T("6z"), T("6z"))), dis(2, "3z")]
    rnd = run(start(hands), [*called, draw(3, "1z"), ev.Win(3, 3, T("1z"))])
    yaku = dict(rnd.finish(99, None).wins[0].scored.yaku)
    assert "chiihou" not in yaku and yaku.get("tsumo") == 1
    # Renhou (Tenhou: none): seat 3 (penchan 3p, no yaku) cannot ron the dealer's first discard.
    hands_r = ["3p2468m2468p2468s", "1357m1357p1357s7z", "66z234m678p234s33z", "123m456p789s12p22z"]
    illegal(start(hands_r), [draw(0, "9m"), dis(0, "3p"), ev.Win(3, 0, T("3p"))], "no yaku")


def test_four_kans_by_one_player_go_on_and_carry_no_pao():
    # The dealer makes three closed kans, then calls the fourth North as an open kan and wins on the
    # replacement tile (suukantsu). Four kans by one player do not abort; Tenhou has pao only for
    # big three dragons and big four winds, so the player who dealt the fourth North pays his share.
    hands = ["1111m2222m3333p4z", "4z3579m2468p2468s", "1579p1357s3579m6z", "3578s3579m4689p5z"]
    ev0 = [draw(0, "4z"), ev.ClosedKan(0, tuple(parse_tiles("1111m"))), ev.NewDora(T("1z"))]
    ev0 += [draw(0, "4z", rinshan=True), ev.ClosedKan(0, tuple(parse_tiles("2222m"))), ev.NewDora(T("2z"))]
    ev0 += [draw(0, "7z", rinshan=True), ev.ClosedKan(0, tuple(parse_tiles("3333p"))), ev.NewDora(T("3z"))]
    ev0 += [draw(0, "6z", rinshan=True), dis(0, "6z", True)]
    ev1 = [draw(1, "9p"), dis(1, "4z"), ev.OpenKan(0, 1, T("4z"), tuple(parse_tiles("444z")))]
    rnd = run(start(hands, dora="9s"), [*ev0, *ev1, draw(0, "7z", rinshan=True), ev.Win(0, 0, T("7z"))])
    out = rnd.finish(99, None)
    assert dict(out.wins[0].scored.yaku).get("suukantsu") == 13
    assert rnd.pao == [None] * 4 and out.wins[0].pao is None
    assert out.deltas == [48000, -16000, -16000, -16000]
