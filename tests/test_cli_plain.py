"""The plain one-liners (``mjcli shanten HAND...``, ``mjcli score HAND --win 2z --tsumo``, ``mjcli
advise HAND --json``, ``mjcli verify LOG``, ``mjcli convert LOG --to mjai``: hands or logs, flags and
text options) run without Typer (``mjcli.plain_lines``):
the same call of the game's command as the skin makes, so the same output, byte for byte, and the
same exit code as when Typer parses them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from shared import LOGS

from mjcli import cli
from mjcli.plain_lines import PLAIN, plain_call

#: a run through mjcli.cli.entry, as the console script does
FAST = "import sys\nsys.argv = ['mjcli', *sys.argv[1:]]\nfrom mjcli.cli import entry\nentry()\n"
#: the same run with every command line parsed by Typer
TYPER = (
    "import sys\nsys.argv = ['mjcli', *sys.argv[1:]]\nimport mjcli.cli as cli\n"
    "cli.plain_call = lambda argv: None\ncli.entry()\n"
)

HANCHAN = next(p for p in sorted((LOGS / "tenhou-xml").glob("20*.mjlog")) if "no-" not in p.name)

#: plain command lines: answers, errors of every kind (a bad hand, a hand too long, no yaku, a file
#: that is not there), several hands, stdin, an empty word
PLAIN_LINES = [
    ["shanten", "123m456p789s1122z"],
    ["shanten", "123m456p789s11223z"],
    ["shanten", "19m19p19s1234567z", "2345m678p11s666z5p", "11122233344455z"],
    ["shanten", "123m456p789s1122x"],
    ["shanten", "123m456p789s1122z1m2m3m"],
    ["shanten", "0m"],
    ["shanten", ""],
    ["shanten", "-"],
    ["score", "234m456p678s11222z"],
    ["score", "234m456p678s22z555z"],
    ["score", "11223344556677z"],
    ["score", "123m456p"],
    ["advise", "123m456p789s11223z"],
    ["advise", "1112345678999m1m"],
    ["advise", "123m456p789s1122z"],
    ["advise", "no/such/log.mjlog"],
    ["advise", str(HANCHAN)],
    # flags and text options, before, between and after the hands, --name=value
    ["shanten", "123m456p789s1122z", "--json"],
    ["shanten", "--json", "--shanten-only", "123m456p789s1122z", "19m19p19s1234567z"],
    ["shanten", "123m456p789s11223z", "--json", "--fields=hand,discards", "--seen", "1p1p4s"],
    ["shanten", "123m456p789s1122z", "--fields", "hand", "--json"],
    ["shanten", "123m456p789s1122z", "--fields", "nosuchfield", "--json"],
    ["shanten", "1112223334445m", "--sanma"],
    ["shanten", "123m456p789s1122z", "--game", "hk"],
    ["shanten", "123m456p789s1122z", "--game=nosuchgame"],
    ["score", "234m456p678s11222z", "--win", "2z", "--tsumo"],
    ["score", "--riichi", "-w", "5p", "234m456p678s22z555z", "--ippatsu", "--dora", "4p", "--ura", "1z"],
    ["score", "234m456p678s11222z", "--win=2z", "--tsumo", "--json", "--seat", "S", "--round", "S"],
    ["score", "234m456p678s11z", "-m", "pon:222z", "--win", "1z", "--rules", "majsoul"],
    ["score", "234m456p678s11222z", "--win", "9z"],
    ["score", "234m456p678s11222z", "--win", "2z", "--payment", "full-gun"],
    ["score", "123m456p789s11122z", "--game", "hk", "--win", "2z", "--tsumo", "--flowers", "1"],
    ["advise", "123m456p789s11223z", "--json"],
    ["advise", "--policy", "greedy,efficiency", "123m456p789s11223z", "--dora", "1z"],
    ["advise", "123m456p789s11223z", "--policies=nosuchpolicy"],
    ["advise", "123m456p789s1122z", "--offered", "2z", "--from", "1"],
    ["advise", "3456789TJQKA2BR", "--game", "doudizhu", "--landlord", "--json"],
    ["verify", str(HANCHAN)],
    ["verify", str(HANCHAN), str(LOGS / "tenhou6-edge" / "confusing_nakis_1.json"), "--json"],
    ["verify", str(LOGS / "mjai"), "--rules", "majsoul"],
    ["verify", str(LOGS / "tenhou-xml" / "2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog")],
    ["verify", "no/such/log.mjlog", str(HANCHAN)],
    ["verify", "-"],
    ["convert", str(HANCHAN), "--to", "mjai"],
    ["convert", "-t", "tenhou6", str(LOGS / "mjai" / "126_204_0_mjai.jsonl")],
    ["convert", str(HANCHAN), "--to=nosuchformat"],
    ["convert", "no/such/log.mjlog", "--to", "mjai"],
    # options that do not apply to the game, named in one order whatever order they came in
    ["shanten", "123m456p789s1122z", "--game", "hk", "--fields", "hand", "--sanma"],
    ["score", "234m456p678s11222z", "--payment", "full-gun", "--win", "2z", "--flowers", "1"],
    ["advise", "3456789TJQKA2BR", "--game", "doudizhu", "--seen", "1p", "--dora", "1z"],
]


def _run(code: str, argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], input=stdin, capture_output=True, text=True, timeout=300, env=env
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("argv", PLAIN_LINES, ids=lambda a: " ".join(a)[:40])
def test_a_plain_line_gives_what_typer_gives_byte_for_byte(argv):
    assert plain_call(argv) is not None
    stdin = "123m456p789s1122z\n19m19p19s1234567z\nbad\n"
    fast = _run(FAST, argv, stdin)
    slow = _run(TYPER, argv, stdin)
    assert fast == slow
    assert fast[1] or fast[2]  # it said something


def test_the_plain_lines_cover_answers_and_errors():
    codes = {tuple(a): _run(FAST, a)[0] for a in (["shanten", "123m456p789s1122z"], ["shanten", "1x"])}
    assert sorted(codes.values()) == [0, 2]


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["shanten"],
        ["shanten", "--json"],  # no hand
        ["shanten", "--", "123m456p789s1122z"],
        ["shanten", "-1m"],  # an option to click
        ["shanten", "123m456p789s1122z", "--help"],
        ["shanten", "123m456p789s1122z", "--json=yes"],  # a flag given a value
        ["shanten", "123m456p789s1122z", "--fields"],  # no value
        ["shanten", "123m456p789s1122z", "--fields", "--json"],  # click takes "--json" as the value
        ["shanten", "123m456p789s1122z", "--seen", "-"],
        ["shanten", "123m456p789s1122z", "--seen", "1p", "--seen", "2p"],  # click keeps the last
        ["score", "234m456p678s11222z", "-w=2z"],  # click reads the value "=2z"
        ["score", "234m456p678s11222z", "-w2z"],
        ["score", "234m456p678s11222z", "--honba", "2"],  # a number
        ["score", "234m456p678s11222z", "--no-such-option"],
        ["score", "234m456p678s11222z", "234m456p678s11222z"],  # click: "unexpected extra argument"
        ["advise", "123m456p789s11223z", "-h"],
        ["advise", "123m456p789s11223z", "--plugin", "x=y.py:P"],  # repeatable
        ["advise", "123m456p789s11223z", "--bot-timeout", "2"],
        ["verify", "x.mjlog", "--jobs", "2"],  # a number
        ["verify", "x.mjlog", "--ray"],  # a bare --ray takes its default value
        ["convert", "x.mjlog"],  # --to is required
        ["summary", "out"],
        ["--help"],
        ["--version"],
    ],
)
def test_any_other_line_goes_to_typer(argv):
    assert plain_call(argv) is None


def test_the_values_read_are_clicks():
    assert plain_call(["shanten", "123m"]) == ("shanten", {"hands": ["123m"]})
    assert plain_call(["score", "--tsumo", "H", "-w", "2z", "--json", "--json", "--round=S"]) == (
        "score",
        {"tsumo": True, "win": "2z", "as_json": True, "round_": "S", "hand": "H"},
    )
    assert plain_call(["shanten", "-", "--seen="]) == ("shanten", {"seen": "", "hands": ["-"]})


def test_a_completion_request_goes_to_typer(monkeypatch):
    monkeypatch.setenv("_MJCLI_COMPLETE", "bash_source")
    assert plain_call(["shanten", "123m"]) is None


def test_the_table_is_the_skins_flags_and_text_options():
    """Each plain command's skin takes one text argument, of that name and arity, and requires
    nothing else but the table's required options; every option it has is "not given" (None, or
    False for a flag) unless given, with no callback, prompt or environment variable, and the app
    reads none either: so the plain call, with the options not given left out, is the skin's call.
    Its flags (no --no- form) and its options of one text value (but those whose bare form takes a
    default value) are the table's, exactly."""
    import typer.main
    from typer._click import types

    from mjcli.commands import OPTIONAL_VALUES

    bare = set(OPTIONAL_VALUES)

    for name, form in PLAIN.items():
        group = typer.main.get_command(cli.build_app([name]))
        command = group.commands[name]  # type: ignore[attr-defined]
        for c in (group, command):
            # no variables read, no defaults from a map, no option names rewritten, words read
            # as options wherever they stand
            settings = ("auto_envvar_prefix", "default_map", "token_normalize_func", "ignore_unknown_options")
            assert not any(c.context_settings.get(k) for k in settings), name
            assert not c.deprecated, name
        assert command.allow_interspersed_args and not command.allow_extra_args, name
        arguments = [p for p in command.params if p.param_type_name == "argument"]
        assert [(a.name, a.nargs) for a in arguments] == [(form.argument, -1 if form.several else 1)], name
        assert arguments[0].type is types.STRING, name
        assert arguments[0].callback is None and not arguments[0].envvar, name
        assert {p.name for p in command.params if p.required} == {form.argument, *form.required}, name
        for p in command.params:
            if p.param_type_name == "option":
                assert p.default in (None, False) and p.callback is None and not p.envvar, (name, p.name)
                assert not p.prompt, (name, p.name)  # type: ignore[attr-defined]
        flags, values = {}, {}
        for p in command.params:
            if p.param_type_name != "option":
                continue
            if p.is_flag and not p.secondary_opts:  # type: ignore[attr-defined]
                flags.update(dict.fromkeys(p.opts, p.name))
            elif p.type is types.STRING and not p.multiple and p.nargs == 1 and not set(p.opts) & bare:
                values.update(dict.fromkeys(p.opts, p.name))
        assert dict(form.flags) == flags, name
        assert dict(form.values) == values, name


