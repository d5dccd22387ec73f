"""The Hong Kong game log (:mod:`~mjcli.hk.formats.hklog`: write, read, find) and its walk through
the engine (:mod:`~mjcli.hk.formats.walk`: decision points and hand results)."""

from mjcli.hk.formats.hklog import FORMAT, SUFFIX, VERSION, collect_logs, is_log_file, read_game, write_game
from mjcli.hk.formats.walk import Decision, GameEnd, HandEnd, decision_kind, rules_of, walk

__all__ = [
    "FORMAT",
    "SUFFIX",
    "VERSION",
    "Decision",
    "GameEnd",
    "HandEnd",
    "collect_logs",
    "decision_kind",
    "is_log_file",
    "read_game",
    "rules_of",
    "walk",
    "write_game",
]
