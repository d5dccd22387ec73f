"""Plays as examples/mjai_bot.py (run as its child), but dies when told the game is over: a fault with
no decision to hang it on, which was dropped unreported."""

import subprocess
import sys
from pathlib import Path

example = Path(__file__).resolve().parents[2] / "examples" / "mjai_bot.py"
child = subprocess.Popen(
    [sys.executable, str(example), *sys.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
)
for line in sys.stdin:
    if '"end_game"' in line:
        print("dying at end_game", file=sys.stderr, flush=True)
        sys.exit(5)
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
