"""Games another engine played, judged by ``mjcli verify``: Mortal's libriichi (PyPI mjai, in the
peer venv ``.venv-peers/mjai`` that ``make peers`` creates; without it this skips with the reason)
plays hanchan from East 1 and games started at South 4 or in the West round from close scores
between scripted bots (``tests/peers/libriichi_arena.py``), and writes them as gzipped mjai logs.
Every round must match: deltas, honba, sticks, the next round's start and the game's end.

libriichi follows Tenhou's rules on its own (it was written against Tenhou's logs, which Mortal is
trained on), so each game is an independent record: the West-4 games here caught a dealer's repeat
below 30000 that mjcli had ended. ``make peers-test`` (``MJCLI_PEERS_FULL=1``) plays ten times as
many."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from pathlib import Path

from shared import mjai_peer_python, verify_all_ok

ARENA = Path(__file__).resolve().parent / "peers" / "libriichi_arena.py"
FULL = os.environ.get("MJCLI_PEERS_FULL") == "1"
#: hanchan from East 1, and games from South 4 or the West round (a third of them from West 4 with
#: the dealer first below 30000)
GAMES, LATE = (40, 400) if FULL else (4, 40)


def test_games_libriichi_played_verify_round_by_round(tmp_path):
    python = mjai_peer_python()
    played = subprocess.run(
        [str(python), str(ARENA), str(tmp_path), str(GAMES), str(LATE), "11"],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert played.returncode == 0, played.stderr[-2000:]
    logs = sorted(tmp_path.rglob("*.json.gz"))
    assert len(logs) == GAMES + LATE
    reports, summary = verify_all_ok(tmp_path)
    assert len(reports) == GAMES + LATE
    # the games reach what the end rules decide: West rounds, and a repeat at West 4 played on
    assert summary["rounds"] == summary["rounds_matching"] > GAMES * 5
    west4_repeats = 0
    for log in logs:
        starts = [json.loads(x) for x in gzip.decompress(log.read_bytes()).decode().splitlines()]
        starts = [o for o in starts if o["type"] == "start_kyoku"]
        west4_repeats += sum(1 for o in starts if (o["bakaze"], o["kyoku"]) == ("W", 4) and o["honba"] > 0)
    assert west4_repeats >= 1
