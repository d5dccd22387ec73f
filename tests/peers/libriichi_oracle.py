"""An independent judge of bot answers, run with the mjai peer venv's Python (never imported by mjcli):
Mortal's libriichi (shipped in PyPI mjai as ``mjai.mlibriichi``) follows an mjai log from one seat
and says whether an answer given after a given line would be accepted (``validate_reaction``), and
whether the seat had to act (a discard due, no pass on offer).

stdin: {"log": "game.mjai.jsonl", "checks": [{"seat": 1, "event": 255, "answers": ["{...}", ...]}]}
(``event``: the index of the log line after which the seat answered; two answers: reach, then the
discard). stdout: one JSON object per check: {"valid": bool, "error": str|null, "must_act": bool}.
"""

import json
import sys

from mjai.mlibriichi.state import PlayerState

request = json.load(sys.stdin)
with open(request["log"], encoding="utf-8") as f:
    lines = f.read().splitlines()
by_seat: dict[int, list[dict]] = {}
for check in request["checks"]:
    by_seat.setdefault(check["seat"], []).append(check)
results: dict[int, dict] = {}
for seat, checks in by_seat.items():
    at = {c["event"]: c for c in checks}
    state = None
    cans = None
    for i, line in enumerate(lines):
        kind = json.loads(line)["type"]
        if kind == "start_kyoku":
            state = PlayerState(seat)
        if state is not None and kind not in ("start_game", "end_game"):
            cans = state.update(line)
        check = at.get(i)
        if check is None:
            continue
        out = {"valid": True, "error": None, "must_act": bool(cans.can_discard and not cans.can_pass)}
        try:
            for n, answer in enumerate(check["answers"]):
                state.validate_reaction(answer)
                if n + 1 < len(check["answers"]):
                    state.update(answer)  # the reach, before its discard is asked
        except Exception as exc:  # libriichi's verdict
            out = {**out, "valid": False, "error": str(exc).splitlines()[0][:200]}
        results[id(check)] = out
        # the state must follow the log, not the answer: start this seat over for its next check
        if len(check["answers"]) > 1:
            state = PlayerState(seat)
            for line2 in lines[: i + 1]:
                k2 = json.loads(line2)["type"]
                if k2 == "start_kyoku":
                    state = PlayerState(seat)
                if k2 not in ("start_game", "end_game"):
                    state.update(line2)
for check in request["checks"]:
    print(json.dumps(results[id(check)]))
