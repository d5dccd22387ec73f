"""The engines' score (``explain=False``) and :class:`ScoreCache` answer what ``score_hand`` answers."""

from __future__ import annotations

import dataclasses

import pytest
from test_scoring_logs import CASES, _ints

from mjcli.errors import ScoringError
from mjcli.melds import make_meld
from mjcli.riichi.formats.meld_codes import ADDED_KAN, CHI, CLOSED_KAN, OPEN_KAN, PON, decode_meld
from mjcli.riichi.rules import get_rules, variant
from mjcli.riichi.scoring import ScoreCache, WinContext, score_hand
from mjcli.tiles import parse_tiles, tile_from_id136

_KINDS = {CHI: "chi", PON: "pon", OPEN_KAN: "kan", CLOSED_KAN: "ankan", ADDED_KAN: "kakan"}


def _question(go_type, init, agari):
    """score_hand's arguments for a recorded win (riichi and tsumo only: enough to differ)."""
    rules = variant(get_rules("tenhou"), red_fives=not go_type & 0x02, open_tanyao=not go_type & 0x04)
    red = rules.red_fives
    who, from_who, dealer = int(agari["who"]), int(agari["fromWho"]), int(init["oya"])
    yaku_ids = set(_ints(agari.get("yaku"))[0::2])
    melds = [
        make_meld(_KINDS[m.kind], [tile_from_id136(t, red) for t in m.tiles])
        for m in map(decode_meld, _ints(agari.get("m")))
    ]
    ctx = WinContext(
        tsumo=who == from_who,
        riichi=1 in yaku_ids,
        seat_wind=(who - dealer) % 4,
        round_wind=_ints(init["seed"])[0] // 4,
        dora_indicators=tuple(tile_from_id136(t, red) for t in _ints(agari.get("doraHai"))),
    )
    concealed = [tile_from_id136(t, red) for t in _ints(agari["hai"])]
    return concealed, tile_from_id136(int(agari["machi"]), red), melds, ctx, rules


QUESTIONS = [_question(*case.values[:3]) for case in CASES]


def test_the_engines_score_is_the_explained_one_without_the_explanation():
    scored = 0
    for concealed, win, melds, ctx, rules in QUESTIONS:
        try:
            full = score_hand(concealed, win, melds, ctx, rules)
        except ScoringError:
            continue  # a yaku of the record not rebuilt here (haitei, rinshan, ...): nothing to compare
        quick = score_hand(concealed, win, melds, ctx, rules, explain=False)
        assert quick.fu_raw == full.fu_raw
        assert dataclasses.replace(quick, fu_details=full.fu_details) == full
        scored += 1
    assert scored > 450


def test_the_cache_answers_as_score_hand_and_a_repeat_is_the_same_answer():
    cache = ScoreCache()
    for concealed, win, melds, ctx, rules in QUESTIONS[:120]:
        try:
            expected = score_hand(concealed, win, melds, ctx, rules)
        except ScoringError as exc:
            for _ in range(2):
                with pytest.raises(ScoringError, match="no yaku|not complete") as caught:
                    cache.score(concealed, win, melds, ctx, rules)
                assert str(caught.value) == str(exc)
            continue
        first = cache.score(concealed, win, melds, ctx, rules)
        assert first == expected
        assert cache.score(list(concealed), win, list(melds), ctx, rules) is first
        other_round = dataclasses.replace(ctx, honba=ctx.honba + 1)
        assert cache.score(concealed, win, melds, other_round, rules) != first
    assert len(cache) <= 240


def test_the_cache_is_bounded_and_drops_the_least_recently_asked():
    rules = get_rules("tenhou")
    cache = ScoreCache(maxsize=2)
    hands = [parse_tiles(h) for h in ("123m456p789s234s55z", "123m456p789s345s55z", "123m456p789s456s55z")]
    ctx = WinContext(tsumo=True)
    a = cache.score(hands[0], hands[0][-1], [], ctx, rules)
    cache.score(hands[1], hands[1][-1], [], ctx, rules)
    assert cache.score(hands[0], hands[0][-1], [], ctx, rules) is a  # now the most recent
    cache.score(hands[2], hands[2][-1], [], ctx, rules)  # drops hands[1]
    assert len(cache) == 2
    assert cache.score(hands[0], hands[0][-1], [], ctx, rules) is a
