"""The mjai wire format (mjcli.riichi.bots.protocol): what a seat is sent and how answers are read.

Answers are checked the other way round: every legal action at every decision point of real logs
is written as an mjai answer by this test's own encoder (from the mjai protocol's table of answer
shapes), and must read back to that very action; answers that name something else must not.
"""

from __future__ import annotations

import json
import random

import pytest
from shared import LOGS

from mjcli.riichi.bots import protocol as wire
from mjcli.riichi.engine import events as ev
from mjcli.riichi.formats import read_log
from mjcli.riichi.formats.mjai import event_to_mjai
from mjcli.riichi.policies.view import Action
from mjcli.riichi.replay import decisions_of
from mjcli.tiles import kind, parse_tile, tile_to_mjai

LOGS_WITH_EVERYTHING = [
    LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog",
    LOGS / "tenhou-xml-scenarios" / "upd-bef-chankan-twice.mjlog",
    LOGS / "tenhou-xml-scenarios" / "upd-aft-kan4.mjlog",
    LOGS / "tenhou-xml-scenarios" / "obs-draw-kyuusyu.mjlog",
]


def encode(a: Action, seat: int, target: int, rng: random.Random) -> list[str]:
    """The answer line(s) an mjai bot writes for ``a`` (a riichi: reach, then the dahai)."""

    def names(tiles: tuple[int, ...]) -> list[str]:
        out = [tile_to_mjai(t) for t in tiles]
        rng.shuffle(out)  # the order of consumed tiles carries no meaning
        return out

    k = a.kind
    if k == "pass":
        return ['{"type":"none"}']
    if k == "discard":
        return [json.dumps({"type": "dahai", "actor": seat, "pai": tile_to_mjai(a.tile), "tsumogiri": False})]
    if k == "riichi":
        dahai = {"type": "dahai", "actor": seat, "pai": tile_to_mjai(a.tile), "tsumogiri": False}
        return [json.dumps({"type": "reach", "actor": seat}), json.dumps(dahai)]
    if k in ("tsumo", "ron"):
        return [json.dumps({"type": "hora", "actor": seat, "target": seat if k == "tsumo" else target})]
    if k in ("chi", "pon", "open_kan"):
        t = {"chi": "chi", "pon": "pon", "open_kan": "daiminkan"}[k]
        o = {
            "type": t,
            "actor": seat,
            "target": target,
            "pai": tile_to_mjai(a.tile),
            "consumed": names(a.consumed),
        }
        return [json.dumps(o)]
    if k == "closed_kan":
        return [json.dumps({"type": "ankan", "actor": seat, "consumed": names(a.consumed)})]
    if k == "added_kan":
        o = {"type": "kakan", "actor": seat, "pai": tile_to_mjai(a.tile), "consumed": names(a.consumed)}
        return [json.dumps(o)]
    if k == "nine_terminals":
        return ['{"type":"ryukyoku"}']
    raise AssertionError(k)


def read(lines: list[str], seat: int, legal: tuple[Action, ...]) -> wire.Reading:
    r = wire.parse_answer(lines[0], seat, legal)
    if r.reach:
        assert len(lines) == 2
        return wire.parse_answer(lines[1], seat, legal, riichi_discard=True)
    assert len(lines) == 1
    return r


@pytest.mark.parametrize("path", LOGS_WITH_EVERYTHING, ids=lambda p: p.name)
def test_every_legal_action_read_back_from_its_mjai_answer(path) -> None:
    rng = random.Random(7)
    kinds: set[str] = set()
    for game in read_log(path):
        for d in decisions_of(game.events):
            legal = d.legal.actions
            target = d.view.offered_by if d.view.offered_by is not None else d.seat
            for a in legal:
                got = read(encode(a, d.seat, target, rng), d.seat, legal)
                assert got.problem is None and got.action == a, (a, got)
                kinds.add(a.kind)
    if path.name.startswith("2010"):
        assert {"discard", "riichi", "pass", "pon", "chi", "ron", "tsumo"} <= kinds