def test_a_plain_line_imports_neither_typer_nor_the_skins():
    probe = (
        "import json, sys\nsys.argv = ['mjcli', *sys.argv[1:]]\nfrom mjcli.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "skins = ('typer', 'click', 'mjcli.commands')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(skins))))"
    )
    for argv, loaded in (
        (["shanten", "123m456p789s1122z"], False),
        (["advise", "123m456p789s11223z"], False),
        (["score", "234m456p678s11222z", "--win", "2z", "--tsumo"], False),
        (["verify", str(HANCHAN), "--json"], False),
        (["convert", str(HANCHAN), "--to", "mjai"], False),
        (["shanten", "123m456p789s1122z", "--json"], False),
        (["score", "234m456p678s11222z", "--win", "2z", "--honba", "1"], True),
    ):
        out = subprocess.run(
            [sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120, check=True
        ).stdout
        modules = json.loads(out.splitlines()[-1])
        assert bool(modules) == loaded, (argv, modules)


def test_end_of_input_in_a_policy_ends_as_under_typer(tmp_path):
    """A policy that reads stdin (an installed one, found by its entry point) meets its end: Typer
    says "Aborted!" and exits 1; so does the plain line, which does not go through Typer."""
    (tmp_path / "human_policy.py").write_text(
        "class Human:\n    name = 'human'\n\n    def decide(self, view, legal):\n"
        "        input('your move: ')\n        return legal[0]\n",
        encoding="utf-8",
    )
    info = tmp_path / "human_policy-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: human-policy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[mjcli.policies]\nhuman = human_policy:Human\n")
    argv = ["advise", "123m456p789s11223z", "--policy", "human"]
    assert plain_call(argv) is not None
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("PYTHONUNBUFFERED", None)
    runs = [
        subprocess.run([sys.executable, "-c", code, *argv], input="", capture_output=True, text=True, env=env)
        for code in (FAST, TYPER)
    ]
    fast, slow = ((r.returncode, r.stdout, r.stderr) for r in runs)
    assert fast == slow
    assert fast[0] == 1 and fast[2].endswith("Aborted!\n"), fast
