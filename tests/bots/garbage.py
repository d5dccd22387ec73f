"""Answers every line with text that is not JSON."""

import sys

for _line in sys.stdin:
    print("hello, this is not JSON", flush=True)
