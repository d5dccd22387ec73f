"""What a player can do, as one value: :class:`Move`, and its text form (logs, replay rows).

Kinds, on the player's own turn: ``discard`` a tile, ``win`` (self-drawn), ``ckong`` (a concealed
kong of four tiles in hand), ``akong`` (add the fourth tile to an own pung). On another player's
discard: ``win``, ``pung``, ``kong`` (three in hand and the discard), ``chow`` (the next player
only; ``uses`` the two hand tiles) or ``pass``. On another player's added kong: ``win`` (robbing
the kong) or ``pass``.

Text: ``discard 5m``, ``win 5m``, ``ckong 5m``, ``akong 5m``, ``pung 5m``, ``kong 5m``,
``chow 5m 46m`` (the tile taken, then the two tiles from the hand), ``pass``; jokers are ``J``.
"""

from __future__ import annotations

from typing import NamedTuple

from mjcli.errors import LogFormatError, MjcliError
from mjcli.hk.notation import tile_code, tile_text, value_text
from mjcli.tiles import parse_tiles

KINDS = ("discard", "win", "ckong", "akong", "pung", "kong", "chow", "pass")
#: kinds a player may answer to another player's discard, in the order of the claim priority
CLAIMS = ("win", "kong", "pung", "chow")


class Move(NamedTuple):
    """One move (a named tuple: made, compared and hashed at C speed in the engine's loops)."""

    kind: str
    tile: int = -1
    uses: tuple[int, ...] = ()

    def text(self) -> str:
        if self.kind == "pass":
            return "pass"
        head = f"{self.kind} {tile_text(self.tile)}"
        if self.kind == "chow":
            return head + " " + "".join(str(k % 9 + 1) for k in self.uses) + "mps"[self.uses[0] // 9]
        return head

    def __str__(self) -> str:  # type: ignore[override]
        return self.text()


PASS = Move("pass")
#: the moves of one kind and tile, made once (building a frozen dataclass is slow in a hot loop)
DISCARD: tuple[Move, ...] = tuple(Move("discard", t) for t in range(35))
WIN: tuple[Move, ...] = tuple(Move("win", t) for t in range(35))
PUNG: tuple[Move, ...] = tuple(Move("pung", t) for t in range(34))
KONG: tuple[Move, ...] = tuple(Move("kong", t) for t in range(34))
CKONG: tuple[Move, ...] = tuple(Move("ckong", t) for t in range(34))
AKONG: tuple[Move, ...] = tuple(Move("akong", t) for t in range(34))
#: the text of every move made above (the engine logs one at every decision)
MOVE_TEXT: dict[Move, str] = {m: m.text() for m in (PASS, *DISCARD, *WIN, *PUNG, *KONG, *CKONG, *AKONG)}


def parse_move(text: str) -> Move:
    """The move written by :meth:`Move.text`; :class:`LogFormatError` when it is not one."""
    if not isinstance(text, str):  # a log's number or null where a move belongs
        raise LogFormatError(f"{value_text(text)} is not a move (a move is text: 'discard 5m', 'pass')")
    parts = text.split()
    if not parts or parts[0] not in KINDS:
        raise LogFormatError(f"'{text}' is not a move ({', '.join(KINDS)})")
    kind = parts[0]
    try:
        if kind == "pass":
            if len(parts) != 1:
                raise LogFormatError(f"'{text}': pass takes no tile")
            return PASS
        if kind == "chow":
            if len(parts) != 3:
                raise LogFormatError(f"'{text}': a chow is 'chow TILE TWO-TILES' (chow 5m 46m)")
            return Move(kind, tile_code(parts[1]), tuple(sorted(parse_tiles(parts[2]))))
        if len(parts) != 2:
            raise LogFormatError(f"'{text}': '{kind}' takes one tile")
        return Move(kind, tile_code(parts[1]))
    except LogFormatError:
        raise
    except MjcliError as exc:
        raise LogFormatError(f"'{text}': {exc}") from None
