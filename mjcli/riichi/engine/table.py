"""A whole game: rounds in sequence, dealer rotation, honba and sticks, the end and the result.

``Game.apply(event, index)`` takes every event of a game log in order. Each round is played by a
:class:`~mjcli.riichi.engine.state.Round`; between rounds the game computes what the next round must be
(wind, number, dealer, honba, sticks, scores) and whether the game is over, under the rules:
renchan on a dealer win, dealer tenpai at an exhaustive draw or any abortive draw; a player below
zero ends the game; after the last round the game goes on into the next wind while nobody has the
goal (the return points, or ``Rules.goal_points``; at most one extra wind); the last-round dealer in
first place with the goal
stops the game (agari-yame / tenpai-yame); leftover sticks go to first place; uma and oka, by the
rule of the game's date where its id has one (:mod:`~mjcli.riichi.engine.eras`).

Where a log's round start disagrees with what the engine expected, the difference is recorded on
the round (``start_problems``) and play goes on from the log's values, so one wrong settlement
does not hide everything after it.

A wind has as many rounds as there are players (three-player: E1-E3, S1-S3), and a log's own
number of players wins over the rules given: a three-player log read with the ``tenhou`` rules is
played as ``tenhou-sanma`` (:func:`~mjcli.riichi.rules.for_players`). A game made without rules
(``Game()``) is played under the preset of the site its log names (a Mahjong Soul room: the
``majsoul`` presets), Tenhou's otherwise; rules given are kept whatever the log names. A log that
does not say its length is played East-only under an East-only preset given, and otherwise as a
hanchan whose ends that fit an East-only game are taken as one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from mjcli.errors import UnsupportedError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.eras import (
    PointsChoice,
    PointsRule,
    points_choice,
    same_points,
    tenhou_log,
    tenpaiyame_of,
)
from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.engine.settlement import final_scores, ranking
from mjcli.riichi.engine.state import ENDED, PLAY_EVENTS, Round, RoundOutcome
from mjcli.riichi.rules import Rules, for_players, get_rules, rules_label, site_preset

ABORTIVE = (ev.NINE_TERMINALS, ev.FOUR_RIICHI, ev.FOUR_WINDS, ev.FOUR_KANS, ev.TRIPLE_RON)
#: the wall's end: the dealer keeps the seat by being tenpai (nagashi mangan is paid at it)
EXHAUSTIVE_DRAWS = (ev.EXHAUSTIVE, ev.NAGASHI_MANGAN)
WIND_LETTERS = "ESWN"


@dataclass(frozen=True, slots=True)
class RoundStart:
    """What a round starts from: the engine's expectation, compared with the log's StartRound."""

    round_wind: int
    kyoku: int
    honba: int
    sticks: int
    dealer: int
    scores: tuple[int, ...]

    @property
    def label(self) -> str:
        return round_label(self.round_wind, self.kyoku, self.honba)


def round_label(round_wind: int, kyoku: int, honba: int) -> str:
    """``E1-0``: wind, round number, honba."""
    return f"{WIND_LETTERS[round_wind % 4]}{kyoku}-{honba}"


@dataclass(slots=True)
class RoundRecord:
    """One round as played: the log's start, the engine's outcome, what the log recorded."""

    index: int  # event index of the StartRound
    start: ev.StartRound
    state: Round
    # (what, the log's value, the engine's value) where the log's round start differs
    start_problems: list[tuple[str, object, object]] = field(default_factory=list)
    recorded_wins: list[ev.Win] = field(default_factory=list)
    recorded_draw: ev.RoundDraw | None = None
    outcome: RoundOutcome | None = None

    @property
    def label(self) -> str:
        return round_label(self.start.round_wind, self.start.kyoku, self.start.honba)


@dataclass(frozen=True, slots=True)
class GameResult:
    scores: tuple[int, ...]  # final scores, leftover sticks settled
    points: tuple[float, ...]  # after uma and oka, in thousands


class Game:
    """State of a whole game; feed it a log's events with :meth:`apply`."""

    def __init__(self, rules: Rules | None = None) -> None:
        # rules given are the ones played (fitted to the log's size, length, red fives); without,
        # a log naming its site is played under that site's preset
        self.fixed = rules is not None
        self.rules = rules or get_rules("tenhou")
        self.names: tuple[str, ...] = ()
        self.rounds: list[RoundRecord] = []
        n = self.rules.players
        self.expected: RoundStart | None = RoundStart(0, 1, 0, 0, 0, (self.rules.start_points,) * n)
        self.scores = list(self.expected.scores)
        self.sticks = 0
        self.over = False
        self.result: GameResult | None = None
        self.recorded_end: ev.EndGame | None = None
        self.end_problems: list[str] = []
        # seats playing with their hand shown (the log's StartGame says which)
        self.hands_shown: frozenset[int] = frozenset()
        # The final-points rules the game may follow (the log's date picks them); the first is applied.
        self.points_choice: PointsChoice = points_choice("", self.rules)
        self.points_of: tuple[str, bool] = ("", False)  # game id, and whether the log is Tenhou's
        # the rule the final points were worked out by, and whether the log's recorded ones fit it
        self.points_applied: PointsRule = self.points_choice.candidates[0]
        self.points_fit = False
        # the log does not say its length: played as a hanchan until it ends where only an
        # East-only game ends (``over_if_tonpuu``) or goes on past that point
        self.length_open = False
        self.over_if_tonpuu = False
        # how the length was settled when the log does not state it ("" when it does)
        self.length_note = ""
        # the game may have been played without tenpai-yame (eras.tenpaiyame_of is None): then the
        # round after one that ended the game only by tenpai-yame, which a log that goes on starts
        self.tenpaiyame_open = False
        self.without_tenpaiyame: RoundStart | None = None
        self.tenpaiyame_note = ""

    def rules_name(self) -> str:
        """The rule set played, as summaries name it (the preset, and how a length the log does not
        state was settled)."""
        label = rules_label(self.rules)
        notes = "; ".join(n for n in (self.length_note, self.tenpaiyame_note) if n)
        if not notes:
            return label
        # one parenthesis: "tenhou (tenpaiyame=False; the log plays on ...)"
        return f"{label[:-1]}; {notes})" if label.endswith(")") else f"{label} ({notes})"

    @property
    def current(self) -> RoundRecord | None:
        r = self.rounds[-1] if self.rounds else None
        return r if r is not None and r.outcome is None else None

    def apply(self, event: object, index: int) -> None:
        t = type(event)
        if t in PLAY_EVENTS:
            # The hot path: an action inside the round in play (``self.current`` inlined).
            rounds = self.rounds
            rec = rounds[-1] if rounds else None
            if rec is None or rec.outcome is not None:
                raise IllegalEvent(index, event, "no round in play")
            rec.state.apply(event, index)
            return
        if t is ev.StartGame:
            self._start_game(event, index)  # type: ignore[arg-type]
        elif t is ev.StartRound:
            self._close_open_round(index, event)
            self._start_round(event, index)  # type: ignore[arg-type]
        elif t is ev.EndRound:
            rec = self.current
            if rec is None:
                raise IllegalEvent(index, event, "no round in play")
            self._finish_round(rec, index, event)
        elif t is ev.EndGame:
            self._close_open_round(index, event)
            self._end_game(event, index)  # type: ignore[arg-type]
        else:
            rec = self.current
            if rec is None:
                raise IllegalEvent(index, event, "no round in play")
            rec.state.apply(event, index)
            if t is ev.Win:
                rec.recorded_wins.append(event)  # type: ignore[arg-type]
            elif t is ev.RoundDraw:
                rec.recorded_draw = event  # type: ignore[assignment]

    # ------------------------------------------------------------------ game start and end

    def _start_game(self, e: ev.StartGame, index: int) -> None:
        if self.rounds:
            raise IllegalEvent(index, e, "the game has already started")
        gr = e.rules
        if gr.players not in (3, 4):
            raise UnsupportedError(f"event {index}: {gr.players}-player games are not played by the engine")
        site_rules = gr.site and not self.fixed and gr.site != self.rules.site
        if site_rules or gr.players != self.rules.players:
            fitted = site_preset(gr.site, gr.players) if site_rules else for_players(self.rules, gr.players)
            self.rules = fitted
            self.expected = RoundStart(0, 1, 0, 0, 0, (self.rules.start_points,) * gr.players)
            self.scores = list(self.expected.scores)
        changes = {}
        if gr.red_fives != self.rules.red_fives:
            changes["red_fives"] = gr.red_fives
        if gr.open_tanyao != self.rules.open_tanyao:
            changes["open_tanyao"] = gr.open_tanyao
        if gr.length and gr.length != self.rules.length:
            changes["length"] = gr.length
        # a log that does not say its length: an East-only preset given says it (plain presets
        # are hanchan by default, not a claim about the log), else the game's end does
        self.length_open = not gr.length and not (self.fixed and self.rules.length == "tonpuu")
        if self.length_open and self.rules.length != "hanchan":
            changes["length"] = "hanchan"
        if gr.open_riichi and not self.rules.open_riichi:
            changes["open_riichi"] = True  # a log that played the house rule is played under it
        if gr.absent_share and gr.absent_share != self.rules.absent_share:
            # a three-player log that split the absent North's share (sanma-split) is paid so
            changes["absent_share"] = gr.absent_share
        if any(not 0 <= s < gr.players for s in gr.hands_shown):
            raise IllegalEvent(
                index, e, f"hands shown of seats {list(gr.hands_shown)}: seats are 0-{gr.players - 1}"
            )
        if changes:
            self.rules = dataclasses.replace(self.rules, **changes)
        of_tenhou = tenhou_log(e.game_id, e.header.disp)
        self.points_choice = points_choice(e.game_id, self.rules, of_tenhou)
        self.points_of = (e.game_id, of_tenhou)  # the choice again if the length turns out otherwise
        known = tenpaiyame_of(e.game_id, self.rules, of_tenhou)
        if known is False and self.rules.tenpaiyame:
            self.rules = dataclasses.replace(self.rules, tenpaiyame=False)
        self.tenpaiyame_open = known is None
        first = self.points_choice.candidates[0]
        if (first.rounding, first.uma) != (self.rules.points_rounding, tuple(self.rules.uma)):
            self.rules = dataclasses.replace(self.rules, points_rounding=first.rounding, uma=first.uma)
        self.names = e.names
        self.hands_shown = frozenset(gr.hands_shown)

    def _end_game(self, e: ev.EndGame, index: int) -> None:
        self.recorded_end = e
        # A log without a final result (an excerpt of rounds) makes no claim that the game is over.
        claims_end = e.scores is not None or e.points is not None
        if claims_end and not self.over and self.length_open and self.over_if_tonpuu:
            # a log that does not say its length, ending where an East-only game ends: it was one
            self.rules = dataclasses.replace(self.rules, length="tonpuu")
            # an East-only game's own final points (Tenhou's East-only uma was +10/+5/-5/-10 in
            # 2008-2009: see mjcli.riichi.engine.eras)
            self.points_choice = points_choice(self.points_of[0], self.rules, self.points_of[1])
            first = self.points_choice.candidates[0]
            self.rules = dataclasses.replace(self.rules, points_rounding=first.rounding, uma=first.uma)
            self.over = True
            self.length_note = "East-only: the log does not say, and ends where only an East-only game ends"
        elif self.length_open:
            self.length_note = "length not in the log"
        if claims_end and not self.over:
            self.end_problems.append("the game ends, but by the rules it goes on")
        scores = (
            final_scores(self.scores, self.sticks) if self.rules.leftover_sticks_to_first else self.scores
        )
        # the final points: the first rule of the game's choice, or the one the recorded points fit
        # (verify and replay then name the same rule set for the game)
        self.points_applied = self.points_choice.candidates[0]
        points = self.points_applied.points(scores, self.rules.return_points)
        if e.points is not None:
            for cand in self.points_choice.candidates:
                mine = cand.points(scores, self.rules.return_points)
                if same_points(e.points, mine):
                    self.points_applied, points, self.points_fit = cand, mine, True
                    self.rules = dataclasses.replace(self.rules, points_rounding=cand.rounding, uma=cand.uma)
                    break
        self.result = GameResult(tuple(scores), tuple(points))

    # ------------------------------------------------------------------ rounds

    def _start_round(self, e: ev.StartRound, index: int) -> None:
        problems: list[tuple[str, object, object]] = []
        if self.over and self.without_tenpaiyame is not None:
            # the game went on where tenpai-yame would have ended it: it was played without it
            self.rules = dataclasses.replace(self.rules, tenpaiyame=False)
            self.expected, self.over = self.without_tenpaiyame, False
            self.tenpaiyame_note = "the log plays on after the dealer's tenpai in first place"
        if self.over:
            problems.append(("start", "a new round", "the game is over"))
        if self.over_if_tonpuu:
            self.length_open = self.over_if_tonpuu = False  # it goes on: not an East-only game
        exp = self.expected
        if not self.rounds and (e.round_wind, e.kyoku, e.honba) != (0, 1, 0):
            exp = None  # an excerpt starting mid-game: its first round is taken as it is
        if exp is not None:
            got = RoundStart(e.round_wind, e.kyoku, e.honba, e.sticks, e.dealer, tuple(e.scores))
            for name in ("round_wind", "kyoku", "honba", "sticks", "dealer", "scores"):
                a, b = getattr(exp, name), getattr(got, name)
                if a != b:
                    problems.append((f"start {name}", _plain(b), _plain(a)))
        state = Round(e, self.rules, index, hands_shown=self.hands_shown)
        self.rounds.append(RoundRecord(index, e, state, problems))
        # Play on from the log's values.
        self.scores = list(e.scores)
        self.sticks = e.sticks
        self.over = False

    def _close_open_round(self, index: int, event: object) -> None:
        rec = self.current
        if rec is None:
            return
        if rec.state.phase == ENDED:
            self._finish_round(rec, index, event)  # a log without an explicit end of round
        else:
            raise IllegalEvent(index, event, f"round {rec.label} has not ended")

    def _finish_round(self, rec: RoundRecord, index: int, event: object) -> None:
        st = rec.state
        out = st.finish(index, event)
        rec.outcome = out
        self.scores = list(st.scores)
        self.sticks = 0 if out.sticks_taken else st.sticks
        s = rec.start
        self.expected = next_round(
            RoundStart(s.round_wind, s.kyoku, s.honba, self.sticks, s.dealer, tuple(self.scores)),
            out.kind,
            out.dealer_continues,
            out.sticks_taken,
            self.rules,
        )
        self.over = self.expected is None
        self.without_tenpaiyame = None
        if self.over and self.tenpaiyame_open and self.rules.tenpaiyame and out.kind in EXHAUSTIVE_DRAWS:
            done = RoundStart(s.round_wind, s.kyoku, s.honba, self.sticks, s.dealer, tuple(self.scores))
            without = dataclasses.replace(self.rules, tenpaiyame=False)
            self.without_tenpaiyame = next_round(
                done, out.kind, out.dealer_continues, out.sticks_taken, without
            )
        if self.length_open:
            done = RoundStart(s.round_wind, s.kyoku, s.honba, self.sticks, s.dealer, tuple(self.scores))
            east_only = dataclasses.replace(self.rules, length="tonpuu")
            self.over_if_tonpuu = (
                next_round(done, out.kind, out.dealer_continues, out.sticks_taken, east_only) is None
            )


