"""The Hong Kong engine: claim priority, kongs and robbing, bonus tiles and replacements from the
back, the deal passing round, and (property tests) random games that keep every tile, settle to
zero and replay through the log walker exactly."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcli.hk.engine import CLAIM, OVER, ROB, TURN, GameProgress, HandResult, HandState, Move, placements
from mjcli.hk.engine.actions import parse_move
from mjcli.hk.engine.wall import Wall, shuffled
from mjcli.hk.formats import GameEnd, HandEnd, walk, write_game
from mjcli.hk.formats.hklog import read_game
from mjcli.hk.notation import BONUS_TILES, JOKER, full_set, parse_hand, tile_code, tile_text
from mjcli.hk.rules import get_rules

HK = get_rules("hk")
ZERO = dataclasses.replace(HK, min_faan=0)


def T(text: str) -> list[int]:
    """Tile codes of mpsz text with bonus tiles as separate words (``"44p55p F2"``)."""
    out: list[int] = []
    for word in text.split():
        out.extend(
            [tile_code(word)] if word[0] in "FS" and word[1:].isdigit() else parse_hand(word, jokers=True)
        )
    return out


def wall_for(dealer: int, hands: list[str], front: str = "", back: str = "", jokers: int = 0) -> list[int]:
    """A wall that deals ``hands`` (seat order; the dealer's has 14 tiles, the 14th written last),
    then gives ``front`` to the next draws and ``back`` to the replacements, in the order taken."""
    dealt = [T(h) for h in hands]
    assert [len(d) for d in dealt] == [14 if s == dealer else 13 for s in range(4)]
    rest = full_set(jokers)
    for tiles in [*dealt, T(front), T(back)]:
        for t in tiles:
            rest.remove(t)  # a fifth copy fails here
    order: list[int] = []
    pos = [0, 0, 0, 0]
    for size in (4, 4, 4, 1):
        for i in range(4):
            s = (dealer + i) % 4
            order.extend(dealt[s][pos[s] : pos[s] + size])
            pos[s] += size
    order.append(dealt[dealer][13])
    return order + T(front) + rest + list(reversed(T(back)))


def pass_all(s: HandState) -> None:
    while s.phase in (CLAIM, ROB):
        for seat, legal in list(s.pending().items()):
            s.act(seat, next(m for m in legal if m.kind == "pass"))


def test_wall_layout_and_deal() -> None:
    w = Wall(shuffled(7, 0))
    hands = w.deal(2)
    assert [len(h) for h in hands] == [13, 13, 14, 13]
    assert w.left == 144 - 53
    last = w.tiles[-1]
    assert w.draw_back() == last and w.left == 90
    assert sorted(shuffled(7, 0)) == full_set(0) and sorted(shuffled(7, 0, 4)) == full_set(4)
    assert shuffled(7, 0) == shuffled(7, 0) and shuffled(7, 0) != shuffled(7, 1)


DEALER = "111m222m333m4p9p6z7z5s"  # 14 tiles: discards 5s first
CHOWS = "46s123p789p456m7z8s"  # seat 1 can chow 5s with 46s
PUNGS = "55s789m456p1z2z3z4z9s"  # seat 2 can pung 5s


def test_bonus_tiles_are_set_aside_and_replaced_from_the_back() -> None:
    wall = wall_for(0, [DEALER, "44p55p66p77s88s99s F2", PUNGS, "567p789s234m678m9m"], back="1z")
    s = HandState(HK, wall, 0, 0)
    assert s.events[0] == [1, "replace 1z"]
    assert s.bonus[1] == [tile_code("F2")] and s.counts[1][tile_code("1z")] == 1
    assert s.phase == TURN and s.actor == 0 and s.drawn == tile_code("5s")
    assert s.context(1, False).flowers == (2,)


def test_claim_priority_win_beats_pung_beats_chow() -> None:
    wall = wall_for(0, [DEALER, CHOWS, PUNGS, "567p789s234m678m5s"])  # seat 3 waits on 5s alone
    s = HandState(ZERO, wall, 0, 0)
    s.act(0, Move("discard", tile_code("5s")))
    pend = s.pending()
    assert {m.kind for m in pend[1]} == {"chow", "pass"}
    assert {m.kind for m in pend[2]} == {"pung", "pass"}
    assert {m.kind for m in pend[3]} == {"win", "pass"}
    s.act(1, next(m for m in pend[1] if m.kind == "chow"))
    s.act(2, Move("pung", tile_code("5s")))
    assert s.phase == CLAIM  # every seat with an option answers before anything happens
    s.act(3, Move("win", tile_code("5s")))
    r = s.result
    assert s.phase == OVER and r.winner == 3 and r.discarder == 0 and r.how == "discard"
    assert sum(r.deltas) == 0 and r.deltas[0] == 2 * r.deltas[1] == 2 * r.deltas[2] < 0


def test_pung_beats_chow_and_the_caller_only_discards() -> None:
    wall = wall_for(0, [DEALER, CHOWS, PUNGS, "567p789s234m678m9m"])
    s = HandState(ZERO, wall, 0, 0)
    s.act(0, Move("discard", tile_code("5s")))
    s.act(1, next(m for m in s.pending()[1] if m.kind == "chow"))
    s.act(2, Move("pung", tile_code("5s")))
    assert s.phase == TURN and s.actor == 2 and s.after_call and s.drawn is None
    assert all(m.kind == "discard" for m in s.pending()[2])
    assert s.melds[2][0].kind == "pon" and s.melds[2][0].from_seat == 0 and s.rivers[0] == []
    assert s.events[-1] == [2, "pung 5s"]


def test_head_bump_the_first_winner_after_the_discarder() -> None:
    wall = wall_for(0, [DEALER, "147s258p369m1z2z3z4z", "5s789m456p123s111z", "5s567p789s456s678m"])
    s = HandState(ZERO, wall, 0, 0)
    s.act(0, Move("discard", tile_code("5s")))
    pend = s.pending()
    assert set(pend) == {2, 3}
    s.act(3, Move("win", tile_code("5s")))
    s.act(2, Move("win", tile_code("5s")))
    assert s.result.winner == 2


def test_an_added_kong_can_be_robbed() -> None:
    # seat 1 pungs the dealer's 9p, draws the fourth 9p and adds it; seat 2 waits on 6p-9p
    hands = [
        "111m222m333m4p6z7z5s9p",
        "99p123s456s7s8s1z5z6z",
        "78p123m456m789s11z",
        "1s2s3s4s5s6s7s8s9s5p5p4p3p",
    ]
    wall = wall_for(0, hands, front="7z4z1p9p")
    s = HandState(ZERO, wall, 0, 0)
    s.act(0, Move("discard", tile_code("9p")))
    assert {m.kind for m in s.pending()[2]} == {"win", "pass"}  # seat 2 could win on it: it waits
    s.act(2, Move("pass"))
    s.act(1, Move("pung", tile_code("9p")))
    s.act(1, Move("discard", tile_code("6z")))
    pass_all(s)
    s.act(2, Move("discard", tile_code("7z")))  # seat 2 drew 7z
    pass_all(s)
    s.act(3, Move("discard", tile_code("4z")))
    pass_all(s)
    s.act(0, Move("discard", tile_code("1p")))
    pass_all(s)
    assert s.actor == 1 and s.drawn == tile_code("9p")
    assert Move("akong", tile_code("9p")) in s.pending()[1]
    s.act(1, Move("akong", tile_code("9p")))
    assert s.phase == ROB and set(s.pending()) == {2}
    s.act(2, Move("win", tile_code("9p")))
    r = s.result
    assert r.how == "robbing a kong" and r.winner == 2 and r.discarder == 1
    assert "robbing_kong" in r.score.item_ids() and sum(r.deltas) == 0


def test_kong_replacement_from_the_back_and_its_win() -> None:
    wall = wall_for(0, ["1111m234p567p789s5z", CHOWS, PUNGS, "567p789s234m678m9m"], back="5z")
    s = HandState(ZERO, wall, 0, 0)
    assert Move("ckong", 0) in s.pending()[0]
    s.act(0, Move("ckong", 0))
    assert s.events[-1] == [0, "replace 5z"] and s.drawn == tile_code("5z")
    assert Move("win", tile_code("5z")) in s.pending()[0]
    s.act(0, Move("win", tile_code("5z")))
    items = s.result.score.item_ids()
    assert "kong_replacement" in items and "self_drawn" in items and "fully_concealed" in items
    assert "heavenly" not in items  # the kong came first


def test_heavenly_and_earthly_hands() -> None:
    wall = wall_for(0, ["123m456m789m123p55z", CHOWS, PUNGS, "567p789s234m678m9m"])
    s = HandState(HK, wall, 0, 0)
    s.act(0, Move("win", tile_code("5z")))
    assert s.result.score.item_ids() == ["heavenly"] and s.result.score.faan == 13
    wall = wall_for(0, [DEALER, "5s567p789s456s678m", "789m456p1z2z3z4z1s9s6s", "147s258p369m1z2z3z4z"])
    s = HandState(HK, wall, 0, 0)
    s.act(0, Move("discard", tile_code("5s")))
    s.act(1, Move("win", tile_code("5s")))
    assert s.result.score.item_ids() == ["earthly"]


def test_exhausted_wall_is_a_draw_and_the_dealer_keeps_the_deal() -> None:
    progress = GameProgress(HK)
    progress.after(HandResult("draw", "exhausted"))
    assert (progress.dealer, progress.repeat, progress.label()) == (0, 1, "E1-1")
    progress.after(HandResult("win", "discard", 0, 1, 5, None, [8, -4, -2, -2]))
    assert (progress.dealer, progress.repeat) == (0, 2)
    progress.after(HandResult("win", "discard", 2, 1, 5, None, [0, -4, 8, -4]))
    assert (progress.dealer, progress.repeat, progress.label()) == (1, 0, "E2-0")
    for winner in (2, 3, 0):
        progress.after(HandResult("win", "self-drawn", winner, None, 5, None, [0, 0, 0, 0]))
    assert progress.prevailing == 1 and progress.finished  # the East round is over
    assert placements([0, 5, 5, -10]) == [3, 1, 2, 4]


def test_a_hand_played_out_ends_in_a_draw_when_the_wall_is_empty() -> None:
    s = HandState(HK, shuffled(11, 0), 0, 0)
    while s.result is None:
        for seat, legal in list(s.pending().items()):
            if s.phase == TURN:
                # the tile just drawn goes at once (after a call: the last tile); no win is taken
                s.act(seat, next((m for m in legal if m.kind == "discard" and m.tile == s.drawn), legal[-1]))
            else:
                s.act(seat, next(m for m in legal if m.kind == "pass"))
    assert s.result.kind == "draw" and s.wall.left == 0 and s.result.deltas == [0, 0, 0, 0]


def test_the_discard_after_the_last_tile_is_claimed_for_a_win_only() -> None:
    """Players who call whatever they can (and never win): once the wall is empty, the discard on
    offer can only be won on, so the hand ends at the first discard after the last tile (a
    reviewer found simulated hands with a chow of it, then another discard won as "last tile")."""
    met = 0
    for seed in range(12):
        s = HandState(HK, shuffled(seed, 0), 0, 0)
        discards_after_last = 0
        while s.result is None:
            for seat, legal in list(s.pending().items()):
                if s.phase == CLAIM and s.wall.left == 0:
                    assert {m.kind for m in legal} <= {"win", "pass"}, legal
                calls = [m for m in legal if m.kind in ("pung", "chow", "kong", "ckong", "akong")]
                if s.phase == TURN:
                    move = calls[0] if calls else next(m for m in legal if m.kind == "discard")
                    if move.kind == "discard" and s.wall.left == 0:
                        discards_after_last += 1
                else:
                    move = calls[0] if calls else next(m for m in legal if m.kind == "pass")
                s.act(seat, move)
        assert discards_after_last <= 1
        met += discards_after_last
    assert met > 0  # some hands did reach the last discard


def test_move_text_round_trip() -> None:
    for text in (
        "discard 5m",
        "win 7z",
        "ckong 1p",
        "akong 9s",
        "pung 3z",
        "kong 2m",
        "chow 5m 46m",
        "pass",
        "discard J",
    ):
        assert parse_move(text).text() == text


# ---------------------------------------------------------------- random games


def play_random(rules, seed: int, hands: int = 3) -> dict:
    """A game of random legal moves (a win always taken), logged as simulate logs it."""
    rng = random.Random(seed)
    progress = GameProgress(dataclasses.replace(rules, max_hands=hands))
    out = []
    while not progress.finished:
        wall = shuffled(seed, progress.hand_index, rules.jokers)
        st_ = HandState(progress.rules, wall, progress.dealer, progress.prevailing)
        while st_.result is None:
            for s, legal in st_.pending().items():
                wins = [m for m in legal if m.kind == "win"]
                calls = [m for m in legal if m.kind != "pass"]
                move = wins[0] if wins else rng.choice(calls if calls and rng.random() < 0.5 else legal)
                st_.act(s, move)
            tiles = (
                sum(sum(c) for c in st_.counts)
                + sum(st_.jokers)
                + sum(len(b) for b in st_.bonus)
                + sum(len(r) for r in st_.rivers)
                + sum(len(m.tiles) for ms in st_.melds for m in ms)
                + st_.wall.left
            )
            assert tiles == 144 + rules.jokers
        r = st_.result
        assert sum(r.deltas) == 0
        if r.kind == "win":
            assert r.score.legal(rules.min_faan)
        record = {
            "index": progress.hand_index,
            "round": progress.label(),
            "prevailing": "ESWN"[progress.prevailing],
            "dealer": progress.dealer,
            "repeat": progress.repeat,
            "wall": [tile_text(t) for t in wall],
            "events": st_.events,
            "result": r.to_dict(),
        }
        progress.after(r)
        record["scores"] = list(progress.scores)
        out.append(record)
    assert sum(progress.scores) == 0
    return {
        "format": "mjcli-hk-log",
        "version": 1,
        "game": rules.name,
        "rules": progress.rules.to_dict(),
        "seed": seed,
        "deal": 0,
        "rotation": 0,
        "players": ["random"] * 4,
        "hands": out,
        "final": {"scores": list(progress.scores), "placements": placements(progress.scores)},
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), min_faan=st.integers(0, 3), red=st.booleans())
def test_random_games_keep_tiles_settle_to_zero_and_replay(
    seed: int, min_faan: int, red: bool, tmp_path_factory
) -> None:
    rules = dataclasses.replace(get_rules("red" if red else "hk"), min_faan=min_faan)
    game = play_random(rules, seed)
    path = tmp_path_factory.mktemp("g") / "g.json"
    path.write_text(write_game(game))
    again = read_game(path)
    decisions = 0
    for item in walk(again):
        if isinstance(item, (HandEnd, GameEnd)):
            assert not item.mismatches, item.mismatches
        else:
            decisions += 1
    assert decisions > 0


def test_jokers_are_never_claimable() -> None:
    red = get_rules("red")
    for seed in range(40):
        s = HandState(red, shuffled(seed, 0, 4), 0, 0)
        if s.counts[0] and s.jokers[0]:
            s.act(0, Move("discard", JOKER))
            assert s.phase == TURN and s.actor == 1  # nobody was asked: seat 1 drew
            return
    pytest.skip("no dealt joker in 40 walls")


def test_bonus_tiles_never_in_hands() -> None:
    s = HandState(HK, shuffled(3, 0), 0, 0)
    assert sum(s.counts[0]) == 14 and all(sum(s.counts[x]) == 13 for x in (1, 2, 3))
    assert all(b in BONUS_TILES for hand in s.bonus for b in hand)
