"""The scorer's short cuts give what the long way gives: the counts check against ``check_counts``,
the payer table against ``payments_for``, the group texts against ``to_mpsz``, the result built
field by field against the dataclass's constructor, the context test against the checks that
name a fault."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.errors import InvalidHandError, UsageError
from mjcli.riichi.rules import get_rules
from mjcli.riichi.scoring import (
    _GROUP_TEXT,
    _PAYERS,
    ScoreResult,
    WinContext,
    _check_context,
    _generic_lines,
    _IdPool,
    _physical_ids,
    _surely_possible,
    payers_count,
    payments_for,
    score_hand,
    settle,
)
from mjcli.tiles import NUM_TILES, check_counts, parse_tiles, to_mpsz

TENHOU = get_rules("tenhou")


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(-2, NUM_TILES + 1), max_size=24)
    | st.lists(st.sampled_from([4, 13, 22, 34, 35, 36, 30]), max_size=12),
    st.booleans(),
)
def test_counts_short_cut_is_check_counts(tiles: list[int], reds_allowed: bool) -> None:
    """``_surely_possible`` says yes only where ``check_counts`` passes (it may say no more often:
    the caller then runs the checks)."""
    if not _surely_possible(tiles, reds_allowed):
        return
    check_counts(tiles, "tiles", red_fives=True)  # raises if the short cut was wrong
    assert reds_allowed


@pytest.mark.parametrize(
    "tiles", [[4] * 4, [4, 4, 4, 34], [34, 34], [4] * 4 + [34], [0] * 5, [31] * 4 + [30]]
)
def test_counts_short_cut_on_fives_and_limits(tiles: list[int]) -> None:
    try:
        check_counts(tiles, "tiles", red_fives=True)
        passes = True
    except InvalidHandError:
        passes = False
    assert _surely_possible(tiles, True) == passes


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 16).map(lambda n: n * 10 * 2),
    st.booleans(),
    st.booleans(),
    st.integers(0, 8),
    st.integers(0, 5),
    st.sampled_from(["tenhou", "tenhou-sanma", "sanma-split", "majsoul-sanma"]),
)
def test_settle_is_payments_for(
    base: int, dealer: bool, tsumo: bool, honba: int, sticks: int, name: str
) -> None:
    rules = get_rules(name)
    paid, hand_value, total = settle(base, dealer, tsumo, honba, sticks, rules)
    assert paid == payments_for(base, dealer, tsumo, honba, rules)
    plain = payments_for(base, dealer, tsumo, 0, rules)
    assert list(paid) == list(plain)  # same roles in the same order
    assert hand_value == sum(v * payers_count(r, rules.players) for r, v in plain.items())
    with_honba = sum(v * payers_count(r, rules.players) for r, v in paid.items())
    assert total == with_honba + rules.riichi_stick * sticks


def test_payer_table_holds_every_win() -> None:
    assert len(_PAYERS) == 8


def test_group_texts_are_to_mpsz() -> None:
    assert len(_GROUP_TEXT) == 34 * 3 + 21
    for key, text in _GROUP_TEXT.items():
        assert text == to_mpsz(list(key))


def test_plain_reasons_replace_underscores() -> None:
    details = [{"reason": "closed_terminal_pon", "fu": 8}, {"reason": "a_new_reason", "fu": 2}]
    assert _generic_lines(details) == [("closed terminal pon", 8), ("a new reason", 2)]


@pytest.mark.parametrize(
    ("hand", "win", "ctx"),
    [
        ("234m456p678s11222z", 28, WinContext(tsumo=True, seat_wind=1, honba=2, sticks=1)),
        ("19m19p19s12345677z", 33, WinContext(seat_wind=0)),
        ("22456m456p456s678s", 25, WinContext(riichi=True, dora_indicators=(0,), ura_indicators=(20,))),
        ("22334455667788p", 16, WinContext(tsumo=True, riichi=True, ippatsu=True)),
    ],
)
@pytest.mark.parametrize("explain", [True, False])
def test_result_is_the_constructors(hand: str, win: int, ctx: WinContext, explain: bool) -> None:
    """The result whose fields are set in one step equals, prints and copies as the one the
    dataclass's constructor builds from the same values."""
    result = score_hand(parse_tiles(hand), win, [], ctx, TENHOU, explain=explain)
    built = ScoreResult(**{f.name: getattr(result, f.name) for f in dataclasses.fields(ScoreResult)})
    assert result == built
    assert repr(result) == repr(built)
    assert vars(result) == vars(built)
    assert list(vars(result)) == list(vars(built))
    assert dataclasses.replace(result) == built
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.han = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("ctx", "rules"),
    [
        (WinContext(seat_wind=4), "tenhou"),
        (WinContext(round_wind=-1), "tenhou"),
        (WinContext(seat_wind=3), "tenhou-sanma"),
        (WinContext(kita=1), "tenhou"),
        (WinContext(kita=-1), "tenhou"),
        (WinContext(kita=5), "tenhou-sanma"),
        (WinContext(kita=-1), "tenhou-sanma"),
        (WinContext(honba=-1), "tenhou"),
        (WinContext(sticks=-2), "tenhou-sanma"),
    ],
)
def test_a_bad_context_raises_what_the_checks_name(ctx: WinContext, rules: str) -> None:
    with pytest.raises(UsageError) as checked:
        _check_context(ctx, get_rules(rules))
    with pytest.raises(UsageError) as scored:
        score_hand(parse_tiles("234m456p789s11222z"), 28, [], ctx, get_rules(rules))
    assert str(scored.value) == str(checked.value)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from([0, 4, 8, 13, 22, 30, 31, 34, 35, 36]), min_size=1, max_size=18),
    st.lists(st.integers(-1, NUM_TILES), max_size=6),
    st.sampled_from(["tenhou", "tenhou-nored"]),
)
def test_ids_in_one_pass_are_the_pools(tiles: list[int], extra: list[int], name: str) -> None:
    """When the one pass gives ids, they are the pool's, and the long checks pass on the tiles and
    the extra ones; when it gives none, the long way finds something wrong or the pool needs it."""
    rules = get_rules(name)
    ids = _physical_ids(tiles, tuple(extra), rules.red_fives)
    if ids is None:
        return
    assert ids == _IdPool(rules, "hand").take_all(tiles)
    check_counts(tiles, "hand", red_fives=rules.red_fives)
    check_counts(tiles + extra, "hand", red_fives=True)


