"""A digest of everything the engine walk produces, to compare two versions of the code byte for byte.

For every log under a folder (every format the readers take, three-player included) it writes one
line per game: the file, the game, and the SHA-256 of the game's events, then of every decision
point (``mjcli.riichi.replay.decisions_of``: seat, kind, view, legal actions with their engine
events, the actual action) and of the engine's final state (scores, result, each round's outcome);
and one line per self-play game (first legal action, and the ``greedy`` policy) of a few seeds.
A speed change to the engine or the readers must leave the output identical::

    PYTHONPATH=/work/main python benchmarks/walk_digest.py ../shared/logs fixtures > before.txt
    PYTHONPATH=$PWD python benchmarks/walk_digest.py ../shared/logs fixtures > after.txt
    cmp before.txt after.txt

A log the readers or the engine refuse is a line with the error's text (it must stay the same error).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path


def _h(items: object) -> str:
    return hashlib.sha256(repr(items).encode()).hexdigest()[:16]


def log_lines(root: Path) -> list[str]:
    from mjcli.errors import MjcliError
    from mjcli.riichi.engine.table import Game
    from mjcli.riichi.formats import is_log_file, read_log
    from mjcli.riichi.replay import decisions_of

    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and is_log_file(p)):
        rel = path.relative_to(root)
        try:
            games = read_log(path)
        except MjcliError as exc:
            out.append(f"{rel}\tread error\t{exc}")
            continue
        for gi, g in enumerate(games):
            head = f"{rel}\t{gi}\t{g.complete}\t{g.problem}\tevents {_h(g.events)}"
            engine = Game()
            try:
                points = [
                    (
                        d.round,
                        d.honba,
                        d.turn,
                        d.seat,
                        d.kind,
                        d.event,
                        d.view,
                        d.legal.actions,
                        d.legal.events,
                        d.actual,
                        d.tsumogiri,
                        sorted(d.lost_calls, key=repr),
                    )
                    for d in decisions_of(g.events, engine=engine)
                ]
            except MjcliError as exc:
                out.append(f"{head}\twalk error\t{exc}")
                continue
            state = (
                engine.scores,
                engine.result,
                [(r.label, r.start_problems, r.outcome) for r in engine.rounds],
            )
            out.append(f"{head}\tdecisions {len(points)} {_h(points)}\tstate {_h(state)}")
    return out


def self_play_lines(games: int = 6) -> list[str]:
    from mjcli.riichi.simulate.driver import play_game
    from mjcli.riichi.simulate.run import game_specs, table_rules
    from mjcli.riichi.simulate.seats import PolicySeat

    class FirstLegal:
        name = "first-legal"

        def decide(self, view: object, legal: list) -> object:
            return legal[0]

    out = []
    for label, preset, seats in (
        ("first-legal", "tenhou", [PolicySeat("greedy", policy=FirstLegal()) for _ in range(4)]),  # type: ignore[arg-type]
        ("greedy", "tenhou", [PolicySeat("greedy") for _ in range(4)]),
        ("greedy-sanma", "tenhou-sanma", [PolicySeat("greedy") for _ in range(3)]),
    ):
        names = [s.name for s in seats]
        for spec in game_specs(names, games, 2026, table_rules(preset, "hanchan"), duplicate=False):
            played = play_game(spec, seats)
            out.append(f"self-play {label} seed {spec.seed}\t{_h(played.events)}\t{_h(played.scores)}")
    return out


def main(argv: list[str]) -> int:
    """Folders given (default ``../shared/logs``; the project's ``fixtures`` hold three-player logs)."""
    lines = []
    for root in [Path(a) for a in argv] or [Path("../shared/logs")]:
        lines += [f"{root.name}/{line}" for line in log_lines(root.resolve())]
    for line in lines + self_play_lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
