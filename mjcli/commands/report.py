"""``mjcli report``: one HTML page of a replay, simulation or verify output folder."""

from __future__ import annotations

from pathlib import Path

import typer

from mjcli.output import emit_json

INTRO = (
    "Write one self-contained HTML page (charts and tiles as inline SVG, nothing loaded from the "
    "network) of the --out folder of replay, simulate or verify, for either game: the folder says "
    "which. Replay: agreement of each policy with the players by kind of decision, turn phase and "
    "shanten (or cards in hand) with 95 % intervals, the policy x policy heat map, and the decisions "
    "where the policies disagree most with the player drawn as hands, with the command that reopens "
    "each. Simulate: rank distribution, score, rank and rates per policy with intervals, paired "
    "differences. Verify: logs and rounds matched, every mismatch with its round.\n\n"
    "Example: mjcli report build/replay-fixture -o report.html"
)


def register(app: typer.Typer) -> None:
    @app.command("report", help=INTRO, no_args_is_help=True)
    def report(
        folder: Path = typer.Argument(..., help="The --out folder of replay, simulate or verify."),
        output: Path | None = typer.Option(
            None, "--output", "-o", help="The HTML file to write [default: FOLDER/report.html]."
        ),
        baseline: Path | None = typer.Option(
            None,
            "--baseline",
            help="Riichi replay: also draw the decisions changed against an older decisions.parquet.",
        ),
        top: int = typer.Option(12, "--top", help="How many decisions to draw (most disputed, changed)."),
        as_json: bool = typer.Option(False, "--json", help="What was written, as one JSON object."),
    ) -> None:
        from mjcli.report.build import write_report

        target = output if output is not None else folder / "report.html"
        result = write_report(folder, target, baseline=baseline, top=top)
        kinds = ", ".join(f"{o.game} {o.kind}" for o in result.outputs)
        size = len(result.html.encode("utf-8"))
        if as_json:
            emit_json(
                {
                    "report": str(target),
                    "outputs": [{"kind": o.kind, "game": o.game} for o in result.outputs],
                    "charts": result.charts,
                    "hands": result.hands,
                    "bytes": size,
                }
            )
        else:
            print(
                f"wrote {target} ({kinds}: {result.charts} charts, {result.hands} hands drawn, "
                f"{size / 1024:.0f} KB)"
            )
