"""Tenhou mjlog XML (``<mjloggm ver="2.3">``), plain or gzip-compressed, into canonical events.

Read with a tag scanner rather than an XML parser: cut logs (a download interrupted mid-game) are
still worth reading up to where they stop, and the format is flat (one level of self-closing tags).
Text between tags that is not blank means the file is corrupt.

Tags: ``GO`` (rule bits), ``UN`` (names; later ``UN`` tags are reconnects), ``INIT`` (round start),
``T U V W`` + id (draws of seats 0-3), ``D E F G`` + id (discards), ``N`` (calls, meld code),
``REACH`` (step 1 declaration, step 2 stick paid), ``DORA``, ``AGARI``, ``RYUUKYOKU``, ``BYE``
(disconnect); ``SHUFFLE``/``TAIKYOKU`` carry nothing the events need. The 2009 form puts the
``shuffle`` seed on ``INIT`` and has no ``SHUFFLE`` tag: both are ignored.
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import unquote

from mjcli.errors import LogFormatError, MjcliError
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
from mjcli.riichi.formats import meld_codes as mc
from mjcli.riichi.formats.gamelog import (
    TENHOU_XML,
    GameLog,
    counter,
    decode_text,
    final_points_value,
    game_id_from_name,
    malformed,
    maybe_gunzip,
    ratings,
    whole_points,
)
from mjcli.riichi.formats.rounds import Table, draw_after_kan, place_kan_dora, sorted_tiles, start_label
from mjcli.riichi.formats.yaku_names import TENHOU_ID, tenhou_id_to_canonical
from mjcli.tiles import tile_from_id136

_ATTR = re.compile(r'([\w]+)="([^"]*)"')
#: attributes in either quote: XML allows 'single' ones (Tenhou writes double quotes; a file saved
#: again by an XML tool may not), read only for a tag that holds an apostrophe
_ATTR_ANY_QUOTE = re.compile(r"""([\w]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")

DRAW_REASONS = {
    "": EXHAUSTIVE,
    "yao9": NINE_TERMINALS,
    "reach4": FOUR_RIICHI,
    "kaze4": FOUR_WINDS,
    "kan4": FOUR_KANS,
    "ron3": TRIPLE_RON,
    "nm": NAGASHI_MANGAN,
}

# GO type bits
GO_VS_HUMANS, GO_NO_RED, GO_NO_KUITAN, GO_HANCHAN, GO_3P, GO_FAST = 0x01, 0x02, 0x04, 0x08, 0x10, 0x40


#: GO type bits beyond the eight read above, each a lobby whose rules mjcli does not know: 0x200
#: a table with chips (祝儀; dnovikoff/tenhou's chip.xml: a 30-fu 4-han dealer tsumo paid 4000 all,
#: uma +30/+10/-10/-30), 0x400 with it (a honba paid 1500), 0x800 games of 1000 points and one
#: round; 0x100 seen only beside a private lobby's own rules
GO_KNOWN_BITS = 0xFF


def rules_from_go(go_type: int, csrule: str = "") -> GameRules:
    """The rules a GO tag states: its type's bits, and (``csrule``, a private lobby's own rule
    line, which mjcli cannot read) what they leave unknown."""
    unknown = []
    if go_type & ~GO_KNOWN_BITS:
        chips = " (chips, 祝儀)" if go_type & 0x600 else ""
        unknown.append(f"Tenhou lobby bits {go_type & ~GO_KNOWN_BITS:#x} of GO type {go_type}{chips}")
    if csrule.strip(","):
        unknown.append("a private lobby's own rules (GO csrule)")
    return GameRules(
        players=3 if go_type & GO_3P else 4,
        red_fives=not go_type & GO_NO_RED,
        open_tanyao=not go_type & GO_NO_KUITAN,
        length="hanchan" if go_type & GO_HANCHAN else "tonpuu",
        unknown="; ".join(unknown),
    )


#: the lobby bits of a GO type: 0x20 特上, 0x80 上級, both 鳳凰 (neither: 一般)
GO_TOKUJOU, GO_JOUKYUU = 0x20, 0x80


def disp_of_go(go_type: int) -> str:
    """Tenhou's rule line for a GO type, as its tenhou.net/6 downloads write it ("鳳南喰赤",
    "三般東喰赤速"): three-player, the lobby, East or South, open tanyao, red fives, fast."""
    lobby = {GO_TOKUJOU | GO_JOUKYUU: "鳳", GO_TOKUJOU: "特", GO_JOUKYUU: "上", 0: "般"}
    return (
        ("三" if go_type & GO_3P else "")
        + lobby[go_type & (GO_TOKUJOU | GO_JOUKYUU)]
        + ("南" if go_type & GO_HANCHAN else "東")
        + ("" if go_type & GO_NO_KUITAN else "喰")
        + ("" if go_type & GO_NO_RED else "赤")
        + ("速" if go_type & GO_FAST else "")
    )


def go_from_rules(rules: GameRules) -> int:
    """The GO type for a rule set (a ranked-lobby human game, as Tenhou writes them)."""
    go = GO_VS_HUMANS
    go |= 0 if rules.red_fives else GO_NO_RED
    go |= 0 if rules.open_tanyao else GO_NO_KUITAN
    go |= GO_HANCHAN if rules.length == "hanchan" else 0
    go |= GO_3P if rules.players == 3 else 0
    return go


#: id -> tile, without and with red fives (a lookup: this runs for every tile of every log)
_ID_TO_TILE = {red: [tile_from_id136(i, red) for i in range(136)] for red in (False, True)}


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",")] if text else []


