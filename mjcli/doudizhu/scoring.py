"""The stake arithmetic of a finished game.

Standard scoring: ``stake = base x bid x 2^(bombs + rockets) x 2 if spring``, where a spring is a
landlord win in which the peasants never played a card, or a peasant win in which the landlord
played only the opening lead (reverse spring). The landlord receives the stake from each peasant or
pays it to each. DouZero's research setting has no bid and no spring: landlord +-2, each peasant
+-1, times 2^(bombs and rocket); that is ``base = bid = 1`` with springs switched off.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settlement:
    stake: int
    spring: bool  # spring or reverse spring, when it counted
    points: tuple[int, int, int]  # per seat


def settle(
    *,
    landlord: int,
    landlord_won: bool,
    bid: int,
    bombs: int,
    spring: bool,
    base: int = 1,
    springs_count: bool = True,
) -> Settlement:
    """Points per seat. ``bombs`` counts bombs and rockets played; ``spring`` is true for a spring or
    a reverse spring (the caller knows which applies to the winner)."""
    doubled = spring and springs_count
    stake = base * bid * 2**bombs * (2 if doubled else 1)
    sign = 1 if landlord_won else -1
    points = [(-sign) * stake] * 3
    points[landlord] = sign * 2 * stake
    return Settlement(stake=stake, spring=doubled, points=(points[0], points[1], points[2]))
