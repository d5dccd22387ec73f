"""Bad input and misread options, as a new user meets them: one-line errors (exit 2, never a
traceback), duplicate inputs read once, a baseline that cannot gate is an error, options that do not
apply are refused by name, one meaning for --seat, and the conventions a user expects."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from shared import LOGS
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import MjcliError, one_line
from mjcli.inputs import collect_inputs
from mjcli.riichi.advise import advise_log, render

MJAI = LOGS / "mjai" / "126_204_0_mjai.jsonl"
MJLOG = LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog"  # E2: seat 1 deals
EDGE = LOGS / "tenhou6-edge"
runner = CliRunner()


def cli(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def error_of(res) -> str:
    assert isinstance(res.exception, MjcliError), res.output
    message = str(res.exception)
    assert "\n" not in one_line(message)
    return message


def real(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mjcli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def main_of(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    """The console script's ``main`` (error mapping included), in this process: code, stdout, stderr."""
    from mjcli.cli import main

    monkeypatch.setattr(sys, "argv", ["mjcli", *args])
    before = signal.getsignal(signal.SIGTERM)
    try:
        with pytest.raises(SystemExit) as stop:
            main()
    finally:
        signal.signal(signal.SIGTERM, before)
    out = capsys.readouterr()
    return int(stop.value.code or 0), out.out, out.err


# ---------------------------------------------------------------- 4: duplicate inputs


def test_the_same_log_given_twice_is_read_once(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copyfile(EDGE / "chankan.json", folder / "a.json")
    shutil.copyfile(EDGE / "chankan.json", folder / "copy-of-a.json")  # same bytes, other name
    shutil.copyfile(EDGE / "rinshan.json", folder / "b.json")
    res = cli("verify", str(folder), str(folder / "b.json"), "--json", "-j", "1")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout.splitlines()[-1])
    assert summary["logs"] == 2
    notes = res.stderr.splitlines()
    assert len(notes) == 2
    assert notes[0].startswith("note: '") and notes[0].endswith(
        "/logs/b.json' is given more than once: read once"
    )
    assert "/logs/copy-of-a.json' has the same content as '" in notes[1]
    assert notes[1].endswith("/logs/a.json': read once")


def test_collect_inputs_keeps_the_first_of_equal_files(tmp_path: Path) -> None:
    for name, text in [("1.log", "x"), ("2.log", "y"), ("3.log", "x"), ("4.log", "xx")]:
        (tmp_path / name).write_text(text)
    got = collect_inputs([str(tmp_path)], lambda p: True)
    assert [i.label for i in got] == ["1.log", "2.log", "4.log"]
    assert got.repeated == [(tmp_path / "3.log", tmp_path / "1.log")]


def test_two_logs_with_one_name_get_labels_of_their_own(tmp_path: Path) -> None:
    for folder, text in [("2023/logs", "x"), ("2024/logs", "y"), ("2024/more", "z")]:
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "a.log").write_text(text)
    (tmp_path / "2024" / "logs" / "b.log").write_text("w")
    files = [str(tmp_path / f) for f in ("2023/logs/a.log", "2024/logs/a.log", "2024/logs/b.log")]
    got = collect_inputs(files, lambda p: True)
    # the folders that tell them apart, no more; a name nobody shares stays as it is
    assert [i.label for i in got] == ["2023/logs/a.log", "2024/logs/a.log", "b.log"]
    # folders given: their files' paths inside them collide the same way
    got = collect_inputs([str(tmp_path / "2024/logs"), str(tmp_path / "2024/more")], lambda p: True)
    assert [i.label for i in got] == ["logs/a.log", "b.log", "more/a.log"]
    assert len({i.label for i in got}) == len(got)


