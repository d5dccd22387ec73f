"""Dou Dizhu: a record whose "players" is not three names is that record's error (the batch goes
on), and a plugin's bug (it raises, or answers outside the legal choices) stops advise, simulate
and replay as riichi's plugins do: one line naming the plugin and the position, exit 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.doudizhu.simulate import simulate

runner = CliRunner()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("ddz") / "sim"
    simulate(["zhanpai", "greedy", "random"], 3, 1, out=out, jobs=1)
    return (out / "games.jsonl").read_text().splitlines()


@pytest.mark.parametrize("players", [5, None, ["a"], "abc", ["a", "b", 3]])
def test_players_not_three_names_is_the_records_error(
    tmp_path: Path, records: list[str], players: object
) -> None:
    lines = [json.loads(x) for x in records]
    lines[1]["players"] = players
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    r = runner.invoke(app, ["replay", "--game", "doudizhu", str(path), "--json"])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    summary = json.loads(r.stdout)
    assert summary["games"] == 2  # the other records are replayed
    [error] = summary["errors"]
    assert error["file"] == str(path)
    assert error["error"] == "record 2: game 1: malformed record (players: three names expected)"
    assert r.exit_code == 1


def test_a_long_input_in_a_records_error_is_cut(tmp_path: Path, records: list[str]) -> None:
    # The error lines quoted the whole input: a 3000-card "hand" made a line of 3000 characters.
    lines = [json.loads(x) for x in records]
    lines[0]["hands"][0] = "3" * 3000 + "X"
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines) + "{" + "x" * 3000 + "\n")
    r = runner.invoke(app, ["replay", "--game", "doudizhu", str(path), "--json"])
    summary = json.loads(r.stdout)
    assert summary["games"] == 2 and r.exit_code == 1
    bad_hand, bad_line = sorted(summary["errors"], key=lambda e: not e["error"].startswith("record "))
    assert bad_hand["error"] == (
        f"record 1: game 0: cannot read card 'X' in '{'3' * 77}...': use 3456789TJQKA2BR (10 for T, "
        "B/R for the jokers)"
    )
    assert len(bad_line["error"]) < 200, bad_line["error"]


PLUGINS = """
class Raises:
    def decide(self, view, legal):
        raise RuntimeError("kaboom")


class RaisesWhenPlaying:
    def decide(self, view, legal):
        if hasattr(view, "bids"):
            return 0
        raise ValueError("no play")


class NativeRaises:
    def bid(self, view, rng):
        raise KeyError("no bid")

    def play(self, view, rng):
        raise KeyError("no play")


class NativeCheats:
    def bid(self, view, rng):
        return 0, "never bids"

    def play(self, view, rng):
        return "the joker", "cheating"
"""

COMMANDS = {
    "advise": ["advise", "--game", "doudizhu", "222AAAKKKJJT98766554433", "--policies", "greedy,p"],
    "simulate": ["simulate", "--game", "doudizhu", "--players", "greedy,p,random", "--games", "2"],
}


@pytest.mark.parametrize(
    ("plugin", "says"),
    [
        ("Raises", "raised RuntimeError: kaboom"),
        ("RaisesWhenPlaying", "raised ValueError: no play (seat "),
        ("NativeRaises", "raised KeyError: 'no "),
        ("NativeCheats", "answered ('the joker', 'cheating'), not one of the"),
    ],
)
@pytest.mark.parametrize("command", ["advise", "simulate", "simulate-jobs", "replay"])
def test_a_plugins_bug_stops_the_command_in_one_line(
    tmp_path: Path, records: list[str], command: str, plugin: str, says: str
) -> None:
    (tmp_path / "plug.py").write_text(PLUGINS)
    if command == "replay":
        (tmp_path / "games.jsonl").write_text("\n".join(records) + "\n")
        args = ["replay", "--game", "doudizhu", str(tmp_path / "games.jsonl"), "--policies", "greedy,p"]
    else:
        args = COMMANDS[command.removesuffix("-jobs")]
    jobs = ["--jobs", "2" if command.endswith("-jobs") else "1"] if command != "advise" else []
    out = ["--out", str(tmp_path / "out")] if command != "advise" else []
    r = runner.invoke(app, [*args, *jobs, *out, "--plugin", f"p={tmp_path}/plug.py:{plugin}"])
    assert isinstance(r.exception, SystemExit) and r.exit_code == 1, (r.exception, r.output)
    [line] = r.stderr.splitlines()[-1:]
    assert line.startswith("error: ") and f"plugin 'p' {says}" in line, line
    assert "playing, hand " in line or "bidding, hand " in line  # the position
    assert not (tmp_path / "out").exists()  # nothing written, as a riichi run stopped by a plugin


def test_a_lone_surrogate_in_a_players_name_is_written_as_its_escape(tmp_path: Path) -> None:
    # JSON's "\ud800" alone (no UTF-8 holds it) stopped replay with a UnicodeEncodeError traceback
    import polars as pl

    simulate(["greedy", "random", "greedy"], 1, 5, out=tmp_path / "sim")
    record = json.loads((tmp_path / "sim" / "games.jsonl").read_text(encoding="utf-8").splitlines()[0])
    record["players"][0] = "\ud800x"
    path = tmp_path / "surrogate.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    rep = tmp_path / "rep"
    res = runner.invoke(
        app, ["replay", "--game", "doudizhu", str(path), "--policies", "greedy", "--out", str(rep)]
    )
    assert res.exit_code == 0, res.output
    assert "\\ud800x" in set(pl.read_parquet(rep / "decisions.parquet")["player"])


def test_a_byte_order_mark_before_the_first_record_is_read_past(tmp_path: Path) -> None:
    # riichi's and Hong Kong's readers read past one; this one called line 1 "not JSON"
    simulate(["greedy", "random", "greedy"], 2, 5, out=tmp_path / "sim")
    plain = tmp_path / "sim" / "games.jsonl"
    marked = tmp_path / "bom.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    args = ["replay", "--game", "doudizhu", "--policies", "greedy", "--json"]
    one = runner.invoke(app, [*args, str(plain), "--out", str(tmp_path / "a")])
    two = runner.invoke(app, [*args, str(marked), "--out", str(tmp_path / "b")])
    assert one.exit_code == two.exit_code == 0, two.output
    assert json.loads(two.stdout)["decisions"] == json.loads(one.stdout)["decisions"]


def test_a_readers_error_names_its_file_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("garbage\n")
    res = runner.invoke(app, ["replay", "--game", "doudizhu", str(bad), "--out", str(tmp_path / "r")])
    (line,) = [x for x in res.output.splitlines() if x.startswith("ERROR")]
    assert line == f"ERROR {bad}:1: not JSON (Expecting value)"
