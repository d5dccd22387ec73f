"""Your own Hong Kong and Red policies: ``--plugin NAME=TARGET`` and the entry-point group
``mjcli.hk.policies`` in ``advise``, ``simulate``, ``replay`` and ``policies`` under ``--game hk``
and ``--game red``.

A plugin doing what a built-in does answers as the built-in does, in this process and in workers
(rebuilt from the picklable spec); its name is the name in every output; a plugin that raises or
answers outside the legal moves stops the command with one line and exit 1, nothing written.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.hk.engine.actions import Move
from mjcli.hk.policies import PluginError, PluginPolicy, build_policy, policy_registry
from mjcli.plugins import BUILTIN, ENTRY_POINT, PLUGIN

ROOT = Path(__file__).resolve().parents[1]
FIRST = f"first={ROOT / 'examples' / 'hk_plugin.py'}:FirstLegal"
runner = CliRunner()

#: the built-in hk-pm8 bot's work, as a plugin (a factory and a class)
SAME_AS_PM8 = """
from mjcli.hk.policies import get_policy


class Twin:
    def __init__(self):
        self.inner = get_policy("hk-pm8")

    def decide(self, view, legal):
        return self.inner.decide(view, legal)


def make():
    return Twin()
"""

BAD = """
class Raises:
    def decide(self, view, legal):
        raise ValueError("boom")


class Outside:
    def decide(self, view, legal):
        return "discard 1m"


class NotAPolicy:
    pass


class Exits:
    def decide(self, view, legal):
        raise SystemExit(0)
