"""The one-liners that run without Typer: ``mjcli shanten HAND...``, ``mjcli score HAND --win 2z
--tsumo``, ``mjcli advise HAND --json``, ``mjcli verify LOG``, ``mjcli convert LOG --to mjai``: the
commands a user types and waits for.

Typer's import (its vendored click and the standard modules it loads: inspect, subprocess,
datetime, uuid...) is 40-60 ms of the 100-165 ms such a command took, the largest part of it that
is not the interpreter's own (`python -c "import typer"` 80 ms where `python -c pass` takes 35 ms;
bench: the start-up rows). The skin of each of these commands (``mjcli/commands/NAME.py``) only
hands the options it was given to :func:`mjcli.games.run`, where an option not given takes the
game's default; so for a command line made of the skin's hand argument and its flags and text
options, :func:`plain_call` reads the same values click would and ``games.run`` gets the same
call. Anything else (``--help``, a number option, a repeated option, ``--``, a word click would
read its own way) is left to Typer: :func:`plain_call` answers None. ``tests/test_cli_plain.py``
checks :data:`PLAIN` against the skins' options and the two ways' outputs, byte for byte.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlainForm:
    """What :func:`plain_call` reads of one command: the skin's argument (hands, logs), whether it
    takes several, its flags (option -> parameter, True when given), its options of one text value
    (option -> parameter) and the parameters of those that click requires."""

    argument: str
    several: bool
    flags: Mapping[str, str]
    values: Mapping[str, str]
    required: frozenset[str] = frozenset()


#: the skins' flags and text options, as their Typer declarations name them (the test checks them)
PLAIN: dict[str, PlainForm] = {
    "shanten": PlainForm(
        "hands",
        True,
        flags={"--json": "as_json", "--shanten-only": "shanten_only", "--sanma": "sanma"},
        values={"--game": "game", "--seen": "seen", "--fields": "fields"},
    ),
    "score": PlainForm(
        "hand",
        False,
        flags={
            "--json": "as_json",
            "--tsumo": "tsumo",
            "--riichi": "riichi",
            "--double-riichi": "double_riichi",
            "--open-riichi": "open_riichi",
            "--discarder-riichi": "discarder_riichi",
            "--ippatsu": "ippatsu",
            "--rinshan": "rinshan",
            "--chankan": "chankan",
            "--haitei": "haitei",
            "--houtei": "houtei",
            "--tenhou": "tenhou",
            "--chiihou": "chiihou",
            "--sanma": "sanma",
            "--double-rinshan": "double_rinshan",
            "--min-without-bonus": "min_without_bonus",
        },
        values={
            "--game": "game",
            "--win": "win",
            "-w": "win",
            "--melds": "melds",
            "-m": "melds",
            "--dora": "dora",
            "--ura": "ura",
            "--seat": "seat",
            "--round": "round_",
            "--rules": "rules",
            "--flowers": "flowers",
            "--seasons": "seasons",
            "--payment": "payment",
        },
    ),
    "advise": PlainForm(
        "hand",
        False,
        flags={"--json": "as_json", "--landlord": "landlord", "--sanma": "sanma"},
        values={
            "--game": "game",
            "--policy": "policies",
            "--policies": "policies",
            "--lead": "lead",
            "--weights": "weights",
            "--kicker": "kicker",
            "--dora": "dora",
            "--seen": "seen",
            "--round": "round_",
            "--seat": "seat",
            "--melds": "melds",
            "--riichi-by": "riichi_by",
            "--offered": "offered",
            "--from": "from_",
            "--shown": "shown",
            "--hands-shown": "hands_shown",
            "--flowers": "flowers",
            "--seasons": "seasons",
            "--bot-framing": "bot_framing",
        },
    ),
    # (not --ray: a bare --ray takes a default value, mjcli.commands.OPTIONAL_VALUES)
    "verify": PlainForm(
        "logs",
        True,
        flags={"--json": "as_json", "--resume": "resume"},
        values={"--game": "game", "--out": "out", "-o": "out", "--rules": "rules"},
    ),
    "convert": PlainForm(
        "log",
        False,
        flags={"--json": "as_json"},
        values={"--game": "game", "--to": "to", "-t": "to", "--output": "output", "-o": "output"},
        required=frozenset({"to"}),
    ),
}


def plain_call(argv: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """``(command, options given)`` for a command line of :data:`PLAIN` that click would read as
    plainly, else None (Typer parses it). Read as click reads (click 8's parser): a word that starts
    with ``-`` and is longer is an option, ``-`` alone is an argument (stdin); ``--name=value`` is a
    long option's value; a value is the next word. Left to Typer: an unknown option or ``--``, a
    flag given a value, a short option joined to anything (click reads ``-w=2z`` as the value
    ``=2z``), a value missing or starting with ``-``, an option given twice (click keeps the last),
    another number of hands (or logs) than the skin takes, a required option missing (click says
    so in its words), and a shell-completion request in the environment
    (``_MJCLI_COMPLETE``, which click answers before it parses)."""
    form = PLAIN.get(argv[0]) if argv else None
    if form is None or any(name.endswith("_COMPLETE") for name in os.environ):
        return None
    hands: list[str] = []
    options: dict[str, Any] = {}
    words = iter(argv[1:])
    for word in words:
        if word == "-" or not word.startswith("-"):
            hands.append(word)
            continue
        name, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        param = form.flags.get(name)
        if param is not None and not eq:
            options[param] = True
            continue
        param = form.values.get(name)
        if param is None or param in options:
            return None
        if not eq:
            value = next(words, None)  # type: ignore[assignment]
            if value is None:
                return None
        if value.startswith("-"):
            return None
        options[param] = value
    if not hands or (not form.several and len(hands) != 1) or not form.required <= options.keys():
        return None
    options[form.argument] = hands if form.several else hands[0]
    return argv[0], options
