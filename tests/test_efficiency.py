"""The efficiency baseline: shanten, then ukeire over unseen tiles, its tie-break, riichi and calls."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcli.analysis import discard_table
from mjcli.melds import make_meld
from mjcli.riichi.advise import build_view
from mjcli.riichi.policies import get_policy
from mjcli.riichi.policies.efficiency import dora_kinds
from mjcli.riichi.policies.legal import draw_actions, reaction_actions
from mjcli.riichi.policies.view import PlayerView, RiverTile
from mjcli.tiles import kind, parse_tile, parse_tiles, tile_from_id136, tile_name

EFF = get_policy("efficiency")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(range(136)))
def test_discard_has_the_best_shanten_then_ukeire(wall):
    tiles = [tile_from_id136(i) for i in wall[:14]]
    seen = [tile_from_id136(i) for i in wall[14:30]]
    view = build_view(tiles, seen=seen)
    legal = draw_actions(view)
    a = EFF.decide(view, legal)
    if a.kind not in ("discard", "riichi"):
        return  # a win or a closed kan (rule 3) comes before the discard rule
    table = discard_table(view.concealed_counts(), view.visible_counts())
    best = (table[0].shanten, table[0].ukeire_total)
    chosen = next(o for o in table if o.kind == kind(a.tile))
    assert (chosen.shanten, chosen.ukeire_total) == best


def test_ukeire_counts_only_unseen_tiles():
    # 12m 89m 456p 789s 11z 55z: cutting 1m/2m keeps 89m (waits 7m), cutting 8m/9m keeps 12m
    # (waits 3m). With all 7m seen the 89m shape is worth nothing, so 8m or 9m goes; with all
    # 3m seen, 1m or 2m.
    base = parse_tiles("12m89m456p789s11z55z")
    a = EFF.decide(v := build_view(base, seen=parse_tiles("7777m")), draw_actions(v))
    assert tile_name(a.tile) in ("8m", "9m")
    a = EFF.decide(v := build_view(base, seen=parse_tiles("3333m")), draw_actions(v))
    assert tile_name(a.tile) in ("1m", "2m")


def test_tie_break_honours_first_keeping_dora_and_yakuhai():
    # 1m 2m 8m 9m 1z 5z all leave shanten 1 with 8 tiles of ukeire.
    base = parse_tiles("12m89m456p789s11z55z")
    # both honours are yakuhai (East in an East round, White): the rightmost, 5z
    a = EFF.decide(v := build_view(base), draw_actions(v))
    assert tile_name(a.tile) == "5z"
    # 5z is dora (indicator 7z): 1z goes instead
    a = EFF.decide(v := build_view(base, dora=parse_tiles("7z")), draw_actions(v))
    assert tile_name(a.tile) == "1z"
    # South round, West seat: East is no yakuhai and goes before White
    a = EFF.decide(v := build_view(base, round_wind=1, seat_wind=2), draw_actions(v))
    assert tile_name(a.tile) == "1z"
    # with both honours dora, a terminal goes: 9m (rightmost of 1m 9m)
    a = EFF.decide(v := build_view(base, dora=parse_tiles("47z")), draw_actions(v))
    assert tile_name(a.tile) == "9m"


def test_dora_indicator_cycles():
    assert dora_kinds(parse_tiles("9m")) == {kind(parse_tile("1m"))}
    assert dora_kinds(parse_tiles("4z")) == {kind(parse_tile("1z"))}
    assert dora_kinds(parse_tiles("0p")) == {kind(parse_tile("6p"))}


def test_riichi_at_tenpai():
    view = build_view(parse_tiles("123m456p789s11235s"))
    a = EFF.decide(view, draw_actions(view))
    assert a.kind == "riichi" and "riichi" in a.reason


def _reaction(hand: str, tile: str, by: int, melds=()):
    all_melds = [(), (), (), ()]
    all_melds[1] = tuple(melds)
    return PlayerView(
        seat=1,
        hand=tuple(parse_tiles(hand)),
        melds=tuple(all_melds),
        rivers=tuple((RiverTile(parse_tile(tile)),) if s == by else () for s in range(4)),
        offered=parse_tile(tile),
        offered_by=by,
    )


def test_pon_of_a_yakuhai_that_lowers_shanten():
    view = _reaction("13m456p78s1199s55z", "5z", 2)
    a = EFF.decide(view, reaction_actions(view))
    assert a.kind == "pon" and "yakuhai" in a.reason


def test_no_call_without_a_yaku():
    # pon of 9s would lower shanten but leaves no yakuhai and 9s is not a simple
    view = _reaction("13m456p78s1199s55z", "9s", 2)
    a = EFF.decide(view, reaction_actions(view))
    assert a.kind == "pass"


def test_chi_for_an_all_simples_hand():
    view = _reaction("34m456p2468s5577p", "5s", 0)
    legal = reaction_actions(view)
    a = EFF.decide(view, legal)
    assert a.kind == "chi" and "tanyao" in a.reason


def test_closed_kan_when_shanten_holds():
    view = build_view(parse_tiles("2222m456p789s1135s"))
    a = EFF.decide(view, draw_actions(view))
    assert a.kind == "closed_kan"


def test_added_kan():
    melds = [make_meld("pon", parse_tiles("555z"))]
    view = build_view(parse_tiles("123m456p78s11z5z"), melds=melds)
    assert EFF.decide(view, draw_actions(view)).kind == "added_kan"
