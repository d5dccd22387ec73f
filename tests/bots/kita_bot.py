"""Three-player: sets every North it draws aside (answering `nukidora`, or `kita` with a second
argument `kita`: both names are in use), otherwise discards the tile it draws; calls nothing."""

import json
import sys

seat = int(sys.argv[1])
name = sys.argv[2] if len(sys.argv) > 2 else "nukidora"
hand: list[str] = []
for line in sys.stdin:
    events = json.loads(line)
    for e in events:
        mine = e.get("actor") == seat
        if e["type"] == "start_kyoku":
            hand = list(e["tehais"][seat])
        elif mine and e["type"] == "tsumo":
            hand.append(e["pai"])
        elif mine and e["type"] in ("dahai", "nukidora", "kakan"):
            hand.remove(e["pai"])
        elif mine and e["type"] in ("pon", "daiminkan", "ankan"):
            for t in e["consumed"]:
                hand.remove(t)
    last = events[-1]
    answer = {"type": "none"}
    if last.get("actor") == seat and last["type"] in ("tsumo", "reach"):
        if "N" in hand and last["type"] == "tsumo" and last["pai"] == "N":
            answer = {"type": name, "actor": seat, "pai": "N"}
        else:
            answer = {"type": "dahai", "actor": seat, "pai": hand[-1], "tsumogiri": True}
    elif last.get("actor") == seat and last["type"] == "pon":
        answer = {"type": "dahai", "actor": seat, "pai": hand[-1], "tsumogiri": False}
    print(json.dumps(answer), flush=True)
