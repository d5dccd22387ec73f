"""Policies from outside mjcli, by name: the registry every game's policies go through.

A name given to ``--policies``, ``--players`` or ``--policy`` resolves to a :class:`PolicySpec`: plain,
picklable data saying where the policy comes from and how to build it, never the policy itself.
Worker processes (the runner starts them with ``forkserver``: they see nothing registered at run
time in the main process) rebuild their policies from the specs. The sources, in the order a name
is looked up:

* ``built-in``: the game's own policies;
* ``plugin``: ``--plugin NAME=TARGET``, ``TARGET`` being ``path/to/file.py:Attr`` or
  ``package.module:Attr``, ``Attr`` a class or a zero-argument factory;
* ``bot``: ``--bot NAME=COMMAND``, an outside program (riichi: :mod:`mjcli.riichi.bots`);
* ``entry point``: installed packages declaring ``[project.entry-points."mjcli.policies"]``
  ``NAME = "package.module:Attr"`` (Dou Dizhu: the group ``mjcli.doudizhu.policies``).

Targets are imported when a policy is built, not when the registry is made, so a broken plugin
package does not break the commands that do not use it. What a game does with a spec (build a
policy, start a program) is the game's: this module only names, checks and loads.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import shlex
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjcli.errors import PLUGIN_FAULTS, UsageError, short_path

BUILTIN = "built-in"
PLUGIN = "plugin"
BOT = "bot"
ENTRY_POINT = "entry point"

_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


@dataclass(frozen=True, slots=True)
class PolicySpec:
    """Where one named policy comes from: picklable, so that a worker process can build it again.

    ``target`` is the built-in's key, the plugin's ``file.py:Attr`` / ``module:Attr``, the entry
    point's ``module:attr`` or the bot's command; ``origin`` says more for a person (the
    distribution of an entry point); ``settings`` is what a game attaches to a spec of its own
    (a bot's timeout and framing).
    """

    name: str
    source: str
    target: str
    origin: str = ""
    settings: Any = None


def check_name(name: str, option: str) -> str:
    """A policy name as given to ``--plugin``/``--bot``, lower-cased; :class:`UsageError` otherwise."""
    key = name.strip().lower()
    if not _NAME.match(key):
        raise UsageError(
            f"{option} '{name}': a policy name is letters, digits and _ . - (starting with a letter or digit)"
        )
    if key == "all":  # --policies all means every policy: a policy of that name could not be picked
        raise UsageError(f"{option} '{name}': 'all' names every policy; give this one another name")
    return key


def split_assignment(text: str, option: str) -> tuple[str, str]:
    """``NAME=VALUE`` as given to ``--plugin`` or ``--bot``: the checked name and the value."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise UsageError(f"{option} '{text}': write NAME=VALUE (e.g. {option} mine=...)")
    return check_name(name, option), value.strip()


@dataclass(frozen=True)
class Registry:
    """Every policy name a run knows, each with its :class:`PolicySpec` (picklable as a whole).

    ``shadowed`` are entry points whose name a built-in or an earlier entry point already has:
    listed by ``mjcli policies``, refused when asked for by name.
    """

    specs: tuple[PolicySpec, ...]
    shadowed: tuple[PolicySpec, ...] = ()
    game: str = "riichi"
    _by_name: dict[str, PolicySpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {s.name: s for s in self.specs})

    def __getstate__(self) -> dict[str, Any]:
        return {"specs": self.specs, "shadowed": self.shadowed, "game": self.game}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        self.__post_init__()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.specs)

    def of_source(self, *sources: str) -> tuple[str, ...]:
        return tuple(s.name for s in self.specs if s.source in sources)

    def with_spec(self, spec: PolicySpec, option: str) -> Registry:
        """This registry and one more name (``--plugin``/``--bot``); a name already known is an error."""
        have = self._by_name.get(spec.name)
        if have is not None and have.source != ENTRY_POINT:
            raise UsageError(f"{option} {spec.name}=...: '{spec.name}' is already the {have.source} policy")
        specs = tuple(s for s in self.specs if s.name != spec.name) + (spec,)
        shadowed = self.shadowed + ((have,) if have is not None else ())
        return Registry(specs, shadowed, self.game)

    def spec(self, name: str) -> PolicySpec:
        """The spec of ``name``; :class:`UsageError` naming the known names otherwise."""
        key = name.strip().lower()
        got = self._by_name.get(key)
        if got is not None:
            return got
        twice = [s for s in self.shadowed if s.name == key]
        if twice:
            raise UsageError(
                f"policy '{name}' is declared by more than one source ({_sources(twice)}); "
                "it is not used: rename one"
            )
        raise UsageError(f"unknown policy '{name}' (known: {', '.join(self.names)})")

    def parse_names(
        self, text: str | Sequence[str], what: str = "policy", all_means: str = BUILTIN
    ) -> list[str]:
        """``"all"`` (every built-in policy, then the plugins and bots given on the command line) or
        names separated by commas, each checked, in the order given, without repeats."""
        parts = text.split(",") if isinstance(text, str) else list(text)
        names = [n.strip().lower() for n in parts if n.strip()]
        if names == ["all"]:
            return list(self.of_source(all_means, PLUGIN, BOT))
        if not names:
            raise UsageError(f"no {what} named in '{text}' (known: {', '.join(self.names)}, or all)")
        for n in names:
            self.spec(n)
        return list(dict.fromkeys(names))


