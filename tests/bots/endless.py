"""Answers start_game, then writes one line that never ends (17 MiB without a newline) and waits."""

import sys
import time

for line in sys.stdin:
    if '"start_game"' in line:
        print('{"type":"none"}', flush=True)
        continue
    sys.stdout.write("a" * (17 * 1024 * 1024))
    sys.stdout.flush()
    time.sleep(60)
