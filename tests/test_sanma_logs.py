"""Three-player logs: the real Tenhou games of ``fixtures/sanma`` verify round by round, final result
included; every format reads and writes them; replay, advise and simulate play three-player games.

The fixtures and where they come from: ``fixtures/sanma/README.md``. A Mahjong Soul game
(``fixtures/sanma-mahjongsoul``) brings the one event none of them shows: a ron on a North set aside.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import polars as pl
import pytest

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.table import Game
from mjcli.riichi.formats import read_bytes, read_log, write_mjai, write_tenhou6
from mjcli.riichi.formats.meld_codes import KITA, decode_meld, encode_meld
from mjcli.riichi.replay import ReplayOptions, decisions_of, replay_file
from mjcli.riichi.rules import get_rules
from mjcli.riichi.verify import OK, verify_file, verify_log
from mjcli.tiles import NORTH, parse_tile

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SANMA = FIXTURES / "sanma"
XML = SANMA / "2014091101gm-00b9-0000-5ca6b487.mjlog"
T6 = SANMA / "2021010217gm-00b9-0000-3eb2e915.json"
MJAI = SANMA / "2020010100gm-00b9-0000-7a6863a8.mjson"
LOGS = (XML, T6, MJAI)
SOULS = FIXTURES / "sanma-mahjongsoul"
SOUL = SOULS / "kokushi_peinuki.json"


# ---------------------------------------------------------------- verify


@pytest.mark.parametrize(
    ("path", "rounds", "scores", "points"),
    [
        # whole points, the others rounded and first place taking the rest: 59200 -> 54.0 (not 54.2)
        (XML, 11, (59200, 22800, 23000), (54.0, -37.0, -17.0)),
        (T6, 12, (31900, 47200, 25900), (-8.0, 42.0, -34.0)),
        # ends on a bust (a score below zero) in East 3; this mjai dialect writes no final points
        (MJAI, 9, (69100, -7800, 43700), None),
    ],
)
def test_every_gathered_tenhou_log_verifies_round_for_round(path, rounds, scores, points):
    [report] = verify_file(path)
    assert report.status == OK, report.mismatches or report.error
    assert report.rounds == rounds and all(row.match for row in report.rows)
    g = read_log(path)[0]
    end = g.events[-1]
    assert isinstance(end, ev.EndGame) and end.scores == scores and end.points == points
    # the mjai dialect does not say the game's length ("": the rules given, or the game's end)
    assert (
        g.players == 3
        and g.rules.red_fives
        and g.rules.length == ("" if path.suffix == ".mjson" else "hanchan")
    )
    # played under the three-player preset whatever rules were asked for
    engine = Game(get_rules("tenhou"))
    for i, e in enumerate(g.events):
        engine.apply(e, i)
    assert engine.rules.name == "tenhou-sanma" and engine.result is not None
    assert engine.result.scores == scores


def test_the_logs_hold_what_the_rules_were_checked_on():
    kinds: dict[str, int] = {}
    for path in LOGS:
        for e in read_log(path)[0].events:
            name = type(e).__name__
            if isinstance(e, ev.Win):
                name = "tsumo" if e.actor == e.target else "ron"
            elif isinstance(e, ev.RoundDraw):
                name = e.reason
            kinds[name] = kinds.get(name, 0) + 1
    assert kinds["Nukidora"] == 78 and kinds.get("Chi", 0) == 0
    assert (kinds["ClosedKan"], kinds["OpenKan"], kinds["AddedKan"]) == (2, 1, 1)
    assert (kinds["ron"], kinds["tsumo"], kinds["exhaustive"], kinds["nine_terminals"]) == (14, 8, 8, 2)
    rounds = [r for p in LOGS for r in verify_file(p)[0].rows]
    paid = [sorted(r.engine_deltas) for r in rounds if r.kind == "exhaustive" and any(r.engine_deltas)]
    # noten payments: 2000 in all, from one or two players
    assert {tuple(d) for d in paid} == {(-1000, -1000, 2000), (-2000, 1000, 1000)}


def test_an_edited_sanma_log_does_not_verify(tmp_path: Path):
    text = T6.read_text(encoding="utf-8")
    obj = json.loads(text)
    obj["sc"][1] = -9  # the first player's final points
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(obj), encoding="utf-8")
    [report] = verify_file(edited)
    assert report.status == "mismatch" and any("final points" in m.what for m in report.mismatches)


# ---------------------------------------------------------------- formats


def test_mjlog_three_player_facts():
    assert decode_meld(30752).kind == KITA and decode_meld(30752).tiles == (120,)
    assert encode_meld(decode_meld(31520)) == 31520
    g = read_log(XML)[0]
    assert g.rules.players == 3 and len(g.start.names) == 3  # type: ignore[union-attr]
    starts = [e for e in g.events if isinstance(e, ev.StartRound)]
    # Tenhou numbers the rounds as if a fourth existed (E1-E3 = 0-2, S1-S3 = 4-6): read as E1-S3
    assert {(s.round_wind, s.kyoku) for s in starts} == {(w, k) for w in (0, 1) for k in (1, 2, 3)}
    assert all(len(s.hands) == 3 and len(s.scores) == 3 and s.dealer == s.kyoku - 1 for s in starts)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.suffix)
def test_each_log_reads_back_the_same_from_either_writer(path):
    g = read_log(path)[0]
    for writer in (write_tenhou6, write_mjai):
        back = read_bytes(writer(g).encode(), "back")[0]
        if writer is write_tenhou6 and g.events[-1].points is None:  # type: ignore[union-attr]
            # tenhou.net/6 always writes final points (0 where the source had none)
            back.events[-1] = dataclasses.replace(back.events[-1], points=None)  # type: ignore[call-arg]
        assert back.events == g.events, writer.__name__
        assert verify_log(back).status == OK


def test_tenhou6_written_as_tenhou_writes_it():
    obj = json.loads(T6.read_text(encoding="utf-8"))
    mine = json.loads(write_tenhou6(read_log(T6)[0]))
    for theirs, ours in zip(obj["log"], mine["log"], strict=True):
        # calls as from a fourth seat (seat 0's pon from seat 2: the middle), f44 for a North set aside
        assert ours[4:13] == theirs[4:13] and ours[13:16] == [[], [], []]
        assert ours[1] == theirs[1] and ours[16][0] == theirs[16][0]
        if len(theirs[16]) > 1:  # the deltas of each seat, the empty fourth's too
            assert ours[16][1] == theirs[16][1]
    # the rule line as Tenhou wrote it, its lobby (鳳) too: it was rebuilt from the rules, without it
    assert mine["rule"]["disp"] == obj["rule"]["disp"] == "三鳳南喰赤"
    assert mine["sc"][6:] == [0, 0] and mine["name"][3] == ""


def test_mjai_reads_both_three_player_dialects():
    lines = MJAI.read_text(encoding="utf-8").splitlines()
    original = read_log(MJAI)[0].events
    kita = []
    for line in lines:
        o = json.loads(line)
        if o["type"] == "nukidora":
            o = {"type": "kita", "actor": o["actor"]}  # RiichiEnv's name, its pai left out
        kita.append(json.dumps(o))
    again = read_bytes(("\n".join(kita) + "\n").encode(), "kita")[0].events
    assert again[1:] == original[1:] and again[0].names == original[0].names  # type: ignore[union-attr]
    # the writer writes nukidora, with the North
    assert '"type":"nukidora","actor":1,"pai":"N"' in write_mjai(read_log(MJAI)[0])


def test_a_discard_after_a_call_is_never_tsumogiri():
    # wahaha's converter marks one such discard as tsumogiri (E3, 9s after seat 0's pon): read as not
    g = read_log(MJAI)[0]
    i = next(
        i
        for i, e in enumerate(g.events)
        if isinstance(e, ev.Pon) and e.actor == 0 and e.tile == parse_tile("6z")
    )
    after = g.events[i + 1]
    assert isinstance(after, ev.Discard) and after.tile == parse_tile("9s") and not after.tsumogiri


# ---------------------------------------------------------------- a ron on a North set aside


def test_a_ron_on_a_north_set_aside_is_played_by_the_engine():
    g = read_log(SOUL)[0]
    wins = [(i, e) for i, e in enumerate(g.events) if isinstance(e, ev.Win)]
    i, last = wins[-1]
    assert (
        isinstance(g.events[i - 1], ev.Nukidora)
        and last.tile == NORTH
        and last.target == g.events[i - 1].actor
    )
    report = verify_log(g)
    # played under Mahjong Soul's rules (its header names a Mahjong Soul room): the final points
    # fit; the one mismatch is the converter's delta without the riichi stick, named as the log's
    # defect (the log's own final scores include the stick)
    assert report.rules == "majsoul-sanma (length not in the log)"
    (m,) = report.mismatches
    assert (m.round, m.what, m.log, m.engine) == (
        "E3-0",
        "seat 2 deltas",
        [-48000, 0, 48000],
        [-48000, 0, 49000],
    )
    assert m.defect == (
        "the log's own scores after the round, [-33600,44600,94000], are what the engine's deltas give; "
        "the 1000 of riichi sticks the winner takes is left out"
    )
    yaku = [r.yaku for r in report.rows]
    assert yaku[-1] == "kokushi:13"
    # the decision to ron is a decision point of the player who won
    ds = [d for d in decisions_of(g.events) if d.event == i - 1]
    assert [(d.seat, d.kind, d.actual.kind) for d in ds] == [(last.actor, "win", "ron")]


# ---------------------------------------------------------------- replay and advise


def test_replay_of_the_sanma_logs_asks_every_decision_with_three_seats(tmp_path: Path):
    from mjcli.riichi.policies import POLICY_NAMES

    options = ReplayOptions(POLICY_NAMES)
    frames = [replay_file(p, p.name, options) for p in LOGS]
    assert all(not f.errors for f in frames)
    d = pl.concat([f.decisions for f in frames])
    games = pl.concat([f.games for f in frames])
    assert set(d["seat"].unique()) == {0, 1, 2} and games.height == 9
    assert sorted(games.filter(pl.col("file") == XML.name)["placement"].to_list()) == [1, 2, 3]
    kinds = set(d["kind"].unique())
    assert {"nukidora", "discard", "riichi", "win", "call", "pass", "kan", "abort"} <= kinds
    assert "nukidora 4z" in set(d["actual"]) and not d.filter(pl.col("actual").str.starts_with("chi")).height
    # nobody is offered a tile of 2m-8m to wait on, nor counts any as unseen
    assert not d.filter(pl.col("hand").str.contains("[2-8][0-9]*m")).height


def test_advise_on_a_sanma_log_position():
    from mjcli.riichi.advise import advise_log

    first = next(d for d in decisions_of(read_log(XML)[0].events) if d.kind == "nukidora")
    result = advise_log(str(XML), first.round, first.honba, first.turn, first.seat)
    assert result["players"] == 3 and result["actual"]["action"] == "nukidora"  # type: ignore[index]
    assert {p["policy"]: p["action"] for p in result["policies"]}["mahjongjoy"] == "nukidora"  # type: ignore[index]


# ---------------------------------------------------------------- Mahjong Soul's rules


@pytest.mark.parametrize(
    ("name", "rules", "scores", "points"),
    [
        # the dealer of E3 wins in first place and the game ends: East-only (the header does not
        # say), Mahjong Soul's agari-yame at 40000 or more
        ("chankan.json", "majsoul-sanma-tonpuu", (20200, 25800, 59000), (-29.8, -9.2, 39.0)),
        # ends on a bust in E1 (the length is never needed)
        ("kokushi_ankan.json", "majsoul-sanma", (83000, -13000, 35000), (63.0, -63.0, 0.0)),
    ],
)
def test_mahjong_soul_games_verify_under_its_rules(name, rules, scores, points):
    """A tenhou.net/6 header naming a Mahjong Soul room (``三銀の間赤``) plays the game under
    ``majsoul-sanma``: (score - 35000) / 1000 + 15/0/-15, no oka, unrounded, as the file's ``sc``."""
    g = read_log(SOULS / name)[0]
    assert g.rules.site == "majsoul" and g.rules.length == ""
    report = verify_log(g)
    assert report.status == OK, [str(m) for m in report.mismatches]
    assert report.rules is not None and report.rules.split(" (")[0] == rules
    assert report.points_rule == "decimal, uma +15/+0/-15 (majsoul's rule)"
    end = g.events[-1]
    assert isinstance(end, ev.EndGame) and end.scores == scores and end.points == points
    # --rules forces another rule set: Tenhou's uma and oka do not give the file's points
    forced = verify_log(g, get_rules("tenhou-sanma"))
    assert forced.rules is not None and forced.rules.startswith("tenhou-sanma")
    if name == "kokushi_ankan.json":
        # Tenhou lets no hand rob a closed kan, kokushi included: the win itself is refused
        assert "no ron on a closed kan" in str(forced.mismatches[0])
    else:
        assert [m.what for m in forced.mismatches if m.round == "game"][-1].startswith("final points")


