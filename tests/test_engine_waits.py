"""The engine's fast waits / agari tests against the ``mahjong`` library's shanten (independent code)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten
from shared import LOGS

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.table import Game
from mjcli.riichi.engine.waits import is_complete, is_tenpai, waits
from mjcli.riichi.formats import read_log
from mjcli.tiles import counts34, parse_tiles

kinds = st.integers(0, 33)


def brute_waits(counts: list[int]) -> frozenset[int]:
    out = set()
    for k in range(34):
        if counts[k] >= 4:
            continue
        counts[k] += 1
        if Shanten.calculate_shanten(counts) == -1:
            out.add(k)
        counts[k] -= 1
    return frozenset(out)


@st.composite
def complete_hands(draw) -> list[int]:
    """Four sets and a pair (or seven pairs), as 34 counts with at most four of a kind."""
    counts = [0] * 34
    if draw(st.booleans()) and draw(st.booleans()):
        for k in draw(st.lists(kinds, min_size=7, max_size=7, unique=True)):
            counts[k] = 2
        return counts
    while True:
        counts = [0] * 34
        for _ in range(4):
            if draw(st.booleans()):
                k = draw(kinds)
                counts[k] += 3
            else:
                suit = draw(st.integers(0, 2))
                lo = suit * 9 + draw(st.integers(0, 6))
                for x in (lo, lo + 1, lo + 2):
                    counts[x] += 1
        counts[draw(kinds)] += 2
        if max(counts) <= 4:
            return counts


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(complete_hands(), st.integers(0, 13))
def test_waits_of_tenpai_hands_match_the_library(counts, which):
    assert is_complete(counts)
    tiles = [k for k in range(34) for _ in range(counts[k])]
    counts[tiles[which]] -= 1
    assert waits(counts) == brute_waits(counts)
    assert waits(counts)  # it was one tile from complete
    assert is_tenpai(counts)


@settings(max_examples=300, deadline=None)
@given(st.lists(kinds, min_size=13, max_size=13))
def test_waits_of_any_hand_match_the_library(tiles):
    counts = counts34(tiles)
    if max(counts) > 4:
        return
    assert waits(counts) == brute_waits(counts)
    assert bool(waits(counts)) == (Shanten.calculate_shanten(counts) == 0 and bool(brute_waits(counts)))
    assert is_tenpai(counts) == bool(waits(counts))


@settings(max_examples=200, deadline=None)
@given(st.lists(kinds, min_size=14, max_size=14))
def test_is_complete_matches_the_library(tiles):
    counts = counts34(tiles)
    if max(counts) > 4:
        return
    assert is_complete(counts) == (Shanten.calculate_shanten(counts) == -1)


def test_is_tenpai_is_a_wait_found_on_walked_hands():
    """is_tenpai says what ``bool(waits())`` says, on every 13-tile hand left by a discard of a
    shared hanchan (most far from tenpai, some waiting, seven pairs and orphans shapes included)."""
    checked = waiting = 0
    for path in sorted((LOGS / "tenhou-xml").glob("2010*.mjlog"))[:3]:
        for g in read_log(path):
            game = Game()
            for i, e in enumerate(g.events):
                game.apply(e, i)
                rec = game.current
                if type(e) is ev.Discard and rec is not None:
                    counts = rec.state.players[e.actor].counts
                    assert is_tenpai(counts) == bool(waits(counts))
                    checked += 1
                    waiting += bool(waits(counts))
    assert checked > 1000 and waiting > 50


def test_known_waits():
    def w(text):
        return sorted(waits(counts34(parse_tiles(text))))

    assert w("1112345678999m") == list(range(9))  # nine gates
    assert w("19m19p19s1234567z") == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]  # 13-sided
    assert w("1122334455667m") == [0, 3, 6]  # seven pairs and runs
    assert w("1111m2345p678s99s") == []  # 1m is not a wait: all four are in the hand
    assert w("2345m") == [1, 4]  # a 4-tile hand with melds elsewhere


def test_the_suit_memos_are_bounded_and_stay_right(monkeypatch):
    # a long run meets more suit vectors the more games it reads: the memos are emptied at their
    # limit (waits._MEMO_LIMIT), and the answers after that are the library's all the same
    import random

    from mjcli.riichi.engine import waits as waits_module

    monkeypatch.setattr(waits_module, "_MEMO_LIMIT", 30)
    # empty memos of their own (the test's others filled the module's), restored after it
    monkeypatch.setattr(waits_module, "_flags_cache", {})
    monkeypatch.setattr(waits_module, "_adds_cache", {})
    rng = random.Random(11)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(150):
        rng.shuffle(wall)
        counts = counts34(wall[:13])
        assert waits(counts) == brute_waits(counts)
        assert len(waits_module._flags_cache) <= 30
        assert len(waits_module._adds_cache) <= 30
