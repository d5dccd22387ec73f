"""The shipped minimal bot (examples/mjai_bot.py), but its first answer (to start_game) is written
twice in one write: the second line is one written without being asked."""

import runpy
import sys
from pathlib import Path


class _FirstTwice:
    def __init__(self, out) -> None:
        self.out, self.first = out, True

    def write(self, text: str) -> int:
        if self.first:
            self.first, text = False, text * 2
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


sys.stdout = _FirstTwice(sys.stdout)
runpy.run_path(str(Path(__file__).resolve().parents[2] / "examples" / "mjai_bot.py"), run_name="__main__")
