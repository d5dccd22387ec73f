"""A minimal Dou Dizhu plugin: `--game doudizhu --plugin first=examples/doudizhu_plugin.py:FirstLegal`.

The same contract as riichi's: `decide(view, legal)` returns one of `legal` (here with a reason).
Bidding: a `BidView` and the levels allowed (0 = pass). Playing: a `PlayView` and the legal moves
(None = pass, offered when following).
"""


class FirstLegal:
    def decide(self, view, legal):
        if hasattr(view, "bids"):  # bidding: never bids
            return 0, "never bids"
        if view.lead is not None:
            return None, "never follows"
        return legal[0], "the first legal lead"
