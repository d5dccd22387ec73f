"""Outside mjai bots in replay, simulate, advise and ``bot check``, through the command line.

The bots are small programs (``examples/mjai_bot.py`` and ``tests/bots/``) whose behaviour is known,
so what they answered can be checked against what they must have been shown: the minimal bot
discards the tile it draws (so its answers prove it saw its own draws), the recorder keeps every
line it is sent (checked against the project's own mjai writer), the q-bot sends Mortal-style
values (checked against the columns). Broken bots (garbage, exit at once, hang) must be reported
with the documented exit code, no traceback and no process left behind.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest
from shared import LOGS
from test_bots_process import running
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import MjcliError
from mjcli.riichi.formats import read_log
from mjcli.riichi.formats.mjai import event_to_mjai

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "tests" / "bots"
TENHOU = LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog"  # riichi, calls, rons
SIM = ROOT / "fixtures" / "simulate" / "logs" / "sim-000000.json"
runner = CliRunner()


def command(script: Path, *args: str) -> str:
    return " ".join(shlex.quote(x) for x in (sys.executable, str(script), "{seat}", *args))


def copy(script: Path, tmp_path: Path) -> Path:
    """A copy of a bot under the test's own folder: its path marks its processes."""
    target = tmp_path / "bin" / script.name
    target.parent.mkdir(exist_ok=True)
    shutil.copy(script, target)
    return target


def mini(tmp_path: Path) -> str:
    return command(copy(ROOT / "examples" / "mjai_bot.py", tmp_path))


