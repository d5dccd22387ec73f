"""The hand arithmetic the policies share: shanten, waits and discard figures, with memos of hands.

A :class:`HandMath` holds one shanten implementation and the memos of the hands it has worked out.
Shanten is the minimum of the regular form, seven pairs and thirteen orphans (the last two only for
13/14 tiles), as ``mahjong.shanten.Shanten.calculate_shanten`` computes it. Two implementations give
the same numbers, so a policy's decisions never depend on which one it is given:

* ``"analysis"`` (the default): the table-based :mod:`mjcli.analysis`, fast, with memos;
* ``"mahjong"``: ``mahjong``'s own function, the reference the benchmarks time against (no memos,
  so that the timing is that of the reference).

One object per run, shared between the policies of the run and the run's own figures (replay's
shanten and ukeire columns), lets a hand worked out by one of them be found by the others: the
policies asked at one decision often meet the same hands, and so do a seat's successive turns.
The memos are bounded (each is emptied when it reaches ``memo_limit`` entries), and they belong to
their object: nothing is shared between two objects, so workers and plugins cannot trip on one
another's state.

Three-player: :meth:`HandMath.set_players` (3) makes every figure a three-player one (2m-8m are not
in the set: ``mjcli.analysis``'s ``sanma`` forms, and ``mahjong``'s ``is_three_player``); whoever
plays or replays a game sets it to the game's number of players before asking (the memos are
emptied when it changes).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mahjong.shanten import Shanten as _LibShanten

from mjcli.analysis import SANMA_ABSENT as _SANMA_ABSENT
from mjcli.analysis import discard_table as _analysis_discard_table
from mjcli.analysis import shanten as _analysis_shanten
from mjcli.analysis import shanten_calc as _sc
from mjcli.errors import UsageError
from mjcli.riichi.engine.waits import is_complete as _is_complete
from mjcli.riichi.engine.waits import waits as _waits
from mjcli.tiles import NUM_KINDS

if TYPE_CHECKING:  # numpy is imported where a batch is worked out: advise HAND starts without it
    import numpy as np

    from mjcli.analysis.discard_batch import DiscardShanten

#: the shanten implementations a HandMath can use
BACKENDS = ("analysis", "mahjong")
DEFAULT_BACKEND = "analysis"
#: entries each memo holds before it is emptied. Replay fills the memos with a whole game's hands
#: at once (:meth:`HandMath.prepare`) and empties them at the next game: they must hold a game.
MEMO_LIMIT = 1 << 15
#: the same for a run that plays games (``simulate``'s seats), whose hands are asked one at a
#: time and never prepared: the hits come from the decision at hand and the few before it, so
#: 4096 entries keep them, where 32768 held ~40 MB by the time a run had filled them (150 simulated
#: hanchan in one process: 105 -> 67 MiB peak, CPU 9.71 / 10.05 -> 9.78 / 9.64 s, the same games)
PLAY_MEMO_LIMIT = 1 << 12


def _mahjong_shanten(counts: Sequence[int]) -> int:
    return _LibShanten.calculate_shanten(list(counts))


@dataclass(frozen=True, slots=True)
class Option:
    """One discard of a 3n+2 hand: its kind, the shanten left and the unseen improving copies."""

    kind: int
    shanten: int
    ukeire: int
    improving: tuple[int, ...]


class HandMath:
    """Shanten, waits and discard figures of concealed hands (34 counts), memoised per object.

    ``HandMath()`` uses :mod:`mjcli.analysis`; ``HandMath("mahjong")`` the reference implementation.
    Hands are 34 counts (a list, tuple or bytes); the methods taking ``hand: bytes`` are the memoised
    ones (bytes are the memo key). Returned values are shared with the memo: do not change them.
    """

    __slots__ = (
        "backend",
        "memo_limit",
        "players",
        "_analysis",
        "_shanten",
        "_improving",
        "_after_discard",
        "_least",
    )

    def __init__(self, backend: str = DEFAULT_BACKEND, memo_limit: int = MEMO_LIMIT) -> None:
        if backend not in BACKENDS:
            raise UsageError(f"unknown shanten backend '{backend}' (known: {', '.join(sorted(BACKENDS))})")
        self.backend = backend
        self.memo_limit = memo_limit
        self.players = 4
        self._analysis = backend == "analysis"
        self._shanten: dict[bytes, int] = {}
        self._improving: dict[bytes, tuple[int, tuple[int, ...]]] = {}
        self._after_discard: dict[bytes, dict[int, int]] = {}
        self._least: dict[tuple[bytes, frozenset[int] | None], tuple[int, dict[int, tuple[int, ...]]]] = {}

    def __repr__(self) -> str:
        return f"HandMath({self.backend!r})"

    def set_players(self, players: int) -> None:
        """Work out hands of a game of ``players`` players from now on (3: no 2m-8m in the set)."""
        if players != self.players:
            self.players = players
            self.clear()

    def clear(self) -> None:
        """Forget every memoised hand (a benchmark times a run without the hands of an earlier one)."""
        self._shanten.clear()
        self._improving.clear()
        self._after_discard.clear()
        self._least.clear()

    def _remember(self, memo: dict, key: object, value: object) -> None:
        if len(memo) >= self.memo_limit:
            memo.clear()
        memo[key] = value

    # ------------------------------------------------------------ one hand

    def shanten(self, counts: Sequence[int]) -> int:
        """Shanten (-1 complete, 0 tenpai) of a concealed hand of 34 counts (1..14 tiles, 3n+1 or 3n+2)."""
        if not self._analysis:
            if self.players == 3:
                return _LibShanten.calculate_shanten(list(counts), is_three_player=True)
            return _mahjong_shanten(counts)
        # memoised: the policies and replay's figures ask for the same hands at one decision (and
        # :meth:`prepare` fills it for a whole log); a lookup is ~0.3 us against ~3 us
        key = bytes(counts)
        got = self._shanten.get(key)
        if got is None:
            got = _sc.shanten_sanma(key) if self.players == 3 else _analysis_shanten(key)
            self._remember(self._shanten, key, got)
        return got

    def waits(self, counts: Sequence[int]) -> frozenset[int]:
        """Kinds completing a 3n+1 concealed hand (seven pairs and thirteen orphans included at 13
        tiles); the same for either backend."""
        return _waits(counts)

    def is_complete(self, counts: Sequence[int]) -> bool:
        """Is a 3n+2 concealed hand a winning shape (yaku not checked)? The same for either backend."""
        return _is_complete(counts)

    def improving(self, counts: Sequence[int]) -> tuple[int, ...]:
        """The kinds that lower the shanten of a 3n+1 concealed hand (kinds held four times excluded)."""
        if self._analysis:
            return self.improving_of(bytes(counts))[1]
        hand = list(counts)
        s = self.shanten(hand)
        out = []
        for k in range(NUM_KINDS):
            if hand[k] >= 4 or (self.players == 3 and k in _SANMA_ABSENT):
                continue
            hand[k] += 1
            if self.shanten(hand) < s:
                out.append(k)
            hand[k] -= 1
        return tuple(out)

    def improving_of(self, hand: bytes) -> tuple[int, tuple[int, ...]]:
        """Shanten of a 3n+1 concealed hand (34 counts as bytes) and the kinds that lower it (kinds
        held four times excluded), memoised. Always :mod:`mjcli.analysis` (the same numbers as any
        backend)."""
        got = self._improving.get(hand)
        if got is None:
            got = _improving_by_draws(hand, sanma=True) if self.players == 3 else _improving_by_table(hand)
            self._remember(self._improving, hand, got)
        return got

    # ------------------------------------------------------------ many hands at once

    def prepare(
        self,
        turns: Iterable[bytes] = (),
        left: Iterable[bytes] = (),
        seen: Sequence[tuple[bytes, bytes]] = (),
    ) -> list[tuple[int, dict[int, int]] | None]:
        """Work out in numpy batches what will be asked of these hands, into the memos.

        ``turns`` are 3n+2 hands (34 counts as bytes) about to be discarded from: their shanten,
        :meth:`shanten_after_discards` and :meth:`least_discards` (every kind allowed). ``left``
        are 3n+1 hands: their shanten and :meth:`improving_of`. ``seen`` are pairs of a 3n+2 hand
        and the copies of each kind its player has not seen (34 counts as bytes): their shanten and
        :meth:`shanten_after_discards` go to the memos, and the answer holds, per pair, the least
        shanten a discard leaves and the ukeire (unseen improving copies) of each discard that
        leaves it, by kind in kind order (what :meth:`least_discards` and a sum over the unseen
        counts give), or None for a hand left to be worked out when asked. The numbers are the same
        as when each is asked alone (a test compares them on every hand of the shared logs); a
        hand already memoised, or not a legal four-player hand, is left to be worked out when asked.

        Why: replay knows every decision point of a log before it asks a policy, so it hands their
        hands here at once: this costs ~30 ms a hanchan (``python -m benchmarks replay``, "hands in
        one numpy batch", load 4-5) where the same hands asked one by one cost ~120 ms (the hand
        arithmetic's share of the policies and rows before). Only the ``analysis`` backend in
        four-player keeps memos; others ignore this (every answer None).
        """
        figures: list[tuple[int, dict[int, int]] | None] = [None] * len(seen)
        if not self._analysis or self.players != 4:
            return figures
        import numpy as np

        from mjcli.analysis.discard_batch import discard_shanten_batch, improving_masks, kinds_by_row

        full = _legal_hands([h for h in dict.fromkeys(turns) if (h, None) not in self._least], 2)
        # the hands of ``seen`` not among them: worked out in the same batch, without the least
        # discards' improving kinds (their ukeire are summed in numpy instead: the turn hands'
        # tuples were most of the batch's Python steps; replay, 4 policies, one core)
        listed = set(full)
        turn_count = len(full)
        full += _legal_hands([h for h in dict.fromkeys(h for h, _ in seen) if h not in listed], 2)
        need: dict[bytes, None] = {}  # the 3n+1 hands whose improving kinds are wanted, in order
        masked: dict[bytes, None] = {}  # those whose improving kinds are summed only
        if full:
            hands = _stack(full)
            got = discard_shanten_batch(hands)
            # the rows are flat (hand then kind order): each hand's are one slice of each list
            kinds, after = got.kind.tolist(), got.after.tolist()
            ends = np.cumsum(np.count_nonzero(hands, axis=1)).tolist()
            best = got.after == got.least[got.hand]  # the discards of least shanten
            best_hand = got.hand[best]
            best_kinds, best_left = got.kind[best].tolist(), _split(got.left[best])
            best_count = np.bincount(best_hand, minlength=len(full))
            best_ends = np.cumsum(best_count).tolist()
            cut = best_ends[turn_count - 1] if turn_count else 0  # the rows of ``turns``' hands
            need.update(dict.fromkeys(best_left[:cut]))
            masked.update(dict.fromkeys(best_left))
        need.update(dict.fromkeys(_legal_hands(list(left), 1)))
        masked.update(need)
        # the improving kinds of each (as tuples for ``need``): what the memo already has is kept
        # aside (making room below may empty the memo; replay starts each game with empty memos:
        # nothing to look up then)
        if self._improving:
            found = {h: memo[1] for h in need if (memo := self._improving.get(h)) is not None}
            todo = [h for h in need if h not in found]
        else:
            found, todo = {}, list(need)
        order = list(masked)
        if order:
            current, better = improving_masks(_stack(order))
            shanten = current.tolist()
            self._make_room(self._shanten, len(order))
            self._shanten.update(zip(order, shanten, strict=True))
            position = {h: i for i, h in enumerate(order)}  # the row of each hand in ``better``
        if todo:
            rows = list(map(position.__getitem__, todo))
            improving = kinds_by_row(better[rows])
            self._make_room(self._improving, len(todo))
            # into the memos a dict at a time (zips read in C, not a Python step a hand: replay, 4
            # policies, one core)
            found.update(zip(todo, improving, strict=True))
            self._improving.update(
                zip(todo, zip(map(shanten.__getitem__, rows), improving, strict=True), strict=True)
            )
        if not full:
            return figures
        self._make_room(self._shanten, len(full))
        self._make_room(self._after_discard, len(full))
        self._make_room(self._least, turn_count)
        # the 3n+2 hands' memos in one pass, the improving kinds of every least-shanten discard
        # looked up in C (one loop a hand, not two, and no list of the hands' slices in between:
        # replay, 4 policies, one core)
        best_improving = list(map(found.__getitem__, best_left[:cut]))
        start = best_start = 0
        for i, (h, s, low, end, best_end) in enumerate(
            zip(full, got.shanten.tolist(), got.least.tolist(), ends, best_ends, strict=True)
        ):
            self._shanten[h] = s
            self._after_discard[h] = dict(zip(kinds[start:end], after[start:end], strict=True))
            if i < turn_count:
                of_best = slice(best_start, best_end)
                least = dict(zip(best_kinds[of_best], best_improving[of_best], strict=True))
                self._least[(h, None)] = (low, least)
            start, best_start = end, best_end
        if seen:
            self._ukeire_of_best(
                seen, figures, full, got, best_kinds, best_count, better, position, best_left
            )
        return figures

    @staticmethod
    def _ukeire_of_best(
        seen: Sequence[tuple[bytes, bytes]],
        figures: list[tuple[int, dict[int, int]] | None],
        full: list[bytes],
        got: DiscardShanten,
        best_kinds: list[int],
        best_count: np.ndarray,
        better: np.ndarray,
        position: dict[bytes, int],
        best_left: list[bytes],
    ) -> None:
        """:meth:`prepare`'s answer for ``seen`` into ``figures``: each pair's least-shanten
        discards (the rows ``best_*`` of ``got``'s hands ``full``) with the unseen copies of the
        kinds that improve the hand each leaves (``better``, the row of each hand at ``position``)
        summed."""
        import numpy as np

        index = {h: i for i, h in enumerate(full)}
        at = [(j, i) for j, (h, _) in enumerate(seen) if (i := index.get(h)) is not None]
        if not at:
            return
        pairs = [j for j, _ in at]
        hands = np.array([i for _, i in at], dtype=np.intp)
        counts = best_count[hands]
        firsts = (np.cumsum(best_count) - best_count)[hands]  # each hand's first best row
        # the best rows of each pair, one after the other, and the pair of each
        total = int(counts.sum())
        offsets = np.cumsum(counts) - counts
        rows = np.repeat(firsts - offsets, counts) + np.arange(total)
        owner = np.repeat(np.arange(len(at)), counts)
        masks = better[np.fromiter(map(position.__getitem__, best_left), np.intp, len(best_left))[rows]]
        unseen = _stack([seen[j][1] for j in pairs])
        ukeire = (masks * unseen[owner]).sum(axis=1, dtype=np.int64).tolist()
        kinds = np.array(best_kinds, dtype=np.intp)[rows].tolist()
        start = 0
        for j, low, end in zip(pairs, got.least[hands].tolist(), np.cumsum(counts).tolist(), strict=True):
            figures[j] = (low, dict(zip(kinds[start:end], ukeire[start:end], strict=True)))
            start = end

    def _make_room(self, memo: dict, count: int) -> None:
        """Empty ``memo`` now if ``count`` more entries would overflow it (rather than midway)."""
        if len(memo) + count > self.memo_limit:
            memo.clear()

    # ------------------------------------------------------------ the discards of a 3n+2 hand

    def discard_options(self, counts: Sequence[int], seen: Sequence[int]) -> list[Option]:
        """Every distinct discard of a 3n+2 concealed hand, in kind order, with its shanten and ukeire.

        Ukeire counts the copies of each improving kind not in the hand and not in ``seen`` (what the
        player can see elsewhere). With the ``analysis`` backend this is ``mjcli.analysis.discard_table``.
        """
        if self._analysis:
            table = _analysis_discard_table(counts, seen, sanma=self.players == 3)
            opts = [Option(o.kind, o.shanten, o.ukeire_total, tuple(o.kinds)) for o in table]
            opts.sort(key=lambda o: o.kind)
            return opts
        return self._options_by_loop(counts, seen)

    def _options_by_loop(self, counts: Sequence[int], seen: Sequence[int]) -> list[Option]:
        """The discard table from single shanten calls (the reference path)."""
        hand = list(counts)
        out = []
        for d in range(NUM_KINDS):
            if not hand[d]:
                continue
            hand[d] -= 1
            s = self.shanten(hand)
            improving = []
            total = 0
            for k in range(NUM_KINDS):
                if hand[k] >= 4 or (self.players == 3 and k in _SANMA_ABSENT):
                    continue
                hand[k] += 1
                if self.shanten(hand) < s:
                    improving.append(k)
                    total += max(0, 4 - counts[k] - seen[k])
                hand[k] -= 1
            hand[d] += 1
            out.append(Option(d, s, total, tuple(improving)))
        return out

    def shanten_after_discards(self, hand: bytes) -> dict[int, int]:
        """Kind -> shanten of a 3n+2 concealed hand (34 counts as bytes) without one tile of that
        kind, for every kind held, in kind order. Memoised with the ``analysis`` backend."""
        if not self._analysis:
            return self._after_discards_by_shanten(hand)
        got = self._after_discard.get(hand)
        if got is not None:
            return got
        after = self._after_discards_by_shanten(hand)
        self._remember(self._after_discard, hand, after)
        return after

    def _after_discards_by_shanten(self, hand: bytes) -> dict[int, int]:
        work = bytearray(hand)
        after: dict[int, int] = {}
        for d in range(NUM_KINDS):
            if work[d]:
                work[d] -= 1
                after[d] = self.shanten(work)
                work[d] += 1
        return after

    def least_discards(
        self, hand: bytes, allowed: frozenset[int] | None = None
    ) -> tuple[int, dict[int, tuple[int, ...]]]:
        """The least shanten a discard of a 3n+2 hand (bytes) leaves, and for each discard that leaves
        it (of the ``allowed`` kinds only, if given), in kind order, the kinds that would then improve
        the hand (:meth:`improving`). Memoised with the ``analysis`` backend."""
        key = (hand, allowed)
        if self._analysis:
            got = self._least.get(key)
            if got is not None:
                return got
        after = self.shanten_after_discards(hand)
        if allowed is not None:
            after = {d: s for d, s in after.items() if d in allowed}
        least = min(after.values())
        work = bytearray(hand)
        kinds: dict[int, tuple[int, ...]] = {}
        for d, s in after.items():
            if s == least:
                work[d] -= 1
                kinds[d] = self.improving(work)
                work[d] += 1
        got = (least, kinds)
        if self._analysis:
            self._remember(self._least, key, got)
        return got


# ---------------------------------------------------------------- batches


def _legal_hands(hands: list[bytes], rest: int) -> list[bytes]:
    """The hands the batch path takes: 34 counts of 0..4 whose size is 3n+``rest`` (1..14 tiles)."""
    hands = [h for h in hands if len(h) == NUM_KINDS]
    if not hands:
        return hands
    arr = _stack(hands)
    n = arr.sum(axis=1)
    ok = ((arr.max(axis=1) <= 4) & (n % 3 == rest) & (n > 0) & (n <= 14)).tolist()
    return [h for h, good in zip(hands, ok, strict=True) if good]


def _stack(hands: list[bytes]) -> np.ndarray:
    import numpy as np

    return np.frombuffer(b"".join(hands), dtype=np.uint8).reshape(len(hands), NUM_KINDS)


def _split(rows: np.ndarray) -> list[bytes]:
    """The rows of an ``(M, 34)`` uint8 array as bytes, one each."""
    import numpy as np

    # (each row one opaque item, and numpy's list of them is a list of bytes: no Python step a
    # row; replay, 4 policies, one core)
    return np.ascontiguousarray(rows).view(np.dtype((np.void, rows.shape[1]))).ravel().tolist()


# ---------------------------------------------------------------- the improving kinds, fused

#: what a draw can add to the seven pairs / thirteen orphans facts (see shanten_calc._draws)
_SPECIAL_GROWS = frozenset((*_sc._GROW, *_sc._GROW_TERMINAL)) - {0}


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


def _improving_by_draws(hand: bytes, sanma: bool = False) -> tuple[int, tuple[int, ...]]:
    current, after = _sc.shanten_after_each_draw(hand, sanma)
    return current, tuple([k for k, s in enumerate(after) if s is not None and s < current])