def test_a_replay_tells_apart_two_games_in_files_of_one_name(tmp_path: Path) -> None:
    # the same game written twice (a byte apart, so not a copy), as two runs' "sim-000000" logs
    # would be: two files, two games in the rows and in the summary
    for folder, tail in (("one", b""), ("two", b"\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "game.json").write_bytes((EDGE / "chankan.json").read_bytes() + tail)
    logs = [str(tmp_path / "one" / "game.json"), str(tmp_path / "two" / "game.json")]
    out = tmp_path / "out"
    res = cli("replay", *logs, "--policy", "greedy", "-j", "1", "--out", str(out), "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout.splitlines()[-1])
    assert summary["games"] == 2
    files = pl.read_parquet(out / "decisions.parquet")["file"].unique().sort().to_list()
    assert files == ["one/game.json", "two/game.json"]


# ---------------------------------------------------------------- 5: a baseline that cannot gate


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("base")
    res = cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "-j", "1", "--out", str(out))
    assert res.exit_code == 0, res.output
    return out / "decisions.parquet"


def test_a_damaged_baseline_is_an_error_before_the_work(baseline: Path, tmp_path: Path) -> None:
    data = bytearray(baseline.read_bytes())
    half = len(data) // 2  # the column chunks, not the footer: the header still reads well
    data[8:half] = bytes(b ^ 0x5A for b in data[8:half])
    damaged = tmp_path / "damaged.parquet"
    damaged.write_bytes(bytes(data))
    res = cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--baseline", str(damaged))
    message = error_of(res)
    assert "damaged" in message or "not a readable Parquet" in message
    res = cli("summary", str(damaged))  # item 10: the summary of a damaged table
    message = error_of(res)
    assert "damaged" in message or "not a readable Parquet" in message


def test_a_baseline_of_other_logs_cannot_pass_the_gate(baseline: Path, tmp_path: Path) -> None:
    out = tmp_path / "new"
    res = cli(
        "replay",
        str(EDGE / "rinshan.json"),
        "--policy",
        "greedy",
        "--baseline",
        str(baseline),
        "-o",
        str(out),
    )
    assert "cannot gate this run" in error_of(res)
    assert (out / "decisions.parquet").exists() and not (out / "changes.parquet").exists()  # the run is kept


def test_the_same_logs_pass_the_gate(baseline: Path) -> None:
    res = cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--baseline", str(baseline))
    assert res.exit_code == 0, res.output
    assert "0 changed of" in res.stdout


def test_the_gate_refuses_what_would_let_it_pass_unseen(baseline: Path, tmp_path: Path) -> None:
    log = str(EDGE / "chankan.json")
    # --baseline DIR --out DIR: the run wrote its tables over the baseline, and the next run passed
    folder = tmp_path / "same"
    folder.mkdir()
    (folder / "decisions.parquet").write_bytes(baseline.read_bytes())
    before = (folder / "decisions.parquet").read_bytes()
    for old, out in ((folder, folder), (f"{folder}/", f"{folder}/./")):
        res = cli("replay", log, "--policy", "greedy", "--baseline", str(old), "--out", str(out))
        assert "never writes over its inputs" in error_of(res)
    assert (folder / "decisions.parquet").read_bytes() == before
    # --max-changes without --baseline: no gate ran, and it exited 0
    assert "--max-changes goes with --baseline" in error_of(
        cli("replay", log, "--policy", "greedy", "--max-changes", "3")
    )
    # a wind as replay's --seat (another seat every round): refused by name, not as "not a valid int"
    assert "replay takes seat numbers 0-3" in error_of(
        cli("replay", log, "--policy", "greedy", "--seat", "S")
    )


def test_replay_seat_that_names_no_seat_is_refused(tmp_path: Path) -> None:
    log = str(EDGE / "chankan.json")
    # an empty --seat replayed no decision at all and exited 0
    for empty in ("", ",", " , "):
        assert "names no seat" in error_of(cli("replay", log, "--policy", "greedy", "--seat", empty))
    # not a number: it said "is not a wind (use E, S, W or N)", and a wind is then refused
    for text in ("1.0", "0 1", "x"):
        message = error_of(cli("replay", log, "--policy", "greedy", "--seat", text))
        assert f"--seat '{text}': replay takes seat numbers 0-3" in message and "wind" not in message
    # seat 3 of three-player logs: nothing replayed, exit 0; refused as an unknown --player is
    sanma = str(Path(__file__).parent.parent / "fixtures" / "sanma")
    out = tmp_path / "out"
    message = error_of(
        cli("replay", sanma, "--policy", "greedy", "-j", "1", "--seat", "1,3", "--out", str(out))
    )
    assert "--seat 3: no game of these logs has that seat (seats: 0, 1, 2" in message
    assert not (out / "decisions.parquet").exists()
    # where one game has it, the seat is no typo
    res = cli("replay", sanma, log, "--policy", "greedy", "-j", "1", "--seat", "3", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["decision_points"] > 0


def test_a_baseline_with_keys_of_other_types_gates_as_its_values_say(baseline: Path, tmp_path: Path) -> None:
    # a table written by another tool (categoricals, 64-bit integers) failed in the join: a traceback
    old = pl.read_parquet(baseline)
    other = old.with_columns(
        pl.col("file", "round", "kind", "policy").cast(pl.Categorical),
        pl.col("honba", "turn", "seat").cast(pl.Int64),
    )
    path = tmp_path / "other.parquet"
    other.write_parquet(path)
    res = cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--baseline", str(path))
    assert res.exit_code == 0 and "0 changed of" in res.stdout, res.output
    # keys that are no values of theirs (a turn as text): one line, exit 2
    old.with_columns(pl.col("turn").cast(pl.String) + "x").write_parquet(path)
    res = cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--baseline", str(path))
    assert "its decision keys are not of the types replay writes" in error_of(res)


def test_a_baseline_holding_a_decision_twice_is_refused(baseline: Path, tmp_path: Path) -> None:
    # two runs' tables put together: each answer joined twice ("2N compared of N", "-N only in this
    # run") and passed; with a second, other choice a change was counted against it
    old = pl.read_parquet(baseline)
    doubled = tmp_path / "doubled.parquet"
    pl.concat([old, old]).write_parquet(doubled)
    res = cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--baseline", str(doubled))
    message = error_of(res)
    assert "share their decision key and policy with another" in message
    assert "chankan.json E1-0 turn" in message


def test_a_baseline_of_another_games_replay_says_the_gate_is_riichis(tmp_path: Path) -> None:
    # it said "give --game hk", and replay --game hk then said "--baseline does not apply"
    sim, rep = tmp_path / "sim", tmp_path / "rep"
    res = cli("simulate", "--game", "hk", "--games", "1", "--seed", "1", "-j", "1", "--out", str(sim))
    assert res.exit_code == 0, res.output
    res = cli("replay", "--game", "hk", str(sim / "logs"), "--policy", "hk-pm8", "-j", "1", "--out", str(rep))
    assert res.exit_code == 0, res.output
    for old in (rep, rep / "decisions.parquet"):
        message = error_of(
            cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--baseline", str(old))
        )
        assert "holds a hk replay's decisions: the gate compares a riichi replay" in message
        assert "give --game" not in message


def test_a_baseline_damaged_in_a_column_the_gate_does_not_use_is_refused(
    baseline: Path, tmp_path: Path
) -> None:
    # the README: "read in full before the run: a file that cannot be read (damaged bytes included)"
    table = pl.read_parquet(baseline)
    whole = tmp_path / "whole.parquet"
    table.write_parquet(whole, compression="uncompressed", statistics=False)
    data = bytearray(whole.read_bytes())
    hand = table["hand"][0].encode()
    at = data.find(hand)
    assert at > 0
    data[at - 8 : at - 4] = b"\xff\xff\xff\x7f"  # the value's length: far past the page
    damaged = tmp_path / "damaged.parquet"
    damaged.write_bytes(bytes(data))
    with pytest.raises(pl.exceptions.PolarsError):
        pl.read_parquet(damaged)
    res = cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--baseline", str(damaged))
    assert "damaged" in error_of(res) or "not a readable Parquet" in error_of(res)


# ---------------------------------------------------------------- 6: shanten -


def test_shanten_stdin_answers_good_lines_and_reports_bad_ones() -> None:
    res = cli(
        "shanten", "-", "--json", stdin="123m456p789s1122z\n12x\n\n" + "1" * 300 + "m\n19m19p19s1234567z\n"
    )
    assert res.exit_code == 2
    objs = [json.loads(line) for line in res.stdout.splitlines()]
    assert [o.get("hand", o.get("line")) for o in objs] == ["123m456p789s1122z", 2, 4, "19m19p19s1234567z"]
    assert "unknown suit letter 'x'" in objs[1]["error"]
    assert len(objs[2]["input"]) <= 80 and len(objs[2]["error"]) < 200
    assert "no hands on standard input" in error_of(cli("shanten", "-", stdin="\n \n"))


def test_a_byte_order_mark_on_standard_input_is_no_part_of_line_1() -> None:
    # a hands file or a list of logs saved by a Windows editor starts with one (UTF-8: EF BB BF)
    hands = real("shanten", "-", "--json", stdin="\ufeff123m456p789s1122z\n19m19p19s1234567z\n")
    assert hands.returncode == 0, hands.stderr
    assert [json.loads(x)["hand"] for x in hands.stdout.splitlines()] == [
        "123m456p789s1122z",
        "19m19p19s1234567z",
    ]
    hk = real("shanten", "--game", "hk", "-", stdin="\ufeff123m456p789s1122z\n")
    assert hk.returncode == 0 and "123m456p789s1122z" in hk.stdout, hk.stderr
    logs = real("verify", "-", stdin=f"\ufeff{LOGS / 'mjai' / '126_204_0_mjai.jsonl'}\n")
    assert logs.returncode == 0 and "1 log: 1 ok" in logs.stdout, logs.stderr


# ---------------------------------------------------------------- 7, 10, 11, 14: one-line errors


def test_the_cli_never_shows_a_traceback(tmp_path: Path, capsys, monkeypatch) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\xff\xfe\x00junk")
    long_hand = "1" * 300 + "m"
    cases = [
        (["advise", long_hand], 2, "hand '1111"),
        (["advise", str(tmp_path / "no" / "such.mjlog")], 2, "does not exist"),
        (["advise", str(tmp_path)], 2, "is a directory"),
        (["replay", "--game", "doudizhu", str(junk)], 1, "junk.bin:1: not a text file"),
        (["shanten", str(tmp_path)], 2, "unknown suit letter '/'"),
    ]
    for args, code, fragment in cases:
        got, out, err = main_of(capsys, monkeypatch, *args)
        assert got == code, (args, err)
        assert fragment in err + out, (args, err)
        errors = [line for line in err.splitlines() if line.startswith("error")]
        assert all(len(line) < 300 for line in errors)
    _, _, err = main_of(capsys, monkeypatch, "advise", long_hand)
    assert err.count("\n") == 1 and len(err) < 250  # the hand is quoted cut short
    res = real("advise", long_hand)  # and the real thing, in a process of its own
    assert res.returncode == 2 and res.stderr == err


def test_one_line_cuts_long_quotes() -> None:
    text = one_line("unknown suit letter 'x' in '" + "1" * 500 + "x' (use m p s z)\n\tmore")
    assert "\n" not in text and len(text) < 150 and text.endswith("...' (use m p s z) more")
    assert one_line("the player's hand 'abc' isn't") == "the player's hand 'abc' isn't"


# ---------------------------------------------------------------- 12: options that do not apply


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["simulate", "--kicker", "rlcard"], "--kicker does not apply to simulate --game riichi"),
        (["simulate", "--game", "doudizhu", "--length", "tonpuu"], "--length does not apply"),
        (["simulate", "--players", ""], "--players ''"),
        (
            ["advise", str(MJLOG), "--round", "E2", "--turn", "8", "--seat", "1", "--dora", "1m"],
            "--dora does not apply",
        ),
        (["advise", "2388m34556p33577s", "--turn", "3"], "--turn does not apply to a typed hand"),
        (
            ["score", "123m456p789s11z22z", "--win", "2z", "--riichi", "--double-riichi"],
            "--double-riichi together",
        ),
        (["advise", "2388m34556p33577s", "--riichi-by", "E"], "cannot be in riichi: the hand is not tenpai"),
        (
            ["replay", str(EDGE / "chankan.json"), "--player", "nobody", "--policy", "greedy"],
            "no such player",
        ),
    ],
)
def test_what_does_not_apply_is_refused_by_name(args: list[str], fragment: str) -> None:
    assert fragment in error_of(cli(*args))


