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

Beside them, a run may name plugins (``--plugin NAME=TARGET``: any object with ``decide(view,
legal)``), installed entry points (group ``mjcli.policies``) and outside mjai programs (``--bot
NAME=COMMAND``, :mod:`mjcli.riichi.bots`). :func:`policy_registry` gathers every name a run knows as
picklable specs (:class:`mjcli.plugins.Registry`); :func:`build_policy` makes the policy of a spec,
in whichever process needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mjcli.errors import UsageError
from mjcli.plugins import BOT, BUILTIN, PolicySpec, Registry, instantiate, load_target, make_registry
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
#: the entry-point group through which installed packages add riichi policies
ENTRY_POINT_GROUP = "mjcli.policies"


def policy_registry(plugins: Sequence[str] = (), bots: Sequence[PolicySpec] = ()) -> Registry:
    """Every riichi policy name a run knows: the built-ins, the installed entry points, the
    ``--plugin NAME=TARGET`` values and the bots' specs (:func:`mjcli.riichi.bots.bot_spec`)."""
    builtins = [(name, name) for name in _FACTORIES]
    return make_registry(builtins, ENTRY_POINT_GROUP, "riichi", plugins, bots)


def builtin_registry() -> Registry:
    """The built-in policies alone (no entry point is looked up)."""
    return Registry(tuple(PolicySpec(name, BUILTIN, name) for name in _FACTORIES))


def build_policy(spec: PolicySpec, math: HandMath | None = None) -> Any:
    """The policy a spec names: a built-in (sharing ``math``), a plugin's or entry point's object
    (its class or factory called; it must have ``decide``), or a bot
    (:class:`~mjcli.riichi.bots.MjaiBot`, whose processes start when first asked)."""
    if spec.source == BUILTIN:
        factory = _FACTORIES[spec.target]
        return factory() if math is None else factory(math=math)
    if spec.source == BOT:
        from mjcli.riichi.bots import MjaiBot

        return MjaiBot(spec)
    what = f"{spec.source} '{spec.name}' ({spec.target})"
    policy = instantiate(load_target(spec.target, what), what)
    if not callable(getattr(policy, "decide", None)):
        raise UsageError(f"{what} is not a policy: it has no decide(view, legal) method")
    return policy


def get_policy(name: str, math: HandMath | None = None, registry: Registry | None = None) -> Policy:
    """A new policy of the kind registered as ``name``; :class:`UsageError` naming it and the known
    ones otherwise. ``math`` is the :class:`HandMath` it works out hands with (shared with the
    caller's other policies and figures); without it the policy makes its own. Names are looked up
    in ``registry`` (default: the built-ins, then the installed entry points)."""
    key = name.strip().lower()
    if registry is None and key in _FACTORIES:
        factory = _FACTORIES[key]
        return factory() if math is None else factory(math=math)
    return build_policy((registry or policy_registry()).spec(key), math)


def parse_policy_names(text: str, registry: Registry | None = None) -> list[str]:
    """``"all"`` (the built-ins, with the plugins and bots of ``registry``) or a comma-separated
    list of policy names, checked, in the order given."""
    if registry is None:
        registry = builtin_registry() if _only_builtins(text) else policy_registry()
    return registry.parse_names(text)


def _only_builtins(text: str) -> bool:
    names = {n.strip().lower() for n in text.split(",") if n.strip()}
    return names <= {*_FACTORIES, "all"}


__all__ = [
    "ENTRY_POINT_GROUP",
    "POLICY_NAMES",
    "Action",
    "BasePolicy",
    "DecisionPoint",
    "HandMath",
    "PlayerView",
    "Policy",
    "PolicySpec",
    "Registry",
    "RiverTile",
    "build_policy",
    "builtin_registry",
    "get_policy",
    "parse_policy_names",
    "policy_registry",
]
