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
from mjcli.riichi.engine.waits import is_complete as _is_complete
from mjcli.riichi.engine.waits import waits as _waits
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


#: memo of :func:`improving_of` (cleared when full): hands come back, between the policies asked at
#: one decision, the replay's figures of the same decision, and a seat's turns (a tsumogiri)
_IMPROVING: dict[bytes, tuple[int, tuple[int, ...]]] = {}
_MEMO_LIMIT = 1 << 15


def improving_of(hand: bytes) -> tuple[int, tuple[int, ...]]:
    """Shanten of a 3n+1 concealed hand (34 counts as bytes) and the kinds that lower it (kinds held
    four times excluded), memoised. Always ``mjcli.analysis`` (the same numbers as any backend)."""
    got = _IMPROVING.get(hand)
    if got is None:
        got = _improving_kinds(hand)
        _remember(_IMPROVING, hand, got)
    return got


def _improving_by_table(hand: bytes) -> tuple[int, tuple[int, ...]]:
    """:func:`mjcli.analysis.shanten_calc.shanten_after_each_draw` kept to the kinds that lower the
    shanten: the same table lookups in one pass, without the per-kind list (twice as fast; a test
    checks that they agree on every hand of the shared logs and on random ones)."""
    if len(hand) != NUM_KINDS:
        return _improving_by_draws(hand)
    sc = _sc
    v0, v1, v2, v3 = sc._group_values(hand)
    total = v0 + v1 + v2 + v3
    n = total & sc._SIZE_MASK
    if n % 3 != 1 or n > 13:
        return _improving_by_draws(hand)  # raises the analysis module's error
    shift = sc._ID_SHIFT
    i0, i1, i2, i3 = v0 >> shift, v1 >> shift, v2 >> shift, v3 >> shift
    comb = sc._COMBINE
    current = sc._FINAL[n // 3][comb[comb[i0][i1]][comb[i2][i3]]]
    fields = total >> 6 & 0xFFFF
    special = sc._SPECIAL_PLUS_1
    if n >= 13:
        current = min(current, special[fields] - 1)
    final = sc._FINAL[(n + 1) // 3]
    # seven pairs and thirteen orphans count after the draw (14 tiles), if a draw can bring them
    # under the shanten to beat: a draw adds a new kind and/or a new pair, terminal or not
    full = n == 13 and any(special[fields + grow] - 1 < current for grow in _SPECIAL_GROWS)
    draws = sc._draws
    out: list[int] = []
    # per group: the combined row of the other three groups, as shanten_after_each_draw has it
    for start, rest, key in (
        (0, comb[comb[comb[i1][i2]][i3]], hand[0:9]),
        (9, comb[comb[comb[i0][i2]][i3]], hand[9:18]),
        (18, comb[comb[comb[i0][i1]][i3]], hand[18:27]),
        (27, comb[comb[comb[i0][i1]][i2]], hand[27:34]),
    ):
        if full:
            for i, row, grow in draws(key, start):
                s = final[rest[row]]
                sp = special[fields + grow] - 1
                if (sp if sp < s else s) < current:
                    out.append(start + i)
        else:
            for i, row, _ in draws(key, start):
                if final[rest[row]] < current:
                    out.append(start + i)
    return current, tuple(out)


def _improving_by_draws(hand: bytes) -> tuple[int, tuple[int, ...]]:
    current, after = _after_each_draw(hand)  # type: ignore[misc]
    return current, tuple([k for k, s in enumerate(after) if s is not None and s < current])


_AFTER_DISCARD: dict[bytes, dict[int, int]] = {}
_LEAST: dict[tuple[bytes, frozenset[int] | None], tuple[int, dict[int, tuple[int, ...]]]] = {}


def _remember(memo: dict, key: object, value: object) -> None:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value


def clear_memos() -> None:
    """Forget every memoised hand (benchmarks time a run without the hands of an earlier one)."""
    _IMPROVING.clear()
    _AFTER_DISCARD.clear()
    _LEAST.clear()


def shanten_after_discards(hand: bytes) -> dict[int, int]:
    """Kind -> shanten of a 3n+2 concealed hand (34 counts as bytes) without one tile of that kind,
    for every kind held, in kind order. Memoised with the ``analysis`` backend; do not change it."""
    memo = _current_name == "analysis"
    if memo:
        got = _AFTER_DISCARD.get(hand)
        if got is not None:
            return got
        after = _after_discards_by_shanten(hand)
        _remember(_AFTER_DISCARD, hand, after)
        return after
    return _after_discards_by_shanten(hand)


def _after_discards_by_shanten(hand: bytes) -> dict[int, int]:
    work = bytearray(hand)
    after: dict[int, int] = {}
    for d in range(NUM_KINDS):
        if work[d]:
            work[d] -= 1
            after[d] = shanten(work)
            work[d] += 1
    return after


def least_discards(
    hand: bytes, allowed: frozenset[int] | None = None
) -> tuple[int, dict[int, tuple[int, ...]]]:
    """The least shanten a discard of a 3n+2 hand (bytes) leaves, and for each discard that leaves
    it (of the ``allowed`` kinds only, if given), in kind order, the kinds that would then improve
    the hand (:func:`improving`). Memoised with the ``analysis`` backend; do not change it."""
    memo = _current_name == "analysis"
    key = (hand, allowed)
    if memo:
        got = _LEAST.get(key)
        if got is not None:
            return got
    after = shanten_after_discards(hand)
    if allowed is not None:
        after = {d: s for d, s in after.items() if d in allowed}
    least = min(after.values())
    work = bytearray(hand)
    kinds: dict[int, tuple[int, ...]] = {}
    for d, s in after.items():
        if s == least:
            work[d] -= 1
            kinds[d] = improving(work)
            work[d] += 1
    got = (least, kinds)
    if memo:
        _remember(_LEAST, key, got)
    return got


def improving(counts: Sequence[int]) -> tuple[int, ...]:
    """The kinds that lower the shanten of a 3n+1 concealed hand (kinds held four times excluded)."""
    if _current_name == "analysis" and _after_each_draw is not None:
        return improving_of(bytes(counts))[1]
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


try:  # the analysis module's tables, for the fused loop of _improving_by_table
    from mjcli.analysis import shanten_calc as _sc

    _ = (_sc._group_values, _sc._SIZE_MASK, _sc._ID_SHIFT, _sc._COMBINE, _sc._FINAL, _sc._SPECIAL_PLUS_1)
    _ = _sc._draws
    #: what a draw can add to the seven pairs / thirteen orphans facts (see shanten_calc._draws)
    _SPECIAL_GROWS = frozenset((*_sc._GROW, *_sc._GROW_TERMINAL)) - {0}
    _improving_kinds = _improving_by_table
except (ImportError, AttributeError):  # pragma: no cover - the analysis module changed its insides
    _improving_kinds = _improving_by_draws
