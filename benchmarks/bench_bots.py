"""Outside bots and plugins: what the bridge costs.

1. The shipped minimal mjai bot (``examples/mjai_bot.py``) replaying shared Tenhou logs, one process
   per seat: decisions per second per bot process, timed inside :meth:`MjaiBot.answer` (the
   engine's own replay work between decisions does not count; the processes' start-ups are
   apart, printed with them too). Target: at least 2,000. The peer
   measured in the same run is the floor of any pipe bridge: a bare Python program echoing one
   line per line over the same pipes (``subprocess`` text pipes, ``readline``), so the ratio says what
   the protocol layer adds to the pipe itself. The machine's load average is printed: on a
   loaded machine every round trip waits for a core.
2. A plugin against the built-in policy doing the same work: a plugin file loaded through the
   registry whose ``decide`` calls an ``EfficiencyPolicy``, against ``EfficiencyPolicy`` itself, on
   the decision points of shared logs (views and legal actions built before the clock, the memos
   warm; 10 pairs of passes, each pair in alternating order, in CPU time; the median difference).
   Target: at most 5 us more per decision. (The plugin is called exactly as a built-in is: what is
   measured is its one extra method call, within the noise of a busy machine.)
3. RiichiBot (mjai.app's reference bot, PyPI mjai 0.2.1, when ``make peers`` has set it up)
   replaying two logs: its decisions per second (its own thinking dominates).
"""

from __future__ import annotations

import gc
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from mjcli.plugins import PLUGIN, PolicySpec
from mjcli.riichi.bots import BotSettings, bot_spec
from mjcli.riichi.formats import read_log
from mjcli.riichi.policies import EfficiencyPolicy, build_policy, policy_registry
from mjcli.riichi.replay import ReplayOptions, decisions_of, replay_file

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT.parent / "shared" / "logs" / "tenhou-xml"
BOT_LOGS = sorted(LOGS.glob("2010*.mjlog")) + sorted(LOGS.glob("2011020414*.mjlog"))
PEER = ROOT / ".venv-peers" / "mjai" / "bin" / "python"
TARGET_BOT = 2000
TARGET_PLUGIN_US = 5.0


