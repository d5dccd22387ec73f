"""The house rules of the layout, checked on the source: imports run one way, each game is a package
of its own, and no two modules of one package share a name."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "mjcli"

#: layers from the top down; a module may import its own layer and the ones below it, never above
LAYERS = [
    ("mjcli.cli", "mjcli.__main__", "mjcli.commands", "mjcli.plain_lines"),
    ("mjcli.games", "mjcli.riichi.game", "mjcli.doudizhu.game", "mjcli.hk.game", "mjcli.api", "mjcli.report"),
    (
        "mjcli.riichi.advise",
        "mjcli.riichi.replay",
        "mjcli.riichi.simulate",
        "mjcli.riichi.summary",
        "mjcli.hk.advise",
        "mjcli.hk.replay",
        "mjcli.hk.simulate",
        "mjcli.hk.summary",
        "mjcli.hk.figures",
    ),
    ("mjcli.riichi.policies", "mjcli.riichi.bots", "mjcli.hk.policies"),
    ("mjcli.riichi.verify", "mjcli.hk.verify"),
    ("mjcli.riichi.formats", "mjcli.hk.formats"),
    ("mjcli.riichi.engine", "mjcli.hk.engine"),
    (
        "mjcli.riichi.scoring",
        "mjcli.riichi.explain",
        "mjcli.riichi.rules",
        "mjcli.riichi.variant",
        "mjcli.riichi.hand_report",
        "mjcli.riichi.hand_lines",
        "mjcli.hk.scoring",
        "mjcli.hk.hand_report",
        "mjcli.hk.rules",
        "mjcli.hk.shape",
        "mjcli.hk.notation",
    ),
    (
        "mjcli.runner",
        "mjcli.inputs",
        "mjcli.ledger",
        "mjcli.output",
        "mjcli.outpaths",
        "mjcli.plugins",
        "mjcli.stats",
        "mjcli.atomic",
    ),
    ("mjcli.analysis", "mjcli.melds"),
    ("mjcli.tiles", "mjcli.errors", "mjcli.process_settings"),
]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every mjcli module a file imports, at the top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mjcli"):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("mjcli"))
    return out


def _layer(module: str) -> int | None:
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > best[0]):
                best = (len(p), i)
    return None if best is None else best[1]


def _files() -> list[Path]:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 60
    return files


def test_imports_run_one_way() -> None:
    wrong = []
    for path in _files():
        me = _module_name(path)
        mine = _layer(me)
        if mine is None:
            continue
        for target in _imports(path):
            theirs = _layer(target)
            if theirs is not None and theirs < mine:
                wrong.append(f"{me} -> {target}")
    assert not wrong, "imports that run upwards:\n" + "\n".join(sorted(wrong))


def test_games_do_not_import_each_other() -> None:
    games = [p.name for p in PACKAGE.iterdir() if (p / "game.py").is_file()]
    assert sorted(games) == ["doudizhu", "hk", "riichi"]
    wrong = []
    for path in _files():
        me = _module_name(path)
        for game in games:
            if me.startswith(f"mjcli.{game}."):
                others = {
                    t for t in _imports(path) for g in games if g != game and t.startswith(f"mjcli.{g}")
                }
                wrong.extend(f"{me} -> {t}" for t in sorted(others))
    assert not wrong, wrong


def test_every_module_has_a_layer_or_a_game() -> None:
    """A new top-level module must be placed in LAYERS (so that the rule above covers it)."""
    loose = [
        _module_name(p)
        for p in _files()
        if _layer(_module_name(p)) is None
        and not _module_name(p).startswith(("mjcli.doudizhu",))
        and _module_name(p) not in ("mjcli", "mjcli.riichi", "mjcli.hk")
    ]
    assert not loose, loose


def test_no_two_modules_of_one_package_share_a_name() -> None:
    """Within the shared top and within each game package (its sub-packages included), module
    names are unique: ``view.py`` means one thing. Game packages may repeat each other's names:
    they have the same shape on purpose (each has ``game.py``, ``replay.py``...)."""
    for root in [PACKAGE, *(p for p in PACKAGE.iterdir() if (p / "game.py").is_file())]:
        if root == PACKAGE:
            files = [p for p in _files() if p.parent in (PACKAGE, PACKAGE / "analysis", PACKAGE / "commands")]
            files = [p for p in files if p.parent != PACKAGE / "commands"]  # one skin per command name
        else:
            files = [p for p in root.rglob("*.py")]
        names = Counter(p.stem for p in files if p.stem != "__init__")
        twice = [n for n, c in names.items() if c > 1]
        assert not twice, f"{root.name}: {twice}"
