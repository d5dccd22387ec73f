"""``mjcli bot check``: one short seeded game with the bot in every seat, and what went wrong.

The game is played by the simulator (:mod:`mjcli.riichi.simulate`) with one bot process per seat
(four, or three at a three-player table: ``rules`` ``tenhou-sanma`` or ``majsoul-sanma``), so every
answer is checked against the rules engine exactly as in a run. The report says whether each
process answered ``start_game`` (the handshake) and how fast, every fault with its position and
answer, and the time per decision. Clean means no handshake problem and no fault.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from mjcli.plugins import PolicySpec


@dataclass(slots=True)
class CheckReport:
    bot: str
    command: str
    seed: int
    length: str
    rules: str = "tenhou"  # the preset played (its seats: rules.players)
    players: int = 4
    rounds: int = 0
    decisions: int = 0
    start_seconds: list[float] = field(default_factory=list)
    start_failures: list[str] = field(default_factory=list)
    faults: list[dict[str, Any]] = field(default_factory=list)
    durations: list[float] = field(default_factory=list)
    stopped: str | None = None  # the game could not be played to its end

    @property
    def clean(self) -> bool:
        return not self.start_failures and not self.faults and self.stopped is None

    def timing(self) -> dict[str, float | None]:
        d = sorted(self.durations)
        if not d:
            return {"median_ms": None, "p90_ms": None, "max_ms": None}
        return {
            "median_ms": round(statistics.median(d) * 1000, 3),
            "p90_ms": round(d[min(len(d) - 1, int(0.9 * len(d)))] * 1000, 3),
            "max_ms": round(d[-1] * 1000, 3),
        }

    def to_dict(self) -> dict[str, Any]:
        kinds: dict[str, int] = {}
        for f in self.faults:
            kinds[f["fault"]] = kinds.get(f["fault"], 0) + 1
        return {
            "bot": self.bot,
            "command": self.command,
            "seed": self.seed,
            "length": self.length,
            "rules": self.rules,
            "players": self.players,
            "clean": self.clean,
            "rounds": self.rounds,
            "decisions": self.decisions,
            "handshake_seconds": [round(x, 3) for x in self.start_seconds],
            "handshake_problems": self.start_failures,
            "faults": len(self.faults),
            "fault_kinds": kinds,
            "illegal": kinds.get("illegal", 0),
            "time_per_decision": self.timing(),
            "stopped": self.stopped,
            "fault_list": self.faults,
        }


def check_bot(spec: PolicySpec, seed: int = 0, length: str = "tonpuu", rules: str = "tenhou") -> CheckReport:
    """Play one game (``length``: tonpuu or hanchan) of seed ``seed`` under the preset ``rules`` with
    the bot of ``spec`` in every seat (three for a three-player preset); the report of what it did."""
    from mjcli.errors import MjcliError, UsageError
    from mjcli.riichi.bots.player import MjaiBot
    from mjcli.riichi.simulate.driver import GameSpec, play_game
    from mjcli.riichi.simulate.run import table_rules
    from mjcli.riichi.simulate.seats import BotSeat
    from mjcli.riichi.simulate.wall import game_seed

    table = table_rules(rules, length)
    n = table.players
    report = CheckReport(spec.name, spec.target, seed, length, rules, n)
    game_spec = GameSpec(0, game_seed(seed, 0), 0, 0, (spec.name,) * n, table)
    with MjaiBot(spec) as bot:
        seat = BotSeat(spec.name, bot)
        try:
            played = play_game(game_spec, [seat] * n)
            report.rounds = len(played.rounds)
            report.faults = played.faults
        except UsageError:
            # a program that cannot be run at all (an executable file without a #! line: "Exec
            # format error") is a usage error, exit 2, as in replay, simulate and advise (README,
            # "An outside bot"); it read "stopped: ... problems found", exit 1
            raise
        except MjcliError as exc:
            report.stopped = str(exc)
            report.faults = seat.faults
        unread = sum(1 for f in report.faults if f["fault"] in ("timeout", "exited", "unanswered"))
        report.decisions = bot.answers + unread
        report.start_seconds = list(bot.start_seconds)
        report.start_failures = list(bot.start_failures)
        report.durations = list(bot.durations)
    return report
