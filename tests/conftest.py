"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def shared_logs() -> Path:
    """The shared logs folder, ``../shared/logs`` beside the checkout (see ``shared.py``)."""
    import shared  # imported here, not above: only the tests that need the logs fail without them

    return shared.LOGS
