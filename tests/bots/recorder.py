"""Writes every line it is sent to RECORD_DIR/seatN.jsonl (argv[2]) and answers none."""

import sys
from pathlib import Path

seat = int(sys.argv[1])
out = (Path(sys.argv[2]) / f"seat{seat}.jsonl").open("a", encoding="utf-8")
for line in sys.stdin:
    out.write(line)
    out.flush()
    print('{"type":"none"}', flush=True)
