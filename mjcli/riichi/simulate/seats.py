"""A policy in a seat: asked at each of its decision points through the engine-policy bridge.

The bridge builds what the seat sees (:class:`~mjcli.riichi.policies.view.PlayerView`) from the engine's
round and turns the engine's legal actions (tuples of events) into policy actions and back. What the
policy answers is checked against those legal actions: an answer that is not one of them, or a
policy that raises, stops the game with :class:`PolicyError` naming the game, round, seat, policy,
the hand and the action.

An outside bot (:class:`BotSeat`, around a :class:`~mjcli.riichi.bots.MjaiBot`) follows the game's
events and is asked the same way; its answer is played when it is legal. Otherwise it is a fault:
the table plays a safe fallback (:func:`~mjcli.riichi.bots.fallback`: pass, or the drawn tile),
the fault is kept with its position, and the game goes on (``strict``: the first fault stops the
run with :class:`BotFault`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mjcli.errors import PLUGIN_FAULTS
from mjcli.riichi.bots import MjaiBot, fallback
from mjcli.riichi.engine.actions import Move
from mjcli.riichi.engine.state import REACT, TURN, Round
from mjcli.riichi.policies import Action, HandMath, Policy, get_policy
from mjcli.riichi.policies.base import PolicyError, answer_text
from mjcli.riichi.policies.bridge import ViewBuilder, action_text, legal_listed, legal_of
from mjcli.tiles import tile_name, to_mpsz


class BotFault(PolicyError):
    """An outside bot's fault, with ``--strict-bots``: the run stops at the first."""


@dataclass(frozen=True, slots=True)
class Where:
    """Which game a decision belongs to, for error reports."""

    game: int
    seed: int
    round: str


class PolicySeat:
    """One registered policy, asked through the bridge (``math``: see
    :func:`~mjcli.riichi.policies.get_policy`); ``policy``, when given, is the policy object (a
    plugin's, built from its spec) and ``name`` its registered name."""

    def __init__(self, name: str, math: HandMath | None = None, policy: Policy | None = None) -> None:
        self.name = name.strip().lower()
        self.policy: Policy = policy if policy is not None else get_policy(name, math=math)

    def set_players(self, players: int) -> None:
        """The game about to be played has ``players`` seats: the policy's hand figures follow
        (three-player hands have no 2m-8m; see :meth:`HandMath.set_players`)."""
        math = getattr(self.policy, "math", None)
        if isinstance(math, HandMath):
            math.set_players(players)

    def choose(self, rnd: Round, seat: int, where: Where, views: ViewBuilder | None = None) -> Move | None:
        """The move this seat makes now; None when it has nothing to decide.

        A single legal action (a forced tsumogiri in riichi, a lone pass) is taken without asking:
        there is no decision to make. ``views`` is the round's view builder (shared by the seats so
        that unchanged rivers are not converted again).
        """
        # (``legal_of`` inline: its filter only ever answers a seat reacting to a discard)
        options = legal_of(rnd, seat) if rnd.phase == REACT else legal_listed(rnd, seat)
        legal, back = options.actions, options.events
        if not legal:
            return None
        if len(legal) == 1:
            return back[legal[0]]
        view = (views if views is not None and views.rnd is rnd else ViewBuilder(rnd)).view(seat)
        try:
            action = self.policy.decide(view, legal)
        # a crashing policy is a bug: say where, keep the cause chained
        except PLUGIN_FAULTS as exc:
            raise PolicyError(
                f"{_where(where, seat, self.name)}: the policy failed ({type(exc).__name__}: {exc}); "
                f"{_state(rnd, seat)}"
            ) from exc
        events = back.get(action) if isinstance(action, Action) else None
        if events is None:
            shown = answer_text(action)
            raise PolicyError(
                f"{_where(where, seat, self.name)}: illegal action '{shown}'; {_state(rnd, seat)}; "
                f"legal: {', '.join(a.label() for a in legal)}"
            )
        return events


def _where(where: Where, seat: int, policy: str) -> str:
    return f"game {where.game} (seed {where.seed}) round {where.round} seat {seat} ({policy})"


def _state(rnd: Round, seat: int) -> str:
    p = rnd.players[seat]
    hand = list(p.hand)
    drew = rnd.drawn is not None and rnd.current == seat and rnd.phase == TURN
    if drew:
        hand.remove(rnd.drawn)  # shown apart, as a player sees it
    text = f"hand {to_mpsz(hand)}"
    if p.melds:
        text += " melds " + " ".join(to_mpsz(m.tiles) for m in p.melds)
    if drew:
        text += f", drew {tile_name(rnd.drawn)}"  # type: ignore[arg-type]
    if rnd.last_tile is not None and rnd.current != seat:
        text += f", offered {tile_name(rnd.last_tile)} by seat {rnd.current}"
    return text + f", {rnd.wall} tiles left"


class BotSeat:
    """An outside mjai bot at the table, for every seat it sits in (one process per seat).

    :meth:`start_game` hands it the game's event list (the table appends to it as it plays);
    :meth:`choose` asks the seat's process; :meth:`end_game` tells the processes the game is over
    and returns the game's faults, each with its position.
    """

    def __init__(self, name: str, bot: MjaiBot, strict: bool = False) -> None:
        self.name = name
        self.bot = bot
        self.strict = strict
        self.events: Sequence[object] = ()
        self.faults: list[dict[str, Any]] = []

    def start_game(self, events: Sequence[object], names: Sequence[str]) -> None:
        self.events = events
        self.faults = []
        self.bot.start_game(events, names)

    def end_game(self) -> list[dict[str, Any]]:
        """The game's faults, those of the bot at the game's end too (without a decision's fields:
        the caller adds the game and seed)."""
        end = len(self.events) - 1
        for f in self.bot.end_game():
            self.faults.append(
                {"round": "end", "seat": f.seat, "event": end, "state": "", "legal": [], "bot": f.bot}
                | {"fault": f.kind, "detail": f.detail, "answer": f.answer}
            )
        return self.faults

    def close(self) -> None:
        self.bot.close()

    def abort(self) -> None:
        """The run was stopped: the processes are killed at once (see MjaiBot.abort)."""
        self.bot.abort()

    def choose(self, rnd: Round, seat: int, where: Where, views: ViewBuilder | None = None) -> Move | None:
        options = legal_of(rnd, seat)
        legal, back = options.actions, options.events
        if not legal:
            return None
        if len(legal) == 1:
            return back[legal[0]]
        got = self.bot.answer(seat, len(self.events) - 1, legal)
        action = got.action
        if got.fault is not None or action is None or action not in back:
            fault = got.fault
            row = {
                "game": where.game,
                "seed": where.seed,
                "round": where.round,
                "seat": seat,
                "event": len(self.events) - 1,
                "state": _state(rnd, seat),
                "legal": [action_text(a) for a in legal],
                "bot": self.name,
                "fault": fault.kind if fault else "illegal",
                "detail": fault.detail if fault else "not a legal action",
                "answer": got.text,
            }
            if self.strict:
                raise BotFault(
                    f"{_where(where, seat, self.name)}: {row['fault']}: {row['detail']}; "
                    + ("no answer; " if got.text is None else f"answer {got.text!r}; ")
                    + f"{row['state']}; legal: {', '.join(row['legal'])} "
                    "(--strict-bots stops at the first fault)"
                )
            drawn = rnd.drawn if rnd.phase == TURN and rnd.current == seat else None
            action = fallback(legal, drawn, riichi=got.reach)
            row["played"] = action_text(action)
            self.faults.append(row)
        return back[action]
