"""Simulated games are legal, complete, conserved and reproducible: invariants over many seeded games.

Every game here is played by the four registered seed policies through the engine. The checks:
the 136 tiles are all accounted for after every event; scores plus the sticks on the table always
add up to the starting total; each game's log verifies with zero mismatches against the engine,
reads back (tenhou.net/6 and mjai) to the very same events, and replays decision by decision with
each seat's own policy choosing exactly what was played.
"""

from __future__ import annotations

from collections import Counter

import pytest

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.state import Round
from mjcli.riichi.engine.table import Game
from mjcli.riichi.formats import GameLog, read_mjai, read_tenhou6, write_mjai, write_tenhou6
from mjcli.riichi.policies import get_policy
from mjcli.riichi.replay import decisions_of
from mjcli.riichi.simulate.driver import PlayedGame, play_game
from mjcli.riichi.simulate.run import game_specs, table_rules
from mjcli.riichi.simulate.seats import PolicySeat
from mjcli.riichi.simulate.wall import Wall
from mjcli.riichi.verify import verify_log
from mjcli.tiles import kind

NAMES = ["akagi", "mahjongjoy", "greedy", "efficiency"]
START_TOTAL = 4 * 25000


class Invariants:
    """Checks run after every event of every round; the first failure of each kind is kept."""

    def __init__(self) -> None:
        self.checked = 0
        self.failures: list[str] = []

    def __call__(self, game: Game, rnd: Round, wall: Wall) -> None:
        self.checked += 1
        # 136 tiles: hands + melds + rivers (a called tile counted in its meld) + indicators + the
        # wall's unseen tiles give every tile of the set exactly once (red fives included).
        seen: list[int] = [t for p in rnd.players for t in p.hand]
        seen += [t for p in rnd.players for m in p.melds for t in m.tiles]
        seen += [r.tile for p in rnd.players for r in p.river if not r.called]
        seen += rnd.dora
        seen += [wall.tile(i) for i in wall.unseen_ids()]
        full = Counter(wall.tile(i) for i in range(136))
        if Counter(seen) != full:
            self.failures.append(f"tiles: {Counter(seen) - full} extra, {full - Counter(seen)} missing")
        if len(rnd.dora) != wall.dora_count or rnd.wall != wall.live_left:
            self.failures.append(f"wall: engine {rnd.wall}/{len(rnd.dora)}, wall {wall.live_left}")
        if rnd.outcome is None:
            total = sum(rnd.scores) + 1000 * rnd.sticks
        else:  # the round is settled: the game holds the scores and the sticks left on the table
            total = sum(game.scores) + 1000 * game.sticks
        if total != START_TOTAL:
            self.failures.append(f"points: {total} != {START_TOTAL} in {rnd.start}")


@pytest.fixture(scope="module")
def played() -> tuple[list[PlayedGame], Invariants]:
    inv = Invariants()
    games: list[PlayedGame] = []
    seats = {n: PolicySeat(n) for n in NAMES}
    for length, seed, n in (("hanchan", 101, 10), ("tonpuu", 202, 10)):
        for spec in game_specs(NAMES, n, seed, table_rules("tenhou", length), duplicate=False):
            games.append(play_game(spec, [seats[p] for p in spec.policies], observer=inv))
    return games, inv


def test_tiles_and_points_are_conserved_at_every_step(played: tuple[list[PlayedGame], Invariants]) -> None:
    games, inv = played
    assert inv.checked > 10_000
    assert inv.failures == []
    for g in games:
        assert sum(g.scores) == START_TOTAL
        assert sum(g.points) == pytest.approx(0)
        assert sorted(g.placements) == [1, 2, 3, 4]


def test_games_reach_an_end_by_the_rules(played: tuple[list[PlayedGame], Invariants]) -> None:
    games, _ = played
    for g in games:
        assert isinstance(g.events[-1], ev.EndGame) and g.events[-1].scores == g.scores
        last = g.rounds[-1]["round"]
        here = ("ESWN".index(last[0]), int(last[1]))
        final = (1 if g.spec.rules.length == "hanchan" else 0, 4)
        if min(g.scores) >= 0:
            # Nobody below zero: the game ran at least to the last round of its length, and at most
            # one wind further (Tenhou's extension).
            assert final <= here <= (final[0] + 1, 4), (g.spec.index, last)
        else:
            assert g.rounds[-1]["deltas"] and min(g.scores) < 0


