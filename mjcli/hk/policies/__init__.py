"""The Hong Kong and Red policies: a policy answers ``decide(view, legal) -> (move, reason)``
given a :class:`~mjcli.hk.engine.SeatView` and the legal moves, and keeps no state between
decisions (one object serves every seat, game after game).

* ``hk-pm0``, ``hk-pm8``, ``hk-pm16``, ``hk-pm16plus``: seed 000's Hong Kong bots for the table
  minimums PM0, 1-3 faan, 4-6 faan and 7+ faan;
* ``red-pm0``, ``red-pm12``, ``red-pm12plus``: its Red bots (jokers never discarded) for the
  minimums 0, below 12 points and 12 points or more.

All live in :mod:`mjcli.hk.policies.mahjongjoy` (readings of the seed in its docstring). Your own
join them as riichi's and Dou Dizhu's do: ``--plugin NAME=file.py:Attr`` (or ``package.module:Attr``)
and installed packages' entry points (group ``mjcli.hk.policies``), one registry for Hong Kong and
Red (:func:`policy_registry`), each played through :class:`PluginPolicy`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Protocol

from mjcli.errors import PLUGIN_FAULTS, PluginBug, UsageError
from mjcli.hk.engine.actions import Move
from mjcli.hk.engine.view import SeatView
from mjcli.hk.notation import counts_text, tile_text
from mjcli.hk.policies.mahjongjoy import BOTS, SeedBot
from mjcli.plugins import (
    BUILTIN,
    PLUGIN,
    PolicySpec,
    Registry,
    identity,
    instantiate,
    load_target,
    make_registry,
)

HK_POLICIES = ("hk-pm0", "hk-pm8", "hk-pm16", "hk-pm16plus")
RED_POLICIES = ("red-pm0", "red-pm12", "red-pm12plus")


#: the entry-point group through which installed packages add Hong Kong and Red policies
ENTRY_POINT_GROUP = "mjcli.hk.policies"


class Policy(Protocol):
    """What plays a seat: a built-in :class:`SeedBot` or a :class:`PluginPolicy`."""

    name: str

    def decide(self, view: SeatView, legal: Sequence[Move]) -> tuple[Move, str]: ...


def policy_names() -> tuple[str, ...]:
    return tuple(BOTS)


def policy_registry(plugins: Sequence[str] = ()) -> Registry:
    """Every Hong Kong and Red policy name a run knows: the built-ins, the installed entry points
    (group ``mjcli.hk.policies``) and the ``--plugin NAME=TARGET`` values."""
    return make_registry([(n, n) for n in BOTS], ENTRY_POINT_GROUP, "hk", list(plugins))


def get_policy(name: str, registry: Registry | None = None) -> Policy:
    """A policy by name: from ``registry`` (built-ins, plugins, entry points), by default the
    built-ins; :class:`UsageError` naming the unknown name."""
    if registry is not None:
        return build_policy(registry.spec(name))
    key = name.strip().lower()
    if key not in BOTS:
        raise UsageError(f"unknown policy '{name}' (use {', '.join(BOTS)})")
    return BOTS[key]


def build_policy(spec: PolicySpec) -> Policy:
    """The policy of a spec: a built-in, or a plugin's or entry point's object (see
    :class:`PluginPolicy`)."""
    if spec.source == BUILTIN:
        return BOTS[spec.target]
    what = f"{spec.source} '{spec.name}' ({spec.target})"
    obj = instantiate(load_target(spec.target, what), what)
    if not callable(getattr(obj, "decide", None)):
        raise UsageError(f"{what} is not a policy: it has no decide(view, legal) method")
    return PluginPolicy(spec.name, obj)


def parse_policy_names(
    text: str | Sequence[str], default: Sequence[str] = HK_POLICIES, registry: Registry | None = None
) -> list[str]:
    """Comma-separated names, each checked (in ``registry``, by default the built-ins), or ``all``:
    ``default`` (the game's own bots) and the plugins given on the command line, as riichi's and
    Dou Dizhu's ``all`` (installed entry points only when named)."""
    parts = text.split(",") if isinstance(text, str) else list(text)
    names = [p.strip().lower() for p in parts if p.strip()]
    if names == ["all"]:
        given = registry.of_source(PLUGIN) if registry is not None else ()
        return [*default, *given]
    if not names:
        raise UsageError("no policy named")
    for n in names:
        if registry is None:
            get_policy(n)
        else:
            registry.spec(n)
    return list(dict.fromkeys(names))


def plugin_identities(names: Sequence[str], registry: Registry | None) -> list[dict[str, Any]]:
    """What the named policies from outside mjcli are (source, target, the SHA-256 of their files:
    :func:`mjcli.plugins.identity`), for a parted run's options: a resumed run never keeps the games
    of a plugin whose code has changed. Empty for the built-ins alone (their options stay as they were)."""
    if registry is None:
        return []
    specs = [registry.spec(n) for n in dict.fromkeys(names)]
    return [identity(s) for s in specs if s.source != BUILTIN]


class PluginError(PluginBug):
    """A plugin raised, or answered with something that is not one of the legal moves: a bug of the
    plugin, reported on one line with where it happened (exit 1), never a traceback."""


class PluginPolicy:
    """A plugin at the Hong Kong (or Red) table, under its registered name.

    The contract is riichi's and Dou Dizhu's: ``decide(view, legal)`` returns one of ``legal`` (a
    :class:`~mjcli.hk.engine.actions.Move`), or a pair (one of ``legal``, the reason); ``view`` is
    the seat's :class:`~mjcli.hk.engine.view.SeatView`. A plugin keeps state at its own risk: one
    object serves every seat it plays, game after game (in each worker process). An exception or an
    answer that is not legal is the plugin's bug: a :class:`PluginError` naming the plugin and the
    position.
    """

    def __init__(self, name: str, plugin: Any) -> None:
        self.name = name
        self.plugin = plugin

    def decide(self, view: SeatView, legal: Sequence[Move]) -> tuple[Move, str]:
        try:
            # the view's sequences are the engine's own (a built-in only reads them): a plugin gets
            # copies, so that whatever it does to them cannot change the game
            answer = self.plugin.decide(_copied(view), list(legal))
        except PLUGIN_FAULTS as exc:  # any exception of a plugin is its bug: say where it happened
            raise PluginError(
                f"plugin '{self.name}' raised {type(exc).__name__}: {exc} ({_position(view)})"
            ) from exc
        move, reason = answer, getattr(self.plugin, "reason", "") or ""
        if _is_pair(answer, legal):
            move, reason = answer
        if not isinstance(move, Move) or move not in legal:
            raise PluginError(
                f"plugin '{self.name}' answered {answer!r}, not one of the {len(legal)} legal moves "
                f"({', '.join(m.text() for m in legal)}; {_position(view)})"
            )
        return move, str(reason)


def _is_pair(answer: object, legal: Sequence[Move]) -> bool:
    """A (move, reason text) answer, the move one of ``legal``; a Move is a named tuple of three,
    never taken for one."""
    return (
        isinstance(answer, tuple)
        and not isinstance(answer, Move)
        and len(answer) == 2
        and isinstance(answer[1], str)
        and answer[0] in legal
    )


def _copied(view: SeatView) -> SeatView:
    """``view`` with every sequence a copy of its own (tuples: a plugin cannot change the engine's),
    and rules of its own (their ``faan`` table is a dict, shared by the whole process)."""
    return dataclasses.replace(
        view,
        rules=dataclasses.replace(view.rules, faan=dict(view.rules.faan)),
        hand=tuple(view.hand),
        melds=tuple(view.melds),
        bonus=tuple(view.bonus),
        all_melds=tuple(tuple(m) for m in view.all_melds),
        rivers=tuple(tuple(r) for r in view.rivers),
        visible=tuple(view.visible),
        own_meld_counts=tuple(view.own_meld_counts),
    )


def _position(view: SeatView) -> str:
    """Where a plugin was asked, for its error: the seat, the phase and the concealed hand."""
    where = f"seat {view.seat}, {view.phase}"
    if view.offer is not None:
        where += f" on seat {view.offer[0]}'s {tile_text(view.offer[1])}"
    return f"{where}, hand {counts_text(view.hand, view.jokers)}"


__all__ = [
    "ENTRY_POINT_GROUP",
    "HK_POLICIES",
    "RED_POLICIES",
    "PluginError",
    "PluginPolicy",
    "Policy",
    "SeedBot",
    "build_policy",
    "get_policy",
    "parse_policy_names",
    "plugin_identities",
    "policy_names",
    "policy_registry",
]
