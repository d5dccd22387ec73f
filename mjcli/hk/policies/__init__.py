"""The Hong Kong and Red policies: a policy answers ``decide(view, legal) -> (move, reason)``
given a :class:`~mjcli.hk.engine.SeatView` and the legal moves, and keeps no state between
decisions (one object serves every seat, game after game).

* ``hk-pm0``, ``hk-pm8``, ``hk-pm16``, ``hk-pm16plus``: seed 000's Hong Kong bots for the table
  minimums PM0, 1-3 faan, 4-6 faan and 7+ faan;
* ``red-pm0``, ``red-pm12``, ``red-pm12plus``: its Red bots (jokers never discarded) for the
  minimums 0, below 12 points and 12 points or more.

All live in :mod:`mjcli.hk.policies.mahjongjoy` (readings of the seed in its docstring).
"""

from __future__ import annotations

from collections.abc import Sequence

from mjcli.errors import UsageError
from mjcli.hk.policies.mahjongjoy import BOTS, SeedBot

HK_POLICIES = ("hk-pm0", "hk-pm8", "hk-pm16", "hk-pm16plus")
RED_POLICIES = ("red-pm0", "red-pm12", "red-pm12plus")


def policy_names() -> tuple[str, ...]:
    return tuple(BOTS)


def get_policy(name: str) -> SeedBot:
    key = name.strip().lower()
    if key not in BOTS:
        raise UsageError(f"unknown policy '{name}' (use {', '.join(BOTS)})")
    return BOTS[key]


def parse_policy_names(text: str | Sequence[str], default: Sequence[str] = HK_POLICIES) -> list[str]:
    """Comma-separated names, or ``all`` (every policy of the game's default list)."""
    parts = text.split(",") if isinstance(text, str) else list(text)
    names = [p.strip().lower() for p in parts if p.strip()]
    if names == ["all"]:
        return list(default)
    if not names:
        raise UsageError("no policy named")
    for n in names:
        get_policy(n)
    return names


__all__ = ["HK_POLICIES", "RED_POLICIES", "SeedBot", "get_policy", "parse_policy_names", "policy_names"]
