import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjcli import tiles as T
from mjcli.errors import InvalidHandError, NotationError

tile_lists = st.lists(st.integers(min_value=0, max_value=T.NUM_TILES - 1), max_size=18)


def test_parse_basic():
    assert T.parse_tiles("123m") == [0, 1, 2]
    assert T.parse_tiles("0p") == [T.RED_5P]
    assert T.parse_tiles("1z7z") == [T.EAST, T.RED]
    assert T.parse_tiles("ESWNPFC") == list(range(27, 34))
    assert T.parse_tiles("12 3m  5s") == [0, 1, 2, 22]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("123x", "unknown suit letter 'x'"),
        ("123", "without a suit letter"),
        ("m", "without digits"),
        ("8z", "8z does not exist"),
        ("12E", "without a suit letter"),
    ],
)
def test_parse_errors_name_the_problem(text, fragment):
    with pytest.raises(NotationError, match=fragment):
        T.parse_tiles(text)


def test_copies_and_red_fives():
    with pytest.raises(InvalidHandError, match="5 copies of 1m"):
        T.parse_hand("11111m")
    with pytest.raises(InvalidHandError, match="red five 0m 2 times"):
        T.parse_hand("00m")
    with pytest.raises(InvalidHandError, match="5 copies of 5m"):
        T.parse_hand("05555m")
    with pytest.raises(InvalidHandError, match="has 3 tiles; expected 13, 14"):
        T.parse_hand("123m", allowed_sizes=(13, 14))


def test_to_mpsz_sorted_with_red_first():
    assert T.to_mpsz(T.parse_tiles("55z0m5m123p")) == "05m123p55z"
    assert T.to_mpsz([]) == ""


@given(tile_lists)
def test_mpsz_round_trip(tiles):
    text = T.to_mpsz(tiles, sort=False)
    assert T.parse_tiles(text) == tiles
    assert T.parse_tiles(T.to_mpsz(tiles)) == sorted(tiles, key=T.sort_key)


@given(st.integers(min_value=0, max_value=T.NUM_TILES - 1))
def test_single_tile_notations_round_trip(tile):
    assert T.tile_from_tenhou6(T.tile_to_tenhou6(tile)) == tile
    assert T.tile_from_mjai(T.tile_to_mjai(tile)) == tile
    assert T.parse_tile(T.tile_name(tile)) == tile
    assert T.parse_tile(T.tile_to_mjai(tile)) == tile
    for tile_id in T.id136_candidates(tile):
        assert T.tile_from_id136(tile_id) == tile


@given(st.integers(min_value=0, max_value=135))
def test_id136(tile_id):
    tile = T.tile_from_id136(tile_id)
    assert T.kind(tile) == tile_id // 4
    assert T.is_red(tile) == (tile_id in (16, 52, 88))
    assert T.tile_from_id136(tile_id, red_fives=False) == tile_id // 4


def test_known_codes():
    assert T.tile_to_tenhou6(T.parse_tile("1m")) == 11
    assert T.tile_to_tenhou6(T.parse_tile("7z")) == 47
    assert T.tile_to_tenhou6(T.RED_5S) == 53
    assert T.tile_to_mjai(T.RED_5M) == "5mr"
    assert T.tile_to_mjai(T.WHITE) == "P"
    assert T.counts34(T.parse_tiles("0m5m"))[4] == 2


@given(st.lists(st.integers(0, T.NUM_TILES - 1), max_size=20))
def test_in_hand_order_is_the_sort_by_sort_key(tiles):
    # the red fives are put back among the plain codes by bisection, not by a second sort
    assert T.in_hand_order(tiles) == sorted(tiles, key=T.sort_key)


@pytest.mark.parametrize(
    "tiles",
    [[34, 35, 36], [36, 35, 34, 4, 13, 22], [22, 36, 13, 35, 4, 34, 33, 0], [34, 34, 4, 4, 3, 5], [36, 0, 1]],
)
def test_in_hand_order_red_fives_before_their_plain_fives(tiles):
    assert T.in_hand_order(tiles) == sorted(tiles, key=T.sort_key)
