"""Python policies from outside mjcli: ``--plugin NAME=TARGET``, entry points, the one registry of specs.

A plugin that does what a built-in does must answer exactly as the built-in does, in this process
and in worker processes (which rebuild it from its picklable spec); a name is usable wherever a
built-in's is and is the name in every output; a broken plugin is a one-line usage error.
"""

from __future__ import annotations

import json
import pickle
import shlex
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.plugins import BOT, BUILTIN, ENTRY_POINT, PLUGIN, PolicySpec, load_target
from mjcli.riichi.policies import POLICY_NAMES, build_policy, policy_registry

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "plugin.py"
SIM = ROOT / "fixtures" / "simulate" / "logs"
runner = CliRunner()

SAME_AS_EFFICIENCY = '''
from mjcli.riichi.policies import EfficiencyPolicy


class Mine:
    """The built-in efficiency policy's work, as a plugin."""

    def __init__(self):
        self.inner = EfficiencyPolicy()

    def decide(self, view, legal):
        return self.inner.decide(view, legal)


def make():
    return Mine()
'''


@pytest.fixture()
def twin(tmp_path: Path) -> Path:
    path = tmp_path / "twin.py"
    path.write_text(SAME_AS_EFFICIENCY)
    return path


def test_the_registry_knows_every_source_and_pickles(twin: Path) -> None:
    bot = PolicySpec("mybot", BOT, "python bot.py {seat}")
    reg = policy_registry([f"tw={twin}:Mine", "ex=examples/plugin.py:Tsumogiri"], [bot])
    assert reg.names[:4] == ("akagi", "mahjongjoy", "greedy", "efficiency")
    assert reg.spec("TW").source == PLUGIN and reg.spec("mybot").source == BOT
    assert reg.parse_names("all") == [*POLICY_NAMES, "tw", "ex", "mybot"]
    assert reg.parse_names("ex, akagi,ex") == ["ex", "akagi"]
    again = pickle.loads(pickle.dumps(reg))
    assert again == reg and again.spec("tw") == reg.spec("tw")
    with pytest.raises(UsageError, match=r"unknown policy 'nope' \(known: akagi, .*, tw, ex, mybot\)"):
        reg.spec("nope")
    with pytest.raises(UsageError, match="'akagi' is already the built-in policy"):
        policy_registry(["akagi=x.py:A"])
    with pytest.raises(UsageError, match="'p' is given twice"):
        policy_registry(["p=x.py:A", "p=y.py:B"])


def test_targets_load_from_files_and_modules_and_fail_by_name(tmp_path: Path, twin: Path) -> None:
    assert load_target(f"{twin}:Mine", "plugin").__name__ == "Mine"
    assert load_target("mjcli.riichi.policies.greedy:GreedyPolicy", "plugin").name == "greedy"
    (tmp_path / "broken.py").write_text("import not_a_module_anywhere\n")
    (tmp_path / "nodecide.py").write_text("class X:\n    pass\n")
    (tmp_path / "raises.py").write_text("def make():\n    raise RuntimeError('no weights')\n")
    # sys.exit() in a plugin ended the command silently with exit 0
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(0)\n")
    (tmp_path / "exits_later.py").write_text("def make():\n    raise SystemExit(3)\n")
    cases = {
        f"{tmp_path}/missing.py:A": "plugin file .* does not exist",
        f"{twin}:Nope": "has no attribute 'Nope'",
        f"{tmp_path}/broken.py:A": "importing .* failed \\(ModuleNotFoundError",
        "no_such_package_xyz.mod:A": "module 'no_such_package_xyz.mod' is not installed",
        "twin.py": "is not file.py:Attr or package.module:Attr",
        f"{tmp_path}/nodecide.py:X": "is not a policy: it has no decide",
        f"{tmp_path}/raises.py:make": "calling it failed \\(RuntimeError: no weights\\)",
        f"{tmp_path}/exits.py:A": "importing .* failed \\(SystemExit: 0\\)",
        f"{tmp_path}/exits_later.py:make": "calling it failed \\(SystemExit: 3\\)",
    }
    for target, message in cases.items():
        with pytest.raises(UsageError, match=message):
            build_policy(PolicySpec("p", PLUGIN, target))


