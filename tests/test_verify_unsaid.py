"""verify on what real logs leave unsaid or say their own way (found on other projects' logs).

- an mjai ``hora`` with no ura field at all (mjai-reviewer's convlog before 2021-11-27), or a
  tenhou.net/6 round with an empty ura list: the fewest ura dora that give the recorded deltas;
- a tenhou.net/6 ``rule`` with ``"aka":0`` beside ``"aka51".."aka53":1`` (mjai-reviewer's reports);
- an mjai ``start_game`` that does not say the game's length (gimite, Mortal, mjaigym): the rules
  given say it, else an East-only end makes it an East-only game;
- other JSON with a ``type`` key is not mjai; ``.txt`` files in a folder are logs when they start
  as one.

Every log here is a real one read in place from ``../shared/logs`` or ``fixtures/logs``, edited in
memory to drop what the other writers leave out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared import LOGS
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import LogFormatError
from mjcli.riichi.formats import is_log_file, read_bytes, read_log, write_game
from mjcli.riichi.verify import MISMATCH, OK, verify_log

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "logs"
URA_KEYS = ("ura_markers", "uradora_markers", "uradora_marker")
#: real games with riichi wins that hit ura dora: two ura dora, a double ron with ura on one winner,
#: ura dora beside red fives, a Mortal-written mjai log
URA_LOGS = [
    LOGS / "tenhou-xml" / "2018010702gm-00a9-0000-5dd4f9b4.mjlog",
    LOGS / "tenhou-xml" / "double-ron.mjlog",
    LOGS / "tenhou-xml" / "2011020417gm-00a9-0000-b67fcaa3.mjlog",
    LOGS / "mjai" / "example_before_injection.jsonl",
]
runner = CliRunner()


def _mjai_objs(path: Path) -> list[dict]:
    (game,) = read_log(path)
    return [json.loads(x) for x in write_game(game, "mjai").splitlines()]


def _mjai(objs: list[dict]) -> bytes:
    return ("\n".join(json.dumps(o) for o in objs) + "\n").encode()


def _deltas_only(objs: list[dict]) -> list[dict]:
    """Every ``hora`` as mjai-reviewer's old convlog wrote it: who won, from whom, the deltas."""
    for o in objs:
        if o["type"] == "hora":
            for k in (*URA_KEYS, "fan", "fu", "hora_points", "yakus"):
                o.pop(k, None)
    return objs


@pytest.mark.parametrize("path", URA_LOGS, ids=lambda p: p.name)
def test_a_riichi_win_without_its_ura_indicators_takes_the_ura_its_deltas_need(path):
    (original,) = read_log(path)
    want = verify_log(original)
    assert want.status == OK
    assert any("ura_dora" in row.yaku for row in want.rows)  # the game has ura dora to find
    (game,) = read_bytes(_mjai(_deltas_only(_mjai_objs(path))), "convlog.jsonl")
    got = verify_log(game)
    assert got.status == OK, [str(m) for m in got.mismatches]
    # round by round the same payments, fu and yaku; the ura dora as many as the real ones or fewer
    # where fewer pay the same (a haneman of 6 han for one of 7: the deltas cannot tell them apart)
    assert [r.engine_deltas for r in got.rows] == [r.engine_deltas for r in want.rows]
    for g, w in zip(got.rows, want.rows, strict=True):
        assert g.fu == w.fu and _without_ura(g.yaku) == _without_ura(w.yaku)
        assert all(h <= x and (h == x or h >= 6 or x >= 5) for h, x in zip(g.han, w.han, strict=True))


def _without_ura(yaku: str) -> list[str]:
    return [y for y in yaku.replace(" | ", ",").split(",") if not y.startswith("ura_dora")]


def test_unknown_ura_still_catches_deltas_no_ura_count_gives():
    objs = _deltas_only(_mjai_objs(URA_LOGS[0]))
    hora = next(o for o in objs if o["type"] == "hora")
    hora["deltas"] = [d * 3 for d in hora["deltas"]]  # no count of ura dora pays three times over
    report = verify_log(read_bytes(_mjai(objs), "x.jsonl")[0])
    assert report.status == MISMATCH
    assert f"seat {hora['actor']} deltas" in [m.what for m in report.mismatches]


