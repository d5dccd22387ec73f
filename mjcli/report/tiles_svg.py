"""Mahjong tiles and Dou Dizhu cards as SVG, and hands drawn with them.

Unicode's mahjong tiles (U+1F000...) and the kanji on them need fonts that most machines lack (they
show as empty boxes), so every face is drawn: a rounded tile, the rank digit in the suit's colour,
the suit or honour kanji as path outlines (:mod:`mjcli.report.glyphs`), a red five in bright red
with a red dot in its corner, the white dragon as an empty blue frame; Hong Kong's bonus tiles are a
flower (``F1``-``F4``) or a sun (``S1``-``S4``, seasons) with their number, Red mahjong's joker
(``J``) a gold star. Cards are a rank on a white card, jokers in their colours.

A page holds each face once, as a ``<symbol>`` of a :class:`Sprite`; a tile on the page is a small
``<svg class="tile">`` (``class="card"``) that uses its symbol and carries the tile's name as a
``<title>``. A drawn hand is a ``<div class="hand" data-tiles="N">`` holding N of them, so that the
browser test can count what it sees against what was meant.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from mjcli.errors import MjcliError
from mjcli.report.glyphs import GLYPHS
from mjcli.tiles import parse_tiles, tile_name

_SUITS = {
    "m": ("#c0392b", "萬", "characters"),
    "p": ("#1f5fa8", "筒", "circles"),
    "s": ("#1e8449", "索", "bamboo"),
}
_HONOURS = {
    "1z": ("東", "#222", "East"),
    "2z": ("南", "#222", "South"),
    "3z": ("西", "#222", "West"),
    "4z": ("北", "#222", "North"),
    "5z": ("", "#1f5fa8", "White dragon"),
    "6z": ("發", "#1e8449", "Green dragon"),
    "7z": ("中", "#c0392b", "Red dragon"),
}
_TEXT_FONT = 'font-family="DejaVu Sans,Arial,Helvetica,sans-serif"'
#: Dou Dizhu's ranks as written in mjcli and as shown on a card
_CARD_FACE = {"T": "10", "B": "JOKER", "R": "JOKER"}


#: Hong Kong's tiles beyond mpsz: bonus tiles (their number is the seat wind they belong to) and
#: Red's joker, as :mod:`mjcli.hk.notation` writes them
_BONUS = {"F": ("flower", "#c2185b"), "S": ("season", "#e67e22")}
_JOKER = "J"
_BONUS_OWNER = {"1": "East", "2": "South", "3": "West", "4": "North"}


def tile_tokens(mpsz: str) -> list[str]:
    """``"055m1z"`` -> ``["0m", "5m", "5m", "1z"]`` (the order written; ``0`` is a red five)."""
    return [tile_name(t) for t in parse_tiles(mpsz)] if mpsz else []


def hk_tokens(text: str) -> list[str]:
    """A Hong Kong hand, tile or list: mpsz with ``J`` for jokers, ``F1``-``F4``/``S1``-``S4``
    bonus tiles (comma-separated or not): ``"123mJ"`` -> ``["1m", "2m", "3m", "J"]``."""
    out: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _BONUS and i + 1 < len(text) and text[i + 1] in _BONUS_OWNER:
            out.append(text[i : i + 2])
            i += 2
            continue
        if ch == _JOKER:
            out.append(_JOKER)
        elif ch != ",":
            rest.append(ch)
        i += 1
    return tile_tokens("".join(rest)) + out


def tile_label(name: str) -> str:
    """``5m`` -> ``5 characters``; ``0p`` -> ``red 5 circles``; ``6z`` -> ``Green dragon (6z)``;
    ``F2`` -> ``flower 2, South's (F2)``; ``J`` -> ``joker (J)``."""
    if name in _HONOURS:
        return f"{_HONOURS[name][2]} ({name})"
    if name == _JOKER:
        return "joker (J)"
    if name[0] in _BONUS:
        return f"{_BONUS[name[0]][0]} {name[1]}, {_BONUS_OWNER[name[1]]}'s ({name})"
    rank, suit = name[0], name[1]
    return f"{'red 5' if rank == '0' else rank} {_SUITS[suit][2]} ({name})"


def _glyph(char: str, x: float, y: float, size: float, fill: str) -> str:
    return f'<path transform="translate({x} {y}) scale({size / 100})" d="{GLYPHS[char]}" fill="{fill}"/>'


def _number(text: str, x: float, y: float, size: float, fill: str) -> str:
    return (
        f'<text x="{x}" y="{y}" text-anchor="middle" font-size="{size}" font-weight="bold" fill="{fill}" '
        f"{_TEXT_FONT}>{text}</text>"
    )