def _sources(specs: Iterable[PolicySpec]) -> str:
    return ", ".join(f"{s.source} {s.target}" + (f" of {s.origin}" if s.origin else "") for s in specs)


def make_registry(
    builtins: Iterable[tuple[str, str]],
    group: str,
    game: str,
    plugins: Sequence[str] = (),
    bots: Sequence[PolicySpec] = (),
) -> Registry:
    """The built-ins (name, description), the entry points of ``group``, then ``--plugin`` values
    (``NAME=TARGET``) and bot specs; an entry point never replaces a built-in (it is listed as
    shadowed), and a ``--plugin``/``--bot`` name may not repeat a built-in or another option's."""
    specs = [PolicySpec(name, BUILTIN, target) for name, target in builtins]
    known = {s.name for s in specs}
    shadowed: list[PolicySpec] = []
    for ep in entry_point_specs(group):
        if ep.name in known:
            shadowed.append(ep)
        else:
            specs.append(ep)
            known.add(ep.name)
    registry = Registry(tuple(specs), tuple(shadowed), game)
    given: set[str] = set()
    for text in plugins:
        name, target = split_assignment(text, "--plugin")
        if name in given:
            raise UsageError(f"--plugin {name}=...: '{name}' is given twice")
        given.add(name)
        registry = registry.with_spec(
            PolicySpec(name, PLUGIN, target, origin=_plugin_origin(target)), "--plugin"
        )
    for spec in bots:
        if spec.name in given:
            raise UsageError(f"--bot {spec.name}=...: '{spec.name}' is given twice")
        given.add(spec.name)
        registry = registry.with_spec(spec, "--bot")
    for spec in registry.specs:  # once every name is known good
        if spec.source == PLUGIN:
            _check_plugin_file(spec.name, spec.target)
    return registry


# ---------------------------------------------------------------- entry points


def entry_point_specs(group: str) -> list[PolicySpec]:
    """The installed entry points of ``group`` as specs (not loaded), in a stable order."""
    from importlib.metadata import entry_points

    out: list[PolicySpec] = []
    seen: set[str] = set()
    for ep in sorted(entry_points(group=group), key=lambda e: (e.name, e.value)):
        dist = getattr(ep, "dist", None)
        origin = f"{dist.name} {dist.version}" if dist is not None else ""
        try:
            name = check_name(ep.name, f"entry point {group}")
        except UsageError:
            continue  # a name no option could ask for
        spec = PolicySpec(name, ENTRY_POINT, ep.value, origin=origin)
        if name in seen:
            continue
        seen.add(name)
        out.append(spec)
    return out


# ---------------------------------------------------------------- loading a target


