"""The README's examples print what the README says they print.

Every ``$ mjcli ...`` line of a README code block that reads only what the project ships (the
shared logs, ``fixtures/``, ``examples/``) is run as printed, each in a folder of its own where
``../shared/logs``, ``fixtures`` and ``examples`` are what they are beside the checkout (what it
writes with ``--out`` stays there), and its output is compared line for line with the lines under
it in the README: stdout and stderr each in order, stderr's lines anywhere among stdout's as a
terminal shows them; blank lines, a run's time and rate and a file's size in KB aside; a ``...``
line in the README standing for lines left out. Examples that read an earlier example's output
(``summary sim``, ``report rep``), pipe, need a cluster or an outside bot, or play a scene their
comment tells are left to the tests of their own commands. (A contract probe found three examples
whose figures had drifted: simulate's intervals, a replay's agreement, a rule-set label.)
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from shared import LOGS

ROOT = Path(__file__).resolve().parents[1]
#: what an example may not do to be run here: pipe, need a cluster or an outside bot, or play a
#: scene its comment tells ("# while another replay writes into rep")
_SKIP = ("|", ">", "--bot", "--ray", "--resume", "$(", " #")
#: commands whose examples read an earlier example's output folder
_AFTER_OTHERS = ("summary", "report", "bot")
#: what differs from run to run: a run's time and rate, and a file's size
_TIMES = re.compile(r" in \d+(?:\.\d+)? s \([^)]*\)$|\b\d+ KB\)")
#: a file named in an example, by its suffix (hands, seats and policy names have none of these)
_FILE_SUFFIXES = (".mjlog", ".json", ".jsonl", ".mjson", ".parquet", ".gz", ".py", ".xml")


def _examples() -> list[tuple[int, str, list[str]]]:
    """(line number, command, the output lines under it) of every runnable example."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    found: list[tuple[int, str, list[str]]] = []
    inside = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            inside = not inside
            i += 1
            continue
        if inside and line.startswith("$ mjcli "):
            j = i + 1
            while line.endswith("\\") and j < len(lines):  # a command continued on the next line
                line = line[:-1] + lines[j].strip()
                j += 1
            output: list[str] = []
            while j < len(lines) and not lines[j].startswith(("$ ", "```")):
                output.append(lines[j].rstrip())
                j += 1
            command = line[2:]
            stopped = any(x.startswith("^C") for x in output)  # a Ctrl-C shown in the output
            if not stopped and not any(s in command for s in _SKIP) and _reads_only_what_is_shipped(command):
                found.append((i + 1, command, output))
            i = j
            continue
        i += 1
    return found


def _reads_only_what_is_shipped(command: str) -> bool:
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return False  # not a shell line as it stands
    if len(words) < 2 or words[1] in _AFTER_OTHERS:
        return False
    for word in words[2:]:
        if word.startswith("/"):
            return False  # a place outside the example's own folder (--out /tmp/vo)
        if "=" in word or word.startswith("-"):
            continue
        if "/" in word or word.endswith(_FILE_SUFFIXES):
            if word.startswith("../shared/logs/"):
                there = LOGS / word.removeprefix("../shared/logs/")
            else:
                there = ROOT / word
            if not there.exists():
                return False  # a file an earlier example wrote (edited.mjlog, sim/logs...)
    return True


def _matches(want: list[str], got: list[str]) -> bool:
    """``got`` is ``want`` but for blank lines, times and sizes, a line ``...`` in ``want`` standing
    for any lines."""
    want = [_TIMES.sub("", x) for x in want if x]
    got = [_TIMES.sub("", x) for x in got if x]
    if "..." not in want:
        return want == got
    cut = want.index("...")
    head, tail = want[:cut], want[cut + 1 :]
    if got[: len(head)] != head:
        return False
    return any(_matches(tail, got[k:]) for k in range(len(head), len(got) + 1))


def _matches_streams(want: list[str], out: list[str], err: list[str]) -> bool:
    """``want`` is stdout and stderr as a terminal shows them: each in its order, stderr's lines
    anywhere among stdout's (stdout is written when its buffer is flushed)."""
    if "..." in want:
        return any(_matches(want, got) for got in (out, out + err, err + out))
    want = [_TIMES.sub("", x) for x in want if x]
    out = [_TIMES.sub("", x) for x in out if x]
    err = [_TIMES.sub("", x) for x in err if x]
    if len(want) != len(out) + len(err):
        return False
    ways = {(0, 0)}  # lines of stdout and of stderr taken so far
    for line in want:
        ways = {(o + 1, e) for o, e in ways if o < len(out) and out[o] == line} | {
            (o, e + 1) for o, e in ways if e < len(err) and err[e] == line
        }
        if not ways:
            return False
    return True


EXAMPLES = _examples()


@pytest.fixture
def beside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of its own for each example (what it writes), laid out as the README's examples
    assume: the checkout's own files, the shared logs at ``../shared/logs``."""
    top = tmp_path_factory.mktemp("readme")
    (top / "shared").mkdir()
    (top / "shared" / "logs").symlink_to(LOGS)
    here = top / "main"
    here.mkdir()
    for name in ("fixtures", "examples"):
        (here / name).symlink_to(ROOT / name)
    return here


def test_the_readme_has_examples_to_run() -> None:
    assert len(EXAMPLES) >= 30  # the selection has not gone empty by a change of the README's form


@pytest.mark.parametrize(("line", "command", "output"), EXAMPLES, ids=[f"line{n}" for n, _, _ in EXAMPLES])
def test_a_readme_example_prints_what_the_readme_shows(
    line: int, command: str, output: list[str], beside: Path
) -> None:
    args = shlex.split(command, comments=True)[1:]
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "mjcli", *args],
        cwd=beside,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    out = [x.rstrip() for x in run.stdout.splitlines()]
    err = [x.rstrip() for x in run.stderr.splitlines()]
    want = list(output)
    assert "Traceback" not in run.stderr, run.stderr
    assert _matches_streams(want, out, err), (
        f"README line {line}: {command}\n--- README\n"
        + "\n".join(want)
        + "\n--- printed\n"
        + "\n".join(out + err)
    )
