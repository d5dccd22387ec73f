"""tenhou.net/6 JSON (Tenhou's log editor/viewer format) into canonical events, and back.

A file holds one game (``{"log": [round, ...], ...}``), or one round per line (each line such an
object with one round: the lines together are ONE game), or a JSON list of game objects (several
games). A round is ``[[kyoku, honba, sticks], scores, dora, ura, (haipai, takes, discards) x 4,
result]``. Tiles: 11-19 man, 21-29 pin, 31-39 sou, 41-47 honours, 51-53 red fives.

``takes`` holds draws and calls (``c``hi, ``p``on, daiminkan ``m``: the letter's position tells the
source: first = left player, middle = opposite, last = right); ``discards`` holds discards (60 =
the drawn tile, ``r`` prefix = riichi), closed kans ``a``, added kans ``k``, kita ``f``, and a 0
after a daiminkan (its slot: the replacement draw comes next in ``takes``).

The per-seat lists do not say in which order the players acted: the reader replays the turn order
and, where a call string could match more than one discard, searches for the reading in which every
list is used up exactly (backtracking). Facts the format does not state are derived by the rules in
:mod:`mjcli.riichi.formats.rounds` (kan dora placement, winning tile and hand, tenpai at a draw). Recorded:
deltas, han/fu/points (fu only below mangan: Tenhou writes "満貫" without fu), yaku, ura indicators
(for winners in riichi), pao, final scores (``sc``, when the file has it; the one-round-per-line
form has no game-end record, so its ``EndGame`` carries no scores).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
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
from mjcli.riichi.engine.table import round_label
from mjcli.riichi.formats.gamelog import (
    TENHOU6,
    GameLog,
    absent_share_of,
    counter,
    decode_text,
    final_points_value,
    game_id_from_name,
    malformed,
    ratings,
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
from mjcli.riichi.formats.yaku_names import TENHOU_ID, canonical_to_japanese, is_yakuman, name_to_canonical
from mjcli.tiles import NUM_TILES, is_red, kind, tile_from_tenhou6, tile_name, tile_to_tenhou6

WIN = "和了"
WIN_NAMES = (WIN, "Agari")
# Tenhou's names, with the spellings of Mahjong Soul converters (tensoul: 四開槓, 三家和, English).
DRAW_NAMES = {
    "流局": EXHAUSTIVE,
    "全員聴牌": EXHAUSTIVE,
    "全員不聴": EXHAUSTIVE,
    "流し満貫": NAGASHI_MANGAN,
    "九種九牌": NINE_TERMINALS,
    "四家立直": FOUR_RIICHI,
    "四風連打": FOUR_WINDS,
    "四槓散了": FOUR_KANS,
    "四開槓": FOUR_KANS,
    "三家和了": TRIPLE_RON,
    "三家和": TRIPLE_RON,
    "Ryuukyoku": EXHAUSTIVE,
    "Exhaustive Draw": EXHAUSTIVE,
    "Nagashi Mangan": NAGASHI_MANGAN,
    "Mangan at Draw": NAGASHI_MANGAN,
    "Kyuushu Kyuuhai": NINE_TERMINALS,
    "Nine Terminal Abortion": NINE_TERMINALS,
    "Suucha Riichi": FOUR_RIICHI,
    "Four Riichi Abortion": FOUR_RIICHI,
    "Suufon Renda": FOUR_WINDS,
    "Four Wind Abortion": FOUR_WINDS,
    "Suukaikan": FOUR_KANS,
    "Four Kan Abortion": FOUR_KANS,
    "Sanchahou": TRIPLE_RON,
    "Three Ron Abortion": TRIPLE_RON,
}
ABORT_NAME = {
    NINE_TERMINALS: "九種九牌",
    FOUR_RIICHI: "四家立直",
    FOUR_WINDS: "四風連打",
    FOUR_KANS: "四槓散了",
    TRIPLE_RON: "三家和了",
}
LIMIT_NAMES = ("満貫", "跳満", "倍満", "三倍満", "数え役満", "役満", "切り上げ満貫")
# English limit names (spaces are removed before matching)
_LIMIT_WORDS = r"(?:Kazoe|Counted|Kiriage|Rounded)?(?:Mangan|Haneman|Baiman|Sanbaiman|Yakuman)"
TSUMOGIRI = 60

# letter position -> seat offset of the source (1 right, 2 opposite, 3 left)
_PON_SOURCE = {0: 3, 2: 2, 4: 1}
_KAN_SOURCE = {0: 3, 2: 2, 6: 1}


@dataclass(frozen=True, slots=True)
class Call:
    letter: str
    pos: int
    codes: tuple[int, ...]

    @property
    def called(self) -> int:
        return self.codes[self.pos // 2 + (1 if self.letter == "k" else 0)]


def parse_call(text: str) -> Call:
    for i, ch in enumerate(text):
        if not ch.isdigit():
            digits = text[:i] + text[i + 1 :]
            if len(digits) % 2 or not digits.isdigit():
                break
            codes = tuple(int(digits[j : j + 2]) for j in range(0, len(digits), 2))
            expected = {"c": 3, "p": 3, "m": 4, "k": 4, "a": 4, "f": 1, "r": 1}.get(ch)
            if expected is None or len(codes) != expected or i % 2:
                break
            return Call(ch, i, codes)
    raise LogFormatError(f"'{text}' is not a tenhou.net/6 call")


# Every valid tile code -> tile, built once from tile_from_tenhou6: a dict hit per tile read instead
# of its range tests (a round reads ~150 codes); anything else takes the checking path below.
_CODE_TILES = {
    code: tile_from_tenhou6(code)
    for code in (*range(11, 20), *range(21, 30), *range(31, 40), *range(41, 48), 51, 52, 53)
}


def _tile(code: Any) -> int:
    if type(code) is int:
        tile = _CODE_TILES.get(code)
        if tile is not None:
            return tile
    if not isinstance(code, int):
        raise LogFormatError(f"tile code {code!r} is not a number")
    return tile_from_tenhou6(code)


# ---------------------------------------------------------------- reading one round


class _Mismatch(Exception):
    """The current reading of the per-seat lists does not fit: try another one."""


@dataclass(slots=True)
class _State:
    ti: list[int]
    di: list[int]
    phase: str  # "draw", "act", "after"
    actor: int
    drawn: int | None = None  # code just drawn (for 60)
    discarded: int | None = None  # code just discarded (for calls)
    pending_accept: int | None = None  # riichi declared on the last discard
    n_events: int = 0
    alternatives: list[Any] = field(default_factory=list)
    # tile counts (0..36) of each hand: a reading that plays a tile the player does not hold is wrong
    hands: list[list[int]] = field(default_factory=list)

    def copy(self) -> _State:
        return _State(
            list(self.ti),
            list(self.di),
            self.phase,
            self.actor,
            self.drawn,
            self.discarded,
            self.pending_accept,
            self.n_events,
            [],
            [list(h) for h in self.hands],
        )

    def take(self, seat: int, tiles: Sequence[int]) -> None:
        hand = self.hands[seat]
        for t in tiles:
            if hand[t] <= 0:
                raise _Mismatch(f"seat {seat} would play {tile_name(t)}, which it does not hold")
            hand[t] -= 1


def _simulate(
    takes: list[list[Any]], discs: list[list[Any]], dealer: int, n: int, hands: Sequence[Sequence[int]]
) -> tuple[list[Event], int | None]:
    """Order the per-seat lists into one event sequence. Returns the events and a riichi declared on
    the very last discard whose acceptance depends on the outcome."""
    events: list[Event] = []
    st = _State([0] * n, [0] * n, "draw", dealer)
    for h in hands:
        counts = [0] * 37
        for t in h:
            counts[t] += 1
        st.hands.append(counts)
    stack: list[_State] = []
    first_error: str | None = None
    retry: list[Any] = []  # an alternative reading to apply next (a list: None is a valid choice)
    steps = 0
    while True:
        steps += 1
        if steps > 100_000:
            raise LogFormatError("the calls and discards do not fit together (search too long)")
        try:
            if retry:
                _apply_choice(st, retry.pop(), takes, discs, events, n)
                continue
            if _step(st, takes, discs, events, n, stack):
                return events, st.pending_accept
        except (_Mismatch, LogFormatError, MjcliError) as exc:
            first_error = first_error or str(exc)
            while stack and not stack[-1].alternatives:
                stack.pop()
            if not stack:
                raise LogFormatError(f"the calls and discards do not fit together ({first_error})") from None
            top = stack[-1]
            retry = [top.alternatives.pop(0)]
            st = top.copy()
            del events[top.n_events :]


def _accept(st: _State, events: list[Event]) -> None:
    if st.pending_accept is not None:
        events.append(RiichiAccepted(st.pending_accept))
        st.pending_accept = None


def _step(
    st: _State,
    takes: list[list[Any]],
    discs: list[list[Any]],
    events: list[Event],
    n: int,
    stack: list[_State],
) -> bool:
    a = st.actor
    if st.phase == "draw":
        if st.ti[a] >= len(takes[a]):
            return _finish(st, takes, discs, n)
        code = takes[a][st.ti[a]]
        if not isinstance(code, int):
            raise _Mismatch(f"seat {a} should draw but its next take is {code!r}")
        _accept(st, events)
        prev = events[-1] if events else None
        tile = _tile(code)
        st.hands[a][tile] += 1
        events.append(Draw(a, tile, rinshan=draw_after_kan(prev, a)))
        st.ti[a] += 1
        st.phase, st.drawn = "act", code
        return False
    if st.phase == "act":
        if st.di[a] >= len(discs[a]):
            return _finish(st, takes, discs, n)
        d = discs[a][st.di[a]]
        st.di[a] += 1
        if isinstance(d, int):
            if d == 0:
                raise _Mismatch(f"seat {a} has a 0 discard where it must discard")
            _discard(st, a, d, events, riichi=False)
            return False
        if not isinstance(d, str):
            raise LogFormatError(f"discard {d!r} of seat {a} is neither a tile nor a call")
        call = parse_call(d)
        if call.letter == "r":
            _discard(st, a, call.codes[0], events, riichi=True)
            return False
        tiles = [_tile(c) for c in call.codes]
        if call.letter == "a":
            st.take(a, tiles)
            events.append(ClosedKan(a, sorted_tiles(tiles)))
        elif call.letter == "k":
            added = _tile(call.codes[call.pos // 2])
            pon = list(tiles)
            pon.remove(added)
            st.take(a, [added])
            events.append(AddedKan(a, added, sorted_tiles(pon)))
        elif call.letter == "f":
            st.take(a, tiles)
            events.append(Nukidora(a, tiles[0]))
        else:
            raise _Mismatch(f"seat {a} has a '{d}' call among its discards")
        st.phase, st.drawn = "draw", None
        return False
    # after a discard: a call by another seat, or the next seat draws
    t = st.discarded
    candidates = []
    ti = st.ti  # read once: this loop runs for every seat after every discard
    for s in range(n):
        if s == a:
            continue
        seat_takes = takes[s]
        i = ti[s]
        if i >= len(seat_takes) or not isinstance(seat_takes[i], str):
            continue
        call = parse_call(seat_takes[i])
        if call.letter not in "cpm" or call.called != t:
            continue
        if n == 4:
            src = (_PON_SOURCE if call.letter != "m" else _KAN_SOURCE).get(call.pos)
            if call.letter == "c":
                src = 3 if call.pos == 0 else None
            if src is None or (s + src) % 4 != a:
                continue
        elif call.letter == "c":
            continue
        candidates.append((0 if call.letter != "c" else 1, s, call))
    candidates.sort(key=lambda c: c[0])
    choices: list[Any] = [(s, call) for _, s, call in candidates] + [None]
    if len(choices) > 1:
        snap = st.copy()
        snap.n_events = len(events)
        snap.alternatives = choices[1:]
        stack.append(snap)
    _apply_choice(st, choices[0], takes, discs, events, n)
    return False


def _apply_choice(
    st: _State, choice: Any, takes: list[list[Any]], discs: list[list[Any]], events: list[Event], n: int
) -> None:
    a = st.actor
    if choice is None:
        st.phase, st.actor = "draw", (a + 1) % n
        return
    s, call = choice
    _accept(st, events)
    tiles = [_tile(c) for c in call.codes]
    called = _tile(call.called)
    tiles.remove(called)
    consumed = sorted_tiles(tiles)
    st.take(s, consumed)
    st.ti[s] += 1
    st.actor = s
    if call.letter == "c":
        events.append(Chi(s, a, called, consumed))
    elif call.letter == "p":
        events.append(Pon(s, a, called, consumed))
    else:
        events.append(OpenKan(s, a, called, consumed))
        if st.di[s] < len(discs[s]) and discs[s][st.di[s]] == 0:
            st.di[s] += 1  # the daiminkan's empty discard slot
        st.phase, st.drawn = "draw", None
        return
    st.phase, st.drawn = "act", None


def _discard(st: _State, a: int, code: int, events: list[Event], riichi: bool) -> None:
    if code == TSUMOGIRI:
        if st.drawn is None:
            raise _Mismatch(f"seat {a} discards the drawn tile (60) without having drawn")
        code = st.drawn
        tsumogiri = True
    else:
        tsumogiri = False
    tile = _tile(code)
    st.take(a, [tile])
    if riichi:
        events.append(Riichi(a))
    events.append(Discard(a, tile, tsumogiri))
    st.pending_accept = a if riichi else None
    st.phase, st.discarded, st.drawn = "after", code, None


def _finish(st: _State, takes: list[list[Any]], discs: list[list[Any]], n: int) -> bool:
    for s in range(n):
        if st.ti[s] != len(takes[s]) or st.di[s] != len(discs[s]):
            raise _Mismatch(f"the round stops at seat {st.actor} while seat {s} still has entries")
    return True


# ---------------------------------------------------------------- outcomes

_POINTS = re.compile(
    r"^(?:(\d+)(?:符|Fu)(\d+)(?:飜|Han)|("
    + "|".join(sorted(LIMIT_NAMES, key=len, reverse=True))
    + "|"
    + _LIMIT_WORDS
    + r"))?(\d+)(?:-(\d+))?(?:点|Points)?(∀)?$"
)
_YAKU = re.compile(r"^(.*)\((\d*)(飜|役満|han|Han)\)$")


def _parse_points(text: str, n: int, tsumo: bool) -> tuple[int | None, int | None, int]:
    m = _POINTS.match("".join(text.split()))
    if m is None:
        raise LogFormatError(f"result '{text}' is not fu/han/points")
    fu, han, _limit, a, b, all_pay = m.groups()
    a_ = int(a)
    if not tsumo:
        points = a_
    elif all_pay:
        points = a_ * (n - 1)
    elif b is not None:
        points = a_ * (n - 2) + int(b)
    else:
        points = a_
    return (int(fu) if fu else None), (int(han) if han else None), points


def _parse_yaku(items: Sequence[Any], seat_wind: int, round_wind: int) -> tuple[tuple[str, int], ...]:
    """A win's yaku list. A seat- or round-wind yaku takes its wind from the winner's seat and the
    round, whatever wind its name gives (自風 西): the sites record these yaku by number alone
    (Mahjong Soul's fan 10 and 11, kobalab's 役牌 自風), and converters that name the wind work it
    out themselves, not always right: tensoul-py-ng named the seat wind from the round's number
    (``WIND[round.kyoku - 1]``, model.py at its commit 366fd29: 自風 西 for a North seat at East 4,
    a pantheon test log), later from a four-seat table in three-player games too (commit 5a057e5);
    zhengye1/paipuconverter wrote 自風 南 for a West seat (a pro league game). The yaku and its han
    are still compared; Tenhou's own names are always the seat's and round's."""
    out = []
    for item in items:
        m = _YAKU.match(str(item).strip())
        if m is None:
            raise LogFormatError(f"yaku '{item}' is not 'name(n飜)'")
        name, num, unit = m.groups()
        han = 13 * int(num or 1) if unit == "役満" else int(num or 0)
        if han == 0:
            continue  # "裏ドラ(0飜)": canonically only yaku worth han are kept (as the XML reader does)
        yaku = name_to_canonical(name.strip(), seat_wind, round_wind)
        if yaku.startswith(("seat_wind_", "round_wind_")):
            kind = "自風牌" if yaku.startswith("seat_wind_") else "場風牌"
            yaku = name_to_canonical(kind, seat_wind, round_wind)
        out.append((yaku, han))
    # Mahjong Soul converters list the Norths set aside (抜きドラ) apart; Tenhou counts them in ドラ
    merged: dict[str, int] = {}
    for y, h in out:
        merged[y] = merged.get(y, 0) + h
    return tuple(sorted(merged.items(), key=lambda p: TENHOU_ID.get(p[0], 99)))


