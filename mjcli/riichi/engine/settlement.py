"""Point settlement: who pays whom at the end of a round, and the final result of a game.

Pure arithmetic on a hand's *base points* (fu * 2^(han+2), capped at the limits: mangan 2000,
haneman 3000, baiman 4000, sanbaiman 6000, yakuman 8000 per unit), so that every payment rule of
the table (honba, riichi sticks, pao, double ron, tenpai payments, nagashi mangan, leftover sticks,
uma and oka) lives in one small module and can be checked on its own. Amounts are in points.

Conservation (tested): the deltas of a settlement sum to 1000 x the riichi sticks it hands out;
a draw's deltas sum to zero.

Three players: a tsumo is paid by the two others (the absent North seat's share is lost, Tenhou's
tsumo-son, or half of it added to each payer's with ``split``); the honba and the noten payments are
arguments (Tenhou's three-player table: 200 per honba on a ron, 100 from each payer on a tsumo,
2000 in all at an exhaustive draw).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mjcli.riichi.scoring import absent_half

MANGAN_BASE = 2000
HONBA_RON = 300  # per honba, paid by the discarder on a ron
HONBA_TSUMO = 100  # per honba, paid by each other player on a tsumo
STICK = 1000
TENPAI_POOL = 3000


def ceil100(x: int) -> int:
    return -(-x // 100) * 100


def ron_value(base: int, dealer: bool) -> int:
    """What a ron is worth: 6x base for the dealer, 4x for a non-dealer, rounded up to 100."""
    return ceil100(base * (6 if dealer else 4))


def tsumo_shares(base: int, winner: int, dealer: int, players: int = 4, split: bool = False) -> list[int]:
    """What each seat pays on a tsumo (0 for the winner), before honba. ``split`` (three players):
    each payer adds half the absent North's payment (:func:`mjcli.riichi.scoring.absent_half`)."""
    extra = absent_half(base, winner == dealer) if split else 0
    pay = [0] * players
    for s in range(players):
        if s == winner:
            continue
        pay[s] = ceil100(base * (2 if (winner == dealer or s == dealer) else 1)) + extra
    return pay


@dataclass(frozen=True, slots=True)
class WinPay:
    """One winner's claim: everything a settlement needs to know about the hand."""

    winner: int
    loser: int | None  # None for tsumo
    base: int  # base points of the whole hand
    pao: int | None = None  # liable seat
    pao_base: int = 0  # the part of ``base`` the liable seat answers for (Tenhou: all of it)


def win_deltas(
    win: WinPay,
    dealer: int,
    honba: int,
    sticks: int,
    players: int = 4,
    *,
    honba_ron: int = HONBA_RON,
    honba_tsumo: int = HONBA_TSUMO,
    split: bool = False,
) -> tuple[list[int], int]:
    """Deltas of one win with ``honba`` counters and ``sticks`` riichi sticks going to the winner.

    Returns (deltas, hand value before honba and sticks). Pao: on tsumo the liable player pays the
    pao part as if he had dealt in, honba included; on a ron from someone else the liable player and
    the discarder split the pao part and the liable player pays the honba. ``pao_base`` is what the
    liable player answers for: under Tenhou's rules the whole hand (a second yakuman in it too), so
    the other players pay nothing on a tsumo; any part of ``base`` beyond it is paid as usual.
    ``honba_ron`` / ``honba_tsumo`` are the points per honba (a ron's, and each tsumo payer's);
    ``split``: see :func:`tsumo_shares`.
    """
    d = [0] * players
    w = win.winner
    is_dealer = w == dealer
    pao_base = win.pao_base if win.pao is not None and win.pao != win.loser else 0
    rest = win.base - pao_base
    value = 0
    if win.loser is None:
        if pao_base:
            liable = win.pao
            assert liable is not None
            amount = ron_value(pao_base, is_dealer)
            d[liable] -= amount + honba_ron * honba
            d[w] += amount + honba_ron * honba
            value += amount
            if rest:
                for s, p in enumerate(tsumo_shares(rest, w, dealer, players, split)):
                    d[s] -= p
                    d[w] += p
                    value += p
        else:
            for s, p in enumerate(tsumo_shares(rest, w, dealer, players, split)):
                if s == w:
                    continue
                d[s] -= p + honba_tsumo * honba
                d[w] += p + honba_tsumo * honba
                value += p
    else:
        loser = win.loser
        honba_payer = loser
        if pao_base:
            liable = win.pao
            assert liable is not None
            half = ron_value(pao_base, is_dealer) // 2
            d[liable] -= half
            d[loser] -= half
            d[w] += 2 * half
            value += 2 * half
            honba_payer = liable  # Tenhou: the liable player pays the honba of a split ron
        if rest:
            amount = ron_value(rest, is_dealer)
            d[loser] -= amount
            d[w] += amount
            value += amount
        d[honba_payer] -= honba_ron * honba
        d[w] += honba_ron * honba
    d[w] += STICK * sticks
    return d, value


