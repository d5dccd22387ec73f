"""``mjcli convert``: turn a game log of any supported format into tenhou.net/6 JSON or mjai JSON lines."""

from __future__ import annotations

import sys

import typer

from mjcli.atomic import write_text_atomic
from mjcli.errors import UnsupportedError, UsageError
from mjcli.output import emit_json
from mjcli.riichi.engine.events import StartRound
from mjcli.riichi.formats import MJAI, TENHOU6, GameLog, read_log, write_game, write_tenhou6

# Each paragraph is one line of text so that the terminal reflows it.
HELP = (
    "Convert a game log to tenhou.net/6 JSON (opens in Tenhou's viewer) or mjai JSON lines.\n\n"
    "LOG may be Tenhou mjlog XML (plain or gzip), tenhou.net/6 JSON or mjai JSON lines: the format is "
    "detected from the content. The result goes to stdout, or with -o to FILE (written atomically). "
    "A log that stops before the game's end is converted as far as it goes, with a warning on stderr. "
    "Three-player games are not supported yet.\n\n"
    "Example: mjcli convert 2010081709gm-00a9-0000-fe3371ad.mjlog --to tenhou6 -o game.json\n\n"
    "Example: mjcli convert game.json --to mjai | head -3"
)


def convert_games(games: list[GameLog], fmt: str) -> str:
    """The text of the converted file: mjai games one after another; several tenhou.net/6 games
    as a JSON list (one game stays a plain object, which is what Tenhou's viewer opens)."""
    for g in games:
        if g.players == 3:
            raise UnsupportedError(f"{g.path}: three-player games are not supported yet by convert")
    if fmt == TENHOU6 and len(games) > 1:
        return "[" + ",\n".join(write_tenhou6(g).rstrip("\n") for g in games) + "]\n"
    return "".join(write_game(g, fmt) for g in games)


def register(app: typer.Typer) -> None:
    @app.command("convert", help=HELP, no_args_is_help=True)
    def convert(
        log: str = typer.Argument(..., help="The log file to convert."),
        to: str = typer.Option(..., "--to", "-t", help="Output format: tenhou6 or mjai."),
        output: str | None = typer.Option(None, "--output", "-o", help="Write to FILE instead of stdout."),
        as_json: bool = typer.Option(
            False, "--json", help="With -o: print a JSON summary of the conversion instead of a sentence."
        ),
    ) -> None:
        fmt = to.strip().lower()
        if fmt not in (TENHOU6, MJAI):
            raise UsageError(f"--to '{to}' is not a format convert writes (choose tenhou6 or mjai)")
        if as_json and output is None:
            raise UsageError("--json needs -o FILE (without it, stdout is the converted log)")
        games = read_log(log)
        for g in games:
            if not g.complete:
                print(f"warning: {log}: incomplete game: {g.problem}", file=sys.stderr)
        text = convert_games(games, fmt)
        if output is None:
            sys.stdout.write(text)
            return
        write_text_atomic(output, text)
        summary = {
            "input": log,
            "output": output,
            "from": games[0].format if games else None,
            "to": fmt,
            "games": len(games),
            "rounds": sum(sum(isinstance(e, StartRound) for e in g.events) for g in games),
            "complete": all(g.complete for g in games),
        }
        if as_json:
            emit_json(summary)
        else:
            state = "" if summary["complete"] else " (incomplete)"
            print(
                f"{log} ({summary['from']}) -> {output} ({fmt}): {summary['games']} game(s), "
                f"{summary['rounds']} round(s){state}"
            )
