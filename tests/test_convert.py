"""``mjcli convert`` end to end, through the installed console script."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from shared import LOGS

from mjcli.riichi.formats import read_bytes, read_log

XML = LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog"
MJAI = LOGS / "mjai" / "126_204_0_mjai.jsonl"


def mjcli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from mjcli.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_convert_xml_to_tenhou6_on_stdout() -> None:
    r = mjcli("convert", str(XML), "--to", "tenhou6")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["ref"] == XML.stem and len(obj["log"]) == 15
    assert obj["log"][0][-1][0] == "和了"


def test_convert_to_file_is_read_back_to_the_same_events(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "game.mjson"
    r = mjcli("convert", str(XML), "--to", "mjai", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "-> " in r.stdout and "1 game, 15 rounds" in r.stdout
    (orig,) = read_log(XML)
    (back,) = read_log(out)
    assert back.events == orig.events
    assert not list(out.parent.glob(".*.tmp"))  # atomic write left no temporary file


def test_convert_json_summary(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    r = mjcli("convert", str(MJAI), "--to", "tenhou6", "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary == {
        "input": str(MJAI),
        "output": str(out),
        "from": "mjai",
        "to": "tenhou6",
        "games": 1,
        "rounds": 12,
        "complete": True,
    }
    (orig,) = read_log(MJAI)
    (back,) = read_log(out)
    assert back.events[1:] == orig.events[1:]


def test_incomplete_log_converts_with_a_warning() -> None:
    r = mjcli(
        "convert",
        str(LOGS / "tenhou-xml" / "2011020401gm-00a9-0000-f6eff225-no-round-end.mjlog"),
        "--to",
        "mjai",
    )
    assert r.returncode == 0
    assert "warning:" in r.stderr and "incomplete" in r.stderr and "S4" in r.stderr
    assert r.stdout.splitlines()[-1].startswith('{"type":"')


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mjlog"
    junk.write_text("this is not a log")
    for args in (
        ("convert", str(junk), "--to", "mjai"),
        ("convert", str(XML), "--to", "pdf"),
        ("convert", str(tmp_path / "missing.json"), "--to", "mjai"),
        ("convert", str(XML), "--to", "mjai", "--json"),
    ):
        r = mjcli(*args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
        assert "Traceback" not in r.stderr


def test_a_failed_conversion_leaves_no_folder_behind(tmp_path: Path) -> None:
    """-o's missing folders are made by the write: a log that could not be read left them empty
    (they were made when -o was checked, before the work)."""
    junk = tmp_path / "junk.mjlog"
    junk.write_text("this is not a log")
    r = mjcli("convert", str(junk), "--to", "mjai", "-o", str(tmp_path / "new" / "sub" / "x.mjson"))
    assert r.returncode == 2 and not (tmp_path / "new").exists(), r.stderr
    r = mjcli("convert", str(XML), "--to", "mjai", "-o", str(tmp_path / "new" / "sub" / "x.mjson"))
    assert r.returncode == 0 and (tmp_path / "new" / "sub" / "x.mjson").is_file(), r.stderr
    # a file where a folder of -o should be is still refused before the work
    r = mjcli("convert", str(XML), "--to", "mjai", "-o", str(junk / "x.mjson"))
    assert r.returncode == 2 and "is not a directory" in r.stderr, r.stderr


def test_three_player_games_are_converted(tmp_path: Path) -> None:
    log = Path(__file__).resolve().parents[1] / "fixtures" / "sanma" / "2014091101gm-00b9-0000-5ca6b487.mjlog"
    out = tmp_path / "sanma.json"
    r = mjcli("convert", str(log), "--to", "tenhou6", "-o", str(out))
    assert r.returncode == 0, r.stderr
    obj = json.loads(out.read_text())
    # Tenhou's own three-player layout: 三 in the rule (then the lobby), an empty fourth seat everywhere
    assert (
        obj["rule"]["disp"] == "三鳳南喰赤" and obj["name"][3] == "" and len(obj["sc"]) == 8
    )  # GO 185: phoenix
    assert all(rnd[1][3] == 0 and rnd[13:16] == [[], [], []] for rnd in obj["log"])


def test_dash_is_standard_input_and_standard_output(tmp_path: Path) -> None:
    # `-o -` wrote a file named '-'; `convert -` said "-: cannot read"
    r = subprocess.run(
        [sys.executable, "-m", "mjcli", "convert", "-", "--to", "tenhou6", "-o", "-"],
        input=XML.read_bytes(),
        capture_output=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "-").exists()
    converted = tmp_path / "g.json"
    converted.write_bytes(r.stdout)
    (orig,) = read_log(XML)
    (back,) = read_log(converted)
    assert back.events[1:] == orig.events[1:]  # the game id is the input's name: "stdin" here
    empty = subprocess.run(
        [sys.executable, "-m", "mjcli", "convert", "-", "--to", "mjai"],
        input=b"",
        capture_output=True,
        timeout=60,
    )
    assert empty.returncode == 2 and empty.stderr.decode().strip() == "error: stdin: the file is empty"


def test_final_points_the_source_lacks_are_not_made_up(tmp_path: Path) -> None:
    """An mjai end_game with scores and no points: tenhou6 writes null points (it wrote 0, read
    back as recorded points, and the converted log failed to verify: a reviewer's finding), and
    back to mjai no points come out."""
    source = (
        Path(__file__).resolve().parents[1] / "fixtures" / "sanma" / "2020010100gm-00b9-0000-7a6863a8.mjson"
    )
    out = tmp_path / "game.json"
    assert mjcli("convert", str(source), "--to", "tenhou6", "-o", str(out)).returncode == 0
    assert json.loads(out.read_text())["sc"][:6] == [69100, None, -7800, None, 43700, None]
    r = mjcli("verify", str(source), str(out))
    assert r.returncode == 0 and "2 ok" in r.stdout, r.stdout
    back = mjcli("convert", str(out), "--to", "mjai")
    assert json.loads(back.stdout.splitlines()[-1]) == {"type": "end_game", "scores": [69100, -7800, 43700]}


def test_the_header_is_carried_to_tenhou6() -> None:
    """Ranks, ratings, sex codes, the title and the rule line with its lobby (a reviewer found them
    dropped or rebuilt without the lobby: 鳳南喰赤 -> 南喰赤)."""
    r = mjcli("convert", str(XML), "--to", "tenhou6")
    obj = json.loads(r.stdout)
    # UN dan="16,17,17,17" rate="2121,2181,2185,2177" sx="M,M,M,F"; GO type 169: phoenix, South
    assert obj["dan"] == ["七段", "八段", "八段", "八段"] and obj["rate"] == [2121.0, 2181.0, 2185.0, 2177.0]
    assert obj["sx"] == ["M", "M", "M", "F"] and obj["rule"]["disp"] == "鳳南喰赤"
    edge = LOGS / "tenhou6-edge" / "ryukyoku.json"
    theirs = json.loads(edge.read_text(encoding="utf-8"))
    ours = json.loads(mjcli("convert", str(edge), "--to", "tenhou6").stdout)
    assert ours["title"] == theirs["title"] != ["", ""] and ours["rule"]["disp"] == theirs["rule"]["disp"]
    # mjai has no place for it, and the events of one game are the same whatever header they carry
    (a,) = read_log(XML)
    (b,) = read_bytes(mjcli("convert", str(XML), "--to", "mjai").stdout.encode(), "back.jsonl")
    assert a.start.header.dan and not b.start.header.dan and a.events == b.events


def test_an_odd_header_is_left_out_and_never_fails_the_log(tmp_path: Path) -> None:
    """Ratings that are not finite numbers (a huge integer raised OverflowError; NaN was written as
    JSON no parser reads), and a three-player mjlog whose GO type lacks the three-player bit (its
    header was read for four seats) - a reviewer's findings on the header."""
    obj = json.loads(mjcli("convert", str(XML), "--to", "tenhou6").stdout)
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps({**obj, "rate": [10**400, 1, 2, 3]}), encoding="utf-8")
    r = mjcli("convert", str(huge), "--to", "tenhou6")
    assert r.returncode == 0, r.stderr
    assert "rate" not in json.loads(r.stdout) and "dan" in json.loads(r.stdout)
    text = XML.read_text(encoding="utf-8")
    odd = tmp_path / "nan.mjlog"
    odd.write_text(re.sub(r'rate="[^"]*"', 'rate="nan,inf,1e999,-1"', text), encoding="utf-8")
    out = mjcli("convert", str(odd), "--to", "tenhou6").stdout
    assert "NaN" not in out and "Infinity" not in out and "rate" not in json.loads(out)
    sanma = (
        Path(__file__).resolve().parents[1] / "fixtures" / "sanma" / "2014091101gm-00b9-0000-5ca6b487.mjlog"
    )
    no_bit = tmp_path / "sanma169.mjlog"
    no_bit.write_text(sanma.read_text(encoding="utf-8").replace('type="185"', 'type="169"'), encoding="utf-8")
    three = json.loads(mjcli("convert", str(no_bit), "--to", "tenhou6").stdout)
    assert len(three["dan"]) == len(three["sx"]) == 4 and three["dan"][3] == ""
    assert three["rule"]["disp"].startswith("三")
