"""Small outputs of every kind the report draws, made once per test session (see conftest.py):
a riichi replay, simulation (--duplicate) and verify run, a Dou Dizhu replay and simulation, a Hong
Kong simulation (--duplicate), verify run (with a tampered and a broken log) and replay, and a Red
replay (jokers)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mjcli.cli import app

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_LOGS = ROOT / "fixtures" / "simulate" / "logs"
SHARED_LOGS = ROOT.parent / "shared" / "logs"
#: the mismatching log and the cut one of the README's verify examples
ODD_LOGS = (
    SHARED_LOGS / "tenhou6-edge" / "confusing_nakis_1.json",
    SHARED_LOGS / "tenhou-xml" / "2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog",
)
KINDS = (
    "riichi-replay",
    "riichi-simulate",
    "riichi-verify",
    "doudizhu-replay",
    "doudizhu-simulate",
    "hk-replay",
    "hk-simulate",
    "hk-verify",
    "red-replay",
)
#: the Hong Kong verify run's two odd logs: one faan changed (a mismatch), one not JSON (an error)
HK_TAMPERED, HK_BROKEN = "hk-tampered.json", "hk-broken.json"


def run(*args: str) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.output
    return result.output


def make_outputs(root: Path) -> dict[str, Path]:
    """Every kind of output under ``root``, by the names of :data:`KINDS`."""
    out = {kind: root / kind for kind in KINDS}
    logs = [FIXTURE_LOGS / "sim-000000.json", FIXTURE_LOGS / "sim-000001.json"]
    run("replay", *logs, "--policy", "akagi,mahjongjoy,efficiency", "-j", "1", "--out", out["riichi-replay"])
    run(
        "simulate", "--players", "akagi,efficiency", "--games", "3", "--seed", "5", "--length", "tonpuu",
        "--duplicate", "-j", "1", "--out", out["riichi-simulate"],
    )  # fmt: skip
    run("verify", out["riichi-simulate"] / "logs", *ODD_LOGS, "-j", "1", "--out", out["riichi-verify"])
    sim = root / "ddz-sim"
    run("simulate", "--game", "doudizhu", "--players", "zhanpai,greedy,random", "--games", "12",
        "--seed", "2", "-j", "1", "--out", sim)  # fmt: skip
    run("replay", "--game", "doudizhu", sim / "games.jsonl", "-j", "1", "--out", out["doudizhu-replay"])
    run("simulate", "--game", "doudizhu", "--players", "zhanpai,greedy", "--games", "8", "--seed", "2",
        "--duplicate", "-j", "1", "--out", out["doudizhu-simulate"])  # fmt: skip
    hk_sim = out["hk-simulate"]
    run("simulate", "--game", "hk", "--players", "hk-pm0,hk-pm16", "--games", "2", "--seed", "1",
        "--duplicate", "-j", "1", "--out", hk_sim)  # fmt: skip
    odd = root / "hk-odd"
    odd.mkdir()
    game = json.loads((hk_sim / "logs" / "hk-000000.json").read_text())
    next(h for h in game["hands"] if h["result"]["kind"] == "win")["result"]["faan"] += 1
    (odd / HK_TAMPERED).write_text(json.dumps(game))
    (odd / HK_BROKEN).write_text("{not json")
    run("verify", "--game", "hk", hk_sim / "logs", odd, "-j", "1", "--out", out["hk-verify"])
    run("replay", "--game", "hk", hk_sim / "logs" / "hk-000000.json", hk_sim / "logs" / "hk-000001.json",
        "-j", "1", "--out", out["hk-replay"])  # fmt: skip
    red_sim = root / "red-sim"
    run("simulate", "--game", "red", "--games", "1", "--seed", "3", "-j", "1", "--out", red_sim)
    run("replay", "--game", "red", red_sim / "logs", "-j", "1", "--out", out["red-replay"])
    return out
