"""Format details: meld codes, GO bits, gzip, the 2009 form, corrupt and cut files, call strings,
result texts, the classic mjai dialect, detection and batches."""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import LOGS, log_files

from mjcli.errors import LogFormatError, UnsupportedError
from mjcli.riichi.engine.events import (
    FOUR_RIICHI,
    NINE_TERMINALS,
    ClosedKan,
    Discard,
    Draw,
    GameRules,
    Nukidora,
    Pon,
    RoundDraw,
    StartGame,
    StartRound,
    Win,
)
from mjcli.riichi.formats import GameLog, detect_format, read_bytes, read_log, read_logs, write_game
from mjcli.riichi.formats import meld_codes as mc
from mjcli.riichi.formats.tenhou6 import _parse_points, _points_text, parse_call
from mjcli.riichi.formats.tenhou_xml import go_from_rules, rules_from_go

GAME = LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog"

# ---------------------------------------------------------------- meld codes


def test_known_meld_code_from_a_real_log() -> None:
    # game 2010081709: seat 3 pons North from seat 0 (tenhou6 copy: "4444p44")
    m = mc.decode_meld(46185)
    assert m.kind == mc.PON and m.offset == 1 and {t // 4 for t in m.tiles} == {30}
    assert m.called in m.tiles and len(m.consumed) == 2


chis = st.builds(
    lambda suit, start, copies, called, offset: mc.MeldCode(
        mc.CHI,
        offset,
        tuple((suit * 9 + start + i) * 4 + copies[i] for i in range(3)),
        (suit * 9 + start + called) * 4 + copies[called],
    ),
    st.integers(0, 2),
    st.integers(0, 6),
    st.tuples(*[st.integers(0, 3)] * 3),
    st.integers(0, 2),
    st.integers(1, 3),
)


def _pon(kind: int, unused: int, called: int, offset: int) -> mc.MeldCode:
    tiles = tuple(kind * 4 + c for c in range(4) if c != unused)
    return mc.MeldCode(mc.PON, offset, tiles, tiles[called])


def _kakan(kind: int, unused: int, called: int, offset: int) -> mc.MeldCode:
    pon = tuple(kind * 4 + c for c in range(4) if c != unused)
    return mc.MeldCode(
        mc.ADDED_KAN, offset, tuple(range(kind * 4, kind * 4 + 4)), pon[called], kind * 4 + unused
    )


args = (st.integers(0, 33), st.integers(0, 3), st.integers(0, 2), st.integers(1, 3))
pons = st.builds(_pon, *args)
kakans = st.builds(_kakan, *args)
daiminkans = st.builds(
    lambda k, c, o: mc.MeldCode(mc.OPEN_KAN, o, tuple(range(k * 4, k * 4 + 4)), k * 4 + c),
    st.integers(0, 33),
    st.integers(0, 3),
    st.integers(1, 3),
)
ankans = st.builds(
    lambda k: mc.MeldCode(mc.CLOSED_KAN, 0, tuple(range(k * 4, k * 4 + 4)), None), st.integers(0, 33)
)


@given(st.one_of(chis, pons, kakans, daiminkans, ankans))
def test_meld_codes_round_trip(meld: mc.MeldCode) -> None:
    code = mc.encode_meld(meld)
    assert 0 <= code < 1 << 16
    assert mc.decode_meld(code) == meld


@given(st.integers(0, (1 << 16) - 1))
def test_every_code_decodes_to_a_meld_or_a_format_error(code: int) -> None:
    try:
        m = mc.decode_meld(code)
    except LogFormatError:
        return
    assert all(0 <= t < 136 for t in m.tiles)
    if m.kind in (mc.CHI, mc.PON):
        assert len(m.tiles) == 3 and m.called in m.tiles
    if m.kind == mc.CHI:
        kinds = [t // 4 for t in m.tiles]
        assert kinds[1] == kinds[0] + 1 and kinds[2] == kinds[0] + 2 and kinds[0] // 9 == kinds[2] // 9 < 3


# ---------------------------------------------------------------- XML


def test_go_type_bits() -> None:
    assert rules_from_go(169) == GameRules(4, True, True, "hanchan")
    assert rules_from_go(0x01) == GameRules(4, True, True, "tonpuu")
    assert rules_from_go(0x01 | 0x02 | 0x04) == GameRules(4, False, False, "tonpuu")
    assert rules_from_go(0x19).players == 3
    for rules in (GameRules(), GameRules(3, False, False, "tonpuu"), GameRules(4, True, False, "hanchan")):
        assert rules_from_go(go_from_rules(rules)) == rules


def test_gzip_is_detected_by_content_not_name() -> None:
    plain = GAME.read_bytes()
    packed = gzip.compress(plain)
    assert detect_format(packed, "x.json") == "tenhou_xml"
    (a,) = read_bytes(plain, "same.mjlog")
    (b,) = read_bytes(packed, "same.mjlog")
    assert a.events == b.events


def test_older_2009_form_reads_the_same() -> None:
    """The 2009 form: no SHUFFLE tag, the seed as a ``shuffle`` attribute on INIT, no lobby on GO."""
    text = GAME.read_text()
    old = re.sub(r"<SHUFFLE[^>]*/>", "", text).replace(' lobby="0"', "")
    old = old.replace("<INIT ", '<INIT shuffle="mt19937ar,0" ', 1)
    assert "<SHUFFLE" not in old
    (a,) = read_bytes(text.encode(), "g.mjlog")
    (b,) = read_bytes(old.encode(), "g.mjlog")
    assert a.events == b.events


def test_no_red_fives_and_east_only_from_go_bits() -> None:
    text = GAME.read_text().replace('<GO type="169"', '<GO type="7"')  # vs humans, no red, no kuitan, east
    (g,) = read_bytes(text.encode(), "g.mjlog")
    assert g.rules == GameRules(4, False, False, "tonpuu")
    tiles = [t for e in g.events if isinstance(e, Draw | Discard) for t in [e.tile]]
    assert tiles and max(t for t in tiles if t is not None) < 34


@pytest.mark.parametrize(
    "data, why",
    [
        (b"", "empty"),
        (b"hello world", "not a game log"),
        (b"<html><body>no</body></html>", "not a Tenhou mjlog"),
        (b'<mjloggm ver="2.3"><GO type="169"/>garbage<INIT/></mjloggm>', "unexpected text"),
        (
            b'<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0,0" ten="250,250,250,250" oya="0"/>'
            b"</mjloggm>",
            "seed",
        ),
        (b"\x1f\x8b\x08\x00broken", "gzip"),
        (b'{"log": [[[0,0,0]', "not valid JSON"),
        (b'{"foo": 1}', "neither"),
        (b'{"type":"tsumo","actor":0,"pai":"1m"}\n', "start_game"),
    ],
)
def test_not_a_log_raises_log_format_error_naming_the_file(data: bytes, why: str) -> None:
    with pytest.raises(LogFormatError, match=re.escape("bad.log")) as info:
        read_bytes(data, "bad.log")
    assert why in str(info.value)
    assert "\n" not in str(info.value)


def test_impossible_tile_moves_are_reported_with_the_round() -> None:
    text = GAME.read_text().replace("<D120/>", "<D21/>", 1)  # seat 0 holds no 6m
    with pytest.raises(
        LogFormatError, match=r"g\.mjlog: round E1-0: seat 0 plays 6m, which is not in the hand"
    ):
        read_bytes(text.encode(), "g.mjlog")
    # the same corruption in a tenhou.net/6 file
    (g,) = read_log(GAME)
    t6 = json.loads(write_game(g, "tenhou6"))
    t6["log"][0][6][0] = 16  # seat 0's first discard: 6m instead of North
    with pytest.raises(LogFormatError, match=r"g\.json.*round E1-0"):
        read_bytes(json.dumps(t6).encode(), "g.json")


@settings(max_examples=60, deadline=None)
@given(st.floats(0.0, 1.0))
def test_a_log_cut_anywhere_reads_as_incomplete_or_fails_cleanly(frac: float) -> None:
    data = GAME.read_bytes()
    cut = data[: min(int(len(data) * frac), len(data) - 20)]
    try:
        result = read_bytes(cut, "cut.mjlog")
    except LogFormatError:
        return
    (g,) = result
    assert not g.complete and g.problem
    if not g.events:
        assert "no rounds" in g.problem
        return
    (full,) = read_bytes(data, "cut.mjlog")
    # everything read is the full game's beginning, except possibly the last round's dora order
    k = max(len(g.events) - 3, 0)
    assert g.events[:k] == full.events[:k]


THREE_PLAYER = """<mjloggm ver="2.3"><GO type="185" lobby="0"/><UN n0="%41" n1="%42" n2="%43" n3=""/>
<TAIKYOKU oya="0"/><INIT seed="0,0,0,1,1,10" ten="350,350,350,0" oya="0"
hai0="120,4,8,12,16,20,24,28,32,36,40,44,48" hai1="1,5,9,13,17,21,25,29,33,37,41,45,49"
hai2="2,6,10,14,18,22,26,30,34,38,42,46,50" hai3=""/><T60/><N who="0" m="30752" /><T61/><D61/>
<U62/><E62/></mjloggm>"""


def test_three_player_logs_are_read() -> None:
    (g,) = read_bytes(THREE_PLAYER.encode(), "sanma.mjlog")
    assert g.rules.players == 3 and g.start is not None and g.start.names == ("A", "B", "C")
    start = next(e for e in g.events if isinstance(e, StartRound))
    assert len(start.hands) == 3 and start.scores == (35000, 35000, 35000)
    kita = next(e for e in g.events if isinstance(e, Nukidora))
    assert kita.actor == 0 and kita.tile == 30
    draws = [e for e in g.events if isinstance(e, Draw)]
    assert [d.rinshan for d in draws] == [False, True, False]
    assert not g.complete


# ---------------------------------------------------------------- tenhou.net/6


@pytest.mark.parametrize(
    "text, letter, called, codes",
    [
        ("c131415", "c", 13, (13, 14, 15)),
        ("p434343", "p", 43, (43, 43, 43)),
        ("43p4343", "p", 43, (43, 43, 43)),
        ("2552p25", "p", 25, (25, 52, 25)),
        ("252552m25", "m", 25, (25, 25, 52, 25)),
        ("m39393939", "m", 39, (39, 39, 39, 39)),
        ("3636k3636", "k", 36, (36, 36, 36, 36)),
        ("k51151515", "k", 15, (51, 15, 15, 15)),
        ("161616a16", "a", 16, (16, 16, 16, 16)),
    ],
)
def test_call_strings(text: str, letter: str, called: int, codes: tuple[int, ...]) -> None:
    call = parse_call(text)
    assert call.letter == letter and call.codes == codes
    if letter != "a":
        assert call.called == called


@pytest.mark.parametrize("bad", ["x131415", "p4343", "c1314151", "", "1313"])
def test_bad_call_strings(bad: str) -> None:
    with pytest.raises(LogFormatError):
        parse_call(bad)


def test_result_texts() -> None:
    assert _parse_points("30符1飜1000点", 4, False) == (30, 1, 1000)
    assert _parse_points("30符2飜500-1000点", 4, True) == (30, 2, 2000)
    assert _parse_points("30符3飜2000点∀", 4, True) == (30, 3, 6000)
    assert _parse_points("満貫2000-4000点", 4, True) == (None, None, 8000)
    assert _parse_points("役満32000点", 4, False) == (None, None, 32000)
    w = Win(0, 0, 1, fu=30, han=2, points=2000, yaku=(("tsumo", 1), ("pinfu", 1)))
    assert _points_text(w, dealer=1, n=4) == "30符2飜500-1000点"
    assert (
        _points_text(dataclasses.replace(w, fu=20, han=4, points=5200), dealer=1, n=4) == "20符4飜1300-2600点"
    )
    assert (
        _points_text(dataclasses.replace(w, fu=None, han=5, points=8000), dealer=1, n=4) == "満貫2000-4000点"
    )
    assert _points_text(dataclasses.replace(w, fu=None, han=6, points=18000), dealer=0, n=4) == "跳満6000点∀"


def test_edge_files_outcomes() -> None:
    edge = LOGS / "tenhou6-edge"
    (g,) = read_log(edge / "double_ron.json")
    wins = [e for e in g.events if isinstance(e, Win)]
    assert len(wins) == 2 and wins[0].target == wins[1].target
    (g,) = read_log(edge / "four_reach.json")
    draw = next(e for e in g.events if isinstance(e, RoundDraw))
    assert draw.reason == FOUR_RIICHI and all(h is not None for h in draw.hands or ())
    (g,) = read_log(edge / "kyushukyuhai.json")
    draw = next(e for e in g.events if isinstance(e, RoundDraw))
    assert draw.reason == NINE_TERMINALS and sum(h is not None for h in draw.hands or ()) == 1
    (g,) = read_log(edge / "suukantsu_1.json")
    assert g.events[-1].scores == (38000, 29000, -24000, 57000)  # type: ignore[union-attr]
    assert g.rules.length == "tonpuu"


def test_confusing_calls_need_the_search() -> None:
    """confusing_nakis_*: a call string that matches an earlier discard must wait for a later one."""
    paths = log_files("tenhou6-edge/confusing_nakis_*.json")
    assert len(paths) == 8
    for path in paths:
        (g,) = read_log(path)
        assert g.complete
        pons = [e for e in g.events if isinstance(e, Pon)]
        assert all(p.actor != p.target for p in pons)


# ---------------------------------------------------------------- mjai


def _classic_round() -> str:
    """A tiny classic-dialect game: dealer wins by tsumo at once (tenhou), with fan/fu/yakus."""
    hand0 = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "P", "P"]
    lines = [
        {"type": "start_game", "names": ["a", "b", "c", "d"]},
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "dora_marker": "9m",
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "scores": [25000] * 4,
            "tehais": [
                hand0,
                ["1m", "1m", "1m", "2p", "2p", "2p", "3s", "3s", "3s", "4s", "4s", "4s", "S"],
                ["6m", "6m", "6m", "7p", "7p", "7p", "8p", "8p", "8p", "9p", "9p", "9p", "W"],
                ["2s", "2s", "2s", "5s", "5s", "5s", "6s", "6s", "6s", "N", "N", "N", "F"],
            ],
        },
        {"type": "tsumo", "actor": 0, "pai": "P"},
        {
            "type": "hora",
            "actor": 0,
            "target": 0,
            "pai": "P",
            "fan": 13,
            "fu": 40,
            "hora_points": 48000,
            "yakus": [["tenho", 13]],
            "deltas": [48000, -16000, -16000, -16000],
            "uradora_markers": ["1s"],
            "hora_tehais": hand0 + ["P"],
            "scores": [73000, 9000, 9000, 9000],
        },
        {"type": "end_kyoku"},
        {"type": "end_game", "scores": [73000, 9000, 9000, 9000]},
    ]
    return "\n".join(json.dumps(x) for x in lines) + "\n"


