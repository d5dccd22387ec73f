"""Answers start_game twice (two lines in one write), then plays as the shipped minimal bot: its
second line is one written without being asked."""

import json
import sys

seat = int(sys.argv[1])
hand: list[str] = []
NONE = '{"type":"none"}\n'
for line in sys.stdin:
    events = json.loads(line)
    for e in events:
        mine = e.get("actor") == seat
        if e["type"] == "start_kyoku":
            hand = list(e["tehais"][seat])
        elif mine and e["type"] == "tsumo":
            hand.append(e["pai"])
        elif mine and e["type"] == "dahai":
            hand.remove(e["pai"])
        elif mine and e["type"] in ("chi", "pon", "daiminkan", "ankan"):
            for t in e["consumed"]:
                hand.remove(t)
        elif mine and e["type"] in ("kakan", "nukidora"):
            hand.remove(e["pai"])
    last = events[-1]
    answer = NONE * 2 if last["type"] == "start_game" else NONE
    if last.get("actor") == seat and last["type"] in ("tsumo", "reach"):
        answer = json.dumps({"type": "dahai", "actor": seat, "pai": hand[-1], "tsumogiri": True}) + "\n"
    elif last.get("actor") == seat and last["type"] in ("chi", "pon"):
        keep = last["pai"][:2]
        pai = next((t for t in reversed(hand) if t[:2] != keep), hand[-1])
        answer = json.dumps({"type": "dahai", "actor": seat, "pai": pai, "tsumogiri": False}) + "\n"
    sys.stdout.write(answer)
    sys.stdout.flush()
