"""--ray and --resume without a cluster: how the command line reads them, what is refused, the error
when Ray is missing, and --resume on this machine (the Ray runs are in test_ray.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
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
    # --resume finishes the run in --out: replay, verify and simulate of every game need that folder
    assert "--resume needs --out" in _error("verify", "--game", "hk", LOGS[0], "--resume")
    assert "--resume needs --out" in _error("replay", "--game", "hk", LOGS[0], "--resume")
    for game in ("riichi", "doudizhu", "hk", "red"):
        assert "--resume needs --out" in _error("simulate", "--game", game, "--games", "1", "--resume")


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


def test_replay_resume_keeps_nothing_of_a_plugin_whose_code_changed(tmp_path: Path) -> None:
    # the parts were keyed by the plugin's target alone: after its file changed, --resume kept the
    # old answers, and the gate against the first run said "0 changed" of a changed bot
    plugin = tmp_path / "mine.py"
    plugin.write_text((ROOT / "examples" / "plugin.py").read_text())
    out, first_run = tmp_path / "out", tmp_path / "first"
    args = ["replay", *LOGS[:2], "--plugin", f"mine={plugin}:Tsumogiri", "--policies", "mine", "--json"]
    res = runner.invoke(app, [*args, "--out", str(first_run)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, [*args, "--out", str(out), "--resume"])
    assert res.exit_code == 0 and _lines(res.output)[-1]["resumed"] == 0, res.output
    res = runner.invoke(app, [*args, "--out", str(out), "--resume"])
    assert res.exit_code == 0 and _lines(res.output)[-1]["resumed"] == 2, res.output
    # the plugin now discards the last tile of the hand where it threw the one drawn
    code = plugin.read_text().replace("if a.tile == view.drawn:", "if a.tile == view.drawn and False:")
    assert code != plugin.read_text()
    plugin.write_text(code)
    res = runner.invoke(app, [*args, "--out", str(out), "--resume", "--baseline", str(first_run)])
    assert res.exit_code == 1, res.output
    summary = _lines(res.output)[-1]
    assert summary["resumed"] == 0 and summary["baseline"]["changed"] > 0


def _lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_verify_resume_writes_the_rows_of_jobs_2_as_parts_and_finishes_a_stopped_run(tmp_path: Path) -> None:
    logs = sorted(str(p) for p in (ROOT / "fixtures" / "simulate" / "logs").iterdir())[:4]
    plain = runner.invoke(app, ["verify", *logs, "--jobs", "2", "--out", str(tmp_path / "p"), "--json"])
    assert plain.exit_code == 0, plain.output
    out = tmp_path / "out"
    args = ["verify", *logs, "--out", str(out), "--json", "--resume"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert _lines(first.output) == _lines(plain.output)  # each log's report and the summary
    assert not (out / "verify.parquet").exists()
    for table in ("verify", "verify_games", "verify_mismatches"):
        single = pl.read_parquet(tmp_path / "p" / f"{table}.parquet")
        parts = json.loads((out / CONTENTS).read_text())["tables"][table]["parts"]
        assert len(parts) == 4
        assert pl.read_parquet([out / p for p in parts]).equals(single)
        lazy = pl.scan_parquet(str(out / table / "**" / "*.parquet")).collect()
        assert lazy.sort(lazy.columns).equals(single.sort(single.columns))
    assert pl.read_parquet(tmp_path / "p" / "verify.parquet").height > 0
    # stopped before its end: two tasks' records gone, no dataset.json; the report refuses it
    for manifest in sorted((out / MANIFESTS).iterdir())[:2]:
        manifest.unlink()
    (out / CONTENTS).unlink()
    res = runner.invoke(app, ["report", str(out), "-o", str(tmp_path / "r.html")])
    assert "did not finish" in str(res.exception)
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert _lines(again.output) == _lines(plain.output)  # the kept logs' reports printed as before
    assert "2 of 4 logs kept from the earlier run" in again.stderr
    for table in ("verify", "verify_games", "verify_mismatches"):
        parts = json.loads((out / CONTENTS).read_text())["tables"][table]["parts"]
        assert pl.read_parquet([out / p for p in parts]).equals(
            pl.read_parquet(tmp_path / "p" / f"{table}.parquet")
        )
    # the report of the dataset is the report of the single files
    pages = []
    for folder in (out, tmp_path / "p"):
        res = runner.invoke(app, ["report", str(folder), "-o", str(tmp_path / f"{folder.name}.html")])
        assert res.exit_code == 0, res.output
        pages.append((tmp_path / f"{folder.name}.html").read_text().replace(str(folder), "FOLDER"))
    assert pages[0].replace("mjcli report: out", "mjcli report: p") == pages[1]


def test_verify_resume_with_more_logs_reports_every_log_in_order(tmp_path: Path) -> None:
    # The first run verified three logs, each a task; the rerun has the 8 files of the folder, where
    # those three are inputs 0, 2 and 4: its blocks of 2 were cut across the kept ones ([1, 3], [5,
    # 6]), which dropped their reports (6 logs of 8 said) and put their rows after the others'
    logs = sorted(str(p) for p in (ROOT / "fixtures" / "simulate" / "logs").iterdir())
    out = tmp_path / "out"
    first = runner.invoke(app, ["verify", *LOGS[:3], "--out", str(out), "--resume", "--jobs", "1"])
    assert first.exit_code == 0, first.output
    plain = runner.invoke(app, ["verify", *logs, "--jobs", "1", "--out", str(tmp_path / "p"), "--json"])
    assert plain.exit_code == 0, plain.output
    again = runner.invoke(app, ["verify", *logs, "--out", str(out), "--json", "--resume", "--jobs", "1"])
    assert again.exit_code == 0, again.output
    assert "3 of 8 logs kept from the earlier run" in again.stderr
    assert _lines(again.output) == _lines(plain.output)
    for table in ("verify", "verify_games"):
        parts = json.loads((out / CONTENTS).read_text())["tables"][table]["parts"]
        assert pl.read_parquet([out / p for p in parts]).equals(
            pl.read_parquet(tmp_path / "p" / f"{table}.parquet")
        )


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed")
@pytest.mark.parametrize("loopback_only", [False, True])
def test_joining_a_cluster_that_cannot_be_reached_fails_at_once(loopback_only: bool) -> None:
    """A head bound to 127.0.0.1 only: Ray, unless told RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0, looks for
    it at this machine's routable address and retried that for about a quarter of an hour. Nothing
    listening at all: the same error at once."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        if loopback_only:
            listener.listen(1)  # the port is open on loopback only
        port = listener.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        started = time.monotonic()
        res = subprocess.run(
            [sys.executable, "-m", "mjcli", "verify", LOGS[0], "--ray", f"127.0.0.1:{port}"],
            capture_output=True, text=True, env=env, timeout=120, check=False,
        )  # fmt: skip
    assert time.monotonic() - started < 60
    assert res.returncode == 2, res.stderr
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: --ray: cannot join the Ray cluster at 127.0.0.1:{port}"
    )
    assert "Traceback" not in res.stderr


