"""A minimal mjcli policy plugin: `--plugin tsumogiri=examples/plugin.py:Tsumogiri`.

A plugin is any object with `decide(view, legal)` returning one of `legal` (`mjcli.api.Action`s);
`view` is what the seat sees (`mjcli.api.PlayerView`). Here: win when it can, pass on others'
tiles, otherwise discard the tile just drawn (or, after a call, the last tile of the hand).
"""

from mjcli.api import Action, PlayerView


class Tsumogiri:
    seed = "examples/plugin.py: the smallest useful policy"

    def decide(self, view: PlayerView, legal: list[Action]) -> Action:
        for a in legal:
            if a.kind in ("tsumo", "ron"):
                return a.because("a win is on offer")
        for a in legal:
            if a.kind == "pass":
                return a.because("never calls")
        discards = [a for a in legal if a.kind == "discard"]
        for a in discards:
            if a.tile == view.drawn:
                return a.because("the tile just drawn")
        return discards[-1].because("the last tile of the hand")


def last_legal() -> "LastLegal":
    """A zero-argument factory works as well as a class."""
    return LastLegal()


class LastLegal:
    def decide(self, view: PlayerView, legal: list[Action]) -> Action:
        return legal[-1].because("the last legal action")