def test_the_site_is_read_from_the_rule_text_and_written_back():
    from mjcli.riichi.formats.tenhou6 import _rules

    def rules(disp: str, players: int = 3):
        return _rules({"rule": {"disp": disp}}, players, [])

    # tensoul: "三" + the room + 東喰/南喰 (since 2024-11) + 赤; or English names; Tenhou's lobbies
    assert (rules("三玉の間南喰赤").site, rules("三玉の間南喰赤").length) == ("majsoul", "hanchan")
    assert (rules("三金の間東喰赤").site, rules("三金の間東喰赤").length) == ("majsoul", "tonpuu")
    assert (rules("三銀の間赤").site, rules("三銀の間赤").length) == ("majsoul", "")
    assert (rules("Gold Room South", 4).site, rules("Gold Room South", 4).length) == ("majsoul", "hanchan")
    assert (rules("三鳳南喰赤").site, rules("三鳳南喰赤").length) == ("", "hanchan")
    # a friendly room's rules are its own: Mahjong Soul's site, but said to be rules mjcli does not know
    assert rules("友人戦").site == "majsoul" and "rules of its own" in rules("友人戦").unknown
    # the site survives mjcli's own writers (mjcli's key "site"; mjlog cannot carry it)
    g = read_log(SOULS / "chankan.json")[0]
    for text, fmt in ((write_tenhou6(g), "x.json"), (write_mjai(g), "x.mjson")):
        (again,) = read_bytes(text.encode(), fmt)
        assert again.rules.site == "majsoul" and again.rules.length == ""


