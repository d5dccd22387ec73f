"""Cross-format and round-trip checks of the log readers and writers on every shared log."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

import pytest
from shared import LOGS, log_files

from mjcli.riichi.engine.events import (
    EXHAUSTIVE,
    NAGASHI_MANGAN,
    EndGame,
    EndRound,
    Event,
    Riichi,
    RoundDraw,
    StartGame,
    StartRound,
    Win,
)
from mjcli.riichi.formats import GameLog, read_bytes, read_log, write_game, write_tenhou6
from mjcli.riichi.formats.rounds import Table, is_tenpai, place_kan_dora
from mjcli.riichi.formats.tenhou_xml import read_tenhou_xml

ALL_LOGS = [p for p in log_files("*/*") if p.suffix in (".mjlog", ".json", ".jsonl")]
PAIRS = log_files("tenhou6/*.json")


@cache
def games(path: Path) -> tuple[GameLog, ...]:
    return tuple(read_log(path))


def _names_free(events: list[Event]) -> list[Event]:
    """Names are anonymised in the tenhou.net/6 copies, and those files carry no game-end record
    (their EndGame has no scores): both are left out of the XML-vs-JSON comparison, nothing else."""
    out: list[Event] = []
    for e in events:
        if isinstance(e, StartGame):
            e = dataclasses.replace(e, names=())
        elif isinstance(e, EndGame):
            e = EndGame()
        out.append(e)
    return out


def test_shared_logs_are_there() -> None:
    assert len(ALL_LOGS) == 23 + 83 + 19 + 20 + 3
    assert len(PAIRS) == 19


@pytest.mark.parametrize("json_path", PAIRS, ids=lambda p: p.stem)
def test_xml_and_tenhou6_give_identical_events(json_path: Path) -> None:
    xml = games(LOGS / "tenhou-xml" / (json_path.stem + ".mjlog"))[0]
    t6 = games(json_path)[0]
    assert xml.complete and t6.complete
    assert xml.game_id == t6.game_id == json_path.stem
    assert _names_free(xml.events) == _names_free(t6.events)
    # the only differences: real names vs anonymised ones, and the final result only XML records
    assert xml.events[-1].scores is not None and t6.events[-1] == EndGame()


@pytest.mark.parametrize("json_path", PAIRS, ids=lambda p: p.stem)
def test_tenhou6_writer_reproduces_the_converted_files(json_path: Path) -> None:
    """Our writer, fed the XML reading, gives the rounds of the independently converted JSON file;
    only the order of yaku in the result text differs (we write them in Tenhou id order)."""
    xml = games(LOGS / "tenhou-xml" / (json_path.stem + ".mjlog"))[0]
    mine = json.loads(write_tenhou6(xml))["log"]
    theirs = [
        r for line in json_path.read_text().splitlines() if line.strip() for r in json.loads(line)["log"]
    ]

    def norm(rounds: list) -> list:
        for r in rounds:
            res = r[-1]
            if res[0] == "和了":
                for info in res[2::2]:
                    info[4:] = sorted(info[4:])
        return rounds

    assert norm(mine) == norm(theirs)


def _strip_trailing_riichi(events: list[Event]) -> list[Event]:
    """A cut log may stop between a riichi declaration and its discard; tenhou.net/6 writes the
    declaration on the discard ("r.."), so it cannot hold such a dangling declaration."""
    return events[:-1] if events and isinstance(events[-1], Riichi) else events


@pytest.mark.parametrize("path", ALL_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("fmt", ["tenhou6", "mjai"])
def test_round_trip_through_each_writer(path: Path, fmt: str) -> None:
    for game in games(path):
        back = read_bytes(write_game(game, fmt).encode(), game.path)
        assert len(back) == 1
        again = back[0]
        assert again.complete == game.complete
        assert again.game_id == game.game_id
        expected = game.events
        if fmt == "tenhou6" and not game.complete:
            expected = _strip_trailing_riichi(expected)
        assert again.events == expected


@pytest.mark.parametrize("path", ALL_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_events_replay_consistently(path: Path) -> None:
    """Every tile moved was in the hand; rounds are well formed; recorded hands agree with the
    hands the events lead to, and recorded tenpai with an independent tenpai check."""
    for game in games(path):
        assert isinstance(game.events[0], StartGame)
        table: Table | None = None
        n = game.players
        for e in game.events[1:]:
            if isinstance(e, StartRound):
                assert table is None
                assert len(e.hands) == n and all(len(h) == 13 for h in e.hands)
                table = Table(e, path.name)
                continue
            if isinstance(e, EndRound):
                table = None
                continue
            if isinstance(e, EndGame):
                assert table is None
                continue
            assert table is not None
            if isinstance(e, Win) and e.hand is not None:
                assert e.hand == table.win_hand(e.actor, e.target, e.tile)
            if isinstance(e, RoundDraw) and e.reason in (EXHAUSTIVE, NAGASHI_MANGAN):
                assert e.tenpai == tuple(is_tenpai(table.hands[s]) for s in range(n))
            table.apply(e)


@pytest.mark.parametrize("path", log_files("tenhou-xml*/*.mjlog"), ids=lambda p: p.name)
def test_xml_dora_tags_sit_where_the_canonical_rule_puts_them(path: Path) -> None:
    """Read without normalisation, Tenhou's own DORA positions already follow the canonical rule."""
    (game,) = read_tenhou_xml(path.read_bytes(), str(path), normalise_dora=False)
    rounds: list[list[Event]] = []
    for e in game.events:
        if isinstance(e, StartRound):
            rounds.append([])
        if rounds:
            rounds[-1].append(e)
    for r in rounds:
        assert place_kan_dora(r) == r