# ---------------------------------------------------------------- 13: one meaning for --seat


def test_seat_numbers_and_winds_mean_the_same_seat() -> None:
    def seat_wind(*args: str) -> str:
        res = cli("advise", "2388m34556p33577s", "--policy", "greedy", "--json", *args)
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)["seat_wind"]

    assert seat_wind() == seat_wind("--seat", "0") == seat_wind("--seat", "E") == "E"
    assert seat_wind("--seat", "1") == seat_wind("--seat", "S") == "S"  # was East: "1" read as 1z
    assert seat_wind("--seat", "3") == seat_wind("--seat", "north") == "N"
    score = cli("score", "234m456p678s11222z", "--win", "2z", "--tsumo", "--seat", "1", "--json")
    assert json.loads(score.stdout)["seat"] == "S" and json.loads(score.stdout)["dealer"] is False
    assert "seat numbers are 0 to 3" in error_of(cli("score", "234m456p678s11222z", "--seat", "4"))
    assert "is not a wind" in error_of(cli("score", "234m456p678s11222z", "--round", "1"))


def test_a_log_seat_by_number_or_by_its_wind_in_the_round() -> None:
    def seat(value: str) -> int:
        res = cli("advise", str(MJLOG), "--round", "E2", "--turn", "8", "--seat", value, "--json")
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)["seat"]

    assert seat("1") == seat("E") == 1  # seat 1 deals E2: East in that round