"""


@pytest.fixture()
def twin(tmp_path: Path) -> str:
    (tmp_path / "twin.py").write_text(SAME_AS_PM8)
    return str(tmp_path / "twin.py")


def test_the_registry_knows_the_bots_and_the_plugins_and_pickles(twin: str) -> None:
    reg = policy_registry([f"twin={twin}:Twin", f"made={twin}:make"])
    assert [s.name for s in reg.specs if s.source == BUILTIN] == [
        "hk-pm0",
        "hk-pm8",
        "hk-pm16",
        "hk-pm16plus",
        "red-pm0",
        "red-pm12",
        "red-pm12plus",
    ]
    assert reg.spec("twin").source == PLUGIN and reg.spec("made").target == f"{twin}:make"
    again = pickle.loads(pickle.dumps(reg))  # what a worker gets
    policy = build_policy(again.spec("made"))
    assert isinstance(policy, PluginPolicy) and policy.name == "made"


def test_a_plugin_answers_as_the_bot_it_wraps_in_advise_replay_and_workers(twin: str, tmp_path: Path) -> None:
    plugin = f"twin={twin}:Twin"
    r = runner.invoke(
        app,
        [
            "advise",
            "--game",
            "hk",
            "123m456p789s11355z",
            "--plugin",
            plugin,
            "--policies",
            "twin,hk-pm8",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    a, b = json.loads(r.stdout)["policies"]
    assert a["policy"] == "twin" and (a["action"], a["tile"], a["reason"]) == (
        b["action"],
        b["tile"],
        b["reason"],
    )
    sim = tmp_path / "sim"
    r = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "hk",
            "--players",
            "hk-pm0,hk-pm16",
            "--games",
            "2",
            "--seed",
            "4",
            "--out",
            str(sim),
        ],
    )
    assert r.exit_code == 0, r.output
    for jobs in ("1", "2"):
        out = tmp_path / f"rep{jobs}"
        args = ["replay", "--game", "hk", str(sim / "logs"), "--plugin", plugin, "--policies", "twin,hk-pm8"]
        r = runner.invoke(app, [*args, "--out", str(out), "--jobs", jobs])
        assert r.exit_code == 0, r.output
        rows = pl.read_parquet(out / "decisions.parquet")
        mine = rows.filter(pl.col("policy") == "twin").drop("policy")
        theirs = rows.filter(pl.col("policy") == "hk-pm8").drop("policy")
        assert mine.height > 100 and mine.equals(theirs)


def test_a_plugin_plays_a_seat_at_the_same_table_for_any_jobs_and_its_games_verify(tmp_path: Path) -> None:
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"sim{jobs}"
        args = ["simulate", "--game", "red", "--plugin", FIRST, "--players", "first,red-pm0", "--games", "4"]
        r = runner.invoke(app, [*args, "--seed", "2", "--out", str(out), "--jobs", jobs])
        assert r.exit_code == 0, r.output
        outs.append(out)
    games = pl.read_parquet(outs[0] / "games.parquet")
    assert set(games["policy"]) == {"first", "red-pm0"}
    assert games.equals(pl.read_parquet(outs[1] / "games.parquet"))
    logs = sorted((outs[0] / "logs").iterdir())
    assert [p.read_bytes() for p in logs] == [(outs[1] / "logs" / p.name).read_bytes() for p in logs]
    assert '"first"' in logs[0].read_text()
    # it never claims a discard and never wins by one (it only discards its last tile kind)
    first_seats = games.filter(pl.col("policy") == "first")
    assert first_seats["calls"].sum() == 0 and games.filter(pl.col("policy") == "red-pm0")["calls"].sum() > 0
    r = runner.invoke(app, ["verify", "--game", "red", str(outs[0] / "logs")])
    assert r.exit_code == 0 and r.output.splitlines()[-1].startswith("4 logs: 4 ok"), r.output


def test_policies_all_and_mjcli_policies_name_the_plugins() -> None:
    r = runner.invoke(app, ["advise", "--game", "red", "123m456pJ789s1135z", "--plugin", FIRST, "--json"])
    assert r.exit_code == 0, r.output
    names = [p["policy"] for p in json.loads(r.stdout)["policies"]]
    assert names == ["red-pm0", "red-pm12", "red-pm12plus", "first"]
    r = runner.invoke(app, ["policies", "--game", "hk", "--plugin", FIRST, "--json"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert rows[0] == {"name": "hk-pm0", "source": "built-in", "target": "hk-pm0"}
    assert rows[-1]["name"] == "first" and rows[-1]["source"] == "plugin"
    text = runner.invoke(app, ["policies", "--game", "red"])
    assert text.exit_code == 0 and "red-pm12plus  built-in" in text.stdout


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("Raises", "error: plugin 'bad' raised ValueError: boom (seat "),
        ("Outside", "error: plugin 'bad' answered 'discard 1m', not one of the "),
        # sys.exit() in a plugin ended the command silently with exit 0
        ("Exits", "error: plugin 'bad' raised SystemExit: 0 (seat "),
    ],
)
def test_a_buggy_plugin_is_one_line_and_exit_1_and_nothing_is_written(
    tmp_path: Path, target: str, said: str
) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    plugin = f"bad={tmp_path / 'bad.py'}:{target}"
    sim = tmp_path / "sim"
    r = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "hk",
            "--plugin",
            plugin,
            "--players",
            "bad,hk-pm0",
            "--games",
            "2",
            "--out",
            str(sim),
        ],
    )
    assert r.exit_code == 1 and r.stderr.startswith(said) and len(r.stderr.splitlines()) == 1, r.output
    assert not sim.exists()
    good = tmp_path / "good"
    assert runner.invoke(app, ["simulate", "--game", "hk", "--games", "1", "--out", str(good)]).exit_code == 0
    rep = tmp_path / "rep"
    for jobs in ("1", "2"):
        args = ["replay", "--game", "hk", str(good / "logs"), "--plugin", plugin, "--policies", "bad"]
        r = runner.invoke(app, [*args, "--out", str(rep), "--jobs", jobs])
        assert r.exit_code == 1 and r.stderr.startswith(said), r.output
        assert not rep.exists()
    r = runner.invoke(app, ["advise", "--game", "hk", "123m456p789s11355z", "--plugin", plugin])
    assert r.exit_code == 1 and r.stderr.startswith(said)


def test_a_target_without_decide_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    r = runner.invoke(
        app, ["advise", "--game", "hk", "123m456p789s11355z", "--plugin", f"bad={tmp_path}/bad.py:NotAPolicy"]
    )
    # a usage error: the CLI's one line and exit 2 (mjcli.cli.main)
    assert isinstance(r.exception, UsageError)
    assert "is not a policy: it has no decide(view, legal) method" in str(r.exception)


def test_a_plugin_answer_may_carry_its_reason_or_not() -> None:
    class Plain:
        reason = "the plugin's own"

        def decide(self, view, legal):
            return legal[0]

    class Paired:
        def decide(self, view, legal):
            return legal[-1], "last"

    legal = [Move("discard", 0), Move("discard", 5)]
    assert PluginPolicy("p", Plain()).decide(_view(), legal) == (legal[0], "the plugin's own")
    assert PluginPolicy("q", Paired()).decide(_view(), legal) == (legal[-1], "last")

    class Stale:
        def decide(self, view, legal):
            return Move("discard", 9)  # a move, but not one of these

    with pytest.raises(
        PluginError, match=r"plugin 's' answered Move\(kind='discard', tile=9, uses=\(\)\), not one of the 2"
    ):
        PluginPolicy("s", Stale()).decide(_view(), legal)


def _view():
    from mjcli.hk.advise import build_view
    from mjcli.hk.rules import get_rules

    view, _ = build_view("123m456p789s11355z", get_rules("hk"))
    return view


def test_installed_entry_points_are_names_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "hkbot_pkg.py").write_text(SAME_AS_PM8)
    info = tmp_path / "hkbot-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hkbot\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[mjcli.hk.policies]\nhkbot = hkbot_pkg:Twin\nhk-pm0 = hkbot_pkg:Twin\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = policy_registry()
    assert reg.spec("hkbot").source == ENTRY_POINT and reg.spec("hk-pm0").source == BUILTIN
    r = runner.invoke(
        app, ["advise", "--game", "hk", "123m456p789s11355z", "--policies", "hkbot,hk-pm8", "--json"]
    )
    assert r.exit_code == 0, r.output
    a, b = json.loads(r.stdout)["policies"]
    assert a["policy"] == "hkbot" and a["action"] == b["action"]
    # `all` is the seed's bots and the plugins given, never an installed package unasked
    r = runner.invoke(app, ["advise", "--game", "hk", "123m456p789s11355z", "--json"])
    assert [p["policy"] for p in json.loads(r.stdout)["policies"]] == [
        "hk-pm0",
        "hk-pm8",
        "hk-pm16",
        "hk-pm16plus",
    ]


MUTATES = """
class Mutates:
    \"\"\"Plays as examples/hk_plugin.py's FirstLegal, after writing over everything it was given.\"\"\"

    def decide(self, view, legal):
        view.rules.faan["self_drawn"] = 13  # the rules' table is a dict: a copy of its own
        for name in ("hand", "visible", "own_meld_counts", "bonus", "melds"):
            try:
                getattr(view, name)[0] = 9
            except (TypeError, IndexError):
                pass
        for move in legal:
            if move.kind == "win":
                return move, "always wins"
        if view.phase != "turn":
            return next(m for m in legal if m.kind == "pass"), "never claims"
        answer = [m for m in legal if m.kind == "discard"][-1]
        legal.clear()
        return answer, "discards its last tile kind"
