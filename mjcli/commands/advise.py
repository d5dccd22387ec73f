"""``mjcli advise``: ask the bot policies what to play from a hand or a logged position.

The command routes by ``--game``: riichi (``mjcli.commands.advise_riichi``) or Dou Dizhu
(``mjcli.doudizhu.advise``); each branch owns its options' meaning.
"""

from __future__ import annotations

import typer

from mjcli.commands.advise_riichi import HELP as RIICHI_HELP
from mjcli.commands.advise_riichi import run_riichi_advise
from mjcli.errors import UsageError
from mjcli.output import emit_json, format_table

GAMES = ("riichi", "doudizhu")

HELP = (
    RIICHI_HELP
    + """
Dou Dizhu (--game doudizhu): HAND in 3456789TJQKA2BR notation (10 for T, B/R the jokers). Prints the
seed's plan of the hand (its steps, their types, and Pn: lower is better) and each policy's move with
its reason, on a free lead or against --lead (played by the previous player, an opponent).

Example: mjcli advise --game doudizhu 222AAAKKKJJT98766554433
"""
)


def check_game(game: str) -> str:
    if game not in GAMES:
        raise UsageError(f"unknown game {game!r}: use riichi or doudizhu")
    return game


def _doudizhu(
    hand: str,
    lead: str | None,
    landlord: bool,
    policies: str | None,
    weights: str,
    kicker: str,
    seed: int,
    as_json: bool,
) -> None:
    from mjcli.doudizhu.advise import advise
    from mjcli.doudizhu.policies import parse_policies

    names = parse_policies(policies) if policies else None
    result = advise(
        hand, lead_text=lead, landlord=landlord, policies=names, weights=weights, kicker=kicker, seed=seed
    )
    if as_json:
        emit_json(result)
        return
    p = result["plan"]
    situation = (
        f"against {result['lead']['cards']} ({result['lead']['type']})" if result["lead"] else "free lead"
    )
    print(f"hand {result['hand']} ({result['cards']} cards), {result['role']}, {situation}")
    print(f"plan ({p['weights']} weights): Pn {p['pn']}, {len(p['steps'])} steps")
    print(
        format_table(
            ["step", "type", "cards"], [[i + 1, s["type"], s["cards"]] for i, s in enumerate(p["steps"])]
        )
    )
    print()
    rows = [[a["policy"], a["move"], a["type"], a["reason"]] for a in result["policies"]]
    print(format_table(["policy", "move", "type", "reason"], rows))


def register(app: typer.Typer) -> None:
    @app.command("advise", help=HELP, no_args_is_help=True)
    def advise_command(
        hand: str = typer.Argument(
            ..., help="Riichi: a hand in mpsz or a game log. Dou Dizhu: a hand in 3456789TJQKA2BR."
        ),
        game: str = typer.Option("riichi", "--game", help="riichi or doudizhu."),
        lead: str | None = typer.Option(None, "--lead", help="Dou Dizhu: the combination to beat."),
        landlord: bool = typer.Option(False, "--landlord", help="Dou Dizhu: we are the landlord."),
        policies: str | None = typer.Option(
            None, "--policy", "--policies", help="Policies, comma-separated, or all (the default)."
        ),
        dora: str | None = typer.Option(None, "--dora", help="Riichi: dora indicators (mpsz)."),
        seen: str | None = typer.Option(None, "--seen", help="Riichi: tiles seen elsewhere (mpsz)."),
        round_: str = typer.Option("E", "--round", help="Riichi: round wind (hand) or round label E2 (log)."),
        seat: str = typer.Option("E", "--seat", help="Riichi: seat wind E/S/W/N (hand) or seat 0-3 (log)."),
        melds: str | None = typer.Option(None, "--melds", help="Riichi: own melds, e.g. pon:555z,chi:234m."),
        riichi_by: str | None = typer.Option(None, "--riichi-by", help="Riichi: winds in riichi, e.g. S,W."),
        honba: int = typer.Option(0, "--honba", help="Riichi log position: honba of the round."),
        turn: int | None = typer.Option(
            None, "--turn", help="Riichi log position: the `turn` column of replay's decisions.parquet."
        ),
        weights: str = typer.Option("seed", "--weights", help="Planner weights: seed or corrected."),
        kicker: str = typer.Option("douzero", "--kicker", help="Kicker rule: douzero, rlcard, pagat."),
        seed: int = typer.Option(0, "--seed", help="Seed of the random policy."),
        as_json: bool = typer.Option(False, "--json", help="One JSON object."),
    ) -> None:
        if check_game(game) == "doudizhu":
            _doudizhu(hand, lead, landlord, policies, weights, kicker, seed, as_json)
        else:
            code = run_riichi_advise(
                hand,
                policy=policies or "all",
                dora=dora,
                seen=seen,
                round_wind=round_,
                seat=seat,
                melds=melds,
                riichi_by=riichi_by,
                json_out=as_json,
                honba=honba,
                turn=turn,
            )
            raise typer.Exit(code)
