"""``mjcli shanten``: tables, JSON, stdin batch and errors."""

import json
import subprocess
import sys

import pytest
import typer
from mahjong.shanten import Shanten
from typer.testing import CliRunner

from mjcli import analysis
from mjcli.commands import shanten as command
from mjcli.errors import UsageError
from mjcli.riichi import hand_report
from mjcli.tiles import counts34, parse_tiles


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    # a local app with only this command, so the test does not depend on the other commands
    local = typer.Typer()
    command.register(local)

    @local.command("noop", hidden=True)
    def noop() -> None:  # a second command keeps typer from collapsing the app into one command
        pass

    return local


def run(app: typer.Typer, *args: str, stdin: str | None = None):
    return CliRunner().invoke(app, ["shanten", *args], input=stdin)


def json_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_sizes_agree_with_the_library():
    assert hand_report.HAND_SIZES == analysis.HAND_SIZES
    assert hand_report.SANMA_ABSENT == analysis.SANMA_ABSENT


def test_thirteen_tiles_table(app):
    result = run(app, "123m456p789s1135z")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["hand", "shanten", "ukeire", "tiles"]
    assert lines[2].split() == ["123m456p789s1135z", "1", "8", "135z"]


def test_fourteen_tiles_discard_rows(app):
    result = run(app, "123m456p789s11355z", "--seen", "2z2z4s")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "123m456p789s11355z  (14 tiles, tenpai)"
    assert lines[1].split() == ["discard", "shanten", "ukeire", "tiles"]
    assert lines[3].split() == ["3z", "0", "4", "15z"]
    rows = [line.split() for line in lines[3:]]
    assert len(rows) == 12  # one row per distinct kind


def test_json_for_both_sizes(app):
    result = run(app, "123m456p789s1122z", "123m456p789s11222z", "--json")
    assert result.exit_code == 0, result.output
    thirteen, fourteen = json_lines(result.output)
    assert thirteen == {
        "hand": "123m456p789s1122z",
        "size": 13,
        "shanten": 0,
        "ukeire": 4,
        "tiles": "12z",
        "remaining": {"1z": 2, "2z": 2},
    }
    assert fourteen["shanten"] == -1
    first = fourteen["discards"][0]
    assert set(first) >= {"tile", "shanten", "ukeire", "tiles"}
    assert first == {"tile": "1m", "shanten": 0, "ukeire": 7, "tiles": "14m", "remaining": {"1m": 3, "4m": 4}}


def test_red_five_is_named_when_it_is_the_only_copy(app):
    result = run(app, "0m23p456s789s1122z3z", "--json")
    (obj,) = json_lines(result.output)
    assert obj["hand"] == "0m23p456789s11223z"
    assert "0m" in [d["tile"] for d in obj["discards"]]
    result = run(app, "05m23p456s789s1122z", "--json")
    (obj,) = json_lines(result.output)
    assert "5m" in [d["tile"] for d in obj["discards"]]


def test_stdin_uses_the_batch_and_skips_blank_lines(app):
    hands = ["19m19p19s1234567z", "", "123m456p789s1122z", "  ", "1m", "11p"]
    result = run(app, "-", "--json", stdin="\n".join(hands) + "\n")
    assert result.exit_code == 0, result.output
    objs = json_lines(result.output)
    assert [o["hand"] for o in objs] == ["19m19p19s1234567z", "123m456p789s1122z", "1m", "11p"]
    for o in objs:
        assert o["shanten"] == Shanten.calculate_shanten(counts34(parse_tiles(o["hand"])))
    assert objs[0]["ukeire"] == 39


def test_shanten_only(app):
    result = run(app, "-", "--shanten-only", stdin="123m456p789s1122z\n11223344556677z\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["hand", "tiles", "shanten"]
    assert lines[2].split() == ["123m456p789s1122z", "13", "0"]
    assert lines[3].split() == ["11223344556677z", "14", "-1"]


def test_bad_stdin_line_names_the_line_and_the_others_are_answered(app):
    result = run(app, "-", stdin="123m456p789s1122z\n\n12x\n19m19p19s1234567z\n")
    assert result.exit_code == 2
    assert "error: stdin line 3: unknown suit letter 'x'" in result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[2:]] == ["123m456p789s1122z", "19m19p19s1234567z"]


def test_dash_cannot_be_mixed(app):
    result = run(app, "-", "123m456p789s1122z")
    assert isinstance(result.exception, UsageError)


@pytest.mark.parametrize(
    "args, stdin, fragment",
    [
        (["123m"], None, "error: hand '123m' has 3 tiles; expected 1, 2, 4, 5, 7, 8, 10, 11, 13, 14"),
        (["11111m22z"], None, "error: hand '11111m22z' has 5 copies of 1m"),
        (["1111m", "--seen", "1m"], None, "together have 5 copies of 1m"),
        (["-"], "123m456p789s1122z\n123m\n", "error: stdin line 2: hand '123m' has 3 tiles"),
    ],
)
def test_errors_through_the_real_cli(args, stdin, fragment):
    proc = subprocess.run(
        [sys.executable, "-m", "mjcli.cli", "shanten", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert fragment in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_help_has_an_example():
    proc = subprocess.run(
        [sys.executable, "-m", "mjcli.cli", "shanten", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    assert "Example: mjcli shanten" in proc.stdout


def test_a_red_five_in_the_hand_and_in_seen_is_refused_on_every_path():
    # one red 5m exists: mjcli.api refused it in both, the command took it (counting by kind only)
    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        cmd = [sys.executable, "-m", "mjcli", "shanten", *args, "--seen", "0m"]
        return subprocess.run(cmd, input=stdin, capture_output=True, text=True)

    message = "and --seen both hold the red five 0m"
    r = run("0m123p456s789s1122z")
    assert r.returncode == 2 and message in r.stderr and not r.stdout
    lines = "0m123p456s789s1122z\n5m123p456s789s1122z\n"
    for extra in ([], ["--json"], ["--shanten-only"]):
        r = run("-", *extra, stdin=lines)
        assert r.returncode == 2 and message in r.stdout + r.stderr, (extra, r.stdout, r.stderr)
        assert "5m123p456789s1122z" in r.stdout  # the plain five's line is answered