@dataclass
class Ran:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def invoke(args: list[str]) -> Ran:
    """The command run in this process as ``mjcli.cli.main`` runs it: a project error is one line on
    stderr and exit 2; any other exception is a failure of the test (mjcli never shows a traceback
    of its own; a bot's, quoted from its stderr in a report, is the bot's)."""
    result = runner.invoke(app, args)
    if isinstance(result.exception, MjcliError):
        return Ran(2, result.stdout, "error: " + " ".join(str(result.exception).split()) + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return Ran(result.exit_code, result.stdout, result.stderr)


def mjcli(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command, in a process of its own."""
    return subprocess.run(
        [sys.executable, "-c", "from mjcli.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


# ---------------------------------------------------------------- replay


def test_replay_asks_the_bot_at_every_decision_of_its_seats(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    bot = mini(tmp_path)
    result = invoke(
        ["replay", str(TENHOU), "--bot", f"mini={bot}", "--policies", "mini,greedy", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert running(str(tmp_path)) == []
    rows = pl.read_parquet(out / "decisions.parquet")
    m, g = rows.filter(pl.col("policy") == "mini"), rows.filter(pl.col("policy") == "greedy")
    assert m.height == g.height > 900
    assert m["fault"].null_count() == m.height and m["choice"].null_count() == 0
    # the bot discards what it draws, passes on others' tiles: it saw its own draws, in order
    own = m.filter(pl.col("drawn").is_not_null())
    assert (own["choice"] == ("discard " + own["drawn"])).all()
    reacting = m.filter(pl.col("offered").is_not_null())
    assert reacting.height > 100 and (reacting["choice"] == "pass").all()
    after_call = m.filter(pl.col("drawn").is_null() & pl.col("offered").is_null())
    assert after_call.height > 0 and after_call["choice"].str.starts_with("discard ").all()
    assert (out / "faults.jsonl").read_text() == ""
    assert (out / "mini.stderr.log").exists()
    summary = invoke(["summary", str(out), "--json"])
    assert "bots" not in json.loads(summary.stdout)  # no fault, no q-value: no bot table


def test_a_seat_is_sent_its_masked_events_as_mjai_app_does(tmp_path: Path) -> None:
    record = tmp_path / "record"
    record.mkdir()
    bot = command(copy(BOTS / "recorder.py", tmp_path), str(record))
    out = tmp_path / "rep"
    result = invoke(["replay", str(TENHOU), "--bot", f"rec={bot}", "--policies", "rec", "--out", str(out)])
    assert result.exit_code == 1  # it answers none where it must discard: faults, listed
    assert "bot fault(s): rec illegal" in result.stdout
    (game,) = read_log(TENHOU)
    reference = [event_to_mjai(e) for e in game.events]
    for seat in range(4):
        lines = [json.loads(x) for x in (record / f"seat{seat}.jsonl").read_text().splitlines()]
        assert all(isinstance(x, list) and x for x in lines)  # mjai.app framing: arrays
        assert lines[0] == [{"type": "start_game", "names": list(game.start.names), "id": seat}]
        assert lines[-1] == [{"type": "end_game"}]
        # Every round: what the seat was sent is the round's events as the seat sees them (others'
        # draws and hands hidden), in order, up to its last decision; then end_kyoku alone.
        rounds = _rounds(reference)
        sent = _rounds([e for line in lines[1:-1] for e in line])
        assert len(sent) == len(rounds)
        for got, full in zip(sent, rounds, strict=True):
            assert got[-1] == {"type": "end_kyoku"} and full[-1] == {"type": "end_kyoku"}
            shown = [_masked(e, seat) for e in full if e["type"] not in ("hora", "ryukyoku")]
            assert got[:-1] == shown[: len(got) - 1]
        for line in lines:
            if line[0]["type"] in ("start_game", "end_kyoku", "end_game"):
                assert len(line) == 1  # alone on their line
            assert all(e["type"] not in ("hora", "ryukyoku") for e in line)


def test_a_seat_shown_at_the_table_is_sent_unmasked(tmp_path: Path) -> None:
    # replayed as if seat 1's player had played with the hand shown: every seat is sent seat 1's
    # starting hands and draws, and nothing else of the others
    record = tmp_path / "record"
    record.mkdir()
    bot = command(copy(BOTS / "recorder.py", tmp_path), str(record))
    (game,) = read_log(TENHOU)
    player = game.start.names[1]
    args = ["replay", str(TENHOU), "--bot", f"rec={bot}", "--policies", "rec", "--hands-shown", player]
    result = invoke([*args, "--seat", "0", "--seat", "2", "--out", str(tmp_path / "rep")])
    assert result.exit_code == 1  # the recorder's faults, as above
    reference = [event_to_mjai(e) for e in game.events]
    for seat in (0, 2):
        lines = [json.loads(x) for x in (record / f"seat{seat}.jsonl").read_text().splitlines()]
        sent = _rounds([e for line in lines[1:-1] for e in line])
        for got, full in zip(sent, _rounds(reference), strict=False):
            shown = [_masked(e, seat, {1}) for e in full if e["type"] not in ("hora", "ryukyoku")]
            assert got[:-1] == shown[: len(got) - 1]
        draws = [e for r in sent for e in r if e["type"] == "tsumo" and e["actor"] == 1]
        assert draws and all(e["pai"] != "?" for e in draws)


def _rounds(events: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for e in events:
        if e["type"] == "start_kyoku" or (
            e["type"] == "end_kyoku" and (not out or out[-1][-1]["type"] == "end_kyoku")
        ):
            out.append([])
        if e["type"] not in ("start_game", "end_game"):
            out[-1].append(e)
    return out


def _masked(e: dict, seat: int, shown: set[int] | None = None) -> dict:
    see = {seat} | (shown or set())
    e = dict(e)
    if e["type"] == "tsumo" and e["actor"] not in see:
        e["pai"] = "?"
    if e["type"] == "start_kyoku":
        e["tehais"] = [h if s in see else ["?"] * 13 for s, h in enumerate(e["tehais"])]
    return e


def test_mortal_style_meta_becomes_q_columns(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    bot = command(copy(BOTS / "qbot.py", tmp_path))
    result = invoke(
        ["replay", str(SIM), "--bot", f"q={bot}", "--policies", "q,efficiency", "--out", str(out)]
    )
    rows = pl.read_parquet(out / "decisions.parquet").filter(pl.col("policy") == "q")
    assert rows.height > 200
    assert (
        pl.read_parquet(out / "decisions.parquet")
        .filter(pl.col("policy") == "efficiency")["meta"]
        .null_count()
        > 0
    )
    valued = 0
    for r in rows.iter_rows(named=True):
        meta = json.loads(r["meta"]) if r["meta"] else None
        if r["actual"].startswith("discard ") and r["drawn"] is not None and meta is not None:
            # the bot's values: a discard of tile index i is worth (i % 9) / 10
            from mjcli.tiles import parse_tile

            want_actual = (parse_tile(r["actual"].split()[1]) % 9) / 10
            assert r["q_actual"] == pytest.approx(want_actual)
            assert r["q_choice"] == pytest.approx(max(meta["q_values"]))
            assert r["q_gap"] == pytest.approx(r["q_choice"] - r["q_actual"])
            valued += 1
        elif r["actual"] == "pass" and meta is not None:
            assert r["q_actual"] == 0.5 and r["q_gap"] == 0
    assert valued > 100
    summary = json.loads(invoke(["summary", str(out), "--json"]).stdout)
    (bot_row,) = summary["bots"]
    assert bot_row["policy"] == "q" and bot_row["valued"] > 100 and bot_row["mean_gap"] > 0
    costly = summary["costly"]
    assert len(costly) == 10 and costly[0]["q_gap"] == max(r for r in rows["q_gap"] if r is not None)
    assert "the player's costliest moves" in invoke(["summary", str(out)]).stdout
    assert result.exit_code in (0, 1)


def test_one_event_per_line_framing(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    bot = command(copy(BOTS / "event_bot.py", tmp_path))
    args = ["replay", str(SIM), "--bot", f"ev={bot}", "--policies", "ev", "--out", str(out)]
    result = invoke([*args, "--bot-framing", "event"])
    rows = pl.read_parquet(out / "decisions.parquet")
    own = rows.filter(pl.col("drawn").is_not_null())
    assert own.height > 100 and (own["choice"] == ("discard " + own["drawn"])).all()
    assert rows.filter(pl.col("offered").is_not_null())["choice"].eq("pass").all()
    assert result.exit_code in (0, 1)
    # the same bot sent arrays fails its own assertion: each seat's process exits, reported
    result = invoke([*args, "--out", str(tmp_path / "rep2")])
    assert result.exit_code == 1 and "ev exited" in result.stdout and "one event per line" in result.stdout
    assert running(str(tmp_path)) == []


# ---------------------------------------------------------------- simulate


def test_simulate_plays_the_bots_answers(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    bot = mini(tmp_path)
    args = [
        "simulate",
        "--bot",
        f"mini={bot}",
        "--players",
        "mini,greedy",
        "--games",
        "2",
        "--length",
        "tonpuu",
    ]
    result = invoke([*args, "--seed", "3", "--out", str(out), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert running(str(tmp_path)) == []
    games = pl.read_parquet(out / "games.parquet")
    assert games["faults"].sum() == 0 and set(games["policy"]) == {"mini", "greedy"}
    assert json.loads((out / "summary.json").read_text())["faults"] == {"mini": 0}
    assert (out / "faults.jsonl").read_text() == ""
    verify = invoke(["verify", str(out / "logs"), "--jobs", "1"])
    assert verify.exit_code == 0, verify.output
    # every discard of the bot's seats is the tile it drew (it never calls)
    for log in sorted((out / "logs").glob("*.mjai.jsonl")):
        events = [json.loads(x) for x in log.read_text().splitlines()]
        seats = [s for s, n in enumerate(events[0]["names"]) if n == "mini"]
        discards = [e for e in events if e["type"] == "dahai" and e["actor"] in seats]
        assert discards and all(e["tsumogiri"] for e in discards)
    again = invoke([*args, "--seed", "3", "--out", str(tmp_path / "sim1"), "--jobs", "1"])
    assert again.exit_code == 0
    for log in sorted((out / "logs").iterdir()):
        assert log.read_bytes() == (tmp_path / "sim1" / "logs" / log.name).read_bytes()


BROKEN = {
    "garbage": ("garbage.py", "not_json", "not JSON"),
    "exits": (None, "exited", "exited with code 3"),
    "sleeper": ("sleeper.py", "timeout", "did not answer within 1 s and was killed"),  # a round's first
}


def _broken(name: str, tmp_path: Path) -> str:
    script, _, _ = BROKEN[name]
    if script is None:
        path = tmp_path / "bin" / "exits.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text("import sys\nprint('cannot load the model', file=sys.stderr)\nsys.exit(3)\n")
        return command(path)
    return command(copy(BOTS / script, tmp_path))


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_bot_is_played_around_and_reported(name: str, tmp_path: Path) -> None:
    _, kind, says = BROKEN[name]
    out = tmp_path / "sim"
    bot = _broken(name, tmp_path)
    args = ["simulate", "--bot", f"bad={bot}", "--players", "bad,greedy", "--games", "1"]
    args += ["--length", "tonpuu", "--bot-timeout", "0.25", "--jobs", "1"]
    if name == "garbage":  # once as a real process: its exit code, and no traceback on its stderr
        real = mjcli(*args, "--out", str(out))
        result = Ran(real.returncode, real.stdout, real.stderr)
        assert "Traceback" not in result.output
    else:
        result = invoke([*args, "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert f"bad {kind}" in result.stdout and says in result.stdout
    assert running(str(tmp_path)) == []
    faults = [json.loads(x) for x in (out / "faults.jsonl").read_text().splitlines()]
    assert faults and faults[0]["fault"] == kind and faults[0]["played"].startswith(("discard", "pass"))
    assert all(f["fault"] in (kind, "unanswered") for f in faults)
    assert pl.read_parquet(out / "games.parquet")["faults"].sum() == len(faults)
    verify = invoke(["verify", str(out / "logs"), "--jobs", "1"])
    assert verify.exit_code == 0  # the fallbacks are legal moves
    if name == "exits":
        assert (
            "cannot load the model" in result.stdout
            and (out / "bad.stderr.log").read_text().count("cannot load") >= 2
        )
    if name == "garbage":  # each run costs a broken bot's timeout or more: the other ways, once
        strict = invoke([*args, "--strict-bots"])
        assert strict.exit_code == 1 and strict.stderr.startswith("error: game 0")
        assert "--strict-bots stops at the first fault" in strict.stderr
    if name == "exits":
        check = mjcli("bot", "check", f"bad={bot}", "--bot-timeout", "0.25", "--json")
        assert check.returncode == 1 and "Traceback" not in check.stderr
        report = json.loads(check.stdout)
        assert not report["clean"] and report["faults"] > 0 and len(report["handshake_problems"]) == 4
    assert running(str(tmp_path)) == []


@pytest.mark.parametrize("name", ["garbage", "sleeper"])
def test_replay_reports_a_broken_bot(name: str, tmp_path: Path) -> None:
    _, kind, says = BROKEN[name]
    bot = _broken(name, tmp_path)
    args = ["replay", str(SIM), "--bot", f"bad={bot}", "--policies", "bad,greedy", "--bot-timeout", "0.25"]
    args += ["--seat", "0"]
    result = invoke(args)
    assert result.exit_code == 1 and f"bad {kind}" in result.stdout and says in result.stdout
    strict = invoke([*args, "--strict-bots"])
    assert strict.exit_code == 1 and strict.stderr.startswith("error: bot 'bad'")
    assert running(str(tmp_path)) == []


def test_bot_check_passes_a_sound_bot(tmp_path: Path) -> None:
    result = invoke(["bot", "check", f"mini={mini(tmp_path)}", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "handshake 4 of 4 processes answered start_game" in result.stdout
    assert "faults 0 (illegal answers 0)" in result.stdout and result.stdout.rstrip().endswith("clean")
    assert running(str(tmp_path)) == []


def test_bot_check_at_a_three_player_table(tmp_path: Path) -> None:
    """``--sanma``: the same check with the bot in all three seats of a tenhou-sanma game (the
    example bot reads the three names of start_game and answers nukidora); four-player stays the
    default, and a four-player preset with --sanma is refused."""
    result = invoke(["bot", "check", f"mini={mini(tmp_path)}", "--sanma", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["rules"], report["players"], report["clean"]) == ("tenhou-sanma", 3, True)
    assert len(report["handshake_seconds"]) == 3 and report["rounds"] > 0
    bad = invoke(["bot", "check", f"mini={mini(tmp_path)}", "--sanma", "--rules", "majsoul"])
    assert bad.exit_code == 2 and "a four-player rule set" in bad.stderr
    assert running(str(tmp_path)) == []


# ---------------------------------------------------------------- advise and usage


def test_advise_asks_a_bot_about_a_hand_or_a_log_position(tmp_path: Path) -> None:
    bot = mini(tmp_path)
    r = invoke(["advise", "2388m34556p33577s", "--bot", f"mini={bot}", "--policy", "greedy,mini", "--json"])
    assert r.exit_code == 0, r.output
    rows = {p["policy"]: p for p in json.loads(r.stdout)["policies"]}
    assert rows["mini"]["action"] == "discard" and rows["mini"]["tile"] == "7s"  # the drawn tile
    position = ["--round", "E2", "--honba", "0", "--turn", "70", "--seat", "1"]
    r = invoke(["advise", str(TENHOU), *position, "--bot", f"mini={bot}", "--policy", "mini", "--json"])
    assert r.exit_code == 0, r.output
    result = json.loads(r.stdout)
    assert result["policies"][0]["tile"] == result["drawn"]
    r = invoke(["advise", "2388m34556p33577s", "--seen", "1m", "--bot", f"mini={bot}", "--policy", "mini"])
    assert r.exit_code == 2 and "error: an outside bot (--bot) sees a game's events" in r.stderr
    assert running(str(tmp_path)) == []


PY = shlex.quote(sys.executable)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--bot", "mini"], "--bot 'mini': write NAME=VALUE"),
        (["--bot", "m=/nonexistent/program {seat}"], "no program '/nonexistent/program'"),
        (["--bot", f"akagi={PY} x.py"], "'akagi' is already the built-in policy"),
        (["--bot-timeout", "2"], "--bot-timeout and --bot-framing apply to the bots given with --bot"),
        (["--bot", f"m={PY} {{seat}}", "--bot-timeout", "0"], "--bot-timeout 0"),
        (["--bot", f"m={PY} {{seat}}", "--bot-framing", "xml"], "--bot-framing 'xml'"),
        (["--bot", f"Bad Name={PY}"], "a policy name is letters"),
        (["--bot", f"ALL={PY} {{seat}}"], "'all' names every policy"),  # --policies all: never this one
        (["--plugin", "p=examples/plugin.py:Tsumogiri", "--bot", f"p={PY} {{seat}}"], "'p' is given twice"),
    ],
)
def test_bad_bot_options_are_usage_errors(args: list[str], says: str) -> None:
    result = invoke(["simulate", "--players", "greedy", "--games", "1", *args])
    assert result.exit_code == 2 and says in result.stderr, result.output


def test_bots_are_riichi_only() -> None:
    result = invoke(["simulate", "--game", "doudizhu", "--bot", f"x={PY} {{seat}}"])
    assert result.exit_code == 2 and "--bot does not apply to simulate --game doudizhu" in result.stderr


def test_bot_timeout_inf_is_no_limit(tmp_path: Path) -> None:
    # inf (or a number too big for select) said "no timeout" with an OverflowError traceback
    bot = f"b={sys.executable} {ROOT / 'examples' / 'mjai_bot.py'} {{seat}}"
    for limit in ("inf", "1e12"):
        result = runner.invoke(
            app, ["advise", "2388m34556p33577s", "--bot", bot, "--bot-timeout", limit, "--policy", "b"]
        )
        assert result.exit_code == 0, result.output
        assert "b       discard 7s" in result.stdout
    for bad in ("0", "-1", "nan"):
        result = runner.invoke(
            app, ["advise", "2388m34556p33577s", "--bot", bot, "--bot-timeout", bad, "--policy", "b"]
        )
        assert isinstance(result.exception, MjcliError), result.output
        assert "give a number of seconds above 0" in str(result.exception)


def _replay_faults(script: Path, tmp_path: Path, *more: str) -> tuple[Ran, list[dict]]:
    """``replay`` of the simulated log with the bot in every seat, one job: the run and its faults."""
    out = tmp_path / "rep"
    args = [
        "replay",
        str(SIM),
        "--bot",
        f"b={command(script)}",
        "--policies",
        "b",
        "--out",
        str(out),
        "-j",
        "1",
    ]
    result = invoke([*args, *more])
    return result, [json.loads(x) for x in (out / "faults.jsonl").read_text().splitlines()]


def test_a_bot_that_dies_at_the_games_end_is_reported(tmp_path: Path) -> None:
    """end_game (with the end_kyoku sent with it) asks no decision, and a bot dying there was never
    reported (a reviewer's finding): replay and simulate list it in faults.jsonl, with no position."""
    bot = command(BOTS / "dies_at_end.py")
    result, faults = _replay_faults(BOTS / "dies_at_end.py", tmp_path)
    assert result.exit_code == 1 and "at the game's end" in result.stdout, result.output
    assert {f["seat"] for f in faults} == {0, 1, 2, 3}
    assert all(f["kind"] == "end_game" and f["turn"] is None and f["fault"] == "exited" for f in faults)
    sim = tmp_path / "sim"
    args = ["simulate", "--bot", f"b={bot}", "--players", "b,greedy", "--games", "1", "--length", "tonpuu"]
    result = invoke([*args, "--jobs", "1", "--out", str(sim)])
    assert result.exit_code == 1 and "at the game's end" in result.stdout, result.output
    faults = [json.loads(x) for x in (sim / "faults.jsonl").read_text().splitlines()]
    assert faults and all(f["round"] == "end" and f["game"] == 0 for f in faults)


def test_lines_written_without_being_asked_are_a_fault_of_the_game(tmp_path: Path) -> None:
    """mjai asks one line per request: a second answer was dropped when seen before the next
    request (or taken for its answer when it came after), noted only in NAME.stderr.log. It is a
    fault now, one per seat and game, at the game's end, as a fault there is listed."""
    result, faults = _replay_faults(BOTS / "twice.py", tmp_path)
    assert result.exit_code == 1 and "b unasked" in result.stdout, result.output
    assert {f["seat"] for f in faults} == {0, 1, 2, 3}
    assert all(f["fault"] == "unasked" and f["kind"] == "end_game" for f in faults)
    assert all(f["detail"].startswith("wrote 1 line(s) without being asked") for f in faults)
    assert all(f["answer"] == '{"type":"none"}' for f in faults)


def test_a_line_past_the_limit_is_a_fault(tmp_path: Path) -> None:
    """A bot writing without a newline grew mjcli's memory for the whole timeout (and without end
    under --bot-timeout inf): past 16 MiB the line is a fault and the process is killed."""
    result, faults = _replay_faults(BOTS / "endless.py", tmp_path, "--bot-timeout", "inf")
    assert result.exit_code == 1, result.output
    first = [f for f in faults if f["fault"] == "not_json"]
    assert {f["seat"] for f in first} == {0, 1, 2, 3}
    assert all(
        "wrote a line longer than 16 MiB without ending it and was killed" in f["detail"] for f in first
    )


def test_advise_exits_1_when_a_bot_faults(tmp_path: Path) -> None:
    """The bot's row shows the fault, and the exit status says it, as in replay and simulate (it was
    0: a reviewer's finding)."""
    bot = command(copy(BOTS / "garbage.py", tmp_path))
    r = invoke(["advise", "2388m34556p33577s", "--bot", f"g={bot}", "--policy", "g,akagi", "--json"])
    assert r.exit_code == 1, r.output
    rows = {p["policy"]: p for p in json.loads(r.stdout)["policies"]}
    assert rows["g"]["fault"] == "not_json" and rows["akagi"].get("fault") is None
    assert running(str(tmp_path)) == []


def test_advise_shows_what_a_faulty_bot_answered(tmp_path: Path) -> None:
    """The text row of a bot's fault quotes its answer, as --json and replay's fault lines do (it
    said "not_json: not JSON", or "illegal: dahai is not legal here" without the tile)."""
    bot = command(copy(BOTS / "garbage.py", tmp_path))
    r = invoke(["advise", "2388m34556p33577s", "--bot", f"g={bot}", "--policy", "g,akagi"])
    assert r.exit_code == 1, r.output
    row = next(line for line in r.stdout.splitlines() if line.startswith("g "))
    assert "not_json: not JSON; answered 'hello, this is not JSON'" in row, r.stdout


def test_a_fault_at_a_rounds_end_says_so(tmp_path: Path) -> None:
    """end_kyoku is sent on the way to the next round's first decision, which the fault is filed
    under: its detail says it was the round's end (a reviewer found the position misleading)."""
    bot = command(BOTS / "dies_at_end.py", "end_kyoku")
    result = invoke(["replay", str(SIM), "--bot", f"b={bot}", "--policies", "b", "--seat", "0", "-j", "1"])
    assert result.exit_code == 1 and "at end_kyoku, the end of the round before" in result.stdout, (
        result.output
    )