def _bonus_face(name: str) -> list[str]:
    """A flower (five petals round a heart) or a season (a sun), with the tile's number."""
    kind, number = name[0], name[1]
    colour = _BONUS[kind][1]
    body = []
    if kind == "F":
        for dx, dy in ((0, -5), (4.8, -1.5), (3, 4), (-3, 4), (-4.8, -1.5)):
            body.append(f'<circle cx="{15 + dx}" cy="{22 + dy}" r="3.6" fill="{colour}"/>')
        body.append('<circle cx="15" cy="22" r="2.4" fill="#f4d03f"/>')
    else:
        rays = " ".join(
            f"M{15 + 5.5 * c:.1f} {22 + 5.5 * s:.1f}L{15 + 8.5 * c:.1f} {22 + 8.5 * s:.1f}"
            for c, s in ((1, 0), (0.7, 0.7), (0, 1), (-0.7, 0.7), (-1, 0), (-0.7, -0.7), (0, -1), (0.7, -0.7))
        )
        body.append(f'<path d="{rays}" stroke="{colour}" stroke-width="1.6" stroke-linecap="round"/>')
        body.append(f'<circle cx="15" cy="22" r="4.5" fill="{colour}"/>')
    body.append(_number(number, 7, 11, 9, colour))
    body.append(_number(kind, 23, 11, 7, "#666"))
    return body


def _joker_face() -> list[str]:
    star = "15,8 17.6,15.4 25,15.6 19.1,20.1 21.2,27.4 15,23 8.8,27.4 10.9,20.1 5,15.6 12.4,15.4"
    return [
        f'<polygon points="{star}" fill="#f1c40f" stroke="#b7950b" stroke-width="0.8"/>',
        _number("JOKER", 15, 35, 5.5, "#8e44ad"),
    ]


def _tile_face(name: str) -> str:
    body = [
        '<rect x="1" y="1" width="28" height="38" rx="4" fill="#fdfaf0" stroke="#444" stroke-width="1.2"/>'
    ]
    if name == _JOKER:
        body += _joker_face()
    elif name[0] in _BONUS:
        body += _bonus_face(name)
    elif name[1] == "z":
        char, colour, _ = _HONOURS[name]
        if char:
            body.append(_glyph(char, 4, 9, 22, colour))
        else:
            frame = 'x="7" y="9" width="16" height="22" rx="2" fill="none" stroke="#1f5fa8" stroke-width="2"'
            body.append(f"<rect {frame}/>")
    else:
        colour, char, _ = _SUITS[name[1]]
        red = name[0] == "0"
        body.append(
            f'<text x="15" y="19" text-anchor="middle" font-size="16" font-weight="bold" '
            f'fill="{"#ff1a1a" if red else colour}" {_TEXT_FONT}>{"5" if red else name[0]}</text>'
        )
        body.append(_glyph(char, 8, 22, 14, colour))
        if red:
            # A mark of its own: the characters' digits are red already, so a red 5m drawn only in a
            # brighter red could not be told from a plain 5m (seen on the page of a Tenhou log).
            body.append('<circle class="red-five" cx="24.5" cy="6.5" r="3" fill="#ff1a1a"/>')
    return "".join(body)


def _card_face(rank: str) -> str:
    colour = "#c0392b" if rank == "R" else "#111"
    body = ['<rect x="1" y="1" width="26" height="38" rx="3" fill="#fff" stroke="#555" stroke-width="1.2"/>']
    if rank in "BR":
        # textLength: the words are fitted to the card whatever the viewer's font (at 8 px bold,
        # JOKER ran past the card's foot and showed as "JOKE")
        body.append(
            f'<text x="14" y="11" text-anchor="middle" font-size="6" font-weight="bold" fill="{colour}" '
            f'textLength="{20 if rank == "B" else 12}" lengthAdjust="spacingAndGlyphs" '
            f"{_TEXT_FONT}>{'SMALL' if rank == 'B' else 'BIG'}</text>"
        )
        body.append(
            f'<text transform="translate(11 14) rotate(90)" font-size="8" font-weight="bold" '
            f'fill="{colour}" textLength="22" lengthAdjust="spacingAndGlyphs" {_TEXT_FONT}>JOKER</text>'
        )
    else:
        face = _CARD_FACE.get(rank, rank)
        size = 13 if len(face) > 1 else 16
        body.append(
            f'<text x="14" y="25" text-anchor="middle" font-size="{size}" font-weight="bold" '
            f'fill="{colour}" {_TEXT_FONT}>{face}</text>'
        )
    return "".join(body)