def test_an_empty_ura_field_says_none_and_is_held_to_it():
    # the field given empty is a claim (no ura dora hit), not an unknown: the deltas then mismatch
    objs = _mjai_objs(URA_LOGS[0])
    for o in objs:
        if o["type"] == "hora":
            o["ura_markers"] = []
    assert verify_log(read_bytes(_mjai(objs), "x.jsonl")[0]).status == MISMATCH


@pytest.mark.parametrize("fmt", ["mjai", "tenhou6"])
def test_convert_keeps_unknown_ura_unknown(fmt):
    (game,) = read_bytes(_mjai(_deltas_only(_mjai_objs(URA_LOGS[0]))), "convlog.jsonl")
    text = write_game(game, fmt)
    if fmt == "mjai":  # left out as the source did, not written as an empty (false) claim
        assert not any(k in text for k in URA_KEYS)
    (again,) = read_bytes(text.encode(), f"again.{fmt}")
    assert verify_log(again).status == OK


def test_tenhou6_red_fives_are_on_when_any_aka_key_says_so():
    # mjai-reviewer writes tensoul's rule back with all four keys: "aka":0 beside aka51-53 = 1
    path = LOGS / "tenhou-xml" / "2011020416gm-00a9-0000-025480d4.mjlog"  # a win with a red five
    obj = json.loads(write_game(read_log(path)[0], "tenhou6"))
    assert verify_log(read_bytes(json.dumps(obj).encode(), "t6.json")[0]).status == OK
    for rule, red in (
        ({"aka": 0, "aka51": 1, "aka52": 1, "aka53": 1}, True),
        ({"aka": 1}, True),
        ({"aka51": 0, "aka52": 1, "aka53": 0}, True),
        ({"aka": 0, "aka51": 0, "aka52": 0, "aka53": 0}, False),
        ({"aka": 0}, False),
    ):
        obj["rule"] = {"disp": "般南喰赤", **rule}
        (game,) = read_bytes(json.dumps(obj).encode(), "t6.json")
        assert game.events[0].rules.red_fives is red, rule
        assert (verify_log(game).status == OK) is red, rule  # the game has a red five in a win


EAST_ONLY = FIXTURES / "2009031702gm-00a1-0000-336ee82a.mjlog"  # a real East-only game of 2009


def _east_only_without_length() -> list[dict]:
    objs = _mjai_objs(EAST_ONLY)
    start = objs[0]
    assert start["type"] == "start_game" and start["rules"]["length"] == "tonpuu"
    del start["rules"]  # gimite's and Mortal's start_game carry no rules
    return objs


def test_an_mjai_game_that_does_not_say_its_length_ends_where_it_ends(tmp_path):
    log = tmp_path / "east.jsonl"
    log.write_bytes(_mjai(_east_only_without_length()))
    report = verify_log(read_log(log)[0])
    assert report.status == OK, [str(m) for m in report.mismatches]
    # played as the mjlog is, East-only uma of 2009 included (its final points are whole, +10/+5)
    want = verify_log(read_log(EAST_ONLY)[0])
    assert report.points_rule == want.points_rule
    end = "East-only: the log does not say, and ends where only an East-only game ends"
    assert report.rules == f"{want.rules[:-1]}; {end})"
    # without final points to fit, the East-only game's uma of its era is still the one played
    objs = _east_only_without_length()
    objs[-1].pop("points", None)
    bare = verify_log(read_bytes(_mjai(objs), "east.jsonl")[0])
    assert bare.status == OK and "uma=(10, 5, -5, -10)" in bare.rules
    # an East-only preset given says the length; a plain one (hanchan by default) leaves it open
    for preset in ("tenhou-tonpuu", "tenhou"):
        r = runner.invoke(app, ["verify", str(log), "--rules", preset, "--json"])
        label = json.loads(r.stdout.splitlines()[0])["rules"]
        assert r.exit_code == 0 and ("length=tonpuu" in label or label.startswith("tenhou-tonpuu")), preset
    # an East-only preset on a game that goes on into South: its end is then a mismatch
    (hanchan,) = read_log(LOGS / "tenhou-xml" / "2011020417gm-00a9-0000-b67fcaa3.mjlog")
    objs = [json.loads(x) for x in write_game(hanchan, "mjai").splitlines()]
    del objs[0]["rules"]
    (tmp_path / "south.jsonl").write_bytes(_mjai(objs))
    r = runner.invoke(app, ["verify", str(tmp_path / "south.jsonl"), "--rules", "tenhou-tonpuu"])
    assert r.exit_code == 1 and "the game is over" in r.stdout