def test_classic_mjai_dialect() -> None:
    (g,) = read_bytes(_classic_round().encode(), "classic.mjson")
    assert g.complete
    win = next(e for e in g.events if isinstance(e, Win))
    assert win.yaku == (("tenhou", 13),) and win.han == 13 and win.points == 48000
    assert win.fu is None  # above mangan: not recorded canonically
    assert win.ura_markers is None  # not in riichi
    assert win.tile == 31 and len(win.hand or ()) == 14  # P = White
    assert g.events[-1].scores == (73000, 9000, 9000, 9000)  # type: ignore[union-attr]


def test_mjai_draw_reasons_are_inferred() -> None:
    text = _classic_round().splitlines()
    text[3] = json.dumps({"type": "ryukyoku", "deltas": [0, 0, 0, 0]})
    (g,) = read_bytes(("\n".join(text) + "\n").encode(), "m.jsonl")
    draw = next(e for e in g.events if isinstance(e, RoundDraw))
    assert draw.reason == NINE_TERMINALS and draw.hands is not None and draw.hands[0] is not None


def test_mjai_hidden_tiles_are_unsupported() -> None:
    text = _classic_round().splitlines()
    lines = text[:2] + [json.dumps({"type": "tsumo", "actor": 0, "pai": "?"})]
    with pytest.raises(UnsupportedError, match="hidden"):
        read_bytes(("\n".join(lines) + "\n").encode(), "view.jsonl")