def test_answers_that_name_no_legal_action_are_faults() -> None:
    red, plain = parse_tile("0m"), parse_tile("5m")
    legal = (Action("discard", red), Action("discard", parse_tile("1z")), Action("riichi", red))
    cases = {
        '{"type":"dahai","actor":0,"pai":"5m","tsumogiri":false}': "illegal",  # the hand holds the red five
        '{"type":"dahai","actor":1,"pai":"5mr","tsumogiri":false}': "illegal",  # another seat
        '{"type":"dahai","actor":0,"pai":"9z"}': "illegal",  # not a tile
        '{"type":"none"}': "illegal",  # a discard is required
        '{"type":"pon","actor":0,"target":1,"pai":"E","consumed":["E","E"]}': "illegal",
        '{"type":"hello"}': "illegal",
        "[]": "not_json",
        "not json": "not_json",
        "": "not_json",
        "[" * 100_000 + "]" * 100_000: "not_json",  # too deep for the parser (a RecursionError)
        '{"type":"none","meta":' + "[" * 100_000 + "]" * 100_000 + "}": "not_json",
    }
    for line, kind_ in cases.items():
        r = wire.parse_answer(line, 0, legal)
        assert r.action is None and r.kind == kind_ and r.problem, line
    assert wire.parse_answer('{"type":"dahai","pai":"5mr"}', 0, legal).action == Action("discard", red)
    assert wire.parse_answer('{"type":"reach","actor":0}', 0, legal).reach
    bad_riichi = wire.parse_answer('{"type":"dahai","pai":"E"}', 0, legal, riichi_discard=True)
    assert bad_riichi.kind == "illegal" and "riichi discard E" in bad_riichi.problem
    assert kind(plain) == kind(red)
    # the actor as the bot wrote it: a string "0" read "actor 0 is not the bot's seat 0"
    as_text = wire.parse_answer('{"type":"dahai","actor":"0","pai":"5mr"}', 0, legal)
    assert as_text.kind == "illegal" and as_text.problem == """actor "0" is not the bot's seat 0"""


def test_a_seat_is_sent_only_what_it_sees() -> None:
    hands = tuple((s * 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 34) for s in range(4))
    start = ev.StartRound(1, 2, 1, 1, 1, parse_tile("3p"), (25000, 24000, 26000, 25000), hands)
    for seat in range(4):
        o = json.loads(wire.masked(start, seat))
        reference = event_to_mjai(start)  # the project's own mjai writer, unmasked
        assert {k: v for k, v in o.items() if k != "tehais"} == {
            k: v for k, v in reference.items() if k != "tehais"
        }
        assert o["tehais"][seat] == reference["tehais"][seat]
        assert all(o["tehais"][s] == ["?"] * 13 for s in range(4) if s != seat)
        draw = json.loads(wire.masked(ev.Draw(2, parse_tile("7s")), seat))
        assert draw == {"type": "tsumo", "actor": 2, "pai": "7s" if seat == 2 else "?"}
    for e in (
        ev.Discard(1, 34, True),
        ev.Chi(2, 1, parse_tile("3s"), (parse_tile("4s"), parse_tile("5s"))),
        ev.Pon(3, 0, 27, (27, 27)),
        ev.OpenKan(0, 2, 31, (31, 31, 31)),
        ev.ClosedKan(1, (8, 8, 8, 8)),
        ev.AddedKan(3, 27, (27, 27, 27)),
        ev.NewDora(5),
        ev.Riichi(2),
        ev.RiichiAccepted(2),
    ):
        how, text = wire.classify(e)
        assert how == wire.PUBLIC
        assert json.loads(text) == event_to_mjai(e)
    # never sent: the outcome of a round (mjai.app does not send it), nor the game's own markers
    for e in (ev.Win(0, 1, 3), ev.RoundDraw(ev.EXHAUSTIVE), ev.StartGame(("a", "b", "c", "d")), ev.EndGame()):
        assert wire.classify(e)[0] == wire.SKIP
    assert wire.classify(ev.EndRound()) == (wire.END_ROUND, '{"type":"end_kyoku"}')
    assert json.loads(wire.start_game(2, ["A", "B"])) == {
        "type": "start_game",
        "names": ["A", "B", "2", "3"],
        "id": 2,
    }


def test_mortal_meta_is_read_by_action_index() -> None:
    meta = {"q_values": [0.1, -0.5, 0.9], "mask_bits": (1 << 3) | (1 << 37) | (1 << 45)}
    assert wire.q_by_index(meta) == {3: 0.1, 37: -0.5, 45: 0.9}
    assert wire.q_by_index({"q_values": [0.1], "mask_bits": 3}) is None  # two bits, one value
    assert wire.q_by_index({"mask_bits": 3}) is None and wire.q_by_index("x") is None
    three_s, four_s, five_s = (parse_tile(t) for t in ("3s", "4s", "5s"))
    assert wire.action_index(Action("discard", parse_tile("0p"))) == 35  # red fives 34-36
    assert wire.action_index(Action("discard", parse_tile("7z"))) == 33
    assert wire.action_index(Action("riichi", three_s)) == 37
    assert wire.action_index(Action("chi", three_s, (four_s, five_s))) == 38
    assert wire.action_index(Action("chi", four_s, (three_s, five_s))) == 39
    assert wire.action_index(Action("chi", five_s, (three_s, four_s))) == 40
    assert wire.action_index(Action("pon", 27, (27, 27))) == 41
    assert wire.action_index(Action("added_kan", 27, (27, 27, 27))) == 42
    assert wire.action_index(Action("ron", 27)) == 43
    assert wire.action_index(Action("nine_terminals")) == 44
    assert wire.action_index(Action("pass")) == 45
