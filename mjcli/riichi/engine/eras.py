"""Which of Tenhou's final-points rules scored a game, from the date at the head of its id.

Tenhou has changed how a game's final scores become points (after oka and uma). What is known,
each from the recorded results of real logs (``owari`` / tenhou.net/6 ``sc``):

* from 2008-12-17 at the latest (``2008121721gm-00c1-0000-fcadb0d7`` of summivox/riichi-rs's
  samples) until at least 2020-08-12 (``2020081220gm-00a9-0000-9ee6ab3b`` of mjx-project/mjx's test
  logs): whole thousands, the final score rounded to the nearest thousand with a hundreds digit of
  5 away from zero (四捨五入 of the score, "score-5-up": 17500 -> 18000 -> -12; 38500 -> 39000 -> +9;
  -500 -> -1000 -> -31; -7500 -> -8000 -> -38; three-player -5500 -> -6000 -> -46), first place
  taking the rest: arcturus.su/mjw "Tenhou.net rules" ("points are rounded to the closest thousand,
  "4 down, 5 up""). All 120 whole-point games at hand fit it: the shared logs (2010-2018), mjx's
  2019-2020 ones, dnovikoff/tenhou's 2009 ones, the 41 of MahjongRepository/tenhou-python-bot's
  system tests, the sanma fixtures. Rounding the difference (score - 30000) instead fits only the
  games whose .5 places are all between 0 and 30000: ``5-down`` on it misses 38500 (+8.5 recorded
  as +9 in 2009-07) and -500 (-30.5 recorded as -31), ``5-up`` on it misses 29500 (-0.5 recorded
  as 0), ``half-up`` misses -500 and -7500: which is why the 2009 games seemed to follow no one rule;
* from 2022-01-31 at the latest (``2022013100gm-00a9-0000-af91b2de``) to today: one decimal, no
  rounding (34500 -> +4.5 +20 uma +20 oka = 44.5);
* between 2020-08-12 and 2022-01-31 the switch date is not known (a three-player game of
  2021-01-02 still has whole points);
* East-only games used uma +10/+5/-5/-10 in 2008-12, 2009-03 and 2009-06, and +20/+10/-10/-20 by
  2020-02-03 (tenhou6-edge ``suukantsu_1.json``): when they changed is not known;
* before 2008-12-17 nothing is known: every rounding is a candidate.

Where the date leaves more than one rule possible (no date in the id, or a date in an unknown
window), :func:`points_choice` lists the candidates, most likely first; ``verify`` applies the first
unless the recorded points fit another, and says which it applied and why. A log without a date
(a file renamed, a converter's own id) may come from any era: every known rule is a candidate.

Tenhou's end of the game has changed too: on 2009-02-20 a dealer tenpai and first at the last
round's exhaustive draw played on (``2009022022gm-00a9-0000-cd94aac8``, dnovikoff/tenhou's
``bug1.xml``: South 4, 37400 after the dealer's tenpai, then South 4 with 2 honba), where a dealer's
win in first place already ended the game (``2009022314gm-00a9-0000-9f619d34``); today both end it
(tenpai-yame: Tenhou's manual, arcturus.su/mjw "Tenhou.net rules": "the game automatically stops
on both dealer wins and dealer tenpai hands"). When it came is not known: :func:`tenpaiyame_of`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass

from mjcli.riichi.engine.settlement import DECIMAL, ROUNDINGS, SCORE_5_UP, final_points
from mjcli.riichi.rules import Rules

#: YYYYMMDDHH of the first and last dated evidence of each rule (see the module's docstring)
INTEGER_FROM = 2008121721
INTEGER_UNTIL = 2020081220
#: the last East-only game known with uma +10/+5/-5/-10 and the first known with +20/+10/-10/-20
OLD_TONPUU_UMA_SEEN = 2009061806
NEW_TONPUU_UMA_SEEN = 2020020316
DECIMAL_FROM = 2022013100
#: the last date known without tenpai-yame (see the module's docstring)
NO_TENPAIYAME_UNTIL = 2009022023  # (the day of 2009022022gm-00a9-0000-cd94aac8)
#: East-only uma of 2008-2009 (in thousands)
OLD_TONPUU_UMA = (10, 5, -5, -10)

_DATE = re.compile(r"(?<!\d)(20\d{2})(\d{2})(\d{2})(\d{2})gm-")


@dataclass(frozen=True, slots=True)
class PointsRule:
    """How final scores become points: the rounding (``settlement.ROUNDINGS``) and the uma."""

    rounding: str
    uma: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.rounding}, uma {'/'.join(f'{u:+d}' for u in self.uma)}"

    def points(self, scores: tuple[int, ...] | list[int], return_points: int) -> list[float]:
        return final_points(scores, return_points, self.uma, self.rounding)


@dataclass(frozen=True, slots=True)
class PointsChoice:
    """The rules a game's final points may follow (the first unless the record fits another), and why."""

    candidates: tuple[PointsRule, ...]
    why: str