# ---------------------------------------------------------------- 15, 16: bounds and display


@pytest.mark.parametrize(
    "args",
    [
        ["score", "234m456p678s11222z", "--sticks", "99999999999999999999"],
        ["score", "234m456p678s11222z", "--honba", "-1"],
        ["simulate", "--games", "0"],
        ["simulate", "--seed", "-5"],
        ["verify", str(MJAI), "--jobs", "100000"],
        ["replay", str(MJAI), "--max-changes", "-1"],
    ],
)
def test_numeric_options_are_bounded(args: list[str]) -> None:
    res = cli(*args)
    assert res.exit_code == 2 and "Invalid value" in res.output and "Traceback" not in res.output


def test_advise_shows_the_red_five_the_hand_holds() -> None:
    res = cli("advise", "1230m456p789s1122z", "--policy", "greedy", "--json")
    tiles = [d["tile"] for d in json.loads(res.stdout)["discards"]]
    assert "0m" in tiles and "5m" not in tiles
    text = cli("advise", "1230m456p789s1122z", "--policy", "greedy").stdout
    assert any(line.startswith("0m ") for line in text.splitlines())


def test_shanten_and_advise_name_the_discarded_tile_alike() -> None:
    advise = json.loads(cli("advise", "2388m34556p33577s", "--policy", "greedy", "--json").stdout)
    shanten = json.loads(cli("shanten", "2388m34556p33577s", "--json").stdout)
    assert (
        set(advise["discards"][0])
        == set(shanten["discards"][0]) - {"remaining"}
        == {
            "tile",
            "shanten",
            "ukeire",
            "tiles",
        }
    )


