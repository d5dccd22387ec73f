#!/bin/sh
# Creates the test-only venv of the mjai.app reference bot (PyPI mjai 0.2.1, AGPL: run as an outside
# program by the tests, never imported by mjcli) at $1 (.venv-peers/mjai). Its wheels exist only for
# CPython 3.10-3.12 on Linux x86_64: without such an interpreter, or without the network, the reason
# is written to $1.unavailable and the RiichiBot tests skip with it. Either way $1.stamp is made, so
# that `make test` does not try again: `make clean-peers` to retry.
set -u
dest="$1"
rm -f "$dest.unavailable"
found=""
for cand in python3 python3.12 python3.11 python3.10; do
    if command -v "$cand" >/dev/null 2>&1 &&
        "$cand" -c 'import sys; sys.exit(0 if (3, 10) <= sys.version_info[:2] <= (3, 12) else 1)' 2>/dev/null; then
        found="$cand"
        break
    fi
done
if [ -z "$found" ]; then
    have=$(python3 --version 2>&1 || echo "no python3")
    echo "PyPI mjai 0.2.1 (RiichiBot) needs CPython 3.10-3.12; this machine has $have" | tee "$dest.unavailable"
elif [ -x "$dest/bin/python" ] && "$dest/bin/python" -c 'import mjai.bot.riichibot' 2>/dev/null; then
    :
else
    echo "creating $dest with $found and mjai==0.2.1 (the RiichiBot test peer)"
    rm -rf "$dest"
    if ! { "$found" -m venv "$dest" && "$dest/bin/python" -m pip install -q mjai==0.2.1; } >"$dest.log" 2>&1; then
        echo "could not install mjai==0.2.1 with $found (see $dest.log)" | tee "$dest.unavailable"
        rm -rf "$dest"
    fi
fi
touch "$dest.stamp"
