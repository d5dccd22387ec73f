"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def shared_logs() -> Path:
    """The shared logs folder, ``../shared/logs`` beside the checkout (see ``shared.py``)."""
    import shared  # imported here, not above: only the tests that need the logs fail without them

    return shared.LOGS


@pytest.fixture(scope="session")
def report_outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One small output of each kind `mjcli report` draws (see report_outputs.py), made once."""
    from report_outputs import make_outputs

    return make_outputs(tmp_path_factory.mktemp("outputs"))
