"""A Dou Dizhu game record is checked whole before its decisions are replayed: the deal is one deck,
the auction could have happened, and the result fields are what the plays give (a reviewer found
records with impossible bids, an 18-card hand or made-up points replayed without a word)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.doudizhu.engine import DOUZERO_SETTING, DoudizhuRules, play_game
from mjcli.doudizhu.formats import walk
from mjcli.doudizhu.moves import KickerRule
from mjcli.doudizhu.policies import get_policy
from mjcli.errors import LogFormatError

NAMES = ["zhanpai", "greedy", "random"]


def _play(seed: str, rules: DoudizhuRules = DoudizhuRules()) -> dict:
    return play_game([get_policy(n) for n in NAMES], seed, rules)


def _record(want) -> dict:
    """The first game (seeds 0, 1, ...) whose record satisfies ``want``."""
    for seed in range(400):
        record = _play(str(seed))
        if want(record):
            return record
    raise AssertionError("no such game in 400 seeds")


def _problem(record: dict) -> str:
    with pytest.raises(LogFormatError) as info:
        list(walk(record))
    return str(info.value)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    kicker=st.sampled_from(list(KickerRule)),
    base=st.integers(1, 3),
    springs=st.booleans(),
)
def test_every_record_the_engine_writes_is_accepted(seed, kicker, base, springs):
    rules = DoudizhuRules(kicker=kicker, base=base, springs=springs)
    for record in (_play(str(seed), rules), _play(str(seed), DOUZERO_SETTING)):
        # through JSON, as a file gives it back
        points = list(walk(json.loads(json.dumps(record))))
        assert len(points) == len(record["bids"]) + len(record["plays"])


def test_a_record_without_its_result_fields_is_walked():
    record = _play("5")
    for key in ("winner", "landlord_won", "bombs", "spring", "stake", "points", "first_bidder"):
        del record[key]
    assert list(walk(record))


def _three_bids(record: dict) -> bool:
    return len(record["bids"]) == 3 and max(level for _, level in record["bids"]) > 0


BIDDING_CASES = {
    "landlord not the top bidder": (
        lambda r: r.update(landlord=(r["landlord"] + 1) % 3),
        "where the bids make seat",
    ),
    "bid above the top bid": (lambda r: r.update(bid=99), "at bid 99"),
    "a bid after the auction ended": (
        lambda r: r.update(bids=[[r["first_bidder"], 3], [(r["first_bidder"] + 1) % 3, 0]], bid=3),
        "comes after a 3",
    ),
    "a bid not above the highest": (
        lambda r: r.update(
            bids=[[(r["first_bidder"] + i) % 3, level] for i, level in enumerate((2, 1, 0))],
            landlord=r["first_bidder"],
            bid=2,
        ),
        "is not above the highest bid 2",
    ),
    "a seat bidding out of turn": (
        lambda r: r["bids"].__setitem__(1, [r["bids"][2][0], r["bids"][1][1]]),
        "expected seat",
    ),
    "two bids, no 3": (lambda r: r["bids"].pop(), "each seat bids once"),
    "no bids at all": (lambda r: r.update(bids=[]), "no bids"),
    "the first bidder recorded apart": (
        lambda r: r.update(first_bidder=(r["first_bidder"] + 1) % 3),
        "first_bidder is",
    ),
}


@pytest.mark.parametrize("case", list(BIDDING_CASES))
def test_an_impossible_auction_is_reported(case):
    record = _record(lambda r: _three_bids(r) and max(level for _, level in r["bids"]) < 3)
    change, message = BIDDING_CASES[case]
    bad = copy.deepcopy(record)
    change(bad)
    assert message in _problem(bad)


def test_all_passing_leaves_the_first_bidder_landlord_at_one():
    record = _record(lambda r: _three_bids(r) and r["landlord"] == r["first_bidder"])
    passed = copy.deepcopy(record)
    passed["bids"] = [[seat, 0] for seat, _ in record["bids"]]
    passed.update(landlord=record["first_bidder"], bid=1)
    for key in ("stake", "points", "spring", "winner", "landlord_won", "bombs"):
        del passed[key]
    passed["redeals"] = 20  # the engine's cap of all-pass deals
    assert list(walk(passed))  # the landlord's plays come first, as recorded
    assert "redeals 0" in _problem({**passed, "redeals": 0})
    assert "redeals: a whole number" in _problem({**passed, "redeals": "zz"})
    passed["bid"] = 2
    assert "at bid 2" in _problem(passed)


def test_a_game_without_bidding_has_no_bids_and_bid_one():
    record = _play("3", DOUZERO_SETTING)
    list(walk(record))
    assert "bids in a game without bidding" in _problem({**record, "bids": [[0, 1], [1, 0], [2, 0]]})
    assert "(1 expected)" in _problem({**record, "bid": 2})


def test_a_deal_that_is_not_one_deck_is_reported():
    record = _play("8")
    longer = copy.deepcopy(record)
    longer["hands"][1] = "3" + longer["hands"][1]
    assert "hands of 17, 18, 17 cards" in _problem(longer)
    # sizes kept, but one card doubled: the hand's first card changed into the kitty's first
    doubled = copy.deepcopy(record)
    hand = doubled["hands"][0]
    other = next(c for c in doubled["kitty"] if c != hand[0] and c not in "BR")
    doubled["hands"][0] = "".join(sorted(other + hand[1:], key="3456789TJQKA2BR".index))
    assert "not one deck" in _problem(doubled)


RESULT_CASES = {
    "winner": lambda r: (r["winner"] + 1) % 3,
    "landlord_won": lambda r: not r["landlord_won"],
    "bombs": lambda r: r["bombs"] + 1,
    "spring": lambda r: not r["spring"],
    "stake": lambda r: r["stake"] * 2,
    "points": lambda r: [-p for p in r["points"]],
}


@pytest.mark.parametrize("key", list(RESULT_CASES))
def test_a_result_the_plays_do_not_give_is_reported(key):
    record = _play("11")
    bad = {**record, key: RESULT_CASES[key](record)}
    assert f"{key} is " in _problem(bad)
    # a number where a flag belongs is not the flag
    if isinstance(record[key], bool):
        assert "the plays give" in _problem({**record, key: int(record[key])})


def test_a_pass_holding_cards_is_reported():
    record = _record(lambda r: any(p[2] == "pass" for p in r["plays"]))
    bad = copy.deepcopy(record)
    i = next(i for i, p in enumerate(bad["plays"]) if p[2] == "pass")
    bad["plays"][i] = [bad["plays"][i][0], "BR", "pass", "", 7]
    assert f"play {i}: a pass with cards 'BR'" in _problem(bad)


@pytest.mark.parametrize("rules", [{"base": 0}, {"base": "2"}, {"bidding": 1}, {"springs": None}])
def test_rule_fields_of_the_wrong_type_are_reported(rules):
    record = _play("2")
    bad = {**record, "rules": {**record["rules"], **rules}}
    assert "malformed record (rules:" in _problem(bad)
