"""Log files as they are met in the wild, each built from a shared real log: gzipped tenhou.net/6
and mjai (Mortal's datasets are ``*.json.gz``), mjai as one JSON array (on one line or
pretty-printed), a tenhou.net/6 collection of whole games one a line, an mjlog with single-quoted
attributes. Each must read as the original does, through ``verify`` on the command line too."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

import pytest
from shared import LOGS
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import LogFormatError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.formats import read_bytes, read_log

runner = CliRunner()
MJAI = LOGS / "mjai" / "126_204_0_mjai.jsonl"
T6_RANKED = LOGS / "tenhou6-edge" / "ranked_game.json"
T6_KANS = LOGS / "tenhou6-edge" / "suukantsu_1.json"
T6_LINES = LOGS / "tenhou6" / "2010081709gm-00a9-0000-fe3371ad.json"
XML = LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog"


def _events(path_or_games) -> list:
    """Each game's events, the game id (from the file's name) left out."""
    games = read_log(path_or_games) if isinstance(path_or_games, Path) else path_or_games
    return [[_unnamed(e) for e in g.events] for g in games]


def _unnamed(e):
    return dataclasses.replace(e, game_id="") if isinstance(e, ev.StartGame) else e


def _verify_ok(*paths: Path, games: int | None = None) -> None:
    result = runner.invoke(app, ["verify", *map(str, paths)])
    assert result.exit_code == 0, result.output
    n = len(paths) if games is None else games
    assert f"{n} ok, 0 mismatching, 0 errors" in result.output.splitlines()[-1], result.output


@pytest.mark.parametrize("original", [MJAI, T6_RANKED, T6_LINES, XML], ids=lambda p: p.parent.name)
def test_every_format_reads_gzipped(tmp_path, original):
    packed = tmp_path / (original.name + ".gz")
    packed.write_bytes(gzip.compress(original.read_bytes()))
    assert _events(packed) == _events(original)
    _verify_ok(packed)
    # a gzip stream cut short is a corrupt file, named
    cut = tmp_path / ("cut-" + packed.name)
    cut.write_bytes(packed.read_bytes()[:-20])
    with pytest.raises(LogFormatError, match="corrupt gzip data"):
        read_log(cut)


def test_mjai_as_one_json_array_on_one_line_or_pretty_printed(tmp_path):
    objs = [json.loads(x) for x in MJAI.read_text(encoding="utf-8").splitlines() if x.strip()]
    one_line = tmp_path / "one-line.json"
    one_line.write_text(json.dumps(objs), encoding="utf-8")
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(objs, indent=2), encoding="utf-8")
    # mjai.app's framing: a line holds the events sent at once, an array
    framed = tmp_path / "framed.jsonl"
    framed.write_text(
        "\n".join(json.dumps(objs[i : i + 7]) for i in range(0, len(objs), 7)), encoding="utf-8"
    )
    for path in (one_line, pretty, framed):
        assert _events(path) == _events(MJAI), path.name
    _verify_ok(one_line, pretty, framed)
    # an item that is no event is named
    objs[3] = {"no": "type"}
    pretty.write_text(json.dumps(objs, indent=2), encoding="utf-8")
    with pytest.raises(LogFormatError, match="item 4 of the JSON array is not an mjai event"):
        read_log(pretty)
    one_line.write_text(json.dumps(objs), encoding="utf-8")
    with pytest.raises(LogFormatError, match="line 1, item 4 is not an mjai event"):
        read_log(one_line)


def test_tenhou6_whole_games_one_a_line_are_separate_games(tmp_path):
    games = [
        json.loads(T6_RANKED.read_text(encoding="utf-8")),
        json.loads(T6_KANS.read_text(encoding="utf-8")),
    ]
    path = tmp_path / "collection.jsonl"
    path.write_text("\n".join(json.dumps(g, ensure_ascii=False) for g in games) + "\n", encoding="utf-8")
    got = read_log(path)
    assert _events(got) == _events(T6_RANKED) + _events(T6_KANS)
    _verify_ok(path, games=2)
    # one round a line (mjx's files) stays one game, as does the same game twice over: a game
    # begins at East 1 with no honba, or after a line with the game's final result
    assert len(read_log(T6_LINES)) == 1
    twice = tmp_path / "twice.jsonl"
    twice.write_text(T6_LINES.read_text(encoding="utf-8") * 2, encoding="utf-8")
    assert _events(twice) == _events(T6_LINES) * 2


def test_an_mjlog_with_single_quoted_attributes(tmp_path):
    text = XML.read_text(encoding="utf-8")
    swapped = tmp_path / "single.mjlog"
    swapped.write_text(text.replace('"', "'"), encoding="utf-8")
    assert _events(swapped) == _events(XML)
    _verify_ok(swapped)


def test_a_plain_log_is_not_taken_for_gzip_by_its_name(tmp_path):
    # the content decides, never the name: a plain mjai file named .gz reads as it is
    plain = tmp_path / "plain.jsonl.gz"
    plain.write_bytes(MJAI.read_bytes())
    assert _events(plain) == _events(MJAI)
    assert _events(read_bytes(gzip.compress(MJAI.read_bytes()), "x")) == _events(MJAI)


def test_an_output_folder_of_mjcli_is_walked_for_its_logs_alone(tmp_path):
    # verify or replay over what simulate and replay wrote: their summary, manifest, the bots' faults
    # and stderr, a dataset's contents and task manifests were read as logs that failed (exit 1)
    out = tmp_path / "sim"
    assert (
        runner.invoke(
            app, ["simulate", "--games", "1", "--seed", "3", "--length", "tonpuu", "--out", str(out)]
        ).exit_code
        == 0
    )
    assert (out / "summary.json").is_file()
    (out / "replay.json").write_text("{}", encoding="utf-8")
    (out / "dataset.json").write_text("{}", encoding="utf-8")
    (out / "faults.jsonl").write_text('{"policy": "b", "fault": "timeout"}\n', encoding="utf-8")
    (out / "b.stderr.log").write_text("Traceback (most recent call last):\n", encoding="utf-8")
    (out / "_manifests").mkdir()
    (out / "_manifests" / "task.json").write_text("{}", encoding="utf-8")
    logs = sorted((out / "logs").iterdir())
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith(f"{len(logs)} logs: {len(logs)} ok"), result.output
    # a file named on the command line is read whatever its name says
    result = runner.invoke(app, ["verify", str(out / "summary.json")])
    assert result.exit_code == 1 and "neither tenhou.net/6" in result.output


def test_a_kobalab_majiang_paipu_is_named_not_called_broken_tenhou6(tmp_path):
    """kobalab's Majiang (電脳麻将) paipu also holds a ``log``, of rounds that are lists of one-key
    objects (MahjongLM converts Tenhou games to it): named for what it is, in one line, and the
    batch goes on; a tenhou.net/6 log is still read."""
    paipu = {
        "title": "",
        "player": ["a", "b", "c", "d"],
        "qijia": 0,
        "log": [
            [{"qipai": {"zhuangfeng": 0, "jushu": 0, "defen": [25000] * 4}}, {"zimo": {"l": 0, "p": "m1"}}]
        ],
    }
    bad = tmp_path / "game.json"
    bad.write_text(json.dumps(paipu), encoding="utf-8")
    with pytest.raises(
        LogFormatError, match=r"game\.json: a kobalab Majiang \(電脳麻将\) paipu, not a format"
    ):
        read_log(bad)
    good = LOGS / "tenhou6" / "2011020416gm-00a9-0000-025480d4.json"
    result = runner.invoke(app, ["verify", str(bad), str(good)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("ERROR ") and "kobalab Majiang" in lines[1]
    assert lines[-1].startswith("2 logs: 1 ok, 0 mismatching, 1 error")


def test_a_lone_surrogate_in_a_name_is_written_as_its_escape(tmp_path: Path) -> None:
    """JSON allows "\\ud800" (half of a UTF-16 pair) alone; no UTF-8 holds it, and replay stopped
    with a UnicodeEncodeError traceback where Parquet took the player's name (convert too). The name
    reads as the escape's text, in every format."""
    import polars as pl

    lines = MJAI.read_text(encoding="utf-8").split("\n")
    start = json.loads(lines[0])
    start["names"] = ["\ud800x", *start.get("names", ["a", "b", "c", "d"])[1:]]
    lines[0] = json.dumps(start)  # (ensure_ascii: the surrogate is written as the escape)
    assert "\\ud800x" in lines[0]
    log = tmp_path / "surrogate.jsonl"
    log.write_text("\n".join(lines), encoding="utf-8")
    (game,) = read_log(log)
    assert game.events[0].names[0] == "\\ud800x"
    rep = tmp_path / "rep"
    res = runner.invoke(app, ["replay", str(log), "--policies", "greedy", "--out", str(rep)])
    assert res.exit_code == 0, res.output
    assert "\\ud800x" in set(pl.read_parquet(rep / "decisions.parquet")["player"])
    t6 = tmp_path / "surrogate.json"
    res = runner.invoke(app, ["convert", str(log), "--to", "tenhou6", "-o", str(t6)])
    assert res.exit_code == 0, res.output
    (again,) = read_log(t6)
    assert again.events[0].names[0] == "\\ud800x"
