"""A seeded wall of 136 physical tiles with its dead wall: what the table draws and turns over.

The 136 physical ids (Tenhou's mjlog ids, ``kind = id // 4``; ids 16, 52, 88 are the red fives
when the rules play them) are shuffled by :class:`random.Random` seeded from a SHA-256 digest of the
game's seed and the round's number in the game: Python's seeding of an int and its shuffle are
stable across versions and platforms, so a seed names the same walls everywhere. A game's seed is
itself a digest of the run's ``--seed`` and the deal number (:func:`game_seed`), so a deal's walls do
not depend on how other games went (what ``--duplicate`` needs: every seat rotation of a deal sees
the same walls, round by round).

Layout, in shuffled order (the first tiles are dealt, the last 14 are the dead wall)::

    ids[0:52]     the deal: from the dealer on, 4 tiles each three times, then 1 each
    ids[52:122]   the live wall, drawn in order (70 draws, kans' replacement draws included)
    ids[122:126]  the four replacement (rinshan) tiles, taken in order after kans
    ids[126:131]  dora indicators: the first is turned at the start, one more per kan
    ids[131:136]  ura dora indicators, the one under each dora indicator

A kan's replacement draw comes from the dead wall, and the engine (like the table) counts it off
the live wall's end: the last live tile moves into the dead wall, so ``draws + rinshan draws <= 70``.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from mjcli.errors import MjcliError
from mjcli.tiles import tile_from_id136

TILES = 136
DEAL = 52
LIVE_END = 122
RINSHAN = (122, 126)
DORA = (126, 131)
URA = (131, 136)


def game_seed(run_seed: int, deal: int) -> int:
    """A game's own seed (0 <= seed < 2**63, fits an Int64 column): a digest of the run's seed and deal."""
    digest = hashlib.sha256(f"mjcli-deal:{run_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def wall_seed(seed: int, round_index: int) -> int:
    """The integer that seeds one wall: a digest of the game's seed and the round's number in it."""
    digest = hashlib.sha256(f"mjcli-wall:{seed}:{round_index}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def shuffled_ids(seed: int, round_index: int) -> list[int]:
    """The 136 physical ids in wall order for round ``round_index`` (0, 1, ...) of the game ``seed``."""
    ids = list(range(TILES))
    random.Random(wall_seed(seed, round_index)).shuffle(ids)
    return ids


@dataclass(slots=True)
class Wall:
    """One round's wall. Draws and reveals move pointers; nothing is ever removed from ``ids``."""

    ids: tuple[int, ...]
    red_fives: bool = True
    live_next: int = DEAL  # next live-wall position to draw
    rinshan_next: int = RINSHAN[0]
    dora_count: int = 1  # dora indicators turned over
    dealt: tuple[tuple[int, ...], ...] = field(default=())  # physical ids of each seat's 13 tiles

    @classmethod
    def shuffled(cls, seed: int, round_index: int, red_fives: bool = True) -> Wall:
        return cls(tuple(shuffled_ids(seed, round_index)), red_fives)

    def __post_init__(self) -> None:
        if sorted(self.ids) != list(range(TILES)):
            raise MjcliError("a wall must hold each of the 136 physical tiles once")

    def tile(self, tile_id: int) -> int:
        """The tile code (0..36) of a physical id under these rules."""
        return tile_from_id136(tile_id, self.red_fives)

    def deal(self, dealer: int) -> list[list[int]]:
        """The physical ids dealt to each seat (seat order), Tenhou's way: 4-4-4 then 1, from the dealer."""
        hands: list[list[int]] = [[], [], [], []]
        pos = 0
        for size in (4, 4, 4, 1):
            for i in range(4):
                seat = (dealer + i) % 4
                hands[seat].extend(self.ids[pos : pos + size])
                pos += size
        self.dealt = tuple(tuple(h) for h in hands)
        return hands

    def dealt_tiles(self, dealer: int) -> list[list[int]]:
        """Each seat's 13 dealt tiles as tile codes."""
        return [[self.tile(i) for i in h] for h in self.deal(dealer)]

    @property
    def live_left(self) -> int:
        """Tiles the table may still draw (a rinshan draw also uses one up)."""
        return LIVE_END - self.live_next - (self.rinshan_next - RINSHAN[0])

    def draw(self) -> int:
        if self.live_left <= 0:
            raise MjcliError("the live wall is empty")
        tile_id = self.ids[self.live_next]
        self.live_next += 1
        return self.tile(tile_id)

    def draw_rinshan(self) -> int:
        if self.rinshan_next >= RINSHAN[1] or self.live_left <= 0:
            raise MjcliError("no replacement tile left in the dead wall")
        tile_id = self.ids[self.rinshan_next]
        self.rinshan_next += 1
        return self.tile(tile_id)

    @property
    def dora_markers(self) -> list[int]:
        """The dora indicators turned so far."""
        return [self.tile(i) for i in self.ids[DORA[0] : DORA[0] + self.dora_count]]

    def reveal_dora(self) -> int:
        """Turn the next kan dora indicator."""
        if self.dora_count >= DORA[1] - DORA[0]:
            raise MjcliError("all five dora indicators are already turned")
        self.dora_count += 1
        return self.tile(self.ids[DORA[0] + self.dora_count - 1])

    def ura_markers(self) -> list[int]:
        """The ura indicators under the dora indicators turned so far (shown to a winner in riichi)."""
        return [self.tile(i) for i in self.ids[URA[0] : URA[0] + self.dora_count]]

    def unseen_ids(self) -> list[int]:
        """Physical ids neither dealt, drawn nor turned over: what is still hidden in the wall."""
        seen = set(range(DEAL)) if self.dealt else set()
        seen |= set(range(DEAL, self.live_next))
        seen |= set(range(RINSHAN[0], self.rinshan_next))
        seen |= set(range(DORA[0], DORA[0] + self.dora_count))
        return [self.ids[p] for p in range(TILES) if p not in seen]
