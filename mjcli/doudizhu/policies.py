"""Dou Dizhu playing policies: ``zhanpai`` (the seed's planner bot, completed), ``greedy`` and
``random`` (baselines). Each decides from a :class:`~mjcli.doudizhu.engine.PlayView` (what a player
at the table sees) and says why.

``zhanpai`` rules, in the order they are tried:

Bidding
    Plan the 17 cards with the seed's ZhanPai; a low Pn is a strong hand. Bid 3 at raw Pn <= 45,
    2 at <= 55, 1 at <= 68 (about the best 5 %, 10 % and 25 % of dealt hands), if that is above the
    bid so far; otherwise pass.
Leading (the seed's "active play")
    1. The whole hand is one combination: play it.
    2. Plan the hand; each step is a candidate lead, trios and trio chains carrying the plan's
       smallest singles (or pairs) as kickers, since the seed leaves kickers to play time.
    3. Run-out: when at most one candidate could be beaten by the cards the player has not seen,
       lead an unbeatable one first (a bomb or the rocket included) and the last one after it.
    4. Otherwise bombs and the rocket are kept back. A peasant whose partner plays next and holds
       one card leads its smallest single; with an opponent on one card singles are avoided (the
       highest single if nothing else is left), with an opponent on two cards pairs are avoided.
    5. Lead the weakest step: the lowest bottom rank, the most cards on a tie.
Following (the seed's "passive play")
    1. A peasant does not overtake its partner's lead (passes), unless it can play out its hand.
    2. A beating move that plays out the whole hand is played.
    3. Each beating non-bomb move (kickers chosen to keep the best plan) is rated by the Pn loss
       ``Pn(hand after the move) - Pn(hand)``, the seed's test of whether splitting a combination
       costs something; the move of smallest loss (then lowest rank) is played if the loss is at most
       ``FOLLOW_LOSS``, or whatever the loss when an opponent is down to two cards or fewer.
    4. Bombs and the rocket only to stop an opponent on two cards or fewer, or when they win the
       game: nothing unseen beats them and the rest of the hand is one combination.
    5. Otherwise pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from mjcli.doudizhu.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, Counts, format_counts, sub
from mjcli.doudizhu.engine import BidView, PlayView, Policy
from mjcli.doudizhu.movegen import gen_kind, legal_moves
from mjcli.doudizhu.moves import KickerRule, Kind, Move, as_lead, classify, classify_one
from mjcli.doudizhu.planner import PAIR, SINGLE, TRIO, TRIO_CHAIN, Plan, Step, plan, plan_pn
from mjcli.errors import PLUGIN_FAULTS, PluginBug, UsageError
from mjcli.plugins import BUILTIN, PolicySpec, Registry, instantiate, load_target, make_registry

Decision = tuple[Move | None, str]


def _bid_options(view: BidView) -> list[int]:
    return [0] + [b for b in (1, 2, 3) if b > view.highest]


# ---------------------------------------------------------------------------------------------
# Baselines.


class RandomPolicy:
    """Uniform over the legal choices: bids (pass included) and moves (pass included when following)."""

    name = "random"

    def bid(self, view: BidView, rng: random.Random) -> tuple[int, str]:
        level = rng.choice(_bid_options(view))
        return level, "uniform random bid"

    def play(self, view: PlayView, rng: random.Random) -> Decision:
        moves: list[Move | None] = list(legal_moves(view.hand, view.lead, view.rule))
        if view.lead is not None:
            moves.append(None)
        move = rng.choice(moves)
        return move, f"uniform random choice among {len(moves)}"


def _smallest_key(move: Move) -> tuple[int, int, int, tuple[int, ...]]:
    # Bombs last, then the lowest main rank, then the most cards, then the smallest kickers.
    ranks = tuple(r for r in range(NUM_RANKS) for _ in range(move.cards[r]))
    return (move.is_bomb, move.main, -move.count, ranks)


class GreedyPolicy:
    """Always plays the smallest legal move: on a lead the lowest main rank (most cards on a tie),
    when following the smallest beating move (a bomb or the rocket only when nothing else beats)."""

    name = "greedy"

    def bid(self, view: BidView, rng: random.Random) -> tuple[int, str]:
        h = view.hand
        strength = h[TWO] + 2 * (h[SMALL_JOKER] + h[BIG_JOKER]) + 2 * sum(1 for c in h[:TWO] if c == 4)
        want = 3 if strength >= 6 else 2 if strength >= 5 else 1 if strength >= 4 else 0
        level = want if want > view.highest else 0
        return level, f"high cards {strength} (2s, jokers x2, bombs x2)"

    def play(self, view: PlayView, rng: random.Random) -> Decision:
        moves = legal_moves(view.hand, view.lead, view.rule)
        if not moves:
            return None, "nothing beats the lead"
        move = min(moves, key=_smallest_key)
        return move, "smallest legal move" if view.lead is None else "smallest beating move"


# ---------------------------------------------------------------------------------------------
# The seed's bot.

FOLLOW_LOSS = 10  # largest Pn loss accepted to beat a lead when no opponent is near the end
BID_THRESHOLDS = ((3, 45), (2, 55), (1, 68))
NEAR_EMPTY = 2


def _step_move(step: Step, rule: KickerRule) -> Move:
    move = classify_one(step.counts(), rule)
    assert move is not None, step
    return move


def _with_kickers(main: Step, hand: Counts, rule: KickerRule, weights: str) -> Move:
    """A trio or trio chain led with kickers: the smallest singles of the plan of the rest (2s and
    jokers kept back), else its smallest pairs, else bare."""
    units = main.len // 3
    top = main.ranks[0]
    rest_plan = plan(sub(hand, main.counts()), weights)
    single_kind = Kind.TRIO_SINGLE if units == 1 else Kind.AIRPLANE_SINGLE
    pair_kind = Kind.TRIO_PAIR if units == 1 else Kind.AIRPLANE_PAIR
    for step_type, width, kind in ((SINGLE, 1, single_kind), (PAIR, 2, pair_kind)):
        small = sorted(s.ranks[0] for s in rest_plan.steps if s.type == step_type and s.ranks[0] < TWO)
        if len(small) < units:
            continue
        cards = list(main.counts())
        for r in small[:units]:
            cards[r] += width
        for move in classify(tuple(cards), rule):
            if move.kind is kind and move.main == top and move.size == units:
                return move
    return _step_move(main, rule)


def _beatable(move: Move, unseen: Counts, rule: KickerRule) -> bool:
    return bool(legal_moves(unseen, as_lead(move, rule), rule))


class ZhanPaiPolicy:
    """The seed's planner bot; see the module documentation for its rules."""

    def __init__(self, weights: str = "seed", name: str = "zhanpai") -> None:
        self.weights = weights
        self.name = name

    def _plan(self, hand: Counts) -> Plan:
        return plan(hand, self.weights)

    # -- bidding ---------------------------------------------------------------------------------
    def bid(self, view: BidView, rng: random.Random) -> tuple[int, str]:
        pn = plan_pn(view.hand, self.weights)
        want = next((level for level, limit in BID_THRESHOLDS if pn <= limit), 0)
        level = want if want > view.highest else 0
        if want == 0:
            return 0, f"plan Pn {pn} > {BID_THRESHOLDS[-1][1]}: too weak to bid"
        if level == 0:
            return 0, f"plan Pn {pn} is worth {want}, not above the bid {view.highest}"
        return level, f"plan Pn {pn} is worth a bid of {level}"

    # -- play ------------------------------------------------------------------------------------
    def play(self, view: PlayView, rng: random.Random) -> Decision:
        return self._lead(view) if view.lead is None else self._follow(view)

    def _lead_options(self, hand: Counts, rule: KickerRule) -> list[tuple[Step, Move]]:
        p = self._plan(hand)
        out = []
        for step in p.steps:
            if step.type in (TRIO, TRIO_CHAIN) and step.ranks[0] < TWO:
                move = _with_kickers(step, hand, rule, self.weights)
            else:
                move = _step_move(step, rule)
            out.append((step, move))
        return out

    def _lead(self, view: PlayView) -> Decision:
        hand, rule = view.hand, view.rule
        whole = classify_one(hand, rule)
        if whole is not None:
            return whole, f"plays out the hand: {whole}"
        options = [m for _, m in self._lead_options(hand, rule)]
        unseen = view.unseen()
        beatable = [m for m in options if _beatable(m, unseen, rule)]
        safe = [m for m in options if m not in beatable]
        if safe and len(beatable) <= 1:
            move = max(safe, key=lambda m: m.count)
            return move, f"run-out: {move} cannot be beaten and at most one combination is left after it"
        quiet = [m for m in options if not m.is_bomb] or options
        partner = view.partner
        if partner is not None and (view.seat + 1) % 3 == partner and view.cards_left[partner] == 1:
            low = min(r for r in range(NUM_RANKS) if hand[r])
            move = next(gen_kind(_only(hand, low), Kind.SINGLE, rule))
            return move, "feeds the partner (one card left) with the smallest single"
        opp_left = min(view.cards_left[o] for o in view.opponents())
        if opp_left <= NEAR_EMPTY:
            avoid = Kind.SINGLE if opp_left == 1 else Kind.PAIR
            others = [m for m in quiet if m.kind is not avoid]
            if others:
                move = min(others, key=_weakness)
                return move, f"an opponent holds {opp_left}: avoids a {avoid.value}, leads the weakest {move}"
            move = max(quiet, key=lambda m: m.main)
            return move, f"an opponent holds {opp_left}: only {avoid.value}s left, leads the highest {move}"
        move = min(quiet, key=_weakness)
        return move, f"leads the plan's weakest step {move}; plan Pn {self._plan(hand).pn}"

    def _candidates(self, hand: Counts, lead: Move, rule: KickerRule) -> list[tuple[int, Move]]:
        """Beating non-bomb moves with their Pn loss; of moves with kickers, the best kickers only."""
        before = plan_pn(hand, self.weights)
        best: dict[tuple[int, int], tuple[int, Move]] = {}
        for move in legal_moves(hand, lead, rule):
            if move.is_bomb:
                continue
            loss = plan_pn(sub(hand, move.cards), self.weights) - before
            key = (move.main, move.size)
            if key not in best or loss < best[key][0]:
                best[key] = (loss, move)
        return sorted(best.values(), key=lambda lm: (lm[0], lm[1].main))

    def _follow(self, view: PlayView) -> Decision:
        hand, lead, rule = view.hand, view.lead, view.rule
        assert lead is not None
        moves = legal_moves(hand, lead, rule)
        finishing = [m for m in moves if m.cards == hand]
        if finishing:
            return finishing[0], f"plays out the hand: {finishing[0]}"
        if view.partner is not None and view.lead_seat == view.partner:
            return None, "leaves the partner's lead standing"
        opp_left = min(view.cards_left[o] for o in view.opponents())
        urgent = opp_left <= NEAR_EMPTY
        cands = self._candidates(hand, lead, rule)
        if cands:
            loss, move = cands[0]
            if loss <= FOLLOW_LOSS or urgent:
                why = f"an opponent holds {opp_left}" if loss > FOLLOW_LOSS else f"Pn loss {loss:+d}"
                return move, f"beats with {move}: {why}"
        bombs = sorted((m for m in moves if m.is_bomb), key=lambda m: (m.kind is Kind.ROCKET, m.main))
        for bomb in bombs:
            rest = sub(hand, bomb.cards)
            wins = not _beatable(bomb, view.unseen(), rule) and classify_one(rest, rule) is not None
            if urgent or wins:
                why = (
                    f"stops an opponent holding {opp_left}"
                    if urgent
                    else "wins: unbeatable, one combination left"
                )
                return bomb, f"{bomb.kind.value} {bomb.text()}: {why}"
        if cands:
            return None, f"passes: the cheapest beat {cands[0][1]} costs Pn {cands[0][0]:+d} > {FOLLOW_LOSS}"
        return None, "passes: nothing beats the lead" if not moves else "passes: keeps its bombs"