class Sprite:
    """The faces one page uses, each defined once; :meth:`defs` is written at the top of the page."""

    def __init__(self) -> None:
        self._faces: dict[str, str] = {}

    @staticmethod
    def _use(key: str, css: str, width: int, height: int, label: str, view: str) -> str:
        return (
            f'<svg class="{css}" width="{width}" height="{height}" viewBox="{view}" role="img" '
            f'aria-label="{escape(label)}"><title>{escape(label)}</title><use href="#{key}"/></svg>'
        )

    def tile(self, name: str, width: int = 30) -> str:
        """One mahjong tile (``5m``, ``0p`` red five, ``7z``; ``F1``, ``S4``, ``J``)."""
        key = "tile-" + name
        if key not in self._faces:
            self._faces[key] = f'<symbol id="{key}" viewBox="0 0 30 40">{_tile_face(name)}</symbol>'
        return self._use(key, "tile", width, width * 4 // 3, tile_label(name), "0 0 30 40")

    def card(self, rank: str, width: int = 28) -> str:
        """One Dou Dizhu card (``3``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``2``, ``B``, ``R``)."""
        key = "card-" + rank
        if key not in self._faces:
            self._faces[key] = f'<symbol id="{key}" viewBox="0 0 28 40">{_card_face(rank)}</symbol>'
        label = {"B": "small joker", "R": "big joker"}.get(rank, _CARD_FACE.get(rank, rank))
        return self._use(key, "card", width, width * 10 // 7, label, "0 0 28 40")

    def defs(self) -> str:
        """The symbols, in a zero-size SVG (not ``display: none``, which some viewers do not draw from)."""
        if not self._faces:
            return ""
        return (
            '<svg class="sprite" width="0" height="0" aria-hidden="true" '
            'style="position:absolute;width:0;height:0;overflow:hidden">'
            f"<defs>{''.join(self._faces[k] for k in sorted(self._faces))}</defs></svg>"
        )


def _group(items: Iterable[str], css: str, caption: str = "") -> str:
    cap = f'<span class="caption">{escape(caption)}</span>' if caption else ""
    return f'<span class="{css}">{cap}{"".join(items)}</span>'


def _seat_tiles(
    sprite: Sprite,
    tokens: list[str],
    drawn: str | None,
    melds: str | None,
    offered: list[str],
    bonus: Sequence[str] = (),
) -> str:
    """A seat's tiles as one block: the concealed ``tokens`` (``drawn`` set apart when it is among
    them), the open melds, the bonus tiles set aside, and the ``offered`` tiles of another player."""
    tail = [drawn] if drawn and drawn in tokens else []
    if tail:
        tokens = list(tokens)
        tokens.remove(tail[0])
    groups = [_group((sprite.tile(t) for t in tokens), "tiles")]
    count = len(tokens)
    if tail:
        groups.append(_group((sprite.tile(t) for t in tail), "tiles drawn", "drew"))
        count += 1
    for meld in (m for m in (melds or "").split(",") if m.strip()):
        kind, _, tiles = meld.partition(":")
        names = tile_tokens(tiles)
        groups.append(_group((sprite.tile(t, 24) for t in names), "tiles meld", kind))
        count += len(names)
    if bonus:
        groups.append(_group((sprite.tile(t, 24) for t in bonus), "tiles meld", "bonus"))
        count += len(bonus)
    if offered:
        groups.append(_group([sprite.tile(t) for t in offered], "tiles offered", "on"))
        count += 1
    return f'<div class="hand" data-tiles="{count}">{"".join(groups)}</div>'


def riichi_hand(
    sprite: Sprite, hand: str, drawn: str | None = None, offered: str | None = None, melds: str | None = None
) -> str:
    """A riichi seat's tiles: the concealed hand (the drawn tile set apart), the open melds, and the
    tile offered by another player when the decision is about it."""
    return _seat_tiles(sprite, tile_tokens(hand), drawn, melds, [offered] if offered else [])


def hk_hand(
    sprite: Sprite,
    hand: str,
    drawn: str | None = None,
    offered: str | None = None,
    melds: str | None = None,
    bonus: str | None = None,
) -> str:
    """A Hong Kong (or Red) seat's tiles: the concealed hand (jokers last, the drawn tile set
    apart), the open melds, the bonus tiles set aside, and the tile offered when the decision is
    about another player's discard or kong."""
    offered_tiles = hk_tokens(offered) if offered else []
    return _seat_tiles(sprite, hk_tokens(hand), drawn, melds, offered_tiles, hk_tokens(bonus or ""))


def doudizhu_hand(sprite: Sprite, hand: str, lead: str | None = None) -> str:
    """A Dou Dizhu hand in card order, and the combination it has to beat, if any."""
    groups = [_group((sprite.card(c) for c in hand), "cards")]
    count = len(hand)
    if lead:
        groups.append(_group((sprite.card(c, 22) for c in lead), "cards lead", "to beat"))
        count += len(lead)
    return f'<div class="hand" data-tiles="{count}">{"".join(groups)}</div>'


def move_tiles(sprite: Sprite, move: str, tiles: Sequence[str] | None = None) -> str:
    """A move's text with its tile drawn after it: ``discard 5m`` -> ``discard [5m]``."""
    parts = move.split()
    if len(parts) >= 2:
        try:
            tokens = list(tiles) if tiles is not None else tile_tokens(parts[1])
        except MjcliError:  # a second word that is not a tile: the move is shown as text only
            tokens = []
        if len(tokens) == 1:
            rest = escape(" " + " ".join(parts[2:])) if parts[2:] else ""
            return f'<span class="move">{escape(parts[0])} {sprite.tile(tokens[0], 18)}{rest}</span>'
    return f'<span class="move">{escape(move)}</span>'