#: Tenhou's rank names by the ``dan`` codes of a ``UN`` tag (Tenhou's own client script, var DAN)
TENHOU_DAN = (
    "新人", "９級", "８級", "７級", "６級", "５級", "４級", "３級", "２級", "１級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳",
)  # fmt: skip


def _header_of_un(a: dict[str, str], n: int) -> Header:
    """The players' ranks, ratings and sex codes of a ``UN`` tag (metadata: a value that does not
    read leaves its field empty rather than failing the log)."""
    parts = {k: a.get(k, "").split(",")[:n] for k in ("dan", "rate", "sx")}
    try:
        dan = tuple(TENHOU_DAN[int(x)] if 0 <= int(x) < len(TENHOU_DAN) else x for x in parts["dan"] if x)
    except ValueError:
        dan = ()
    sex = tuple(x for x in parts["sx"] if x)
    return Header(
        dan=dan if len(dan) == n else (),
        rate=ratings([x for x in parts["rate"] if x], n),
        sex=sex if len(sex) == n else (),
    )


class _Reader:
    def __init__(self, name: str, normalise_dora: bool = True) -> None:
        self.name = name
        self.normalise_dora = normalise_dora
        self.rules = GameRules()
        self.red = True
        self.n = 4
        self.names: tuple[str, ...] = ()
        self.un: dict[str, str] = {}  # the first UN tag's attributes
        self.disp = ""  # the GO tag's rule line (disp_of_go)
        self.events: list[Event] = []
        self.round: list[Event] = []  # the current round's events (StartRound first)
        self.round_over = False
        self.start: StartRound | None = None
        self.table: Table | None = None
        self.prev_action: Event | None = None
        self.last_draw: list[int | None] = [None] * 4  # id just drawn, while it may be discarded
        self.ended = False  # owari seen

    # -- helpers
    def tile(self, tile_id: int) -> int:
        if 0 <= tile_id < 136:
            return _ID_TO_TILE[self.red][tile_id]
        return tile_from_id136(tile_id, self.red)  # raises the out-of-range error

    def where(self) -> str:
        label = start_label(self.start) if self.start else "before the first round"
        return f"{self.name}: round {label}"

    def fail(self, why: str) -> LogFormatError:
        return LogFormatError(f"{self.where()}: {why}")

    def seat(self, text: str) -> int:
        return self.seat_num(int(text))

    def seat_num(self, s: int) -> int:
        if not 0 <= s < self.n:
            raise self.fail(f"seat {s} does not exist in a {self.n}-player game")
        return s

    def emit(self, e: Event) -> None:
        if self.start is None:
            raise self.fail(f"{type(e).__name__} before any INIT")
        if self.round_over and not isinstance(e, Win | RoundDraw | EndGame):
            raise self.fail(f"{type(e).__name__} after the round ended")
        if self.table is not None:
            self.table.apply(e)  # checks every tile moved was there: a corrupt log fails here
        if not isinstance(e, NewDora):
            self.prev_action = e
        self.round.append(e)

    def close_round(self) -> None:
        if self.start is None:
            return
        if self.round_over:
            self.round.append(EndRound())
        self.events.extend(place_kan_dora(self.round) if self.normalise_dora else self.round)
        self.round = []

    def scores(self, ten: str, what: str = "score") -> tuple[int, ...]:
        values = _ints(ten)
        if len(values) < self.n:
            raise self.fail(f"{what}s '{ten}' name fewer than {self.n} seats")
        return tuple(whole_points(v * 100, what) for v in values[: self.n])

    def score_changes(self, sc: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``sc`` of an outcome: (every score before it, every delta), in points."""
        values = _ints(sc)
        if len(values) < 2 * self.n:
            raise self.fail(f"sc '{sc}' names fewer than {self.n} seats")
        before = tuple(whole_points(values[2 * i] * 100, "score") for i in range(self.n))
        deltas = tuple(whole_points(values[2 * i + 1] * 100, "score change") for i in range(self.n))
        return before, deltas

    def ba(self, a: dict[str, str]) -> tuple[int | None, int | None]:
        """``ba``: the honba and riichi sticks an outcome settles."""
        values = _ints(a.get("ba", ""))
        if len(values) < 2:
            return None, None
        return counter(values[0], "honba"), counter(values[1], "riichi sticks")

    # -- tags
    def on_go(self, a: dict[str, str]) -> None:
        go_type = int(a.get("type", "9"))
        self.disp = disp_of_go(go_type)
        self.rules = rules_from_go(go_type, a.get("csrule", ""))
        self.red = self.rules.red_fives
        self.n = self.rules.players

    def on_un(self, a: dict[str, str]) -> None:
        if self.names or "n0" not in a:
            return  # a reconnect: names are known already
        names = [unquote(a.get(f"n{i}", "")) for i in range(4)]
        if self.n == 3 or (not names[3] and "n3" not in a):
            names = names[:3]
        self.names = tuple(names)
        self.un = a  # read into the header when the table's size is known (on_init)

    def on_init(self, a: dict[str, str]) -> None:
        self.close_round()
        if not self.events:
            if self.n == 4 and "hai3" in a and not a["hai3"]:
                self.rules = replace(self.rules, players=3)
                self.n = 3
            names = self.names or tuple("" for _ in range(self.n))
            self.events.append(
                StartGame(
                    tuple(names[: self.n]),
                    self.rules,
                    game_id_from_name(self.name),
                    replace(_header_of_un(self.un, self.n), disp=self.disp),
                )
            )
        seed = _ints(a.get("seed", ""))
        if len(seed) < 6:
            raise self.fail(f"INIT seed '{a.get('seed', '')}' has fewer than 6 numbers")
        if not 0 <= seed[0] < 16:
            raise self.fail(f"INIT seed round number {seed[0]} is not a round (0-15)")
        hands = tuple(
            sorted_tiles([self.tile(i) for i in _ints(a.get(f"hai{s}", ""))]) for s in range(self.n)
        )
        self.start = StartRound(
            round_wind=seed[0] // 4,
            kyoku=seed[0] % 4 + 1,
            honba=counter(seed[1], "honba"),
            sticks=counter(seed[2], "riichi sticks"),
            dealer=self.seat(a.get("oya", "0")),
            dora_marker=self.tile(seed[5]),
            scores=self.scores(a.get("ten", "")),
            hands=hands,
        )
        self.round = [self.start]
        self.prev_action = None
        self.table = Table(self.start, self.where())
        self.round_over = False
        self.last_draw = [None] * 4

    def on_draw(self, seat: int, tile_id: int) -> None:
        self.emit(Draw(seat, self.tile(tile_id), rinshan=draw_after_kan(self.prev_action, seat)))
        self.last_draw[seat] = tile_id

    def on_discard(self, seat: int, tile_id: int) -> None:
        self.emit(Discard(seat, self.tile(tile_id), tsumogiri=self.last_draw[seat] == tile_id))
        self.last_draw[seat] = None

    def on_call(self, a: dict[str, str]) -> None:
        who = self.seat(a["who"])
        meld = mc.decode_meld(int(a["m"]))
        self.last_draw[who] = None
        t = self.tile
        if meld.kind in (mc.CHI, mc.PON, mc.OPEN_KAN):
            target = (who + meld.offset) % 4 if self.n == 4 else self._last_discarder(who)
            consumed = sorted_tiles([t(i) for i in meld.consumed])
            cls = {mc.CHI: Chi, mc.PON: Pon, mc.OPEN_KAN: OpenKan}[meld.kind]
            self.emit(cls(who, target, t(meld.called), consumed))
        elif meld.kind == mc.CLOSED_KAN:
            self.emit(ClosedKan(who, sorted_tiles([t(i) for i in meld.tiles])))
        elif meld.kind == mc.ADDED_KAN:
            self.emit(AddedKan(who, t(meld.added), sorted_tiles([t(i) for i in meld.consumed])))
        else:
            self.emit(Nukidora(who, t(meld.tiles[0])))

    def _last_discarder(self, who: int) -> int:
        for e in reversed(self.round):
            if isinstance(e, Discard):
                return e.actor
        raise self.fail(f"seat {who} calls with no discard to call")

    def on_reach(self, a: dict[str, str]) -> None:
        who = self.seat(a["who"])
        step = a.get("step", "1")
        if step == "1":
            self.emit(Riichi(who))
        else:
            ten = a.get("ten")
            self.emit(RiichiAccepted(who, self.scores(ten) if ten else None))

    def yaku(self, a: dict[str, str]) -> tuple[tuple[str, int], ...]:
        pairs = _ints(a.get("yaku", ""))
        # Tenhou lists ura dora with 0 han for every riichi win; a 0-han entry says nothing, and
        # tenhou.net/6 converters drop it, so canonically only yaku worth han are kept.
        out = [
            (tenhou_id_to_canonical(pairs[i]), pairs[i + 1])
            for i in range(0, len(pairs) - 1, 2)
            if pairs[i + 1]
        ]
        out += [(tenhou_id_to_canonical(y), 13) for y in _ints(a.get("yakuman", ""))]
        return tuple(sorted(out, key=lambda p: TENHOU_ID[p[0]]))

    def on_agari(self, a: dict[str, str]) -> None:
        who, target = self.seat(a["who"]), self.seat(a["fromWho"])
        ten = _ints(a.get("ten", ""))
        if len(ten) < 3:
            raise self.fail(f"AGARI ten '{a.get('ten', '')}' is not fu,points,limit")
        yaku = self.yaku(a)
        ura = a.get("doraHaiUra")
        before, deltas = self.score_changes(a.get("sc", ""))
        honba, sticks = self.ba(a)
        self.emit(
            Win(
                actor=who,
                target=target,
                tile=self.tile(int(a["machi"])),
                deltas=deltas,
                han=sum(h for _, h in yaku),
                fu=ten[0] if ten[2] == 0 else None,
                points=whole_points(ten[1], "points"),
                yaku=yaku,
                ura_markers=tuple(self.tile(i) for i in _ints(ura)) if ura is not None else None,
                pao=self.seat(a["paoWho"]) if "paoWho" in a else None,
                hand=sorted_tiles([self.tile(i) for i in _ints(a.get("hai", ""))]),
                honba=honba,
                sticks=sticks,
                scores_before=before,
            )
        )
        self.round_over = True
        self.owari(a)

    def on_ryuukyoku(self, a: dict[str, str]) -> None:
        kind_ = a.get("type", "")
        if kind_ not in DRAW_REASONS:
            raise self.fail(f"unknown RYUUKYOKU type '{kind_}'")
        reason = DRAW_REASONS[kind_]
        hands = tuple(
            sorted_tiles([self.tile(i) for i in _ints(a[f"hai{s}"])]) if f"hai{s}" in a else None
            for s in range(self.n)
        )
        tenpai = tuple(h is not None for h in hands) if reason in (EXHAUSTIVE, NAGASHI_MANGAN) else None
        before, deltas = self.score_changes(a.get("sc", ""))
        honba, sticks = self.ba(a)
        self.emit(RoundDraw(reason, deltas, tenpai, hands, honba, sticks, before))
        self.round_over = True
        self.owari(a)

    def owari(self, a: dict[str, str]) -> None:
        if "owari" not in a:
            return
        values = a["owari"].split(",")
        if len(values) < 2 * self.n:
            raise self.fail(f"owari '{a['owari']}' names fewer than {self.n} seats")
        scores = tuple(whole_points(float(values[2 * i]) * 100, "final score") for i in range(self.n))
        points = tuple(final_points_value(float(values[2 * i + 1]), "final points") for i in range(self.n))
        self.close_round()
        self.events.append(EndGame(scores, points))
        self.start = None
        self.ended = True

    def run(self, text: str) -> GameLog:
        # Split on "<" rather than run a regex per tag: a hanchan has ~1500 tags and most are the
        # short draw/discard ones, read on a fast path.
        parts = text.split("<")
        if parts[0].strip():
            raise LogFormatError(f"{self.name}: text before the first tag (not mjlog XML)")
        seen_root = False
        tail = ""
        seats = "TUVWDEFG"
        for index, part in enumerate(parts[1:], 1):
            end = part.find(">")
            if end < 0:
                if index != len(parts) - 1:
                    raise LogFormatError(f"{self.name}: a '<' without '>' in tag {index} (not mjlog XML)")
                tail = part  # the file is cut inside this tag
                break
            if part[end + 1 :].strip():
                raise LogFormatError(f"{self.name}: unexpected text after tag {index} (not mjlog XML)")
            body = part[:end].rstrip("/ \t\r\n")
            if not body or body[0] == "/" or body[0] == "?" or body[0] == "!":
                continue
            head = body[0]
            if head in seats and body[1:].isascii() and body[1:].isdigit():  # '²'.isdigit() is true
                if not seen_root:
                    raise LogFormatError(f"{self.name}: no <mjloggm> root tag (not a Tenhou mjlog)")
                if self.ended:
                    raise LogFormatError(f"{self.name}: <{body}> after the game's final result")
                seat = seats.index(head)
                try:
                    if seat < 4:
                        self.on_draw(self.seat_num(seat), int(body[1:]))
                    else:
                        self.on_discard(self.seat_num(seat - 4), int(body[1:]))
                except MjcliError as exc:
                    if str(exc).startswith(self.name):
                        raise
                    raise self.fail(str(exc)) from None
                continue
            tag, _, rest = body.partition(" ")
            if tag == "mjloggm":
                seen_root = True
                continue
            if not seen_root:
                raise LogFormatError(f"{self.name}: no <mjloggm> root tag (not a Tenhou mjlog)")
            if self.ended and tag not in ("UN", "BYE"):
                raise LogFormatError(f"{self.name}: <{tag}> after the game's final result")
            handler = _HANDLERS.get(tag)
            if handler is None:
                continue
            try:
                handler(self, _attributes(rest))
            except MjcliError as exc:
                if str(exc).startswith(self.name):
                    raise
                raise self.fail(str(exc)) from None
            except (KeyError, ValueError, IndexError) as exc:
                raise self.fail(f"malformed <{_short_tag(body)}> ({malformed(exc)})") from None
        if not seen_root:
            raise LogFormatError(f"{self.name}: no <mjloggm> root tag (not a Tenhou mjlog)")
        problem = None
        if not self.ended:
            if self.start is None and not self.events:
                problem = "the log has no rounds"
            elif self.round_over:
                problem = (
                    f"the log ends after round {start_label(self.start)} without the game's final result"
                )
            else:
                problem = f"the log ends inside round {start_label(self.start)} (the round has no outcome)"
            if tail:
                problem += " (the file is cut inside a tag)"
            self.close_round()
        return GameLog(
            path=self.name,
            format=TENHOU_XML,
            game_id=game_id_from_name(self.name),
            events=self.events,
            complete=problem is None,
            problem=problem,
        )


_HANDLERS = {
    "GO": _Reader.on_go,
    "UN": _Reader.on_un,
    "INIT": _Reader.on_init,
    "N": _Reader.on_call,
    "REACH": _Reader.on_reach,
    "DORA": lambda self, a: self.emit(NewDora(self.tile(int(a["hai"])))),
    "AGARI": _Reader.on_agari,
    "RYUUKYOKU": _Reader.on_ryuukyoku,
}


def read_tenhou_xml(data: bytes, name: str = "<mjlog>", normalise_dora: bool = True) -> list[GameLog]:
    """Read one mjlog (plain or gzip) into a one-game list.

    ``normalise_dora=False`` keeps Tenhou's own DORA positions (tests check they follow the rule).
    """
    return [_Reader(name, normalise_dora).run(_decode(maybe_gunzip(data, name), name))]


def _short_tag(body: str) -> str:
    return body if len(body) <= 60 else body[:57] + "..."


def _attributes(rest: str) -> dict[str, str]:
    """A tag's attributes by name."""
    if "'" not in rest:
        return dict(_ATTR.findall(rest))
    return {k: a if a or not b else b for k, a, b in _ATTR_ANY_QUOTE.findall(rest)}


def _decode(data: bytes, name: str) -> str:
    """UTF-8 (what Tenhou serves: names are %-escaped, the rest is ASCII), or the encoding an XML
    declaration names (saved copies of old logs may say Shift_JIS)."""
    m = re.match(rb'\s*<\?xml[^>]*encoding=["\']([A-Za-z0-9_.-]+)["\']', data[:200])
    if m is not None:
        encoding = m.group(1).decode("ascii")
        try:
            return data.decode(encoding)
        except LookupError:
            raise LogFormatError(f"{name}: unknown text encoding '{encoding}'") from None
        except UnicodeDecodeError as exc:
            raise LogFormatError(f"{name}: not {encoding} text (byte {exc.start})") from None
    return decode_text(data, name)
