"""What every policy shares: the :class:`Policy` protocol, the :class:`BasePolicy` opening, and small
helpers on legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, repeat
from operator import attrgetter, eq
from typing import Protocol

from mjcli.errors import MjcliError, UsageError
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.view import REACTION_KINDS, Action, PlayerView
from mjcli.tiles import KIND_OF, kind


class PolicyError(MjcliError):
    """A policy raised while deciding, or answered with an action that is not legal there: a bug in
    that policy (a plugin's, most often), reported in one line with where it happened."""


def answer_text(answer: object) -> str:
    """What a policy answered, for an error line: an action's label, or its ``repr`` when it is no
    action or one whose fields name no tile (a plugin's ``Action("discard", 999)``: its label would
    fail on the tile and hide the policy's bug behind a traceback)."""
    if isinstance(answer, Action):
        try:
            return answer.label()
        except (KeyError, IndexError, TypeError, ValueError):
            pass
    text = repr(answer)
    return text if len(text) <= 80 else text[:77] + "..."


class Policy(Protocol):
    """A bot, the contract every policy meets (built-in or not).

    ``decide(view, legal)`` is asked at every decision point where the seat has a choice, with what
    the seat sees (:class:`~mjcli.riichi.policies.view.PlayerView`) and its legal actions (at least
    one; a reaction to another player's tile always offers ``pass``). It returns one of ``legal``,
    usually with :meth:`Action.because <mjcli.riichi.policies.view.Action.because>` naming the rule
    that decided (the ``reason`` column of replay's output; it takes no part in equality, so the
    answer still is one of ``legal``). An answer that is not legal, or an exception, is reported as a
    bug of the policy. ``decide`` should be a function of its arguments: replay and simulate ask a
    policy in any order, in several processes, and expect the same answers.

    ``name`` is the name the policy is registered under; ``seed`` (optional) names the document,
    and its sections, that the policy follows.
    """

    name: str

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action: ...


class BasePolicy:
    """The opening every built-in policy shares, then :meth:`react` or :meth:`turn`.

    :meth:`decide` requires a legal action, takes a tsumo or ron on offer (with :attr:`win_reason`),
    and hands a reaction to another player's tile (every legal action a call or ``pass``) to
    :meth:`react`, anything else (a turn after a draw or a call) to :meth:`turn`.

    ``math`` is the :class:`~mjcli.riichi.policies.hand_math.HandMath` the policy works out hands
    with; a run passes one to share its memos between its policies and its own figures. Without
    it the policy makes its own.
    """

    name: str = ""
    seed: str = ""
    #: the reason given with a tsumo or ron taken
    win_reason: str = ""

    def __init__(self, math: HandMath | None = None) -> None:
        self.math = math if math is not None else HandMath()

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if not legal:
            require_legal(legal, self.name)
        # the opening read from the view's memo when another policy was asked with the same
        # actions (no call of _opening then: replay, 4 policies, one core)
        got = view.memo.get(_OPENING)
        if got is not None and got[0] is legal:
            win, reaction = got[1], got[2]
        else:
            win, reaction = _opening(view, legal)
        if win is not None:
            return win.because(self.win_reason)
        if reaction:
            return self.react(view, legal)
        return self.turn(view, legal)

    def react(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The answer to another player's tile when no ron is on offer: a call or ``pass``."""
        raise NotImplementedError

    def turn(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The answer on the policy's own turn when no tsumo is on offer (a discard, riichi, kan...)."""
        raise NotImplementedError


_OPENING = ("base.opening",)


def _opening(view: PlayerView, legal: Sequence[Action]) -> tuple[Action | None, bool]:
    """The tsumo or ron on offer (the first), and whether every action answers another player's
    tile (when none is on offer: :meth:`BasePolicy.decide` reads it only then), kept in the view's
    memo with ``legal`` itself. Every policy is asked at every decision point with the very same
    tuple of actions: the first to ask sorts them out, the others find its answer (``is``, not
    ``==``; a list, which could change between two policies, is looked at each time; replay, 4
    policies, one core)."""
    memo = view.memo
    got = memo.get(_OPENING)
    if got is not None and got[0] is legal:
        return got[1], got[2]
    # the kinds read in C (``map``), the win and the reaction test looked up in them, with no
    # Python step an action (replay, 4 policies, one core); the kinds are kept for turn_actions
    kinds = list(map(_KIND_OF, legal))
    found = None
    if "tsumo" in kinds or "ron" in kinds:
        found = next(a for a in legal if a.kind == "tsumo" or a.kind == "ron")
    reaction = REACTION_KINDS.issuperset(kinds)
    if type(legal) is tuple:
        memo[_OPENING] = (legal, found, reaction, kinds)
    return found, reaction


_TURN_ACTIONS = ("base.turn_actions",)
_KIND_OF = attrgetter("kind")

#: what :func:`turn_actions` gives: (the kinds offered, the ``discard`` actions, the ``riichi``
#: actions, each in the order given, the ``added_kan`` and the ``closed_kan`` of the lowest kind and
#: the first ``nukidora`` (None when there is none), and whether every discard and riichi names its
#: tile)
TurnActions = tuple[
    frozenset[str], tuple[Action, ...], tuple[Action, ...], Action | None, Action | None, Action | None, bool
]


def turn_actions(view: PlayerView, legal: Sequence[Action]) -> TurnActions:
    """The legal actions of a turn sorted out in one pass (see :data:`TurnActions`), kept in the
    view's memo with ``legal`` itself.

    Every policy sorts a turn's actions out for its own rules (the discards, the riichi discards,
    a kan or nukidora on offer), and all are asked at every decision point with the very same
    tuple of actions: the first walks it, the others find its answer (``is``, not ``==``; a list,
    which could change between two policies, is walked each time; replay, 4 policies, one core).
    The values are shared: never change them.
    """
    memo = view.memo
    got = memo.get(_TURN_ACTIONS)
    if got is not None and got[0] is legal:
        return got[1]  # type: ignore[no-any-return]
    opening = memo.get(_OPENING)  # the kinds, when _opening has read them from the same actions
    kinds = opening[3] if opening is not None and opening[0] is legal else list(map(_KIND_OF, legal))
    offered = frozenset(kinds)
    out: TurnActions
    if offered in (_DISCARDS_ONLY, _DISCARDS_AND_RIICHI):
        # (most turns: the actions picked by their kinds in C, no Python step an action; replay,
        # 4 policies, one core)
        tiled = None not in map(_TILE_OF, legal)
        if offered == _DISCARDS_ONLY:
            out = (offered, tuple(legal), (), None, None, None, tiled)
        else:
            discards = tuple(compress(legal, map(eq, kinds, repeat("discard"))))
            riichis = tuple(compress(legal, map(eq, kinds, repeat("riichi"))))
            out = (offered, discards, riichis, None, None, None, tiled)
    else:
        out = _sorted_out(legal, offered)
    if type(legal) is tuple:
        memo[_TURN_ACTIONS] = (legal, out)
    return out


_DISCARDS_ONLY = frozenset({"discard"})
_DISCARDS_AND_RIICHI = frozenset({"discard", "riichi"})
_TILE_OF = attrgetter("tile")


def _sorted_out(legal: Sequence[Action], offered: frozenset[str]) -> TurnActions:
    """:func:`turn_actions` of any legal actions, in one pass."""
    added = closed = nuki = None
    riichis: list[Action] = []
    discards: list[Action] = []
    tiled = True
    for a in legal:
        k = a.kind
        if k == "discard":
            discards.append(a)
            tiled = tiled and a.tile is not None
        elif k == "riichi":
            riichis.append(a)
            tiled = tiled and a.tile is not None
        elif k == "added_kan":
            if added is None or _kan_kind(a) < _kan_kind(added):
                added = a
        elif k == "closed_kan":
            if closed is None or _kan_kind(a) < _kan_kind(closed):
                closed = a
        elif k == "nukidora":
            nuki = nuki or a
    return (offered, tuple(discards), tuple(riichis), added, closed, nuki, tiled)


_BY_KIND = "base.actions_by_kind"
_KIND_OF_TILE = KIND_OF.__getitem__


def actions_by_kind(view: PlayerView, actions: Sequence[Action]) -> dict[int, Sequence[Action]]:
    """Actions naming their tile (discards, riichi discards) by their tile's kind: the kinds in the
    order they first come, each kind's actions in the order given. Kept in the view's memo with
    ``actions`` itself when it is a tuple (as :func:`turn_actions` gives): akagi and both readings
    of mahjongjoy sort a turn's discards by kind, the first asked does it for the others (replay,
    4 policies, one core). The value is shared: never change it."""
    memo = view.memo
    key = (_BY_KIND, actions[0].kind if actions else None)
    got = memo.get(key)
    if got is not None and got[0] is actions:
        return got[1]  # type: ignore[no-any-return]
    # (each kind's actions as a tuple of one, made in C: every kind once, but a red and a plain
    # five; then the loop: replay, 4 policies, one core)
    kinds = map(_KIND_OF_TILE, map(_TILE_OF, actions))
    by_kind: dict[int, Sequence[Action]] = dict(zip(kinds, zip(actions), strict=True))
    if len(by_kind) < len(actions):
        by_kind = _grouped_by_kind(actions)  # type: ignore[assignment]
    if type(actions) is tuple:
        memo[key] = (actions, by_kind)
    return by_kind


def _grouped_by_kind(actions: Sequence[Action]) -> dict[int, list[Action]]:
    """:func:`actions_by_kind` of actions of which some share a kind, not kept."""
    by_kind: dict[int, list[Action]] = {}
    for a in actions:
        k = KIND_OF[a.tile]  # type: ignore[index]
        same = by_kind.get(k)
        if same is None:
            by_kind[k] = [a]
        else:
            same.append(a)
    return by_kind


def _kan_kind(a: Action) -> int:
    return kind(a.tile)  # type: ignore[arg-type]  # (a kan always names a tile of its kind)


def kans_by_kind(legal: Sequence[Action]) -> list[Action]:
    """The closed kans on offer, then the added kans, each by kind (lowest first).

    A policy that takes "a kan" when several are offered (two quads in hand, or a quad and a pon
    to add to) takes the same one whatever the order of ``legal``: a policy must agree with
    itself (tests/test_policies.py, "deterministic"; the engine lists closed kans by kind, then
    added kans in the order of the pons, which is not always their kinds' order)."""
    kans = [a for a in legal if a.kind in ("closed_kan", "added_kan")]
    kans.sort(key=lambda a: (a.kind != "closed_kan", _kan_kind(a)))
    return kans


def require_legal(legal: Sequence[Action], policy: str) -> None:
    """:class:`UsageError` naming ``policy`` when it is asked to decide with no legal action."""
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
