"""A minimal Hong Kong (and Red) plugin: `--game hk --plugin first=examples/hk_plugin.py:FirstLegal`.

The same contract as riichi's and Dou Dizhu's: `decide(view, legal)` returns one of `legal` (here
with a reason). `view` is the seat's `mjcli.hk.engine.view.SeatView` (`phase`: "turn", "claim" on
another player's discard, "rob" on an added kong; `hand`: 34 counts, `jokers`, `melds`, `rivers`,
`wall_left`...); `legal` are `mjcli.hk.engine.actions.Move` named tuples (`kind`: "discard", "win",
"pung", "kong", "chow", "ckong", "akong", "pass"; `tile`: 0-33, 34 a joker).
"""


class FirstLegal:
    def decide(self, view, legal):
        for move in legal:
            if move.kind == "win":
                return move, "always wins"
        if view.phase != "turn":
            return next(m for m in legal if m.kind == "pass"), "never claims"
        discards = [m for m in legal if m.kind == "discard"]
        return discards[-1], "discards its last tile kind"
