"""Games played by another engine for mjcli's ``verify`` to judge: Mortal's libriichi (PyPI mjai's
``mjai.mlibriichi.arena``, its own Rust implementation of Tenhou's rules) plays them between four
scripted bots and writes each as an mjai log. Run with the mjai peer venv's Python; mjcli never
imports it.

argv: OUT_DIR FULL_GAMES LATE_GAMES SEED. Writes FULL_GAMES hanchan played from East 1, and
LATE_GAMES games started at South 4 or in the West round from close scores (``py_match_continue``),
where the game-end rules decide (agari-yame, tenpai-yame, the West round's sudden death, West 4).

The bots, seeded: win whenever they may, call riichi and kans mostly, pon honours and some other
tiles, chi now and then, abort with nine terminals mostly, and discard for the least shanten
(honours and terminals first among equals). Red fives are never named in a kan (the bots skip kans
of fives), so what a bot answers is always legal.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from mahjong.agari import Agari
from mahjong.shanten import Shanten
from mjai.mlibriichi.arena import Match

NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")
FIVES = (4, 13, 22)  # the kinds of 5m, 5p, 5s
SHANTEN = Shanten()
AGARI = Agari()


def _kind(name: str) -> int:
    return NAMES.index(name.rstrip("r"))


def _named(kind: int, akas: list[bool]) -> str:
    """The tile of ``kind`` to name from the hand: its red five when the hand holds that one."""
    return NAMES[kind] + ("r" if kind in FIVES and akas[FIVES.index(kind)] else "")


def _waits(counts: list[int]) -> bool:
    """Has the hand a wait, a kind not all four of which it holds? (libriichi lets riichi be declared
    on a shape waiting only on a fifth copy; Tenhou, and mjcli, do not.)"""
    for w in range(34):
        if counts[w] < 4:
            counts[w] += 1
            done = AGARI.is_agari(counts)
            counts[w] -= 1
            if done:
                return True
    return False


def _shanten(counts: list[int]) -> int:
    try:
        return SHANTEN.calculate_shanten(counts)
    except ValueError:  # an open hand's few tiles: any reading will do for the bots
        return 8


class Bot:
    engine_type = "mjai-log"

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.rng = rng
        self.player_ids: list[int] = []

    def set_player_ids(self, ids: list[int]) -> None:
        self.player_ids = ids

    def start_game(self, index: int) -> None:
        pass

    def end_kyoku(self, index: int) -> None:
        pass

    def end_game(self, index: int, scores: list[int]) -> None:
        pass

    def react_batch(self, states: list) -> list[str]:
        return [json.dumps(self._react(s)) for s in states]

    def _react(self, gs) -> dict:
        st, me = gs.state, self.player_ids[gs.game_index]
        can, rng = st.last_cans, self.rng
        last = json.loads(gs.events_json)[-1]
        if can.can_tsumo_agari:
            return {"type": "hora", "actor": me, "target": me, "pai": st.last_self_tsumo()}
        if can.can_ron_agari:
            return {"type": "hora", "actor": me, "target": can.target_actor, "pai": st.last_kawa_tile()}
        if can.can_ryukyoku and rng.random() < 0.7:
            return {"type": "ryukyoku", "actor": me}
        if can.can_discard:
            return self._turn(st, me, last)
        if last.get("type") == "dahai":
            return self._call(st, me, last)
        return {"type": "none"}

    def _turn(self, st, me: int, last: dict) -> dict:
        rng, tehai = self.rng, list(st.tehai)
        can = st.last_cans
        if can.can_ankan and rng.random() < 0.8:
            k = _kind(st.ankan_candidates()[0])
            if k not in FIVES:
                return {"type": "ankan", "actor": me, "consumed": [NAMES[k]] * 4}
        if can.can_kakan and rng.random() < 0.8:
            k = _kind(st.kakan_candidates()[0])
            if k not in FIVES:
                return {"type": "kakan", "actor": me, "pai": NAMES[k], "consumed": [NAMES[k]] * 3}
        if can.can_riichi and not st.self_riichi_declared and rng.random() < 0.9 and self._ready(tehai):
            return {"type": "reach", "actor": me}
        drawn = st.last_self_tsumo()
        if st.self_riichi_accepted:
            return {"type": "dahai", "actor": me, "pai": drawn, "tsumogiri": True}
        forbidden = {k for k, f in enumerate(st.forbidden_tiles) if f}
        best = None
        for k in range(34):
            if not tehai[k] or k in forbidden:
                continue
            tehai[k] -= 1
            s = _shanten(tehai)
            if st.self_riichi_declared:  # the riichi discard must keep the hand tenpai
                s = 0 if s == 0 and _waits(tehai) else 9
            tehai[k] += 1
            plain = 0 if k >= 27 or k % 9 in (0, 8) else 1
            key = (s, plain, rng.random())
            if best is None or key < best[0]:
                best = (key, k)
        assert best is not None
        k = best[1]
        pai = NAMES[k]
        if k in FIVES and st.akas_in_hand[FIVES.index(k)] and tehai[k] == 1:
            pai += "r"  # the only five left is the red one
        tsumogiri = pai == drawn and last.get("type") == "tsumo"
        return {"type": "dahai", "actor": me, "pai": pai, "tsumogiri": tsumogiri}

    @staticmethod
    def _ready(tehai: list[int]) -> bool:
        """Does some discard leave the hand waiting on a tile it does not hold four of?"""
        for k in range(34):
            if tehai[k]:
                tehai[k] -= 1
                ready = _waits(tehai)
                tehai[k] += 1
                if ready:
                    return True
        return False

    def _call(self, st, me: int, last: dict) -> dict:
        rng, can, akas = self.rng, st.last_cans, list(st.akas_in_hand)
        tile, target = last["pai"], last["actor"]
        k = _kind(tile)
        if can.can_daiminkan and k not in FIVES and rng.random() < 0.5:
            return {
                "type": "daiminkan",
                "actor": me,
                "target": target,
                "pai": tile,
                "consumed": [NAMES[k]] * 3,
            }
        if can.can_pon and (k >= 27 or rng.random() < 0.3):
            consumed = [_named(k, akas) if not tile.endswith("r") else NAMES[k], NAMES[k]]
            return {"type": "pon", "actor": me, "target": target, "pai": tile, "consumed": consumed}
        if can.can_chi and rng.random() < 0.3:
            for ok, offsets in (
                (can.can_chi_low, (1, 2)),
                (can.can_chi_mid, (-1, 1)),
                (can.can_chi_high, (-2, -1)),
            ):
                if ok:
                    consumed = [_named(k + d, akas) for d in offsets]
                    return {"type": "chi", "actor": me, "target": target, "pai": tile, "consumed": consumed}
        return {"type": "none"}


def main() -> None:
    out, full, late, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    for g in range(full):
        rng = random.Random(seed * 1000 + g)
        bots = [Bot(str(i), rng) for i in range(4)]
        Match(log_dir=str(out / f"full-{g}")).py_match(*bots, seed_start=(seed + g, seed + g))
    for g in range(late):
        rng = random.Random(seed * 1000 + 500 + g)
        kyoku = rng.choice([7, 8, 9, 10, 11, 11])  # South 4, West 1 to West 4 (0 is East 1)
        sticks = g % 2  # a stick on the table every other game
        if kyoku == 11:
            # West 4 with the dealer (seat 3) first below 30000: a win or tenpai of his plays on
            low = [rng.choice([21000, 22000, 23000, 24000]) for _ in range(3)]
            scores = [*low, 100000 - sum(low) - 1000 * sticks]
        else:
            # close scores, first place below 30000 or just above: where the end rules decide
            scores = [rng.choice([22000, 24000, 26000, 27000, 28000, 29000, 29500, 30500]) for _ in range(3)]
            scores.append(100000 - sum(scores) - 1000 * sticks)
        bots = [Bot(str(i), rng) for i in range(4)]
        Match(log_dir=str(out / f"late-{g}")).py_match_continue(
            *bots, scores, kyoku, g % 3, sticks, seed_start=(seed + g, seed + g)
        )


if __name__ == "__main__":
    main()
