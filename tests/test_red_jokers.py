"""Red mahjong's jokers as typed: --seen takes them under --game red (and the error names --seen
under --game hk), no hand holds more than the set's four, and a win on a joker is self-drawn only
(the Red design in mjcli/hk/rules.py: "a discarded joker can be claimed by nobody, not even for a
win")."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import InvalidHandError, MjcliError, NotationError
from mjcli.hk.notation import JOKER, RED_JOKERS, parse_hand
from mjcli.hk.rules import get_rules

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def error_of(result) -> MjcliError:
    assert isinstance(result.exception, MjcliError), (result.exception, result.output)
    return result.exception


def test_the_red_set_has_four_jokers() -> None:
    assert get_rules("red").jokers == RED_JOKERS == 4


def test_seen_jokers_are_red_tiles() -> None:
    r = run("shanten", "--game", "red", "123m456p789s1135z", "--seen", "J", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["hand"] == "123m456p789s1135z"
    r = run("advise", "--game", "red", "123m456p789s11345z", "--seen", "1zJ", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["shanten"] == 1


@pytest.mark.parametrize("command", ["shanten", "advise"])
def test_seen_jokers_under_hong_kong_name_seen(command: str) -> None:
    hand = "123m456p789s1135z" if command == "shanten" else "123m456p789s11345z"
    e = error_of(run(command, "--game", "hk", hand, "--seen", "1zJ"))
    assert isinstance(e, NotationError)
    assert str(e) == "--seen '1zJ': jokers (J) exist only in Red mahjong (--game red)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["shanten", "--game", "red", "JJJJJJJJ"], "hand 'JJJJJJJJ' has 8 jokers; the Red set has 4"),
        (["shanten", "--game", "red", "JJJJJ"], "hand 'JJJJJ' has 5 jokers; the Red set has 4"),
        (
            ["score", "--game", "red", "JJJJJJJJJJJ1m2m3m"],
            "hand 'JJJJJJJJJJJ1m2m3m' has 11 jokers; the Red set has 4",
        ),
        (
            ["score", "--game", "red", "23m456p789s1zJJJJ", "--win", "J", "--tsumo"],
            "hand '23m456p789s1zJJJJ' and --win J hold 5 jokers; the Red set has 4",
        ),
        (
            ["advise", "--game", "red", "JJJJJ23m456p789s1z"],
            "hand 'JJJJJ23m456p789s1z' has 5 jokers; the Red set has 4",
        ),
        (
            ["shanten", "--game", "red", "123m", "--seen", "JJJJJ"],
            "--seen 'JJJJJ' has 5 jokers; the Red set has 4",
        ),
        (
            ["shanten", "--game", "red", "123m456p789s1zJJJ", "--seen", "JJ"],
            "hand '123m456p789s1zJJJ' and --seen together hold 5 jokers; the Red set has 4",
        ),
        (
            ["advise", "--game", "red", "123m456p789s1zJJJ5z", "--seen", "JJ"],
            "hand '123m456p789s1zJJJ5z' and --seen 'JJ' together hold 5 jokers; the Red set has 4",
        ),
    ],
)
def test_no_more_jokers_than_the_set(args: list[str], message: str) -> None:
    e = error_of(run(*args))
    assert isinstance(e, InvalidHandError) and str(e) == message


def test_four_jokers_are_a_hand() -> None:
    assert parse_hand("123m456p789s1zJJJJ", jokers=True).count(JOKER) == 4
    r = run("score", "--game", "red", "123m456p789s1zJJJJ", "--tsumo", "--json")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("how", [[], ["--chankan"], ["--houtei"]])
def test_a_win_on_a_joker_is_self_drawn_only(how: list[str]) -> None:
    for hand in (["123m456p789s111zJ", "--win", "J"], ["123m456p789s111zJJ"]):
        e = error_of(run("score", "--game", "red", *hand, *how))
        assert isinstance(e, InvalidHandError)
        assert "a discarded joker can be claimed by nobody, not even for a win" in str(e)


@pytest.mark.parametrize(
    "how", [["--tsumo"], ["--tsumo", "--rinshan", "--melds", "ankan:1111z"], ["--tsumo", "--haitei"]]
)
def test_a_self_drawn_joker_wins(how: list[str]) -> None:
    hand = "123m456p789sJ" if "--melds" in how else "123m456p789s111zJ"
    r = run("score", "--game", "red", hand, "--win", "J", *how, "--json")
    assert r.exit_code == 0, r.output


def test_a_joker_on_another_tile_wins_on_a_discard() -> None:
    r = run("score", "--game", "red", "123m456p789s111zJ5m", "--json")
    assert r.exit_code == 0, r.output


def test_win_j_under_hong_kong_is_refused() -> None:
    e = error_of(run("score", "--game", "hk", "123m456p789s111z1m", "--win", "J"))
    assert str(e) == "--win 'J': jokers (J) exist only in Red mahjong (--game red)"