# ---------------------------------------------------------------- batches


def test_read_logs_goes_on_past_a_bad_file(tmp_path: Path) -> None:
    (tmp_path / "a.mjlog").write_bytes(GAME.read_bytes())
    (tmp_path / "b.json").write_text("not json at all")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "c.jsonl").write_bytes((LOGS / "mjai" / "126_204_0_mjai.jsonl").read_bytes())
    results = list(read_logs([tmp_path]))
    assert [Path(r.path).name for r in results] == ["a.mjlog", "b.json", "c.jsonl"]
    assert results[0].games and results[0].error is None
    assert not results[1].games and isinstance(results[1].error, LogFormatError)
    assert "b.json" in str(results[1].error)
    assert results[2].games[0].complete


def test_closed_kan_dora_is_revealed_at_once() -> None:
    (g,) = read_log(LOGS / "tenhou6-edge" / "rinshan.json")
    ev = g.events
    i = next(i for i, e in enumerate(ev) if isinstance(e, ClosedKan))
    assert type(ev[i + 1]).__name__ == "NewDora" and isinstance(ev[i + 2], Draw) and ev[i + 2].rinshan


@pytest.mark.parametrize("fmt", ["tenhou6", "mjai"])
def test_three_player_round_trip_in_the_library(fmt: str) -> None:
    (g,) = read_bytes(THREE_PLAYER.encode(), "sanma.mjlog")
    (back,) = read_bytes(write_game(g, fmt).encode(), "sanma.mjlog")
    assert back.events == g.events and back.rules.players == 3