def _only(hand: Counts, rank: int) -> Counts:
    return tuple(hand[r] if r == rank else 0 for r in range(NUM_RANKS))


def _weakness(move: Move) -> tuple[int, int]:
    """Lead order: the lowest rank of the compared part first, the most cards on a tie."""
    return (move.main - move.size + 1, -move.count)


POLICIES: dict[str, Callable[[], Policy]] = {
    "zhanpai": ZhanPaiPolicy,
    "zhanpai_corrected": lambda: ZhanPaiPolicy("corrected", "zhanpai_corrected"),
    "greedy": GreedyPolicy,
    "random": RandomPolicy,
}


#: the entry-point group through which installed packages add Dou Dizhu policies
ENTRY_POINT_GROUP = "mjcli.doudizhu.policies"


def get_policy(name: str, registry: Registry | None = None) -> Policy:
    """A policy by name (in ``registry``: built-ins, plugins, entry points; default the built-ins);
    raises :class:`UsageError` naming the unknown name."""
    if registry is None:
        factory = POLICIES.get(name.strip())
        if factory is None:
            raise UsageError(f"unknown Dou Dizhu policy {name!r}: use one of {', '.join(POLICIES)}")
        return factory()
    return build_policy(registry.spec(name))


def parse_policies(text: str | Iterable[str], registry: Registry | None = None) -> list[str]:
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text) if n.strip()]
    for n in names:
        if registry is None:
            get_policy(n)
        else:
            registry.spec(n)
    return names if registry is None else [n.lower() for n in names]


