"""The shanten function every policy uses, with a switch to ``mahjong``'s for reference timings.

Policies call :func:`shanten` (minimum of the regular form, seven pairs and thirteen orphans, the
last two only for 13/14 tiles, as ``mahjong.shanten.Shanten.calculate_shanten`` does) and
:func:`waits`. The fast implementation is ``mjcli.analysis`` (table based); the benchmark runs
every policy a second time with :func:`use_backend` ``("mahjong")`` to print the speed ratio.
Both return the same numbers, so a policy's decisions do not depend on the backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from mahjong.shanten import Shanten as _LibShanten

from mjcli.errors import UsageError
from mjcli.game.waits import is_complete as _is_complete
from mjcli.game.waits import waits as _waits
from mjcli.tiles import NUM_KINDS


def _mahjong_shanten(counts: Sequence[int]) -> int:
    return _LibShanten.calculate_shanten(list(counts))


try:  # the table-based shanten of mjcli.analysis, when that package is importable
    from mjcli.analysis import discard_table as _analysis_discard_table
    from mjcli.analysis import shanten as _analysis_shanten
    from mjcli.analysis import ukeire as _analysis_ukeire
except ImportError:  # pragma: no cover - only while mjcli.analysis is being written
    _analysis_shanten = None
    _analysis_discard_table = None
    _analysis_ukeire = None
try:  # the per-draw shanten behind analysis.ukeire, without building its result objects
    from mjcli.analysis.shanten_calc import shanten_after_each_draw as _after_each_draw
except ImportError:  # pragma: no cover - falls back to analysis.ukeire
    _after_each_draw = None

BACKENDS: dict[str, Callable[[Sequence[int]], int]] = {"mahjong": _mahjong_shanten}
if _analysis_shanten is not None:
    BACKENDS["analysis"] = _analysis_shanten

DEFAULT_BACKEND = "analysis" if "analysis" in BACKENDS else "mahjong"
_current: Callable[[Sequence[int]], int] = BACKENDS[DEFAULT_BACKEND]
_current_name = DEFAULT_BACKEND


def shanten(counts: Sequence[int]) -> int:
    """Shanten (-1 complete, 0 tenpai) of a concealed hand of 34 counts (1..14 tiles, 3n+1 or 3n+2)."""
    return _current(bytes(counts) if _current_name == "analysis" else counts)


def backend_name() -> str:
    return _current_name


@contextmanager
def use_backend(name: str) -> Iterator[None]:
    """Run a block with another shanten implementation (``"analysis"`` or ``"mahjong"``)."""
    global _current, _current_name
    if name not in BACKENDS:
        raise UsageError(f"unknown shanten backend '{name}' (known: {', '.join(sorted(BACKENDS))})")
    saved = (_current, _current_name)
    _current, _current_name = BACKENDS[name], name
    try:
        yield
    finally:
        _current, _current_name = saved


@dataclass(frozen=True, slots=True)
class Option:
    """One discard of a 3n+2 hand: its kind, the shanten left and the unseen improving copies."""

    kind: int
    shanten: int
    ukeire: int
    improving: tuple[int, ...]


def _options_by_loop(counts: Sequence[int], seen: Sequence[int]) -> list[Option]:
    """The discard table from single shanten calls (the reference path, any backend)."""
    hand = list(counts)
    out = []
    for d in range(NUM_KINDS):
        if not hand[d]:
            continue
        hand[d] -= 1
        s = _current(hand)
        improving = []
        total = 0
        for k in range(NUM_KINDS):
            if hand[k] >= 4:
                continue
            hand[k] += 1
            if _current(hand) < s:
                improving.append(k)
                total += max(0, 4 - counts[k] - seen[k])
            hand[k] -= 1
        hand[d] += 1
        out.append(Option(d, s, total, tuple(improving)))
    return out


def discard_options(counts: Sequence[int], seen: Sequence[int]) -> list[Option]:
    """Every distinct discard of a 3n+2 concealed hand, in kind order, with its shanten and ukeire.

    Ukeire counts the copies of each improving kind not in the hand and not in ``seen`` (what the
    player can see elsewhere). With the ``analysis`` backend this is ``mjcli.analysis.discard_table``.
    """
    if _current_name == "analysis" and _analysis_discard_table is not None:
        table = _analysis_discard_table(counts, seen)
        opts = [Option(o.kind, o.shanten, o.ukeire_total, tuple(o.kinds)) for o in table]
        opts.sort(key=lambda o: o.kind)
        return opts
    return _options_by_loop(counts, seen)


def improving(counts: Sequence[int]) -> tuple[int, ...]:
    """The kinds that lower the shanten of a 3n+1 concealed hand (kinds held four times excluded)."""
    if _current_name == "analysis" and _after_each_draw is not None:
        current, after = _after_each_draw(bytes(counts))
        return tuple(k for k, s in enumerate(after) if s is not None and s < current)
    if _current_name == "analysis" and _analysis_ukeire is not None:
        # bytes take the analysis module's fast path (no per-call conversion)
        return tuple(_analysis_ukeire(bytes(counts)).kinds)
    hand = list(counts)
    s = _current(hand)
    out = []
    for k in range(NUM_KINDS):
        if hand[k] >= 4:
            continue
        hand[k] += 1
        if _current(hand) < s:
            out.append(k)
        hand[k] -= 1
    return tuple(out)


def waits(counts: Sequence[int]) -> frozenset[int]:
    """Kinds completing a 3n+1 concealed hand (seven pairs and thirteen orphans included at 13 tiles)."""
    return _waits(counts)


def is_complete(counts: Sequence[int]) -> bool:
    return _is_complete(counts)
