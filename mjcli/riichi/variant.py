"""The shape of the game a rule set is played on: four players, or three (sanma).

The model is python-chess's ``chess.variant``: one engine, and a small object per variant that
states what differs (the chess variants subclass the board; here a variant is data the engine
reads). A :class:`Variant` says how many seats there are, which tiles are in the set, how big the
wall is, whether chi exists, which tile is set aside as nukidora, which abortive draws can happen at
all. What is a matter of the table's settings (start and return points, uma, honba, noten payments,
what happens to the absent seat's share of a tsumo) stays in :class:`~mjcli.riichi.rules.Rules`,
whose ``players`` field picks the variant (``rules.variant``).

Three-player (Tenhou's 三麻, checked against real logs: see ``fixtures/sanma/README.md``):

* 108 tiles: the manzu 2-8 are taken out; 1m and 9m, every pin, sou and honour stay (so thirteen
  orphans and every hand with 1m/9m still exist); one red five each in pin and sou.
* Three seats, East South West; a wind has three rounds (E1-E3); the round numbers of Tenhou's
  logs skip the fourth (E1-E3 are 0, 1, 2; S1-S3 are 4, 5, 6).
* The deal is 3 x 13 tiles, the dead wall 14, so the live wall is 55; every replacement draw (after
  a kan or a nukidora) shortens it by one, as in four-player.
* No chi. North (4z) may be set aside instead of a discard on one's own turn after a draw
  (nukidora, 抜きドラ): a replacement draw follows, and each North set aside is one dora (and one
  more for each dora indicator pointing at North; ura too for a winner in riichi).
* Four winds and four riichi cannot happen with three players, nor a triple ron (only two others
  can call ron).
"""

from __future__ import annotations

from dataclasses import dataclass

from mjcli.tiles import NORTH, NUM_KINDS, SANMA_ABSENT


@dataclass(frozen=True)
class Variant:
    """What a game of this variant is made of; the engine, the wall and the formats read it."""

    name: str
    players: int
    #: tile kinds not in the set (none in four-player; the manzu 2-8 in three-player)
    absent_kinds: frozenset[int] = frozenset()
    dead_wall: int = 14
    chi: bool = True
    #: the kind set aside as nukidora (None: no nukidora)
    nukidora: int | None = None
    #: abortive draws that can happen at all with this many players
    four_winds: bool = True
    four_riichi: bool = True
    triple_ron: bool = True

    @property
    def tiles(self) -> int:
        """Physical tiles in the set."""
        return 4 * (NUM_KINDS - len(self.absent_kinds))

    @property
    def live_wall(self) -> int:
        """Draws a round offers, replacement draws included (136: 70; 108: 55)."""
        return self.tiles - self.dead_wall - 13 * self.players

    @property
    def kinds(self) -> tuple[int, ...]:
        """The tile kinds in the set, in kind order."""
        return tuple(k for k in range(NUM_KINDS) if k not in self.absent_kinds)

    @property
    def riichi_wall(self) -> int:
        """Tiles the live wall must still hold for a riichi: enough for the declarer to draw once
        more after every other player has (four; three in three-player). riichi.wiki "Riichi": "the
        player must be able to draw one more tile"; RiichiEnv (PR 233, "Require at least three
        remaining tiles to declare riichi" in sanma, checked on Mahjong Soul's three-player logs);
        no Tenhou three-player log here says otherwise (found by a RiichiEnv cross-check: its games'
        riichi with three tiles left were refused)."""
        return self.players

    def has_kind(self, k: int) -> bool:
        return k not in self.absent_kinds

    def next_seat(self, seat: int) -> int:
        """The seat that plays after ``seat`` (counter-clockwise)."""
        return (seat + 1) % self.players

    def seat_wind(self, seat: int, dealer: int) -> int:
        """0 East (the dealer), 1 South, 2 West, 3 North."""
        return (seat - dealer) % self.players


FOUR_PLAYER = Variant(name="four-player", players=4)
THREE_PLAYER = Variant(
    name="three-player",
    players=3,
    absent_kinds=frozenset(SANMA_ABSENT),
    chi=False,
    nukidora=NORTH,
    four_winds=False,
    four_riichi=False,
    triple_ron=False,
)

#: every variant by its name and aliases
VARIANTS: dict[str, Variant] = {
    "four-player": FOUR_PLAYER,
    "yonma": FOUR_PLAYER,
    "three-player": THREE_PLAYER,
    "sanma": THREE_PLAYER,
}


def variant_for(players: int) -> Variant:
    """The variant played by ``players`` players (3 or 4); ValueError otherwise."""
    if players == 4:
        return FOUR_PLAYER
    if players == 3:
        return THREE_PLAYER
    raise ValueError(f"riichi is played by three or four players, not {players}")
