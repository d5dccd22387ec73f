"""Independent check: every win recorded in the real Tenhou logs scores the same through ``score_hand``.

Tenhou's ``<AGARI>`` tag records the concealed tiles (``hai``), melds (``m``), winning tile
(``machi``), the yaku with their han (or the yakuman), ``ten`` = fu, points (honba and sticks
excluded) and limit, and ``sc`` = the score changes. We rebuild our inputs from the tag and the
round's ``<INIT>`` and compare han, fu, points and (when no pao applies) every seat's change.
"""

from __future__ import annotations

import re

import pytest
from shared import log_files

from mjcli.melds import make_meld
from mjcli.riichi import scoring
from mjcli.riichi.formats.meld_codes import ADDED_KAN, CHI, CLOSED_KAN, OPEN_KAN, PON, decode_meld
from mjcli.riichi.rules import get_rules, variant
from mjcli.riichi.scoring import WinContext, score_hand
from mjcli.tiles import tile_from_id136

FILES = log_files("tenhou-xml/*.mjlog") + log_files("tenhou-xml-scenarios/*.mjlog")
_KINDS = {CHI: "chi", PON: "pon", OPEN_KAN: "kan", CLOSED_KAN: "ankan", ADDED_KAN: "kakan"}
# Tenhou yaku ids of the win conditions (the rest are found by the library from the tiles).
_FLAGS = {
    1: "riichi",
    21: "double_riichi",
    2: "ippatsu",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
}
_FLAGS.update({37: "tenhou", 38: "chiihou"})
_LIMITS = {0: None, 1: "mangan", 2: "haneman", 3: "baiman", 4: "sanbaiman", 5: "yakuman"}


def _ints(text: str | None) -> list[int]:
    return [int(x) for x in text.split(",")] if text else []


def _attrs(tag: str) -> dict[str, str]:
    return dict(re.findall(r'(\w+)="([^"]*)"', tag))


def recorded_wins():
    cases = []
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        go = re.search(r'<GO type="(\d+)"', text)
        go_type = int(go.group(1)) if go else 169
        if go_type & 0x10:
            continue  # three-player games are not scored yet
        init: dict[str, str] = {}
        nth = 0  # 1 for the second winner of a double ron
        for tag in re.findall(r"<(?:INIT|AGARI) [^>]*>", text):
            if tag.startswith("<INIT"):
                init, nth = _attrs(tag), 0
                continue
            cases.append(pytest.param(go_type, init, _attrs(tag), nth, id=f"{path.stem}-{len(cases)}"))
            nth += 1
    return cases


CASES = recorded_wins()


def test_the_logs_hold_wins():
    assert len(FILES) == 23 + 83
    assert len(CASES) == 514  # every <AGARI> of the four-player games


@pytest.mark.parametrize(("go_type", "init", "agari", "nth"), CASES)
def test_recorded_win(go_type, init, agari, nth, monkeypatch):
    rules = variant(get_rules("tenhou"), red_fives=not go_type & 0x02, open_tanyao=not go_type & 0x04)
    red = rules.red_fives
    who, from_who, dealer = int(agari["who"]), int(agari["fromWho"]), int(init["oya"])
    honba, sticks = _ints(agari["ba"])
    yaku = _ints(agari.get("yaku"))
    yaku_ids = yaku[0::2] + _ints(agari.get("yakuman"))
    flags = {_FLAGS[i]: True for i in yaku_ids if i in _FLAGS}
    if flags.get("double_riichi"):
        flags.pop("riichi", None)
    melds = []
    for code in _ints(agari.get("m")):
        m = decode_meld(code)
        melds.append(make_meld(_KINDS[m.kind], [tile_from_id136(t, red) for t in m.tiles]))
    ctx = WinContext(
        tsumo=who == from_who,
        seat_wind=(who - dealer) % 4,
        round_wind=_ints(init["seed"])[0] // 4,
        honba=honba,
        sticks=sticks,
        dora_indicators=tuple(tile_from_id136(t, red) for t in _ints(agari.get("doraHai"))),
        ura_indicators=tuple(tile_from_id136(t, red) for t in _ints(agari.get("doraHaiUra"))),
        **flags,
    )
    concealed = [tile_from_id136(t, red) for t in _ints(agari["hai"])]
    win = tile_from_id136(int(agari["machi"]), red)
    r = score_hand(concealed, win, melds, ctx, rules)
    # the explanation read from the library's own items is the one from its items counted again
    monkeypatch.setattr(scoring, "_sets_in_hand_order", lambda details: False)
    assert score_hand(concealed, win, melds, ctx, rules).fu_details == r.fu_details

    fu, points, limit = _ints(agari["ten"])
    if "yakuman" in agari:
        assert r.yakuman == len(_ints(agari["yakuman"]))
    else:
        assert r.han == sum(yaku[1::2])
        assert r.fu == fu
    assert r.limit == _LIMITS[limit] or (limit == 5 and r.limit == "kazoe yakuman")
    assert r.hand_value == points
    # Score changes: pao moves payments to the liable player, and in a double ron honba and sticks
    # go to the first winner only (the round's state, not the hand's value): the engine handles both.
    if "paoWho" not in agari and nth == 0:
        deltas = tuple(100 * d for d in _ints(agari["sc"])[1::2])
        assert r.deltas(who, dealer, None if ctx.tsumo else from_who) == deltas