def test_a_call_decision_shows_the_offered_tile_not_drawn_none() -> None:
    from mjcli.riichi.replay import ReplayOptions, replay_file

    rows = replay_file(str(MJLOG), "log", ReplayOptions(("greedy",))).decisions
    call = rows.filter(pl.col("kind") == "call").row(0, named=True)
    result = advise_log(str(MJLOG), call["round"], call["honba"], call["turn"], call["seat"], "greedy")
    text = render(result)
    assert "drawn None" not in text
    assert f"offered {result['offered']} by seat {result['offered_by']}" in text
    assert result["drawn"] is None and result["offered"] == call["offered"]


# ---------------------------------------------------------------- 17, 19, 20, 21: conventions


def test_version_and_python_dash_m() -> None:
    from mjcli import __version__

    assert cli("--version").stdout == f"mjcli {__version__}\n"
    res = real("--version")
    assert res.returncode == 0 and res.stdout == f"mjcli {__version__}\n"


@pytest.mark.parametrize("command", ["verify", "replay", "simulate"])
def test_help_tells_the_jobs_default(command: str) -> None:
    text = " ".join(cli(command, "--help").stdout.split())
    assert "[default: one per core]" in text and "[default: 1]" not in text
    assert "1<=x<=" in text.replace(" ", "")


def test_plural_only_when_plural(tmp_path: Path) -> None:
    res = cli("simulate", "--games", "1", "--jobs", "1", "--players", "greedy", "--seed", "2")
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith("1 game, ") and "(" in res.stderr and "1 job)" in res.stderr
    res = cli("verify", str(EDGE / "chankan.json"), "-j", "1")
    assert "1 log: 1 ok, 0 mismatching, 0 errors" in res.stdout


