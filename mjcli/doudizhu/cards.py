"""Dou Dizhu cards: ranks, the one-letter notation, hands as rank counts, the deck and the deal.

Suits never matter in Dou Dizhu, so a hand is a tuple of 15 counts, one per rank in the order
``3 4 5 6 7 8 9 T J Q K A 2 B R`` (B = small joker, R = big joker). Rank indices 0..14 are used
everywhere inside the package; the seed's JavaScript numbers the same ranks 3..17 (``num``), which
is ``index + 3`` (see :func:`seed_num`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from mjcli.errors import InvalidHandError, NotationError

RANK_CHARS = "3456789TJQKA2BR"
NUM_RANKS = 15
ACE = 11
TWO = 12
SMALL_JOKER = 13
BIG_JOKER = 14
#: How many cards of each rank a full deck holds (four of each normal rank, one of each joker).
DECK_COUNTS: tuple[int, ...] = (4,) * 13 + (1, 1)
DECK_SIZE = 54
HAND_SIZE = 17
KITTY_SIZE = 3

Counts = tuple[int, ...]

_ALIASES = {c: i for i, c in enumerate(RANK_CHARS)}
_ALIASES.update({"t": 7, "j": 8, "q": 9, "k": 10, "a": 11, "b": 13, "r": 14})


def seed_num(rank: int) -> int:
    """The seed's card number (3..17: A = 14, 2 = 15, small joker 16, big joker 17)."""
    return rank + 3


def parse_ranks(text: str) -> list[int]:
    """Rank indices of a card string such as ``33445TJQKA2BR`` (``10`` is accepted for T).

    Spaces and commas are ignored. Raises :class:`NotationError` naming the string on anything else.
    """
    ranks: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in " ,\t":
            i += 1
            continue
        if ch == "1" and text[i + 1 : i + 2] == "0":
            ranks.append(7)
            i += 2
            continue
        if ch not in _ALIASES:
            raise NotationError(
                f"cannot read card {ch!r} in {text!r}: use 3456789TJQKA2BR (10 for T, B/R for the jokers)"
            )
        ranks.append(_ALIASES[ch])
        i += 1
    return ranks


def counts_of(ranks: Iterable[int]) -> Counts:
    counts = [0] * NUM_RANKS
    for r in ranks:
        counts[r] += 1
    return tuple(counts)


def check_counts(counts: Sequence[int], text: str = "") -> None:
    """Raise :class:`InvalidHandError` if a rank appears more often than the deck holds it."""
    for rank, (have, limit) in enumerate(zip(counts, DECK_COUNTS, strict=True)):
        if have > limit:
            name = {13: "small joker B", 14: "big joker R"}.get(rank, RANK_CHARS[rank])
            where = f" in {text!r}" if text else ""
            raise InvalidHandError(f"{have} copies of {name}{where}: the deck holds only {limit}")


def parse_hand(text: str, *, allow_empty: bool = False) -> Counts:
    """A hand string -> counts; checks notation and that no rank exceeds the deck."""
    counts = counts_of(parse_ranks(text))
    check_counts(counts, text)
    if not allow_empty and sum(counts) == 0:
        raise InvalidHandError(f"empty hand {text!r}")
    return counts


def format_counts(counts: Sequence[int]) -> str:
    """Counts -> ascending card string (``""`` for no cards)."""
    return "".join(RANK_CHARS[r] * c for r, c in enumerate(counts))


def add(a: Sequence[int], b: Sequence[int]) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def sub(a: Sequence[int], b: Sequence[int]) -> Counts:
    """``a - b``; raises ``ValueError`` if ``b`` is not contained in ``a`` (a bug, not bad input)."""
    out = tuple(x - y for x, y in zip(a, b, strict=True))
    if min(out) < 0:
        raise ValueError(f"{format_counts(b)} is not part of {format_counts(a)}")
    return out


def contains(a: Sequence[int], b: Sequence[int]) -> bool:
    return all(x >= y for x, y in zip(a, b, strict=True))


def deck_ranks() -> list[int]:
    return [r for r, c in enumerate(DECK_COUNTS) for _ in range(c)]


def deal(rng: random.Random) -> tuple[list[Counts], Counts]:
    """Shuffle a full deck with ``rng``: three hands of 17 and the 3-card kitty."""
    cards = deck_ranks()
    rng.shuffle(cards)
    hands = [counts_of(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(3)]
    kitty = counts_of(cards[3 * HAND_SIZE :])
    return hands, kitty
