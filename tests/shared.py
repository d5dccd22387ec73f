"""Where the shared logs are: ``../shared/logs`` beside the checkout (CI always has them there).

Test modules take :data:`LOGS` and :func:`log_files` from here when they need them at import time
(to build parameters); test functions can take the ``shared_logs`` fixture of ``conftest.py``.
Without the logs, importing this module fails with the folder it looked for: tests that need the
logs fail rather than skip, since a skip would hide a broken path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

LOGS = Path(__file__).resolve().parents[1].parent / "shared" / "logs"

if not LOGS.is_dir():
    raise FileNotFoundError(f"the shared logs are missing: no folder {LOGS} (clone them beside the checkout)")


def log_files(pattern: str) -> list[Path]:
    """The files under :data:`LOGS` matching the glob ``pattern``, sorted; an error if none does."""
    found = sorted(p for p in LOGS.glob(pattern) if p.is_file())
    if not found:
        raise FileNotFoundError(f"no shared log matches {pattern!r} under {LOGS}")
    return found


#: the test-only venv of PyPI mjai (mjai.app's RiichiBot, Mortal's libriichi), made by ``make peers``
MJAI_PEER = Path(__file__).resolve().parents[1] / ".venv-peers" / "mjai"
MJAI_PEER_PYTHON = MJAI_PEER / "bin" / "python"


def mjai_peer_python() -> Path:
    """The mjai peer venv's Python, or a skip with the reason its set-up wrote (no CPython 3.10-3.12,
    no network) or with how to make it."""
    unavailable = MJAI_PEER.parent / "mjai.unavailable"
    if unavailable.exists():
        pytest.skip(f"the mjai peer is unavailable: {unavailable.read_text().strip()}")
    if not MJAI_PEER_PYTHON.exists():
        pytest.skip("the mjai peer is not set up: run `make peers` (it creates .venv-peers/mjai)")
    return MJAI_PEER_PYTHON


def verify_all_ok(folder: Path, *options: str) -> tuple[list[dict], dict]:
    """``mjcli verify FOLDER --json`` run as a user runs it, every log required to be ok (the
    failing ones listed with their first mismatches): each log's report, and the summary."""
    import json
    import subprocess
    import sys

    checked = subprocess.run(
        [sys.executable, "-m", "mjcli", "verify", str(folder), *options, "--json"],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    lines = [json.loads(x) for x in checked.stdout.splitlines()]
    reports, summary = lines[:-1], lines[-1]
    bad = [(r["file"], r["status"], r["mismatches"][:2], r["error"]) for r in reports if r["status"] != "ok"]
    assert not bad, bad
    assert checked.returncode == 0, checked.stderr
    return reports, summary
