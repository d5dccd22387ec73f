"""Seed 000 (MahjongJoy): the definitions on the seed's examples and on hand-made positions, the
PM0 discard priorities, the claim rule and the Riichi section.

The seed writes tiles as B (bamboo = sou), C (characters = man), D (dots = pin), VS/VN (South and
North wind).
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcli.analysis import pm0
from mjcli.melds import make_meld, parse_melds
from mjcli.riichi.advise import advise_hand, build_view
from mjcli.riichi.policies import get_policy
from mjcli.riichi.policies.legal import draw_actions, reaction_actions
from mjcli.riichi.policies.mahjongjoy import SET_TILE, exposed_counts, hand_mode, protected_pair
from mjcli.riichi.policies.view import Action, PlayerView, RiverTile
from mjcli.tiles import counts34, kind, parse_tile, parse_tiles, tile_from_id136, tile_name

MJ = get_policy("mahjongjoy")
LITERAL = get_policy("mahjongjoy-literal")
SEED_HAND = "14m1234p124s2444z"  # B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def k(text: str) -> int:
    return kind(parse_tile(text))


def which(pred, hand) -> list[str]:
    return [tile_name(x) for x in range(34) if hand[x] and pred(x)]


NONE = [0] * 34


# ---------------------------------------------------------------- the seed's own examples


def test_unique_tiles_of_the_seed_example():
    hand = c(SEED_HAND)
    assert which(lambda x: pm0.is_unique(x, hand), hand) == ["1m", "4m", "2z"]  # C1 C4 VS
    assert not pm0.is_unique(k("4s"), hand)  # B4: B2 differs by 2
    assert not pm0.is_unique(k("1p"), hand) and not pm0.is_unique(k("4p"), hand)


def test_minor_tiles_of_the_seed_example():
    hand = c(SEED_HAND)
    assert which(lambda x: pm0.is_minor(x, hand), hand) == ["1p", "4p", "4s"]  # D1 D4 B4


def test_minor_tiles_next_to_an_incomplete_chow():
    # B1 B2 B4 / C2 C4 C5: B4 and C2 are minor; B1 B2 (and C4 C5) are an incomplete chow.
    hand = c("245m124s")
    assert which(lambda x: pm0.is_minor(x, hand), hand) == ["2m", "4s"]
    assert not pm0.is_unique(k("1s"), hand) and not pm0.is_minor(k("1s"), hand)
    assert not pm0.is_unique(k("2s"), hand) and not pm0.is_minor(k("2s"), hand)


def test_dead_tile_examples():
    # VS in hand, three VS exposed
    hand, exposed = c("2z"), c("222z")
    assert pm0.is_dead(k("2z"), hand, exposed)
    # B2 in hand; exposed four B1, three B2, four B3
    hand, exposed = c("2s"), c("1111222333s3s")
    assert pm0.is_dead(k("2s"), hand, exposed)
    # one B3 back in play and the B2 can make B2 B3 B4 again
    assert not pm0.is_dead(k("2s"), hand, c("1111222333s"))


def test_dead_incomplete_chow_example():
    # B1 B2 with four B3 exposed
    assert pm0.dead_incomplete_chows(c("12s"), c("3333s")) == [(k("1s"), k("2s"))]
    assert pm0.dead_incomplete_chows(c("12s"), c("333s")) == []
    # a middle chow needs both ends gone
    assert pm0.dead_incomplete_chows(c("45s"), c("3333s")) == []
    assert pm0.dead_incomplete_chows(c("45s"), c("33336666s")) == [(k("4s"), k("5s"))]


def test_dead_pair_example():
    # B2 B2 in hand, B2 B2 exposed
    assert pm0.is_dead_pair(k("2s"), c("22s"), c("22s"))
    assert not pm0.is_dead_pair(k("2s"), c("22s"), c("2s"))


def test_problematic_tiles():
    # a single honour with one or two copies exposed
    assert pm0.is_problematic(k("5z"), c("5z"), c("5z"))
    assert pm0.is_problematic(k("5z"), c("5z"), c("55z"))
    assert not pm0.is_problematic(k("5z"), c("5z"), NONE)
    assert not pm0.is_problematic(k("5z"), c("5z"), c("555z"))  # dead, not problematic
    assert not pm0.is_problematic(k("5z"), c("55z"), c("5z"))  # a pair
    # a number tile that can only pair: every chow through 1s needs a 2s, all exposed, and two
    # 1s are exposed, so one copy is left unseen: a pair, never a pong
    assert pm0.is_problematic(k("1s"), c("1s"), c("112222s"))
    assert not pm0.is_problematic(k("1s"), c("1s"), c("2222s"))  # a pong is still possible
    assert not pm0.is_problematic(k("1s"), c("1s"), c("1s2222s"))  # (two unseen copies)
    assert not pm0.is_problematic(k("1s"), c("1s"), c("11222s"))  # a chow is still possible
    assert pm0.is_dead(k("1s"), c("1s"), c("1112222s"))  # no pair either: dead


def test_incomplete_chows_without_the_third():
    assert pm0.incomplete_chows(c("12s")) == [(k("1s"), k("2s"))]
    assert pm0.incomplete_chows(c("35s")) == [(k("3s"), k("5s"))]
    assert pm0.incomplete_chows(c("123s")) == []  # every two of them have their third
    assert pm0.incomplete_chows(c("1234s")) == []
    assert pm0.incomplete_chows(c("89s1p")) == [(k("8s"), k("9s"))]
    # never across suits
    assert pm0.incomplete_chows(c("9m1p")) == []


def test_tiles_of_a_complete_chow_are_not_incomplete_chow_tiles():
    hand = c("1235s")
    assert not pm0.is_incomplete_chow_tile(k("3s"), hand)
    assert pm0.is_incomplete_chow_tile(k("5s"), hand)


def test_max_combinations():
    assert pm0.max_combinations(c(SEED_HAND)) == 2  # D123 or D234, and VN VN VN
    assert pm0.max_combinations(c("11223344p")) == 4  # four pairs beat two chows
    assert pm0.max_sets(c("11223344p")) == 2
    assert pm0.max_sets(c("1111m")) == 1
    # two 123 chows and the pairs 11 22 33 (five) beat four 123 chows (four)
    assert pm0.max_combinations(c("111122223333m")) == 5
    assert pm0.max_sets(c("111122223333m")) == 4


# ---------------------------------------------------------------- PM0 1: the priority list


def test_priority_dead_before_unique():
    levels = dict(pm0.discard_levels(c("2z9m"), c("222z")))
    assert [tile_name(x) for x in levels["dead tile"]] == ["2z"]
    assert [tile_name(x) for x in levels["unique tile (not an honour)"]] == ["9m"]


def test_seed_hand_discards_the_first_unique_number_tile():
    view = build_view(parse_tiles(SEED_HAND + "9s"))
    a = MJ.decide(view, draw_actions(view))
    # unique number tiles: C1 C4 and the drawn B9; the first in the seed's order (B, C, D) is B9
    assert (a.kind, tile_name(a.tile)) == ("discard", "9s")
    assert "unique tile (not an honour)" in a.reason
    # VN VN VN is a plain pon (East seat and round): reading 1 keeps the hand closed
    assert "closed hand (no exposed combination, no yakuhai pon, closed kan or pair)" in a.reason


def test_honour_unique_after_number_unique():
    view = build_view(parse_tiles("123m456p78s11z5z9m99s"))
    a = MJ.decide(view, draw_actions(view))
    # 9m is a unique number tile (5z a unique honour, lower priority)
    assert tile_name(a.tile) == "9m"


def test_minor_tile_before_incomplete_chow():
    view = build_view(parse_tiles("123m456p124s55777z"))
    a = MJ.decide(view, draw_actions(view))
    # (tenpai, so the minor tile goes with riichi)
    assert (a.kind, tile_name(a.tile)) == ("riichi", "4s")
    assert "minor tile" in a.reason


# ---------------------------------------------------------------- Riichi section


def test_closed_hand_without_yakuhai_and_open_with_a_yakuhai_pair():
    assert hand_mode(build_view(parse_tiles("123m456p124s9s3344z")))[0] is False
    # 77z (Red) pair -> open hand
    is_open, why = hand_mode(build_view(parse_tiles("123m456p124s9s3377z")))
    assert is_open and "pair of 7z" in why
    # own wind: South pair for the South seat only
    assert hand_mode(build_view(parse_tiles("123m456p124s9s2244z"), seat_wind=1))[0] is True
    assert hand_mode(build_view(parse_tiles("123m456p124s9s2244z"), seat_wind=2))[0] is False


def _reaction_view(hand: str, tile: str, by: int, melds=()) -> PlayerView:
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


def test_closed_hand_makes_no_call():
    view = _reaction_view("123m456p2355s144z", "5s", 0)
    assert not hand_mode(view)[0]
    legal = reaction_actions(view)
    assert any(a.kind == "pon" for a in legal)
    assert MJ.decide(view, legal).kind == "pass"


def test_open_hand_claim_rule_pon_of_a_pair():
    view = _reaction_view("123m456p2355s777z", "5s", 2)
    assert hand_mode(view)[0]  # a concealed Red pon
    a = MJ.decide(view, reaction_actions(view))
    assert a.kind == "pon" and "stay at" in a.reason


def test_open_hand_claim_rule_refuses_a_call_that_breaks_a_set():
    # pon of 2s would take two 2s out of 222s: the sets drop from 3 to 2 -> no pon; the kan of
    # the same triplet drops them by exactly one -> kong.
    view = _reaction_view("123m456p222s46s77z", "2s", 2)
    legal = reaction_actions(view)
    pon = next(a for a in legal if a.kind == "pon")
    kan = next(a for a in legal if a.kind == "open_kan")
    assert MJ.decide(view, [pon, Action("pass")]).kind == "pass"
    assert MJ.decide(view, [kan, pon, Action("pass")]).kind == "open_kan"


def test_open_hand_chi_when_the_sets_stay():
    view = _reaction_view("123m11456p46s577z", "5s", 0)
    assert hand_mode(view)[0]
    a = MJ.decide(view, reaction_actions(view))
    assert a.kind == "chi" and sorted(tile_name(t) for t in a.consumed) == ["4s", "6s"]


def test_only_yakuhai_pair_of_an_open_hand_is_kept():
    # open hand (chi 234m), complete but without yaku, a single Red pair: the pair would be the
    # first priority-list tile ("tile of a pair"), but it is kept and a chow tile goes instead.
    melds = [make_meld("chi", parse_tiles("234m"))]
    view = build_view(parse_tiles("567p789s345s77z"), melds=melds)
    assert protected_pair(view) == k("7z")
    legal = draw_actions(view)
    assert not any(a.kind == "tsumo" for a in legal)
    a = MJ.decide(view, legal)
    # every kind of 567p 789s 345s keeps as many combinations: the first in B, C, D order
    assert (a.kind, tile_name(a.tile)) == ("discard", "3s")
    assert "keeps the only yakuhai pair" in a.reason and SET_TILE in a.reason


def test_riichi_whenever_possible():
    view = build_view(parse_tiles("123m456p789s11235s"))
    a = MJ.decide(view, draw_actions(view))
    assert a.kind == "riichi"


def test_always_declares_mahjong_and_adds_to_a_kong():
    view = build_view(parse_tiles("123m456p789s11z222z"), seat_wind=1)
    assert MJ.decide(view, draw_actions(view)).kind == "tsumo"
    melds = [make_meld("pon", parse_tiles("555z"))]
    view = build_view(parse_tiles("123m456p78s11z5z"), melds=melds)
    legal = draw_actions(view)
    assert any(a.kind == "added_kan" for a in legal)
    assert MJ.decide(view, legal).kind == "added_kan"


@pytest.mark.parametrize("level", pm0.PRIORITIES)
def test_every_priority_level_is_named_in_reasons(level):
    assert level and level[0].islower()


# ---------------------------------------------------------------- the literal readings (module notes)


def _levels(hand: str, seen: str = "") -> dict[str, list[str]]:
    exposed = c(seen) if seen else NONE
    return {name: [tile_name(x) for x in kinds] for name, kinds in pm0.discard_levels(c(hand), exposed)}


def test_literal_reading_any_concealed_pon_makes_an_open_hand_and_the_chi_keeps_the_sets():
    # mahjongjoy-literal: "un Pon, un Kan cerrado o un par de Dragones o ...", the yakuhai
    # qualifier the pair's only. South seat, 555m (not a yakuhai) -> open; 4p from the left: chi
    # with 23p keeps 555m 789s.
    view = _reaction_view("9m555m23p68p789s33z", "4p", 0)
    is_open, why = hand_mode(view, literal=True)
    assert is_open and why == "has a pon of 5m"
    a = LITERAL.decide(view, reaction_actions(view))
    assert a.label() == "chi 4p (23p)" and "stay at 2" in a.reason
    # the same hand with a pair 55m instead: no pon, and 55m is no yakuhai pair -> closed, no call
    view = _reaction_view("9m55m123p68p789s33z", "4p", 0)
    assert hand_mode(view, literal=True)[0] is False
    assert LITERAL.decide(view, reaction_actions(view)).kind == "pass"


@pytest.mark.parametrize("kan", ["5555z", "5555m"])
def test_literal_reading_any_closed_kan_makes_an_open_hand(kan):
    melds = [make_meld("ankan", parse_tiles(kan))]
    view = build_view(parse_tiles("23p68p789s34z9m1z"), melds=melds, seat_wind=1)
    assert view.is_closed
    assert hand_mode(view, literal=True) == (True, f"has a closed kan of {kan[0]}{kan[-1]}")
    a = LITERAL.decide(view, draw_actions(view))
    assert f"open hand (has a closed kan of {kan[0]}{kan[-1]})" in a.reason


# ---------------------------------------------------------------- reading 1: what opens a hand


@pytest.mark.parametrize(
    ("triplet", "default", "literal"),
    [
        ("555m", "pass", "chi 4p (23p)"),  # plain: no yaku, no reason to open (the issue's example)
        ("777z", "chi 4p (23p)", "chi 4p (23p)"),  # Red: a dragon pon
        ("111z", "chi 4p (23p)", "chi 4p (23p)"),  # East: the round wind
        ("222z", "chi 4p (23p)", "chi 4p (23p)"),  # South: the seat wind
        ("333z", "pass", "chi 4p (23p)"),  # West: neither wind of a South seat in an East round
    ],
)
def test_reading_1_only_a_yakuhai_pon_opens_the_hand(triplet, default, literal):
    # "Si el bot tiene un Pon, un Kan cerrado o un par de Dragones o Viento propio o Viento
    # dominante": the qualifier covers the pon too. South seat, 4p offered by East (its left).
    view = _reaction_view(f"9m{triplet}23p68p789s34z", "4p", 0)
    legal = reaction_actions(view)
    assert MJ.decide(view, legal).label() == default
    assert LITERAL.decide(view, legal).label() == literal


def test_reading_1_the_issues_example_stays_closed_and_passes():
    view = _reaction_view("9m555m23p68p789s34z", "4p", 0)
    assert hand_mode(view) == (False, "no exposed combination, no yakuhai pon, closed kan or pair")
    a = MJ.decide(view, reaction_actions(view))
    assert a.kind == "pass" and a.reason.startswith("Riichi: builds a closed hand")


@pytest.mark.parametrize(("kan", "is_open"), [("5555m", False), ("5555z", True)])
def test_reading_1_only_a_yakuhai_closed_kan_opens_the_hand(kan, is_open):
    melds = [make_meld("ankan", parse_tiles(kan))]
    view = build_view(parse_tiles("23p68p789s34z9m1z"), melds=melds, seat_wind=1)
    a = MJ.decide(view, draw_actions(view))
    mode = f"open hand (has a closed kan of {kan[0]}{kan[-1]})" if is_open else "closed hand"
    assert mode in a.reason


def test_reading_1_four_in_hand_of_a_yakuhai_kind_is_a_pon():
    # 5555z in the closed hand (no kan declared yet): a White pon, so the hand is open
    view = _reaction_view("9m5555z23p68p789s", "4p", 0)
    assert hand_mode(view) == (True, "has a pon of 5z")


# ---------------------------------------------------------------- reading 2: two yakuhai pairs

_CHIS = parse_melds("chi:234m,chi:678p")


@pytest.mark.parametrize(
    ("concealed", "seen", "expected", "level"),
    [
        # two yakuhai pairs (White, Green): neither is protected; the pairs level, B (sou) first
        ("22s88p55z66z", "", "discard 2s", "tile of a pair"),
        # both dead: "more than one dead pair", 5z before 6z
        ("22s88p55z66z", "5566z", "discard 5z", "tile of a dead pair (more than one dead pair in hand)"),
        # only 55z dead: the dead pair goes, the live 66z stays (it can still become a pon)
        ("22s88p55z66z", "55z", "discard 5z", "tile of a dead pair"),
    ],
)
def test_reading_2_two_yakuhai_pairs_protect_neither(concealed, seen, expected, level):
    view = build_view(parse_tiles(concealed), melds=_CHIS, seen=parse_tiles(seen))
    assert protected_pair(view) is None
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == expected
    assert f"PM0 1 {level}: " in a.reason and "keeps the only yakuhai pair" not in a.reason


def test_reading_2_once_one_pair_is_broken_the_other_is_protected():
    # 66z 5z after the 55z pair was broken (three 5z seen): 66z is now the only yakuhai pair
    view = build_view(parse_tiles("22s88p66z5z2s"), melds=_CHIS, seen=parse_tiles("555z"))
    assert protected_pair(view) == k("6z")
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 5z" and "dead tile" in a.reason
    assert "keeps the only yakuhai pair 6z6z" in a.reason


# ---------------------------------------------------------------- reading 3: the seed's tile order


def test_reading_3_the_seeds_hands_are_written_in_its_order():
    # "B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN" (bamboo, characters, dots, winds)
    tiles = sorted(parse_tiles(SEED_HAND), key=lambda t: pm0.seed_rank(kind(t)))
    assert " ".join(tile_name(t) for t in tiles) == "1s 2s 4s 1m 4m 1p 2p 3p 4p 2z 4z 4z 4z"
    # then the dragons, after the winds
    assert [tile_name(x) for x in sorted(range(27, 34), key=pm0.seed_rank)] == [
        "1z", "2z", "3z", "4z", "5z", "6z", "7z"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "expected", "level"),
    [
        # definition 5: "B1 B2 B4 C2 C4 C5 ... B4, C2 son Fichas menores" (with D1 D2 D3 D7 D8 D9 VN VN)
        ("245m123789p124s44z", "discard 4s", "minor tile"),
        # definition 5: "B1 B2 B4 C1 C4 D1 D2 D3 D4 VS VN VN VN - B4, D1, D4 - Fichas Menores", with
        # C5 C6 C7 and two pairs of honours so that no unique tile comes first
        ("124s567m1234p3344z", "discard 4s", "minor tile"),
        # definition 4: "C1, C4, VS - Fichas Únicas", and a drawn B9: B9 comes first
        (SEED_HAND + "9s", "discard 9s", "unique tile (not an honour)"),
        # the same hand drawing East: no B tile among the unique ones, C1 comes first
        (SEED_HAND + "1z", "discard 1m", "unique tile (not an honour)"),
    ],
)
def test_reading_3_the_seeds_examples_in_its_order(hand, expected, level):
    view = build_view(parse_tiles(hand))
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == expected and f"PM0 1 {level}: " in a.reason


def test_reading_3_the_tiles_beyond_the_list_in_the_seeds_order():
    # every tile in a complete chow: nothing in the seed's levels, so the last level lists every
    # kind (none can go keeping the combinations), in the order asked for; the Hong Kong bots keep
    # the kind order (no order given)
    levels = dict(pm0.discard_levels(c("123m123p123s"), NONE, pm0.seed_rank))
    assert all(not levels[name] for name in pm0.PRIORITIES)
    assert [tile_name(x) for x in levels[pm0.BEYOND]] == [
        "1s",
        "2s",
        "3s",
        "1m",
        "2m",
        "3m",
        "1p",
        "2p",
        "3p",
    ]
    kind_order = dict(pm0.discard_levels(c("123m123p123s"), NONE))[pm0.BEYOND]
    assert [tile_name(x) for x in kind_order] == ["1m", "2m", "3m", "1p", "2p", "3p", "1s", "2s", "3s"]


# ---------------------------------------------------------------- exposed tiles: dora indicators


@pytest.mark.parametrize(
    ("dora", "expected", "level"),
    [
        ("", "discard 9m", "unique tile (not an honour)"),
        ("2z", "discard 2z", "problematic tile"),  # "1 o 2 de esas fichas" exposed
        ("2z2z", "discard 2z", "problematic tile"),  # dora + kan dora
        ("2z2z2z", "discard 2z", "dead tile"),  # dora + two kan dora: three VS exposed
        ("2z3z", "discard 2z", "problematic tile"),  # the 3z indicator changes nothing
        ("9m", "discard 9m", "unique tile (not an honour)"),  # one 9m exposed does not kill it
    ],
)
def test_dora_and_kan_dora_indicators_are_exposed_tiles(dora, expected, level):
    # "en las versiones Riichi esto incluye fichas Dora, Kan-Dora y Ura Kan-Dora": every indicator
    # turned is an exposed tile. Closed hand (33z is West's pair, East seat and round).
    view = build_view(parse_tiles("123m456p78s33z9m2z55s"), dora=parse_tiles(dora))
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == expected and f"PM0 1 {level}: " in a.reason


# ---------------------------------------------------------------- the pair rule without a set to break


@pytest.mark.parametrize("seen", ["", "5z", "55z"])
def test_pair_rule_without_a_concealed_chow_or_pon_goes_on_below_the_pair(seen):
    # open hand of pairs only: the White pair is the only yakuhai pair; with two 5z seen it is the
    # only dead pair, whose level offers nothing else, and there is no concealed chow or pon to
    # break: "no debe descartar nunca fichas de ese par" stands, the list goes on to the pairs,
    # B (sou) first
    view = build_view(parse_tiles("22m88p33s55z"), melds=_CHIS, seen=parse_tiles(seen))
    assert protected_pair(view) == k("5z")
    assert pm0.concealed_set_kinds(view.concealed_counts()) == []
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 3s" and "PM0 1 tile of a pair: 3s" in a.reason
    assert "keeps the only yakuhai pair 5z5z" in a.reason


def test_round_wind_pair_of_a_west_seat_makes_an_open_hand():
    hand = parse_tiles("123m456p124s9s1134z")
    assert hand_mode(build_view(hand, seat_wind=2)) == (True, "has a pair of 1z")  # East round
    assert hand_mode(build_view(hand, seat_wind=2, round_wind=1))[0] is False  # South round


def test_closed_kan_is_always_taken():
    view = build_view(parse_tiles("1111m456p789s1235s"))
    legal = draw_actions(view)
    assert {"closed_kan", "riichi"} <= {a.kind for a in legal}
    a = MJ.decide(view, legal)
    assert a.kind == "closed_kan" and tile_name(a.tile) == "1m" and "PM0 3" in a.reason


def test_pair_tiles_count_as_incomplete_chow_tiles():
    # 223m: the 2m of the pair is a tile of the incomplete chow 23m (only complete sets are
    # looked at). 1-shanten, closed; nothing above level 8, whose first tile (B, C, D) is 2s.
    hand = "223m246s123p456p33z"
    levels = _levels(hand)
    assert all(not levels[name] for name in pm0.PRIORITIES[:7])
    assert levels["tile of an incomplete chow"] == ["2m", "3m", "2s", "4s", "6s"]
    assert pm0.is_incomplete_chow_tile(k("2m"), c(hand))
    view = build_view(parse_tiles(hand))
    assert not hand_mode(view)[0]
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 2s" and "tile of an incomplete chow" in a.reason


def test_minor_tile_counts_pairs_among_the_combinations():
    # 555m -> 55m keeps one combination (a pair is one), so 5m is minor and goes first.
    hand = "555m23p67p34s33z789s"
    assert _levels(hand)["minor tile"] == ["5m"]
    view = build_view(parse_tiles(hand))
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 5m" and "minor tile" in a.reason
    # a pair or a complete chow is never minor: discarding from them loses a combination
    assert not pm0.is_minor(k("5m"), c("55m23p67p34s33z789s"))
    assert not pm0.is_minor(k("7s"), c(hand))


def test_red_five_is_kept_over_a_plain_five():
    # the hand above with a red five in the 555m: the plain 5m goes
    view = build_view(parse_tiles("055m23p67p34s33z789s"))
    legal = draw_actions(view)
    assert Action("discard", parse_tile("0m")) in legal
    assert MJ.decide(view, legal) == Action("discard", parse_tile("5m"))
    # a red five alone is discarded when its kind is chosen
    view = build_view(parse_tiles("123m789p999s11z0s67z"))
    assert _levels("123m789p999s11z5s67z")["unique tile (not an honour)"] == ["5s"]
    assert MJ.decide(view, draw_actions(view)) == Action("discard", parse_tile("0s"))


def test_problematic_number_tile_needs_exactly_one_unseen_copy():
    # 2222s seen: no chow through 1s, but a pong still can be made -> not problematic; the hand
    # has no unique number tile (1s 3s and 5m 7m are within 2), so the first unique honour goes.
    view = build_view(parse_tiles("13s123m57m789p99p34z"), seen=parse_tiles("2222s"))
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 3z" and "unique tile (dragon or wind)" in a.reason
    # with two 1s seen too, the 1s can only pair: problematic
    view = build_view(parse_tiles("13s123m57m789p99p34z"), seen=parse_tiles("2222s11s"))
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 1s" and "problematic tile" in a.reason


def test_own_melds_are_not_exposed_tiles():
    # "de las combinaciones abiertas de otros jugadores": the own chi 234p does not make the
    # 33p pair dead (only one 3p seen), so the first pair (B, C, D), 5s, goes, not the dead 3p.
    melds = parse_melds("chi:234p,chi:678m")
    r = advise_hand("11m33p55s88s", melds=melds, seen="3p", policies="mahjongjoy")
    row = r["policies"][0]
    assert (row["action"], row["tile"]) == ("discard", "5s")
    assert "tile of a pair" in row["reason"]
    view = build_view(parse_tiles("11m33p55s88s"), melds=melds, seen=parse_tiles("3p"))
    assert exposed_counts(view)[k("3p")] == 1 and view.visible_counts()[k("3p")] == 2
    assert not pm0.is_dead_pair(k("3p"), view.concealed_counts(), exposed_counts(view))


def test_exposed_counts_rivers_other_melds_and_dora_only():
    own = make_meld("chi", parse_tiles("234p"), called=parse_tile("2p"), from_seat=0)
    other = make_meld("pon", parse_tiles("777z"), called=parse_tile("7z"), from_seat=3)
    view = PlayerView(
        seat=1,
        hand=tuple(parse_tiles("11m55s88s9p")),
        drawn=parse_tile("1z"),
        melds=((), (own,), (other,), ()),
        rivers=((RiverTile(parse_tile("2p"), called=True), RiverTile(parse_tile("3p"))), (), (), ()),
        dora_indicators=(parse_tile("9p"),),
    )
    exposed = exposed_counts(view)
    assert exposed[k("2p")] == 0 and exposed[k("4p")] == 0  # own chi, the called 2p included
    assert exposed[k("3p")] == 1  # the river's 3p, not the chi's
    assert exposed[k("7z")] == 3 and exposed[k("9p")] == 1
    assert view.visible_counts()[k("3p")] == 2  # (the view itself still counts everything)


def test_more_than_one_dead_pair():
    # 22s and 55p both dead (two of each seen): level 4, first in the seed's order (B) 2s.
    view = build_view(parse_tiles("123m456m55p79p22s79s"), seen=parse_tiles("22s55p"))
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 2s"
    assert "tile of a dead pair (more than one dead pair in hand)" in a.reason
    # one 5p seen: only 22s is dead, level 4 is empty. Nothing is unique or minor; level 8 holds
    # 5p (55p and 7p differ by 2, an incomplete chow; pairs are not looked at) 7p 9p 7s 9s.
    assert _levels("123m456m55p79p22s79s", "22s5p")[pm0.PRIORITIES[3]] == []
    assert _levels("123m456m55p79p22s79s", "22s5p")["tile of an incomplete chow"] == [
        "5p",
        "7p",
        "9p",
        "7s",
        "9s",
    ]
    view = build_view(parse_tiles("123m456m55p79p22s79s"), seen=parse_tiles("22s5p"))
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 7s" and "tile of an incomplete chow" in a.reason  # B first


def test_pair_rule_discards_a_concealed_chow_tile_instead_of_the_next_level():
    # chi 234m; 99m 567p 11s 44s 77z with two 7z seen: 77z is the only yakuhai pair and the only
    # dead pair (level 9). The next level (pairs) would give 9m; the seed's rule takes a tile of
    # a concealed chow or pon instead: 5p of 567p.
    melds = [make_meld("chi", parse_tiles("234m"))]
    view = build_view(parse_tiles("99m567p11s44s77z"), melds=melds, seen=parse_tiles("77z"))
    assert protected_pair(view) == k("7z")
    assert _levels("99m567p11s44s77z", "77z")["tile of a dead pair"] == ["7z"]
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 5p"
    assert SET_TILE in a.reason and "(tile of a dead pair)" in a.reason


def test_pair_rule_takes_another_tile_of_the_same_level_first():
    # West seat, East round: 11z is the only yakuhai pair; 11z and 22z are both dead (level 4).
    # 1z comes first in hand order but is kept; 2z has the same priority and goes.
    melds = [make_meld("chi", parse_tiles("234m"))]
    view = build_view(parse_tiles("88m567p99s11z22z"), melds=melds, seen=parse_tiles("1122z"), seat_wind=2)
    assert protected_pair(view) == k("1z")
    a = MJ.decide(view, draw_actions(view))
    assert a.label() == "discard 2z" and pm0.PRIORITIES[3] in a.reason


def test_pair_rule_off_with_a_yakuhai_pon():
    # a called pon of Red is a yaku: the White pair is not protected
    melds = [make_meld("pon", parse_tiles("777z"), called=parse_tile("7z"), from_seat=0)]
    view = build_view(parse_tiles("567p789s345s55z"), melds=melds)
    assert protected_pair(view) is None


def test_minor_tile_beyond_a_run_never_breaks_a_complete_chow():
    # 12s misses 3s; 4s "differs by 1" from it, but discarding it breaks 456s
    assert not pm0.is_minor(k("4s"), c("12456s"))
    assert pm0.is_minor(k("4s"), c("124s"))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(range(136)))
def test_the_only_yakuhai_pair_of_an_open_hand_is_never_discarded(wall):
    tiles = [tile_from_id136(i) for i in wall]
    chi = make_meld("chi", parse_tiles("234m"), called=parse_tile("2m"), from_seat=0)
    rest = [t for t in tiles if kind(t) not in (k("2m"), k("3m"), k("4m"), k("7z"))]
    hand = [*rest[:9], parse_tile("7z"), parse_tile("7z")]
    view = build_view(hand, melds=[chi])
    legal = draw_actions(view)
    protect = protected_pair(view)
    a = MJ.decide(view, legal)
    assert a in legal
    if protect is not None and a.kind in ("discard", "riichi"):
        assert kind(a.tile) != protect


def _levels_one_definition_at_a_time(hand: list[int], exposed: list[int]) -> list[tuple[str, list[int]]]:
    """The priority levels built straight from the definitions' functions, one kind at a time:
    what :func:`pm0.discard_levels` (which fuses them into one pass) must give."""
    kinds = [x for x in range(34) if hand[x]]
    dead = [x for x in kinds if pm0.is_dead(x, hand, exposed)]
    dead_pairs = [x for x in kinds if pm0.is_dead_pair(x, hand, exposed)]
    combo_free = pm0.free_kinds(hand)[0]
    return [
        (pm0.PRIORITIES[0], dead),
        (pm0.PRIORITIES[1], [x for x in kinds if pm0.is_problematic(x, hand, exposed)]),
        (pm0.PRIORITIES[2], sorted({x for pair in pm0.dead_incomplete_chows(hand, exposed) for x in pair})),
        (pm0.PRIORITIES[3], dead_pairs if len(dead_pairs) > 1 else []),
        (pm0.PRIORITIES[4], [x for x in kinds if x < 27 and pm0.is_unique(x, hand)]),
        (pm0.PRIORITIES[5], [x for x in kinds if x >= 27 and pm0.is_unique(x, hand)]),
        (pm0.PRIORITIES[6], [x for x in kinds if pm0.is_minor(x, hand)]),
        (pm0.PRIORITIES[7], [x for x in kinds if pm0.is_incomplete_chow_tile(x, hand)]),
        (pm0.PRIORITIES[8], dead_pairs),
        (pm0.PRIORITIES[9], [x for x in kinds if hand[x] == 2]),
        (pm0.BEYOND, [x for x in kinds if x in combo_free] + [x for x in kinds if x not in combo_free]),
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 33), min_size=1, max_size=14),
    st.lists(st.integers(0, 4), min_size=34, max_size=34),
)
def test_the_fused_priority_levels_are_the_definitions(tiles, seen):
    hand = [min(4, tiles.count(x)) for x in range(34)]
    exposed = [min(s, 4 - hand[x]) for x, s in enumerate(seen)]
    assert list(pm0.discard_levels(hand, exposed)) == _levels_one_definition_at_a_time(hand, exposed)
