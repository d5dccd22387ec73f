"""Between rounds: dealer rotation, honba and sticks, and when a game is over (Tenhou rules)."""

from __future__ import annotations

import dataclasses

import pytest

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.table import RoundStart, next_round
from mjcli.riichi.rules import get_rules

HANCHAN = get_rules("tenhou")
TONPUU = get_rules("tenhou-tonpuu")


def rs(wind, kyoku, dealer, scores, honba=0, sticks=0):
    return RoundStart(wind, kyoku, honba, sticks, dealer, tuple(scores))


EVEN = (25000, 25000, 25000, 25000)
TOP_0 = (35000, 25000, 20000, 20000)  # seat 0 first with enough
LOW = (29000, 27000, 23000, 21000)  # nobody has 30000


@pytest.mark.parametrize(
    ("done", "kind", "renchan", "taken", "rules", "expected"),
    [
        # Ordinary rotation and renchan in the middle of the game.
        (rs(0, 1, 0, EVEN), "ron", False, True, HANCHAN, (0, 2, 0, 1)),
        (rs(0, 1, 0, EVEN, honba=2), "tsumo", True, True, HANCHAN, (0, 1, 3, 0)),
        (rs(0, 4, 3, EVEN), "ron", False, True, HANCHAN, (1, 1, 0, 0)),  # E4 -> S1 in a hanchan
        (rs(0, 2, 1, EVEN, honba=1), ev.EXHAUSTIVE, False, False, HANCHAN, (0, 3, 2, 2)),  # noten dealer
        (rs(0, 2, 1, EVEN), ev.NINE_TERMINALS, True, False, HANCHAN, (0, 2, 1, 1)),
        # The last round: over once someone has 30000, unless the dealer goes on without being first.
        (rs(1, 4, 3, TOP_0), "ron", False, True, HANCHAN, None),
        (rs(1, 4, 3, LOW), "ron", False, True, HANCHAN, (2, 1, 0, 0)),  # into the West round
        (rs(1, 4, 0, TOP_0), "tsumo", True, True, HANCHAN, None),  # agari-yame
        (rs(1, 4, 0, TOP_0), ev.EXHAUSTIVE, True, False, HANCHAN, None),  # tenpai-yame
        (rs(1, 4, 1, TOP_0), "tsumo", True, True, HANCHAN, (1, 4, 1, 1)),  # dealer not first: renchan
        (rs(1, 4, 0, LOW), "tsumo", True, True, HANCHAN, (1, 4, 1, 0)),  # first but under 30000
        (rs(1, 4, 0, TOP_0), ev.FOUR_WINDS, True, False, HANCHAN, (1, 4, 1, 0)),  # aborts go on
        # The West round is sudden death, and West 4 is the very last round.
        (rs(2, 1, 0, TOP_0), "ron", False, True, HANCHAN, None),
        (rs(2, 2, 1, TOP_0), ev.EXHAUSTIVE, True, False, HANCHAN, (2, 2, 1, 1)),
        (rs(2, 4, 3, LOW), "ron", False, True, HANCHAN, None),
        (rs(2, 4, 3, LOW), ev.EXHAUSTIVE, True, False, HANCHAN, (2, 4, 1, 3)),
        # West 4: the dealer first with 30000 stops; first below 30000 plays on (West 4-1, as Tenhou
        # and libriichi); a dealer not first plays on even when another has 30000
        (rs(2, 4, 0, TOP_0), ev.EXHAUSTIVE, True, False, HANCHAN, None),
        (rs(2, 4, 0, LOW), ev.EXHAUSTIVE, True, False, HANCHAN, (2, 4, 1, 0)),
        (rs(2, 4, 0, LOW), "tsumo", True, True, HANCHAN, (2, 4, 1, 0)),
        (rs(2, 4, 1, TOP_0), "tsumo", True, True, HANCHAN, (2, 4, 1, 1)),
        (rs(1, 4, 0, LOW), "ron", True, True, TONPUU, (1, 4, 1, 0)),  # South 4 of East-only: the same
        (rs(2, 3, 0, LOW), "tsumo", True, True, HANCHAN, (2, 3, 1, 0)),  # not yet West 4: goes on
        # East-only games end after East 4 and extend into South.
        (rs(0, 4, 3, TOP_0), "ron", False, True, TONPUU, None),
        (rs(0, 4, 3, LOW), "ron", False, True, TONPUU, (1, 1, 0, 0)),
        (rs(1, 4, 3, LOW), "ron", False, True, TONPUU, None),
        # Busting (below zero, not at zero) ends the game anywhere.
        (rs(0, 1, 0, (50000, 30100, 20000, -100)), "ron", False, True, HANCHAN, None),
        (rs(0, 1, 0, (50000, 30000, 20000, 0)), "ron", False, True, HANCHAN, (0, 2, 0, 1)),
    ],
)
def test_next_round(done, kind, renchan, taken, rules, expected):
    nxt = next_round(done, kind, renchan, taken, rules)
    if expected is None:
        assert nxt is None
    else:
        assert nxt is not None
        assert (nxt.round_wind, nxt.kyoku, nxt.honba, nxt.dealer) == expected
        assert nxt.scores == done.scores and nxt.sticks == done.sticks


def test_no_sudden_death_and_no_agariyame_variants():
    plain = dataclasses.replace(HANCHAN, sudden_death=False, agariyame=False)
    assert next_round(rs(1, 4, 3, LOW), "ron", False, True, plain) is None
    # without agariyame the leading dealer of the last round plays on (with agariyame he stops)
    assert next_round(rs(1, 4, 0, TOP_0), "tsumo", True, True, HANCHAN) is None
    assert next_round(rs(1, 4, 0, TOP_0), "tsumo", True, True, plain) == rs(1, 4, 0, TOP_0, honba=1)


def test_without_tenpaiyame_a_dealer_tenpai_in_first_place_plays_on():
    """Tenhou in February 2009 (fixtures/logs/2009022022gm-00a9-0000-cd94aac8.mjlog): a dealer's win
    in first place ended the game, the dealer's tenpai at the wall's end did not."""
    old = dataclasses.replace(HANCHAN, tenpaiyame=False)
    assert next_round(rs(1, 4, 0, TOP_0), ev.EXHAUSTIVE, True, False, old) == rs(1, 4, 0, TOP_0, honba=1)
    assert next_round(rs(1, 4, 0, TOP_0), ev.NAGASHI_MANGAN, True, False, old) == rs(1, 4, 0, TOP_0, honba=1)
    assert next_round(rs(1, 4, 0, TOP_0), "tsumo", True, True, old) is None  # agari-yame still
    # tenpai-yame is a stop of agari-yame's kind: without agari-yame neither stops
    plain = dataclasses.replace(HANCHAN, agariyame=False)
    assert next_round(rs(1, 4, 0, TOP_0), ev.EXHAUSTIVE, True, False, plain) == rs(1, 4, 0, TOP_0, honba=1)
