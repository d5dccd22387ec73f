"""The riichi branch of ``mjcli advise``: each policy's action and reason for a hand position.

Not a command of its own: ``mjcli/commands/advise.py`` (shared with Dou Dizhu) parses the options
and calls :func:`run_riichi_advise`, which prints the human tables (or one JSON object with
``--json``) and returns the exit code. Bad input raises the project's exceptions, which the CLI
turns into a one-line message and exit code 2.

Example (seed 001's worked example 1, the Akagi bot breaks the 8m pair)::

    mjcli advise 2388m34556p33577s --policy akagi,greedy
"""

from __future__ import annotations

from pathlib import Path

from mjcli.errors import UnsupportedError
from mjcli.melds import parse_melds
from mjcli.output import emit_json, format_table
from mjcli.policies.advise import advise_hand
from mjcli.tiles import parse_tiles, wind_from_letter

HELP = """Ask the riichi bot policies what they would do with a hand, beside every discard's shanten/ukeire.

HAND is 14 tiles in mpsz (3 fewer per meld given with --melds); the last tile written is the one just
drawn. --policy takes names separated by commas, or all (akagi, mahjongjoy, greedy, efficiency).
--seen lists tiles seen elsewhere (rivers, other melds); --riichi-by the seat winds that declared
riichi (E,S,W,N; the player's own seat means the hand is already in riichi).

Example: mjcli advise 2388m34556p33577s --policy akagi,greedy
"""


def _winds(text: str | None) -> list[int]:
    if not text:
        return []
    return [wind_from_letter(part) for part in text.replace(" ", ",").split(",") if part.strip()]


def run_riichi_advise(
    target: str,
    policy: str = "all",
    dora: str | None = None,
    seen: str | None = None,
    round_wind: str = "E",
    seat: str = "E",
    melds: str | None = None,
    riichi_by: str | None = None,
    json_out: bool = False,
) -> int:
    """Advise on ``target`` (a hand in mpsz) and print the result; returns the exit code (0).

    A log file as ``target`` (``mjcli advise LOG --round E2 --turn 7 --seat 1``) needs the game
    engine to rebuild the position and is reported as unsupported until the engine is wired in.
    """
    if Path(target).exists():
        raise UnsupportedError(
            f"'{target}' is a file: advising on a log position needs the game engine, not wired in yet"
        )
    result = advise_hand(
        target,
        melds=parse_melds(melds or ""),
        dora=parse_tiles(dora or ""),
        seen=parse_tiles(seen or ""),
        round_wind=wind_from_letter(round_wind),
        seat_wind=wind_from_letter(seat),
        riichi_by=_winds(riichi_by),
        policies=policy,
    )
    if json_out:
        emit_json(result)
        return 0
    print(format_human(result))
    return 0


def format_human(result: dict) -> str:
    """The policies' answers, then the discard table, as plain text."""
    lines = [
        f"hand {result['hand']}  drawn {result['drawn']}"
        + (f"  melds {result['melds']}" if result["melds"] else "")
        + (f"  dora indicators {result['dora_indicators']}" if result["dora_indicators"] else "")
        + f"  round {result['round_wind']}  seat {result['seat_wind']}  shanten {result['shanten']}",
        "",
    ]
    rows = []
    for p in result["policies"]:
        action = p["action"] if p["tile"] is None else f"{p['action']} {p['tile']}"
        if p.get("consumed"):
            action += f" ({p['consumed']})"
        rows.append([p["policy"], action, p["reason"]])
    lines.append(format_table(["policy", "action", "reason"], rows))
    if result["discards"]:
        lines.append("")
        table = [[d["discard"], d["shanten"], d["ukeire"], d["tiles"]] for d in result["discards"]]
        lines.append(format_table(["discard", "shanten", "ukeire", "tiles"], table, align="lrrl"))
    return "\n".join(lines)