def next_round(
    done: RoundStart, kind: str, renchan: bool, sticks_taken: bool, rules: Rules
) -> RoundStart | None:
    """The round after ``done`` (holding the scores and sticks after it), or None if the game is over.

    ``kind`` is the outcome ("tsumo", "ron" or a draw reason), ``renchan`` whether the dealer keeps
    the seat (a dealer win, dealer tenpai at an exhaustive draw, any abortive draw), ``sticks_taken``
    whether a winner took the riichi sticks.
    """
    # A win resets the honba unless the dealer won; any draw adds one.
    honba = done.honba + 1 if (renchan or not sticks_taken) else 0
    n = rules.players
    if renchan:
        wind, kyoku, dealer = done.round_wind, done.kyoku, done.dealer
    else:
        wind, kyoku, dealer = done.round_wind, done.kyoku + 1, (done.dealer + 1) % n
        if kyoku > n:
            wind, kyoku = wind + 1, 1
    if _game_over(done, renchan, kind, rules):
        return None
    return RoundStart(wind, kyoku, honba, done.sticks, dealer, done.scores)


def _game_over(done: RoundStart, renchan: bool, kind: str, rules: Rules) -> bool:
    scores = done.scores
    if rules.bust_ends and min(scores) < 0:
        return True
    last_wind = 0 if rules.length == "tonpuu" else 1
    last_kyoku = rules.players  # a wind has as many rounds as there are players
    here = (done.round_wind, done.kyoku)
    if here < (last_wind, last_kyoku):
        return False
    # From the last round on (and in the extra wind): the game ends once someone has the return
    # points, except that a dealer who keeps the seat plays on unless first with enough himself.
    top = ranking(scores)[0]
    enough = scores[top] >= rules.goal
    final = here >= (last_wind + 1 if rules.sudden_death else last_wind, last_kyoku)
    if renchan:
        if kind in ABORTIVE:
            return False
        # A dealer who keeps the seat stops the game only in first place with the return points, at
        # the very last round (West 4) too: below them the deal goes on (West 4, 1 honba). Sources:
        # Tenhou's manual on sudden death, "30000点(供託未収)以上になった時点で終了、ただし親の連荘が
        # ある場合は連荘を優先する"; hagurin-tenhou.com on West 4 ("西4局1本場、西4局2本場〜は存在
        # する"; tenpai-yame there on the same terms, "30000点以上かつトップ目"); Mortal's libriichi
        # (arena/game.rs: a repeat ends the game only with the dealer first and at 30000). Without
        # sudden death the last round is the last: first place is enough.
        stops = rules.agariyame and (rules.tenpaiyame or kind not in EXHAUSTIVE_DRAWS)
        return stops and top == done.dealer and (enough or not rules.sudden_death)
    return enough or final


def _plain(v: object) -> object:
    return list(v) if isinstance(v, tuple) else v
