"""Fast agari and wait tests for the engine, on 34-count hands.

The engine asks "what does this hand wait on?" after nearly every discard (furiten, riichi,
tenpai at a draw), so this has to be cheap. A standard hand is complete when every suit splits
into melds, exactly one suit also holding the pair; suits are independent, so each suit's 9 counts
(7 for honours) are classified once and memoised: in practice a few thousand distinct suit vectors
cover every game. Seven pairs and thirteen orphans are checked apart.

General shanten numbers come from ``mjcli.analysis``; tests cross-check ``waits()`` and
``is_complete()`` against the ``mahjong`` library. The log readers use these same tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from mjcli.tiles import TERMINALS_AND_HONORS

_orphan_counts = itemgetter(*TERMINALS_AND_HONORS)

_MELDS = 1  # the suit splits into melds only
_PAIR = 2  # the suit splits into melds and exactly one pair

_flags_cache: dict[tuple[int, ...], int] = {}
_adds_cache: dict[tuple[int, ...], tuple[int, ...]] = {}
#: entries either memo holds before a miss empties it: a long run meets more suit vectors the more
#: games it reads (replaying 200 distinct simulated hanchan: 16.5k and 2.5k), and a memo that never
#: forgets would grow with them (bench row "peak memory by hanchan replayed"); ~2 MB at the limit.
#: A miss is cheap: at this limit that replay's misses of ``_flags`` went from 42k to 68k, 0.05 to
#: 0.08 s of its 21 s of CPU. Emptied in place: the hot paths hold the dicts themselves.
_MEMO_LIMIT = 1 << 14


def _split(vec: list[int], honors: bool, need_pair: bool) -> bool:
    """Can ``vec`` (mutated and restored) be split into melds (+ one pair when ``need_pair``)?"""
    i = 0
    n = len(vec)
    while i < n and vec[i] == 0:
        i += 1
    if i == n:
        return not need_pair
    # The lowest tile must belong to a pair, a triplet or a run starting at it.
    if need_pair and vec[i] >= 2:
        vec[i] -= 2
        ok = _split(vec, honors, False)
        vec[i] += 2
        if ok:
            return True
    if vec[i] >= 3:
        vec[i] -= 3
        ok = _split(vec, honors, need_pair)
        vec[i] += 3
        if ok:
            return True
    if not honors and i + 2 < n and vec[i + 1] and vec[i + 2]:
        vec[i] -= 1
        vec[i + 1] -= 1
        vec[i + 2] -= 1
        ok = _split(vec, honors, need_pair)
        vec[i] += 1
        vec[i + 1] += 1
        vec[i + 2] += 1
        if ok:
            return True
    return False


def _flags(key: tuple[int, ...]) -> int:
    """_MELDS, _PAIR or 0 for one suit: ``key`` is its counts (9 for a number suit, 7 for honours)."""
    f = _flags_cache.get(key)
    if f is None:
        vec = list(key)
        honors = len(key) == 7
        total = sum(vec)
        if total % 3 == 0:
            f = _MELDS if _split(vec, honors, False) else 0
        elif total % 3 == 2:
            f = _PAIR if _split(vec, honors, True) else 0
        else:
            f = 0
        if len(_flags_cache) >= _MEMO_LIMIT:
            _flags_cache.clear()
        _flags_cache[key] = f
    return f


def _adds(key: tuple[int, ...]) -> tuple[int, ...]:
    """For each position of the suit, the flags of the suit with one more tile there."""
    a = _adds_cache.get(key)
    if a is None:
        out = []
        for j in range(len(key)):
            if key[j] >= 4:
                out.append(0)
                continue
            lst = list(key)
            lst[j] += 1
            out.append(_flags(tuple(lst)))
        a = tuple(out)
        if len(_adds_cache) >= _MEMO_LIMIT:
            _adds_cache.clear()
        _adds_cache[key] = a
    return a


def _suit_keys(counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    # Slices of one tuple of the counts: the honours' key is told apart by its length (7), so no
    # marker is appended, and the four keys cost one conversion (a third of the time of building
    # each with a marker; bench_speed: "walk a log to every decision", "self-play").
    c = tuple(counts)
    return (c[0:9], c[9:18], c[18:27], c[27:34])


_OFFSETS = (0, 9, 18, 27)


def is_complete(counts: Sequence[int]) -> bool:
    """Is a 3n+2 hand (34 counts, concealed part only) a complete hand?"""
    pairs = 0
    cache = _flags_cache
    for key in _suit_keys(counts):
        # the memo read here, _flags called only on a miss (as in waits): this runs on every draw
        # (bench_speed: "walk a log to every decision", "self-play")
        f = cache.get(key)
        if f is None:
            f = _flags(key)
        if f == 0:
            break
        if f == _PAIR:
            pairs += 1
    else:
        if pairs == 1:
            return True
    if sum(counts) == 14:
        return _is_seven_pairs(counts) or _is_orphans(counts)
    return False


def _is_seven_pairs(counts: Sequence[int]) -> bool:
    return list(counts).count(2) == 7


def _is_orphans(counts: Sequence[int]) -> bool:
    orphans = _orphan_counts(list(counts))
    return sum(orphans) == 14 and min(orphans) >= 1


def waits(counts: Sequence[int]) -> frozenset[int]:
    """The kinds that complete a 3n+1 hand (34 counts, concealed part only).

    A kind of which the hand already holds four is no wait (it cannot be drawn); callers that
    must also exclude kinds used up by the player's own melds do so themselves.
    """
    # (the suits' keys sliced from one tuple of the counts, which the seven pairs and orphans tests
    # then read too, with no copy nor call: the engine asks after nearly every discard; bench_speed
    # "walk a log to every decision", "self-play")
    c = tuple(counts)
    keys = (c[0:9], c[9:18], c[18:27], c[27:34])
    # Nearly every suit vector is memoised already: read the cache first, call _flags only on a miss.
    cache = _flags_cache
    flags = list(map(cache.get, keys))  # (no list comprehension's frame: bench_speed "self-play")
    if None in flags:
        flags = [_flags(k) for k in keys]
    zero = flags.count(0)
    pair = flags.count(_PAIR)
    out: set[int] = set()
    # Standard shape: adding the tile to suit s must leave all suits split with one pair. One tile
    # mends one suit at most, so with two or more unsplittable suits (most hands) nothing is tried.
    for s in range(4) if zero < 2 else ():
        fs = flags[s]
        other_zero = zero - (fs == 0)
        if other_zero:
            continue
        other_pair = pair - (fs == _PAIR)
        if other_pair > 1:
            continue
        want = _MELDS if other_pair == 1 else _PAIR
        off = _OFFSETS[s]
        for j, f in enumerate(_adds(keys[s])):
            if f == want:
                out.add(off + j)
    if sum(c) == 13:
        # Seven distinct pairs: six pairs and a single (four of a kind is not two pairs).
        if c.count(2) == 6 and c.count(1) == 1:
            out.add(c.index(1))
        orphans = _orphan_counts(c)
        if sum(orphans) == 13:
            out.update(_orphan_waits(orphans))
    return frozenset(out) if out else _NO_WAITS


_NO_WAITS: frozenset[int] = frozenset()


def is_tenpai(counts: Sequence[int]) -> bool:
    """``bool(waits(counts))``, without listing the waits: a suit's flags with one more tile are
    looked for in its table at C speed, and the first wait found answers (a turn's riichi check
    asks it of every discard of a hand near tenpai; bench_speed: "walk a log to every decision").
    """
    c = tuple(counts)
    keys = (c[0:9], c[9:18], c[18:27], c[27:34])
    cache = _flags_cache
    flags = list(map(cache.get, keys))
    if None in flags:
        flags = [_flags(k) for k in keys]
    zero = flags.count(0)
    pair = flags.count(_PAIR)
    for s in range(4) if zero < 2 else ():
        fs = flags[s]
        if zero - (fs == 0):
            continue
        other_pair = pair - (fs == _PAIR)
        if other_pair > 1:
            continue
        if (_MELDS if other_pair == 1 else _PAIR) in _adds(keys[s]):
            return True
    if sum(c) == 13:
        if c.count(2) == 6 and c.count(1) == 1:
            return True
        orphans = _orphan_counts(c)
        if sum(orphans) == 13 and orphans.count(0) <= 1:
            return True
    return False


def _orphan_waits(orphans: tuple[int, ...]) -> set[int]:
    """The waits of a 13-tile hand of terminals and honours only (``orphans``: their 13 counts)."""
    missing = [k for k, n in zip(TERMINALS_AND_HONORS, orphans, strict=True) if n == 0]
    if not missing:
        return set(TERMINALS_AND_HONORS)
    if len(missing) == 1:
        return {missing[0]}
    return set()
