"""Games played by another engine for mjcli's ``verify`` to judge: RiichiEnv (PyPI ``riichienv``, a
Rust Riichi engine with rule presets of its own, four- and three-player) plays them between seeded
scripted bots and writes each as the mjai log it keeps (``env.mjai_log``). Run with the RiichiEnv
peer venv's Python (``.venv-peers/riichienv``); mjcli never imports it.

argv: MODE OUT_DIR GAMES SEED LATE. MODE is ``4p-tenhou``, ``4p-mjsoul``, ``3p-tenhou`` or
``3p-mjsoul`` (RiichiEnv's ``GameRule.default_tenhou()`` / ``default_mjsoul()`` on a hanchan with
red fives); LATE, a share of the games started at South 4 or in the West round from close scores,
where the end rules decide. A game the engine itself fails on is reported on stderr and left out.

The bots take wins, nine-terminal aborts, riichi, Norths and kans mostly, pon and chi sometimes,
and otherwise discard for the least shanten (honours and terminals first among equals), a few at
random; half the games try for four winds on the first go-around.
"""

from __future__ import annotations

import json
import random
import sys
from functools import lru_cache
from pathlib import Path

from mahjong.shanten import Shanten
from riichienv import ActionType, GameRule, RiichiEnv

SHANTEN = Shanten()

#: how much each kind of bot likes each move (chances), one kind per seat, drawn per game
STYLES = (
    {
        "win": 1.0,
        "kyushu": 0.7,
        "riichi": 0.95,
        "kita": 0.9,
        "kan": 0.8,
        "daiminkan": 0.6,
        "pon": 0.35,
        "chi": 0.2,
    },
    {
        "win": 0.9,
        "kyushu": 0.3,
        "riichi": 0.7,
        "kita": 0.6,
        "kan": 0.5,
        "daiminkan": 0.3,
        "pon": 0.6,
        "chi": 0.5,
    },
    {
        "win": 1.0,
        "kyushu": 1.0,
        "riichi": 1.0,
        "kita": 1.0,
        "kan": 1.0,
        "daiminkan": 1.0,
        "pon": 0.1,
        "chi": 0.0,
    },
)
CALLS = (
    (ActionType.ANKAN, "kan"),
    (ActionType.KAKAN, "kan"),
    (ActionType.DAIMINKAN, "daiminkan"),
    (ActionType.PON, "pon"),
    (ActionType.CHI, "chi"),
)


@lru_cache(maxsize=100_000)
def _shanten(counts: tuple[int, ...]) -> int:
    try:
        return SHANTEN.calculate_shanten(list(counts))
    except ValueError:  # an open hand's few tiles: any reading will do for the bots
        return 9


def _after(hand: list[int], tile: int) -> int:
    """The shanten of ``hand`` (136-tile ids) without ``tile``."""
    counts = [0] * 34
    for t in hand:
        counts[t // 4] += 1
    counts[tile // 4] -= 1
    return _shanten(tuple(counts))


def _choose(obs, rng: random.Random, style: dict[str, float], wind: int | None):  # type: ignore[no-untyped-def]
    legal = obs.legal_actions()
    if len(legal) == 1:
        return legal[0]
    by: dict = {}
    for a in legal:
        by.setdefault(a.action_type, []).append(a)
    for kind, key in (
        (ActionType.TSUMO, "win"),
        (ActionType.RON, "win"),
        (ActionType.KYUSHU_KYUHAI, "kyushu"),
    ):
        if kind in by and rng.random() < style[key]:
            return by[kind][0]
    for kind, key in ((ActionType.RIICHI, "riichi"), (ActionType.KITA, "kita"), *CALLS):
        if kind in by and rng.random() < style[key]:
            return rng.choice(by[kind])
    discards = by.get(ActionType.DISCARD)
    if discards:
        if wind is not None:  # the first go-around's four-winds try: this wind first
            for a in discards:
                if a.tile // 4 == wind:
                    return a
        if rng.random() < 0.03:
            return rng.choice(discards)
        hand = list(obs.hand)

        def key(a) -> tuple[int, int]:  # type: ignore[no-untyped-def]
            k = a.tile // 4
            return (_after(hand, a.tile), 0 if k >= 27 or k % 9 in (0, 8) else 1)

        best = min(key(a) for a in discards)
        return rng.choice([a for a in discards if key(a) == best])
    return by[ActionType.PASS][0] if ActionType.PASS in by else rng.choice(legal)


def play(mode: str, game: int, seed: int, late: float) -> list[dict]:
    """One game's mjai events."""
    players = 3 if mode.startswith("3p") else 4
    rule = GameRule.default_tenhou() if mode.endswith("tenhou") else GameRule.default_mjsoul()
    rng = random.Random(seed * 100_003 + game)
    env = RiichiEnv(game_mode=f"{players}p-red-half", rule=rule, seed=seed * 100_003 + game)
    start: dict = {}
    if rng.random() < late:
        points = 35000 if players == 3 else 25000
        scores = [points + rng.randint(-6, 6) * 1000 for _ in range(players - 1)]
        scores.append(points * players - sum(scores))
        rng.shuffle(scores)
        where = rng.random()
        if where < 0.4:  # South 4
            start = {"oya": players - 1, "round_wind": 1}
        else:  # somewhere in the West round
            start = {"oya": rng.randrange(players), "round_wind": 2}
        start.update(scores=scores, honba=rng.randint(0, 2), kyotaku=0)
    obs = env.reset(**start)
    styles = [rng.choice(STYLES) for _ in range(players)]
    wind = 27 + rng.randrange(4) if rng.random() < 0.5 else None
    tried = [False] * players
    steps = 0
    while not env.done():
        answers = {}
        for seat, o in obs.items():
            a = _choose(o, rng, styles[seat], None if tried[seat] else wind)
            if a.action_type == ActionType.DISCARD:
                tried[seat] = True
            answers[seat] = a
        obs = env.step(answers)
        if env.mjai_log and env.mjai_log[-1].get("type") == "start_kyoku":
            tried = [False] * players
        steps += 1
        if steps > 20_000 or (not obs and not env.done()):
            raise RuntimeError(f"the engine stalled after {steps} steps")
    return list(env.mjai_log)


def main() -> None:
    mode, out, games, seed, late = (
        sys.argv[1],
        Path(sys.argv[2]),
        int(sys.argv[3]),
        int(sys.argv[4]),
        float(sys.argv[5]),
    )
    out.mkdir(parents=True, exist_ok=True)
    for g in range(games):
        try:
            events = play(mode, g, seed, late)
        except Exception as exc:  # the peer's own fault: said, and the game left out
            print(f"{mode} game {g}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        text = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
        (out / f"{mode}-{seed}-{g:03d}.jsonl").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