# ---------------------------------------------------------------- robustness

JUNK = st.one_of(
    st.none(),
    st.integers(-5, 70),
    st.text(max_size=6),
    st.lists(st.integers(0, 60), max_size=4),
    st.booleans(),
)


def _paths(obj: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, prefix + (i,))
    return out


def _replace(obj: object, path: tuple, value: object) -> object:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(obj, dict):
        return {k: (_replace(v, rest, value) if k == head else v) for k, v in obj.items()}
    assert isinstance(obj, list)
    return [(_replace(v, rest, value) if i == head else v) for i, v in enumerate(obj)]


EDGE_GAME = json.loads((LOGS / "tenhou6-edge" / "chankan.json").read_text())
EDGE_PATHS = _paths(EDGE_GAME)
MJAI_LINES = [json.loads(x) for x in (LOGS / "mjai" / "126_204_0_mjai.jsonl").read_text().splitlines()[:120]]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(EDGE_PATHS) - 1), JUNK)
def test_damaged_tenhou6_fails_only_with_project_errors(i: int, junk: object) -> None:
    damaged = _replace(EDGE_GAME, EDGE_PATHS[i], junk)
    try:
        games = read_bytes(json.dumps(damaged, ensure_ascii=False).encode(), "damaged.json")
    except (LogFormatError, UnsupportedError) as exc:
        assert "damaged.json" in str(exc)
        return
    _check_damage_read(games, "damaged.json", "tenhou6")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(MJAI_LINES) - 1), st.data(), JUNK)