def test_a_plugin_answers_as_the_builtin_it_wraps_in_workers_too(twin: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    logs = [str(SIM / "sim-000000.json"), str(SIM / "sim-000001.json")]  # two files: two workers
    args = ["replay", *logs, "--plugin", f"twin={twin}:make", "--policies", "efficiency,twin"]
    result = runner.invoke(app, [*args, "--out", str(out), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    rows = pl.read_parquet(out / "decisions.parquet")
    eff, tw = rows.filter(pl.col("policy") == "efficiency"), rows.filter(pl.col("policy") == "twin")
    assert tw.height == eff.height > 400
    assert (
        tw["choice"].to_list() == eff["choice"].to_list()
        and tw["reason"].to_list() == eff["reason"].to_list()
    )
    assert tw["meta"].null_count() == tw.height  # the bot columns stay empty for a plugin
    summary = json.loads(runner.invoke(app, ["summary", str(out), "--json"]).stdout)
    assert [p["policy"] for p in summary["policies"]] == ["efficiency", "twin"]
    assert summary["matrix"][0]["twin"] == 1.0


def test_simulate_seats_plugins_by_name(tmp_path: Path) -> None:
    args = ["simulate", "--plugin", f"tsumogiri={EXAMPLE}:Tsumogiri", "--players", "tsumogiri,greedy"]
    args += ["--games", "2", "--length", "tonpuu", "--seed", "5"]
    one = runner.invoke(app, [*args, "--out", str(tmp_path / "a"), "--jobs", "1"])
    two = runner.invoke(app, [*args, "--out", str(tmp_path / "b"), "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    for log in sorted((tmp_path / "a" / "logs").iterdir()):
        assert log.read_bytes() == (tmp_path / "b" / "logs" / log.name).read_bytes()
    games = pl.read_parquet(tmp_path / "a" / "games.parquet")
    assert set(games["policy"]) == {"tsumogiri", "greedy"} and games["faults"].sum() == 0
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert [p["policy"] for p in summary["policies"]] == ["tsumogiri", "greedy"] and "faults" not in summary
    assert runner.invoke(app, ["verify", str(tmp_path / "a" / "logs"), "--jobs", "1"]).exit_code == 0


def test_advise_lists_a_plugin_and_a_factory(tmp_path: Path) -> None:
    args = ["advise", "2388m34556p33577s", "--plugin", f"t={EXAMPLE}:Tsumogiri"]
    args += ["--plugin", f"last={EXAMPLE}:last_legal", "--policy", "greedy,t,last", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = {p["policy"]: p for p in json.loads(result.stdout)["policies"]}
    assert rows["t"]["tile"] == "7s" and rows["t"]["reason"] == "the tile just drawn"
    assert rows["last"]["reason"] == "the last legal action"


def test_a_plugin_that_breaks_the_rules_stops_the_run_with_exit_1(tmp_path: Path) -> None:
    (tmp_path / "cheat.py").write_text(
        "from mjcli.api import Action\n\nclass Cheat:\n    def decide(self, view, legal):\n"
        "        return Action('discard', 0)\n"
    )
    args = ["simulate", "--plugin", f"cheat={tmp_path}/cheat.py:Cheat", "--players", "cheat,greedy"]
    result = runner.invoke(app, [*args, "--games", "1", "--length", "tonpuu", "--jobs", "1"])
    assert result.exit_code == 1 and "(cheat): illegal action 'discard 1m'" in result.stderr


BUGGY = """
from mjcli.api import Action

class Raises:
    def decide(self, view, legal):
        raise ValueError("plugin bug")

class Nothing:
    def decide(self, view, legal):
        return None

class NoTile:
    def decide(self, view, legal):
        return Action("discard", 999)  # a 0-135 tile id, not one of mjcli's tiles

class Exits:
    def decide(self, view, legal):
        raise SystemExit(0)  # it ended the command silently, exit 0, nothing written
"""


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("Raises", "policy 'x' failed (ValueError: plugin bug)"),
        ("Nothing", "policy 'x' answered None, not a legal action here"),
        ("NoTile", "policy 'x' answered Action(kind='discard', tile=999"),
        ("Exits", "policy 'x' failed (SystemExit: 0)"),
    ],
)
def test_a_buggy_plugin_is_one_line_and_exit_1_in_advise_and_simulate(tmp_path: Path, target, said) -> None:
    # advise asked the plugin unguarded (a traceback); simulate's error line failed on the tile 999
    (tmp_path / "buggy.py").write_text(BUGGY)
    plugin = ["--plugin", f"x={tmp_path}/buggy.py:{target}"]
    result = runner.invoke(app, ["advise", "2388m34556p33577s", *plugin, "--policy", "x"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"error: {said}") and len(result.stderr.strip().splitlines()) == 1
    args = ["simulate", *plugin, "--players", "x,greedy", "--games", "1", "--length", "tonpuu", "--jobs", "1"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "sim")])
    assert result.exit_code == 1, result.output
    assert "(x): " in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    for jobs in ("1", "2"):
        args = ["replay", str(SIM), *plugin, "--policy", "x", "--jobs", jobs, "--out", str(tmp_path / "rep")]
        result = runner.invoke(app, args)
        assert result.exit_code == 1, result.output
        assert "policy 'x' " in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_installed_entry_points_are_names_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package declaring ``[project.entry-points."mjcli.policies"]`` (here a distribution's metadata
    written by hand on sys.path, as pip would install it)."""
    (tmp_path / "mybot_pkg.py").write_text(SAME_AS_EFFICIENCY)
    info = tmp_path / "mybot-0.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mybot\nVersion: 0.3\n")
    (info / "entry_points.txt").write_text(
        "[mjcli.policies]\nmybot = mybot_pkg:Mine\nakagi = mybot_pkg:Mine\n"
        "\n[mjcli.doudizhu.policies]\nddz = mybot_pkg:Mine\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = policy_registry()
    spec = reg.spec("mybot")
    assert spec.source == ENTRY_POINT and spec.origin == "mybot 0.3" and spec.target == "mybot_pkg:Mine"
    assert reg.spec("akagi").source == BUILTIN  # an entry point never replaces a built-in
    listed = runner.invoke(app, ["policies", "--json"])
    rows = [json.loads(x) for x in listed.stdout.splitlines()]
    assert {"name": "mybot", "source": "entry point", "target": "mybot_pkg:Mine (mybot 0.3)"} in rows
    assert {
        "name": "akagi",
        "source": "entry point (shadowed: not used)",
        "target": "mybot_pkg:Mine (mybot 0.3)",
    } in rows
    result = runner.invoke(app, ["advise", "2388m34556p33577s", "--policy", "mybot,efficiency", "--json"])
    assert result.exit_code == 0, result.output
    a, b = json.loads(result.stdout)["policies"]
    assert a["policy"] == "mybot" and (a["action"], a["tile"]) == (b["action"], b["tile"])
    dd = runner.invoke(app, ["policies", "--game", "doudizhu", "--json"])
    assert {"name": "ddz", "source": "entry point", "target": "mybot_pkg:Mine (mybot 0.3)"} in [
        json.loads(x) for x in dd.stdout.splitlines()
    ]


def test_entry_points_are_looked_up_only_for_a_name_no_built_in_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """replay, simulate and advise with built-in names never scan the installed packages (~40 ms of
    their start, mjcli.riichi.game._resolved); a name only an entry point has still resolves."""
    import mjcli.plugins

    scans: list[str] = []
    real = mjcli.plugins.entry_point_specs

    def counted(group: str) -> list[PolicySpec]:
        scans.append(group)
        return real(group)

    monkeypatch.setattr(mjcli.plugins, "entry_point_specs", counted)
    (tmp_path / "mybot_pkg.py").write_text(SAME_AS_EFFICIENCY)
    info = tmp_path / "mybot-0.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mybot\nVersion: 0.3\n")
    (info / "entry_points.txt").write_text("[mjcli.policies]\nmybot = mybot_pkg:Mine\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    log = str(sorted(SIM.glob("*.mjai.jsonl"))[0])
    quick = ["--games", "1", "--length", "tonpuu", "--jobs", "1"]
    for names, expected in (("efficiency,greedy", []), ("mybot,greedy", ["mjcli.policies"])):
        scans.clear()
        sim = runner.invoke(app, ["simulate", "--players", names, *quick, "--out", str(tmp_path / "s")])
        assert sim.exit_code == 0, sim.output
        assert scans == expected, names
        scans.clear()
        out = tmp_path / f"r-{names}"
        rep = runner.invoke(app, ["replay", log, "--policies", names, "--out", str(out), "--jobs", "1"])
        assert rep.exit_code == 0, rep.output
        assert scans == expected, names
        policies = pl.read_parquet(out / "decisions.parquet")["policy"].unique().sort().to_list()
        assert policies == sorted(names.split(","))
    scans.clear()
    unknown = runner.invoke(app, ["replay", log, "--policies", "nobody", "--out", str(tmp_path / "x")])
    # (the app without mjcli.cli.main, which makes it the one-line error and exit 2)
    assert isinstance(unknown.exception, UsageError) and "unknown policy 'nobody'" in str(unknown.exception)
    assert "mybot" in str(unknown.exception)  # it names every known policy, entry points included
    assert scans == ["mjcli.policies"]


def test_mjcli_policies_lists_each_source() -> None:
    bot = f"b={sys.executable} x.py {{seat}}"
    result = runner.invoke(app, ["policies", "--plugin", f"t={EXAMPLE}:Tsumogiri", "--bot", bot])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["name", "source", "target"]
    assert any(line.split()[:3] == ["akagi", "built-in", "akagi"] for line in lines)
    assert any(line.startswith("t ") and "plugin" in line and "plugin.py:Tsumogiri" in line for line in lines)
    assert any(line.startswith("b ") and " bot " in line and "x.py {seat}" in line for line in lines)


# ---------------------------------------------------------------- Dou Dizhu

DDZ = f"first={ROOT / 'examples' / 'doudizhu_plugin.py'}:FirstLegal"


def test_doudizhu_plugins_advise_simulate_and_replay(tmp_path: Path) -> None:
    r = runner.invoke(app, ["advise", "--game", "doudizhu", "3456789TJQKA2", "--plugin", DDZ, "--json"])
    assert r.exit_code == 0, r.output
    rows = {p["policy"]: p for p in json.loads(r.stdout)["policies"]}
    assert rows["first"]["reason"] == "the first legal lead" and "zhanpai" in rows
    out = tmp_path / "sim"
    args = [
        "simulate",
        "--game",
        "doudizhu",
        "--plugin",
        DDZ,
        "--players",
        "first,greedy,random",
        "--games",
        "6",
    ]
    r = runner.invoke(app, [*args, "--out", str(out), "--jobs", "2"])
    assert r.exit_code == 0, r.output
    records = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert all("first" in rec["players"] for rec in records)
    for rec in records:
        seat = rec["players"].index("first")
        assert all(level == 0 for s, level in rec["bids"] if s == seat)  # it never bids
    r = runner.invoke(
        app,
        [
            "replay",
            "--game",
            "doudizhu",
            str(out / "games.jsonl"),
            "--plugin",
            DDZ,
            "--policies",
            "first,greedy",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "first" in r.stdout and "greedy" in r.stdout


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("return 7", "plugin 'bad' answered 7, not one of the"),
        # sys.exit() in a plugin ended the command silently with exit 0
        ("raise SystemExit(0)", "plugin 'bad' raised SystemExit: 0 ("),
        # what it adds to the list it is given is not legal (a pass on a free lead got through to
        # the engine, which stopped with a traceback)
        (
            'legal.append(None); return None if getattr(view, "lead", 1) is None else legal[0]',
            "plugin 'bad' answered None, not one of the",
        ),
    ],
)
def test_a_doudizhu_plugin_answering_outside_the_legal_choices_is_named(
    tmp_path: Path, body: str, said: str
) -> None:
    (tmp_path / "bad.py").write_text(f"class Bad:\n    def decide(self, view, legal):\n        {body}\n")
    args = [
        "simulate",
        "--game",
        "doudizhu",
        "--plugin",
        f"bad={tmp_path}/bad.py:Bad",
        "--players",
        "bad,greedy",
    ]
    r = runner.invoke(app, [*args, "--games", "1", "--jobs", "1"])
    assert r.exit_code == 1 and said in r.stderr, r.output


def _advise_commands(html: str, head: str) -> list[str]:
    """The advise commands a report page shows (HTML-unescaped), those starting with ``head``."""
    import html as html_lib
    import re

    return [
        html_lib.unescape(c)
        for c in re.findall(r'<code class="cmd">([^<]*)</code>', html)
        if c.startswith(head)
    ]


@pytest.mark.parametrize(
    ("game", "make", "plugin", "replay_args"),
    [
        # given relative to the project's folder (the replay runs there), a file and a module
        ("riichi", None, "tsumogiri=examples/plugin.py:Tsumogiri", ["--policy", "akagi,tsumogiri"]),
        (
            "doudizhu",
            ["--games", "4"],
            "first=examples.doudizhu_plugin:FirstLegal",
            ["--policies", "greedy,first"],
        ),
    ],
)
def test_the_report_s_advise_commands_name_the_replay_s_plugins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game, make, plugin, replay_args
) -> None:
    """replay.json records the plugins as options (a file's path made absolute), and `mjcli report`
    puts them in its advise commands, which then run from anywhere."""
    if make is None:
        logs = [str(SIM / "sim-000000.json")]
    else:
        sim = tmp_path / "sim"
        assert runner.invoke(app, ["simulate", "--game", game, *make, "--out", str(sim)]).exit_code == 0
        logs = [str(sim / "games.jsonl")]
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))  # (a module in the current folder, as the console script finds it)
    rep = tmp_path / "rep"
    r = runner.invoke(
        app, ["replay", "--game", game, *logs, "--plugin", plugin, *replay_args, "--out", str(rep)]
    )
    assert r.exit_code == 0, r.output
    name, target = plugin.split("=", 1)
    recorded = json.loads((rep / "replay.json").read_text())["policy_options"]
    where, attr = target.rsplit(":", 1)
    file = where if where.endswith(".py") else where.replace(".", "/") + ".py"
    assert recorded == ["--plugin", f"{name}={(ROOT / file).resolve()}:{attr}"]
    monkeypatch.chdir(tmp_path)  # the page made, and its commands run, from another folder
    page = tmp_path / "page.html"
    assert runner.invoke(app, ["report", str(rep), "-o", str(page)]).exit_code == 0
    commands = _advise_commands(page.read_text(encoding="utf-8"), "mjcli advise")
    assert commands and all(c.endswith(" ".join(recorded)) for c in commands)
    args = shlex.split(commands[0])[1:]
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    assert name in {p["policy"] for p in json.loads(r.stdout)["policies"]}


def test_reopening_options_name_files_absolutely_and_carry_the_bots_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mjcli.plugins import reopening_options
    from mjcli.riichi.bots.player import BotSettings

    (tmp_path / "mine.py").write_text("class Mine:\n    pass\n")
    (tmp_path / "bot.py").write_text("")
    monkeypatch.chdir(tmp_path)
    specs = [
        PolicySpec("akagi", BUILTIN, "akagi"),
        PolicySpec("a", PLUGIN, "mine.py:Mine"),
        PolicySpec("b", PLUGIN, "mine:Mine"),  # a module found in the current folder only
        PolicySpec("c", PLUGIN, "json:JSONDecoder"),  # an installed module stays as it is
        PolicySpec("d", BOT, "python3 bot.py {seat} --name 'two words'", settings=BotSettings(2.5, "event")),
    ]
    here = tmp_path.resolve()
    assert reopening_options(specs) == [
        "--plugin",
        f"a={here / 'mine.py'}:Mine",
        "--plugin",
        f"b={here / 'mine.py'}:Mine",
        "--plugin",
        "c=json:JSONDecoder",
        "--bot",
        f"d=python3 {here / 'bot.py'} {{seat}} --name 'two words'",
        "--bot-timeout",
        "2.5",
        "--bot-framing",
        "event",
    ]