def test_file_names_that_are_not_utf8(tmp_path: Path) -> None:
    # a Shift-JIS name from an archive of Japanese logs: replay and convert failed with tracebacks
    # (Polars and JSON writers take no lone surrogates), convert wrote invalid UTF-8 to stdout
    folder = tmp_path / "logs"
    folder.mkdir()
    raw = os.fsencode(folder) + b"/\x93\x8c\x95\x97.jsonl"  # "東風" in Shift-JIS
    with open(raw, "wb") as f:
        f.write((LOGS / "mjai" / "126_204_0_mjai.jsonl").read_bytes())
    out = tmp_path / "rep"
    rep = real("replay", str(folder), "--policy", "greedy", "--jobs", "1", "--out", str(out))
    assert rep.returncode == 0, rep.stderr
    files = pl.read_parquet(out / "games.parquet")["file"].unique().to_list()
    assert files == ["\\x93\\x8c\\x95\\x97.jsonl"]
    conv = subprocess.run(
        [sys.executable, "-m", "mjcli", "convert", os.fsdecode(raw), "--to", "tenhou6"],
        capture_output=True,
        timeout=60,
    )
    assert conv.returncode == 0 and json.loads(conv.stdout.decode("utf-8"))["ref"] == "\\x93\\x8c\\x95\\x97"
    # verify's file column and --json (the path, not the label, went there), Dou Dizhu's replay
    checked = subprocess.run(
        [sys.executable, "-m", "mjcli", "verify", str(folder), "--json", "--out", str(tmp_path / "ver")],
        capture_output=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout.decode("utf-8").splitlines()[0])["file"].endswith(
        "\\x93\\x8c\\x95\\x97.jsonl"
    )
    assert pl.read_parquet(tmp_path / "ver" / "verify.parquet")["file"][0].endswith(
        "\\x93\\x8c\\x95\\x97.jsonl"
    )
    # a file of that name that fails to read: its error names it with the same escapes, so that
    # --json stays UTF-8 (the error held the raw bytes) and a listing stays one line per file
    bad = tmp_path / "bad"
    bad.mkdir()
    with open(os.fsencode(bad) + b"/\x93\x8c.json", "wb") as f:
        f.write(bytes(range(256)))
    (bad / "two\nlines.json").write_bytes((LOGS / "tenhou6-edge" / "chankan.json").read_bytes())
    for args in (["verify"], ["verify", "--game", "hk"], ["replay", "--policy", "greedy"]):
        run = subprocess.run(
            [sys.executable, "-m", "mjcli", *args, str(bad), "--json"], capture_output=True, timeout=60
        )
        assert run.returncode == 1 and b"Traceback" not in run.stderr, run.stderr
        assert all(json.loads(line) for line in run.stdout.decode("utf-8").splitlines())  # UTF-8 JSON
        assert "\\\\x93\\\\x8c.json" in run.stdout.decode("utf-8"), args  # JSON: an escaped backslash
    listing = subprocess.run(
        [sys.executable, "-m", "mjcli", "verify", str(bad)], capture_output=True, timeout=60
    )
    text = listing.stdout.decode("utf-8")
    assert "\\x93\\x8c.json: not a game log" in text and "two\\nlines.json" in text
    assert len(text.splitlines()) == 4  # two files, the error under the first, the summary
    ddz = tmp_path / "ddz"
    assert real("simulate", "--game", "doudizhu", "--games", "2", "--out", str(ddz)).returncode == 0
    records = tmp_path / "records"
    records.mkdir()
    with open(os.fsencode(records) + b"/\x93\x8c.jsonl", "wb") as f:
        f.write((ddz / "games.jsonl").read_bytes())
    dz = real("replay", "--game", "doudizhu", str(records), "--out", str(tmp_path / "dzr"))
    assert dz.returncode == 0 and "Traceback" not in dz.stderr, dz.stderr
    bad_out = real("verify", str(folder), "--out", os.fsdecode(os.fsencode(tmp_path) + b"/\xff"))
    assert bad_out.returncode == 2 and "a path that is not UTF-8 text" in bad_out.stderr
    assert "Traceback" not in bad_out.stderr


def test_a_broken_link_or_a_link_loop_is_named_so(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "gone").symlink_to(tmp_path / "nothing")
    for name in ("a", "gone"):
        res = real("verify", str(tmp_path / name))
        assert res.returncode == 2 and "is a link to nothing (a broken link or a loop)" in res.stderr


# ---------------------------------------------------------------- found by a contract probe (12-07)