def test_damaged_mjai_fails_only_with_project_errors(i: int, data: st.DataObject, junk: object) -> None:
    line = MJAI_LINES[i]
    paths = _paths(line)[1:]
    path = data.draw(st.sampled_from(paths)) if paths else ()
    lines = list(MJAI_LINES)
    lines[i] = _replace(line, path, junk)
    text = "\n".join(json.dumps(x) for x in lines) + "\n"
    try:
        games = read_bytes(text.encode(), "damaged.jsonl")
    except (LogFormatError, UnsupportedError) as exc:
        assert "damaged.jsonl" in str(exc)
        return
    _check_damage_read(games, "damaged.jsonl", "mjai")


def _check_damage_read(games: list[GameLog], name: str, fmt: str) -> None:
    """A damage the reader lets through still gives one well-formed game: named after the file,
    saying where it stops if it is cut, and written back in its format it reads as the same events."""
    (g,) = games
    assert g.path == name and g.format == fmt and isinstance(g.events[0], StartGame)
    assert g.complete or g.problem
    (again,) = read_bytes(write_game(g, fmt).encode(), name)
    assert again.events == g.events


#: characters ``str.splitlines`` takes for line ends that a JSON string may hold as they are
ODD_LINE_ENDS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


@pytest.mark.parametrize("fmt", ["mjai", "tenhou6-lines"])
def test_names_with_unicode_line_separators_read_and_write_back(fmt: str) -> None:
    # found by the damaged-log property below: the mjai writer keeps a name's U+0085 as it is,
    # and the reader cut the line there ("line 1 is not JSON")
    name = "a" + ODD_LINE_ENDS + "b"
    if fmt == "mjai":
        lines = [dict(x) for x in MJAI_LINES]
        lines[0] = dict(lines[0], names=[name, "x", "y", "z"])
        data = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
        file, written = "names.jsonl", "mjai"
    else:  # tenhou.net/6, one round per line
        text = (LOGS / "tenhou6" / "2010081709gm-00a9-0000-fe3371ad.json").read_text()
        rounds = [dict(json.loads(line), name=[name, "x", "y", "z"]) for line in text.split("\n") if line]
        assert len(rounds) > 1
        data = "\n".join(json.dumps(r, ensure_ascii=False) for r in rounds) + "\n"
        file, written = "names.json", "tenhou6"
    (g,) = read_bytes(data.encode(), file)
    assert g.start.names[0] == name
    (again,) = read_bytes(write_game(g, written).encode(), file)
    assert again.events == g.events


