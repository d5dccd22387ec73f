"""The scorer agrees with the ``mahjong`` library's own ``estimate_hand_value`` on random complete
hands under every rule set and win condition (seven pairs, kokushi, red fives, kita, called sets),
explained or not."""

from __future__ import annotations

import dataclasses

from hand_strategies import redden
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.hand_calculating.hand import HandCalculator

from mjcli.errors import InvalidHandError, MjcliError
from mjcli.melds import make_meld
from mjcli.riichi.rules import get_rules
from mjcli.riichi.scoring import (
    WinContext,
    _IdPool,
    _lib_meld,
    hand_config_fields,
    new_hand_config,
    score_hand,
)
from mjcli.tiles import NORTH, SANMA_ABSENT, kind

RULE_SETS = ["tenhou", "tenhou-nored", "tenhou-nokuitan", "majsoul", "tenhou-sanma", "majsoul-sanma"]
FLAGS = ("riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou")


@st.composite
def wins(draw):
    """A complete hand (four sets and a pair, some called; seven pairs; kokushi) with random win
    conditions and rules; honours and terminals are drawn often so that yakuhai and yakuman occur."""
    rules = get_rules(draw(st.sampled_from(RULE_SETS)))
    sanma = rules.players == 3
    kinds = [k for k in range(34) if not (sanma and k in SANMA_ABSENT)]
    honourish = [k for k in kinds if k >= 27 or k % 9 in (0, 8)]
    pick = st.one_of(st.sampled_from(kinds), st.sampled_from(honourish))
    shape = draw(st.sampled_from(["sets"] * 6 + ["pairs", "kokushi"]))
    melds: list[tuple[str, list[int]]] = []
    if shape == "pairs":
        pairs = draw(st.lists(pick, min_size=7, max_size=7, unique=True))
        concealed = [k for k in pairs for _ in range(2)]
    elif shape == "kokushi":
        orphans = [k for k in range(34) if k >= 27 or k % 9 in (0, 8)]
        concealed = orphans + [draw(st.sampled_from(orphans))]
    else:
        counts = [0] * 34
        concealed = []
        for _ in range(4):
            start = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            if not sanma and draw(st.booleans()) and max(counts[start : start + 3]) < 4:
                group = [start, start + 1, start + 2]
            else:
                k = draw(pick.filter(lambda k: counts[k] == 0))
                group = [k, k, k]
            for t in group:
                counts[t] += 1
            call = draw(st.sampled_from(["none", "none", "call", "kan"]))
            if call == "call":
                melds.append(("chi" if group[0] != group[1] else "pon", group))
            elif call == "kan" and group[0] == group[1]:
                counts[group[0]] += 1
                melds.append((draw(st.sampled_from(["kan", "ankan", "kakan"])), group + [group[0]]))
            else:
                concealed.extend(group)
        pair = draw(pick.filter(lambda k: counts[k] <= 2))
        concealed += [pair, pair]
    if rules.red_fives:  # one copy of each five may be the red one
        redden(draw, [concealed] + [tiles for _, tiles in melds])
    seat = draw(st.integers(0, 2 if sanma else 3))
    if draw(st.integers(0, 3)) == 0:  # anything, mostly conditions that do not fit together
        flags = {name: draw(st.booleans()) for name in FLAGS if draw(st.integers(0, 3)) == 0}
        flags["tsumo"] = draw(st.booleans())
    else:  # conditions that fit together
        tsumo = draw(st.booleans())
        closed = all(k == "ankan" for k, _ in melds)
        riichi = draw(st.sampled_from(["", "riichi", "double_riichi"])) if closed else ""
        flags = {"tsumo": tsumo}
        if riichi:
            flags[riichi] = True
            flags["ippatsu"] = draw(st.booleans())
        last = draw(
            st.sampled_from(["", "", "rinshan", "haitei"] if tsumo else ["", "", "chankan", "houtei"])
        )
        if last and (last != "rinshan" or melds):
            flags[last] = True
        if tsumo and not melds and not riichi and draw(st.integers(0, 9)) == 0:
            flags["tenhou" if seat == 0 else "chiihou"] = True
    if draw(st.integers(0, 9)) == 0:  # open riichi (majsoul-style house rule; a ron may be sashikomi)
        flags["open_riichi"] = flags["riichi"] = True
        flags["discarder_riichi"] = draw(st.booleans())
    indicator = st.sampled_from(kinds)
    ctx = WinContext(
        seat_wind=seat,
        round_wind=draw(st.integers(0, 1)),
        honba=draw(st.integers(0, 3)),
        sticks=draw(st.integers(0, 2)),
        dora_indicators=tuple(draw(st.lists(indicator, min_size=1, max_size=3))),
        ura_indicators=tuple(draw(st.lists(indicator, max_size=3))),
        kita=draw(st.integers(0, 2)) if sanma else 0,
        **flags,
    )
    win = draw(st.sampled_from(concealed))
    return concealed, win, [make_meld(k, t) for k, t in melds], ctx, rules


