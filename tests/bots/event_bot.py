"""The one-event-per-line framing (gimite's mjai): one event object per line, every line answered;
discards the tile it draws, passes on everything else."""

import json
import sys

seat = int(sys.argv[1])
for line in sys.stdin:
    e = json.loads(line)
    assert isinstance(e, dict), "one event per line"
    answer = {"type": "none"}
    if e["type"] == "tsumo" and e["actor"] == seat:
        answer = {"type": "dahai", "actor": seat, "pai": e["pai"], "tsumogiri": True}
    print(json.dumps(answer), flush=True)
