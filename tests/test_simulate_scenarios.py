"""The table's rarer paths, played for real: robbing a kan, four kans, double and triple ron, four
winds, nine terminals, nagashi mangan.

Two kinds of seats, both defined here so that the tests depend on the engine and the table only:
``Greedy`` calls, kans and wins whenever it may (which makes kans, robbed kans and four-kan aborts
common) and otherwise throws its most isolated tile; ``Still`` wins when it may and otherwise
throws the tile it drew, so that a set-up deal (:func:`deal`) plays out as written. Every game
is checked like any simulated game: tiles and points conserved at each step, the log verified by
the engine with zero mismatches and read back to the same events.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import Move
from mjcli.riichi.engine.state import Round
from mjcli.riichi.engine.table import Game
from mjcli.riichi.formats import GameLog, read_tenhou6, write_tenhou6
from mjcli.riichi.policies.bridge import legal_of
from mjcli.riichi.simulate.driver import PlayedGame, play_game
from mjcli.riichi.simulate.run import game_specs, table_rules
from mjcli.riichi.simulate.seats import Where
from mjcli.riichi.simulate.wall import DEAL, Wall
from mjcli.riichi.verify import verify_log
from mjcli.tiles import kind, parse_tiles

PREFER = {
    "tsumo": 0,
    "ron": 0,
    "closed_kan": 1,
    "added_kan": 1,
    "open_kan": 1,
    "pon": 2,
    "chi": 3,
    "riichi": 4,
}


def _isolation(hand: Sequence[int], tile: int) -> int:
    k = kind(tile)
    ks = [kind(x) for x in hand]
    score = 2 * (ks.count(k) - 1)
    if k < 27:
        for d in (-2, -1, 1, 2):
            j = k + d
            if 0 <= j < 27 and j // 9 == k // 9 and j in ks:
                score += 1 if abs(d) == 2 else 2
    return score


class Greedy:
    name = "greedy-caller"

    def choose(self, rnd: Round, seat: int, where: Where, views: object = None) -> Move | None:
        legal = legal_of(rnd, seat)
        if not legal.actions:
            return None
        ranked = sorted((PREFER[a.kind], i) for i, a in enumerate(legal.actions) if a.kind in PREFER)
        if ranked:
            return legal.events[legal.actions[ranked[0][1]]]
        discards = [a for a in legal.actions if a.kind == "discard"]
        if not discards:
            return legal.events[legal.actions[-1]]  # pass
        hand = rnd.players[seat].hand
        best = min(discards, key=lambda a: (_isolation(hand, a.tile), -kind(a.tile), a.tile))  # type: ignore[arg-type]
        return legal.events[best]


class Still:
    """Wins when it can, declares nine terminals when it can, else throws the drawn tile; never calls."""

    name = "still"

    def choose(self, rnd: Round, seat: int, where: Where, views: object = None) -> Move | None:
        legal = legal_of(rnd, seat)
        for a in legal.actions:
            if a.kind in ("tsumo", "ron", "nine_terminals"):
                return legal.events[a]
        for a in legal.actions:
            if a.kind == "discard" and rnd.drawn is not None and a.tile == rnd.drawn:
                return legal.events[a]
        for a in legal.actions:
            if a.kind in ("pass", "discard"):
                return legal.events[a]
        return None


class Checks:
    def __init__(self) -> None:
        self.failures: list[str] = []

    def __call__(self, game: Game, rnd: Round, wall: Wall) -> None:
        seen = [t for p in rnd.players for t in p.hand]
        seen += [t for p in rnd.players for m in p.melds for t in m.tiles]
        seen += [r.tile for p in rnd.players for r in p.river if not r.called]
        seen += rnd.dora + [wall.tile(i) for i in wall.unseen_ids()]
        if Counter(seen) != Counter(wall.tile(i) for i in range(136)):
            self.failures.append(f"tiles in {rnd.start}")
        total = (
            sum(rnd.scores) + 1000 * rnd.sticks
            if rnd.outcome is None
            else sum(game.scores) + 1000 * game.sticks
        )
        if total != 100_000:
            self.failures.append(f"points {total}")


def _check_log(g: PlayedGame) -> None:
    report = verify_log(GameLog(g.game_id, "simulate", g.game_id, g.events), g.spec.rules)
    assert report.status == "ok" and not report.mismatches, (g.spec.index, report.mismatches[:3])
    back = read_tenhou6(write_tenhou6(GameLog(g.game_id, "simulate", g.game_id, g.events)).encode())[0]
    assert back.events == g.events


def test_callers_reach_kans_robbed_kans_and_multiple_rons() -> None:
    checks = Checks()
    seen: Counter[str] = Counter()
    seats = [Greedy()] * 4
    for spec in game_specs(["greedy"], 60, 42, table_rules("tenhou", "tonpuu"), duplicate=False):
        g = play_game(spec, seats, observer=checks)  # type: ignore[arg-type]
        _check_log(g)
        for r in g.rounds:
            seen[r["result"]] += 1
            seen["double ron"] += len(r["winners"]) == 2
            for y in ",".join(r["yaku"]).split(","):
                seen[y.split(":")[0]] += 1
        seen["kan"] += sum(isinstance(e, ev.ClosedKan | ev.AddedKan | ev.OpenKan) for e in g.events)
    assert checks.failures == []
    for what in ("four_kans", "double ron", "chankan", "rinshan", "haitei", "houtei", "kan"):
        assert seen[what] > 0, (what, seen)


# ---------------------------------------------------------------- set-up deals


def deal(hands: dict[int, str], draws: dict[int, str], seed: int, dealer: int = 0) -> Wall:
    """A wall dealing ``hands`` (seat -> 13 tiles in mpsz, plain fives) and giving ``draws``
    (live-wall position from 0 -> tile); every other place holds the other tiles, shuffled."""
    free = list(range(136))
    random.Random(seed).shuffle(free)
    free.sort(key=lambda i: i in (16, 52, 88))  # red fives last: set-up tiles are plain

    def take(k: int) -> int:
        i = next(i for i in free if i // 4 == k)
        free.remove(i)
        return i

    ids: list[int | None] = [None] * 136
    for seat, text in hands.items():
        tiles = [take(kind(t)) for t in parse_tiles(text)]
        assert len(tiles) == 13
        order = (seat - dealer) % 4
        slots = [16 * r + 4 * order + j for r in range(3) for j in range(4)] + [48 + order]
        for slot, i in zip(slots, tiles, strict=True):
            ids[slot] = i
    for pos, text in draws.items():
        (t,) = parse_tiles(text)
        ids[DEAL + pos] = take(kind(t))
    random.Random(seed + 1).shuffle(free)
    rest = iter(free)
    return Wall(tuple(i if i is not None else next(rest) for i in ids))


def _first_round(walls: dict[int, Wall], seed: int = 0) -> tuple[PlayedGame, dict[str, object]]:
    spec = game_specs(["greedy"], 1, seed, table_rules("tenhou", "tonpuu"), duplicate=False)[0]
    checks = Checks()

    def wall_for(i: int) -> Wall:
        return walls[i] if i in walls else Wall.shuffled(spec.seed, i)

    g = play_game(spec, [Still()] * 4, observer=checks, walls=wall_for)  # type: ignore[arg-type]
    assert checks.failures == []
    _check_log(g)
    return g, g.rounds[0]


def test_triple_ron_aborts_the_round() -> None:
    wall = deal(
        {
            0: "1199m1199p11223z",
            1: "234m345678p22s46s",
            2: "345678m234p33s46s",
            3: "456678m567p88s34s",
        },
        {0: "5s"},  # the dealer draws the 5s that all three wait on, and throws it
        seed=1,
    )
    g, r = _first_round({0: wall})
    assert r["result"] == ev.TRIPLE_RON and r["deltas"] == [0, 0, 0, 0]
    draw = next(e for e in g.events if isinstance(e, ev.RoundDraw))
    assert [h is not None for h in draw.hands] == [False, True, True, True]
    assert g.rounds[1]["round"] == "E1-1"  # an abortive draw: the dealer stays, one more honba


def test_double_ron_pays_both_winners() -> None:
    wall = deal(
        {0: "1199m1199p11223z", 1: "234m345678p22s46s", 2: "345678m234p33s46s"},
        {0: "5s"},
        seed=2,
    )
    g, r = _first_round({0: wall})
    assert r["result"] == "ron" and r["winners"] == [1, 2] and r["loser"] == 0
    wins = [e for e in g.events if isinstance(e, ev.Win)]
    assert [w.actor for w in wins] == [1, 2]


def test_four_winds_abort() -> None:
    wall = deal({}, {0: "1z", 1: "1z", 2: "1z", 3: "1z"}, seed=3)
    g, r = _first_round({0: wall})
    assert r["result"] == ev.FOUR_WINDS
    end = next(i for i, e in enumerate(g.events) if isinstance(e, ev.RoundDraw))
    assert [e.tile for e in g.events[:end] if isinstance(e, ev.Discard)] == [27, 27, 27, 27]


def test_nine_terminals_abort() -> None:
    wall = deal({0: "19m19p19s1234567z"}, {0: "2m"}, seed=4)
    g, r = _first_round({0: wall})
    assert r["result"] == ev.NINE_TERMINALS
    draw = next(e for e in g.events if isinstance(e, ev.RoundDraw))
    assert draw.hands is not None and draw.hands[0] is not None and len(draw.hands[0]) == 14


@pytest.mark.parametrize("seed", [5, 6])
def test_nagashi_mangan(seed: int) -> None:
    # Seat 1 draws (and throws) only terminals and honours all round; nobody calls (Still seats),
    # and hands of lone even tiles keep everyone far from a win.
    yaochuu = "1m9m1p9p1s9s1z2z3z4z5z6z7z1m9m1p9p1s"
    draws = {1 + 4 * k: yaochuu[2 * k : 2 * k + 2] for k in range(18)}  # positions 1, 5, ... 69
    evens = "2468m2468p2468s"
    hands = {0: evens + "3m", 1: evens + "5m", 2: evens + "7m", 3: evens + "3p"}
    wall = deal(hands, draws, seed=seed)
    g, r = _first_round({0: wall})
    assert r["result"] == ev.NAGASHI_MANGAN, r
    # a non-dealer's mangan tsumo: 4000 from the dealer, 2000 from each other player
    assert r["deltas"] == [-4000, 8000, -2000, -2000]
    assert r["tenpai"] == [False, False, False, False]
    assert g.rounds[1]["round"] == "E2-1"  # the dealer was not tenpai: the deal passes on
