"""Tenhou mjlog meld codes (the ``m`` attribute of ``<N>`` and ``<AGARI>``), decoded and encoded.

Bit layout of the 16-bit code (low bits first):

* bits 0-1: where the called tile came from, counted counter-clockwise from the caller
  (0 = own hand, 1 = next player / shimocha, 2 = opposite / toimen, 3 = previous / kamicha).
* bit 2 set: **chi**. bits 3-4, 5-6, 7-8: the copy (0..3) of each of the three tiles of the run;
  bits 10-15: ``base * 3 + called`` where ``base`` numbers the 21 possible runs (7 per suit) and
  ``called`` is which of the three tiles was called.
* bit 3 set: **pon**; bit 4 set: **added kan** (kakan). bits 5-6: the copy of the kind not in the
  pon (for a kakan: the added tile); bits 9-15: ``kind * 3 + called`` (index of the called tile
  among the three pon tiles, ordered by copy).
* bit 5 set (and bits 2-4 clear): **kita** (three-player north extraction); bits 8-15: the tile id.
* otherwise: **kan** — closed (ankan) when bits 0-1 are 0, else open (daiminkan); bits 8-15:
  ``kind * 4 + called`` (for an ankan, bits 8-15 name one of the four tiles).
"""

from __future__ import annotations

from dataclasses import dataclass

from mjcli.errors import LogFormatError

CHI, PON, ADDED_KAN, OPEN_KAN, CLOSED_KAN, KITA = "chi", "pon", "added_kan", "open_kan", "closed_kan", "kita"


@dataclass(frozen=True, slots=True)
class MeldCode:
    """A decoded meld: physical tile ids (0..135)."""

    kind: str  # CHI, PON, ADDED_KAN, OPEN_KAN, CLOSED_KAN or KITA
    offset: int  # 0 own, 1 shimocha, 2 toimen, 3 kamicha
    tiles: tuple[int, ...]  # every tile of the meld (3 for chi/pon, 4 for kans, 1 for kita), by id
    called: int | None  # the id taken from another player (None for closed kan and kita)
    added: int | None = None  # kakan: the id added to the pon

    @property
    def consumed(self) -> tuple[int, ...]:
        """The ids that came from the caller's hand (for a kakan: the three pon tiles)."""
        if self.kind == ADDED_KAN:
            return tuple(t for t in self.tiles if t != self.added)
        return tuple(t for t in self.tiles if t != self.called)


def decode_meld(code: int) -> MeldCode:
    if not 0 <= code < 1 << 16:
        raise LogFormatError(f"meld code {code} is outside 0..65535")
    offset = code & 3
    if code & 0x4:
        t = code >> 10
        called_index = t % 3
        run = t // 3
        if run >= 21:
            raise LogFormatError(f"meld code {code}: chi base {run} is not a run")
        first = (run // 7) * 9 + run % 7
        copies = ((code >> 3) & 3, (code >> 5) & 3, (code >> 7) & 3)
        tiles = tuple((first + i) * 4 + copies[i] for i in range(3))
        return MeldCode(CHI, offset, tiles, tiles[called_index])
    if code & 0x18:
        t = code >> 9
        called_index = t % 3
        kind_ = t // 3
        if kind_ >= 34:
            raise LogFormatError(f"meld code {code}: tile kind {kind_} does not exist")
        unused = (code >> 5) & 3
        pon = tuple(kind_ * 4 + c for c in range(4) if c != unused)
        if code & 0x8:
            return MeldCode(PON, offset, pon, pon[called_index])
        added = kind_ * 4 + unused
        return MeldCode(ADDED_KAN, offset, tuple(sorted(pon + (added,))), pon[called_index], added)
    if code & 0x20:
        tile = code >> 8
        if tile // 4 != 30:
            raise LogFormatError(f"meld code {code}: kita of tile id {tile}, which is not a North")
        return MeldCode(KITA, offset, (tile,), None)
    tile = code >> 8
    if tile >= 136:
        raise LogFormatError(f"meld code {code}: tile id {tile} does not exist")
    base = tile - tile % 4
    tiles = tuple(range(base, base + 4))
    if offset == 0:
        return MeldCode(CLOSED_KAN, 0, tiles, None)
    return MeldCode(OPEN_KAN, offset, tiles, tile)


def encode_meld(meld: MeldCode) -> int:
    """The inverse of :func:`decode_meld` (used by tests and by writers that emit mjlog codes)."""
    if meld.kind == CHI:
        kinds = [t // 4 for t in meld.tiles]
        first = kinds[0]
        run = (first // 9) * 7 + first % 9
        called_index = meld.tiles.index(meld.called)
        code = ((run * 3 + called_index) << 10) | 0x4 | meld.offset
        for i, t in enumerate(meld.tiles):
            code |= (t % 4) << (3 + 2 * i)
        return code
    if meld.kind in (PON, ADDED_KAN):
        kind_ = meld.tiles[0] // 4
        if meld.kind == PON:
            pon = meld.tiles
            unused = next(c for c in range(4) if kind_ * 4 + c not in pon)
            flag = 0x8
        else:
            pon = tuple(t for t in meld.tiles if t != meld.added)
            unused = meld.added % 4
            flag = 0x10
        called_index = pon.index(meld.called)
        return ((kind_ * 3 + called_index) << 9) | (unused << 5) | flag | meld.offset
    if meld.kind == KITA:
        return (meld.tiles[0] << 8) | 0x20 | meld.offset
    tile = meld.called if meld.kind == OPEN_KAN else meld.tiles[0]
    return (tile << 8) | meld.offset