def test_a_simulated_mahjong_soul_game_verifies_under_the_rules_its_log_names(tmp_path: Path):
    from typer.testing import CliRunner

    from mjcli.cli import app

    runner = CliRunner()
    out = tmp_path / "sim"
    args = ["simulate", "--players", "efficiency,greedy,mahjongjoy", "--rules", "majsoul-sanma-tonpuu"]
    res = runner.invoke(app, [*args, "--games", "1", "--seed", "5", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "rules majsoul-sanma-tonpuu" in res.stdout.splitlines()[0]
    res = runner.invoke(app, ["verify", str(out / "logs"), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout.splitlines()[-1])
    assert summary["ok"] == 2 and summary["rules"] == {"majsoul-sanma-tonpuu": 2}
    res = runner.invoke(app, ["verify", str(out / "logs"), "--rules", "tenhou-sanma"])
    # forced: Tenhou's three-player rules, with the log's own length
    assert res.exit_code == 1 and res.stdout.splitlines()[-1].endswith("; rules tenhou-sanma-tonpuu")


def test_replay_names_each_logs_rule_set(tmp_path: Path):
    from typer.testing import CliRunner

    from mjcli.cli import app

    runner = CliRunner()
    out = tmp_path / "r"
    logs = [str(T6), str(SOULS / "chankan.json")]
    res = runner.invoke(app, ["replay", *logs, "--policies", "efficiency", "--out", str(out)])
    assert res.exit_code == 0, res.output
    first = "rules: majsoul-sanma-tonpuu (East-only: the log does not say, and ends where only an "
    # the 2021 game's whole final points fit Tenhou's older rule, which names its rule set
    whole = "tenhou-sanma (points_rounding=score-5-up)"
    assert res.stdout.splitlines()[1].startswith(first) and f"{whole} (1 game)" in res.stdout
    manifest = json.loads((out / "replay.json").read_text(encoding="utf-8"))
    by_label = {e["label"]: e["rules"] for e in manifest["inputs"]}
    assert by_label[T6.name] == whole and by_label["chankan.json"].startswith("majsoul-sanma-tonpuu")
    assert manifest["rules"] is None and manifest["rules_asked"] is None  # the logs differ; none forced
    res = runner.invoke(
        app, ["replay", str(T6), "--policies", "efficiency", "--rules", "tenhou", "--out", str(out), "--json"]
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["rules"] == {whole: 1}
    manifest = json.loads((out / "replay.json").read_text(encoding="utf-8"))
    assert (manifest["rules"], manifest["rules_asked"]) == (whole, "tenhou")


RIICHIENV = FIXTURES / "riichienv"


def test_games_riichienv_played_in_three_player_verify() -> None:
    """RiichiEnv's three-player logs: a start_game naming nobody takes the number of players from
    the first round (it was read as four seats: an error), and a riichi with three tiles left is
    legal in three-player (it was refused, four-player's four applied)."""
    (game,) = read_log(RIICHIENV / "sanma-no-names.jsonl")
    assert game.events[0].rules.players == 3 and game.events[0].names == ("", "", "")
    for name in ("sanma-no-names.jsonl", "sanma-riichi-three-left.jsonl"):
        (report,) = verify_file(RIICHIENV / name)
        assert report.status == OK, [str(m) for m in report.mismatches]
        (game,) = read_log(RIICHIENV / name)
        assert report.rounds == sum(isinstance(e, ev.StartRound) for e in game.events) > 1
