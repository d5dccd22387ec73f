"""Subcommand modules. Each has ``register(app)`` adding its command(s) to the Typer app."""

from __future__ import annotations

import importlib

# Listed by name so that a missing optional module fails loudly at start-up, not silently.
_NAMES = ["score", "shanten", "verify", "convert", "advise", "simulate", "replay", "summary"]

COMMAND_MODULES = [importlib.import_module(f"mjcli.commands.{name}") for name in _NAMES]