def _check_plugin_file(name: str, target: str) -> None:
    """A ``--plugin`` file must be there when it is given, used or not (as a ``--bot`` command
    must): a typo is found on the command line that has it, not on the run that first asks it."""
    where = target.rpartition(":")[0]
    if not where.endswith(".py"):
        return  # a module, found (or not) when it is loaded
    path = Path(where).expanduser()
    if path.is_dir():
        raise UsageError(f"--plugin {name}=...: '{short_path(where)}' is a folder, not a Python file")
    if not path.is_file():
        raise UsageError(f"--plugin {name}=...: plugin file '{short_path(where)}' does not exist")


def _plugin_origin(target: str) -> str:
    path, _, _ = target.rpartition(":")
    return str(Path(path).resolve()) if path.endswith(".py") else ""


def load_target(target: str, what: str) -> Any:
    """The object ``file.py:Attr`` or ``package.module:Attr`` names (``Attr`` may be dotted).

    A file is imported under a private module name (its folder goes on ``sys.path`` so that it can
    import its neighbours); a module is imported normally, and from the current folder when it is
    not installed. Any failure is a :class:`UsageError` naming ``what`` and the target.
    """
    where, sep, attr = target.rpartition(":")
    if not sep or not where or not attr:
        raise UsageError(f"{what}: target '{target}' is not file.py:Attr or package.module:Attr")
    try:
        module = _import_file(where) if where.endswith(".py") else _import_module(where)
    except UsageError:
        raise
    except PLUGIN_FAULTS as exc:  # the plugin's own import failed: say which and why
        raise UsageError(f"{what}: importing '{where}' failed ({type(exc).__name__}: {exc})") from None
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UsageError(f"{what}: '{where}' has no attribute '{attr}'") from None
    return obj


def _import_file(path_text: str) -> Any:
    path = Path(path_text).expanduser().resolve()
    if path.is_dir():
        raise UsageError(f"plugin file '{short_path(path_text)}' is a folder, not a Python file")
    if not path.is_file():
        raise UsageError(f"plugin file '{short_path(path_text)}' does not exist")
    name = "mjcli_plugin_" + re.sub(r"\W", "_", str(path))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"plugin file '{path_text}' cannot be imported")
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _import_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise  # the module exists but imports something missing
        here = str(Path.cwd())
        if here in sys.path:
            raise UsageError(f"module '{name}' is not installed nor in the current folder") from None
        sys.path.append(here)
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            raise UsageError(f"module '{name}' is not installed nor in the current folder") from None


def instantiate(obj: Any, what: str) -> Any:
    """The policy object a target names: a class or a zero-argument factory is called; an object
    with ``decide`` (or the game's own methods) is used as it is."""
    if callable(obj) and not hasattr(obj, "decide"):
        try:
            return obj()
        except PLUGIN_FAULTS as exc:
            raise UsageError(f"{what}: calling it failed ({type(exc).__name__}: {exc})") from None
    if isinstance(obj, type):
        try:
            return obj()
        except PLUGIN_FAULTS as exc:
            raise UsageError(f"{what}: creating it failed ({type(exc).__name__}: {exc})") from None
    return obj


def describe(spec: PolicySpec) -> str:
    """What a spec points at, for a person: ``./mine.py:Mine``, ``mybot.policy:Policy (mybot 0.1)``,
    ``python bot.py {seat}``."""
    if spec.source == BUILTIN:
        return spec.target
    return spec.target + (f" ({spec.origin})" if spec.origin and spec.source == ENTRY_POINT else "")