@pytest.mark.parametrize(
    ("tiles", "extra", "red_fives", "gives"),
    [
        ([4, 4, 4, 4], (), True, False),  # four plain 5m: one of them is the red five
        ([4, 4, 4, 34], (), True, True),
        ([4, 4, 4, 34], (4,), True, False),  # a fifth 5m as an indicator
        ([34], (), False, False),  # a red five with red fives off
        ([34], (34,), True, False),  # the red five twice
        ([0, 0, 0, 0], (), False, True),
        ([0, 0, 0], (0, 0), False, False),
        ([0, -1], (), True, False),
        ([0], (-1,), True, False),
        ([0], (40,), True, False),
    ],
)
def test_ids_in_one_pass_on_the_limits(
    tiles: list[int], extra: tuple[int, ...], red_fives: bool, gives: bool
) -> None:
    assert (_physical_ids(tiles, extra, red_fives) is not None) == gives


@pytest.mark.parametrize(
    ("hand", "melds"),
    [
        ("11122233388899m", ""),  # two readings
        ("11223344556677m", ""),  # seven pairs and the ryanpeikou readings
        ("234m456p22s", "chi:678s,pon:777z"),
        ("22m", "ankan:1111p,kan:9999s,kakan:0555m,pon:222z"),
        ("123m406p789s11z", "chi:340m"),  # red fives (ids 16, 52, 88)
    ],
)
@pytest.mark.parametrize("cached", [True, False])
def test_divisions_are_the_librarys(hand: str, melds: str, cached: bool, monkeypatch) -> None:
    """``_divisions`` (the library's cached readings, looked up with a key made as the library
    makes it) gives what ``HandDivider.divide_hand`` gives, whether the library has just divided
    the hand or not, and through the public call when the private parts are missing."""
    from mahjong.hand_calculating.divider import HandDivider

    from mjcli.melds import parse_melds
    from mjcli.riichi import scoring
    from mjcli.tiles import kind

    pool = _IdPool(TENHOU, "test")
    concealed = parse_tiles(hand)
    counts = [0] * 34
    lib_melds = []
    for t in concealed:
        counts[kind(t)] += 1
    pool.take_all(concealed)
    for m in parse_melds(melds) if melds else ():
        lib_melds.append(scoring._lib_meld(m, pool.take_all(m.tiles)))
        for t in m.tiles:
            counts[kind(t)] += 1
    if not cached:
        HandDivider._divide_hand_impl.cache_clear()
    expected = HandDivider.divide_hand(counts, lib_melds)
    if not cached:
        HandDivider._divide_hand_impl.cache_clear()
    assert expected
    assert scoring._divisions(counts, lib_melds) == expected
    monkeypatch.setattr(scoring, "_DIVIDE_IMPL", None)
    assert scoring._divisions(counts, lib_melds) == expected