def _timed_bot(command: str, logs: list[Path]) -> tuple[int, float, float, float]:
    """(answers, wall seconds inside answer, of which the processes' start-ups, CPU seconds of
    mjcli's side and of the bot processes)."""
    from mjcli.riichi.bots import MjaiBot

    spec = bot_spec(f"b={command}", BotSettings(timeout=60.0))
    options = ReplayOptions(("b",), registry=policy_registry(bots=[spec]))
    bot = build_policy(spec)
    inner = bot.answer
    cpu = [0.0]

    def answer(*args: object, **kwargs: object) -> object:
        c = time.process_time()
        got = inner(*args, **kwargs)  # type: ignore[arg-type]
        cpu[0] += time.process_time() - c
        return got

    bot.answer = answer  # type: ignore[method-assign]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        for path in logs:
            replay_file(path, path.name, options, [("b", bot)])
    finally:
        bot.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    bot_cpu = (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    assert isinstance(bot, MjaiBot)
    return bot.answers, bot.seconds, sum(bot.start_seconds), cpu[0] + bot_cpu


def _bridge_alone(command: str, logs: list[Path]) -> tuple[int, float]:
    """The same decisions put to the bot one after another, the engine's work done beforehand:
    (answers, wall seconds) of the bridge and the bot alone."""
    spec = bot_spec(f"b={command}", BotSettings(timeout=60.0))
    games = []
    for path in logs:
        for game in read_log(path):
            names = list(game.start.names) if game.start is not None else []
            games.append((game.events, names, list(decisions_of(game.events))))
    bot = build_policy(spec)
    try:
        start = time.perf_counter()
        for events, names, points in games:
            bot.start_game(events, names)
            for d in points:
                bot.answer(d.seat, d.event, d.legal.actions, recorded=d.actual)
            bot.end_game()
        wall = time.perf_counter() - start
    finally:
        bot.close()
    return sum(len(p) for _, _, p in games), wall


def _pipe_floor(n: int = 5000) -> float:
    """Round trips per second of a bare line echo over pipes: the peer of the bridge."""
    code = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert p.stdin and p.stdout
    line = '[{"type":"dahai","actor":3,"pai":"1m","tsumogiri":true},{"type":"tsumo","actor":0,"pai":"5p"}]\n'
    p.stdin.write(line)
    p.stdout.readline()
    start = time.perf_counter()
    for _ in range(n):
        p.stdin.write(line)
        p.stdin.flush()
        p.stdout.readline()
    rate = n / (time.perf_counter() - start)
    p.stdin.close()
    p.wait()
    return rate


def _bot_bench() -> None:
    load = os.getloadavg()[0]
    floor = _pipe_floor()
    command = " ".join(
        shlex.quote(x) for x in (sys.executable, str(ROOT / "examples" / "mjai_bot.py"), "{seat}")
    )
    answers, wall, starts, cpu = _timed_bot(command, BOT_LOGS)
    rate = (answers) / (wall - starts)
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    print(f"pipe floor (bare echo over pipes)        {floor:10,.0f} round trips/s")
    print(
        f"minimal mjai bot, replay of {len(BOT_LOGS)} logs       {rate:10,.0f} decisions/s per bot process "
        f"({answers} decisions; {rate / floor:.2f} x the pipe floor; target >= {TARGET_BOT:,}: "
        f"{'met' if rate >= TARGET_BOT else 'NOT met'})"
    )
    print(f"  with the processes' start-ups             {answers / wall:10,.0f} decisions/s")
    print(
        f"  CPU per decision (mjcli side + bot)     {cpu / answers * 1e6:10.0f} us "
        f"= {answers / cpu:,.0f} decisions/s of CPU (process start-ups included)"
    )
    n, alone = _bridge_alone(command, BOT_LOGS)
    print(
        f"  the same decisions back to back         {n / alone:10,.0f} decisions/s (start-ups included; "
        "the engine's work done beforehand)"
    )


def _plugin_bench() -> None:
    points = []
    for path in BOT_LOGS:
        for game in read_log(path):
            points.extend((d.view, d.legal.actions) for d in decisions_of(game.events))
    with tempfile.TemporaryDirectory() as tmp:
        plugin = Path(tmp) / "same_work.py"
        plugin.write_text(
            textwrap.dedent(
                """
                from mjcli.riichi.policies import EfficiencyPolicy

                class SameWork:
                    def __init__(self):
                        self.inner = EfficiencyPolicy()

                    def decide(self, view, legal):
                        return self.inner.decide(view, legal)
                """
            )
        )
        wrapped = build_policy(PolicySpec("same", PLUGIN, f"{plugin}:SameWork"))

        def timed(policy: object) -> float:
            for view, legal in points:  # the memo of hands warm: the policy's own work is steady
                policy.decide(view, legal)  # type: ignore[attr-defined]
            gc.disable()
            try:
                start = time.process_time()
                for view, legal in points:
                    policy.decide(view, legal)  # type: ignore[attr-defined]
                return (time.process_time() - start) / len(points)
            finally:
                gc.enable()

        # alternating, best of each: the machine's other load and the caches favour neither
        builtins: list[float] = []
        plugins: list[float] = []
        both = [(builtins, EfficiencyPolicy()), (plugins, type(wrapped)())]
        for i in range(10):
            for times, policy in both if i % 2 == 0 else both[::-1]:
                times.append(timed(policy))
        builtin, plugin_t = statistics.median(builtins), statistics.median(plugins)
    extra = statistics.median(p - b for b, p in zip(builtins, plugins, strict=True)) * 1e6
    print(
        f"plugin vs built-in, same work ({len(points)} decisions): built-in {builtin * 1e6:.1f} us, "
        f"plugin {plugin_t * 1e6:.1f} us per decision (medians): {extra:+.2f} us "
        f"(target <= {TARGET_PLUGIN_US:g} us: {'met' if extra <= TARGET_PLUGIN_US else 'NOT met'})"
    )


def _riichibot_bench() -> None:
    if not PEER.exists():
        print("RiichiBot: not set up (make peers creates .venv-peers/mjai)")
        return
    code = (
        "import sys; from mjai.bot.riichibot import RiichiBot; RiichiBot(player_id=int(sys.argv[1])).start()"
    )
    command = " ".join(shlex.quote(x) for x in ("env", "RUST_BACKTRACE=0", str(PEER), "-c", code, "{seat}"))
    logs = BOT_LOGS[:2]
    answers, wall, starts, _ = _timed_bot(command, logs)
    rate = answers / (wall - starts)
    print(
        f"RiichiBot, replay of {len(logs)} logs              {rate:10,.0f} decisions/s per bot process "
        f"(start-ups apart: {starts / 4:.1f} s each)"
    )


def run() -> None:
    _bot_bench()
    _plugin_bench()
    _riichibot_bench()


if __name__ == "__main__":
    run()
