"""How fast ``score_hand`` is on real wins: every ``<AGARI>`` of the Tenhou logs, scored repeatedly."""

from __future__ import annotations

import re
import time

from benchmarks import SHARED_LOGS
from mjcli.melds import make_meld
from mjcli.riichi.formats.meld_codes import ADDED_KAN, CHI, CLOSED_KAN, OPEN_KAN, PON, decode_meld
from mjcli.riichi.rules import get_rules
from mjcli.riichi.scoring import WinContext, score_hand
from mjcli.tiles import tile_from_id136

LOGS = SHARED_LOGS / "tenhou-xml"
_KINDS = {CHI: "chi", PON: "pon", OPEN_KAN: "kan", CLOSED_KAN: "ankan", ADDED_KAN: "kakan"}


def _ints(text: str | None) -> list[int]:
    return [int(x) for x in text.split(",")] if text else []


def _wins() -> list[tuple]:
    out = []
    for path in sorted(LOGS.glob("*.mjlog")):
        oya = 0
        round_wind = 0
        for tag in re.findall(r"<(?:INIT|AGARI) [^>]*>", path.read_text(errors="replace")):
            a = dict(re.findall(r'(\w+)="([^"]*)"', tag))
            if tag.startswith("<INIT"):
                oya, round_wind = int(a["oya"]), _ints(a["seed"])[0] // 4
                continue
            who, from_who = int(a["who"]), int(a["fromWho"])
            yaku_ids = set(_ints(a.get("yaku"))[0::2])
            melds = [
                make_meld(_KINDS[m.kind], [tile_from_id136(t) for t in m.tiles])
                for m in map(decode_meld, _ints(a.get("m")))
            ]
            ctx = WinContext(
                tsumo=who == from_who,
                riichi=1 in yaku_ids,
                double_riichi=21 in yaku_ids,
                ippatsu=2 in yaku_ids,
                chankan=3 in yaku_ids,
                rinshan=4 in yaku_ids,
                haitei=5 in yaku_ids,
                houtei=6 in yaku_ids,
                seat_wind=(who - oya) % 4,
                round_wind=round_wind,
                dora_indicators=tuple(tile_from_id136(t) for t in _ints(a.get("doraHai"))),
                ura_indicators=tuple(tile_from_id136(t) for t in _ints(a.get("doraHaiUra"))),
            )
            concealed = [tile_from_id136(t) for t in _ints(a["hai"])]
            out.append((concealed, tile_from_id136(int(a["machi"])), melds, ctx))
    return out


def run() -> None:
    rules = get_rules("tenhou")
    wins = _wins()
    rounds = 20
    start = time.perf_counter()
    for _ in range(rounds):
        for concealed, win, melds, ctx in wins:
            score_hand(concealed, win, melds, ctx, rules)
    elapsed = time.perf_counter() - start
    n = rounds * len(wins)
    print(f"scoring: {n} wins from {len(wins)} recorded Tenhou wins in {elapsed:.2f} s")
    print(f"scoring: {elapsed / n * 1e6:.0f} us per win, {n / elapsed:.0f} wins/s")


if __name__ == "__main__":
    run()
