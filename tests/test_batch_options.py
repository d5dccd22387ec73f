"""--ray and --resume without a cluster: how the command line reads them, what is refused, the error
when Ray is missing, and --resume on this machine (the Ray runs are in test_ray.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.commands import optional_values
from mjcli.errors import MjcliError
from mjcli.ledger import CONTENTS, MANIFESTS, block_size

ROOT = Path(__file__).resolve().parent.parent
LOGS = sorted(str(p) for p in (ROOT / "fixtures" / "simulate" / "logs").glob("*.json"))
runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["replay", "--ray"], ["replay", "--ray=local"]),
        (["replay", "--ray", "logs/"], ["replay", "--ray=local", "logs/"]),
        (["replay", "--ray", "--out", "o"], ["replay", "--ray=local", "--out", "o"]),
        (["replay", "--ray", "10.0.0.5:6379", "x"], ["replay", "--ray", "10.0.0.5:6379", "x"]),
        (["replay", "--ray", "auto"], ["replay", "--ray", "auto"]),
        (["replay", "--ray", "ray://head:10001"], ["replay", "--ray", "ray://head:10001"]),
        (["replay", "--ray=head:1"], ["replay", "--ray=head:1"]),
        (["replay", "--", "--ray"], ["replay", "--", "--ray"]),
    ],
)
def test_ray_takes_an_address_or_nothing(args: list[str], expected: list[str]) -> None:
    assert optional_values(args) == expected


def _without_ray(*args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI in a process where ``import ray`` fails, as on a machine without the extra."""
    code = "import sys; sys.modules['ray'] = None; sys.argv = ['mjcli', *sys.argv[1:]]; "
    code += "from mjcli.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    "args",
    [
        ("replay", LOGS[0], "--ray"),
        ("verify", LOGS[0], "--ray", "127.0.0.1:6379"),
        ("simulate", "--game", "doudizhu", "--games", "1", "--ray"),
        ("replay", "--game", "hk", LOGS[0], "--ray"),
    ],
)
def test_without_ray_the_flag_says_how_to_install_it(args: tuple[str, ...]) -> None:
    res = _without_ray(*args)
    assert res.returncode == 2
    assert res.stderr == "error: --ray needs Ray, which is not installed here: pip install 'mjcli[ray]'\n"
    assert res.stdout == ""


def _error(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert isinstance(res.exception, MjcliError), res.output
    return str(res.exception)


def test_refused_combinations(tmp_path: Path) -> None:
    assert "drop --jobs" in _error("verify", LOGS[0], "--ray=local", "--jobs", "2")
    assert "--resume needs --out" in _error("replay", LOGS[0], "--resume")
    assert "--bot does not run on Ray" in _error("simulate", "--bot", "x=cat", "--ray=local")
    # --resume applies to the tables written as parts: the riichi replay
    assert "--resume" in _error("replay", "--game", "doudizhu", LOGS[0], "--resume", "--out", str(tmp_path))


def test_block_size() -> None:
    assert block_size(8, 2) == 1
    assert block_size(100, 2) == 13
    assert block_size(1_000_000, 512) == 100  # the most a task takes
    assert block_size(0, 4) == 1


def test_resume_here_keeps_finished_parts_and_redoes_a_stopped_one(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["replay", *LOGS[:3], "--policies", "greedy", "--out", str(out), "--json", "--resume"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    contents = json.loads((out / CONTENTS).read_text())
    parts = contents["tables"]["decisions"]["parts"]
    assert len(parts) == 3 and contents["tables"]["decisions"]["rows"] > 0
    whole = pl.read_parquet([out / p for p in parts])
    # stopped: the last task's record gone (its part without it is a leftover), no dataset.json
    manifests = sorted((out / MANIFESTS).iterdir())
    manifests[-1].unlink()
    (out / CONTENTS).unlink()
    res = runner.invoke(app, ["summary", str(out)])
    assert "did not finish" in str(res.exception)
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    summary = [json.loads(line) for line in again.output.splitlines() if line.startswith("{")][-1]
    assert summary["resumed"] == 2
    contents = json.loads((out / CONTENTS).read_text())
    assert pl.read_parquet([out / p for p in contents["tables"]["decisions"]["parts"]]).equals(whole)
    # the same rows as a run without --resume
    plain = runner.invoke(app, ["replay", *LOGS[:3], "--policies", "greedy", "--out", str(tmp_path / "p")])
    assert plain.exit_code == 0
    assert pl.read_parquet(tmp_path / "p" / "decisions.parquet").equals(whole)