def _outcome(
    res: list[Any], table: Table, start: StartRound, ura: list[int], pending: int | None, events: list[Event]
) -> None:
    n = table.players
    if not res or not isinstance(res[0], str):
        raise LogFormatError("the round result is missing")
    head = res[0]
    if head in WIN_NAMES:
        wins = []
        for i in range(1, len(res) - 1, 2):
            deltas, info = res[i], res[i + 1]
            who, frm, pao = info[0], info[1], info[2]
            if not (0 <= who < n and 0 <= frm < n):
                raise LogFormatError(f"win by seat {who} from seat {frm} is not a seat")
            tile = table.win_tile(who, frm)
            han = fu = points = None
            yaku = None
            if len(info) > 3:
                fu, han, points = _parse_points(str(info[3]), n, who == frm)
                seat_wind = (who - start.dealer) % n
                yaku = _parse_yaku(info[4:], seat_wind, start.round_wind)
                if yaku:
                    han = sum(h for _, h in yaku)
            wins.append(
                Win(
                    actor=who,
                    target=frm,
                    tile=tile,
                    deltas=None if deltas is None else _deltas(deltas, n),  # null: not recorded
                    han=han,
                    fu=fu,
                    points=points,
                    yaku=yaku,
                    ura_markers=tuple(_tile(c) for c in ura) if ura and table.riichi[who] else None,
                    # Tenhou and tensoul list a riichi win's ura indicators; an empty list there
                    # says the writer did not know them (mjcli's own writer, from such an mjai log)
                    ura_known=bool(ura),
                    pao=pao if pao != who else None,
                    hand=table.win_hand(who, frm, tile),
                )
            )
        if not wins:
            raise LogFormatError("a 和了 result without a winner")
        ron_on_riichi = pending is not None and wins[0].target == pending and wins[0].actor != pending
        if pending is not None and not ron_on_riichi:
            events.append(RiichiAccepted(pending))
        events.extend(wins)
        return
    reason = DRAW_NAMES.get(head)
    if reason is None:
        raise UnsupportedError(f"unknown round result '{head}'")
    if pending is not None and reason != TRIPLE_RON:
        events.append(RiichiAccepted(pending))
    if len(res) > 1 and res[1] is None:
        deltas = None  # not recorded (mjcli's writer, from a source without them)
    else:
        deltas = _deltas(res[1], n) if len(res) > 1 and isinstance(res[1], list) else (0,) * n
    tenpai = None
    if reason in (EXHAUSTIVE, NAGASHI_MANGAN):
        if head == "全員聴牌":
            tenpai = (True,) * n
        elif head == "全員不聴":
            tenpai = (False,) * n
        elif reason == EXHAUSTIVE and deltas is not None and any(deltas):
            tenpai = tuple(d > 0 for d in deltas)
        else:
            tenpai = tuple(table.tenpai(s) for s in range(n))
    events.append(RoundDraw(reason, deltas, tenpai, shown_hands(table, reason, tenpai)))