@pytest.mark.parametrize(
    ("hand", "win", "melds", "tsumo"),
    [
        ("111m999p234s22z", "2z", "pon:777z", False),  # sets of 8, 8 and 4 fu: the items re-sorted
        ("111m555p234s77z", "7z", "pon:555z", True),  # 8, 4 and 4 fu, a valued pair
        ("55m234p567s", "5m", "pon:111z,kan:9999p", False),  # open sets of 4 and 16 fu
        ("234m345p567s99m", "9m", "ankan:1111z", True),  # one set only
        ("111m222p333s456m44z", "4z", "", False),  # closed triplets of 8, 4 and 4 fu
        ("222m999p234s456s77z", "7z", "", True),  # 4 fu then 8 fu in the hand, 8 then 4 sorted
        ("222m234p567s55z", "5z", "pon:666z", False),  # a closed simple and an open honour: 4 and 4
        ("11122233388899m", "9m", "", True),  # readings to choose from: the long way
    ],
)
def test_explanation_from_the_librarys_items(
    hand: str, win: str, melds: str, tsumo: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fu lines written from the library's items as it returned them (when they list the sets in
    the hand's order) are those written from the items counted again (``calculate_fu``)."""
    from mjcli.riichi import scoring

    short = scoring.score_typed(hand, win, melds=melds, tsumo=tsumo).result
    assert short.fu_details
    monkeypatch.setattr(scoring, "_sets_in_hand_order", lambda details: False)
    assert scoring.score_typed(hand, win, melds=melds, tsumo=tsumo).result.fu_details == short.fu_details


@pytest.mark.parametrize(
    ("kind_name", "lib_type", "opened"),
    [
        ("chi", "chi", True),
        ("pon", "pon", True),
        ("kan", "kan", True),
        ("ankan", "kan", False),
        ("kakan", "shouminkan", True),
    ],
)
def test_the_library_melds_are_the_ones_its_constructor_makes(monkeypatch, kind_name, lib_type, opened):
    from mahjong.meld import Meld as LibMeld

    from mjcli.melds import Meld
    from mjcli.riichi import scoring

    size = 3 if kind_name in ("chi", "pon") else 4
    tiles = (0, 1, 2) if kind_name == "chi" else (4,) * size
    meld = Meld(kind_name, tiles)
    ids = list(range(16, 16 + size))
    expected = LibMeld(lib_type, ids, opened=opened)
    assert scoring._FAST_LIB_MELD
    fast = scoring._lib_meld(meld, ids)
    assert type(fast) is LibMeld and vars(fast) == vars(expected)
    monkeypatch.setattr(scoring, "_FAST_LIB_MELD", False)  # another version of the library
    assert vars(scoring._lib_meld(meld, ids)) == vars(expected)
    assert fast.tiles_34 == expected.tiles_34 == [ids[0] // 4] * size  # (cached by the first read)
