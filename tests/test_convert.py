"""``mjcli convert`` end to end, through the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from shared import LOGS

from mjcli.riichi.formats import read_log

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


def test_three_player_games_are_refused_clearly(tmp_path: Path) -> None:
    log = tmp_path / "sanma.mjlog"
    log.write_text(
        '<mjloggm ver="2.3"><GO type="185"/><UN n0="A" n1="B" n2="C" n3=""/><INIT seed="0,0,0,1,1,10" '
        'ten="350,350,350,0" oya="0" hai0="120,4,8,12,16,20,24,28,32,36,40,44,48" '
        'hai1="1,5,9,13,17,21,25,29,33,37,41,45,49" hai2="2,6,10,14,18,22,26,30,34,38,42,46,50" hai3=""/>'
        "<T60/><D60/></mjloggm>"
    )
    r = mjcli("convert", str(log), "--to", "tenhou6")
    assert r.returncode == 2
    assert "three-player games are not supported yet" in r.stderr
