"""mjai JSON lines into canonical events, and back.

Two dialects are read. The Mortal/RiichiEnv dialect states only what happened: ``hora`` has
``deltas`` and ``ura_markers``, ``ryukyoku`` only ``deltas`` (no reason, no tenpai). The classic
dialect (gimite/mjai, akochan) adds ``pai``, ``fan``, ``fu``, ``hora_points``, ``yakus``,
``uradora_markers``, ``scores`` to ``hora``, and ``reason``, ``tenpais``, ``tehais`` to
``ryukyoku``; ``end_game`` may carry ``scores``. Unknown fields (``meta``, ...) are ignored.

What a dialect leaves out is derived by the rules (:mod:`mjcli.riichi.formats.rounds`): the winning tile
and hand, the reason of a draw (a draw right after a draw is nine terminals, after the fourth riichi
four riichi, ...), tenpai (from the noten payments, else from the hands). Kan dora are placed by the
canonical rule. A file may hold several games: each ``start_game`` begins one.

Dialect details read as their writers mean them: akochan's ``start_game.kyoku_first`` (4 East-only,
0 hanchan) and ``aka_flag``; its older ``start_kyoku`` without ``dora_marker`` (the indicator is
``haiyama[130]``); its raw fu (38 scores as 40) and ``uradora_marker``; gimite's ``sufonrenta``;
Mortal's ``hora`` without a ``pao`` field (unknown, not "no pao"); libriichi's extra draw after the
fourth ``reach_accepted`` before the abortive draw (dropped: Tenhou aborts at once).

The writer emits the Mortal dialect plus the classic outcome fields (``fan``, ``fu``,
``hora_points``, ``yakus`` with canonical yaku ids, ``reason``, ``tenpais``), so that nothing the
events hold is lost; ``start_game`` carries ``id`` and ``rules`` for the same reason.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import json.scanner
import re
from collections.abc import Iterator
from typing import Any

from mjcli.errors import LogFormatError, MjcliError, UnsupportedError
from mjcli.riichi.engine.events import (
    EXHAUSTIVE,
    FOUR_KANS,
    FOUR_RIICHI,
    FOUR_WINDS,
    NAGASHI_MANGAN,
    NINE_TERMINALS,
    TRIPLE_RON,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    EndGame,
    EndRound,
    Event,
    GameRules,
    Header,
    NewDora,
    Nukidora,
    OpenKan,
    Pon,
    Riichi,
    RiichiAccepted,
    RoundDraw,
    StartGame,
    StartRound,
    Win,
)
from mjcli.riichi.formats.gamelog import (
    MJAI,
    GameLog,
    absent_share_of,
    counter,
    decode_text,
    final_points_value,
    game_id_from_name,
    malformed,
    whole_points,
)
from mjcli.riichi.formats.rounds import (
    Table,
    draw_after_kan,
    place_kan_dora,
    shown_hands,
    sorted_tiles,
    start_label,
)
from mjcli.riichi.formats.yaku_names import TENHOU_ID, mjai_yaku_to_canonical
from mjcli.tiles import HONOR_LETTERS, MJAI_TO_TILE, NUM_TILES, tile_from_mjai, tile_to_mjai

REASONS = {
    "fanpai": EXHAUSTIVE,
    "ryukyoku": EXHAUSTIVE,
    "kyushukyuhai": NINE_TERMINALS,
    "kyuushukyuuhai": NINE_TERMINALS,
    "suchareach": FOUR_RIICHI,
    "sufonrenda": FOUR_WINDS,
    "sufonrenta": FOUR_WINDS,  # gimite/mjai's spelling, the one written
    "sufurenda": FOUR_WINDS,
    "sukaikan": FOUR_KANS,
    "suukaikan": FOUR_KANS,
    "sanchaho": TRIPLE_RON,
    "sanchahou": TRIPLE_RON,
    "nagashimangan": NAGASHI_MANGAN,
    "nagashi_mangan": NAGASHI_MANGAN,
}
REASONS.update({r: r for r in (EXHAUSTIVE, NINE_TERMINALS, FOUR_RIICHI, FOUR_WINDS, FOUR_KANS, TRIPLE_RON)})
REASON_NAME = {
    EXHAUSTIVE: "fanpai",
    NINE_TERMINALS: "kyushukyuhai",
    FOUR_RIICHI: "suchareach",
    FOUR_WINDS: "sufonrenta",  # gimite/mjai's (active_game.rb; its Tenhou converter's kaze4 too)
    FOUR_KANS: "sukaikan",
    TRIPLE_RON: "sanchaho",
    NAGASHI_MANGAN: "nagashimangan",
}
LIVE_WALL = {4: 70, 3: 55}
#: the points a game starts from, for a start_kyoku without ``scores`` (gimite/mjai: 25000)
START_POINTS = {4: 25000, 3: 35000}
#: gimite/mjai's han of a yakuman (``hora.rb``: ``YAKUMAN_FAN = 100``, a double yakuman 200): 13 here
GIMITE_YAKUMAN_FAN = 100
#: akochan's ``start_kyoku.haiyama``: the whole wall, the first dora indicator at this index
HAIYAMA_DORA = 130
#: akochan's ``start_game.kyoku_first``: the round the game starts from (4 = East-only, 0 = hanchan)
KYOKU_FIRST_LENGTH = {0: "hanchan", 4: "tonpuu"}


#: every draw and discard of a seat, ``[actor][tile][rinshan]`` and ``[actor][tile][tsumogiri]``:
#: events are immutable and equal by value, so one object serves every log; two events in three
#: are these, each one built by a frozen dataclass's ``__init__`` otherwise (bench_speed: "walk a
#: log to every decision")
_DRAWS = tuple(tuple((Draw(a, t, False), Draw(a, t, True)) for t in range(NUM_TILES)) for a in range(4))
_DISCARDS = tuple(
    tuple((Discard(a, t, False), Discard(a, t, True)) for t in range(NUM_TILES)) for a in range(4)
)


def _tile(name: Any) -> int:
    if name == "?":
        raise UnsupportedError("hidden tiles ('?', a one-player view) are not supported")
    if not isinstance(name, str):
        raise LogFormatError(f"tile {name!r} is not an mjai tile name")
    return tile_from_mjai(name)


def _tiles(names: Any) -> tuple[int, ...]:
    if not isinstance(names, list):
        raise LogFormatError(f"{names!r} is not a list of tiles")
    return sorted_tiles([_tile(x) for x in names])


def _limit_fu(fu: int | None, han: int | None) -> int | None:
    """Canonically fu is recorded only below mangan (Tenhou's tenhou.net/6 writes none above)."""
    if fu is None or han is None:
        return fu
    return fu if han < 5 and fu * 2 ** (han + 2) < 2000 else None


def _rounded_fu(fu: int) -> int:
    """The fu a hand scores with. akochan records raw fu (38 for what scores as 40): a count that is
    neither a multiple of ten nor seven pairs' 25 is raw, and rounds up to the next ten."""
    return fu if fu % 10 == 0 or fu == 25 else fu + 10 - fu % 10


def _yakuman_han(han: int) -> int:
    """gimite/mjai's yakuman han (100 a yakuman) as 13 a yakuman; any other count as it is."""
    if han >= GIMITE_YAKUMAN_FAN and han % GIMITE_YAKUMAN_FAN == 0:
        return han // GIMITE_YAKUMAN_FAN * 13
    return han


def _scores(values: Any, n: int, what: str) -> tuple[int, ...]:
    if not isinstance(values, list) or len(values) < n:
        raise LogFormatError(f"{what} {values!r} do not name {n} seats")
    return tuple(whole_points(v, what) for v in values[:n])


class _Game:
    def __init__(self, name: str, index: int) -> None:
        self.name = name
        self.index = index
        self.events: list[Event] = []
        self.round: list[Event] = []
        self.table: Table | None = None
        self.start: StartRound | None = None
        self.n = 4
        self.outcome = False
        self.ended = False
        self.game_id = ""
        self.running: list[int] = []  # scores during the round (riichi sticks and outcomes applied)
        # What the next start_kyoku begins from when it does not say (gimite/mjai's live games write
        # no ``scores`` there, its Tenhou converter neither ``scores`` nor ``kyotaku``): the points
        # and sticks after the rounds so far; None once an outcome gave no points to follow.
        self.carry_scores: tuple[int, ...] | None = None
        self.carry_sticks: int | None = 0
        self.players_open = False  # the number of players is still to be read from the first round
        # why the game server stopped the game, when it wrote why (gimite/mjai's {"type":"error"})
        self.server_error: str | None = None

    def where(self) -> str:
        label = f" round {start_label(self.start)}" if self.start else ""
        return f"{self.name}{label}"

    def add(self, e: Event) -> None:
        if self.table is None or self.start is None:
            raise LogFormatError(f"{type(e).__name__} outside a round")
        if self.outcome and not isinstance(e, Win | RoundDraw):
            raise LogFormatError(f"{type(e).__name__} after the round's outcome")
        self.table.apply(e)
        self.round.append(e)
        if isinstance(e, RiichiAccepted):
            self.running[e.actor] -= 1000
        elif isinstance(e, Win | RoundDraw) and e.deltas is not None:
            self.running = [x + d for x, d in zip(self.running, e.deltas, strict=True)]

    def close_round(self) -> None:
        if self.start is not None:
            self.events.extend(place_kan_dora(self.round))
            outcomes = [e for e in self.round if isinstance(e, Win | RoundDraw)]
            known = bool(outcomes) and all(e.deltas is not None for e in outcomes)
            self.carry_scores = tuple(self.running) if known else None
            if any(isinstance(e, Win) for e in outcomes):
                self.carry_sticks = 0  # the (first) winner took them
            else:
                accepted = sum(1 for e in self.round if isinstance(e, RiichiAccepted))
                self.carry_sticks = self.start.sticks + accepted if outcomes else None
        self.round = []
        self.start = None
        self.table = None

    def on(self, o: dict[str, Any]) -> None:
        t = o.get("type")
        if self.table is not None and (t == "dahai" or t == "tsumo"):
            # Two events in three: straight to them, past the tests of the rarer types (the same
            # handling as below, where a round is in play; bench_speed: "walk a log to every decision").
            self._play(t, o)
            return
        if t == "start_game":
            names = tuple(str(x) for x in o.get("names", ("", "", "", "")))
            rules = o.get("rules") or {}
            self.n = int(rules.get("players", len(names) if len(names) in (3, 4) else 4))
            self.game_id = str(o.get("id") or game_id_from_name(self.name))
            if self.index:
                self.game_id += f"#{self.index + 1}" if "id" not in o else ""
            red = bool(rules.get("red_fives", o.get("aka_flag", True)))
            # no length said (gimite's and Mortal's start_game carry none): "" leaves it to the
            # game's end (an East-only game is recognised where it ends; see the engine's table)
            length = str(rules.get("length", ""))
            if "length" not in rules and "kyoku_first" in o:
                first = o["kyoku_first"]
                if first not in KYOKU_FIRST_LENGTH:
                    raise LogFormatError(f"kyoku_first {first!r} is neither 0 (hanchan) nor 4 (East-only)")
                length = KYOKU_FIRST_LENGTH[first]
            open_tanyao = bool(rules.get("open_tanyao", True))
            shown = rules.get("hands_shown") or []
            if not isinstance(shown, list) or not all(isinstance(s, int) and 0 <= s < self.n for s in shown):
                raise LogFormatError(f"rules.hands_shown {shown!r} is not a list of seats 0-{self.n - 1}")
            gr = GameRules(
                self.n,
                red,
                open_tanyao,
                length,
                open_riichi=bool(rules.get("open_riichi", False)),
                hands_shown=tuple(sorted(set(shown))),
                site=str(rules.get("site") or ""),
                absent_share=absent_share_of(rules, self.n),
                unknown=str(rules.get("unknown_rules") or ""),
            )
            # mjcli's own key: the rule line of the source (a Tenhou log's, which says it is Tenhou's)
            disp = rules.get("disp")
            header = Header(disp=disp) if isinstance(disp, str) else Header()
            self.events.append(StartGame(names[: self.n], gr, self.game_id, header))
            self.carry_scores = (START_POINTS[self.n],) * self.n
            self.carry_sticks = 0
            # a start_game that names no players and no rules (RiichiEnv's: {"type":"start_game"})
            # leaves their number to the first round's scores and hands (three-player: three each)
            self.players_open = "names" not in o and "players" not in rules
            return
        if not self.events:
            raise LogFormatError(f"'{t}' before start_game")
        if t == "error":
            # gimite/mjai's server ends a game it stops (a bot's answer it refuses) with an
            # {"type":"error","message":...} line (mjai-manue-go's sample games): kept to say why
            # the log ends early; it carries no game fact
            message = o.get("message")
            self.server_error = " ".join(str(message).split()) if message is not None else ""
            return
        if t == "start_kyoku":
            if self.start is not None:
                raise LogFormatError(f"start_kyoku while round {start_label(self.start)} has no end_kyoku")
            if self.players_open:
                self._players_from(o)
            wind = HONOR_LETTERS.index(o["bakaze"]) if o["bakaze"] in "ESWN" else None
            if wind is None:
                raise LogFormatError(f"bakaze '{o['bakaze']}' is not a wind")
            hands = tuple(_tiles(h) for h in o["tehais"][: self.n])
            self.start = StartRound(
                wind,
                int(o["kyoku"]),
                counter(o["honba"], "honba"),
                self._carried(o, "kyotaku", self.carry_sticks)
                if "kyotaku" not in o
                else counter(o["kyotaku"], "riichi sticks (kyotaku)"),
                int(o["oya"]),
                _dora_marker(o),
                self._carried(o, "scores", self.carry_scores)
                if "scores" not in o
                else _scores(o["scores"], self.n, "scores"),
                hands,
            )
            self.table = Table(self.start, self.where())
            self.running = list(self.start.scores)
            self.round = [self.start]
            self.outcome = False
            return
        if t == "end_game":
            self.close_round()
            scores = o.get("scores")
            points = o.get("points")
            if isinstance(points, list) and len(points) < self.n:
                raise LogFormatError(f"end_game points {points!r} do not name {self.n} seats")
            self.events.append(
                EndGame(
                    _scores(scores, self.n, "final scores") if isinstance(scores, list) else None,
                    tuple(final_points_value(p, "final points") for p in points[: self.n])
                    if isinstance(points, list)
                    else None,
                )
            )
            self.ended = True
            return
        if t == "end_kyoku":
            if self.start is None:
                raise LogFormatError("end_kyoku outside a round")
            if not self.outcome:
                raise LogFormatError("end_kyoku without hora or ryukyoku")
            self.round.append(EndRound())
            self.close_round()
            return
        table = self.table
        if table is None:
            if t == "none":
                return
            raise LogFormatError(f"'{t}' outside a round")
        if t == "tsumo" or t == "dahai":
            self._play(t, o)
        elif t == "reach":
            self.add(Riichi(int(o["actor"])))
        elif t == "reach_accepted":
            scores = o.get("scores")
            recorded = _scores(scores, self.n, "scores") if isinstance(scores, list) else None
            self.add(RiichiAccepted(int(o["actor"]), recorded))
        elif t in ("chi", "pon", "daiminkan"):
            cls = {"chi": Chi, "pon": Pon, "daiminkan": OpenKan}[t]
            self.add(cls(int(o["actor"]), int(o["target"]), _tile(o["pai"]), _tiles(o["consumed"])))
        elif t == "ankan":
            self.add(ClosedKan(int(o["actor"]), _tiles(o["consumed"])))
        elif t == "kakan":
            self.add(AddedKan(int(o["actor"]), _tile(o["pai"]), _tiles(o["consumed"])))
        elif t in ("nukidora", "kita"):  # no official three-player dialect: both names are in use
            self.add(Nukidora(int(o["actor"]), _tile(o.get("pai", "N"))))
        elif t == "dora":
            self.add(NewDora(_tile(o["dora_marker"])))
        elif t == "hora":
            self.add(self.win(o, table))
            self.outcome = True
        elif t == "ryukyoku":
            self.add(self.draw(o, table))
            self.outcome = True
        # anything else ("none", "error", ...) carries no game fact

    def _players_from(self, o: dict[str, Any]) -> None:
        """The number of players, from the first round (its ``scores``, else its ``tehais``), when
        start_game did not say it; the game's start is written again with it."""
        self.players_open = False
        seen = o.get("scores") if isinstance(o.get("scores"), list) else o.get("tehais")
        n = len(seen) if isinstance(seen, list) and len(seen) in (3, 4) else 4
        if n == self.n:
            return
        self.n = n
        start = self.events[0]
        assert isinstance(start, StartGame)
        rules = dataclasses.replace(start.rules, players=n)
        self.events[0] = dataclasses.replace(start, names=start.names[:n], rules=rules)
        self.carry_scores = (START_POINTS[n],) * n

    @staticmethod
    def _carried(o: dict[str, Any], field: str, value: Any) -> Any:
        """A field start_kyoku leaves out, carried from the rounds before (gimite/mjai), or an error
        when an earlier outcome gave nothing to carry."""
        if value is None:
            raise LogFormatError(
                f"start_kyoku has no '{field}', and the rounds before do not give it"
                " (an outcome without deltas)"
            )
        return value

    def _play(self, t: str, o: dict[str, Any]) -> None:
        """A draw (``tsumo``) or a discard (``dahai``) in the round in play.

        Two events in three: made and applied here, without :meth:`add`'s tests for the rarer
        events and with the tile name read from the table straight (``_tile`` for a name not in it,
        for its error), a fifth of the reader's time (bench_speed: "walk a log to every decision")."""
        actor = int(o["actor"])
        round_ = self.round
        # (a seat's event from a table when the seat is one: see ``_DRAWS``; the tile's name read
        # from the table inline, ``_tile`` called for a name not in it, for its error; the last
        # action is the round's last event unless that is a dora indicator)
        name = o["pai"]
        tile = MJAI_TO_TILE.get(name) if type(name) is str else None
        if tile is None:
            tile = _tile(name)
        if t == "tsumo":
            prev = round_[-1]
            if type(prev) is NewDora:
                prev = _last_action(round_)
            rinshan = draw_after_kan(prev, actor)
            e: Draw | Discard = _DRAWS[actor][tile][rinshan] if 0 <= actor < 4 else Draw(actor, tile, rinshan)
        else:
            tsumogiri = bool(o.get("tsumogiri", False))
            # (a discard right after the draw, nearly every one, follows no call: the round's last
            # event read, not ``_last_action`` called; bench_speed "walk a log to every decision")
            if tsumogiri and type(round_[-1]) is not Draw and isinstance(_last_action(round_), Chi | Pon):
                # No tile was drawn: some converters (the three-player log of yuufyu/wahaha) mark the
                # discard after a call as tsumogiri when it matches the caller's earlier draw.
                tsumogiri = False
            e = _DISCARDS[actor][tile][tsumogiri] if 0 <= actor < 4 else Discard(actor, tile, tsumogiri)
        if self.outcome:
            raise LogFormatError(f"{type(e).__name__} after the round's outcome")
        self.table.apply(e)  # type: ignore[union-attr]  # (only called with a round in play)
        self.round.append(e)

    def win(self, o: dict[str, Any], table: Table) -> Win:
        assert self.start is not None
        actor, target = int(o["actor"]), int(o.get("target", o["actor"]))
        tile = table.win_tile(actor, target)
        if "pai" in o and _tile(o["pai"]) != tile:
            raise LogFormatError(f"hora of seat {actor} on {o['pai']}, but the last tile was another one")
        han = o.get("fan")
        han = _yakuman_han(int(han)) if isinstance(han, int | float) else None
        yaku = None
        if isinstance(o.get("yakus"), list):
            sets = table.dragon_and_wind_sets(actor, tile if actor != target else None)
            used: set[str] = set()
            out = []
            for item in o["yakus"]:
                name, han_of = str(item[0]), _yakuman_han(int(item[1]))
                # gimite/mjai writes all dragon triplets as one item, ["sangenpai", 2] for two
                # (hora.rb: add_yaku(:sangenpai, num_sangenpais, ...)): one item a dragon here
                for value in [1] * han_of if name == "sangenpai" and han_of > 1 else [han_of]:
                    canon = mjai_yaku_to_canonical(
                        name, (actor - self.start.dealer) % self.n, self.start.round_wind, sets, used
                    )
                    used.add(canon)
                    if value:
                        out.append((canon, value))
            yaku = tuple(sorted(out, key=lambda p: TENHOU_ID.get(p[0], 99)))
            han = sum(h for _, h in yaku) if yaku else han
        # Mortal: ura_markers; gimite: uradora_markers; akochan: uradora_marker (singular)
        ura_keys = [k for k in ("ura_markers", "uradora_markers", "uradora_marker") if k in o]
        ura = o[ura_keys[0]] if ura_keys else None
        deltas = self.deltas(o)
        pao = o.get("pao")
        fu = o.get("fu")
        points = o.get("hora_points")
        return Win(
            actor=actor,
            target=target,
            tile=tile,
            deltas=deltas,
            han=han,
            fu=_limit_fu(_rounded_fu(int(fu)) if isinstance(fu, int | float) else None, han),
            points=whole_points(points, "hora_points") if isinstance(points, int | float) else None,
            yaku=yaku,
            ura_markers=tuple(_tile(x) for x in ura) if ura and table.riichi[actor] else None,
            pao=int(pao) if isinstance(pao, int) and pao != actor else None,
            hand=table.win_hand(actor, target, tile),
            # Mortal's hora has no pao field: its absence says nothing (gimite's writes it when due)
            pao_known="pao" in o,
            # no ura field at all (mjai-reviewer's convlog before 2021-11-27): the count is unknown
            ura_known=bool(ura_keys),
            scores_after=self.scores_after(o),
        )

    def deltas(self, o: dict[str, Any]) -> tuple[int, ...] | None:
        """``deltas``, or (akochan) the difference between the ``scores`` after and before."""
        deltas = o.get("deltas")
        if isinstance(deltas, list):
            return _scores(deltas, self.n, "deltas")
        after = self.scores_after(o)
        if after is not None:
            return tuple(after[i] - self.running[i] for i in range(self.n))
        return None

    def scores_after(self, o: dict[str, Any]) -> tuple[int, ...] | None:
        scores = o.get("scores")
        return _scores(scores, self.n, "scores") if isinstance(scores, list) else None

    def draw(self, o: dict[str, Any], table: Table) -> RoundDraw:
        n = self.n
        reason = REASONS.get(str(o.get("reason", "")))
        if reason in (None, FOUR_RIICHI) and self._drop_draw_after_four_riichi(o):
            table = self.table
            assert table is not None
            reason = FOUR_RIICHI
        if reason is None:
            reason = _infer_reason(self.round, table, n)
        deltas = self.deltas(o)
        tenpai = None
        if reason == EXHAUSTIVE and table.nagashi() and "reason" not in o:
            reason = NAGASHI_MANGAN
        if reason in (EXHAUSTIVE, NAGASHI_MANGAN):
            if isinstance(o.get("tenpais"), list):
                tenpai = tuple(bool(x) for x in o["tenpais"][:n])
            elif reason == EXHAUSTIVE and deltas is not None and any(deltas):
                tenpai = tuple(d > 0 for d in deltas)
            else:
                tenpai = tuple(table.tenpai(s) for s in range(n))
        if deltas is None and reason not in (EXHAUSTIVE, NAGASHI_MANGAN):
            deltas = (0,) * n
        hands = shown_hands(table, reason, tenpai)
        return RoundDraw(reason, deltas, tenpai, hands, scores_after=self.scores_after(o))

    def _drop_draw_after_four_riichi(self, o: dict[str, Any]) -> bool:
        """libriichi (Mortal's arena) logs one more draw after the fourth ``reach_accepted`` before
        the abortive draw; Tenhou aborts at once. Where the outcome is the same (no payments), that
        draw is taken out, so that the round reads as Tenhou's. True if it was."""
        body = [e for e in self.round if not isinstance(e, NewDora)]
        if len(body) < 2 or not isinstance(body[-1], Draw) or not isinstance(body[-2], RiichiAccepted):
            return False
        if sum(isinstance(e, RiichiAccepted) for e in body) != 4:
            return False
        deltas = o.get("deltas")
        if isinstance(deltas, list) and any(deltas):
            return False
        assert self.start is not None
        drop = next(i for i in range(len(self.round) - 1, -1, -1) if self.round[i] is body[-1])
        self.round = self.round[:drop] + self.round[drop + 1 :]
        self.table = Table(self.start, self.where())
        for e in self.round[1:]:
            self.table.apply(e)
        return True

    def finish(self) -> GameLog:
        problem = None
        if self.start is not None:
            label = start_label(self.start)
            problem = (
                f"the log ends after round {label}'s outcome without end_kyoku"
                if self.outcome
                else f"the log ends inside round {label} (the round has no outcome)"
            )
            if self.outcome:
                self.round.append(EndRound())
            self.close_round()
        elif not self.ended:
            problem = "the log ends without end_game"
        if problem is not None and self.server_error is not None:
            said = self.server_error if len(self.server_error) <= 160 else self.server_error[:157] + "..."
            problem += f"; the game server stopped it: {said}" if said else "; it ends with an error line"
        return GameLog(self.name, MJAI, self.game_id, self.events, problem is None, problem)


def _dora_marker(o: dict[str, Any]) -> int:
    """``start_kyoku.dora_marker``; older akochan logs lack it, but carry the wall (``haiyama``)."""
    if "dora_marker" in o:
        return _tile(o["dora_marker"])
    wall = o.get("haiyama")
    if isinstance(wall, list) and len(wall) > HAIYAMA_DORA:
        return _tile(wall[HAIYAMA_DORA])
    raise LogFormatError("start_kyoku has no dora_marker (and no haiyama wall to find it in)")


def _last_action(events: list[Event]) -> Event | None:
    # a plain loop, not next() over a generator: it runs for every draw and tsumogiri (bench_speed:
    # "walk a log to every decision")
    for e in reversed(events):
        if not isinstance(e, NewDora):
            return e
    return None


def _infer_reason(events: list[Event], table: Table, n: int) -> str:
    """The kind of a draw whose record does not say, by the rules that end a round early."""
    last = _last_action(events)
    if isinstance(last, Draw):
        return NINE_TERMINALS
    riichi = {e.actor for e in events if isinstance(e, Riichi)}
    if len(riichi) == 4 and isinstance(last, RiichiAccepted | Discard):
        return FOUR_RIICHI
    discards = [e for e in events if isinstance(e, Discard)]
    if (
        n == 4
        and len(discards) == 4
        and not table.any_call
        and len({d.tile for d in discards}) == 1
        and discards[0].tile in (27, 28, 29, 30)
    ):
        return FOUR_WINDS
    if len(table.kans) >= 4 and len(set(table.kans)) > 1:
        return FOUR_KANS
    if table.draws >= LIVE_WALL[n]:
        return EXHAUSTIVE
    return TRIPLE_RON


class _Cut(Exception):
    """The file stops inside its last line: a truncated log."""


#: the json module's own scanner: one value from a position, (value, end); StopIteration when none
_scan_once = json.scanner.make_scanner(json.JSONDecoder())
_JSON_SPACE = " \t\n\r"
#: a log that opens as a JSON array (after JSON space and a byte-order mark already removed)
_ARRAY_START = re.compile(r"[ \t\n\r]*\[")
#: text on a line after the first (a pretty-printed array, not one array on one line)
_LATER_LINE = re.compile(r"\n[ \t\r]*[^ \t\r\n]")


def _loads(line: str) -> Any:
    """``json.loads(line)``, reading the usual line (a value from its first character, nothing but
    JSON whitespace after it) with the scanner alone: json.loads wraps it in two calls and two
    whitespace regexes, a tenth of the time of reading an mjai log (bench_speed: "walk a log to
    every decision"). Anything else goes through ``json.loads`` itself, for its very result or error."""
    try:
        o, end = _scan_once(line, 0)
    except (StopIteration, ValueError):
        return json.loads(line)
    if end != len(line) and line[end:].strip(_JSON_SPACE):
        return json.loads(line)
    return o


def _objects(text: str, name: str) -> Iterator[dict[str, Any]]:
    """The mjai objects of ``text``, one a line (blank lines skipped).

    The objects are only read, never changed (by :func:`read_mjai` and the methods it calls), so a
    line met again (the same draw or discard of the same seat: three lines in four of a hanchan
    repeat an earlier one) gives the object its first reading made, found by the line's text in a
    dict of this text's own, instead of being scanned again (the walk of four hanchan 3.7% fewer
    instructions; bench_speed: "walk a log to every decision").
    """
    # mjai is JSON lines: a line ends at "\n" only. ``str.splitlines`` also cuts at characters a
    # JSON string may hold as they are (U+0085, U+2028, U+2029, \x1c-\x1e...: a player's name
    # written without ASCII escapes), which made a good log "not JSON" (found by
    # tests/test_formats_units.py's damaged-log property). A "\r" before the "\n" is JSON space.
    lines = text.split("\n")
    scan, space = _scan_once, _JSON_SPACE
    seen: dict[str, dict[str, Any]] = {}
    again = seen.get
    for i, line in enumerate(lines, 1):
        o = again(line)
        if o is not None:
            yield o
            continue
        # ``_loads`` inline, its usual case first: a line that is one JSON value is no blank line,
        # and the rest (blank lines, the others) go the long way (bench_speed: "walk a log to
        # every decision")
        try:
            o, end = scan(line, 0)
            usual = end == len(line) or not line[end:].strip(space)
        except (StopIteration, ValueError):
            usual = False
        if not usual:
            if not line.strip():
                continue
            try:
                o = _loads(line)
            except json.JSONDecodeError as exc:
                if i == len(lines) and not text.endswith("\n") and i > 1:
                    raise _Cut(f"the file is cut inside line {i}") from None
                raise LogFormatError(f"{name}: line {i} is not JSON ({exc.msg})") from None
        if type(o) is list:
            # a line holding a JSON array of events (mjai.app's framing: the events a bot is sent
            # at once), or the whole log as one array on one line
            for j, item in enumerate(o, 1):
                if not isinstance(item, dict) or "type" not in item:
                    raise LogFormatError(f"{name}: line {i}, item {j} is not an mjai event (no 'type')")
                yield item
            continue
        if not isinstance(o, dict) or "type" not in o:
            raise LogFormatError(f"{name}: line {i} is not an mjai event (no 'type')")
        if usual:
            seen[line] = o
        yield o


def _array(text: str, name: str) -> list[dict[str, Any]] | None:
    """The events of a log written as one JSON array over several lines (pretty-printed), or None
    for any other text (JSON lines, an array on each line)."""
    try:
        o = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(o, list):
        return None
    for j, item in enumerate(o, 1):
        if not isinstance(item, dict) or "type" not in item:
            raise LogFormatError(f"{name}: item {j} of the JSON array is not an mjai event (no 'type')")
    return o


def read_mjai(data: bytes, name: str = "<mjai>") -> list[GameLog]:
    text = decode_text(data, name)
    games: list[_Game] = []
    lineno = 0
    cut = None
    # (a match at the start, not text.lstrip(): that copied every log once more, arrays or not)
    array = _array(text, name) if _ARRAY_START.match(text) and _LATER_LINE.search(text) else None
    try:
        for o in array if array is not None else _objects(text, name):
            lineno += 1  # kept outside the loop header: the error messages below use it
            t = o["type"]
            if t == "start_game" or not games:
                if t != "start_game":
                    raise LogFormatError(f"the first event is '{t}', not start_game")
                games.append(_Game(name, len(games)))
            game = games[-1]
            if game.table is not None and (t == "dahai" or t == "tsumo"):
                game._play(t, o)  # (two lines in three: as ``_Game.on`` does, without its call)
            else:
                game.on(o)
    except _Cut as exc:
        cut = str(exc)
    except LogFormatError as exc:
        if str(exc).startswith(name):
            raise
        where = games[-1].where() if games else name
        raise LogFormatError(f"{where}: event {lineno}: {exc}") from None
    except MjcliError as exc:
        where = games[-1].where() if games else name
        cls = UnsupportedError if isinstance(exc, UnsupportedError) else LogFormatError
        raise cls(f"{where}: event {lineno}: {exc}") from None
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        where = games[-1].where() if games else name
        raise LogFormatError(f"{where}: event {lineno} is malformed ({malformed(exc)})") from None
    if not games:
        raise LogFormatError(f"{name}: no mjai events")
    logs = [g.finish() for g in games]
    if cut is not None:
        last = logs[-1]
        last.complete = False
        last.problem = f"{last.problem or 'the log ends early'} ({cut})"
    return logs


# ---------------------------------------------------------------- writing


def _m(tile: int) -> str:
    return tile_to_mjai(tile)


def _ml(tiles: Any) -> list[str]:
    return [tile_to_mjai(t) for t in tiles]


def event_to_mjai(e: Event) -> dict[str, Any] | None:
    """One canonical event as an mjai object (None for events mjai has no line for)."""
    if isinstance(e, StartGame):
        r = e.rules
        rules: dict[str, Any] = {
            "players": r.players,
            "red_fives": r.red_fives,
            "open_tanyao": r.open_tanyao,
            "length": r.length,
        }
        if r.open_riichi:  # mjcli's own keys, written only when in use
            rules["open_riichi"] = True
        if r.hands_shown:
            rules["hands_shown"] = list(r.hands_shown)
        if r.site:
            rules["site"] = r.site
        if r.absent_share:
            rules["absent_share"] = r.absent_share
        if r.unknown:
            rules["unknown_rules"] = r.unknown
        if e.header.disp:  # the source's rule line (a Tenhou log's names its lobby: eras.tenhou_log)
            rules["disp"] = e.header.disp
        return {
            "type": "start_game",
            "names": list(e.names),
            "aka_flag": r.red_fives,
            "id": e.game_id,
            "rules": rules,
        }
    if isinstance(e, StartRound):
        return {
            "type": "start_kyoku",
            "bakaze": "ESWN"[e.round_wind],
            "dora_marker": _m(e.dora_marker),
            "kyoku": e.kyoku,
            "honba": e.honba,
            "kyotaku": e.sticks,
            "oya": e.dealer,
            "scores": list(e.scores),
            "tehais": [_ml(h) for h in e.hands],
        }
    if isinstance(e, Draw):
        return {"type": "tsumo", "actor": e.actor, "pai": "?" if e.tile is None else _m(e.tile)}
    if isinstance(e, Discard):
        return {"type": "dahai", "actor": e.actor, "pai": _m(e.tile), "tsumogiri": e.tsumogiri}
    if isinstance(e, Riichi):
        return {"type": "reach", "actor": e.actor}
    if isinstance(e, RiichiAccepted):
        return {"type": "reach_accepted", "actor": e.actor}
    if isinstance(e, Chi | Pon | OpenKan):
        kind_ = "chi" if isinstance(e, Chi) else "pon" if isinstance(e, Pon) else "daiminkan"
        return {
            "type": kind_,
            "actor": e.actor,
            "target": e.target,
            "pai": _m(e.tile),
            "consumed": _ml(e.consumed),
        }
    if isinstance(e, ClosedKan):
        return {"type": "ankan", "actor": e.actor, "consumed": _ml(e.consumed)}
    if isinstance(e, AddedKan):
        return {"type": "kakan", "actor": e.actor, "pai": _m(e.tile), "consumed": _ml(e.consumed)}
    if isinstance(e, Nukidora):
        return {"type": "nukidora", "actor": e.actor, "pai": _m(e.tile)}
    if isinstance(e, NewDora):
        return {"type": "dora", "dora_marker": _m(e.marker)}
    if isinstance(e, Win):
        o: dict[str, Any] = {"type": "hora", "actor": e.actor, "target": e.target, "pai": _m(e.tile)}
        if e.deltas is not None:
            o["deltas"] = list(e.deltas)
        if e.ura_known:  # left out, as the source did, where the ura indicators are unknown
            o["ura_markers"] = _ml(e.ura_markers or ())
        if e.han is not None:
            o["fan"] = e.han
        if e.fu is not None:
            o["fu"] = e.fu
        if e.points is not None:
            o["hora_points"] = e.points
        if e.yaku is not None:
            o["yakus"] = [[y, h] for y, h in e.yaku]
        if e.pao is not None:
            o["pao"] = e.pao
        return o
    if isinstance(e, RoundDraw):
        o = {"type": "ryukyoku", "reason": REASON_NAME[e.reason]}
        if e.deltas is not None:
            o["deltas"] = list(e.deltas)
        if e.tenpai is not None:
            o["tenpais"] = list(e.tenpai)
        return o
    if isinstance(e, EndRound):
        return {"type": "end_kyoku"}
    if isinstance(e, EndGame):
        o = {"type": "end_game"}
        if e.scores is not None:
            o["scores"] = list(e.scores)
        if e.points is not None:
            o["points"] = list(e.points)
        return o
    raise UnsupportedError(f"no mjai form for {type(e).__name__}")


def _mjai_line(o: dict[str, Any]) -> str:
    return json.dumps(o, ensure_ascii=False, separators=(",", ":"))


@functools.lru_cache(maxsize=4096, typed=True)
def _draw_line(actor: int, tile: int | None) -> str:
    """A draw's line (``event_to_mjai``'s, then ``json.dumps``), by its values (typed: ``1`` and
    ``True`` are apart, as json writes them)."""
    return _mjai_line({"type": "tsumo", "actor": actor, "pai": "?" if tile is None else _m(tile)})


@functools.lru_cache(maxsize=4096, typed=True)
def _discard_line(actor: int, tile: int, tsumogiri: bool) -> str:
    """A discard's line, by its values (as :func:`_draw_line`)."""
    return _mjai_line({"type": "dahai", "actor": actor, "pai": _m(tile), "tsumogiri": tsumogiri})


def write_mjai(game: GameLog) -> str:
    """One game as mjai JSON lines."""
    lines = []
    append = lines.append
    for e in game.events:
        # Draws and discards, most of a game's lines, written once per distinct seat and tile:
        # not a dict and a json.dumps per event (a log per game of ``mjcli simulate``; bench_speed
        # "self-play, first-legal policy")
        t = type(e)
        if t is Draw:
            append(_draw_line(e.actor, e.tile))  # type: ignore[union-attr]
            continue
        if t is Discard:
            append(_discard_line(e.actor, e.tile, e.tsumogiri))  # type: ignore[union-attr]
            continue
        o = event_to_mjai(e)
        if o is not None:
            append(_mjai_line(o))
    return "\n".join(lines) + "\n"
