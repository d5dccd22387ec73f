"""Games another engine played, judged by ``mjcli verify``: RiichiEnv (PyPI riichienv 0.4.11, in the
peer venv ``.venv-peers/riichienv`` that ``make peers`` creates) plays four- and three-player games
under its Tenhou and Mahjong Soul presets between scripted bots (``tests/peers/riichienv_arena.py``),
some from South 4 or the West round with close scores, and writes them as mjai logs as it keeps
them. Every round must match: deltas, honba, sticks, the next round's start and the game's end.

A cross-check of 490 such games (2026-12-07) found two faults of mjcli's, both three-player (a riichi
with three tiles left refused; a start_game naming no players read as four seats), and nothing
else; ``fixtures/riichienv`` keeps a game of each. ``make peers-test`` (``MJCLI_PEERS_FULL=1``) plays
ten times as many games."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from shared import verify_all_ok

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv-peers" / "riichienv" / "bin" / "python"
ARENA = ROOT / "tests" / "peers" / "riichienv_arena.py"
FULL = os.environ.get("MJCLI_PEERS_FULL") == "1"
#: (mode, games, the rule set mjcli plays them under: the logs do not name their site)
MODES = (
    ("4p-tenhou", 4, "tenhou"),
    ("3p-tenhou", 6, "tenhou-sanma"),
    ("4p-mjsoul", 2, "majsoul"),
    ("3p-mjsoul", 2, "majsoul-sanma"),
)


@pytest.mark.parametrize(("mode", "games", "rules"), MODES, ids=[m[0] for m in MODES])
def test_games_riichienv_played_verify_round_by_round(
    tmp_path: Path, mode: str, games: int, rules: str
) -> None:
    if not PYTHON.exists():
        pytest.skip("the RiichiEnv peer is not set up: run `make peers` (it creates .venv-peers/riichienv)")
    games *= 10 if FULL else 1
    played = subprocess.run(
        [str(PYTHON), str(ARENA), mode, str(tmp_path), str(games), "5", "0.5"],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert played.returncode == 0, played.stderr[-2000:]
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) >= games - 1, played.stderr  # (a game the engine fails on is left out, said)
    reports, summary = verify_all_ok(tmp_path, "--rules", rules)
    assert len(reports) == len(logs) and summary["rounds"] == summary["rounds_matching"] > len(logs) * 3
    if mode.startswith("3p"):
        # three players from a start_game that names none (RiichiEnv's), Norths set aside
        text = "".join(p.read_text(encoding="utf-8") for p in logs)
        assert '"type":"start_game"}' in text and '"type":"kita"' in text
        assert all(r["rules"].startswith(rules) for r in reports)
