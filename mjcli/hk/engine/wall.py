"""A seeded Hong Kong wall: 144 tiles (148 with Red's jokers), dealt and drawn from the front,
replacement tiles (after a bonus tile or a kong) taken from the back.

The tiles are shuffled by :class:`random.Random` seeded from a SHA-256 digest of the game's seed
and the hand's number in the game (Python's int seeding and shuffle are stable across versions),
so a seed names the same walls everywhere; a game's seed is a digest of the run's ``--seed`` and
the deal number, so a deal's walls do not depend on other games (``--duplicate`` needs that).

There is no dead wall: every tile may be drawn, and the hand is drawn (exhausted) when a player
must draw and no tile is left. The deal: from the dealer on, four tiles each three times, then
one each, then one more for the dealer (14 tiles, the others 13).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from mjcli.errors import MjcliError
from mjcli.hk.notation import full_set


def game_seed(run_seed: int, deal: int) -> int:
    """A game's own seed (0 <= seed < 2**63): a digest of the run's seed and the deal number."""
    digest = hashlib.sha256(f"mjcli-hk-deal:{run_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def shuffled(seed: int, hand_index: int, jokers: int = 0) -> list[int]:
    """The wall of hand ``hand_index`` (0, 1, ...) of the game ``seed``, in drawing order."""
    tiles = full_set(jokers)
    digest = hashlib.sha256(f"mjcli-hk-wall:{seed}:{hand_index}".encode()).digest()
    random.Random(int.from_bytes(digest[:16], "big")).shuffle(tiles)
    return tiles


class Wall:
    """One hand's wall: ``front`` is the next tile drawn, ``back`` one past the next replacement."""

    __slots__ = ("back", "front", "tiles")

    def __init__(self, tiles: Sequence[int]) -> None:
        self.tiles = list(tiles)
        self.front = 0
        self.back = len(self.tiles)

    @property
    def left(self) -> int:
        return self.back - self.front

    def draw(self) -> int:
        if self.front >= self.back:
            raise MjcliError("the wall is empty")
        t = self.tiles[self.front]
        self.front += 1
        return t

    def draw_back(self) -> int:
        if self.front >= self.back:
            raise MjcliError("the wall is empty")
        self.back -= 1
        return self.tiles[self.back]

    def deal(self, dealer: int) -> list[list[int]]:
        """Each seat's dealt tiles (seat order): 4-4-4-1 from the dealer, then the dealer's 14th."""
        hands: list[list[int]] = [[], [], [], []]
        for size in (4, 4, 4, 1):
            for i in range(4):
                seat = (dealer + i) % 4
                hands[seat].extend(self.tiles[self.front : self.front + size])
                self.front += size
        hands[dealer].append(self.tiles[self.front])
        self.front += 1
        return hands