def _library_inputs(concealed, win, melds, ctx, rules):
    pool = _IdPool(rules, "hand")
    ids = pool.take_all(concealed)
    win_id = ids[concealed.index(win)]
    lib_melds = []
    for m in melds:
        m_ids = pool.take_all(m.tiles)
        ids.extend(m_ids)
        lib_melds.append(_lib_meld(m, m_ids))
    return (
        ids,
        win_id,
        lib_melds,
        [4 * kind(t) for t in ctx.dora_indicators],
        [4 * kind(t) for t in ctx.ura_indicators],
    )


def _response(r) -> dict:
    return {
        "error": r.error,
        "han": r.han,
        "fu": r.fu,
        "cost": r.cost,
        "yaku": [(type(y).__name__, y.name, y.han_open, y.han_closed) for y in r.yaku or []],
        "fu_details": r.fu_details,
        "open": r.is_open_hand,
    }


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(wins())
def test_same_answer_as_the_library(case):
    if case is None:
        return
    concealed, win, melds, ctx, rules = case
    try:
        ids, win_id, lib_melds, dora, ura = _library_inputs(concealed, win, melds, ctx, rules)
    except MjcliError:
        return  # tiles or conditions the scorer refuses before asking the library
    fresh = new_hand_config(*hand_config_fields(ctx), rules)
    lib = HandCalculator.estimate_hand_value(
        ids, win_id, melds=lib_melds, dora_indicators=dora, config=fresh, ura_dora_indicators=ura
    )
    try:
        result = score_hand(concealed, win, melds, ctx, rules, explain=False)
    except InvalidHandError:
        return  # tiles the scorer refuses before asking the library (a fifth copy with an indicator)
    except MjcliError:
        assert lib.error is not None
        return
    assert lib.error is None
    assert (result.han, result.fu) == (lib.han, lib.fu)
    assert [name for _, name, _ in result.yaku] == [y.name for y in lib.yaku]
    explained = score_hand(concealed, win, melds, ctx, rules)
    assert dataclasses.replace(explained, fu_details=result.fu_details) == result
    assert explained.fu_raw == sum(d["fu"] for d in lib.fu_details or [])
    paid = lib.cost["main"] + lib.cost["main_bonus"]
    if rules.players == 3:
        return  # the absent seat's share and three-player honba are mjcli's, not the library's
    if not ctx.tsumo:
        assert result.payments == {"discarder": paid}
    elif ctx.dealer:
        assert result.payments == {"each": paid}


def test_kita_and_north_indicators_reach_the_library():
    ctx = WinContext(tsumo=True, kita=2, dora_indicators=(NORTH - 1,))
    ctx = dataclasses.replace(ctx, riichi=True)
    hand = [9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 22]  # 123456789p234s55s, tsumo on 5s
    result = score_hand(hand, 22, [], ctx, get_rules("tenhou-sanma"))
    assert ("dora", "Dora", 4) in result.yaku  # two kita, each one more for the indicator on North