def test_mjai_cut_inside_the_last_line_is_incomplete() -> None:
    data = (LOGS / "mjai" / "126_204_0_mjai.jsonl").read_bytes()
    (g,) = read_bytes(data[: len(data) // 2], "cut.jsonl")
    assert not g.complete and "cut inside line" in (g.problem or "")


def test_mjai_log_a_game_server_stopped_says_why() -> None:
    # gimite/mjai's server ends a game it stops with {"type":"error","message":...} (mjai-manue-go's
    # sample games, a bot's answer refused mid-round): the log is incomplete, and says why
    lines = (LOGS / "mjai" / "126_204_0_mjai.jsonl").read_text().splitlines()
    cut = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "dahai") + 1
    why = "Error in player 1's response: Unexpected response type 'hora'\nfor a tsumo"
    data = "\n".join([*lines[:cut], json.dumps({"type": "error", "message": why})]) + "\n"
    (g,) = read_bytes(data.encode(), "stopped.jsonl")
    assert not g.complete
    assert "the log ends inside round E1-0" in (g.problem or "")
    assert (
        "the game server stopped it: Error in player 1's response: Unexpected response type 'hora' for"
        in (g.problem or "")
    )


def test_akochan_scores_give_the_deltas() -> None:
    """akochan's hora/ryukyoku may carry the scores after the outcome instead of deltas."""
    (g,) = read_log(GAME)
    lines = []
    for line in write_game(g, "mjai").splitlines():
        o = json.loads(line)
        if o["type"] in ("hora", "ryukyoku"):
            o.pop("deltas")
        lines.append(o)
    # rebuild the scores after each outcome from the events themselves
    scores: list[int] = []
    outcomes = iter(e for e in g.events if isinstance(e, Win | RoundDraw))
    for o in lines:
        if o["type"] == "start_kyoku":
            scores = list(o["scores"])
        elif o["type"] == "reach_accepted":
            scores[o["actor"]] -= 1000
        elif o["type"] in ("hora", "ryukyoku"):
            e = next(outcomes)
            scores = [s + d for s, d in zip(scores, e.deltas, strict=True)]
            o["scores"] = list(scores)
    (back,) = read_bytes(("\n".join(json.dumps(o) for o in lines) + "\n").encode(), g.path)
    assert back.events == g.events


def test_xml_declaration_encoding_is_honoured() -> None:
    text = GAME.read_text().replace("%E5%8F%8D%E9%99%BD%E5%AD%90%E3%81%95%E3%82%93", "反陽子さん")
    sjis = ('<?xml version="1.0" encoding="Shift_JIS"?>' + text).encode("cp932")
    (a,) = read_bytes(sjis, "old.mjlog")
    (b,) = read_bytes(GAME.read_bytes(), "old.mjlog")
    assert a.events == b.events and a.start is not None and a.start.names[0] == "反陽子さん"


def test_mahjong_soul_converter_spellings() -> None:
    """tensoul (Mahjong Soul -> tenhou.net/6) writes 四開槓/三家和, English limit names and
    "役牌:自風牌"; they read as Tenhou's own names do."""
    obj = json.loads((LOGS / "tenhou6-edge" / "rinshan.json").read_text())
    (plain,) = read_bytes(json.dumps(obj).encode(), "r.json")
    info = obj["log"][0][-1][2]
    info[3] = info[3].replace("満貫", "Mangan ")
    (english,) = read_bytes(json.dumps(obj).encode(), "r.json")
    assert english.events == plain.events


def test_unspecific_wind_yaku_names_resolve_from_the_seat() -> None:
    path = LOGS / "tenhou6" / "2010081709gm-00a9-0000-fe3371ad.json"
    lines = path.read_text().splitlines()
    assert "自風 南(1飜)" in lines[0]
    lines[0] = lines[0].replace("自風 南(1飜)", "役牌:自風牌(1飜)")
    (plain,) = read_log(path)
    (generic,) = read_bytes(("\n".join(lines) + "\n").encode(), str(path))
    assert generic.events == plain.events


# ---------------------------------------------------------------- tenpai, checked against the mahjong library

hands14 = st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(
    lambda h: max(h.count(k) for k in set(h)) <= 4
)


@settings(max_examples=400, deadline=None)
@given(hands14)
def test_complete_hands_agree_with_the_mahjong_library(hand: list[int]) -> None:
    from mahjong.agari import Agari

    from mjcli.riichi.engine.waits import is_complete
    from mjcli.tiles import counts34

    counts = counts34(hand)
    assert is_complete(list(counts)) == Agari().is_agari(counts)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8]), min_size=14, max_size=14).filter(
        lambda h: max(h.count(k) for k in set(h)) <= 4
    )
)
def test_complete_one_suit_hands_agree_with_the_mahjong_library(hand: list[int]) -> None:
    """One suit makes complete hands common, so both answers get exercised."""
    from mahjong.agari import Agari

    from mjcli.riichi.engine.waits import is_complete
    from mjcli.tiles import counts34

    counts = counts34(hand)
    assert is_complete(list(counts)) == Agari().is_agari(counts)


