"""The bridge's shortcuts give what the plain way gives: a view builder that follows a round event by
event (rivers and melds converted again only where they changed, the visible and concealed
counts given) against a fresh view and the view's own counts, and the
hand order without per-tile keys against ``tiles.sort_key``."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from shared import LOGS

from mjcli.riichi.engine.table import Game
from mjcli.riichi.formats import read_log
from mjcli.riichi.policies.bridge import ViewBuilder, _sorted, view_of
from mjcli.riichi.policies.view import PlayerView
from mjcli.tiles import NUM_TILES, sort_key

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIELDS = [f.name for f in fields(PlayerView)]


@given(st.lists(st.integers(0, NUM_TILES - 1), max_size=18))
def test_hand_order_is_sort_key_order(tiles):
    assert _sorted(tiles) == tuple(sorted(tiles, key=sort_key))


def _follow(path: Path) -> tuple[int, int]:
    """Every seat's view after every event of the log's games, by one builder per round; (views, calls)."""
    views = calls = 0
    for game in read_log(path):
        engine = Game()
        builder = None
        for i, e in enumerate(game.events):
            engine.apply(e, i)
            rec = engine.current
            if rec is None:
                builder = None
                continue
            if builder is None or builder.rnd is not rec.state:
                builder = ViewBuilder(rec.state)
            rnd = rec.state
            calls += type(e).__name__ in ("Chi", "Pon", "OpenKan", "AddedKan", "ClosedKan")
            for seat in range(rnd.n):
                view = builder.view(seat)
                assert view == view_of(rnd, seat), (path.name, i, seat)
                # the visible counts the builder keeps up to date: those the view would count itself
                own = PlayerView.visible_tuple.func(view)  # type: ignore[attr-defined]
                assert view.visible_counts() == list(own), (path.name, i, seat)
                # and the concealed counts, the engine's
                own = PlayerView.concealed_tuple.func(view)  # type: ignore[attr-defined]
                assert view.concealed_counts() == list(own), (path.name, i, seat)
                if i % 7 == 0:  # built without the dataclass __init__: exactly its fields (and the
                    # counts given with them), the same view
                    assert list(vars(view)) == [*FIELDS, "visible_tuple", "concealed_tuple"]
                    plain = PlayerView(**{f: getattr(view, f) for f in FIELDS})
                    assert (plain, hash(plain), repr(plain)) == (view, hash(view), repr(view))
                views += 1
    return views, calls


def test_view_builder_following_a_round_equals_fresh_views():
    # a four-player hanchan with calls and kans, and a three-player one (Norths set aside)
    four = sorted((LOGS / "tenhou-xml").glob("20*.mjlog"))[0]
    three = sorted((FIXTURES / "sanma").glob("*.*"))
    three = [p for p in three if p.suffix in (".mjlog", ".json", ".mjson")][:1]
    views, calls = 0, 0
    for path in [four, *three]:
        v, c = _follow(path)
        views += v
        calls += c
    assert views > 1000 and calls > 5  # the shortcuts were exercised, calls (called river tiles) included