def _deltas(values: Any, n: int) -> tuple[int, ...]:
    if not isinstance(values, list) or len(values) < n:
        raise LogFormatError(f"score changes {values!r} do not name {n} seats")
    return tuple(whole_points(d, "score change") for d in values[:n])


def _read_round(rnd: list[Any], n: int, where: str) -> list[Event]:
    if not isinstance(rnd, list) or len(rnd) < 4 + 3 * n:
        raise LogFormatError(f"{where}: a round must be a list of header, scores, dora, ura and seats")
    slots = 4 if len(rnd) >= 16 else n  # three-player logs may keep an empty fourth seat
    head, scores, dora, ura = rnd[0], rnd[1], rnd[2], rnd[3]
    idx, honba, sticks = head[0], head[1], head[2]
    if not isinstance(idx, int) or not 0 <= idx < 16:
        raise LogFormatError(f"{where}: round number {idx!r} is not a round (0-15)")
    dealer = idx % 4
    if dealer >= n:
        raise LogFormatError(f"{where}: round number {idx} has no dealer in a {n}-player game")
    if not isinstance(dora, list) or not dora:
        # every round shows a dora indicator; a converter's log with an empty list (a pro league
        # game of zhengye1/paipuconverter from its second round on) said only "a list is shorter
        # than the format requires", naming no round
        label = round_label(idx // 4, idx % 4 + 1, counter(honba, "honba"))
        raise LogFormatError(f"{where} round {label}: no dora indicator (the round's dora list is {dora!r})")
    hands = tuple(sorted_tiles([_tile(c) for c in rnd[4 + 3 * s]]) for s in range(n))
    if not isinstance(scores, list) or len(scores) < n:
        raise LogFormatError(f"{where}: round scores {scores!r} do not name {n} seats")
    start = StartRound(
        idx // 4,
        idx % 4 + 1,
        counter(honba, "honba"),
        counter(sticks, "riichi sticks"),
        dealer,
        _tile(dora[0]),
        tuple(whole_points(x, "score") for x in scores[:n]),
        hands,
    )
    where = f"{where} round {start_label(start)}"
    takes = [list(rnd[5 + 3 * s]) for s in range(n)]
    discs = [list(rnd[6 + 3 * s]) for s in range(n)]
    try:
        body, pending = _simulate(takes, discs, dealer, n, hands)
        table = Table(start, where)
        for e in body:
            table.apply(e)
        events: list[Event] = [start, *body]
        if len(rnd) > 4 + 3 * slots:
            _outcome(list(rnd[4 + 3 * slots]), table, start, list(ura), pending, events)
            events.append(EndRound())
        return place_kan_dora(events, [_tile(c) for c in dora[1:]])
    except MjcliError as exc:
        if str(exc).startswith(where):  # the round's table names the place itself
            raise
        raise type(exc)(f"{where}: {exc}") from None


# ---------------------------------------------------------------- games


def _header(obj: dict[str, Any], n: int) -> Header:
    """``title``, ``dan``, ``rate``, ``sx`` and ``rule.disp`` as written (metadata: a field of another
    shape is left out rather than failing the log)."""

    def texts(key: str, size: int | None = n) -> tuple[str, ...]:
        value = obj.get(key)
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            return ()
        value = value[:size] if size else value
        return tuple(value) if size is None or len(value) == size else ()

    rate = obj.get("rate")
    disp = (obj.get("rule") or {}).get("disp") if isinstance(obj.get("rule"), dict) else None
    return Header(
        title=texts("title", None),
        dan=texts("dan"),
        rate=ratings(rate, n) if isinstance(rate, list) else (),
        sex=texts("sx"),
        disp=disp if isinstance(disp, str) else "",
    )


def _rule_json(disp: str, rules: GameRules) -> dict[str, Any]:
    rule: dict[str, Any] = {"disp": disp, "aka": 1 if rules.red_fives else 0}
    if rules.open_riichi:
        rule["open_riichi"] = 1
    if rules.hands_shown:
        rule["hands_shown"] = list(rules.hands_shown)
    if rules.site:
        rule["site"] = rules.site
    if rules.absent_share:
        rule["absent_share"] = rules.absent_share
    if rules.unknown:  # what the source said of rules mjcli does not know, carried on (verify reads it)
        rule["unknown_rules"] = rules.unknown
    return rule


def _rules(obj: dict[str, Any], n: int, rounds: list[Any]) -> GameRules:
    rule = obj.get("rule") or {}
    disp = str(rule.get("disp", ""))
    if any(k in rule for k in ("aka", "aka51", "aka52", "aka53")):
        # red fives are on when any of the four says so: mjai-reviewer writes all four back, with
        # "aka":0 beside tensoul's "aka51".."aka53":1 (convlog's own reading, tenhou/log.rs:
        # has_aka = aka + aka51 + aka52 + aka53 > 0)
        red = any(rule.get(k) for k in ("aka", "aka51", "aka52", "aka53"))
    elif disp:
        red = "赤" in disp or "Red" in disp or any(51 <= c <= 53 for c in _all_codes(rounds))
    else:
        red = True
    japanese = any(ch in disp for ch in "東南般上特鳳")
    east = "東" in disp or "东" in disp or re.search(r"\bEast\b", disp) is not None
    south = "南" in disp or re.search(r"\bSouth\b", disp) is not None
    site = _site(disp, rule)
    # Tenhou's line says 喰 where open tanyao is on; Mahjong Soul's rooms always have it, and
    # Chinese converters' lines (金之间四人南) do not say 喰
    open_tanyao = "喰" in disp if japanese and site != "majsoul" else True
    # Tenhou's own disp always says 東 or 南 (a hanchan says 南); tensoul wrote Mahjong Soul's
    # three-player rooms (modes 11, 12) without either until its commit f840fae (2024-11-11), and
    # other writers (mjcli's, from an mjai log that does not say) may too: "" leaves the length to
    # the game's end (the engine's table)
    length = "tonpuu" if east else "hanchan" if south else ""
    # not Tenhou's: mjcli's own keys for the open-riichi house rule and the seats playing with
    # their hand shown (written only when in use)
    shown = rule.get("hands_shown") or []
    if not isinstance(shown, list) or not all(isinstance(s, int) and 0 <= s < n for s in shown):
        raise LogFormatError(f"rule.hands_shown {shown!r} is not a list of seats 0-{n - 1}")
    return GameRules(
        players=n,
        red_fives=red,
        open_tanyao=open_tanyao,
        length=length,
        open_riichi=bool(rule.get("open_riichi", False)),
        hands_shown=tuple(sorted(set(shown))),
        site=site,
        absent_share=absent_share_of(rule, n),
        # Tenhou's rule line names a lobby with chips 祝 (祝儀), whose rules mjcli does not know;
        # mjcli's own key carries what another source said of such rules
        unknown=str(rule.get("unknown_rules") or "") or _unknown_rules(disp, rule, japanese),
    )


def _unknown_rules(disp: str, rule: dict[str, Any], japanese: bool) -> str:
    """What the header says of rules mjcli does not know (played under the site's preset all the
    same: verify then says ERROR, not MISMATCH, where the record does not fit it)."""
    said = []
    if japanese and "祝" in disp:
        said.append("Tenhou lobby with chips (祝儀)")
    if _MAJSOUL_OWN_RULES.search(disp):
        said.append("a Mahjong Soul room with rules of its own (friendly, tournament, event)")
    if any(isinstance(rule.get(k), int) and rule[k] > 1 for k in ("aka51", "aka52", "aka53")):
        said.append("more than one red five of a suit")  # tensoul: aka52 2 for four red fives
    return "; ".join(said)


#: Mahjong Soul's ranked rooms as Mahjong Soul converters name them in ``rule.disp`` (tensoul
#: convert.js: "三" for three-player, the room's Japanese name from the game's own match-mode
#: table, then 東喰/南喰 and 赤; or the English names). Tenhou's lobbies are 般, 上, 特, 鳳 and never
#: "...の間".
_MAJSOUL_ROOM = re.compile(
    r"[銅銀金玉]の間|王座の間|\b(?:Bronze|Silver|Gold|Jade|Throne) Room\b"
    # the same rooms as Chinese converters write them (the game's room_name_chs, and traditional)
    r"|[铜银金玉銅銀]之[间間]|王座之?[间間]"
)
#: Mahjong Soul's rooms whose rules are not the ranked rooms' (tensoul: the friendly and tournament
#: rooms of its RUNES, 友人戦, 大会戦, "Friendly", "Tournament" and its "Tounament" misspelling, whose
#: hosts choose start, uma, red fives...; and the other match modes of the game's own table, which
#: tensoul writes by their room_name_jp or _en: casual, melee, event and special modes such as
#: 赤血の戦, where play goes on after a win). The log does not give those rules.
_MAJSOUL_OWN_RULES = re.compile(
    r"友人戦|大会戦|\bFriendly\b|\bTour?nament\b"
    r"|乱闘の間|交流の間|ドラさんモード|配牌公開|龍の割目|試練の道|修羅の戦|赤血の戦|特別対局|明鏡の戦"
    r"|闇夜の戦|幻界の戦"
    r"|Melee Room|Casual Match|DoraDorara|Open Hand Match|Chaotic Wall Break|Path of Trial"
    r"|Battle of (?:Asura|Clairvoyance|Darkness)|Bloodshed Skirmish|Event Room|Dreamland Odyssey"
    r"|乱斗之间|休闲普通场|宝牌狂热|配牌明牌|龙之目玉|试炼之道|龙争虎斗|修罗之战|赤羽之战|活动场|明镜之战"
    r"|暗夜之战|幻境传说"
)


def _site(disp: str, rule: dict[str, Any]) -> str:
    """Whose rules the header names: ``rule.site`` (mjcli's own key), else a Mahjong Soul room in
    ``disp`` ("majsoul": a ranked one, or a friendly or tournament room, whose own rules the header
    does not give: :func:`_rules` says so), else "" (Tenhou's own logs)."""
    site = rule.get("site")
    if isinstance(site, str) and site:
        return site
    return "majsoul" if _MAJSOUL_ROOM.search(disp) or _MAJSOUL_OWN_RULES.search(disp) else ""


def _all_codes(rounds: list[Any]) -> list[int]:
    out = []
    for r in rounds:
        for part in r[4:-1]:
            if isinstance(part, list):
                out.extend(c for c in part if isinstance(c, int))
    return out


def _players(obj: dict[str, Any], rounds: list[Any]) -> int:
    disp = str((obj.get("rule") or {}).get("disp", ""))
    if "三" in disp:
        return 3
    names = obj.get("name")
    if isinstance(names, list) and len(names) == 3:
        return 3
    if rounds and all(len(r) >= 16 and not r[13] and (len(r[1]) < 4 or not r[1][3]) for r in rounds):
        return 3  # the fourth seat is empty in every round
    return 4


def _end_game(obj: dict[str, Any], n: int, table: int | None = None) -> EndGame:
    """The final result (``sc``). ``table``: the points on the table at the last round's start (its
    scores and sticks), which the final scores add up to."""
    sc = obj.get("sc")
    if not isinstance(sc, list) or len(sc) < 2 * n:
        return EndGame()
    raw = [whole_points(sc[2 * i], "final score") for i in range(n)]
    # Tenhou's own downloads give scores in hundreds; converters often give points: the unit is the
    # one whose sum is nearer the table's (a lobby of 1000 points each has 4000 on the table, which
    # a sum of raw scores under 10000 took for hundreds)
    total = sum(raw)
    if table is not None:
        factor = 100 if abs(100 * total - table) < abs(total - table) else 1
    else:
        factor = 100 if abs(total) < 10_000 else 1
    marks = [sc[2 * i + 1] for i in range(n)]
    return EndGame(
        tuple(whole_points(x * factor, "final score") for x in raw),
        # null: the source of a converted log had no final points (see write_tenhou6)
        None if None in marks else tuple(final_points_value(m, "final points") for m in marks),
    )


def _game(
    obj: dict[str, Any], rounds: list[Any], name: str, game_index: int | None, cut: str | None = None
) -> GameLog:
    where = name if game_index is None else f"{name} game {game_index + 1}"
    try:
        return _game_inner(obj, rounds, name, where, game_index, cut)
    except MjcliError as exc:
        if str(exc).startswith(name) and isinstance(exc, LogFormatError | UnsupportedError):
            raise
        # a bad tile code inside a log is a corrupt log, not a notation error of the user's
        cls = UnsupportedError if isinstance(exc, UnsupportedError) else LogFormatError
        msg = str(exc) if str(exc).startswith(name) else f"{where}: {exc}"
        raise cls(msg) from None
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise LogFormatError(f"{where}: malformed tenhou.net/6 data ({malformed(exc)})") from None


def _game_inner(
    obj: dict[str, Any], rounds: list[Any], name: str, where: str, game_index: int | None, cut: str | None
) -> GameLog:
    if not rounds:
        raise LogFormatError(f"{where}: the log has no rounds")
    n = _players(obj, rounds)
    names = [str(x) for x in (obj.get("name") or [])][:n]
    names += [""] * (n - len(names))
    game_id = str(obj.get("ref") or "")
    if not game_id:
        # no id in the file: the file name, numbered when the file holds several games
        game_id = game_id_from_name(name) + (f"#{game_index + 1}" if game_index else "")
    events: list[Event] = [StartGame(tuple(names), _rules(obj, n, rounds), game_id, _header(obj, n))]
    complete, problem = True, None
    for rnd in rounds:
        round_events = _read_round(rnd, n, where)
        events.extend(round_events)
        if not isinstance(round_events[-1], EndRound):
            complete = False
            start = round_events[0]
            assert isinstance(start, StartRound)
            problem = f"the log ends inside round {start_label(start)} (the round has no outcome)"
            break
    if complete and (obj.get("incomplete") or cut):
        # our writer's mark for a game whose record stops after a round, or a file cut in a line
        last = next(e for e in reversed(events) if isinstance(e, StartRound))
        complete = False
        problem = f"the log ends after round {start_label(last)} without the game's final result"
        if cut:
            problem += f" ({cut})"
    elif complete:
        last = next((e for e in reversed(events) if isinstance(e, StartRound)), None)
        table = None if last is None else sum(last.scores) + 1000 * last.sticks
        events.append(_end_game(obj, n, table))
    return GameLog(name, TENHOU6, game_id, events, complete, problem)


def read_tenhou6(data: bytes, name: str = "<tenhou6>") -> list[GameLog]:
    raw = decode_text(data, name)
    text = raw.strip()
    cut = None
    try:
        objs: list[Any] = [json.loads(text)]
    except json.JSONDecodeError:
        objs = []
        # one round per line: lines end at "\n" only (not at the U+0085 or U+2028 a JSON string
        # may hold as they are, where ``str.splitlines`` would cut; see mjai's reader)
        lines = [(i, line) for i, line in enumerate(text.split("\n"), 1) if line.strip()]
        for i, line in lines:
            try:
                objs.append(json.loads(line))
            except json.JSONDecodeError as exc:
                # A one-round-per-line file cut inside its last line (no final newline) is a
                # truncated log, not a corrupt one: keep the rounds before it.
                if i == lines[-1][0] and objs and not raw.endswith("\n"):
                    cut = f"the file is cut inside line {i}"
                    break
                raise LogFormatError(f"{name}: line {i} is not JSON ({exc.msg})") from None
    if len(objs) == 1 and isinstance(objs[0], list):
        games = objs[0]
        if not all(isinstance(g, dict) and isinstance(g.get("log"), list) for g in games):
            raise LogFormatError(f"{name}: a JSON list that is not a list of tenhou.net/6 games")
        return [_game(g, list(g["log"]), name, i if len(games) > 1 else None) for i, g in enumerate(games)]
    for i, o in enumerate(objs):
        if not isinstance(o, dict) or not isinstance(o.get("log"), list):
            raise LogFormatError(f"{name}: object {i + 1} has no 'log' list (not tenhou.net/6 JSON)")
    games = _games_of_lines(objs)
    out = []
    for i, lines in enumerate(games):
        rounds = [r for o in lines for r in o["log"]]
        header = dict(lines[0])
        if "sc" in lines[-1]:
            header["sc"] = lines[-1]["sc"]
        index = i if len(games) > 1 else None
        out.append(_game(header, rounds, name, index, cut if i == len(games) - 1 else None))
    return out


def _games_of_lines(objs: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The lines of a file of several tenhou.net/6 objects grouped by game: one round a line (mjx's
    mjscore files), or one whole game a line (a collection of downloads). A game begins at a line
    whose first round is East 1 with no honba (a round no game plays twice), or after a line that
    holds a game's final result (``sc``)."""
    games: list[list[dict[str, Any]]] = []
    for o in objs:
        log = o["log"]
        head = log[0][0] if log and isinstance(log[0], list) and log[0] else None
        first_round = isinstance(head, list) and head[:2] == [0, 0]
        if not games or first_round or "sc" in games[-1][-1]:
            games.append([o])
        else:
            games[-1].append(o)
    return games


# ---------------------------------------------------------------- writing


def _code(tile: int) -> int:
    return tile_to_tenhou6(tile)


#: ``_code`` of every tile code, as a table (a round's draws)
_CODE_OF = {t: tile_to_tenhou6(t) for t in range(NUM_TILES)}


def _tenhou_order(tiles: Sequence[int]) -> list[int]:
    """Tenhou writes a red five after the plain fives of its suit (15, 15, 51)."""
    return sorted(tiles, key=lambda t: (kind(t), is_red(t)))


def _offset(actor: int, target: int, n: int) -> int:
    """1 right, 2 opposite, 3 left. Three-player logs count as if the fourth seat were there (Tenhou
    writes seat 0's pon from seat 2 as from the opposite seat, seat 2's from seat 1 as from the left):
    the offset is taken modulo 4 in both."""
    return (target - actor) % 4


def _call_string(e: Chi | Pon | OpenKan, n: int) -> str:
    called = str(_code(e.tile))
    rest = [str(_code(t)) for t in _tenhou_order(e.consumed)]
    if isinstance(e, Chi):
        return "c" + called + "".join(rest)
    letter = "p" if isinstance(e, Pon) else "m"
    off = _offset(e.actor, e.target, n)
    slot = {3: 0, 2: 1, 1: len(rest)}[off]
    parts = rest[:slot] + [letter + called] + rest[slot:]
    return "".join(parts)


def _points_text(w: Win, dealer: int, n: int, split: bool = False) -> str:
    """Tenhou's result text: "30符2飜2000点", "満貫8000点", "30符2飜500-1000点", "満貫4000点∀".

    ``split``: a three-player game that split the absent North's share (``absent_share="split"``):
    each payer of a non-dealer's tsumo pays half of North's share on top."""
    assert w.points is not None
    points = w.points
    limit = None
    if w.fu is None or w.han is None or w.han >= 5:
        han = w.han or 0
        yakuman = any(h >= 13 for _, h in (w.yaku or ())) and han >= 13
        limit = (
            "役満"
            if yakuman
            else "数え役満"
            if han >= 13
            else "三倍満"
            if han >= 11
            else "倍満"
            if han >= 8
            else "跳満"
            if han >= 6
            else "満貫"
        )
    head = limit if limit else f"{w.fu}符{w.han}飜"
    if w.actor != w.target:
        return f"{head}{points}点"
    if w.actor == dealer:
        return f"{head}{points // (n - 1)}点∀"
    # non-dealer tsumo: children pay a, the dealer b = the rounded double of the base
    base = _base_points(w)
    if base is None:
        # from the total alone: limit hands split exactly (base is a multiple of 1000): 4 x base
        # at four seats and with North's share split (base + 2 x base + 2 x base / 2), else 3 x base
        base = points // 4 if n == 4 or split else points // 3
    # the payers' extra with North's share split: mjcli.riichi.scoring.absent_half (half of
    # North's rounded payment, rounded up to 100); the text must say what each paid, or it reads
    # back as another total ("満貫2666-5332点" for a 3000-5000 mangan)
    extra = _ceil100(_ceil100(base) // 2) if split and n == 3 else 0
    a, b = _ceil100(base) + extra, _ceil100(2 * base) + extra
    return f"{head}{a}-{b}点"


def _ceil100(x: int) -> int:
    return -(-x // 100) * 100


def _base_points(w: Win) -> int | None:
    if w.fu is None or w.han is None:
        return None
    return min(w.fu * 2 ** (w.han + 2), 2000)


def _yaku_text(yaku: str, han: int) -> str:
    name = canonical_to_japanese(yaku)
    return f"{name}(役満)" if is_yakuman(yaku) else f"{name}({han}飜)"


def _round_json(events: list[Event], n: int, split: bool = False) -> list[Any]:
    start = events[0]
    assert isinstance(start, StartRound)
    takes: list[list[Any]] = [[] for _ in range(n)]
    discs: list[list[Any]] = [[] for _ in range(n)]
    dora = [_code(start.dora_marker)]
    ura: list[int] = []
    riichi_next = [False] * n
    result: list[Any] | None = None
    wins: list[Win] = []
    code_of = _CODE_OF.get
    for e in events[1:]:
        # Draws and discards first, by type, their codes from a table (most of a round's events:
        # a log per game of ``mjcli simulate``; bench_speed "self-play, first-legal policy")
        t = type(e)
        if t is Draw or isinstance(e, Draw):
            tile = e.tile  # type: ignore[union-attr]
            if tile is None:
                raise UnsupportedError("tenhou.net/6 cannot hold hidden draws")
            c = code_of(tile)
            takes[e.actor].append(_code(tile) if c is None else c)  # type: ignore[union-attr]
        elif t is not Discard and isinstance(e, Riichi):
            riichi_next[e.actor] = True
        elif t is Discard or isinstance(e, Discard):
            if e.tsumogiri:  # type: ignore[union-attr]
                code = TSUMOGIRI
            else:
                code = code_of(e.tile)  # type: ignore[union-attr]
                if code is None:
                    code = _code(e.tile)  # type: ignore[union-attr]
            if riichi_next[e.actor]:
                discs[e.actor].append(f"r{code}")
                riichi_next[e.actor] = False
            else:
                discs[e.actor].append(code)
        elif isinstance(e, Chi | Pon | OpenKan):
            takes[e.actor].append(_call_string(e, n))
            if isinstance(e, OpenKan):
                discs[e.actor].append(0)
        elif isinstance(e, ClosedKan):
            c = [str(_code(t)) for t in _tenhou_order(e.consumed)]
            discs[e.actor].append("".join(c[:3]) + "a" + c[3])
        elif isinstance(e, AddedKan):
            discs[e.actor].append(_added_kan_string(events, e, n))
        elif isinstance(e, Nukidora):
            discs[e.actor].append(f"f{_code(e.tile)}")
        elif isinstance(e, NewDora):
            dora.append(_code(e.marker))
        elif isinstance(e, Win):
            wins.append(e)
            if e.ura_markers and not ura:
                ura = [_code(t) for t in e.ura_markers]
        elif isinstance(e, RoundDraw):
            result = _draw_result(e, n)
    if wins:
        result = [WIN]
        for w in wins:
            info: list[Any] = [w.actor, w.target, w.pao if w.pao is not None else w.actor]
            if w.points is not None:
                info.append(_points_text(w, start.dealer, n, split))
                info.extend(_yaku_text(y, h) for y, h in (w.yaku or ()))
            # deltas the source did not record (akochan's bare hora) are written as null, not made up
            # as zeros, which read back as recorded payments (see the final points below)
            result += [_four(list(w.deltas)) if w.deltas is not None else None, info]
    header = [(start.round_wind * 4 + start.kyoku - 1), start.honba, start.sticks]
    out: list[Any] = [header, _four(list(start.scores)), dora, ura]
    for s in range(n):
        out += [[_code(t) for t in _tenhou_order(start.hands[s])], takes[s], discs[s]]
    if n == 3:
        out += [[], [], []]
    if result is not None:
        out.append(result)
    return out


def _four(values: list[Any]) -> list[Any]:
    """Per-seat numbers as Tenhou writes them: four, the empty fourth seat of a three-player game 0."""
    return values + [0] * (4 - len(values))


def _added_kan_string(events: list[Event], e: AddedKan, n: int) -> str:
    """Write the added kan as the pon string with the letter 'k' and the added tile after it."""
    for p in events:
        if (
            isinstance(p, Pon)
            and p.actor == e.actor
            and sorted_tiles([p.tile, *p.consumed]) == sorted_tiles(e.consumed)
        ):
            pon = _call_string(p, n)
            i = pon.index("p")
            return pon[:i] + "k" + str(_code(e.tile)) + pon[i + 1 :]
    raise LogFormatError(f"added kan of seat {e.actor} without its pon")


def _draw_result(e: RoundDraw, n: int) -> list[Any]:
    # null where the source recorded no payments (written as zeros, they read back as recorded)
    deltas = _four(list(e.deltas)) if e.deltas is not None else None
    unpaid = deltas is None or not any(deltas)
    if e.reason == EXHAUSTIVE:
        if e.tenpai is not None and all(e.tenpai) and unpaid:
            return ["全員聴牌"]
        if e.tenpai is not None and not any(e.tenpai) and unpaid:
            return ["全員不聴"]
        return ["流局", deltas]
    if e.reason == NAGASHI_MANGAN:
        return ["流し満貫", deltas]
    return [ABORT_NAME[e.reason]] if unpaid else [ABORT_NAME[e.reason], deltas]


def write_tenhou6(game: GameLog) -> str:
    """One game as a tenhou.net/6 JSON object (one line), which Tenhou's viewer opens."""
    start = game.start
    if start is None:
        raise LogFormatError(f"{game.path}: no game start to write")
    n = start.rules.players
    rounds: list[list[Event]] = []
    end: EndGame | None = None
    for e in game.events[1:]:
        if isinstance(e, StartRound):
            rounds.append([e])
        elif isinstance(e, EndGame):
            end = e
        elif isinstance(e, EndRound):
            continue
        elif rounds:
            rounds[-1].append(e)
    rules = start.rules
    header = start.header
    disp = ("三" if n == 3 else "") + {"hanchan": "南", "tonpuu": "東"}.get(rules.length, "")
    disp += ("喰" if rules.open_tanyao else "") + ("赤" if rules.red_fives else "")
    if header.disp:  # the source's own line (its lobby and speed marks), when it reads the same
        said = _rules({"rule": {"disp": header.disp, "aka": int(rules.red_fives)}}, n, [])
        same = (said.open_tanyao, said.length, "三" in header.disp)
        if same == (rules.open_tanyao, rules.length, n == 3):
            disp = header.disp
    pad = [""] if n == 3 else []
    obj: dict[str, Any] = {
        "title": list(header.title) or ["", ""],
        "name": (list(start.names) or [""] * n) + pad,  # Tenhou's viewer reads one per seat
        "rule": _rule_json(disp, rules),
        "ref": start.game_id or game.game_id,
        "log": [_round_json(r, n, rules.absent_share == "split") for r in rounds],
    }
    # Tenhou's downloads give the players' ranks, ratings and sex codes beside their names
    for key, values, empty in (("dan", header.dan, ""), ("rate", header.rate, 0), ("sx", header.sex, "")):
        if values:
            obj[key] = list(values) + [empty] * len(pad)
    if end is None and rounds and any(isinstance(e, Win | RoundDraw) for e in rounds[-1]):
        obj["incomplete"] = True  # not Tenhou's: says the record stops before the game's end
    if end is not None and end.scores is not None:
        sc: list[Any] = []
        # Final points the source did not record (an mjai end_game with scores only) are written
        # as null, not made up: Tenhou's own files always have them, and 0 read back as recorded
        # points made the converted log fail to verify (a reviewer's finding).
        for i in range(n):
            sc += [end.scores[i], end.points[i] if end.points is not None else None]
        obj["sc"] = sc + [0, 0] * (4 - n)
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