def same_points(recorded: Sequence[float], mine: Sequence[float]) -> bool:
    """Recorded final points equal to worked-out ones (floats of one decimal at most)."""
    return len(recorded) == len(mine) and all(abs(a - b) < 1e-6 for a, b in zip(recorded, mine, strict=True))


def game_date(game_id: str) -> int | None:
    """``YYYYMMDDHH`` of a Tenhou game id (``2011020416gm-00a9-0000-025480d4``), anywhere in the
    text; None when there is none or it is not a real date and hour."""
    m = _DATE.search(game_id or "")
    if m is None:
        return None
    year, month, day, hour = (int(g) for g in m.groups())
    try:
        datetime.date(year, month, day)
    except ValueError:
        return None
    return int("".join(m.groups())) if hour <= 23 else None


def _day(date: int) -> str:
    s = str(date)
    return f"{s[:4]}-{s[4:6]}-{s[6:8]}"


def tenhou_log(game_id: str, disp: str) -> bool:
    """A log of Tenhou's own (not a simulator's or an arena's under Tenhou's rules): a Tenhou game id
    (its date) or Tenhou's rule line, which names the lobby (般, 上, 特, 鳳; an mjlog's GO type
    always gives one). Only such a log may be of Tenhou's older eras when its id has no date."""
    return game_date(game_id) is not None or any(ch in disp for ch in "般上特鳳")


def points_choice(game_id: str, rules: Rules, of_tenhou: bool = True) -> PointsChoice:
    """The final-points rules for a game of ``rules`` (its length and uma) with id ``game_id``;
    ``of_tenhou``: the log is Tenhou's own (:func:`tenhou_log`), so without a date it may be of any
    era (else only the rule set's own and the other main rule are candidates)."""
    uma = tuple(rules.uma)
    own = PointsRule(rules.points_rounding, uma)
    if rules.site != "tenhou":
        # the dates and eras below are Tenhou's; another site's rules say how their points go
        return PointsChoice((own,), f"{rules.site}'s rule")
    date = game_date(game_id)
    # the old East-only uma is four-player's; three-player games keep their own uma throughout
    east = rules.length == "tonpuu" and rules.players == 4
    if date is None and not of_tenhou:
        other = PointsRule(SCORE_5_UP if own.rounding == DECIMAL else DECIMAL, uma)
        return PointsChoice((own, other), "no date in the game id")
    if date is None:
        # any era: the rule set's own first, then every rounding, then (East-only) the old uma
        umas = (uma, OLD_TONPUU_UMA) if east else (uma,)
        others = tuple(PointsRule(r, u) for u in umas for r in ROUNDINGS)
        return PointsChoice((own, *(c for c in others if c != own)), "no date in the game id")
    when = f"dated {_day(date)}"
    if date >= DECIMAL_FROM:
        return PointsChoice(
            (PointsRule(DECIMAL, uma),), f"{when}: one decimal, since 2022-01-31 at the latest"
        )
    if date > INTEGER_UNTIL:
        cands = (PointsRule(DECIMAL, uma), PointsRule(SCORE_5_UP, uma))
        return PointsChoice(cands, f"{when}: Tenhou went to one decimal between 2020-08-12 and 2022-01-31")
    if date >= INTEGER_FROM:
        whole = f"{when}: whole points, the score rounded 5 up"
        if east and date <= OLD_TONPUU_UMA_SEEN:
            cands = (PointsRule(SCORE_5_UP, OLD_TONPUU_UMA), PointsRule(SCORE_5_UP, uma))
            return PointsChoice(cands, f"{whole}; East-only uma of that time not known for sure")
        if east and date < NEW_TONPUU_UMA_SEEN:
            cands = (PointsRule(SCORE_5_UP, uma), PointsRule(SCORE_5_UP, OLD_TONPUU_UMA))
            return PointsChoice(cands, f"{whole}; East-only uma of that time not known")
        return PointsChoice((PointsRule(SCORE_5_UP, uma),), whole)
    umas = (OLD_TONPUU_UMA, uma) if east else (uma,)
    cands = tuple(PointsRule(r, u) for u in umas for r in ROUNDINGS if r != DECIMAL)
    return PointsChoice(cands, f"{when}: Tenhou's rule before 2008-12-17 is not known")


def tenpaiyame_of(game_id: str, rules: Rules, of_tenhou: bool = True) -> bool | None:
    """Whether a dealer tenpai and first at the last round's exhaustive draw ended a game of
    ``rules`` with id ``game_id``: False in Tenhou's games dated up to the last one known without it,
    None where that is not known (Tenhou's own later or undated logs, ``of_tenhou``:
    ``rules.tenpaiyame`` is played, and a log that goes on is a game without it), else the rules'
    own (another site's, a simulator's or an arena's log)."""
    if rules.site != "tenhou" or not rules.tenpaiyame or not of_tenhou:
        return rules.tenpaiyame
    date = game_date(game_id)
    if date is not None and date <= NO_TENPAIYAME_UNTIL:
        return False
    return None