def ron_order(discarder: int, winners: Sequence[int], players: int = 4) -> list[int]:
    """Winners of a multiple ron in turn order from the discarder (the first is 'atamahane')."""
    return sorted(winners, key=lambda s: (s - discarder) % players)


def draw_tenpai_deltas(tenpai: Sequence[bool], pool: int = TENPAI_POOL) -> list[int]:
    """Exhaustive draw: the noten players pay ``pool`` in all (Tenhou: 3000; three-player 2000),
    shared among the tenpai players."""
    n = len(tenpai)
    k = sum(1 for t in tenpai if t)
    if k in (0, n):
        return [0] * n
    return [pool // k if t else -pool // (n - k) for t in tenpai]


def nagashi_deltas(nagashi: Sequence[bool], dealer: int, split: bool = False) -> list[int]:
    """Nagashi mangan: each qualifying player is paid a mangan tsumo (no honba, no sticks)."""
    n = len(nagashi)
    d = [0] * n
    for s, ok in enumerate(nagashi):
        if not ok:
            continue
        for p, amount in enumerate(tsumo_shares(MANGAN_BASE, s, dealer, n, split)):
            d[p] -= amount
            d[s] += amount
    return d


def ranking(scores: Sequence[int]) -> list[int]:
    """Seats from first to last place; ties go to the seat nearer the first dealer (seat 0)."""
    return sorted(range(len(scores)), key=lambda s: (-scores[s], s))


def final_scores(scores: Sequence[int], sticks: int) -> list[int]:
    """Scores at the end of the game: the sticks left on the table go to first place."""
    out = list(scores)
    out[ranking(scores)[0]] += STICK * sticks
    return out


#: Ways of turning a final score into final points; see :func:`score_points`.
DECIMAL, FIVE_DOWN, FIVE_UP, HALF_UP = "decimal", "5-down", "5-up", "half-up"
#: Tenhou's whole points (mjcli.riichi.engine.eras): the score rounded to whole thousands, a hundreds
#: digit of 5 away from zero (四捨五入 of the score: 17500 -> 18000, -500 -> -1000), less the return
#: points
SCORE_5_UP = "score-5-up"
ROUNDINGS = (DECIMAL, SCORE_5_UP, FIVE_DOWN, FIVE_UP, HALF_UP)


def score_points(score: int, return_points: int, rounding: str) -> float:
    """(``score`` - ``return_points``) in thousands, as ``rounding`` has it: :data:`SCORE_5_UP`
    rounds the score itself, the others the difference (:func:`round_points`)."""
    if rounding == SCORE_5_UP:
        q, r = divmod(abs(score), 1000)
        rounded = (q + (1 if r >= 500 else 0)) * 1000 * (-1 if score < 0 else 1)
        return (rounded - return_points) / 1000
    return round_points(score - return_points, rounding)


def round_points(diff: int, rounding: str) -> float:
    """A score difference in thousands, as a rule rounds it.

    * ``decimal``: one decimal, no rounding (a score is a multiple of 100);
    * ``5-down``: whole thousands, a hundreds digit of 5 toward zero, on the absolute value
      (五捨六入: -4500 -> -4, -4600 -> -5, 12500 -> 12);
    * ``5-up``: whole thousands, a hundreds digit of 5 away from zero (四捨五入 on the absolute value);
    * ``half-up``: whole thousands, the nearest, 500 upwards (-22500 -> -22, 8500 -> 9).
    """
    if rounding == DECIMAL:
        return diff / 1000
    if rounding == HALF_UP:
        return float((diff + 500) // 1000)
    sign = -1 if diff < 0 else 1
    q, r = divmod(abs(diff), 1000)
    if rounding == FIVE_DOWN:
        return float(sign * (q + (1 if r > 500 else 0)))
    if rounding == FIVE_UP:
        return float(sign * (q + (1 if r >= 500 else 0)))
    raise ValueError(f"unknown rounding of final points '{rounding}' (known: {', '.join(ROUNDINGS)})")


def final_points(
    scores: Sequence[int], return_points: int, uma: Sequence[int], rounding: str = DECIMAL
) -> list[float]:
    """Result after oka and uma, in thousands: (score - return) rounded by ``rounding``
    (:func:`score_points`), plus uma; first place gets what makes the table sum to zero (the oka and
    the others' rounding).

    Sums are kept in tenths so that one-decimal results come out exact (41.4, not 41.400000000000006).
    """
    order = ranking(scores)
    tenths = [0] * len(scores)
    for place, seat in enumerate(order[1:], start=1):
        tenths[seat] = round(score_points(scores[seat], return_points, rounding) * 10) + 10 * uma[place]
    tenths[order[0]] = -sum(tenths[s] for s in order[1:])
    return [t / 10 for t in tenths]