def test_a_missing_path_in_a_batch_is_reported_and_the_rest_processed(tmp_path: Path) -> None:
    gone = str(tmp_path / "gone.mjlog")
    for args in (
        ["verify", str(MJLOG), gone],
        ["verify", "-"],
        ["replay", str(MJLOG), gone, "--policy", "greedy"],
    ):
        res = real(*args, stdin=f"{MJLOG}\n{gone}\n")
        assert res.returncode == 1 and "Traceback" not in res.stderr, (args, res.stderr)
        assert "gone.mjlog" in res.stdout + res.stderr and "No such file" in res.stdout + res.stderr
        assert "15 rounds" in res.stdout or "979 decision points" in res.stdout  # the good log was done
    # nothing named is there at all: a mistyped command line, exit 2 naming the first path
    res = real("verify", gone, str(tmp_path / "gone2.mjlog"))
    assert res.returncode == 2 and res.stderr.strip() == f"error: log '{gone}' does not exist"


def test_dou_dizhu_replay_reports_an_empty_record_file(tmp_path: Path) -> None:
    (tmp_path / "e.jsonl").write_text("")
    (tmp_path / "blank.jsonl").write_text("\n\n")
    res = cli(
        "replay", "--game", "doudizhu", str(tmp_path / "e.jsonl"), str(tmp_path / "blank.jsonl"), "--json"
    )
    assert res.exit_code == 1
    summary = json.loads(res.stdout.splitlines()[-1])
    assert [e["error"].split(": ", 1)[1] for e in summary["errors"]] == [
        "the file is empty (no game record)"
    ] * 2


def test_names_that_play_in_no_log_are_refused(tmp_path: Path) -> None:
    res = cli(
        "replay", str(MJLOG), "--policy", "greedy", "--hands-shown", "nobdy", "--out", str(tmp_path / "r")
    )
    assert error_of(res).startswith("--hands-shown nobdy: no such player in these logs (players: asapin")
    assert not (tmp_path / "r").exists()  # refused before anything was put in place
    res = cli("advise", str(MJLOG), "--round", "E1", "--turn", "0", "--seat", "0", "--hands-shown", "nobdy")
    assert error_of(res).startswith("--hands-shown nobdy: no such player in this game")
    assert cli("replay", str(MJLOG), "--policy", "greedy", "--hands-shown", "ASAPIN").exit_code == 0


def test_a_plugin_file_that_is_not_there_is_refused_used_or_not(tmp_path: Path) -> None:
    for args in (
        ["policies"],
        ["replay", str(MJLOG), "--policy", "greedy"],
        ["simulate", "--game", "hk", "--games", "1"],
        ["policies", "--game", "doudizhu"],
    ):
        res = cli(*args, "--plugin", "x=nonexist.py:A")
        assert error_of(res) == "--plugin x=...: plugin file 'nonexist.py' does not exist", args
    (tmp_path / "folder.py").mkdir()
    res = cli("policies", "--plugin", f"x={tmp_path / 'folder.py'}:A")
    assert error_of(res).endswith("folder.py' is a folder, not a Python file")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["score", "22456m456p456s678s", "--win", "8s", "--tenhou", "--tsumo", "--riichi"],
            "--tenhou is a win on the first draw, before any discard or call: not with --riichi",
        ),
        (
            ["score", "22456m456p456s678s", "--win", "8s", "--chiihou", "--tsumo", "--seat", "S", "--haitei"],
            "--chiihou is a win on the first draw, before any discard or call: not with --haitei",
        ),
        (
            ["score", "22456m456p456s678s", "--win", "8s", "--ura", "3s"],
            "--ura counts only for a hand in riichi: give --riichi or --double-riichi too",
        ),
        (
            ["shanten", "123m456p789s1135z", "--shanten-only", "--fields", "hand,ukeire", "--json"],
            "--fields ukeire: --shanten-only leaves out everything but hand, size and shanten",
        ),
        (
            ["score", "11z", "--melds", "pon:111m,pon:222m,pon:333m,pon:444m,pon:555m"],
            "5 melds, and a hand has four sets at most",
        ),
        (
            ["simulate", "--game", "doudizhu", "--games", "2", "--players", "zhanpai,greedy,random,random"],
            "give one to three policy names for the three seats",
        ),
    ],
)
def test_options_that_mean_nothing_together_are_refused(args: list[str], message: str) -> None:
    assert message in error_of(cli(*args))


def test_dou_dizhu_advise_seed_has_the_bounds_of_every_seed() -> None:
    for seed in ("-1", str(2**63)):
        res = cli("advise", "--game", "doudizhu", "3456789TJQKA22BR", "--seed", seed)
        assert res.exit_code == 2 and "0<=x<=9223372036854775807" in res.output


