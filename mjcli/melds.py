"""Declared melds (chi, pon and the three kinds of kan) and their text notation.

A meld is written ``kind:tiles`` with the tiles in mpsz, several joined by commas:
``"pon:555z,chi:234m,ankan:1111p,kan:9999s,kakan:0555p"``. Kinds:

* ``chi``   a run of three called from the player on the left,
* ``pon``   a called triplet,
* ``kan``   an open kan made on a discard (daiminkan),
* ``ankan`` a concealed kan (the only meld that keeps the hand closed),
* ``kakan`` an added kan: a pon extended with the fourth tile (shouminkan).

``chii``, ``minkan``/``daiminkan`` and ``shouminkan`` are read as aliases. Which tile was called and
from whom cannot be written in this notation; game engines fill ``called``/``from_seat`` themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mjcli.errors import NotationError
from mjcli.tiles import check_counts, is_honor, kind, parse_tiles, sort_key, suit_of, to_mpsz

MELD_KINDS = ("chi", "pon", "kan", "ankan", "kakan")
_ALIASES = {"chii": "chi", "minkan": "kan", "daiminkan": "kan", "shouminkan": "kakan"}
_SIZES = {"chi": 3, "pon": 3, "kan": 4, "ankan": 4, "kakan": 4}


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared meld; ``tiles`` are tile codes (0..36) in hand order."""

    kind: str
    tiles: tuple[int, ...]
    called: int | None = None
    from_seat: int | None = None

    @property
    def opened(self) -> bool:
        """Every meld but a concealed kan opens the hand."""
        return self.kind != "ankan"

    @property
    def is_kan(self) -> bool:
        return self.kind in ("kan", "ankan", "kakan")

    @property
    def kind34(self) -> int:
        """The kind (0..33) of the lowest tile: the triplet's kind, or the start of a run."""
        return kind(self.tiles[0])

    def __str__(self) -> str:
        return meld_to_text(self)


def make_meld(
    kind_name: str, tiles: Iterable[int], called: int | None = None, from_seat: int | None = None
) -> Meld:
    """Build a meld after checking its shape; raise :class:`NotationError` naming the meld."""
    name = _ALIASES.get(kind_name.strip().lower(), kind_name.strip().lower())
    seq = tuple(sorted(tiles, key=sort_key))
    label = f"meld '{kind_name}:{to_mpsz(seq)}'" if seq else f"meld '{kind_name}'"
    if name not in MELD_KINDS:
        raise NotationError(f"{label}: unknown meld kind '{kind_name}' (use {', '.join(MELD_KINDS)})")
    if len(seq) != _SIZES[name]:
        raise NotationError(f"{label}: a {name} has {_SIZES[name]} tiles, not {len(seq)}")
    check_counts(seq, label)
    kinds = [kind(t) for t in seq]
    if name == "chi":
        k0 = kinds[0]
        if is_honor(k0) or kinds != [k0, k0 + 1, k0 + 2] or suit_of(kinds[2]) != suit_of(k0):
            raise NotationError(f"{label}: a chi is three consecutive numbers of one suit")
    elif len(set(kinds)) != 1:
        raise NotationError(f"{label}: a {name} is {len(seq)} copies of one tile")
    if called is not None and kind(called) not in kinds:
        raise NotationError(f"{label}: the called tile is not part of the meld")
    return Meld(name, seq, called, from_seat)


def parse_meld(text: str) -> Meld:
    """One meld, ``kind:tiles`` (``pon:555z``)."""
    head, sep, body = text.strip().partition(":")
    if not sep or not head or not body.strip():
        raise NotationError(f"meld '{text.strip()}' is not of the form kind:tiles (e.g. pon:555z)")
    return make_meld(head, parse_tiles(body))


def parse_melds(text: str) -> list[Meld]:
    """Comma-separated melds (``"pon:555z,chi:234m"``); an empty string means no melds. A hand has
    four sets at most (riichi and Hong Kong alike), so more melds are refused here, by count."""
    parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
    if len(parts) > 4:
        raise NotationError(f"melds '{text}': {len(parts)} melds, and a hand has four sets at most")
    return [parse_meld(p) for p in parts]


def meld_to_text(m: Meld) -> str:
    """The notation read by :func:`parse_meld` (``pon:555z``)."""
    return f"{m.kind}:{to_mpsz(m.tiles)}"


def melds_to_text(melds: Iterable[Meld]) -> str:
    return ",".join(meld_to_text(m) for m in melds)
