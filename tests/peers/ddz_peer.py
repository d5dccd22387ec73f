"""Dou Dizhu questions answered by the reference implementations themselves: RLCard 1.2 (its judger,
player and action space) and DouZero 1.1 (its move generator, detector and game env).

Runs in the peer venv ``.venv-peers/ddz`` (made by ``make peers``), never in the project's venv, so
the project never imports either. ``tests/test_doudizhu_peers.py`` starts it as a subprocess: one
JSON request on stdin, one JSON answer on stdout. Cards are strings in rank order, in the notation
``3456789TJQKA2BR`` (RLCard's own; B and R are the small and the big joker).

Request::

    {"universe": [cards, ...],          # extra candidate plays (the shape superset below is added)
     "leads": [hand, ...],
     "follows": [[hand, previous], ...],
     "beats": [[a, b], ...]}

Answer (``null`` where a previous move is no legal play of that reference)::

    {"rlcard": {"universe": {cards: [type, weight]}, "leads": [[cards]], "follows": [[cards] | null],
                "beats": [bool | null]},
     "douzero": {"universe": {cards: [detector type, len]}, "leads": ..., "follows": ..., "beats": ...},
     "checks": {"douzero_generator_shortcut": [cards, ...]}}   # disagreements, should be empty
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

RANKS = "3456789TJQKA2BR"
DECK = (4,) * 13 + (1, 1)
MAX_CARDS = 20  # the landlord's hand

# ---------------------------------------------------------------------------------------- notation

DZ_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)  # DouZero's card numbers
DZ_RANK = {v: RANKS[i] for i, v in enumerate(DZ_VALUES)}


def counts_of(cards: str) -> list[int]:
    out = [0] * len(RANKS)
    for ch in cards:
        out[RANKS.index(ch)] += 1
    return out


def text_of(counts: list[int] | tuple[int, ...]) -> str:
    return "".join(RANKS[r] * n for r, n in enumerate(counts))


def to_dz(cards: str) -> list[int]:
    return sorted(DZ_VALUES[RANKS.index(ch)] for ch in cards)


def from_dz(values: list[int]) -> str:
    return "".join(sorted((DZ_RANK[v] for v in values), key=RANKS.index))


# ---------------------------------------------------------------------------------------- RLCard


def rlcard_answers(request: dict) -> dict:
    from rlcard.games.base import Card
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.player import DoudizhuPlayer
    from rlcard.games.doudizhu.utils import CARD_TYPE

    def player(cards: str, player_id: int = 0) -> DoudizhuPlayer:
        p = DoudizhuPlayer(player_id, None)
        joker = {"B": Card("BJ", ""), "R": Card("RJ", "")}
        p.set_current_hand([joker[ch] if ch in joker else Card("S", ch) for ch in cards])
        return p

    def lead(hand: str) -> list[str]:
        p = player(hand)
        judger = DoudizhuJudger([p], None)  # computes the hand's playable cards as at the deal
        return sorted(p.available_actions(None, judger))

    def follow(hand: str, previous: str) -> list[str] | None:
        if previous not in CARD_TYPE[0]:  # get_gt_cards would raise KeyError: no RLCard play
            return None
        rival = player("", 1)
        rival.played_cards = previous
        return sorted(a for a in player(hand).available_actions(rival, None) if a != "pass")

    def beats(a: str, b: str) -> bool | None:
        answers = follow(a, b)
        return None if answers is None else a in answers

    universe = {k: v[0] for k, v in CARD_TYPE[0].items() if len(k) <= MAX_CARDS}
    return {
        "universe": universe,
        "leads": [lead(h) for h in request.get("leads", [])],
        "follows": [follow(h, p) for h, p in request.get("follows", [])],
        "beats": [beats(a, b) for a, b in request.get("beats", [])],
    }


# ---------------------------------------------------------------------------------------- DouZero


def _multisets(avail: list[int], k: int, start: int = 0) -> Iterator[list[int]]:
    if k == 0:
        yield [0] * len(avail)
        return
    for r in range(start, len(avail)):
        for take in range(min(avail[r], k), 0, -1):
            for rest in _multisets(avail, k - take, r + 1):
                rest[r] += take
                yield rest


def shape_candidates() -> set[str]:
    """A superset, by shape alone, of the plays of up to 20 cards any variant allows: every set of up
    to five cards; runs of one, two or three cards a rank over consecutive ranks (2 included); a run
    of 2 to 5 trios with as many cards of other ranks (any of them: pairs, trios, fours, jokers) or as
    many pairs (a rank twice is a four); four of a kind with two other cards or two pairs."""
    out: set[str] = set()
    deck = list(DECK)
    for n in range(1, 6):
        out.update(text_of(m) for m in _multisets(deck, n))
    for width in (1, 2, 3):
        for low in range(13):
            for high in range(low + 1, 13):
                if (high - low + 1) * width <= MAX_CARDS:
                    out.add(text_of([width if low <= r <= high else 0 for r in range(15)]))
    for low in range(12):
        for k in range(2, 6):
            if low + k > 13:
                continue
            run = [3 if low <= r < low + k else 0 for r in range(15)]
            rest = [0 if c else d for d, c in zip(deck, run, strict=True)]
            for wings in _multisets(rest, k):
                out.add(text_of([a + b for a, b in zip(run, wings, strict=True)]))
            if 5 * k <= MAX_CARDS:
                halves = [c // 2 for c in rest]
                for pairs in _multisets(halves, k):
                    out.add(text_of([a + 2 * b for a, b in zip(run, pairs, strict=True)]))
    for f in range(13):
        rest = [d if r != f else 0 for r, d in enumerate(deck)]
        four = [4 if r == f else 0 for r in range(15)]
        for two in _multisets(rest, 2):
            out.add(text_of([a + b for a, b in zip(four, two, strict=True)]))
        for pairs in _multisets([c // 2 for c in rest], 2):
            out.add(text_of([a + 2 * b for a, b in zip(four, pairs, strict=True)]))
    return out


def douzero_answers(request: dict) -> dict:
    from douzero.env import move_detector
    from douzero.env.game import GameEnv
    from douzero.env.move_generator import MovesGener

    type_names = {v: k for k, v in vars(move_detector).items() if k.startswith("TYPE_")}

    def lead(hand: str) -> list[str]:
        return sorted({from_dz(m) for m in MovesGener(to_dz(hand)).gen_moves()})

    def generates(cards: str) -> bool:
        """Whether DouZero's generator offers exactly ``cards`` to a hand holding exactly them. Only
        the generators that make plays of that many cards are asked, the sequences with the length
        that many cards make (gen_moves asks every generator, sequences of every length; the answer
        is the same, which the shortcut check below confirms on a sample)."""
        values = to_dz(cards)
        n = len(values)
        g = MovesGener(values)
        fixed = {
            1: (g.gen_type_1_single,),
            2: (g.gen_type_2_pair, g.gen_type_5_king_bomb),
            3: (g.gen_type_3_triple,),
            4: (g.gen_type_4_bomb, g.gen_type_6_3_1),
            5: (g.gen_type_7_3_2,),
            6: (g.gen_type_13_4_2,),
            8: (g.gen_type_14_4_22,),
        }
        moves = [m for gen in fixed.get(n, ()) for m in gen()]
        for per, gen in (
            (1, g.gen_type_8_serial_single),
            (2, g.gen_type_9_serial_pair),
            (3, g.gen_type_10_serial_triple),
            (4, g.gen_type_11_serial_3_1),
            (5, g.gen_type_12_serial_3_2),
        ):
            if n % per == 0:
                moves += gen(repeat_num=n // per)
        return any(sorted(m) == values for m in moves)

    def detect(cards: str) -> list:
        t = move_detector.get_move_type(to_dz(cards))
        return [type_names[t["type"]], t.get("len", 1)]

    def follow(hand: str, previous: str, legal: dict[str, bool]) -> list[str] | None:
        if previous not in legal:
            legal[previous] = generates(previous)
        if not legal[previous]:
            return None
        env = GameEnv(players={})
        env.acting_player_position = "landlord"
        env.info_sets["landlord"].player_hand_cards = to_dz(hand)
        env.card_play_action_seq = [to_dz(previous)]
        return sorted({from_dz(m) for m in env.get_legal_card_play_actions() if m})

    candidates = shape_candidates() | set(request.get("universe", []))
    universe = {x: detect(x) for x in sorted(candidates) if len(x) <= MAX_CARDS and generates(x)}
    # The shortcut in generates() against gen_moves itself, on every 400th candidate.
    shortcut_wrong = [x for x in sorted(candidates)[::400] if generates(x) != (x in lead(x))]
    legal: dict[str, bool] = {}
    return {
        "universe": universe,
        "leads": [lead(h) for h in request.get("leads", [])],
        "follows": [follow(h, p, legal) for h, p in request.get("follows", [])],
        "beats": [
            None if (ans := follow(a, b, legal)) is None else a in ans for a, b in request.get("beats", [])
        ],
        "shortcut_wrong": shortcut_wrong,
    }


def main() -> None:
    request = json.load(sys.stdin)
    dz = douzero_answers(request)
    answer = {
        "rlcard": rlcard_answers(request),
        "douzero": dz,
        "checks": {"douzero_generator_shortcut": dz.pop("shortcut_wrong")},
    }
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
