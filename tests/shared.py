"""Where the shared logs are: ``../shared/logs`` beside the checkout (CI always has them there).

Test modules take :data:`LOGS` and :func:`log_files` from here when they need them at import time
(to build parameters); test functions can take the ``shared_logs`` fixture of ``conftest.py``.
Without the logs, importing this module fails with the folder it looked for: tests that need the
logs fail rather than skip, since a skip would hide a broken path.
"""

from __future__ import annotations

from pathlib import Path

LOGS = Path(__file__).resolve().parents[1].parent / "shared" / "logs"

if not LOGS.is_dir():
    raise FileNotFoundError(f"the shared logs are missing: no folder {LOGS} (clone them beside the checkout)")


def log_files(pattern: str) -> list[Path]:
    """The files under :data:`LOGS` matching the glob ``pattern``, sorted; an error if none does."""
    found = sorted(p for p in LOGS.glob(pattern) if p.is_file())
    if not found:
        raise FileNotFoundError(f"no shared log matches {pattern!r} under {LOGS}")
    return found
