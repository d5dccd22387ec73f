"""Answers like a Mortal-based bot: a `meta` with `q_values` (the legal actions' values, in the order
of Mortal's 46-action table) and `mask_bits`. Its own made-up values: a discard of tile index i is
worth (i % 9) / 10 (it likes to throw away high tiles), a pass 0.5; it plays the best, passes on
others' tiles, never declares riichi. Keeps its hand to know what it may discard."""

import json
import sys

seat = int(sys.argv[1])
NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC") + ["5mr", "5pr", "5sr"]
INDEX = {name: i for i, name in enumerate(NAMES)}
hand: list[str] = []
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
        elif mine and e["type"] == "kakan":
            hand.remove(e["pai"])
    last = events[-1]
    if last.get("actor") == seat and last["type"] == "tsumo":
        legal = sorted({INDEX[t] for t in hand})
        q = [(i % 9) / 10 for i in legal]
        best = legal[max(range(len(legal)), key=lambda k: (q[k], legal[k]))]
        meta = {"q_values": q, "mask_bits": sum(1 << i for i in legal), "shanten": 1}
        answer = {"type": "dahai", "actor": seat, "pai": NAMES[best], "tsumogiri": False, "meta": meta}
    elif last.get("actor") not in (None, seat) and last["type"] == "dahai":
        answer = {"type": "none", "meta": {"q_values": [0.5], "mask_bits": 1 << 45}}
    else:
        answer = {"type": "none"}
    print(json.dumps(answer), flush=True)
