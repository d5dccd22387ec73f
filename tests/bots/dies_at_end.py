"""Plays as examples/mjai_bot.py (run as its child), but dies when told the game is over (or, with a
second argument ``end_kyoku``, a round): a fault with no decision of its own to hang it on."""

import subprocess
import sys
from pathlib import Path

seat = sys.argv[1]
at = sys.argv[2] if len(sys.argv) > 2 else "end_game"
example = Path(__file__).resolve().parents[2] / "examples" / "mjai_bot.py"
child = subprocess.Popen(
    [sys.executable, str(example), seat], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
)
for line in sys.stdin:
    if f'"{at}"' in line:
        print(f"dying at {at}", file=sys.stderr, flush=True)
        sys.exit(5)
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