def identity(spec: PolicySpec) -> dict[str, Any]:
    """What a policy's moves depend on, as JSON values: its source and target, and for code from
    outside mjcli the SHA-256 of the files it names (a plugin's file or module, a bot's program and
    scripts) and its settings, so that a resumed run never keeps the games of a policy whose code
    has changed since.
    A built-in's code is mjcli's own (its version says it)."""
    import hashlib

    found: list[Path] = []
    if spec.source == BOT:
        try:
            words = shlex.split(spec.target)
        except ValueError:
            words = spec.target.split()
        found = [Path(w) for w in words if Path(w).is_file()]
    elif spec.source != BUILTIN:
        where = spec.target.rpartition(":")[0]
        if where.endswith(".py"):
            found = [Path(where).expanduser()]
        else:
            try:
                module = importlib.util.find_spec(where)
            except (ImportError, ValueError):
                module = None
            if module is not None and module.origin and Path(module.origin).is_file():
                found = [Path(module.origin)]
    files = []
    for path in found:
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            digest = "unreadable"
        files.append({"path": str(path), "sha256": digest})
    found_by = {"name": spec.name, "source": spec.source, "target": describe(spec), "files": files}
    if spec.settings is not None:  # a bot's timeout and framing change what it answers in time
        found_by["settings"] = repr(spec.settings)
    return found_by


def print_registry(registry: Registry, as_json: bool) -> int:
    """``mjcli policies``: every name of ``registry`` with where it comes from (a table, or one JSON
    object per name), the shadowed entry points last; the exit code (0)."""
    from mjcli.output import emit_json, format_table

    rows = [{"name": s.name, "source": s.source, "target": describe(s)} for s in registry.specs]
    rows += [
        {"name": s.name, "source": f"{s.source} (shadowed: not used)", "target": describe(s)}
        for s in registry.shadowed
    ]
    if as_json:
        for r in rows:
            emit_json(r)
        return 0
    print(format_table(["name", "source", "target"], [[r["name"], r["source"], r["target"]] for r in rows]))
    return 0


def reopening_options(specs: Iterable[PolicySpec]) -> list[str]:
    """The options that make the plugins and bots among ``specs`` known to another command run
    later, from anywhere: ``--plugin NAME=TARGET`` (a file's path made absolute, and so a module
    found only in the current folder), ``--bot NAME=COMMAND`` (the command's file arguments made
    absolute) with the bots' ``--bot-timeout`` and ``--bot-framing``. What a replay records in
    ``replay.json`` for ``mjcli report``'s advise commands. Built-ins and installed entry points
    need none."""
    out: list[str] = []
    settings = None
    for spec in specs:
        if spec.source == PLUGIN:
            out += ["--plugin", f"{spec.name}={_absolute_target(spec.target)}"]
        elif spec.source == BOT:
            out += ["--bot", f"{spec.name}={_absolute_command(spec.target)}"]
            settings = settings if settings is not None else spec.settings
    if settings is not None:  # one run's bots share them (--bot-timeout, --bot-framing are run-wide)
        timeout, framing = getattr(settings, "timeout", None), getattr(settings, "framing", None)
        if timeout is not None:
            out += ["--bot-timeout", f"{timeout:g}"]
        if framing:
            out += ["--bot-framing", str(framing)]
    return out


def _absolute_target(target: str) -> str:
    """``file.py:Attr`` with the file's absolute path; a module whose file is in the current folder
    (where :func:`load_target` looks for one not installed) as that file; any other as it is."""
    where, sep, attr = target.rpartition(":")
    if not sep:
        return target
    file = (
        Path(where).expanduser() if where.endswith(".py") else Path.cwd() / (where.replace(".", "/") + ".py")
    )
    return f"{file.resolve()}:{attr}" if file.is_file() else target


#: a word of a bot's command that needs no quoting (``{seat}`` included)
_PLAIN_WORD = re.compile(r"[\w@%+=:,./{}-]+")


def _absolute_command(command: str) -> str:
    """A bot's command with each word naming a file here made absolute (``python bot.py {seat}`` ->
    ``python /abs/bot.py {seat}``); a command that cannot be split is kept as it is."""
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    fixed = [str(Path(w).resolve()) if Path(w).is_file() and not Path(w).is_absolute() else w for w in words]
    return " ".join(w if _PLAIN_WORD.fullmatch(w) else shlex.quote(w) for w in fixed)


def recorded_options(manifest: dict[str, Any]) -> list[str]:
    """The ``policy_options`` a ``replay.json`` records (:func:`reopening_options`), or none."""
    got = manifest.get("policy_options")
    return [str(x) for x in got] if isinstance(got, list) else []
