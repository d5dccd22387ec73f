"""Decisions per second of every riichi policy, with the table shanten and with ``mahjong``'s.

Two sets of positions. First every decision point of the shared logs (/work/shared/logs), as the
engine replays them (:func:`mjcli.riichi.replay.decisions_of`, as replay does); every answer is also
checked to be one of the engine's legal actions. Then random positions, seeded: a shuffled
136-tile wall gives each position its 14 tiles, the next tiles its rivers and dora indicator;
three positions in four are decisions after a draw, one in four a reaction to a discard from the
player on the left (so chi, pon and kan come up). Views and legal actions are built before the
clock starts: only ``decide`` is timed. Each policy runs on one core (this process, timed in its
own CPU time so that other load on the machine does not count), first with ``mjcli.analysis``
(the default :class:`~mjcli.riichi.policies.hand_math.HandMath`), then on a smaller sample spread
over the set with a ``HandMath("mahjong")`` (``mahjong.shanten``) to print the speed ratio; both
must make the same decisions. Each timed run has a fresh HandMath: no memo of an earlier run.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.formats import read_logs
from mjcli.riichi.policies import POLICY_NAMES, HandMath, get_policy
from mjcli.riichi.policies.legal import draw_actions, reaction_actions
from mjcli.riichi.policies.view import Action, PlayerView, RiverTile
from mjcli.riichi.replay import decisions_of
from mjcli.tiles import kind, tile_from_id136

POSITIONS = 2000
REFERENCE_POSITIONS = 200
TARGET = 5000  # decisions per second, every policy
LOGS = Path("/work/shared/logs")


def log_positions() -> list[tuple[PlayerView, tuple[Action, ...]]]:
    out = []
    for res in read_logs([LOGS]):
        for game in res.games:
            try:
                for d in decisions_of(game.events):
                    out.append((d.view, d.legal.actions))
            except IllegalEvent:  # a log the engine disputes: its decisions up to there
                pass
    return out


def positions(n: int, seed: int = 4) -> list[tuple[PlayerView, tuple[Action, ...]]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        wall = list(range(136))
        rng.shuffle(wall)
        tiles = [tile_from_id136(i) for i in wall]
        rivers = tuple(tuple(RiverTile(t) for t in tiles[40 + 6 * s : 46 + 6 * s]) for s in range(4))
        common = {"rivers": rivers, "dora_indicators": (tiles[80],), "wall_left": rng.randint(4, 60)}
        if len(out) % 4 == 3:
            hand = tiles[:13]
            offered = next(t for t in tiles[13:] if any(abs(kind(t) - kind(h)) <= 1 for h in hand))
            view = PlayerView(seat=1, hand=tuple(hand), offered=offered, offered_by=0, **common)
            out.append((view, reaction_actions(view)))
        else:
            view = PlayerView(seat=0, hand=tuple(tiles[:13]), drawn=tiles[13], **common)
            out.append((view, draw_actions(view)))
    return out


def _rate(
    name: str, sample: list[tuple[PlayerView, tuple[Action, ...]]], backend: str = "analysis"
) -> tuple[float, list[Action]]:
    # a fresh HandMath: memos of an earlier run would let a policy profit from hands asked before
    policy = get_policy(name, math=HandMath(backend))
    # CPU time of this process: the machine is shared, and the target is per core
    start = time.process_time()
    answers = [policy.decide(view, legal) for view, legal in sample]
    elapsed = time.process_time() - start
    return len(sample) / elapsed, answers


def _table(sample: list[tuple[PlayerView, tuple[Action, ...]]], reference: int) -> None:
    head = f"{'policy':<12} {'analysis':>10} {'mahjong':>10} {'ratio':>7}"
    print(f"{head}  target {TARGET}/s  legal  same answers")
    for name in POLICY_NAMES:
        _rate(name, sample[:50])  # warm the shanten caches of the first positions only
        fast, answers = _rate(name, sample)
        legal = all(a in legal for a, (_, legal) in zip(answers, sample, strict=True))
        # the reference sample is spread over the whole set
        step = max(1, len(sample) // reference)
        ref_sample = sample[::step]
        slow, ref_answers = _rate(name, ref_sample, "mahjong")
        same = answers[::step] == ref_answers
        verdict = "ok" if fast >= TARGET else "BELOW TARGET"
        row = f"{name:<12} {fast:>10.0f} {slow:>10.0f} {fast / slow:>6.1f}x"
        print(f"{row}  {verdict:<12}  {legal!s:<5}  {same}")


def run() -> None:
    if LOGS.is_dir():
        sample = log_positions()
        print(f"riichi policies: decisions/s (CPU time, one core), {len(sample)} decision points of {LOGS}")
        _table(sample, 500)
        print()
    sample = positions(POSITIONS)
    print(f"riichi policies: decisions/s on {POSITIONS} random positions (3/4 after a draw, 1/4 reactions)")
    _table(sample, REFERENCE_POSITIONS)


if __name__ == "__main__":
    run()