def test_an_mjai_hanchan_that_does_not_say_its_length_is_still_a_hanchan():
    objs = _mjai_objs(LOGS / "tenhou-xml" / "2011020417gm-00a9-0000-b67fcaa3.mjlog")
    del objs[0]["rules"]
    report = verify_log(read_bytes(_mjai(objs), "x.jsonl")[0])
    assert report.status == OK and report.rules == "tenhou-integer"  # 2011: whole final points
    # cut after East 4: a game that ends there though nobody is below zero is no hanchan's end,
    # and is taken for an East-only game only if its end fits one; the final scores still count
    cut = next(i for i, o in enumerate(objs) if o["type"] == "start_kyoku" and o["bakaze"] == "S")
    ended = [*objs[:cut], {"type": "end_game"}]
    report = verify_log(read_bytes(_mjai(ended), "x.jsonl")[0])
    assert report.status == OK  # no final scores: the log claims no end


def test_json_with_a_type_that_is_not_mjai_is_named_so(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"type": 169, "id": ["a", "b"], "log": None}, indent=2))
    other.write_text(json.dumps({"type": 169, "name": ["a", "b"]}, indent=2))
    with pytest.raises(LogFormatError, match="neither tenhou.net/6 .* nor mjai \\(no event 'type' as text"):
        read_log(other)
    # mjai as one JSON array of events, one per line or all on one, is still mjai
    objs = _mjai_objs(URA_LOGS[0])
    for name, text in (
        ("array-lines.json", "[\n" + ",\n".join(json.dumps(o) for o in objs) + "\n]\n"),
        ("array.json", json.dumps(objs)),
    ):
        (tmp_path / name).write_text(text)
        assert verify_log(read_log(tmp_path / name)[0]).status == OK


def test_a_txt_file_in_a_folder_is_a_log_when_it_starts_as_one(tmp_path):
    (game,) = read_log(URA_LOGS[0])
    (tmp_path / "game.txt").write_text("\ufeff" + write_game(game, "tenhou6"), encoding="utf-8")
    (tmp_path / "README.txt").write_text("Games of the club, 2022.\n")
    (tmp_path / "notes.txt").write_text("")
    assert is_log_file(tmp_path / "game.txt")
    assert not is_log_file(tmp_path / "README.txt") and not is_log_file(tmp_path / "notes.txt")
    r = runner.invoke(app, ["verify", str(tmp_path)])
    assert r.exit_code == 0, r.stdout
    assert "game.txt" in r.stdout and "README" not in r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith("1 log: 1 ok")


def test_mahjong_soul_friendly_and_tournament_rooms_are_its_rules_and_say_they_are_the_host_s():
    # tensoul's names for them (convert.js RUNES), Japanese and English, its misspelling included
    from mjcli.riichi.formats.tenhou6 import _rules

    for disp in (
        "大会戦東喰",
        "友人戦南喰赤",
        "三友人戦南喰赤",
        "Tournament South Red Fives",
        "Tounament East",
        "交流の間南喰赤",  # the game's other match modes (its room_name_jp, _en, _chs)
        "赤血の戦東喰赤",
        "Casual Match South",
        "休闲普通场四人南",
    ):
        r = _rules({"rule": {"disp": disp, "aka51": 1}}, 4, [])
        assert r.site == "majsoul" and "a Mahjong Soul room with rules of its own" in r.unknown, disp
    for disp in ("玉の間南喰赤", "Jade Room South", "金之间四人南", "王座间四人东"):  # ranked: known
        ranked = _rules({"rule": {"disp": disp, "aka51": 1, "aka52": 1, "aka53": 1}}, 4, [])
        assert ranked.site == "majsoul" and not ranked.unknown and ranked.open_tanyao, disp
    assert _rules({"rule": {"disp": "般南赤"}}, 4, []).open_tanyao is False  # Tenhou's line says 喰
    four_reds = _rules({"rule": {"disp": "友人戦南喰赤", "aka51": 1, "aka52": 2, "aka53": 1}}, 4, [])
    assert "more than one red five of a suit" in four_reds.unknown
    # a real game's record written as tensoul writes a tournament game: it fits Mahjong Soul's
    # preset (ok); with a start of its own it is an ERROR naming the rules, never a MISMATCH
    (game,) = read_log(LOGS / "tenhou-xml" / "2011020417gm-00a9-0000-b67fcaa3.mjlog")
    obj = json.loads(write_game(game, "tenhou6"))
    obj["rule"] = {"disp": "大会戦南喰赤", "aka51": 1, "aka52": 1, "aka53": 1}
    obj.pop("ref", None)
    report = verify_log(read_bytes(json.dumps(obj).encode(), "tournament.json")[0])
    assert report.status != MISMATCH and report.rules.startswith("majsoul")
    assert report.status == OK or "a Mahjong Soul room with rules of its own" in (report.error or "")


