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

from mjcli.errors import UsageError
from mjcli.melds import parse_melds
from mjcli.output import emit_json, format_table
from mjcli.riichi.advise import advise_hand, advise_log
from mjcli.tiles import parse_tiles, wind_from_letter

HELP = """Ask the riichi bot policies what they would do with a hand, beside every discard's shanten/ukeire.

TARGET is a hand or a game log. A hand is 14 tiles in mpsz (3 fewer per meld given with --melds);
the last tile written is the one just drawn. --policy takes names separated by commas, or all
(akagi, mahjongjoy, greedy, efficiency). --seen lists tiles seen elsewhere (rivers, other melds);
--riichi-by the seat winds that declared riichi (E,S,W,N; the player's own seat means the hand is
already in riichi).

A log (any format verify reads) with --round E2 --honba 0 --turn 8 --seat 1 takes the decision of
seat 1 (0-3, seat 0 = the first dealer) in round E2 with 0 honba that comes right after move 8 of
the round: --turn counts the round's moves (draws, discards, calls, kans) from 0, exactly as the
turn column of replay's decisions.parquet, so any row of that table can be looked up with its
round, honba, turn and seat. It shows the hand and what the player actually did there beside the
policies; a turn without a decision of that seat is an error that lists the seat's turns.

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
    honba: int = 0,
    turn: int | None = None,
) -> int:
    """Advise on ``target`` and print the result; returns the exit code (0).

    ``target`` is a hand in mpsz (``round_wind``/``seat`` are then winds, E S W N) or a log file
    (``round_wind`` is then a round label such as ``E2``, ``seat`` a seat number 0-3, and ``honba``
    and ``turn`` pick the position: ``turn`` as in replay's ``decisions.parquet``, the index of the
    round's move right before the decision).
    """
    if Path(target).is_file():
        if turn is None:
            raise UsageError(f"'{target}' is a log: name the position with --round, --honba, --turn, --seat")
        if not seat.strip().isdigit():
            raise UsageError(f"--seat '{seat}': for a log, give the seat number 0-3")
        result = advise_log(target, round_wind, honba, turn, int(seat), policies=policy)
    else:
        result = _advise_typed(target, policy, dora, seen, round_wind, seat, melds, riichi_by)
    if json_out:
        emit_json(result)
        return 0
    print(format_human(result))
    return 0


def _advise_typed(
    target: str,
    policy: str,
    dora: str | None,
    seen: str | None,
    round_wind: str,
    seat: str,
    melds: str | None,
    riichi_by: str | None,
) -> dict:
    return advise_hand(
        target,
        melds=parse_melds(melds or ""),
        dora=parse_tiles(dora or ""),
        seen=parse_tiles(seen or ""),
        round_wind=wind_from_letter(round_wind),
        seat_wind=wind_from_letter(seat),
        riichi_by=_winds(riichi_by),
        policies=policy,
    )


def format_human(result: dict) -> str:
    """The policies' answers, then the discard table, as plain text."""
    lines = []
    if "file" in result:
        kind = f"  {result['kind']} decision" if result.get("kind") else ""
        lines.append(
            f"{result['file']}  round {result['round']}  seat {result['seat']}  turn {result['turn']}{kind}"
        )
    lines += [
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
    actual = result.get("actual")
    if actual:
        action = actual["action"] if actual["tile"] is None else f"{actual['action']} {actual['tile']}"
        if actual.get("consumed"):
            action += f" ({actual['consumed']})"
        did = "what the player did" + (" (the drawn tile)" if result.get("tsumogiri") else "")
        rows.append(["(actual)", action, did])
    lines.append(format_table(["policy", "action", "reason"], rows))
    if result["discards"]:
        lines.append("")
        table = [[d["discard"], d["shanten"], d["ukeire"], d["tiles"]] for d in result["discards"]]
        lines.append(format_table(["discard", "shanten", "ukeire", "tiles"], table, align="lrrl"))
    return "\n".join(lines)