def test_several_games_in_one_file() -> None:
    one = (LOGS / "mjai" / "example_before_injection.jsonl").read_bytes()
    two = one + (LOGS / "mjai" / "126_204_0_mjai.jsonl").read_bytes()
    games = read_bytes(two, "two.jsonl")
    assert len(games) == 2 and all(g.complete for g in games)
    from mjcli.riichi.formats import write_games as convert_games

    back = read_bytes(convert_games(games, "tenhou6").encode(), "two.json")
    assert [g.events for g in back] == [g.events for g in games]
    back = read_bytes(convert_games(games, "mjai").encode(), "two.jsonl")
    assert [g.events for g in back] == [g.events for g in games]


def test_tenhou6_one_round_per_line_cut_inside_a_line() -> None:
    data = (LOGS / "tenhou6" / "2010081709gm-00a9-0000-fe3371ad.json").read_bytes()
    lines = data.split(b"\n")
    cut = b"\n".join(lines[:3]) + b"\n" + lines[3][:100]
    (g,) = read_bytes(cut, "cut.json")
    assert not g.complete and "cut inside line 4" in (g.problem or "")
    assert sum(isinstance(e, StartRound) for e in g.events) == 3


def test_reader_table_records_open_kans_and_no_sets_for_a_chi() -> None:
    """The readers' table tells a chi from a pon or open kan after taking the called tiles: an open
    kan counts toward four kans (a draw's unrecorded reason), a chi adds no set of a kind."""
    from mjcli.riichi.engine.events import Chi, OpenKan
    from mjcli.riichi.formats.rounds import Table

    hands = (
        (0, 1, 2, 4, 4, 4, 9, 10, 11, 18, 19, 20, 27),
        (5, 6, 12, 13, 14, 21, 22, 23, 28, 28, 28, 29, 30),
        (3, 3, 7, 8, 15, 16, 17, 24, 25, 26, 31, 28, 32),
        (3, 3, 7, 8, 15, 16, 17, 24, 25, 26, 31, 31, 32),
    )
    table = Table(StartRound(0, 1, 0, 0, 0, 33, (25000,) * 4, hands), "test")
    table.apply(Discard(0, 4, False))  # 5m
    table.apply(Chi(1, 0, 4, (5, 6)))  # 6m 7m
    table.apply(Discard(1, 29, False))
    table.apply(Discard(2, 28, False))
    table.apply(OpenKan(1, 2, 28, (28, 28, 28)))
    assert table.kans == [1]
    assert table.meld_sets[1] == [28]


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=20),
        st.tuples(
            st.sampled_from(["", " ", "\ufeff", "x"]),
            _JSON_VALUES.map(json.dumps),
            st.sampled_from(["", " ", "\t\r", "\u00a0", "x", "{}", ","]),
        ).map("".join),
    )
)
def test_mjai_line_parser_is_json_loads(line: str) -> None:
    """The mjai reader's fast line parser gives json.loads' value or its very error."""
    from mjcli.riichi.formats.mjai import _loads

    def outcome(f: object) -> str:
        try:
            return repr(("ok", f(line)))  # type: ignore[operator]
        except Exception as exc:
            return repr((type(exc).__name__, str(exc)))

    assert outcome(_loads) == outcome(json.loads)