def policy_registry(plugins: Iterable[str] = ()) -> Registry:
    """Every Dou Dizhu policy name a run knows: the built-ins, the installed entry points (group
    ``mjcli.doudizhu.policies``) and the ``--plugin NAME=TARGET`` values."""
    return make_registry([(n, n) for n in POLICIES], ENTRY_POINT_GROUP, "doudizhu", list(plugins))


def build_policy(spec: PolicySpec) -> Policy:
    """The policy of a spec: a built-in, or a plugin's or entry point's object (see :class:`PluginPolicy`)."""
    if spec.source == BUILTIN:
        return POLICIES[spec.target]()
    what = f"{spec.source} '{spec.name}' ({spec.target})"
    obj = instantiate(load_target(spec.target, what), what)
    native = callable(getattr(obj, "bid", None)) and callable(getattr(obj, "play", None))
    if not native and not callable(getattr(obj, "decide", None)):
        raise UsageError(f"{what} is not a policy: it has no decide(view, legal) method")
    return PluginPolicy(spec.name, obj)


class PluginError(PluginBug):
    """A plugin raised, or answered with something that is not one of the legal choices: a bug of
    the plugin, reported on one line with where it happened (exit 1: mjcli.games.plugin_bugs_stop),
    never a traceback."""


class PluginPolicy:
    """A plugin at the Dou Dizhu table, under its registered name.

    The plugin contract is riichi's: ``decide(view, legal)`` returns one of ``legal``, or a pair
    (one of ``legal``, the reason). When bidding, ``view`` is a :class:`~mjcli.doudizhu.engine.BidView`
    and ``legal`` the bid levels allowed (0 = pass, then each level above the highest bid); when
    playing, a :class:`~mjcli.doudizhu.engine.PlayView` and the legal moves (``None`` = pass, offered
    when following). An object with the engine's own ``bid(view, rng)`` and ``play(view, rng)`` is
    used through them instead (each answering a pair: a bid level or one of the legal moves, and
    the reason). As in riichi, an exception or an answer that is not legal is the plugin's bug: a
    :class:`PluginError` naming the plugin and the position.
    """

    def __init__(self, name: str, plugin: object) -> None:
        self.name = name
        self.plugin = plugin
        self.native = callable(getattr(plugin, "bid", None)) and callable(getattr(plugin, "play", None))

    def bid(self, view: BidView, rng: random.Random) -> tuple[int, str]:
        legal = _bid_options(view)
        if not self.native:
            return self._decide(view, legal)
        answer = self._call(view, "bid", view, rng)
        # a native bid may name any level (the engine takes one not above the highest as a pass),
        # but it must be a level: a string would fail in the engine's comparison instead
        if not (_is_pair(answer) and type(answer[0]) is int and 0 <= answer[0] <= 3):
            raise self._illegal(view, answer, legal)
        return answer  # type: ignore[no-any-return]

    def play(self, view: PlayView, rng: random.Random) -> Decision:
        legal: list[Move | None] = list(legal_moves(view.hand, view.lead, view.rule))
        if view.lead is not None:
            legal.append(None)
        if not self.native:
            return self._decide(view, legal)
        answer = self._call(view, "play", view, rng)
        # checked here: the engine would stop on an illegal move with a RuntimeError, and replay
        # would write whatever came back as a choice
        if not (_is_pair(answer) and answer[0] in legal):
            raise self._illegal(view, answer, legal)
        return answer  # type: ignore[no-any-return]

    def _call(self, view: BidView | PlayView, method: str, *args: object) -> Any:
        try:
            return getattr(self.plugin, method)(*args)
        except PLUGIN_FAULTS as exc:  # any exception of a plugin is its bug: say where it happened
            raise PluginError(
                f"plugin '{self.name}' raised {type(exc).__name__}: {exc} ({_position(view)})"
            ) from exc

    def _illegal(self, view: BidView | PlayView, answer: object, legal: list) -> PluginError:  # type: ignore[type-arg]
        return PluginError(
            f"plugin '{self.name}' answered {answer!r}, not one of the {len(legal)} legal choices "
            f"({_position(view)})"
        )

    def _decide(self, view: BidView | PlayView, legal: list) -> tuple:  # type: ignore[type-arg]
        # a copy: the answer is checked against ``legal``, and a plugin that added to the list it
        # was given got a pass on a free lead past the check (the engine then stopped with a
        # traceback) and a bid of 7 through
        answer = self._call(view, "decide", view, list(legal))
        reason = getattr(self.plugin, "reason", "") or ""
        if _is_pair(answer) and answer[0] in legal:
            answer, reason = answer
        if answer not in legal:
            raise self._illegal(view, answer, legal)
        return answer, reason


def _is_pair(answer: object) -> bool:
    """A (choice, reason) answer: a tuple of two, the reason text."""
    return isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[1], str)


def _position(view: BidView | PlayView) -> str:
    """Where a plugin was asked, for its error: seat, hand, and the bids or the lead to beat."""
    hand = format_counts(view.hand)
    if isinstance(view, BidView):
        return f"seat {view.seat} bidding, hand {hand}, highest bid {view.highest}"
    lead = "a free lead" if view.lead is None else f"following {view.lead.text()}"
    return f"seat {view.seat} playing, hand {hand}, {lead}"