def test_a_log_without_payments_converts_to_tenhou6_without_made_up_ones():
    # akochan's bare hora ({"actor", "target", "type"}) and a ryukyoku without deltas: written as
    # null (zeros read back as recorded payments, and the converted log failed to verify)
    objs = _mjai_objs(URA_LOGS[0])
    for o in objs:
        if o["type"] in ("hora", "ryukyoku"):
            for k in ("deltas", "scores", "fan", "fu", "hora_points", "yakus"):
                o.pop(k, None)
    for o in objs:
        if o["type"] == "start_game":
            o["names"] = []
    (game,) = read_bytes(_mjai(objs), "bare.jsonl")
    assert verify_log(game).status == OK
    obj = json.loads(write_game(game, "tenhou6"))
    assert obj["name"] == ["", "", "", ""]
    results = [r[-1] for r in obj["log"]]
    assert all(res[1] is None for res in results if res[0] in ("和了", "流局"))
    assert verify_log(read_bytes(json.dumps(obj).encode(), "again.json")[0]).status == OK


def test_a_tenhou6_round_error_names_its_place_once():
    (game,) = read_log(URA_LOGS[0])
    obj = json.loads(write_game(game, "tenhou6"))
    first = obj["log"][0]
    first[6] = []  # the dealer's discards gone: a win on a tile nobody discarded, or a draw out of turn
    with pytest.raises(LogFormatError) as err:
        read_bytes(json.dumps(obj).encode(), "cut.json")
    assert str(err.value).count("cut.json") == 1 and str(err.value).count("round E1-0") == 1


def test_a_tenhou6_round_without_a_dora_indicator_is_named():
    # a converter's pro-league log (zhengye1/paipuconverter) left the dora list empty from its second
    # round on: the error said only "a list is shorter than the format requires", naming no round
    (game,) = read_log(URA_LOGS[0])
    obj = json.loads(write_game(game, "tenhou6"))
    obj["log"][1][2] = []
    idx, honba = obj["log"][1][0][:2]
    label = f"{'ESWN'[idx // 4]}{idx % 4 + 1}-{honba}"
    with pytest.raises(LogFormatError) as err:
        read_bytes(json.dumps(obj).encode(), "nodora.json")
    assert f"round {label}: no dora indicator" in str(err.value) and str(err.value).count("nodora.json") == 1


@pytest.mark.parametrize("fmt", ["mjai", "tenhou6"])
def test_every_shared_mjlog_without_its_ura_indicators_verifies_as_with_them(fmt):
    # the made-up indicators never hold a fifth copy of a tile (they made real games illegal), and
    # where several ura counts pay the same, the one the log's yaku list names is taken
    for path in sorted((LOGS / "tenhou-xml").glob("*.mjlog")):
        (game,) = read_log(path)
        want = verify_log(game)
        text = write_game(game, fmt)
        if fmt == "mjai":
            objs = [json.loads(x) for x in text.splitlines()]
            for o in objs:
                if o["type"] == "hora":
                    o.pop("ura_markers", None)
            data = _mjai(objs)
        else:
            obj = json.loads(text)
            for r in obj["log"]:
                r[3] = []
            data = json.dumps(obj).encode()
        got = verify_log(read_bytes(data, f"noura.{fmt}")[0])
        assert got.status == want.status, (path.name, [str(m) for m in got.mismatches])
        assert [(r.han, r.fu, r.yaku) for r in got.rows] == [(r.han, r.fu, r.yaku) for r in want.rows], (
            path.name
        )