"""


def test_a_plugin_cannot_change_the_game_through_what_it_is_given(tmp_path: Path) -> None:
    (tmp_path / "mut.py").write_text(MUTATES)
    outs = []
    for name, plugin in (("plain", FIRST), ("mut", f"first={tmp_path / 'mut.py'}:Mutates")):
        out = tmp_path / name
        args = ["simulate", "--game", "hk", "--plugin", plugin, "--players", "first,hk-pm0", "--games", "2"]
        r = runner.invoke(app, [*args, "--seed", "5", "--out", str(out)])
        assert r.exit_code == 0, r.output
        outs.append(out)
    assert pl.read_parquet(outs[0] / "games.parquet").equals(pl.read_parquet(outs[1] / "games.parquet"))


def test_a_resumed_run_never_keeps_the_games_of_a_changed_plugin(tmp_path: Path) -> None:
    (tmp_path / "other.py").write_text(
        "class Last:\n    def decide(self, view, legal):\n        return legal[-1]\n"
    )
    out = tmp_path / "run"
    base = [
        "simulate",
        "--game",
        "hk",
        "--players",
        "first,hk-pm0",
        "--games",
        "2",
        "--out",
        str(out),
        "--resume",
    ]
    r = runner.invoke(app, [*base, "--plugin", FIRST])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, [*base, "--plugin", FIRST])
    assert "2 of 2 deals kept from the earlier run" in r.stderr
    r = runner.invoke(app, [*base, "--plugin", f"first={tmp_path / 'other.py'}:Last"])
    assert r.exit_code == 0 and "0 of 2 deals kept from the earlier run" in r.stderr, r.output
    # replay too
    rep = tmp_path / "rep"
    base = ["replay", "--game", "hk", str(out / "logs"), "--policies", "first", "--out", str(rep), "--resume"]
    assert runner.invoke(app, [*base, "--plugin", FIRST]).exit_code == 0
    r = runner.invoke(app, [*base, "--plugin", f"first={tmp_path / 'other.py'}:Last"])
    assert r.exit_code == 0 and "0 of 2 logs kept from the earlier run" in r.stderr, r.output


def test_an_answer_that_only_looks_like_a_pair_is_quoted_whole() -> None:
    class KindAndTile:
        def decide(self, view, legal):
            return (legal[0].kind, legal[0].tile)

    with pytest.raises(PluginError, match=r"answered \('discard', \d+\), not one of the"):
        PluginPolicy("k", KindAndTile()).decide(_view(), [Move("discard", 0)])


def test_the_report_s_advise_commands_name_the_replay_s_plugins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import html
    import re
    import shlex

    sim = tmp_path / "sim"
    assert runner.invoke(app, ["simulate", "--game", "hk", "--games", "2", "--out", str(sim)]).exit_code == 0
    rep = tmp_path / "rep"
    args = ["replay", "--game", "hk", str(sim / "logs"), "--plugin", FIRST, "--policies", "hk-pm0,first"]
    assert runner.invoke(app, [*args, "--out", str(rep)]).exit_code == 0
    recorded = json.loads((rep / "replay.json").read_text())["policy_options"]
    assert recorded == ["--plugin", FIRST]  # (the example's path is absolute already)
    page = tmp_path / "page.html"
    assert runner.invoke(app, ["report", str(rep), "-o", str(page)]).exit_code == 0
    found = re.findall(r'<code class="cmd">([^<]*)</code>', page.read_text(encoding="utf-8"))
    commands = [html.unescape(c) for c in found]
    assert commands and all(
        c.endswith(f"--policy hk-pm0,first --plugin {shlex.quote(FIRST)}") for c in commands
    )
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, [*shlex.split(commands[0])[1:], "--json"])
    assert r.exit_code == 0, r.output
    assert [p["policy"] for p in json.loads(r.stdout)["policies"]] == ["hk-pm0", "first"]
