"""Hong Kong faan: the issue's eight worked examples through the command line, every item of the
default table on hands made for it, the variants, the payments and the Red jokers."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import InvalidHandError, ScoringError, UsageError
from mjcli.hk.rules import ITEMS, PAYMENTS, get_rules, settlement
from mjcli.hk.scoring import score_typed, splits

HK = get_rules("hk")
RED = get_rules("red")
runner = CliRunner()


def cli(*args: str):
    return runner.invoke(app, ["score", "--game", "hk", *args, "--json"])


# the issue's examples: seat East, round East, a discard win unless --tsumo, no bonus tiles
EXAMPLES = [
    (["234m345p456s678s22m", "--win", "8s"], 3, ["common_hand", "fully_concealed", "no_bonus"]),
    (
        ["234m345p456s678s22m", "--win", "8s", "--tsumo"],
        4,
        ["common_hand", "self_drawn", "fully_concealed", "no_bonus"],
    ),
    (
        ["999s777z22s", "--win", "2s", "--melds", "pon:111m,pon:555p"],
        5,
        ["all_pungs", "dragon_pung", "no_bonus"],
    ),
    (["123345666789m99m", "--win", "9m"], 9, ["all_one_suit", "fully_concealed", "no_bonus"]),
    (
        ["123456789p55z", "--win", "9p", "--melds", "pon:111z"],
        6,
        ["mixed_one_suit", "seat_wind", "prevailing_wind", "no_bonus"],
    ),
    (
        ["234m345p456s678s22m", "--win", "8s", "--flowers", "1"],
        3,
        ["common_hand", "fully_concealed", "own_flower"],
    ),
    (["19m19p19s1234567z1m", "--win", "1m"], 13, ["thirteen_orphans"]),
]


@pytest.mark.parametrize(("args", "faan", "items"), EXAMPLES)
def test_issue_examples(args: list[str], faan: int, items: list[str]) -> None:
    result = cli(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["faan"] == faan
    assert [i["id"] for i in data["items"]] == items
    assert sum(i["faan"] for i in data["items"]) == faan or data["limit"]


def test_issue_example_8_is_refused() -> None:
    result = cli("234m345p678s22m", "--win", "8s", "--melds", "chi:456s", "--flowers", "2")
    assert result.exit_code != 0
    assert isinstance(result.exception, ScoringError)
    assert "1 faan, the table's minimum is 3" in str(result.exception)
    # the same hand is 1 faan (common hand alone) at a table of minimum 1
    ok = cli("234m345p678s22m", "--win", "8s", "--melds", "chi:456s", "--flowers", "2", "--min-faan", "1")
    assert json.loads(ok.stdout)["faan"] == 1
    assert [i["id"] for i in json.loads(ok.stdout)["items"]] == ["common_hand"]


def test_example_red_dragon_name_and_payment() -> None:
    data = json.loads(cli("999s777z22s", "--win", "2s", "--melds", "pon:111m,pon:555p").stdout)
    assert data["items"][1]["name"] == "dragon pung (Red)"
    assert data["base"] == 32 and data["payments"] == {"discarder": 64, "others": 32} and data["total"] == 128


def test_riichi_refuses_hong_kong_options() -> None:
    result = runner.invoke(
        app, ["score", "123m456p789s11z", "--win", "1z", "--melds", "pon:555z", "--flowers", "1"]
    )
    assert result.exit_code != 0 and "--flowers does not apply to score --game riichi" in str(
        result.exception
    )


def ids(hand: str, win: str | None = None, rules=HK, **kw) -> tuple[int, list[str]]:
    t = score_typed(hand, win, rules, **kw)
    return t.score.faan, t.score.item_ids()


ZERO = dataclasses.replace(HK, min_faan=0)


@pytest.mark.parametrize(
    ("hand", "win", "kw", "faan", "items"),
    [
        # chicken hand: chows and pungs mixed, on a discard, melded
        ("123m456p88s", "8s", {"melds": "pon:999s,chi:234m"}, 1, ["chicken_hand", "no_bonus"]),
        # small three dragons includes its two dragon pungs; great three dragons its three
        (
            "555z666z77z",
            "7z",
            {"melds": "chi:123m,chi:456m"},
            9,
            ["mixed_one_suit", "small_three_dragons", "no_bonus"],
        ),
        (
            "555z666z777z11m",
            "1m",
            {"melds": "chi:123m"},
            12,
            ["mixed_one_suit", "great_three_dragons", "no_bonus"],
        ),
        # four winds: small includes the wind pungs; great is a limit hand, alone
        (
            "111z222z33z444z",
            "3z",
            {"melds": "chi:123m"},
            10,
            ["mixed_one_suit", "small_four_winds", "no_bonus"],
        ),
        ("111z222z333z55z", "5z", {"melds": "pon:444z"}, 13, ["great_four_winds"]),
        # all honours includes all pungs; all terminals includes all pungs and mixed terminals
        (
            "111z555z666z22z",
            "2z",
            {"melds": "pon:777z"},
            13,
            ["seat_wind", "prevailing_wind", "great_three_dragons", "all_honours", "no_bonus"],
        ),
        ("111m999m111p99p", "9p", {"melds": "pon:999s"}, 11, ["all_terminals", "no_bonus"]),
        # mixed terminals stacks with all pungs
        (
            "111m999p555z99s",
            "9s",
            {"melds": "pon:111s"},
            6,
            ["all_pungs", "dragon_pung", "mixed_terminals", "no_bonus"],
        ),
        # nine gates, all kongs (limits, alone)
        ("11123455678999m", "5m", {}, 13, ["nine_gates"]),
        ("22m", "2m", {"melds": "kan:1111m,kan:3333p,ankan:5555s,kakan:7777z"}, 13, ["all_kongs"]),
        # seat and prevailing wind on a double wind
        (
            "234m567p789s22s",
            "2s",
            {"melds": "pon:222z", "seat": "S", "round_wind": "S"},
            3,
            ["seat_wind", "prevailing_wind", "no_bonus"],
        ),
        (
            "234m567p789s22s",
            "2s",
            {"melds": "pon:222z", "seat": "S", "round_wind": "E"},
            2,
            ["seat_wind", "no_bonus"],
        ),
        # a concealed kong keeps the hand concealed
        (
            "234m567p789s22s",
            "2s",
            {"melds": "ankan:5555m"},
            2,
            ["chicken_hand", "fully_concealed", "no_bonus"],
        ),
    ],
)
def test_items(hand: str, win: str, kw: dict, faan: int, items: list[str]) -> None:
    assert ids(hand, win, ZERO, **kw) == (faan, items)


def test_win_conditions_and_bonus_tiles() -> None:
    h, w = "234m345p456s678s22m", "8s"
    # a replacement win needs its kong (two for the double one): a concealed kong keeps the hand
    # concealed
    assert ids("234m345p678s22m", w, ZERO, melds="ankan:9999p", self_drawn=True, kong_replacement=True)[
        1
    ] == [
        "chicken_hand",
        "self_drawn",
        "fully_concealed",
        "kong_replacement",
        "no_bonus",
    ]
    f, items = ids(
        "345p678s22m",
        w,
        ZERO,
        melds="ankan:9999p,kan:1111m",
        self_drawn=True,
        kong_replacement=True,
        double_kong_replacement=True,
    )
    assert "double_kong_replacement" in items and "kong_replacement" not in items and f == 10
    assert "robbing_kong" in ids(h, w, ZERO, robbing_kong=True)[1]
    assert "last_tile" in ids(h, w, ZERO, last_tile=True)[1]
    assert ids(h, w, ZERO, self_drawn=True, heavenly=True) == (13, ["heavenly"])
    assert ids(h, w, ZERO, seat="S", earthly=True) == (13, ["earthly"])
    # bonus tiles: own flower 1 each; a full set of four replaces it (2); all eight is a limit
    assert ids(h, w, ZERO, flowers="2", seat="S")[1][-1] == "own_flower"
    assert (
        ids(h, w, ZERO, flowers="1", seat="S")[1][-1] == "fully_concealed"
    )  # not own: no item, no "no bonus"
    assert ids(h, w, ZERO, flowers="1,2,3,4", seasons="1")[1][-2:] == ["own_season", "all_flowers"]
    assert ids(h, w, ZERO, flowers="1,2,3,4", seasons="1")[0] == 1 + 1 + 1 + 2
    assert ids(h, w, ZERO, flowers="1,2,3,4", seasons="1,2,3,4") == (13, ["all_bonus"])


@pytest.mark.parametrize(
    ("hand", "win", "kw", "fragment"),
    [
        (
            "123m456p789s55z",
            "5z",
            {"melds": "pon:111z", "self_drawn": True, "heavenly": True},
            "drop --melds",
        ),
        ("123m456p789s55z", "5z", {"melds": "chi:123p", "seat": "S", "earthly": True}, "drop --melds"),
        ("123m456p789s123p55z", "5z", {"self_drawn": True, "kong_replacement": True}, "needs a kong"),
        (
            "123m456p789s55z",
            "5z",
            {
                "melds": "kan:1111z",
                "self_drawn": True,
                "kong_replacement": True,
                "double_kong_replacement": True,
            },
            "needs two kongs",
        ),
        ("123m456p789s55z", "5z", {"melds": "pon:111z", "robbing_kong": True}, "the hand holds 2"),
        ("123m456p789s123p55z", "5z", {"robbing_kong": True, "last_tile": True}, "cannot go together"),
        (
            "123m456p789s123p55z",
            "5z",
            {"self_drawn": True, "heavenly": True, "last_tile": True},
            "no last tile",
        ),
    ],
)
def test_conditions_a_hand_could_not_be_won_under_are_refused(hand, win, kw, fragment) -> None:
    """A reviewer scored a heavenly hand with a pung, a kong replacement without a kong and a
    robbed kong of a tile held twice (six copies): each is a usage error now, as the engine never
    makes them."""
    with pytest.raises(UsageError, match=fragment):
        score_typed(hand, win, ZERO, **kw)


def test_bonus_faan_toward_the_minimum() -> None:
    hand, win = "234m345p456s678s22m", "8s"
    strict = dataclasses.replace(HK, bonus_counts=False)
    assert score_typed(hand, win, HK).score.counted == 3
    with pytest.raises(ScoringError, match="2 faan without bonus faan, the table's minimum is 3"):
        score_typed(hand, win, strict)
    with pytest.raises(ScoringError, match="2 faan without bonus faan"):
        score_typed(hand, win, strict, flowers="1")
    assert score_typed(hand, win, strict, self_drawn=True).score.faan == 4


def test_cap_and_limit() -> None:
    # all one suit 7 + all pungs 3 + concealed 1 + self-drawn 1 + no bonus 1 = 13 reaches the cap
    t = score_typed("111222333444m55m", "5m", HK, self_drawn=True)
    assert t.score.faan == 13 and t.score.raw == 13 and t.score.limit
    capped = dataclasses.replace(HK, cap=10)
    t = score_typed("111222333444m55m", "5m", capped, self_drawn=True)
    assert (t.score.faan, t.score.raw) == (10, 13)


def test_not_a_winning_hand_and_bad_input() -> None:
    with pytest.raises(ScoringError, match="not a winning hand"):
        score_typed("1199m1199p1199s11z", None, HK)  # seven pairs is not a Hong Kong winning shape
    with pytest.raises(InvalidHandError, match="concealed tiles"):
        score_typed("123m", "4m", HK)
    with pytest.raises(UsageError, match="self-drawn"):
        score_typed("234m345p456s678s22m", "8s", HK, kong_replacement=True)
    with pytest.raises(InvalidHandError, match="bonus tiles are numbered 1-4"):
        score_typed("234m345p456s678s22m", "8s", HK, flowers="5")
    with pytest.raises(Exception, match="red fives"):
        score_typed("234m340p456s678s22m", "8s", HK)


def test_the_table_has_every_issue_item() -> None:
    values = {i.id: i.faan for i in ITEMS}
    expected = {
        "chicken_hand": 0, "common_hand": 1, "all_pungs": 3, "mixed_one_suit": 3, "all_one_suit": 7,
        "dragon_pung": 1, "seat_wind": 1, "prevailing_wind": 1, "small_three_dragons": 5,
        "great_three_dragons": 8, "small_four_winds": 6, "great_four_winds": 13, "all_honours": 10,
        "all_terminals": 10, "mixed_terminals": 1, "self_drawn": 1, "fully_concealed": 1,
        "robbing_kong": 1, "last_tile": 1, "kong_replacement": 1, "double_kong_replacement": 8,
        "no_bonus": 1, "own_flower": 1, "own_season": 1, "all_flowers": 2, "all_seasons": 2,
        "thirteen_orphans": 13, "nine_gates": 13, "all_kongs": 13, "heavenly": 13, "earthly": 13,
        "all_bonus": 13,
    }  # fmt: skip
    assert {k: values[k] for k in expected} == expected


@settings(max_examples=200, deadline=None)
@given(
    faan=st.integers(0, 13),
    winner=st.integers(0, 3),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    scheme=st.sampled_from(sorted(PAYMENTS)),
)
def test_every_settlement_sums_to_zero(faan: int, winner: int, discarder: int | None, scheme: str) -> None:
    if discarder == winner:
        discarder = None
    deltas = settlement(faan, winner, discarder, PAYMENTS[scheme])
    assert sum(deltas) == 0
    assert deltas[winner] > 0 and all(d <= 0 for s, d in enumerate(deltas) if s != winner)


def test_payment_schemes() -> None:
    assert settlement(3, 0, 1, PAYMENTS["half-gun"]) == [32, -16, -8, -8]
    assert settlement(3, 0, None, PAYMENTS["half-gun"]) == [48, -16, -16, -16]
    assert settlement(3, 0, 1, PAYMENTS["full-gun"]) == [32, -32, 0, 0]
    assert settlement(6, 0, 1, PAYMENTS["half-spicy"]) == [128, -64, -32, -32]  # 6 faan: P = 32
    assert settlement(8, 0, 1, PAYMENTS["simplified"]) == [16, -8, -4, -4]  # 7-9 faan: P = 4


# ---------------------------------------------------------------- Red: jokers


def test_jokers_stand_for_anything_and_no_jokers_scores() -> None:
    t = score_typed("123m456p789sJJ55z", "5z", RED)
    assert t.score.faan >= 3 and "no_jokers" not in t.score.item_ids()
    # the jokers-only pung is given the kind worth most: here a pung of the seat wind? no: a dragon,
    # a wind and a suit all give one faan at most, so the split is one of equal worth
    t = score_typed("123m456m789mJJJ11m", "1m", RED, self_drawn=True)
    assert "all_one_suit" in t.score.item_ids()
    plain = score_typed("234m345p456s678s22m", "8s", RED)
    assert "no_jokers" in plain.score.item_ids() and plain.score.faan == 4


def test_joker_splits_cover_the_plain_splits() -> None:
    counts = [0] * 34
    for k in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9):
        counts[k] += 1
    plain = list(splits(list(counts), 0, 3))
    assert plain  # 123 456 789 + 11p... as a 3-set hand
    counts[8] -= 1
    with_joker = list(splits(list(counts), 1, 3))
    assert len(with_joker) >= len(plain)


def test_jokers_refused_in_hong_kong() -> None:
    with pytest.raises(Exception, match="jokers"):
        score_typed("123m456p789sJJ55z", "5z", HK)
