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

Three-player (:class:`Layout` of the variant): the 108 ids without 2m-8m (ids 4-31) are shuffled the
same way; the deal is 3 x 13 (ids[0:39]), the live wall ids[39:94] (55 draws), the dead wall
ids[94:108] laid out as above (4 replacement tiles, 5 dora and 5 ura indicators). A round may need
up to 8 replacement draws (4 kans and 4 Norths set aside): after the dead wall's four, each comes
from the live wall's end, the tile that moved into the dead wall by the rule above.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from mjcli.errors import MjcliError
from mjcli.riichi.variant import FOUR_PLAYER, Variant
from mjcli.tiles import tile_from_id136

TILES = 136
DEAL = 52
LIVE_END = 122
RINSHAN = (122, 126)
DORA = (126, 131)
URA = (131, 136)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the parts of a wall lie in its shuffled list of physical ids (positions)."""

    ids: tuple[int, ...]  # the physical ids of the set, in id order (before shuffling)
    players: int
    deal: int
    live_end: int
    rinshan: tuple[int, int]
    dora: tuple[int, int]
    ura: tuple[int, int]

    @property
    def tiles(self) -> int:
        return len(self.ids)


def layout_of(variant: Variant) -> Layout:
    """The wall of a variant: the deal, the live wall, then 4 replacement tiles, 5 dora indicators
    and 5 ura indicators (the dead wall of 14)."""
    ids = tuple(i for i in range(TILES) if i // 4 not in variant.absent_kinds)
    deal = 13 * variant.players
    live_end = deal + variant.live_wall
    return Layout(
        ids,
        variant.players,
        deal,
        live_end,
        (live_end, live_end + 4),
        (live_end + 4, live_end + 9),
        (live_end + 9, live_end + 14),
    )


FOUR_PLAYER_LAYOUT = layout_of(FOUR_PLAYER)

#: [red_fives][physical id]: the tile code (``tiles.tile_from_id136``) as a table
_CODES = {red: tuple(tile_from_id136(i, red) for i in range(TILES)) for red in (False, True)}


def game_seed(run_seed: int, deal: int) -> int:
    """A game's own seed (0 <= seed < 2**63, fits an Int64 column): a digest of the run's seed and deal."""
    digest = hashlib.sha256(f"mjcli-deal:{run_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def wall_seed(seed: int, round_index: int) -> int:
    """The integer that seeds one wall: a digest of the game's seed and the round's number in it."""
    digest = hashlib.sha256(f"mjcli-wall:{seed}:{round_index}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def shuffled_ids(seed: int, round_index: int, layout: Layout = FOUR_PLAYER_LAYOUT) -> list[int]:
    """The physical ids of the set (136, or 108 in three-player) in wall order for round
    ``round_index`` (0, 1, ...) of the game ``seed``."""
    ids = list(layout.ids)
    _shuffle(ids, random.Random(wall_seed(seed, round_index)))
    return ids


def _shuffle(ids: list[int], rng: random.Random) -> None:
    """``rng.shuffle(ids)``: the same draws from ``rng`` and the same swaps (``random.shuffle``'s
    loop and ``Random._randbelow_with_getrandbits`` written out, which ``tests/test_wall.py``
    checks against the library), without two Python calls per tile (a wall a round;
    bench_speed: "self-play, first-legal policy")."""
    getrandbits = rng.getrandbits
    steps = _SHUFFLE_STEPS.get(len(ids)) or _shuffle_steps(len(ids))
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        ids[i], ids[j] = ids[j], ids[i]


def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The swaps of a shuffle of ``size`` items in ``random.shuffle``'s order: the position, the
    number of positions it swaps with, and that number's bit length (what the draw asks for)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


#: the swaps of the four- and three-player sets (136, 108 tiles), worked out once: not a sum and a
#: bit length per tile of every wall (bench_speed: "self-play, first-legal policy")
_SHUFFLE_STEPS = {size: _shuffle_steps(size) for size in (136, 108)}


@dataclass(slots=True)
class Wall:
    """One round's wall. Draws and reveals move pointers; nothing is ever removed from ``ids``."""

    ids: tuple[int, ...]
    red_fives: bool = True
    layout: Layout = FOUR_PLAYER_LAYOUT
    live_next: int = -1  # next live-wall position to draw (set from the layout)
    rinshan_drawn: int = 0  # replacement draws made
    dora_count: int = 1  # dora indicators turned over
    dealt: tuple[tuple[int, ...], ...] = field(default=())  # physical ids of each seat's 13 tiles
    # the tile code of each position (``tile`` of each id), worked out once: a draw is one index,
    # not a call to ``tile_from_id136`` per tile (bench_speed: "self-play, first-legal policy")
    codes: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    @classmethod
    def shuffled(
        cls, seed: int, round_index: int, red_fives: bool = True, variant: Variant = FOUR_PLAYER
    ) -> Wall:
        layout = FOUR_PLAYER_LAYOUT if variant is FOUR_PLAYER else layout_of(variant)
        return cls(tuple(shuffled_ids(seed, round_index, layout)), red_fives, layout)

    def __post_init__(self) -> None:
        if sorted(self.ids) != list(self.layout.ids):
            raise MjcliError(
                f"a wall must hold each of the {self.layout.tiles} physical tiles of its set once"
            )
        if self.live_next < 0:
            self.live_next = self.layout.deal
        self.codes = tuple(map(_CODES[bool(self.red_fives)].__getitem__, self.ids))

    def tile(self, tile_id: int) -> int:
        """The tile code (0..36) of a physical id under these rules."""
        return tile_from_id136(tile_id, self.red_fives)

    def dealt_tiles(self, dealer: int) -> list[list[int]]:
        """Each seat's 13 dealt tiles as tile codes."""
        code = _CODES[bool(self.red_fives)].__getitem__
        return [list(map(code, h)) for h in self.deal(dealer)]

    def deal(self, dealer: int) -> list[list[int]]:
        """The physical ids dealt to each seat (seat order), Tenhou's way: 4-4-4 then 1, from the dealer."""
        n = self.layout.players
        hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for size in (4, 4, 4, 1):
            for i in range(n):
                seat = (dealer + i) % n
                hands[seat].extend(self.ids[pos : pos + size])
                pos += size
        self.dealt = tuple(tuple(h) for h in hands)
        return hands

    @property
    def live_left(self) -> int:
        """Tiles the table may still draw (a rinshan draw also uses one up)."""
        return self.layout.live_end - self.live_next - self.rinshan_drawn

    def draw(self) -> int:
        # (``live_left`` inline: every draw; bench_speed "self-play, first-legal policy")
        pos = self.live_next
        if pos + self.rinshan_drawn >= self.layout.live_end:
            raise MjcliError("the live wall is empty")
        self.live_next = pos + 1
        return self.codes[pos]

    def _rinshan_position(self, k: int) -> int:
        """Where the ``k``-th replacement tile (from 0) lies: the dead wall's four, then the live
        wall's end (three-player: a fifth to eighth replacement after Norths set aside)."""
        first, end = self.layout.rinshan
        if k < end - first:
            return first + k
        return self.layout.live_end - 1 - (k - (end - first))

    def draw_rinshan(self) -> int:
        if self.live_left <= 0 or self.rinshan_drawn >= 8:
            raise MjcliError("no replacement tile left in the dead wall")
        tile_id = self.ids[self._rinshan_position(self.rinshan_drawn)]
        self.rinshan_drawn += 1
        return self.tile(tile_id)

    @property
    def dora_markers(self) -> list[int]:
        """The dora indicators turned so far."""
        first = self.layout.dora[0]
        return [self.tile(i) for i in self.ids[first : first + self.dora_count]]

    def reveal_dora(self) -> int:
        """Turn the next kan dora indicator."""
        first, end = self.layout.dora
        if self.dora_count >= end - first:
            raise MjcliError("all five dora indicators are already turned")
        self.dora_count += 1
        return self.tile(self.ids[first + self.dora_count - 1])

    def ura_markers(self) -> list[int]:
        """The ura indicators under the dora indicators turned so far (shown to a winner in riichi)."""
        first = self.layout.ura[0]
        return [self.tile(i) for i in self.ids[first : first + self.dora_count]]

    def unseen_ids(self) -> list[int]:
        """Physical ids neither dealt, drawn nor turned over: what is still hidden in the wall."""
        lay = self.layout
        seen = set(range(lay.deal)) if self.dealt else set()
        seen |= set(range(lay.deal, self.live_next))
        seen |= {self._rinshan_position(k) for k in range(self.rinshan_drawn)}
        seen |= set(range(lay.dora[0], lay.dora[0] + self.dora_count))
        return [self.ids[p] for p in range(lay.tiles) if p not in seen]
