"""Answers start_game, then hangs at the first decision (it says so on stderr)."""

import sys
import time

for line in sys.stdin:
    if "start_game" in line or "end_" in line:
        print('{"type":"none"}', flush=True)
        continue
    print("thinking very hard...", file=sys.stderr, flush=True)
    time.sleep(3600)
