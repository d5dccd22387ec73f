"""mjcli as a library: every command's work as a function that returns values and never prints.

The command line is a thin skin over these (``mjcli/commands/`` and each game's ``game.py``);
a notebook or a script calls them directly::

    from mjcli import api

    api.shanten("123m456p789s1135z")                  # 1
    api.score("22456m456p456s678s", win="8s", riichi=True).total
    games = api.read_log("game.mjlog")                # GameLog objects: events in order
    api.verify("game.mjlog")[0].status                # "ok" / "mismatch" / "error"
    decisions = api.replay(["logs/"], policies=["akagi", "efficiency"])   # a polars.DataFrame
    api.simulate(["akagi", "greedy"], games=8, seed=1)["policies"]

Riichi mahjong is the game of these functions; Dou Dizhu's library is :mod:`mjcli.doudizhu`.
Errors are the project's exceptions (:mod:`mjcli.errors`), each naming the input it is about.

The plugin API, stable (a plugin needs nothing else)::

    from mjcli.api import Action, DecisionPoint, PlayerView, Policy, RiverTile

    class Mine:                                   # --plugin mine=path/to/mine.py:Mine
        def decide(self, view: PlayerView, legal: list[Action]) -> Action:
            return legal[0].because("the first legal action")

:class:`PlayerView` is what the seat sees, :class:`Action` a legal answer (return one of ``legal``;
``reason`` does not count in equality), :class:`DecisionPoint` the pair, :class:`Policy` the
protocol (``decide``; ``name`` and ``seed`` optional). They are imported when first used, so
``import mjcli.api`` stays cheap.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl

    from mjcli.analysis import DiscardOption, Ukeire
    from mjcli.melds import Meld
    from mjcli.riichi.formats import GameLog
    from mjcli.riichi.policies.base import Policy
    from mjcli.riichi.policies.view import Action, DecisionPoint, PlayerView, RiverTile
    from mjcli.riichi.scoring import ScoreResult
    from mjcli.riichi.verify import GameReport

PathLike = str | os.PathLike[str]

#: the plugin API: name -> the module that defines it (imported on first use, see __getattr__)
_PLUGIN_API = {
    "Action": "mjcli.riichi.policies.view",
    "DecisionPoint": "mjcli.riichi.policies.view",
    "PlayerView": "mjcli.riichi.policies.view",
    "RiverTile": "mjcli.riichi.policies.view",
    "Meld": "mjcli.melds",
    "Policy": "mjcli.riichi.policies.base",
}

__all__ = [
    "Action",
    "DecisionPoint",
    "Meld",
    "PlayerView",
    "Policy",
    "RiverTile",
    "advise",
    "discards",
    "log_files",
    "policies",
    "policy",
    "read_log",
    "replay",
    "score",
    "shanten",
    "simulate",
    "ukeire",
    "verify",
]


def __getattr__(name: str) -> Any:
    """The plugin API's classes, imported when first asked for."""
    module = _PLUGIN_API.get(name)
    if module is None:
        raise AttributeError(f"module 'mjcli.api' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


# ---------------------------------------------------------------- hands


def shanten(hand: str, sanma: bool = False) -> int:
    """Shanten of a hand in mpsz (-1 complete, 0 tenpai; seven pairs and thirteen orphans count);
    ``sanma``: a three-player hand (no 2m-8m: holding one is an InvalidHandError)."""
    from mjcli.analysis import shanten as shanten_of
    from mjcli.analysis import shanten_sanma
    from mjcli.tiles import counts34, parse_hand

    counts = counts34(parse_hand(hand, allowed_sizes=_HAND_SIZES, what=f"hand '{hand}'"))
    return shanten_sanma(counts) if sanma else shanten_of(counts)


def ukeire(hand: str, seen: str = "", sanma: bool = False) -> Ukeire:
    """The tiles that lower the shanten of a 13-tile (3n+1) hand, each with its unseen copies
    (``sanma``: a three-player hand, which cannot draw 2m-8m)."""
    from mjcli.analysis import ukeire as ukeire_of

    counts, seen_counts = _counts(hand, seen)
    return ukeire_of(counts, seen_counts, sanma)


def discards(hand: str, seen: str = "", sanma: bool = False) -> list[DiscardOption]:
    """Every discard of a 14-tile (3n+2) hand, best first: the shanten left and the ukeire
    (``sanma``: a three-player hand)."""
    from mjcli.analysis import discard_table

    counts, seen_counts = _counts(hand, seen)
    return discard_table(counts, seen_counts, sanma)


_HAND_SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


def _counts(hand: str, seen: str) -> tuple[list[int], list[int]]:
    from mjcli.tiles import check_counts, counts34, parse_hand, parse_tiles

    tiles = parse_hand(hand, allowed_sizes=_HAND_SIZES, what=f"hand '{hand}'")
    seen_tiles = parse_tiles(seen)
    check_counts([*tiles, *seen_tiles], f"hand '{hand}' with seen '{seen}'")
    return counts34(tiles), counts34(seen_tiles)


def score(
    hand: str,
    win: str | None = None,
    *,
    melds: str = "",
    dora: str = "",
    ura: str = "",
    seat: str = "E",
    round_wind: str = "E",
    honba: int = 0,
    sticks: int = 0,
    rules: str = "tenhou",
    kita: int = 0,
    **conditions: bool,
) -> ScoreResult:
    """Score a winning hand (the same arithmetic as ``mjcli score``).

    ``hand`` holds the concealed tiles, with the winning tile (the last one, or ``win``) or without
    it (then ``win`` names it). ``conditions`` are the win's flags: ``tsumo``, ``riichi``,
    ``double_riichi``, ``ippatsu``, ``rinshan``, ``chankan``, ``haitei``, ``houtei``, ``tenhou``,
    ``chiihou``, ``open_riichi``, ``discarder_riichi``. Three-player: ``rules="tenhou-sanma"`` (or
    ``sanma-split``) and ``kita``, the Norths set aside. Raises :class:`~mjcli.errors.ScoringError`
    for a hand that is not complete or has no yaku.
    """
    from mjcli.riichi.scoring import score_typed

    typed = score_typed(
        hand,
        win,
        melds=melds,
        dora=dora,
        ura=ura,
        seat=seat,
        round_wind=round_wind,
        honba=honba,
        sticks=sticks,
        rules=rules,
        kita=kita,
        **conditions,
    )
    return typed.result


# ---------------------------------------------------------------- policies


def policy(name: str, plugins: Sequence[str] = ()) -> Policy:
    """The riichi policy registered as ``name``: a built-in (``akagi``, ``mahjongjoy``, ``greedy``,
    ``efficiency``), an installed entry point, or one of ``plugins`` (``NAME=TARGET`` as ``--plugin``
    takes them)."""
    from mjcli.riichi.policies import get_policy, policy_registry

    return get_policy(name, registry=policy_registry(plugins) if plugins else None)


def policies(plugins: Sequence[str] = ()) -> list[dict[str, str]]:
    """Every riichi policy name known (as ``mjcli policies`` lists them): name, source, target."""
    from mjcli.plugins import describe
    from mjcli.riichi.policies import policy_registry

    return [
        {"name": s.name, "source": s.source, "target": describe(s)} for s in policy_registry(plugins).specs
    ]


def advise(hand: str, policies: Sequence[str] | str = "all", **position: Any) -> dict[str, Any]:
    """Each policy's action and reason for a 14-tile hand (the last tile is the one drawn), with the
    discard table; ``position`` as :func:`mjcli.riichi.advise.advise_hand` takes it (``melds``,
    ``dora``, ``seen``, ``round_wind``, ``seat_wind``, ``riichi_by``, ``offered`` and ``offered_by``
    for a discard to answer with 13 tiles, ``shown``; ``players=3`` for a three-player hand).
    ``melds`` may also be written as :func:`score` takes them (``"pon:555z,chi:234m"``) and the
    winds as letters (``seat_wind="S"``)."""
    from mjcli.errors import UsageError
    from mjcli.melds import parse_melds
    from mjcli.riichi.advise import advise_hand
    from mjcli.tiles import wind_from_letter

    # The notation score() takes: a string of melds was read one character a meld ("with 8 melds a
    # hand to advise has -10"), a wind letter was a TypeError.
    if isinstance(position.get("melds"), str):
        position["melds"] = parse_melds(position["melds"])
    for key in ("round_wind", "seat_wind"):
        if isinstance(position.get(key), str):
            position[key] = wind_from_letter(position[key])
    players = position.get("players", 4)
    if players not in (3, 4):  # the engine's ValueError is not one of the project's errors
        raise UsageError(f"players={players!r}: riichi is played by three or four players")
    return advise_hand(hand, policies=policies, **position)


# ---------------------------------------------------------------- logs


def read_log(path: PathLike) -> list[GameLog]:
    """The games of one log file (Tenhou mjlog XML, tenhou.net/6 JSON or mjai; gzip too)."""
    from mjcli.riichi.formats import read_log as read

    return read(path)


def log_files(*paths: PathLike) -> list[Path]:
    """The log files that files and folders name (folders walked recursively, in sorted order)."""
    from mjcli.riichi.formats import collect_logs

    return collect_logs([str(p) for p in paths]).paths


def verify(path: PathLike, rules: str | None = None) -> list[GameReport]:
    """Each game of a log checked against the rules engine: one report per game, with every
    mismatch between what the log recorded and what the engine computes. ``rules``: a preset forced
    on every game (None: each log's own site's, Tenhou's or Mahjong Soul's; the report names it)."""
    from mjcli.riichi.rules import get_rules
    from mjcli.riichi.verify import verify_file

    return verify_file(path, get_rules(rules) if rules is not None else None)


def replay(
    paths: Sequence[PathLike] | PathLike,
    policies: Sequence[str] | str = ("akagi", "mahjongjoy", "greedy", "efficiency"),
    *,
    jobs: int = 1,
    rules: str | None = None,
) -> pl.DataFrame:
    """Every decision of the logs (files or folders; one path alone is taken as a list of one) put
    to every policy: the rows of ``decisions.parquet`` (columns in the README) as one DataFrame.
    Logs the engine rejects are left out; :func:`mjcli.riichi.replay.run_replay` reports them and
    writes the files."""
    import polars as pl

    from mjcli.riichi.formats import collect_logs
    from mjcli.riichi.replay import Columns, ReplayOptions, replay_paths

    if isinstance(paths, str | os.PathLike):
        # a string is a sequence of its characters: "logs/a.json" was read as the paths "l", "o",
        # ..., "/" and ".", and the walk of "/" went through the whole machine
        paths = [paths]
    from mjcli.runner import jobs_for

    jobs = jobs_for(jobs)  # 1 to MAX_JOBS, as --jobs and api.simulate take it (0 ran with one)
    if isinstance(policies, str):  # "greedy,akagi" as the command line writes them, not g, r, e...
        policies = [p.strip() for p in policies.split(",") if p.strip()]
    inputs = collect_logs([str(p) for p in paths])
    options = ReplayOptions(tuple(policies), rules=rules)
    frames = [r.decisions for r in replay_paths(inputs.items, options, jobs)]
    return pl.concat(frames, how="vertical") if frames else Columns().frame()


def simulate(
    players: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    out: PathLike | None = None,
    length: str | None = None,
    rules: str | None = None,
    duplicate: bool = False,
    jobs: int = 1,
    hands_shown: Sequence[str] | str | None = None,
    open_riichi: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games between the policies (one to four names, rotated over the seats) and
    return the summary (per policy every figure with its 95 % interval); with ``out``, the logs
    and tables are written there as ``mjcli simulate --out`` writes them. ``rules`` None: as the
    command, three names make a three-player table (``tenhou-sanma``), else ``tenhou``.
    ``hands_shown``: the policies whose seats play with their hand shown (None: every ``akagi``
    seat, as ``mjcli simulate``; ``()``: none); ``open_riichi``: the open-riichi house rule."""
    from mjcli.riichi.rules import DEFAULT_HANDS_SHOWN
    from mjcli.riichi.simulate.run import simulate as run

    return run(
        list(players),
        games,
        seed,
        out=out,
        length=length,
        rules=rules,
        duplicate=duplicate,
        jobs=jobs,
        hands_shown=DEFAULT_HANDS_SHOWN if hands_shown is None else hands_shown,
        open_riichi=open_riichi,
    )
