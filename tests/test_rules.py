"""Rule-set presets and their translation to the mahjong library's options."""

from __future__ import annotations

import dataclasses

import pytest
from mahjong.hand_calculating.hand_config import HandConstants

from mjcli.errors import UsageError
from mjcli.riichi.rules import PRESETS, Rules, for_players, get_rules, rules_label, site_preset, variant


def test_tenhou_preset_is_the_default_rule_set():
    r = get_rules("tenhou")
    assert r == Rules(name="tenhou")
    # Tenhou ranked rules: red fives, kuitan, no kiriage, single yakuman only, kazoe yakuman,
    # 25000 start / 30000 return, uma +20/+10/-10/-20, double ron, triple ron aborts.
    assert (r.red_fives, r.open_tanyao, r.kiriage, r.double_yakuman, r.kazoe_yakuman) == (
        True,
        True,
        False,
        False,
        True,
    )
    assert (r.start_points, r.return_points, r.uma) == (25000, 30000, (20, 10, -10, -20))
    assert r.double_ron and r.triple_ron_abort and r.bust_ends and r.nagashi_mangan
    assert sum(r.uma) == 0 and len(r.uma) == r.players


def test_hand_options_follow_the_fields():
    o = get_rules("tenhou").hand_options()
    assert o.has_open_tanyao and o.has_aka_dora and not o.has_double_yakuman and not o.kiriage
    assert o.kazoe_limit == HandConstants.KAZOE_LIMITED
    assert o.fu_for_open_pinfu and not o.fu_for_pinfu_tsumo and not o.is_three_player
    o2 = variant(get_rules("tenhou"), kazoe_yakuman=False, kiriage=True, red_fives=False).hand_options()
    assert o2.kazoe_limit == HandConstants.KAZOE_SANBAIMAN and o2.kiriage and not o2.has_aka_dora
    # cached: one options object per rule set
    assert get_rules("tenhou").hand_options() is get_rules("tenhou").hand_options()


def test_variants_and_presets():
    assert get_rules(" Tenhou-Tonpuu ").length == "tonpuu"
    assert not get_rules("tenhou-nored").red_fives
    assert not get_rules("tenhou-nokuitan").open_tanyao
    sanma = PRESETS["tenhou-sanma"]
    majsoul = {"majsoul", "majsoul-sanma"}
    for name, r in PRESETS.items():
        assert r.name == name
        if name in majsoul:
            continue  # a site of its own: test_majsoul_presets
        if r.site == "majsoul":
            base = PRESETS["majsoul"] if r.players == 4 else PRESETS["majsoul-sanma"]
        else:
            base = PRESETS["tenhou"] if r.players == 4 or r is sanma else sanma
        diff = {f.name for f in dataclasses.fields(Rules) if getattr(r, f.name) != getattr(base, f.name)}
        if r is sanma:
            # Tenhou's three-player table, each field checked against real logs (rules.py)
            assert diff - {"name"} == {
                "players",
                "start_points",
                "return_points",
                "uma",
                "honba_points",
                "noten_payment",
            }
        else:
            assert len(diff - {"name"}) <= 1  # each variant changes one thing
    v = variant(get_rules("tenhou"), name="ema-ish", open_tanyao=False)
    assert v.name == "ema-ish" and not v.open_tanyao and v.red_fives


def test_majsoul_presets():
    """Mahjong Soul's ranked rooms (sources in rules.py): Tenhou's tables with Mahjong Soul's end
    score (uma 15/5/-5/-15 and 15/0/-15 counted from the start: no oka), a goal of 30000/40000 to
    end the game, double yakuman patterns, pao for the liable yakuman only, triple ron scored,
    kokushi robbing a closed kan."""
    four, three = get_rules("majsoul"), get_rules("majsoul-sanma")
    for r, base in ((four, get_rules("tenhou")), (three, get_rules("tenhou-sanma"))):
        diff = {f.name for f in dataclasses.fields(Rules) if getattr(r, f.name) != getattr(base, f.name)}
        assert diff - {"name"} == {
            "site",
            "return_points",
            "goal_points",
            "uma",
            "double_yakuman",
            "pao_whole_hand",
            "triple_ron_abort",
            "kokushi_robs_closed_kan",
        }
        assert r.return_points == r.start_points and sum(r.uma) == 0
    assert (four.uma, four.goal, three.uma, three.goal) == ((15, 5, -5, -15), 30000, (15, 0, -15), 40000)
    assert get_rules("tenhou").goal == 30000 and get_rules("tenhou-sanma").goal == 40000
    # each site keeps to itself when a log has another number of players
    assert for_players(four, 3) == three and for_players(three, 4) == four
    assert site_preset("majsoul", 3) is three and site_preset("tenhou", 4) == get_rules("tenhou")
    with pytest.raises(UsageError, match="unknown rule site 'mahjongsoul'"):
        site_preset("mahjongsoul", 4)


def test_rules_label_names_the_preset_the_rules_equal():
    assert rules_label(dataclasses.replace(get_rules("tenhou"), length="tonpuu")) == "tenhou-tonpuu"
    assert (
        rules_label(dataclasses.replace(get_rules("majsoul-sanma"), length="tonpuu"))
        == "majsoul-sanma-tonpuu"
    )
    assert rules_label(dataclasses.replace(get_rules("tenhou-sanma"), red_fives=False)) == (
        "tenhou-sanma (red_fives=False)"
    )


def test_unknown_preset_and_field():
    with pytest.raises(UsageError, match="unknown rule set 'wrc'.*tenhou"):
        get_rules("wrc")
    with pytest.raises(UsageError, match="unknown rule field"):
        variant(get_rules("tenhou"), akadora=False)
