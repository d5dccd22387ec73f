"""A log of another game given to a command says which game it is (and how to read it), where it
said only what it is not: "JSON that is neither tenhou.net/6 nor mjai" for a Hong Kong log or a
Dou Dizhu record given to riichi's verify or replay, "not JSON (Extra data, line 2)" for an mjai
log given to verify --game hk."""

from __future__ import annotations

from pathlib import Path

from shared import LOGS
from typer.testing import CliRunner

from mjcli.cli import app

runner = CliRunner()


def cli(*args: str):
    return runner.invoke(app, list(args))


def test_riichi_commands_name_a_hong_kong_log_and_a_dou_dizhu_record(tmp_path: Path) -> None:
    hk, red, ddz = tmp_path / "hk", tmp_path / "red", tmp_path / "ddz"
    assert cli("simulate", "--game", "hk", "--games", "1", "--out", str(hk)).exit_code == 0
    assert cli("simulate", "--game", "red", "--games", "1", "--out", str(red)).exit_code == 0
    assert cli("simulate", "--game", "doudizhu", "--games", "1", "--out", str(ddz)).exit_code == 0
    res = cli("verify", str(hk), str(red), str(ddz / "games.jsonl"))
    assert res.exit_code == 1
    assert "a Hong Kong mahjong game log (give --game hk), not a riichi log" in res.output
    assert "a Red mahjong game log (give --game red), not a riichi log" in res.output
    assert "a Dou Dizhu game record (`mjcli replay --game doudizhu` reads it), not a riichi log" in res.output
    assert "neither tenhou.net/6" not in res.output
    res = cli("replay", str(hk), "--policies", "greedy", "--out", str(tmp_path / "rep"))
    assert "(give --game hk), not a riichi log" in res.output
    # and the command it names reads them
    assert cli("verify", "--game", "hk", str(hk)).exit_code == 0
    assert cli("verify", "--game", "red", str(red)).exit_code == 0


def test_verify_hk_names_a_riichi_log_of_each_format() -> None:
    cases = {
        LOGS / "mjai" / "126_204_0_mjai.jsonl": "an mjai log (riichi)",
        LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog": "a Tenhou mjlog (riichi)",
        LOGS / "tenhou6" / "2010081709gm-00a9-0000-fe3371ad.json": "a tenhou.net/6 log (riichi)",
    }
    for path, what in cases.items():
        res = cli("verify", "--game", "hk", str(path))
        assert res.exit_code != 0
        assert f"is {what}, not a Hong Kong game log: leave out --game" in res.output, res.output