@pytest.fixture(scope="module")
def other_games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Records of the other games, simulated: two Dou Dizhu files (a task each), three Hong Kong logs."""
    base = tmp_path_factory.mktemp("records")
    for seed in (1, 2):
        res = runner.invoke(app, ["simulate", "--game", "doudizhu", "--games", "2", "--seed", str(seed),
                                  "--out", str(base / f"dd{seed}")])  # fmt: skip
        assert res.exit_code == 0, res.output
    res = runner.invoke(
        app, ["simulate", "--game", "hk", "--games", "3", "--seed", "4", "--out", str(base / "hk")]
    )
    assert res.exit_code == 0, res.output
    return {
        "doudizhu": [str(base / "dd1" / "games.jsonl"), str(base / "dd2" / "games.jsonl")],
        "hk": [str(base / "hk" / "logs")],
    }


@pytest.mark.parametrize(
    ("game", "tables", "tasks"), [("doudizhu", ("decisions",), 2), ("hk", ("decisions", "games"), 3)]
)
def test_replay_resume_of_the_other_games(
    game: str, tables: tuple[str, ...], tasks: int, other_games, tmp_path: Path
) -> None:
    records = other_games[game]
    plain = runner.invoke(
        app, ["replay", "--game", game, *records, "--jobs", "2", "--out", str(tmp_path / "p"), "--json"]
    )
    assert plain.exit_code == 0, plain.output
    out = tmp_path / "out"
    args = ["replay", "--game", game, *records, "--out", str(out), "--json", "--resume"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert {**_lines(first.output)[-1], "resumed": 0} == {**_lines(plain.output)[-1], "resumed": 0}

    def same_rows() -> None:
        contents = json.loads((out / CONTENTS).read_text())
        for table in tables:
            parts = contents["tables"][table]["parts"]
            assert len(parts) == tasks
            single = pl.read_parquet(tmp_path / "p" / f"{table}.parquet")
            assert single.height > 0
            assert pl.read_parquet([out / p for p in parts]).equals(single)
            lazy = pl.scan_parquet(str(out / table / "**" / "*.parquet")).collect()
            assert lazy.sort(lazy.columns).equals(single.sort(single.columns))

    same_rows()
    assert not (out / "decisions.parquet").exists()
    # stopped before its end: the first task's record gone, no dataset.json
    sorted((out / MANIFESTS).iterdir())[0].unlink()
    (out / CONTENTS).unlink()
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert _lines(again.output)[-1]["resumed"] == tasks - 1
    same_rows()
    # the report (and Hong Kong's summary) of the dataset are those of the single files
    pages = []
    for folder in (out, tmp_path / "p"):
        res = runner.invoke(app, ["report", str(folder), "-o", str(tmp_path / f"{folder.name}.html")])
        assert res.exit_code == 0, res.output
        pages.append((tmp_path / f"{folder.name}.html").read_text().replace(str(folder), "FOLDER"))
    assert pages[0].replace("mjcli report: out", "mjcli report: p") == pages[1]
    if game == "hk":
        a, b = (
            runner.invoke(app, ["summary", "--game", "hk", str(f), "--json"]) for f in (out, tmp_path / "p")
        )
        assert a.exit_code == 0 and a.output == b.output


def test_dou_dizhu_replay_resume_keeps_nothing_of_a_plugin_whose_code_changed(
    other_games, tmp_path: Path
) -> None:
    # its parts were keyed by the plugin's name alone: a rerun after the file changed kept them
    plugin = tmp_path / "first.py"
    plugin.write_text((ROOT / "examples" / "doudizhu_plugin.py").read_text())
    out = tmp_path / "out"
    plain = ["replay", "--game", "doudizhu", *other_games["doudizhu"], "--json",
             "--plugin", f"first={plugin}:FirstLegal", "--policy", "greedy,first"]  # fmt: skip
    args = [*plain, "--out", str(out), "--resume"]
    for kept in (0, 2):
        res = runner.invoke(app, args)
        assert res.exit_code == 0 and _lines(res.output)[-1]["resumed"] == kept, res.output
    code = plugin.read_text().replace('return 0, "never bids"', 'return legal[-1], "bids the most"')
    assert code != plugin.read_text()
    plugin.write_text(code)
    res = runner.invoke(app, args)
    assert res.exit_code == 0 and _lines(res.output)[-1]["resumed"] == 0, res.output
    fresh = runner.invoke(app, [*plain, "--out", str(tmp_path / "fresh")])
    assert fresh.exit_code == 0, fresh.output
    contents = json.loads((out / CONTENTS).read_text())
    parts = pl.read_parquet([out / p for p in contents["tables"]["decisions"]["parts"]])
    assert parts.equals(pl.read_parquet(tmp_path / "fresh" / "decisions.parquet"))


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the ray extra is not installed")
def test_a_ray_client_address_with_no_cluster_is_one_clear_error(tmp_path: Path) -> None:
    # The real CLI in a process of its own: Ray reads its environment once, when first imported, and
    # tests/test_ray.py must be the first to import it in this process (loopback-only cluster).
    out = tmp_path / "out"
    args = ["simulate", "--games", "1", "--ray", "ray://127.0.0.1:1", "--out", str(out)]
    res = subprocess.run(
        [sys.executable, "-m", "mjcli", *args], capture_output=True, text=True, timeout=120, check=False
    )
    # whether Ray Client is installed (then: nothing answers there) or not (then: what to install)
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith("error: --ray: cannot join the Ray cluster at ray://127.0.0.1:1")
    assert res.stderr.count("\n") == 1, res.stderr
    assert not out.exists()  # the folder the run made is removed again: nothing was written