def test_truncated_logs_are_reported_incomplete() -> None:
    no_game_end = games(LOGS / "tenhou-xml" / "2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog")[0]
    no_round_end = games(LOGS / "tenhou-xml" / "2011020401gm-00a9-0000-f6eff225-no-round-end.mjlog")[0]
    full = games(LOGS / "tenhou-xml" / "2011020401gm-00a9-0000-f6eff225.mjlog")[0]
    assert full.complete and full.problem is None
    assert not no_game_end.complete and "after round S3-0" in (no_game_end.problem or "")
    assert not no_round_end.complete and "inside round S4-0" in (no_round_end.problem or "")
    # what they hold is the full game's beginning (the game id is the file name)
    body = full.events[1:]
    assert no_game_end.events[1:] == body[: len(no_game_end.events) - 1]
    assert not isinstance(no_game_end.events[-1], EndGame)
    assert no_round_end.events[1:] == body[: len(no_round_end.events) - 1]


def test_mjai_injected_meta_fields_are_ignored() -> None:
    before = games(LOGS / "mjai" / "example_before_injection.jsonl")[0]
    after = games(LOGS / "mjai" / "example_after_injection.jsonl")[0]
    assert before.complete and after.complete
    strip = [dataclasses.replace(e, game_id="") if isinstance(e, StartGame) else e for e in before.events]
    strip2 = [dataclasses.replace(e, game_id="") if isinstance(e, StartGame) else e for e in after.events]
    assert strip == strip2
    assert sum(isinstance(e, StartRound) for e in before.events) == 12


@pytest.mark.parametrize("path", log_files("tenhou*/*"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bare_mjai_dialect_infers_what_tenhou_logs_state(path: Path) -> None:
    """Written as mjai and stripped to what Mortal's dialect carries (no draw reason, no tenpai, no
    winning tile, no han/fu/yaku, no final scores), the reader's rule-based inference gives back
    exactly what the Tenhou logs recorded: draw reasons (incl. nagashi, abortive draws), tenpai,
    shown hands, winning tiles and hands, ura indicators."""
    dropped_hora = ("fan", "fu", "hora_points", "yakus", "pai", "pao")
    for game in games(path):
        lines = []
        for line in write_game(game, "mjai").splitlines():
            o = json.loads(line)
            if o["type"] == "hora":
                for k in dropped_hora:
                    o.pop(k, None)
            elif o["type"] == "ryukyoku":
                o.pop("reason")
                o.pop("tenpais", None)
            elif o["type"] == "end_game":
                o.clear()
                o["type"] = "end_game"
            lines.append(json.dumps(o))
        (bare,) = read_bytes(("\n".join(lines) + "\n").encode(), game.path)

        def drop(events: list[Event]) -> list[Event]:
            out: list[Event] = []
            for e in events:
                if isinstance(e, Win):
                    e = dataclasses.replace(e, han=None, fu=None, points=None, yaku=None, pao=None)
                elif isinstance(e, EndGame):
                    e = EndGame()
                out.append(e)
            return out

        assert bare.events == drop(game.events)
