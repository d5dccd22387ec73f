"""Self-play through the engine's own decision points: every action it offers must be accepted,
and every settlement must conserve points, over whole games driven from shuffled walls.

The players are cheap heuristics (win when possible, riichi when possible, call sometimes, discard
the most isolated tile) so that games reach wins, riichi, calls, kans and draws in quantity.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcli.errors import MjcliError, UnsupportedError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.actions import PASS_MOVE, legal_actions, table_step
from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.engine.state import ENDED, KAN, REACT, TURN
from mjcli.riichi.engine.table import Game
from mjcli.riichi.rules import get_rules
from mjcli.tiles import RED_FIVE_KIND, kind

RULES = get_rules("tenhou")


def make_wall(rng: random.Random) -> list[int]:
    tiles = []
    for k in range(34):
        copies = [k] * 4
        if k in RED_FIVE_KIND.values():
            copies[0] = {v: r for r, v in RED_FIVE_KIND.items()}[k]
        tiles.extend(copies)
    rng.shuffle(tiles)
    return tiles


def _isolation(hand: list[int], t: int) -> int:
    """How useful a tile looks: copies and neighbours in hand (lower = discard first)."""
    k = kind(t)
    ks = [kind(x) for x in hand]
    score = 3 * (ks.count(k) - 1)
    if k < 27:
        for d in (-2, -1, 1, 2):
            n = k + d
            if 0 <= n < 27 and n // 9 == k // 9 and n in ks:
                score += 2 if abs(d) == 1 else 1
    return score


def choose(rng: random.Random, rnd, seat: int, actions: list[tuple]) -> tuple:
    wins = [a for a in actions if a and isinstance(a[0], ev.Win)]
    if wins:
        return wins[0]
    riichi = [a for a in actions if a and isinstance(a[0], ev.Riichi)]
    if riichi and rng.random() < 0.8:
        return rng.choice(riichi)
    kans = [a for a in actions if a and isinstance(a[0], (ev.ClosedKan, ev.AddedKan, ev.OpenKan))]
    if kans and rng.random() < 0.5:
        return rng.choice(kans)
    calls = [a for a in actions if a and isinstance(a[0], (ev.Pon, ev.Chi))]
    if calls and rng.random() < 0.3:
        return rng.choice(calls)
    if rng.random() < 0.01 and any(a and isinstance(a[0], ev.RoundDraw) for a in actions):
        return next(a for a in actions if a and isinstance(a[0], ev.RoundDraw))
    discards = [a for a in actions if a and isinstance(a[0], ev.Discard)]
    if discards:
        hand = rnd.players[seat].hand
        return min(discards, key=lambda a: (_isolation(hand, a[0].tile), rng.random()))
    return PASS_MOVE if PASS_MOVE in actions else actions[0]


def play_game(seed: int, max_rounds: int = 40) -> tuple[Game, list[object]]:
    rng = random.Random(seed)
    game = Game(RULES)
    events: list[object] = [ev.StartGame(("a", "b", "c", "d"))]
    game.apply(events[0], 0)

    def feed(e: object) -> None:
        events.append(e)
        game.apply(e, len(events) - 1)

    for _ in range(max_rounds):
        exp = game.expected
        if game.over or exp is None:
            break
        wall = make_wall(rng)
        dead, live = wall[-14:], wall[:-14]
        hands = tuple(tuple(live[13 * s : 13 * s + 13]) for s in range(4))
        live = live[52:]
        feed(
            ev.StartRound(
                exp.round_wind, exp.kyoku, exp.honba, exp.sticks, exp.dealer, dead[0], exp.scores, hands
            )
        )
        rnd = game.rounds[-1].state
        dora_next, rinshan_next = 1, 10
        while rnd.phase != ENDED:
            if rnd.phase == TURN:
                step = table_step(rnd) if rnd.pending_dora else None
                if step is not None and step.kind == "dora":
                    feed(ev.NewDora(dead[dora_next]))
                    dora_next += 1
                    continue
                action = choose(rng, rnd, rnd.current, legal_actions(rnd, rnd.current))
                for e in action:
                    if isinstance(e, ev.Win) and rnd.players[e.actor].riichi:
                        e = ev.Win(e.actor, e.target, e.tile, ura_markers=tuple(dead[5 : 5 + len(rnd.dora)]))
                    feed(e)
                continue
            claims = {}
            if rnd.phase in (REACT, KAN):
                for seat in range(4):
                    acts = legal_actions(rnd, seat)
                    if acts:
                        claims[seat] = choose(rng, rnd, seat, acts)
            rons = [a for a in claims.values() if a and isinstance(a[0], ev.Win)]
            if len(rons) == 3:
                feed(ev.RoundDraw(ev.TRIPLE_RON))
                continue
            if rons:
                for a in rons:
                    w = a[0]
                    ura = tuple(dead[5 : 5 + len(rnd.dora)]) if rnd.players[w.actor].riichi else None
                    feed(ev.Win(w.actor, w.target, w.tile, ura_markers=ura))
                continue
            calls = [a for a in claims.values() if a and not isinstance(a[0], ev.Chi)]
            calls = calls or [a for a in claims.values() if a]
            if calls and table_step(rnd).kind == "event":
                feed(table_step(rnd).event)  # riichi accepted (or an abort) comes before any call
                continue
            if calls:
                for e in calls[0]:
                    feed(e)
                continue
            step = table_step(rnd)
            if step.kind == "event":
                feed(step.event)
            elif step.kind == "dora":
                feed(ev.NewDora(dead[dora_next]))
                dora_next += 1
            elif step.kind == "draw":
                if step.rinshan:
                    tile = dead[rinshan_next]
                    rinshan_next += 1
                else:
                    tile, live = live[0], live[1:]
                feed(ev.Draw(step.seat, tile, rinshan=step.rinshan))
        feed(ev.EndRound())
    if game.over:
        feed(ev.EndGame())
    return game, events


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_self_play_conserves_points(seed):
    game, _ = play_game(seed)
    for rec in game.rounds:
        out = rec.outcome
        assert out is not None
        st_ = rec.state
        taken = st_.sticks if out.sticks_taken else 0
        assert sum(out.deltas) == 1000 * taken, (rec.label, out)
        # The table as a whole: scores plus sticks on the table never change.
        left = 0 if out.sticks_taken else st_.sticks
        assert sum(st_.scores) + 1000 * left == 100000
        # Each winner's own deltas sum to the sticks he took: all of them for one winner only.
        taken_by = sorted(sum(w.deltas) for w in out.wins)
        if out.wins:
            assert taken_by == [0] * (len(out.wins) - 1) + [1000 * st_.sticks], (rec.label, taken_by)
    if game.result is not None:
        assert sum(game.result.scores) == 100000
        assert abs(sum(game.result.points)) < 1e-9


def test_self_play_reaches_every_kind_of_outcome():
    kinds: dict[str, int] = {}
    for seed in range(6):
        game, _ = play_game(seed)
        for rec in game.rounds:
            kinds[rec.outcome.kind] = kinds.get(rec.outcome.kind, 0) + 1
    assert kinds.get("ron", 0) > 0 and kinds.get("tsumo", 0) > 0 and kinds.get("exhaustive", 0) > 0, kinds


def _mutate(rng: random.Random, events: list[object]) -> list[object]:
    out = list(events)
    i = rng.randrange(1, len(out))
    e = out[i]
    how = rng.randrange(4)
    if how == 0:
        del out[i]
    elif how == 1:
        out.insert(i, e)
    elif how == 2 and hasattr(e, "actor"):
        out[i] = dataclasses.replace(e, actor=rng.randrange(-1, 5))
    elif hasattr(e, "tile") and getattr(e, "tile", None) is not None:
        out[i] = dataclasses.replace(e, tile=rng.randrange(37))
    else:
        out[i], out[i - 1] = out[i - 1], out[i]
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_a_corrupted_event_stream_raises_the_projects_error_or_nothing(seed):
    rng = random.Random(seed)
    played, events = play_game(seed % 50)
    bad = _mutate(rng, events)
    # the events before the first changed one are the real game's, which the engine accepts
    pairs = enumerate(zip(bad, events, strict=False))
    first = next((j for j, (x, y) in pairs if x != y), min(len(bad), len(events)))
    game = Game(RULES)
    i = -1
    try:
        for i, e in enumerate(bad):
            game.apply(e, i)
    except MjcliError as exc:
        # IllegalEvent naming the event it stopped at (or UnsupportedError): never a crash
        assert isinstance(exc, IllegalEvent | UnsupportedError), repr(exc)
        if isinstance(exc, IllegalEvent):
            assert exc.index == i >= first and str(exc).startswith(f"event {i} ("), (first, str(exc))
        return
    # Accepted (another drawn tile, another tile of the hand discarded, an unchanged stream...):
    # then it is a game like any other, whose settlements conserve points.
    assert i == len(bad) - 1
    for rec in game.rounds:
        out = rec.outcome
        if out is None:
            continue
        st_ = rec.state
        assert sum(out.deltas) == 1000 * (st_.sticks if out.sticks_taken else 0), (rec.label, out)
        assert sum(st_.scores) + 1000 * (0 if out.sticks_taken else st_.sticks) == 100000
    if bad == events:
        assert [r.outcome for r in game.rounds] == [r.outcome for r in played.rounds]
