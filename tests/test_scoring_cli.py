"""``mjcli score``: the explanation, --json, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from mjcli.commands import score
from mjcli.errors import MjcliError


def _app() -> typer.Typer:
    app = typer.Typer(pretty_exceptions_enable=False)
    score.register(app)

    @app.command("noop", hidden=True)
    def _noop() -> None:  # a second command keeps "score" a subcommand, as in the real app
        pass

    return app


APP = _app()
RUNNER = CliRunner()


def run(*args: str):
    return RUNNER.invoke(APP, ["score", *args])


def test_explains_seed_example_2():
    res = run(
        "234p999m22z", "--melds", "ankan:6666z,ankan:1111m", "--win", "9m", "--seat", "S", "--round", "S"
    )
    assert res.exit_code == 0, res.output
    out = res.output
    for needle in [
        "Yakuhai (hatsu)",
        "closed hand won by ron (menzen kafu)",
        "ankan 6666z: closed kan of terminals/honours",
        "102 -> rounded up to 110",
        "110 x 2^(1+2) = 880",
        "4 x 880 = 3520 -> 3600",
        "total   3600",
    ]:
        assert needle in out, (needle, out)


def test_hand_without_the_winning_tile_and_sticks():
    # 10 tiles + a chi: --win adds the winning tile; with 11, --win defaults to the last tile written.
    rest = ["--melds", "chi:678p", "--tsumo", "--seat", "S", "--honba", "2", "--sticks", "1"]
    res = run("34m222s66p567s", "--win", "5m", *rest)
    full = run("34m222s66p567s5m", *rest)
    assert res.exit_code == 0 and full.exit_code == 0
    assert res.output == full.output  # "--win" defaults to the last tile written
    assert "2 x 240 = 480 -> 500 + 2 honba x 100" in res.output
    assert "total   2700 (hand 1100, with honba 2, sticks 1)" in res.output


def test_json_carries_the_same_facts():
    res = run("111z222m777m55m", "--melds", "pon:999m", "--win", "5m", "--tsumo", "--dora", "4m", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["han"] == 10 and data["fu"] == 50 and data["limit"] == "baiman"
    assert {"id": "dora", "name": "Dora", "han": 2} in data["yaku"]  # indicator 4m: the 55m pair
    assert data["payments"] == {"each": 8000} and data["total"] == 24000
    assert sum(d["fu"] for d in data["fu_details"]) == data["fu_raw"] == 44
    assert data["melds"] == ["pon:999m"] and data["seat"] == "E" and data["rules"] == "tenhou"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["123m456p789s11z245s"], "is not complete"),
        (["123m456p789s234s55z", "--win", "4s"], "has no yaku"),
        (["123m456p789s234s5z"], "name the winning tile with --win"),
        (["123m456p789s234s55z55z"], "has 16 concealed tiles"),
        (["11m456p789s234s", "--melds", "pon:111m", "--win", "1m"], "5 copies of 1m"),
        (["123m456p789s234s55z", "--melds", "pom:111m"], "unknown meld kind"),
        (["123q"], "unknown suit letter"),
        (["234m456p678s345s99s", "--rules", "wrc"], "unknown rule set 'wrc'"),
        (["234m456p678s345s99s", "--seat", "X"], "is not a wind"),
        (["234m456p678s345s99s", "--rinshan"], "rinshan kaihou is a tsumo win"),
        # conditions the hand could not have been won under (a reviewer's finding: scored before)
        (["234m456p678s345s99s", "--tsumo", "--rinshan"], "the hand needs a kan"),
        (["123m456p789s55z", "--win", "5z", "--melds", "pon:111z", "--chankan"], "but the hand holds 2"),
        (["123m456p789s234s5p", "--win", "5p", "--chankan"], "but the hand holds 3"),
        (
            ["234m456p67s55s8s", "--melds", "ankan:1111z", "--tsumo", "--riichi", "--ippatsu", "--rinshan"],
            "ippatsu with rinshan",
        ),
        # a red five named as the win of a hand holding that five plain only: it used to be shown as
        # "win 0s" and scored as the plain one (no aka dora)
        (["234m345p345s55s678s", "--win", "0s"], "the winning tile 0s is a red five the hand does not hold"),
    ],
)
def test_errors_are_one_line_project_errors(args, fragment):
    res = run(*args)
    assert res.exit_code != 0
    assert isinstance(res.exception, MjcliError), res.output
    message = str(res.exception)
    assert fragment in message and "\n" not in message


def test_rinshan_needs_a_kan_or_a_north_set_aside():
    assert (
        run("123m456p789s55z", "--win", "5z", "--melds", "kan:1111z", "--tsumo", "--rinshan").exit_code == 0
    )
    assert (
        run("123m456p789s55z", "--win", "5z", "--melds", "ankan:1111z", "--tsumo", "--rinshan").exit_code == 0
    )
    # three-player: the replacement after a North set aside is rinshan too (the engine scores it so)
    res = run(
        "111m999m456p789s55z", "--win", "5z", "--sanma", "--kita", "1", "--tsumo", "--rinshan", "--json"
    )
    assert res.exit_code == 0, res.output
    assert any(y["id"] == "rinshan" for y in json.loads(res.output)["yaku"])


def test_help_shows_an_example():
    res = run("--help")
    assert res.exit_code == 0 and "Example: mjcli score" in res.output


def test_through_the_real_entry_point():
    ok = subprocess.run(
        [sys.executable, "-m", "mjcli.cli", "score", "22m44m66p88p33s77s55s", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["total"] == 4800
    bad = subprocess.run(
        [sys.executable, "-m", "mjcli.cli", "score", "123m456p789s234s55z", "--win", "4s"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: hand '") and "Traceback" not in bad.stderr


def test_copies_are_reported_before_the_tile_count():
    from mjcli.errors import InvalidHandError
    from mjcli.riichi.scoring import read_win_hand as read_hand

    with pytest.raises(InvalidHandError, match="5 copies of 1m"):
        read_hand("11111m", None, [])
    with pytest.raises(InvalidHandError, match="red five 0m 2 times"):
        read_hand("00m123p456s789s11z", None, [])


def test_a_plain_five_named_as_the_win_of_a_hand_holding_the_red_one_is_the_red_one():
    # the hand's only 5p is the red one: that is the winning tile (it used to be shown as "win 5p")
    data = json.loads(run("234m340p345s55s678s", "--win", "5p", "--json").output)
    assert data["win"] == "0p" and {"id": "aka_dora", "name": "Aka Dora", "han": 1} in data["yaku"]
    # with both in the hand, the tile named is the one taken
    assert json.loads(run("234m345p345s05s678s", "--win", "5s", "--json").output)["win"] == "5s"
    assert json.loads(run("234m345p345s05s678s", "--win", "0s", "--json").output)["win"] == "0s"
