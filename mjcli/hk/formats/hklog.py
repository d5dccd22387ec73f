"""The Hong Kong game log: one JSON object per game and file, written by ``mjcli simulate --game
hk|red`` and read back by ``replay`` and ``verify``.

A game::

    {
     "format": "mjcli-hk-log",
     "version": 1,
     "game": "hk",                      # or "red"
     "rules": {...},                    # HKRules.to_dict(): min_faan, bonus_counts, cap, payment,
                                        # jokers, length, max_hands, faan (overrides)
     "seed": 123, "deal": 0, "rotation": 0,   # the game's seed (walls), the run's deal and rotation
     "players": ["hk-pm0", ...],        # the policy in seat 0..3 (seat 0 is the first dealer)
     "hands": [ {...}, ... ],           # one per hand, in order (below), one per line
     "final": {"scores": [..4], "placements": [..4]}
    }

A hand::

    {"index": 0, "round": "E1-0", "prevailing": "E", "dealer": 0, "repeat": 0,
     "wall": ["5m", "F2", "7z", ...],    # every tile in drawing order (144, Red 148): the deal and
                                         # draws come from the front, replacements from the back
     "events": [[0, "replace 3p"], [0, "discard 7z"], [2, "pung 7z"], [2, "discard 1m"],
                [3, "draw 5s"], ...],
     "result": {"kind": "win", "how": "discard", "winner": 2, "from": 1, "tile": "4p",
                "faan": 5, "items": [["all_pungs", 3], ...], "deltas": [0, -64, 128, -64]},
     "scores": [0, -64, 128, -64]}      # the scores after the hand

Tiles are written as :mod:`mjcli.hk.notation` writes one tile (``5m``, ``7z``, ``F1``-``F4``
flowers, ``S1``-``S4`` seasons, ``J`` a joker). Events are ``[seat, text]``: the automatic steps
``draw T`` (from the front) and ``replace T`` (from the back: after a bonus tile, which is set
aside by being drawn, or a kong), and every decision as :class:`~mjcli.hk.engine.Move` writes it
(``discard T``, ``win T``, ``ckong T``, ``akong T``, ``pung T``, ``kong T``, ``chow T XYs``,
``pass``). After a discard (or an added kong) every player who could claim it answers, ``pass``
included, then the claim priority decides; so a log holds each player's answer, not only the one
that took effect. The dealt hands are the wall's first 53 tiles (4-4-4-1 from the dealer, then the
dealer's 14th); ``replace`` events right after the start are the dealt bonus tiles' replacements.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mjcli.errors import LogFormatError, short_path
from mjcli.inputs import Inputs, collect_inputs, utf8_text

FORMAT = "mjcli-hk-log"
VERSION = 1
SUFFIX = ".json"
_HEAD = ("format", "version", "game", "rules", "seed", "deal", "rotation", "players")


def write_game(game: dict[str, Any]) -> str:
    """The log text: the header keys one per line, each hand on one line, then the final result."""
    lines = ["{"]
    for key in _HEAD:
        lines.append(f' "{key}": {json.dumps(game[key], ensure_ascii=False, separators=(",", ":"))},')
    lines.append(' "hands": [')
    hands = [json.dumps(h, ensure_ascii=False, separators=(",", ":")) for h in game["hands"]]
    lines.append(",\n".join("  " + h for h in hands))
    lines.append(" ],")
    lines.append(f' "final": {json.dumps(game["final"], separators=(",", ":"))}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _riichi_log(text: str) -> str | None:
    """What riichi log ``text`` looks like, by the marks of its formats (the riichi readers are another
    game's code): Tenhou's mjlog XML, a tenhou.net/6 object with a ``log``, mjai's JSON lines of
    events with a ``type``; None for anything else."""
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("<") and "<mjloggm" in head[:4096]:
        return "a Tenhou mjlog (riichi)"
    try:
        first = json.loads(head.split("\n", 1)[0])
    except json.JSONDecodeError:
        try:
            first = json.loads(head)
        except json.JSONDecodeError:
            return None
    if isinstance(first, dict) and "log" in first:
        return "a tenhou.net/6 log (riichi)"
    if isinstance(first, dict) and isinstance(first.get("type"), str):
        return "an mjai log (riichi)"
    return None


def read_game(path: str | os.PathLike[str]) -> dict[str, Any]:
    """One game log; :class:`LogFormatError` naming the file when it is not one."""
    p = Path(path)
    shown = short_path(p)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise LogFormatError(f"'{shown}' is not a text file (a log is UTF-8 JSON)") from None
    except OSError as exc:
        raise LogFormatError(f"cannot read '{shown}': {exc.strerror or exc}") from None
    bad: json.JSONDecodeError | None = None
    try:
        game = json.loads(text)
    except json.JSONDecodeError as exc:
        game, bad = None, exc
    if not isinstance(game, dict) or game.get("format") != FORMAT:
        other = _riichi_log(text)
        if other:
            raise LogFormatError(f"'{shown}' is {other}, not a Hong Kong game log: leave out --game")
        if bad is not None:
            raise LogFormatError(f"'{shown}' is not JSON ({bad.msg}, line {bad.lineno})")
        raise LogFormatError(f'\'{shown}\' is not a Hong Kong game log (no "format": "{FORMAT}")')
    if game.get("version") != VERSION:
        raise LogFormatError(f"'{shown}': log version {game.get('version')!r} (this mjcli reads {VERSION})")
    for key in (*_HEAD, "hands"):
        if key not in game:
            raise LogFormatError(f"'{shown}': the log has no \"{key}\"")
    if not isinstance(game["hands"], list):
        raise LogFormatError(f"'{shown}': \"hands\" is not a list")
    players = game["players"]
    # replay names each seat's player from this list: another type would fail there, not here
    if not (isinstance(players, list) and len(players) == 4 and all(isinstance(p, str) for p in players)):
        raise LogFormatError(f"'{shown}': \"players\" is not a list of 4 names")
    game["players"] = [utf8_text(x) for x in players]  # writable (a lone surrogate as its escape)
    return game


#: JSON files that mjcli writes beside logs (a simulation's summary, a replay's manifest, a parted
#: run's table of contents): never logs
_NOT_LOGS = ("summary", "replay.json", "dataset.json")
#: the folder of a parted run's task records (mjcli.outpaths.MANIFESTS, as riichi's walk names it):
#: `verify --game hk OUT` of a simulation run with --resume read each record as a log that failed
_NOT_LOG_FOLDER = "_manifests"


def is_log_file(path: Path) -> bool:
    """A file met while walking a folder that may be a Hong Kong log (read to be sure)."""
    return (
        path.name.endswith(SUFFIX)
        and not path.name.startswith(_NOT_LOGS)
        and path.parent.name != _NOT_LOG_FOLDER
    )


def collect_logs(args: Sequence[str], stdin: Iterable[str] | None = None) -> Inputs:
    """The log files named on a command line: files, folders (their ``.json`` files), ``-``."""
    return collect_inputs(args, is_log_file, stdin, what="log")