def test_a_missing_path_named_twice_is_still_a_mistyped_command_line(tmp_path):
    gone = str(tmp_path / "nope.json")
    for args in (["verify", gone, gone], ["replay", gone, str(tmp_path / "." / "nope.json")]):
        r = runner.invoke(app, args)
        assert r.exit_code != 0 and "does not exist" in str(r.exception), args


def test_tensoul_s_english_yaku_names_are_read():
    # Mahjong Soul's name_en of its standard yaku, as tensoul writes them into English logs (a hunt
    # found two English tensoul logs stopping at "unknown yaku name 'Seat Wind'" and "'Kita'")
    from mjcli.riichi.formats.yaku_names import name_to_canonical

    for name, canonical in {
        "Half Outside Hand": "chantai",
        "Fully Outside Hand": "junchan",
        "Kita": "dora",
        "Four Little Winds": "shosuushi",
        "Four Big Winds": "daisuushi",
        "Eight-time East Staying": "paarenchan",
        "Single-wait Four Concealed Triplets": "suuankou_tanki",
        "Thirteen-wait Thirteen Orphans": "daburu_kokushi",
    }.items():
        assert name_to_canonical(name) == canonical, name
    # the winds that say not which: from the winner's seat and the round
    assert name_to_canonical("Seat Wind", seat_wind=3, round_wind=0) == "seat_wind_north"
    assert name_to_canonical("Prevalent Wind", seat_wind=3, round_wind=1) == "round_wind_south"


def test_a_tenhou6_seat_wind_is_the_winner_s_whatever_wind_its_converter_named():
    # Mahjong Soul records a seat-wind yaku by number only (fan 10); tensoul-py-ng named the wind
    # from the round's number (WIND[kyoku - 1]): a pantheon test log says 自風 西 for a North seat
    # at East 4, a false yaku MISMATCH (zhengye1/paipuconverter's pro-league logs: 自風 南 for a
    # West seat). A real Tenhou game written that way (its East 3-1 win with 自風 北 relabelled
    # 自風 南), under a Mahjong Soul room's name and under another converter's: no yaku differs.
    # A seat-wind yaku the hand does not have is still a mismatch.
    (game,) = read_log(LOGS / "tenhou-xml" / "2011020416gm-00a9-0000-025480d4.mjlog")
    obj = json.loads(write_game(game, "tenhou6"))
    obj.pop("ref", None)
    relabelled = 0
    for r in obj["log"]:
        res = r[-1]
        for i in range(2, len(res), 2):
            for j, y in enumerate(res[i]):
                if isinstance(y, str) and y.startswith("自風") and r[0][0] <= 4:
                    res[i][j] = "自風 " + "北東南西"[r[0][0] - 1] + y[len("自風 X") :]
                    relabelled += res[i][j] != y
    assert relabelled == 1
    for disp in ("玉の間南喰赤", "第39期十段位決定戦6"):
        obj["rule"] = {"disp": disp, "aka51": 1, "aka52": 1, "aka53": 1}
        report = verify_log(read_bytes(json.dumps(obj).encode(), "relabelled.json")[0])
        assert not [str(m) for m in report.mismatches if "yaku" in str(m)], disp
    # a seat-wind yaku added to a win whose hand has none: still a yaku mismatch
    obj["rule"] = {"disp": "鳳南喰赤", "aka51": 1, "aka52": 1, "aka53": 1}
    plain = [r[-1][2] for r in obj["log"] if r[-1][0] == "和了" and not any("風" in y for y in r[-1][2][4:])]
    win = plain[0]
    win.append("自風 東(1飜)")
    report = verify_log(read_bytes(json.dumps(obj).encode(), "added.json")[0])
    assert any("yaku" in str(m) and "seat_wind" in str(m) for m in report.mismatches)