def test_summary_and_report_of_a_stopped_simulation_say_how_to_finish_it(tmp_path: Path) -> None:
    # what a `simulate --resume` stopped after one task leaves: its records and parts, no contents
    (tmp_path / "_manifests").mkdir()
    (tmp_path / "_manifests" / "task-0.json").write_text("{}")
    for table in ("games", "rounds", "logs"):
        (tmp_path / table).mkdir()
    for args in (["summary", str(tmp_path)], ["report", str(tmp_path), "-o", str(tmp_path / "r.html")]):
        message = error_of(cli(*args))
        assert "holds the parts of a run that did not finish (1 tasks done" in message, args
        assert message.endswith("running the same command again with --resume")


def test_a_long_input_holding_a_quote_is_cut_too() -> None:
    typed = "1m' " + "1m " * 200
    res = real("score", typed)
    line = res.stderr.strip()
    assert (
        res.returncode == 2
        and len(line) < 200
        and line.endswith("(use m p s z, or E S W N P F C for honours)")
    )
    # a long message of short quotes is left whole (nothing in it is a quoted input to cut)
    names = ", ".join(f"policy-{i}" for i in range(40))
    message = f"unknown policy 'nope' (known: {names}); or name a --plugin 'x' or a --bot 'y'"
    assert one_line(message) == message


def test_bot_check_seed_has_the_bounds_of_every_seed() -> None:
    res = cli("bot", "check", "mini=python3 examples/mjai_bot.py {seat}", "--seed", "-1")
    assert res.exit_code == 2 and "0<=x<=9223372036854775807" in res.output


def test_replay_takes_several_seats_in_one_option_and_summary_names_the_game_to_give(tmp_path: Path) -> None:
    one = cli(
        "replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--seat", "0", "--seat", "1", "--json"
    )
    both = cli("replay", str(EDGE / "chankan.json"), "--policy", "greedy", "--seat", "0,1", "--json")
    assert one.exit_code == both.exit_code == 0
    assert json.loads(one.stdout.splitlines()[-1])["rows"] == json.loads(both.stdout.splitlines()[-1])["rows"]
    assert "replay takes seat numbers 0-3" in error_of(
        cli("replay", str(EDGE / "chankan.json"), "--seat", "0,E")
    )
    # a Hong Kong replay's folder read as riichi's: the game to give is named
    sim, rep = tmp_path / "sim", tmp_path / "rep"
    assert cli("simulate", "--game", "hk", "--games", "1", "--out", str(sim)).exit_code == 0
    assert cli("replay", "--game", "hk", str(sim / "logs"), "--out", str(rep)).exit_code == 0
    assert error_of(cli("summary", str(rep))).endswith("is a hk replay's: give --game hk")
    assert cli("summary", "--game", "hk", str(rep)).exit_code == 0


def test_summary_of_a_dou_dizhu_replay_says_that_game_has_none(tmp_path: Path) -> None:
    # It said "give --game doudizhu", which only answers "doudizhu has no summary command".
    sim, rep = tmp_path / "sim", tmp_path / "rep"
    assert cli("simulate", "--game", "doudizhu", "--games", "2", "--out", str(sim)).exit_code == 0
    assert (
        cli("replay", "--game", "doudizhu", str(sim), "--policies", "greedy", "--out", str(rep)).exit_code
        == 0
    )
    message = error_of(cli("summary", str(rep)))
    assert message.endswith(
        "is a doudizhu replay's, and doudizhu has no summary command: its replay printed the agreement, "
        "and `mjcli report` on its folder draws it"
    )
    assert "give --game" not in message


def test_advise_sanma_names_the_dora_indicator_or_seen_tile_that_is_absent_not_the_hand() -> None:
    """A 5m dora indicator in three-player was blamed on the hand ("hand '...': 5m is not in the
    set"), whose tiles were all fine; the message names the option's group that holds it."""
    hand = "19m159p19s34557z4p4z"
    dora = error_of(cli("advise", hand, "--sanma", "--dora", "5m"))
    assert "the dora indicator 5m is not in the set of three-player" in dora
    seen = error_of(cli("advise", hand, "--sanma", "--seen", "0m"))
    assert "the seen tile 0m is not in the set" in seen
    own = error_of(cli("advise", "19m159p19s34557z4p3m", "--sanma"))
    assert "'19m159p19s34557z4p3m': 3m is not in the set" in own
