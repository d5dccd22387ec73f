"""Meld notation: parsing, shape checks, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjcli.errors import InvalidHandError, MjcliError, NotationError
from mjcli.melds import Meld, make_meld, meld_to_text, melds_to_text, parse_meld, parse_melds
from mjcli.tiles import KIND_TO_RED, parse_tiles


def test_parse_every_kind():
    melds = parse_melds("pon:555z,chi:243m,ankan:1111p,kan:9999s") + parse_melds("kakan:0555p")
    assert [m.kind for m in melds] == ["pon", "chi", "ankan", "kan", "kakan"]
    assert melds[1].tiles == tuple(parse_tiles("234m"))  # sorted into hand order
    assert [m.opened for m in melds] == [True, True, False, True, True]
    assert [m.is_kan for m in melds] == [False, False, True, True, True]
    assert melds[4].tiles[0] == parse_tiles("0p")[0]  # the red five sorts before the plain fives
    assert melds_to_text(melds) == "pon:555z,chi:234m,ankan:1111p,kan:9999s,kakan:0555p"


def test_a_hand_has_four_melds_at_most():
    with pytest.raises(NotationError, match="5 melds, and a hand has four sets at most"):
        parse_melds("pon:111m,pon:222m,pon:333m,pon:444m,pon:555m")


def test_aliases_spaces_and_empty():
    assert parse_melds("") == []
    assert parse_melds(" , ") == []
    melds = parse_melds(" chii:789s , minkan:2222m ; shouminkan:7777z,daiminkan:3333p ")
    assert [m.kind for m in melds] == ["chi", "kan", "kakan", "kan"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("pon:556z", "copies of one tile"),
        ("pon:55z", "has 3 tiles, not 2"),
        ("chi:124m", "consecutive"),
        ("chi:123z", "consecutive"),
        ("chi:89m1p", "consecutive"),
        ("ankan:111p", "has 4 tiles"),
        ("pan:555z", "unknown meld kind"),
        ("555z", "kind:tiles"),
        ("pon:", "kind:tiles"),
        ("pon:55x5z", "unknown suit letter"),
        ("kan:0055m", "red five"),
    ],
)
def test_bad_melds_name_the_input(text, fragment):
    with pytest.raises(MjcliError) as info:
        parse_melds(text)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_error_types():
    with pytest.raises(NotationError):
        parse_meld("chi:135m")
    with pytest.raises(InvalidHandError):
        parse_meld("pon:000m")


def test_called_tile_must_belong():
    m = make_meld("pon", parse_tiles("777s"), called=parse_tiles("7s")[0], from_seat=2)
    assert m.called == parse_tiles("7s")[0] and m.from_seat == 2
    with pytest.raises(NotationError):
        make_meld("pon", parse_tiles("777s"), called=parse_tiles("8s")[0])


@st.composite
def melds(draw) -> Meld:
    kind_name = draw(st.sampled_from(["chi", "pon", "kan", "ankan", "kakan"]))
    if kind_name == "chi":
        suit = draw(st.integers(0, 2))
        start = suit * 9 + draw(st.integers(0, 6))
        tiles = [start, start + 1, start + 2]
    else:
        k = draw(st.integers(0, 33))
        tiles = [k] * (3 if kind_name == "pon" else 4)
    reds = [i for i, t in enumerate(tiles) if t in KIND_TO_RED]
    if reds and draw(st.booleans()):
        tiles[reds[0]] = KIND_TO_RED[tiles[reds[0]]]
    return make_meld(kind_name, tiles)


@given(st.lists(melds(), max_size=4))
def test_text_round_trip(ms):
    assert parse_melds(melds_to_text(ms)) == ms
    for m in ms:
        assert parse_meld(meld_to_text(m)) == m
