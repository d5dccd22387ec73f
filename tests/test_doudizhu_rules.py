"""Dou Dizhu rules: notation, the cases of shared/rules/doudizhu.md, move generation against a
brute-force enumerator, and the stake arithmetic."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.doudizhu.cards import (
    DECK_COUNTS,
    counts_of,
    deck_ranks,
    format_counts,
    parse_hand,
    parse_ranks,
)
from mjcli.doudizhu.movegen import legal_moves
from mjcli.doudizhu.moves import (
    NO_ANSWER,
    KickerRule,
    Kind,
    Move,
    as_lead,
    beats,
    classify,
    classify_one,
    kicker_rule,
)
from mjcli.doudizhu.scoring import settle
from mjcli.errors import InvalidHandError, NotationError, UsageError


def c(text: str):
    return parse_hand(text)


# -- notation ------------------------------------------------------------------------------------


def test_notation_round_trip_and_ten():
    assert format_counts(c("2A3BR10")) == "3TA2BR"
    assert parse_ranks("tjqka") == [7, 8, 9, 10, 11]
    deck = "".join(ch * n for ch, n in zip("3456789TJQKA2BR", DECK_COUNTS, strict=True))
    assert format_counts(counts_of(deck_ranks())) == deck


@pytest.mark.parametrize(
    "text, error, fragment",
    [
        ("3456X", NotationError, "cannot read card 'X' in '3456X'"),
        ("1", NotationError, "cannot read card '1'"),
        ("33333", InvalidHandError, "5 copies of 3 in '33333'"),
        ("BB", InvalidHandError, "2 copies of small joker B"),
        ("", InvalidHandError, "empty hand"),
    ],
)
def test_bad_hands_name_the_input(text, error, fragment):
    with pytest.raises(error, match=fragment):
        parse_hand(text)


def test_unknown_kicker_rule():
    with pytest.raises(UsageError, match="unknown kicker rule 'foo'"):
        kicker_rule("foo")


# -- classification: the reference's cases ----------------------------------------------------


@pytest.mark.parametrize(
    "text, kind",
    [
        ("34567", Kind.CHAIN),
        ("TJQKA", Kind.CHAIN),
        ("334455", Kind.PAIR_CHAIN),
        ("333444", Kind.AIRPLANE),
        ("33344456", Kind.AIRPLANE_SINGLE),
        ("AAA2", Kind.TRIO_SINGLE),
        ("AAA22", Kind.TRIO_PAIR),
        ("3333", Kind.BOMB),
        ("BR", Kind.ROCKET),
        ("333355", Kind.FOUR_TWO_SINGLE),
        ("33335566", Kind.FOUR_TWO_PAIR),
    ],
)
@pytest.mark.parametrize("rule", list(KickerRule))
def test_reference_legal(text, kind, rule):
    assert kind in {m.kind for m in classify(c(text), rule)}


@pytest.mark.parametrize("text", ["3456", "JQKA2", "QKA2B", "3344", "22AAKK", "33334444"])
@pytest.mark.parametrize("rule", list(KickerRule))
def test_reference_illegal(text, rule):
    assert classify(c(text), rule) == []


def test_no_pass_on_a_free_lead():
    from mjcli.doudizhu.engine import check_move

    assert check_move(c("34"), None, None, KickerRule.DOUZERO) == "cannot pass on a free lead"
    assert check_move(c("34"), classify_one(c("3")), None, KickerRule.DOUZERO) is None


@pytest.mark.parametrize(
    "text, legal",
    [
        ("33344455", {KickerRule.DOUZERO: True, KickerRule.RLCARD: True, KickerRule.PAGAT: False}),
        ("666777BR", {KickerRule.DOUZERO: True, KickerRule.RLCARD: False, KickerRule.PAGAT: False}),
    ],
)
def test_kicker_variants(text, legal):
    for rule, expected in legal.items():
        assert any(m.kind is Kind.AIRPLANE_SINGLE for m in classify(c(text), rule)) is expected, rule


def test_ambiguous_cards_read_every_way():
    """Under douzero a twelve-card trio run is a bare airplane of four trios or three trios with a
    kicker trio; both runs (333444555+666, 444555666+333) are one reading, compared by the highest
    trio. RLCard and Pagat read it only bare."""
    kinds = {(m.kind, m.main, m.size) for m in classify(c("333444555666"))}
    assert kinds == {(Kind.AIRPLANE, 3, 4), (Kind.AIRPLANE_SINGLE, 3, 3)}
    assert classify_one(c("333444555666")).kind is Kind.AIRPLANE
    for rule in (KickerRule.RLCARD, KickerRule.PAGAT):
        assert [(m.kind, m.size) for m in classify(c("333444555666"), rule)] == [(Kind.AIRPLANE, 4)]


# -- beats -------------------------------------------------------------------------------------


def one(text: str) -> Move:
    move = classify_one(c(text))
    assert move is not None, text
    return move


def reading(text: str, kind: Kind) -> Move:
    return next(m for m in classify(c(text)) if m.kind is kind)


@pytest.mark.parametrize(
    "new, old, expected",
    [
        ("4", "3", True),
        ("B", "2", True),
        ("R", "B", True),
        ("44", "3", False),
        ("45678", "34567", True),
        ("456789", "34567", False),
        ("3333", "22", True),
        ("2222", "AAAA", True),
        ("BR", "2222", True),
        ("3333", "BR", False),
        ("44455536", "33344478", True),
    ],
)
def test_reference_beats(new, old, expected):
    assert beats(one(new), one(old)) is expected


def test_four_with_two_beats():
    assert beats(reading("555534", Kind.FOUR_TWO_SINGLE), reading("4444KA", Kind.FOUR_TWO_SINGLE))
    assert beats(one("4444"), reading("555534", Kind.FOUR_TWO_SINGLE))
    assert not beats(reading("555534", Kind.FOUR_TWO_SINGLE), one("4444"))


@pytest.mark.parametrize("rule, expected", [("pagat", 77), ("rlcard", 88), ("douzero", 89)])
def test_airplane_counting_check(rule, expected):
    """Airplanes of two trios with single kickers beating QQQKKK+3+4, from a full deck."""
    lead = reading("QQQKKK34", Kind.AIRPLANE_SINGLE)
    moves = [m for m in legal_moves(DECK_COUNTS, lead, KickerRule(rule)) if m.kind is Kind.AIRPLANE_SINGLE]
    assert len(moves) == expected
    assert len(set(moves)) == expected


# -- each kicker option on its own points (docs/doudizhu-kickers.md; test_doudizhu_peers.py
#    proves them against RLCard and DouZero themselves)

D, R, P = KickerRule.DOUZERO, KickerRule.RLCARD, KickerRule.PAGAT


@pytest.mark.parametrize(
    "text, legal_in",
    [
        ("33344456", {D, R, P}),
        ("33344455", {D, R}),  # a pair among the kickers
        ("333444555777", {D, R}),  # a trio apart from the run
        ("QQQKKKAAA222", {D, R}),  # 2s beside an A run: RLCard exempts them
        ("3334445556667778", {D}),  # 777 just above the run 3-6 (and 333 just below 4-7)
        ("34555666777888999TTT", {D}),
        ("444555666777AAAA", {D}),  # four of a kind
        ("666777BR", {D}),  # both jokers
        ("333444555666", {D}),  # three trios carrying the fourth: only the bare airplane elsewhere
    ],
)
def test_airplane_single_kickers(text, legal_in):
    for rule in KickerRule:
        readings = [m for m in classify(c(text), rule) if m.kind is Kind.AIRPLANE_SINGLE]
        assert bool(readings) is (rule in legal_in), rule


def test_four_with_two_singles():
    for rule in KickerRule:
        assert [m.kind for m in classify(c("333355"), rule)] == [Kind.FOUR_TWO_SINGLE]
        assert bool(classify(c("3333BR"), rule)) is (rule is D)


def plane(text: str, rule: KickerRule) -> Move:
    return next(m for m in classify(c(text), rule) if m.kind is Kind.AIRPLANE_SINGLE)


@pytest.mark.parametrize(
    "new, old, douzero, rlcard",
    [
        ("333444555KKK", "444555666789", True, False),  # DouZero: KKK against 666
        ("44555666777A", "444555666AAA", False, True),  # DouZero: 777 against AAA
        ("555666777389", "444555666999", False, True),
    ],
)
def test_douzero_compares_airplanes_by_the_highest_trio(new, old, douzero, rlcard):
    assert beats(plane(new, D), plane(old, D)) is douzero
    assert beats(plane(new, R), plane(old, R)) is rlcard


def test_douzero_twelve_card_runs():
    """Played on three trios with kickers, a 12-card run answers as three trios with kickers; the
    next player must then beat it as the bare airplane of four trios (DouZero's detector)."""
    lead = plane("333444555678", D)
    hand = c("444555666777")
    follow = next(m for m in legal_moves(hand, lead, D) if m.cards == hand)
    assert (follow.kind, follow.size, follow.main) == (Kind.AIRPLANE_SINGLE, 3, 4)
    assert not [m for m in legal_moves(hand, plane("333444555678", R), R) if m.cards == hand]
    standing = as_lead(follow, D)
    assert (standing.kind, standing.size, standing.main) == (Kind.AIRPLANE, 4, 4)
    answers = {m.text() for m in legal_moves(c("555666777888JQK2"), standing, D)}
    assert answers == {"555666777888"}


def test_douzero_answers_what_its_detector_rejects_with_bombs_only():
    for text in ("3334445556667778", "444555666777AAAA", "999TTTJJJQQQKKKB"):
        standing = as_lead(classify_one(c(text), D), D)
        assert standing.main == NO_ANSWER
        answers = legal_moves(c("888999TTTJJJKKKQ3333BR"), standing, D)
        assert {m.kind for m in answers} == {Kind.BOMB, Kind.ROCKET}, text
    ok = as_lead(plane("333444555777", D), D)  # three trios and a trio apart: DouZero reads it
    assert ok.main == 4 and ok.kind is Kind.AIRPLANE_SINGLE


@settings(max_examples=40, deadline=None)
@given(hand=st.lists(st.sampled_from(deck_ranks()), min_size=10, max_size=20).map(counts_of))
def test_plays_stand_as_played_except_under_douzero(hand):
    hand = tuple(min(x, y) for x, y in zip(hand, DECK_COUNTS, strict=True))
    for rule in (R, P):
        for move in legal_moves(hand, None, rule):
            assert as_lead(move, rule) is move
            assert classify(move.cards, rule) == [move]  # one reading a card set


# -- move generation against brute force ------------------------------------------------------


def brute_force(hand, lead, rule):
    """Classify every sub-multiset of the hand; keep what beats the lead."""
    out = set()
    for cards in itertools.product(*(range(n + 1) for n in hand)):
        for move in classify(tuple(cards), rule):
            if lead is None or beats(move, lead):
                out.add(move)
    return out


hands = (
    st.lists(st.sampled_from(deck_ranks()), min_size=1, max_size=11)
    .map(counts_of)
    .filter(lambda h: all(x <= y for x, y in zip(h, DECK_COUNTS, strict=True)))
)


@settings(max_examples=60, deadline=None)
@given(hand=hands, rule=st.sampled_from(list(KickerRule)))
def test_generation_matches_brute_force_on_free_lead(hand, rule):
    generated = legal_moves(hand, None, rule)
    assert len(generated) == len(set(generated))  # nothing twice
    assert set(generated) == brute_force(hand, None, rule)


@settings(max_examples=60, deadline=None)
@given(hand=hands, other=hands, rule=st.sampled_from(list(KickerRule)), data=st.data())
def test_generation_matches_brute_force_against_a_lead(hand, other, rule, data):
    leads = legal_moves(other, None, rule)
    lead = data.draw(st.sampled_from(leads))
    generated = legal_moves(hand, lead, rule)
    assert set(generated) == brute_force(hand, lead, rule)
    for move in generated:  # every generated move is legal: in the hand, well read, beating
        assert all(x <= y for x, y in zip(move.cards, hand, strict=True))
        assert move in classify(move.cards, rule)
        assert beats(move, lead)


def test_generation_on_a_rich_hand():
    hand = c("3334445556667778")
    assert set(legal_moves(hand)) == brute_force(hand, None, KickerRule.DOUZERO)


# -- scoring -------------------------------------------------------------------------------------


def test_reference_scoring():
    spring = settle(landlord=0, landlord_won=True, bid=3, bombs=2, spring=True)
    assert spring.stake == 24 and spring.points == (48, -24, -24)
    plain = settle(landlord=1, landlord_won=False, bid=2, bombs=0, spring=False)
    assert plain.stake == 2 and plain.points == (2, -4, 2)


@given(
    landlord=st.integers(0, 2),
    won=st.booleans(),
    bid=st.integers(1, 3),
    bombs=st.integers(0, 6),
    spring=st.booleans(),
    base=st.integers(1, 5),
)
def test_stake_arithmetic(landlord, won, bid, bombs, spring, base):
    s = settle(landlord=landlord, landlord_won=won, bid=bid, bombs=bombs, spring=spring, base=base)
    assert sum(s.points) == 0  # zero-sum
    assert s.points[landlord] == (2 if won else -2) * s.stake
    assert s.stake == base * bid * 2**bombs * (2 if spring else 1)
    douzero = settle(
        landlord=landlord, landlord_won=won, bid=1, bombs=bombs, spring=spring, springs_count=False
    )
    assert abs(douzero.points[landlord]) == 2 * 2**bombs
