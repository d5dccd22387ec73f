"""Bot policies for riichi mahjong, registered by name.

A policy sees a :class:`~mjcli.riichi.policies.view.PlayerView` (only what that player could see at the
table) and the engine's legal actions, and returns one of them with the rule that decided as its
``reason``: ``get_policy("akagi").decide(view, legal)``. Policies are deterministic: what they
keep between decisions is only the memo of hands of their
:class:`~mjcli.riichi.policies.hand_math.HandMath`, which a run may share between its policies
(``get_policy(name, math=...)``).

* ``akagi``       seed 001, the Akagi NPC bot (:mod:`mjcli.riichi.policies.akagi`)
* ``mahjongjoy``  seed 000, MahjongJoy's Riichi bot over its Hong Kong PM0 rules
  (:mod:`mjcli.riichi.policies.mahjongjoy`, :mod:`mjcli.analysis.pm0`)
* ``greedy``      seed 003, the shanten-greedy bot (:mod:`mjcli.riichi.policies.greedy`)
* ``efficiency``  the shanten + ukeire baseline (:mod:`mjcli.riichi.policies.efficiency`)
"""

from __future__ import annotations

from collections.abc import Callable

from mjcli.errors import UsageError
from mjcli.riichi.policies.akagi import AkagiPolicy
from mjcli.riichi.policies.base import BasePolicy, Policy
from mjcli.riichi.policies.efficiency import EfficiencyPolicy
from mjcli.riichi.policies.greedy import GreedyPolicy
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.mahjongjoy import MahjongJoyPolicy
from mjcli.riichi.policies.view import Action, DecisionPoint, PlayerView, RiverTile

#: name -> the policy's class (built-in policies take an optional ``math``)
_FACTORIES: dict[str, Callable[..., Policy]] = {
    "akagi": AkagiPolicy,
    "mahjongjoy": MahjongJoyPolicy,
    "greedy": GreedyPolicy,
    "efficiency": EfficiencyPolicy,
}
POLICY_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def get_policy(name: str, math: HandMath | None = None) -> Policy:
    """A new policy of the kind registered as ``name``; :class:`UsageError` naming it and the known
    ones otherwise. ``math`` is the :class:`HandMath` it works out hands with (shared with the
    caller's other policies and figures); without it the policy makes its own."""
    key = name.strip().lower()
    if key not in _FACTORIES:
        raise UsageError(f"unknown policy '{name}' (known: {', '.join(POLICY_NAMES)})")
    factory = _FACTORIES[key]
    return factory() if math is None else factory(math=math)


def parse_policy_names(text: str) -> list[str]:
    """``"all"`` or a comma-separated list of policy names, checked, in the order given."""
    if text.strip().lower() == "all":
        return list(POLICY_NAMES)
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise UsageError(f"no policy named in '{text}' (known: {', '.join(POLICY_NAMES)}, or all)")
    for n in names:
        get_policy(n)
    return list(dict.fromkeys(names))


__all__ = [
    "POLICY_NAMES",
    "Action",
    "BasePolicy",
    "DecisionPoint",
    "HandMath",
    "PlayerView",
    "Policy",
    "RiverTile",
    "get_policy",
    "parse_policy_names",
]
