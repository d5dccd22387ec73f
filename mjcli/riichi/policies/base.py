"""What every policy shares: the :class:`Policy` protocol and small helpers on legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from mjcli.errors import UsageError
from mjcli.riichi.policies.view import Action, PlayerView
from mjcli.tiles import NUM_KINDS, NUM_TILES, kind


class Policy(Protocol):
    """A bot: ``decide`` returns one of ``legal`` (with its ``reason`` filled in)."""

    name: str
    seed: str  # the seed document (and section) the policy follows

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action: ...


# The counts of the last view asked about: replay puts one view to every policy and then works out
# its own figures, and each would otherwise count the same tiles again. Keyed by identity (the view
# is held, so its id cannot be reused while cached); views are frozen, so the counts hold.
_last_view: list[object] = [None, None, None]


def concealed_counts(view: PlayerView) -> list[int]:
    """``view.concealed_counts()`` (a new list), memoised for the last view asked about."""
    memo = _last_view
    if memo[0] is not view:
        memo[0], memo[1], memo[2] = view, None, None
    got = memo[1]
    if got is None:
        got = memo[1] = tuple(view.concealed_counts())
    return list(got)  # type: ignore[arg-type]


def visible_counts(view: PlayerView) -> list[int]:
    """``view.visible_counts()`` (a new list), memoised for the last view asked about."""
    memo = _last_view
    if memo[0] is not view:
        memo[0], memo[1], memo[2] = view, None, None
    got = memo[2]
    if got is None:
        got = memo[2] = _visible_counts(view)
    return list(got)  # type: ignore[arg-type]


_KIND = tuple(kind(t) for t in range(NUM_TILES))


def _visible_counts(view: PlayerView) -> tuple[int, ...]:
    """``view.visible_counts()`` through a table of kinds (the same counts; a test checks them on
    every decision of the shared logs): rivers without called tiles, every meld, the indicators,
    and the offered tile when it is shown nowhere else."""
    counts = [0] * NUM_KINDS
    kind_of = _KIND
    for river in view.rivers:
        for r in river:
            if not r.called:
                counts[kind_of[r.tile]] += 1
    for seat_melds in view.melds:
        for m in seat_melds:
            for t in m.tiles:
                counts[kind_of[t]] += 1
    for t in view.dora_indicators:
        counts[kind_of[t]] += 1
    offered, by = view.offered, view.offered_by
    if offered is not None and by is not None:
        river = view.rivers[by]
        in_river = bool(river) and river[-1].tile == offered and not river[-1].called
        if not (in_river or any(offered in m.tiles for m in view.melds[by])):
            counts[kind_of[offered]] += 1
    return tuple([c if c < 4 else 4 for c in counts])


def require_legal(legal: Sequence[Action], policy: str) -> None:
    if not legal:
        raise UsageError(f"policy '{policy}' was asked to decide with no legal action")


def win(legal: Sequence[Action]) -> Action | None:
    """The tsumo or ron on offer, if any."""
    for a in legal:
        if a.kind in ("tsumo", "ron"):
            return a
    return None


def pass_or_first(legal: Sequence[Action]) -> Action:
    """``pass`` when offered; otherwise the first legal action (a decision without pass)."""
    for a in legal:
        if a.kind == "pass":
            return a
    return legal[0]


def tsumogiri(view: PlayerView, legal: Sequence[Action]) -> Action | None:
    """The legal discard of the drawn tile (the only discard left after riichi)."""
    if view.drawn is None:
        return None
    for a in legal:
        if a.kind == "discard" and a.tile == view.drawn:
            return a
    for a in legal:
        if a.kind == "discard" and a.tile is not None and kind(a.tile) == kind(view.drawn):
            return a
    return None
