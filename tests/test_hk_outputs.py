"""Hong Kong and Red under the conventions every command keeps: --out claimed before the work
(locked for one run, written through a hidden stage, moved in place at the end), repeated inputs
read once with a note, one-line errors for bad input and never a traceback, ``shanten -`` line by
line, seat numbers read as riichi reads them, and the engines preloaded by the runner.

(An --out that cannot be written and Ctrl-C in the middle of a Hong Kong simulation are cases of
test_outputs.py and test_interrupt.py.)"""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path

import pytest
from test_bad_input import main_of
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import MjcliError
from mjcli.outpaths import STAGE_PREFIX, output_dir
from mjcli.runner import _modules_of

runner = CliRunner()


def cli(*args: str, stdin: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def error_of(res) -> str:
    assert isinstance(res.exception, MjcliError), res.output
    return str(res.exception)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two Hong Kong games' logs."""
    out = tmp_path_factory.mktemp("hk-logs") / "sim"
    res = cli("simulate", "--game", "hk", "--players", "hk-pm0", "--games", "2", "--seed", "9", "-j", "1",
              "--out", out)  # fmt: skip
    assert res.exit_code == 0, res.output
    return out / "logs"


# ---------------------------------------------------------------- --out: locked, staged


@pytest.mark.parametrize("command", ["simulate", "verify", "replay"])
def test_a_second_run_into_a_busy_out_folder_is_refused(command: str, logs: Path, tmp_path: Path) -> None:
    args = {
        "simulate": ["simulate", "--game", "red", "--games", "1", "-j", "1"],
        "verify": ["verify", "--game", "hk", logs, "-j", "1"],
        "replay": ["replay", "--game", "hk", logs, "-j", "1"],
    }[command]
    with output_dir(tmp_path, ["summary.json"]):  # another run, still at work
        assert "is being written by another mjcli run" in error_of(cli(*args, "--out", tmp_path))
    assert not list(tmp_path.iterdir())


def test_a_simulation_replaces_its_own_entries_and_leaves_the_rest(tmp_path: Path) -> None:
    """What an earlier, longer run left (a log of a game this run does not play), a killed run's
    stage, and the user's own file: the new run's files replace its entries as a whole."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "hk-000099.json").write_text("an earlier, longer run")
    (tmp_path / "summary.json").write_text("old")
    (tmp_path / f"{STAGE_PREFIX}k1ll3d").mkdir()
    (tmp_path / "notes.txt").write_text("the user's own file")
    res = cli("simulate", "--game", "hk", "--players", "hk-pm0", "--games", "1", "-j", "1", "--out", tmp_path)
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "games.parquet",
        "logs",
        "notes.txt",
        "rounds.parquet",
        "summary.json",
    ]
    assert [p.name for p in (tmp_path / "logs").iterdir()] == ["hk-000000.json"]
    assert json.loads((tmp_path / "summary.json").read_text())["game"] == "hk"
    assert res.stderr.startswith("1 game, ") and "(" in res.stderr and "1 job)" in res.stderr


def test_replay_and_verify_write_what_they_own(logs: Path, tmp_path: Path) -> None:
    rep, ver = tmp_path / "rep", tmp_path / "ver"
    res = cli("replay", "--game", "hk", logs, "--policy", "hk-pm0", "-j", "1", "--out", rep)
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in rep.iterdir()) == ["decisions.parquet", "games.parquet", "replay.json"]
    manifest = json.loads((rep / "replay.json").read_text())
    assert manifest["game"] == "hk" and manifest["policies"] == ["hk-pm0"]
    assert [(i["label"], i["rules"]) for i in manifest["inputs"]] == [
        ("hk-000000.json", "hk"),
        ("hk-000001.json", "hk"),
    ]
    res = cli("verify", "--game", "red", logs, "-j", "1", "--out", ver)
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in ver.iterdir()) == [
        "verify.parquet",
        "verify_games.parquet",
        "verify_mismatches.parquet",
    ]
    # a replay's manifest beside the logs is not read as a log
    shutil.copy(rep / "replay.json", tmp_path / "replay.json")
    shutil.copytree(logs, tmp_path / "more")
    res = cli("verify", "--game", "hk", tmp_path, "-j", "1")
    assert "replay.json" not in res.stdout


def test_an_input_is_never_an_output(logs: Path) -> None:
    log = logs / "hk-000000.json"
    assert "exists and is not a directory" in error_of(cli("verify", "--game", "hk", logs, "--out", log))
    assert "give a name" in error_of(cli("replay", "--game", "hk", logs, "--out", ""))


# ---------------------------------------------------------------- inputs read once


def test_the_same_log_given_twice_is_read_once(logs: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.json"
    shutil.copyfile(logs / "hk-000001.json", copy)
    res = cli("verify", "--game", "hk", logs, copy, logs / "hk-000000.json", "--json", "-j", "1")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout.splitlines()[-1])["logs"] == 2
    notes = res.stderr.splitlines()  # the path given again first, then the copies by content
    assert notes[0].startswith("note: '") and notes[0].endswith(
        "hk-000000.json' is given more than once: read once"
    )
    assert "copy.json' has the same content as '" in notes[1] and notes[1].endswith(
        "hk-000001.json': read once"
    )
    res = cli("replay", "--game", "red", copy, logs / "hk-000001.json", "--policy", "red-pm0", "-j", "1")
    assert res.exit_code == 0 and res.stdout.startswith("1 game, ")
    assert res.stderr.startswith("note: ")


# ---------------------------------------------------------------- bad input: one line, no traceback


def test_bad_input_is_one_line_and_never_a_traceback(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\xff\xfe\x00junk")
    other = tmp_path / "other.json"
    other.write_text('{"format": "mjcli-hk-log", "version": 1}')
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "decisions.parquet").write_bytes(b"PAR1 not really")
    long_hand = "1" * 300 + "m"
    cases = [
        # (arguments, exit code, what the error says)
        (["score", "--game", "hk", "11111m"], 2, "has 5 copies of 1m"),
        (["score", "--game", "red", long_hand], 2, "hand '1111"),
        (["score", "--game", "hk", "234m345p456s678s22m", "--win", "8s", "--seat", "4"], 2, "seat numbers"),
        (["score", "--game", "hk", "234m345p456s678s22m", "--round", "1"], 2, "is not a wind"),
        (["score", "--game", "hk", "234m345p456s678s22m", "--flowers", "5"], 2, "numbered 1-4"),
        (["advise", "--game", "hk", long_hand], 2, "hand '1111"),
        (["advise", "--game", "hk", str(tmp_path)], 2, "unknown suit letter '/'"),
        (
            ["advise", "--game", "red", "123m456p789s11z22zJJ"],
            2,
            "has 15 tiles; with 0 melds a hand to play has 14",
        ),
        (["shanten", "--game", "hk", "12x"], 2, "unknown suit letter 'x'"),
        (["verify", "--game", "hk", str(tmp_path / "no" / "such.json")], 2, "does not exist"),
        (["verify", "--game", "hk", str(junk), str(other), "-j", "1"], 1, "the log has no"),
        (["replay", "--game", "red", str(junk), "-j", "1"], 1, "junk.json' is not a text file"),
        (["summary", "--game", "hk", str(damaged)], 2, "is not a readable Parquet file"),
        (["summary", "--game", "hk", str(logs)], 2, "holds no decisions.parquet"),
        (["simulate", "--game", "hk", "--players", "hk-pm0,nobody"], 2, "unknown policy 'nobody'"),
        (["simulate", "--game", "red", "--min-faan", "99"], 2, "--min-faan 99"),
    ]
    for args, code, fragment in cases:
        got, out, err = main_of(capsys, monkeypatch, *args)
        assert got == code, (args, out, err)
        assert fragment in out + err, (args, out, err)
        assert "Traceback" not in err
        errors = [line for line in err.splitlines() if line.startswith("error")]
        assert len(errors) == (1 if code == 2 else 0), (args, err)
        assert all(len(line) < 250 for line in errors), errors


def test_shanten_stdin_answers_good_lines_and_reports_bad_ones() -> None:
    text = "123m456p789s1135z\n12x\n\n11111m\n123m456pJJ89s1135z\n"
    res = cli("shanten", "--game", "red", "-", "--json", stdin=text)
    assert res.exit_code == 2
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [x.get("line") for x in lines] == [None, 2, 4, None]
    assert lines[1]["input"] == "12x" and "unknown suit letter 'x'" in lines[1]["error"]
    assert lines[0]["shanten"] == 1 and lines[3]["hand"] == "123m456p89s1135zJJ"
    res = cli("shanten", "--game", "hk", "-", stdin=text)
    assert res.exit_code == 2 and "123m456p789s1135z" in res.stdout
    assert res.stderr.splitlines()[0] == (
        "error: stdin line 2: unknown suit letter 'x' in '12x' (use m p s z, or E S W N P F C for honours)"
    )
    assert "stdin line 5: hand '123m456pJJ89s1135z': jokers (J) exist only in Red" in res.stderr
    assert "no hands on standard input" in error_of(cli("shanten", "--game", "hk", "-", stdin="\n"))


def test_seat_numbers_and_winds_mean_the_same_seat() -> None:
    """As for riichi: a digit is a seat number (seat 0 the dealer, East), a letter a wind."""

    def seat(*args: str) -> str:
        res = cli("score", "--game", "hk", "234m345p456s678s22m", "--win", "8s", "--json", *args)
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)["seat"]

    assert seat() == seat("--seat", "0") == seat("--seat", "E") == "E"
    assert seat("--seat", "1") == seat("--seat", "S") == seat("--seat", "south") == "S"
    res = cli("advise", "--game", "hk", "123m456p789s11345z", "--seat", "3", "--json")
    assert json.loads(res.stdout)["seat"] == "N"


# ---------------------------------------------------------------- the forkserver's preload


def test_the_runner_preloads_the_modules_of_the_work() -> None:
    """The forkserver imports the modules that define a run's work and set-up (and ignores one it
    cannot import): for the Hong Kong work those are importable modules of the Hong Kong package,
    and the other games' engines are not among them."""
    import functools

    from mjcli.hk import replay, simulate, verify

    for work in (replay._task, verify._task, simulate._play_task):
        modules = _modules_of(work, functools.partial(simulate.bots_for, ["first"]))
        assert work.__module__ in modules
        assert all(m.startswith("mjcli.hk.") for m in modules), modules
        for name in modules:
            importlib.import_module(name)