def test_every_game_verifies_with_zero_mismatches(played: tuple[list[PlayedGame], Invariants]) -> None:
    games, _ = played
    for g in games:
        for log in _logs(g):
            report = verify_log(log, g.spec.rules)
            assert report.status == "ok", (g.spec, report.mismatches[:3], report.error)
            assert report.mismatches == []
            assert report.rounds == len(g.rounds)


def test_logs_read_back_to_the_same_events(played: tuple[list[PlayedGame], Invariants]) -> None:
    games, _ = played
    for g in games:
        for log in _logs(g):
            assert log.events == g.events
            assert log.complete


def test_each_seat_replays_to_its_own_choices(played: tuple[list[PlayedGame], Invariants]) -> None:
    """Asked again at every decision point of the log, each seat's policy answers what it played:
    simulate and replay see the same views and legal actions."""
    games, _ = played
    policies = {n: get_policy(n) for n in NAMES}
    decisions = 0
    for g in games[:8]:
        for d in decisions_of(g.events, g.spec.rules):
            answer = policies[g.spec.policies[d.seat]].decide(d.view, d.legal.actions)
            decisions += 1
            if d.kind == "call" and d.actual.kind == "pass":
                continue  # the seat's call lost to a ron or a pon: a log shows that as a pass
            assert answer == d.actual, (g.spec.index, d.round, d.seat, answer, d.actual)
    assert decisions > 1000


def test_results_match_the_rows(played: tuple[list[PlayedGame], Invariants]) -> None:
    games, _ = played
    kinds: Counter[str] = Counter()
    for g in games:
        wins = [e for e in g.events if isinstance(e, ev.Win)]
        assert sum(len(r["winners"]) for r in g.rounds) == len(wins)
        assert sum(t.wins for t in g.tallies) == len(wins)
        assert sum(t.deal_ins for t in g.tallies) == sum(1 for w in wins if w.actor != w.target)
        for r in g.rounds:
            kinds[r["result"]] += 1
            if r["winners"]:
                # the winner takes the sticks on the table, those of this round's riichi included
                assert r["draw"] is None and len(r["han"]) == len(r["winners"])
                assert sum(r["deltas"]) % 1000 == 0
                assert 0 <= sum(r["deltas"]) <= 1000 * (r["sticks"] + sum(r["riichi"]))
            else:
                assert r["draw"] == r["result"] and sum(r["deltas"]) == 0
        in_riichi: set[int] = set()
        for e in g.events:
            if isinstance(e, ev.StartRound):
                in_riichi = set()
            elif isinstance(e, ev.RiichiAccepted):
                in_riichi.add(e.actor)
            elif isinstance(e, ev.Win):
                assert e.deltas is not None and e.yaku and e.points and e.hand is not None
                # ura indicators are shown to a winner in riichi only (a yakuman drops the riichi yaku)
                assert (e.ura_markers is not None) == (e.actor in in_riichi)
    assert kinds["ron"] and kinds["tsumo"] and kinds["exhaustive"]


def test_consumed_tiles_are_in_canonical_order(played: tuple[list[PlayedGame], Invariants]) -> None:
    games, _ = played
    for g in games:
        for e in g.events:
            consumed = getattr(e, "consumed", None)
            if consumed is not None:
                assert [kind(t) for t in consumed] == sorted(kind(t) for t in consumed)


def _logs(g: PlayedGame) -> list[GameLog]:
    log = GameLog(g.game_id, "simulate", g.game_id, g.events)
    return [
        read_tenhou6(write_tenhou6(log).encode(), f"{g.game_id}.json")[0],
        read_mjai(write_mjai(log).encode(), f"{g.game_id}.mjai.jsonl")[0],
    ]
