"""Small outputs of every kind the report draws, made once per test session (see conftest.py):
a riichi replay, simulation (--duplicate) and verify run, and a Dou Dizhu replay and simulation."""

from __future__ import annotations

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
KINDS = ("riichi-replay", "riichi-simulate", "riichi-verify", "doudizhu-replay", "doudizhu-simulate")


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
    return out
