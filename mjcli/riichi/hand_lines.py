"""``mjcli shanten - --json``: lines of hands in, one JSON object per line out, a chunk at a time in numpy.

The answers are those of :mod:`mjcli.riichi.hand_report` (``analyse`` and ``HandResult.to_json``),
byte for byte; only the way they are made differs. A chunk of standard input (what one read gives,
at most :data:`CHUNK_BYTES`, or :data:`WIDE_CHUNK_BYTES` when the rows carry tiles or remaining)
is read as bytes and split in two:

* plain lines (``0-9`` digits and ``m p s z`` letters only, digits before each letter, 1z-7z) are
  parsed together: every byte's suit is the next letter's, and the counts of all lines come from one
  ``bincount``; a line already written as its label (sorted mpsz) is its own ``hand`` text. Their
  shanten, and for each 3n+1 hand or each discard of a 3n+2 hand the kinds whose draw lowers it,
  are numpy batches (:func:`mjcli.analysis.shanten_calc.improving_after_draws_rows`). The JSON
  text is cut from fixed-width byte templates by masks (a kind's ``,"1m":3`` of "remaining" is
  selected or not): every analysis row of the chunk in one selection, then each line's head
  (``{"hand":...``) and tail inserted around its rows; no Python object per hand or per tile;
* any other line (spaces, commas, mjai letters, a bad line) is read as the command reads one hand in
  Python: a hand read so joins the plain ones' batch, a bad line gets its error object. With
  ``--sanma`` every line is read and analysed one by one (the draw tables are four-player ones).

Both kinds of line are written in input order. A chunk is answered before the next is read, so a
pipe from a slow generator gets its answers as it goes. 100k random 13/14-tile hands with every
field (128 MB of JSON): about 1.2 s of CPU on a busy 2-core machine, start-up included (x0.32 of
`mahjong`'s shanten alone in the same run, 3.8 s); with each 14-tile hand's discard table but no
tiles or remaining (``--fields hand,size,shanten,ukeire,discards``) about 0.7 s, x0.19
(``benchmarks/bench_speed.py``, rows ``shanten - --json``, 2026-12-02). Where a full batch's time
goes: the draws (~25%), selecting the bytes of the rows (~30%: one boolean selection over every
row's template, ~1 ns a byte; the output is ~1.3 KB a 14-tile hand), the row templates and masks
(~20%), the lines' parsing, ordering the discards and joining heads to rows (~25% together).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

from mjcli.errors import UsageError
from mjcli.output import json_line
from mjcli.tiles import NUM_KINDS, RED_FIVES, SUITS, tile_name

if TYPE_CHECKING:
    import numpy as np

#: the fields of the JSON object of a hand, in their order: a 3n+1 hand has hand, size, shanten,
#: ukeire, tiles and remaining; a 3n+2 hand has hand, size, shanten and discards
FIELDS = ("hand", "size", "shanten", "ukeire", "tiles", "remaining", "discards")
#: the fields of one discard (besides its "tile", always there), among those asked for
DISCARD_FIELDS = ("shanten", "ukeire", "tiles", "remaining")
#: fields that need the improving tiles (the draw tables)
_ANALYSED = frozenset(("ukeire", "tiles", "remaining", "discards"))
#: bytes read at a time: a chunk is answered before the next read (a pipe gives at most 64 KB a read)
CHUNK_BYTES = 1 << 17
#: the same when the rows carry tiles or remaining (~560 bytes a row, ~40 rows a 14-tile hand): a
#: 128 KB chunk's row arrays are ~27 MB each and come fresh from the system every chunk (~50k page
#: faults, 0.15-0.2 s of system time a 100k batch); 32 KB chunks keep them small enough to be
#: reused (~14k faults): ~10% less CPU in all (bench row ``shanten - --json full``), where for the
#: narrower rows the smaller chunks cost as much as they save
WIDE_CHUNK_BYTES = 1 << 15


def parse_fields(text: str) -> tuple[str, ...]:
    """``--fields``: names from :data:`FIELDS`, separated by commas, given in any order; the
    output keeps :data:`FIELDS`' order. :class:`UsageError` for an unknown or missing name."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in FIELDS]
    if unknown or not names:
        what = f"unknown field '{unknown[0]}'" if unknown else "no field named"
        raise UsageError(f"--fields '{text}': {what} (fields: {', '.join(FIELDS)})")
    return tuple(f for f in FIELDS if f in names)


def select(obj: dict[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    """A hand's JSON object with only ``fields`` (a discard keeps its tile and the fields asked)."""
    if len(fields) == len(FIELDS):
        return obj
    out = {k: v for k, v in obj.items() if k in fields}
    if "discards" in out:
        out["discards"] = [
            {k: v for k, v in d.items() if k == "tile" or k in fields} for d in out["discards"]
        ]
    return out


def needs_analysis(fields: Sequence[str]) -> bool:
    return not _ANALYSED.isdisjoint(fields)


# ---------------------------------------------------------------- reading


#: the UTF-8 byte-order mark
BOM = b"\xef\xbb\xbf"


def chunks(stream: IO[bytes], size: int = CHUNK_BYTES) -> Any:
    """Whole lines of ``stream`` (bytes, each ending in a newline but perhaps the last), what one
    read gives at a time: a pipe's answers come as its lines come."""
    read = getattr(stream, "read1", stream.read)
    rest = b""
    first = True
    while True:
        data = read(size)
        if not data:
            break
        if first:
            # a UTF-8 byte-order mark (a hands file saved by a Windows editor) is no part of line 1
            first = False
            data = data.removeprefix(BOM)
        cut = data.rfind(b"\n")
        if cut < 0:
            rest += data
            continue
        yield rest + data[: cut + 1]
        rest = data[cut + 1 :]
    if rest:
        yield rest + b"\n"


# ---------------------------------------------------------------- vectorised text


class _Text:
    """Byte pieces to assemble: each column gives, per record, a slice (start, length) of its source."""

    def __init__(self, n: int) -> None:
        import numpy as np

        self.np = np
        self.n = n
        self.sources: list[np.ndarray] = []
        self.starts: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []
        self._size = 0

    def add(self, source: np.ndarray, starts: Any, lengths: Any) -> None:
        np = self.np
        self.sources.append(source)
        self.starts.append(np.broadcast_to(np.asarray(starts, dtype=np.int64) + self._size, (self.n,)))
        self.lengths.append(np.broadcast_to(np.asarray(lengths, dtype=np.int64), (self.n,)))
        self._size += len(source)

    def const(self, text: bytes, where: Any = True) -> None:
        """``text`` in the records where ``where`` holds (a bool or a mask)."""
        np = self.np
        self.add(np.frombuffer(text, dtype=np.uint8), 0, np.where(where, len(text), 0))

    def keyed(self, key: bytes, first: Any, where: Any) -> None:
        """``,"key":`` (no comma where ``first``) in the records where ``where`` holds."""
        np = self.np
        text = b',"' + key + b'":'
        self.add(
            np.frombuffer(text, dtype=np.uint8), np.where(first, 1, 0), np.where(where, len(text) - first, 0)
        )

    def piece(self, text: tuple[np.ndarray, np.ndarray, np.ndarray], index: Any, where: Any = True) -> None:
        """Piece ``index`` of ``text`` = (bytes, starts, lengths) in the records where ``where`` holds."""
        np = self.np
        source, starts, lengths = text
        if not len(lengths):  # no piece at all: none is asked for anywhere
            return
        self.add(source, starts[index], np.where(where, lengths[index], 0))

    def build(self) -> tuple[np.ndarray, np.ndarray]:
        """(the records' bytes one after another, each record's length)."""
        np = self.np
        if not self.sources:
            return np.zeros(0, dtype=np.uint8), np.zeros(self.n, dtype=np.int64)
        starts = np.stack(self.starts, axis=1).ravel()
        lengths = np.stack(self.lengths, axis=1)
        flat = lengths.ravel()
        used = flat > 0
        starts, flat = starts[used], flat[used]
        ends = np.cumsum(flat)
        total = int(ends[-1]) if len(ends) else 0
        # the source index of every output byte: +1 from the byte before, except at a piece's first
        # byte, which jumps to the piece's start (one cumsum; cheaper than repeat + arange)
        step = np.ones(total, dtype=np.int32 if self._size < 2**31 else np.int64)
        if total:
            jumps = starts.copy()
            jumps[1:] -= starts[:-1] + flat[:-1] - 1
            step[ends - flat] = jumps
        index = np.cumsum(step, dtype=step.dtype)
        return np.concatenate(self.sources)[index], lengths.sum(axis=1)


def _pieces(data: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bytes, starts, lengths) of pieces laid end to end."""
    import numpy as np

    return data, np.cumsum(lengths) - lengths, lengths


def _masked(template: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row, the bytes of ``template`` (a row, or one per row) where ``mask`` holds, in order."""
    import numpy as np

    data = np.broadcast_to(template, mask.shape)[mask]
    return _pieces(data, mask.sum(axis=1))


def _numbers(low: int, high: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The decimal texts of low..high as pieces (piece i is low + i)."""
    import numpy as np

    texts = [str(v).encode() for v in range(low, high + 1)]
    return _pieces(np.frombuffer(b"".join(texts), dtype=np.uint8), np.array([len(t) for t in texts]))


_NUMBER_LOW = -1
_NUMBER_HIGH = 4 * NUM_KINDS  # ukeire never exceeds every copy of every kind


def _group_layout() -> tuple[list[int], list[int]]:
    """mpsz layout of a set of kinds: per suit, a slot per kind then the suit's letter. The slots'
    kinds (-1 for a letter) and bytes."""
    kinds, chars = [], []
    for s, letter in enumerate(SUITS):
        for k in range(9 * s, min(9 * s + 9, NUM_KINDS)):
            kinds.append(k)
            chars.append(ord(tile_name(k)[0]))
        kinds.append(-1 - s)
        chars.append(ord(letter))
    return kinds, chars


# ---------------------------------------------------------------- parsing plain lines


def _parse(
    buf: np.ndarray, starts: np.ndarray, ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Of the lines ``buf[starts[i]:ends[i]]``: which are plain (see the module docstring) with 0..4
    copies of each kind and at most one red five a suit, the counts of every line and its red fives
    per suit, ``(n, 3)`` (meaningful for the plain lines only), and which plain lines are written as
    the hand's label is (:meth:`HandLines._labels`: suits in mpsz order, once each, digits ascending
    with a red five's 0 before the fives)."""
    import numpy as np

    n = len(starts)
    digit = (buf >= ord("0")) & (buf <= ord("9"))
    suit = np.full(256, -1, dtype=np.int8)
    for s, letter in enumerate(SUITS):
        suit[ord(letter)] = s
    suit_of = suit[buf]
    letter = suit_of >= 0
    newline = buf == 10
    # line index of every byte (newlines belong to the line they end); in int32: the cumsum of a
    # bool into int64 goes through a cast buffer (~7x slower)
    line = np.cumsum(newline, dtype=np.int32) - newline
    other = ~(digit | letter | newline)
    bad = np.bincount(line[other], minlength=n)[:n] > 0
    empty = ends == starts
    last = buf[np.maximum(ends - 1, 0)]
    bad |= empty | (suit[last] < 0)
    # a letter must follow a digit of its own line
    letters = np.flatnonzero(letter)
    prev = buf[np.maximum(letters - 1, 0)]
    lonely = ~((prev >= ord("0")) & (prev <= ord("9"))) | (letters == 0)
    bad[line[letters[lonely]]] = True
    # each digit takes the suit of the next letter (in its own line when the line is plain)
    digits = np.flatnonzero(digit)
    if len(letters) and len(digits):
        # the next letter of every byte: a running minimum from the end (one pass, where a binary
        # search per digit cost ~25 ms a 100k batch)
        ahead = np.where(letter, np.arange(len(buf), dtype=np.int32), len(buf) - 1)
        nxt = np.minimum.accumulate(ahead[::-1])[::-1]
        s = suit_of[nxt[digits]].astype(np.int64)
        value = buf[digits].astype(np.int64) - ord("1")
        red = value < 0  # 0m, 0p, 0s: the red five, a five of its kind; 0z does not exist
        honour_wrong = (s == 3) & ((value > 6) | red)
        bad[line[digits[honour_wrong]]] = True
        kinds = s * 9 + np.where(red, 4, value)
        ok = ~bad[line[digits]] & (kinds < NUM_KINDS)
        counts = np.bincount(line[digits[ok]] * NUM_KINDS + kinds[ok], minlength=n * NUM_KINDS)
        counts = counts[: n * NUM_KINDS].reshape(n, NUM_KINDS)
        reds = np.bincount(line[digits[ok & red]] * 3 + s[ok & red], minlength=n * 3)[: n * 3].reshape(n, 3)
    else:
        counts = np.zeros((n, NUM_KINDS), dtype=np.int64)
        reds = np.zeros((n, 3), dtype=np.int64)
    bad |= (counts > 4).any(axis=1) | (reds > 1).any(axis=1)  # one red five a suit exists
    # written as its label: each digit ranks at least as the one before it in its run (0 between 4
    # and 5), each letter comes after the one before it in its line
    rank = np.zeros(256, dtype=np.int8)
    rank[ord("1") : ord("9") + 1] = np.arange(2, 20, 2)
    rank[ord("0")] = 9
    follows = np.flatnonzero(digit[1:] & digit[:-1]) + 1
    unsorted = follows[rank[buf[follows]] < rank[buf[follows - 1]]]
    pairs = np.flatnonzero(line[letters[1:]] == line[letters[:-1]])
    out_of_order = letters[pairs + 1][suit_of[letters[pairs + 1]] <= suit_of[letters[pairs]]]
    as_label = ~bad
    as_label[line[unsorted]] = False
    as_label[line[out_of_order]] = False
    return ~bad, counts, reds, as_label


# ---------------------------------------------------------------- one chunk


class HandLines:
    """The JSON answers to lines of hands, chunk by chunk (see the module docstring).

    ``one_line(text, number)`` reads a line that is not plain, as the command reads one hand: the
    hand (a :class:`~mjcli.riichi.hand_report.TypedHand`, then analysed here with the plain ones), or
    its answer as (JSON text, empty for a blank line; whether the line was bad).
    """

    def __init__(
        self,
        seen: Sequence[int],
        fields: Sequence[str],
        one_line: Callable[[str, int], Any],
        sanma: bool = False,
        seen_reds: Sequence[int] = (),
    ) -> None:
        import numpy as np

        self.np = np
        self.seen = np.array(seen, dtype=np.int64)
        #: per suit, whether --seen holds its red five (a line holding it too is read one by one,
        #: where it is refused)
        self.seen_reds = np.array([r in seen_reds for r in RED_FIVES])
        self.fields = tuple(fields)
        self.one_line = one_line
        self.sanma = sanma  # the numpy draw tables know the four-player tile set only: one by one
        self.numbers = _numbers(_NUMBER_LOW, _NUMBER_HIGH)
        kinds, chars = _group_layout()
        self.slot_kinds = np.array(kinds)
        self.slot_chars = np.array(chars, dtype=np.uint8)
        # "remaining": per kind an 8-byte slot: the comma before it, then "1m":N (N filled per row),
        # then a byte never selected, so that a row's slots are 34 whole words (see _blocks)
        rem = np.zeros((NUM_KINDS, 8), dtype=np.uint8)
        for k in range(NUM_KINDS):
            rem[k, :7] = np.frombuffer(b',"' + tile_name(k).encode() + b'":0', dtype=np.uint8)
        self.remaining_template = rem
        self.names2 = np.frombuffer(
            b"".join(tile_name(k).encode() for k in range(NUM_KINDS)), dtype=np.uint8
        ).reshape(NUM_KINDS, 2)
        self.encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
        self.errors = getattr(sys.stdin, "errors", None) or "strict"
        self.out_encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        self.out_errors = getattr(sys.stdout, "errors", None) or "strict"
        self.bad = 0
        self.entries = 0
        wide = "tiles" in self.fields or "remaining" in self.fields
        #: bytes to read at a time for these fields (see WIDE_CHUNK_BYTES)
        self.chunk_bytes = WIDE_CHUNK_BYTES if wide else CHUNK_BYTES

    def answer(self, chunk: bytes, first_line: int) -> bytes:
        """The JSON lines of the lines in ``chunk`` (whole lines), the first being line ``first_line``."""
        np = self.np
        if not chunk.endswith(b"\n"):
            chunk += b"\n"
        buf = np.frombuffer(chunk, dtype=np.uint8)
        ends = np.flatnonzero(buf == 10)
        starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
        plain, counts, reds, as_label = _parse(buf, starts, ends)
        sizes = counts.sum(axis=1)
        legal = np.zeros(64, dtype=bool)
        legal[[1, 2, 4, 5, 7, 8, 10, 11, 13, 14]] = True
        plain &= legal[np.minimum(sizes, 63)]
        if self.seen.any():
            plain &= ((counts + self.seen) <= 4).all(axis=1)
        if self.seen_reds.any():
            plain &= ~((reds > 0) & self.seen_reds).any(axis=1)
        if self.sanma:
            plain[:] = False
        as_label &= plain  # a line read one by one below is not: its label is made
        # lines that are not plain: read one by one, as the command reads one hand; a hand read so
        # (spaces, mjai letters...) joins the plain ones, the rest is answered as one_line says
        texts = []
        kept = []
        for i in np.flatnonzero(~plain).tolist():
            got = self.one_line(chunk[starts[i] : ends[i]].decode(self.encoding, self.errors), first_line + i)
            if isinstance(got, tuple):
                text, bad = got
                self.bad += bad
                self.entries += bool(text)
                texts.append(text.encode(self.out_encoding, self.out_errors))
                kept.append(i)
            else:
                counts[i] = got.counts
                reds[i] = [got.tiles.count(r) for r in RED_FIVES]
                plain[i] = True
        sizes = counts.sum(axis=1)
        others = np.array(kept, dtype=np.int64)
        n = len(starts)
        other_bytes = _pieces(
            np.frombuffer(b"".join(texts), dtype=np.uint8), np.array([len(t) for t in texts], dtype=np.int64)
        )
        which = np.full(n, -1)
        which[others] = np.arange(len(others))
        self.entries += int(plain.sum())
        # Each record (line) is head + block + tail: the block is a plain hand's analysis (a 3n+1
        # hand's ukeire, tiles and remaining, or a 3n+2 hand's discards), made for all hands at
        # once in one masked selection; heads and tails (a few dozen bytes) are inserted around it.
        head = _Text(n)
        head.piece(other_bytes, np.maximum(which, 0), ~plain)
        blocks, block_lengths, tail_lengths = self._plain(
            head, plain, counts[plain], sizes[plain], reds[plain], (buf, starts, ends - starts, as_label)
        )
        heads, record_lengths = head.build()
        # heads and tails alternate with blocks: a tail and the next head are one run of ``heads``,
        # so the answer is runs of heads cut where a block goes, joined with the blocks. A join of
        # two slices per line with a block is about 1 us a line; inserting the heads' bytes into
        # the blocks in numpy (an index per byte and a mask of the whole answer) cost 3 us a line
        # of the full output (bench row ``shanten - full --json``).
        with_block = np.flatnonzero(block_lengths)
        cuts = (np.cumsum(record_lengths) - tail_lengths)[with_block].tolist()
        block_ends = np.cumsum(block_lengths)[with_block].tolist()
        head_view, block_view = memoryview(heads), memoryview(blocks)
        parts = []
        cut_before = block_start = 0
        for cut, block_end in zip(cuts, block_ends, strict=True):
            parts += (head_view[cut_before:cut], block_view[block_start:block_end])
            cut_before, block_start = cut, block_end
        parts.append(head_view[cut_before:])
        return b"".join(parts)

    def _plain(
        self, head: _Text, plain: Any, counts: Any, sizes: Any, reds: Any, lines: tuple[Any, Any, Any, Any]
    ) -> tuple[Any, Any, Any]:
        """The heads and tails of the plain lines' objects (columns of ``head``, zero length in the
        other records), and their blocks: (block bytes, block length per record, tail length per
        record). ``lines``: the chunk's bytes, each line's start and length, and which lines are
        written as their label."""
        np = self.np
        from mjcli.analysis.shanten_calc import shanten_rows

        n = len(plain)
        count = len(counts)
        nothing = np.zeros(n, dtype=np.int64)
        if not count:
            return np.zeros(0, dtype=np.uint8), nothing, nothing
        fields = self.fields
        at = np.maximum(np.cumsum(plain) - 1, 0)  # a record's row among the plain hands
        counts = counts.astype(np.uint8)
        shanten = shanten_rows(counts)
        plus2 = sizes % 3 == 2
        num = self.numbers
        lo = -_NUMBER_LOW

        def on(mask_of_hands: Any) -> Any:  # a mask of the plain hands as a mask of the records
            out = np.zeros(n, dtype=bool)
            out[plain] = mask_of_hands
            return out

        every = on(np.ones(count, dtype=bool))
        two_more = on(plus2)
        leading = next((f for f in ("hand", "size", "shanten") if f in fields), None)
        head.const(b"{", every)
        if "hand" in fields:
            head.keyed(b"hand", leading == "hand", every)
            head.const(b'"', every)
            # a line written as its label is its own label (a slice of the chunk); only the others'
            # labels are made (making all cost ~0.19 s of CPU a 100k batch of sorted lines; every
            # bench row ``shanten - --json``, whose random lines are sorted)
            chunk, starts, lengths, as_label = lines
            head.add(chunk, starts, np.where(as_label, lengths, 0))
            made = plain & ~as_label
            if made.any():
                among = np.maximum(np.cumsum(made) - 1, 0)  # a record's row among the labels made
                head.piece(self._labels(counts[~as_label[plain]], reds[~as_label[plain]]), among, made)
            head.const(b'"', every)
        if "size" in fields:
            head.keyed(b"size", leading == "size", every)
            head.piece(num, sizes[at] + lo, every)
        if "shanten" in fields:
            head.keyed(b"shanten", leading == "shanten", every)
            head.piece(num, shanten[at].astype(np.int64) + lo, every)
        with_discards = two_more if "discards" in fields else np.zeros(n, dtype=bool)
        if "discards" in fields:
            head.keyed(b"discards", leading is None, with_discards)
            head.const(b"[", with_discards)
        head.const(b"]", with_discards)
        head.const(b"}\n", every)
        tail_lengths = np.where(with_discards, 3, np.where(every, 2, 0))
        blocks, per_hand = self._blocks(counts, plus2, leading is not None, reds)
        block_lengths = np.where(every, per_hand[at], 0)
        return blocks, block_lengths, tail_lengths

    def _labels(self, counts: Any, reds: Any) -> tuple[Any, Any, Any]:
        """Each hand in sorted mpsz: per kind up to four copies of its digit (a red five's 0 before
        the plain fives of its suit), a letter per suit held."""
        np = self.np
        kinds = self.slot_kinds
        # slots: per suit, 4 slots per kind (5 for a five: the red one first), then the letter
        fives = (kinds >= 0) & (kinds % 9 == 4) & (kinds < 27)
        per = np.where(kinds >= 0, 4, 1) + fives
        slot_kind = np.repeat(kinds, per)
        slot_copy = np.concatenate(
            [
                np.arange(-1, 4) if f else np.arange(4) if k >= 0 else [0]
                for k, f in zip(kinds, fives, strict=True)
            ]
        )
        slot_char = np.repeat(self.slot_chars, per)
        slot_char[slot_copy == -1] = ord("0")
        suit_held = np.stack([counts[:, 9 * s : 9 * s + 9].sum(axis=1) > 0 for s in range(4)], axis=1)
        # plain copies of each kind: a red five is one of its kind's count
        plain_counts = counts.astype(np.int16)
        plain_counts[:, [4, 13, 22]] -= reds.astype(np.int16)
        red_of_slot = reds[:, np.clip(slot_kind // 9, 0, 2)] > 0
        digit_mask = np.where(
            slot_copy < 0, red_of_slot, plain_counts[:, np.maximum(slot_kind, 0)] > slot_copy
        )
        letter_mask = suit_held[:, np.maximum(-1 - slot_kind, 0)]
        mask = np.where(slot_kind >= 0, digit_mask, letter_mask)
        return _masked(slot_char, mask)

    def _blocks(self, counts: Any, plus2: Any, after_head: bool, reds: Any) -> tuple[Any, Any]:
        """Per plain hand, the text of its analysis: a 3n+1 hand's ukeire, tiles and remaining (the
        fields asked; ``after_head``: a field of the head comes before them), a 3n+2 hand's discards,
        best first, joined by commas. (bytes of all, length per hand.)

        One row per 3n+1 hand and per distinct discard of a 3n+2 hand; a row's text is cut from a
        fixed-width byte template (every kind's ``,"1m":N`` of "remaining", every kind's digit and
        every suit's letter of "tiles", digits of the numbers) by a mask, and the masked bytes of all
        rows, in order, are the blocks: one selection for the whole chunk."""
        np = self.np
        from mjcli.analysis.shanten_calc import improving_after_draws_rows

        fields = self.fields
        row_fields = [f for f in DISCARD_FIELDS if f in fields and f != "shanten"]
        count = len(counts)
        hands13 = np.flatnonzero(~plus2) if row_fields else np.zeros(0, dtype=np.int64)
        hands14 = np.flatnonzero(plus2) if "discards" in fields else np.zeros(0, dtype=np.int64)
        hi, ki = np.nonzero(counts[hands14] > 0)
        owner14 = hands14[hi]
        left14 = counts[owner14]
        left14[np.arange(len(owner14)), ki] -= 1
        table = np.concatenate([counts[hands13], left14])
        if not len(table):
            return np.zeros(0, dtype=np.uint8), np.zeros(count, dtype=np.int64)
        owner = np.concatenate([hands13, owner14])
        kind = np.concatenate([np.full(len(hands13), -1), ki])
        # without tiles or remaining a row needs only its ukeire, a sum over the kinds: the improving
        # kinds stay kind by kind, as they are computed, and the copies left are gathered so too (no
        # transpose of the 654k x 34 table, nor gather of rows of kinds: ~0.1 s of CPU a 100k
        # batch, bench row ``shanten - --json --fields hand,size,shanten,ukeire,discards``)
        by_row = "tiles" in fields or "remaining" in fields
        current, improving = improving_after_draws_rows(table, kinds_first=not by_row)
        # copies left of each kind: the hand's own, the same for every row of the hand
        left_of_hand = np.maximum(0, 4 - counts.astype(np.int16) - self.seen.astype(np.int16)).astype(
            np.uint8
        )
        if by_row:
            counted = left_of_hand[owner]
            counted *= improving
            total = counted.sum(axis=1, dtype=np.uint16).astype(np.int64)
        else:
            counted = np.take(np.ascontiguousarray(left_of_hand.T), owner, axis=1)  # [:, owner]: 4x the time
            counted *= improving
            total = counted.sum(axis=0, dtype=np.uint16).astype(np.int64)
        # a hand's rows together, in hand order; discards as discard_table ranks them (shanten, then
        # ukeire, most first, then kind): one argsort of a packed key, unique per row (a hand's kinds
        # differ), so it is the order of the lexsort by those columns at a third of its cost
        key = owner << 18 | (current.astype(np.int64) + 1) << 14 | (255 - total) << 6 | (kind + 1)
        order = np.argsort(key)
        owner, kind, current, total = owner[order], kind[order], current[order], total[order]
        if by_row:
            improving, left = improving[order], left_of_hand[owner]
        rows = len(order)
        discard = kind >= 0
        first = np.ones(rows, dtype=bool)
        first[1:] = owner[1:] != owner[:-1]

        layout = _RowLayout(fields, self)
        text = np.empty((rows, layout.width), dtype=np.uint8)
        text[:] = layout.template
        # the parts every row of its kind has: one gather of rows from the two template rows (a
        # write by column index of the discard-only columns cost ~0.1 s more a 100k batch, np.where
        # of the two rows ~0.3 s more, bench row ``shanten - --json full``); then the parts that vary
        mask = layout.rows[discard.view(np.uint8)]
        mask[:, layout.sep] = discard & ~first
        text[:, layout.name : layout.name + 2] = self.names2[np.maximum(kind, 0)]
        # a five the hand holds only as its red one is discarded as the red one (0m, 0p, 0s)
        five = (kind >= 0) & (kind < 27) & (kind % 9 == 4)
        red_only = (
            five & (counts[owner, np.maximum(kind, 0)] == 1) & (reds[owner, np.clip(kind // 9, 0, 2)] > 0)
        )
        text[red_only, layout.name] = ord("0")
        if layout.shanten is not None:
            sign, digit = layout.shanten
            mask[:, sign] = discard & (current < 0)
            text[:, digit] = ord("0") + np.abs(current)
        for comma in layout.leading_commas:  # the first field of a 3n+1 hand's row, after no head field
            mask[:, comma] = discard | after_head
        if layout.ukeire is not None:
            hundreds, tens, ones = layout.ukeire
            mask[:, hundreds] = total >= 100
            mask[:, tens] = total >= 10
            text[:, hundreds] = ord("0") + total // 100
            text[:, tens] = ord("0") + total // 10 % 10
            text[:, ones] = ord("0") + total % 10
        if layout.tiles is not None:
            # per suit its kinds' slots, then its letter (see _group_layout): slices of `improving`
            # copied as they are, no gather by slot; a suit's letter where one of its kinds is, read
            # from the row's 34 bits as one integer (packbits, one pass) instead of an `any` per
            # suit. About half the time of the gather by slot (0.27 s of CPU a 100k batch at load 2.5;
            # 0.11-0.13 s now at load 11-14; bench row ``shanten - --json full``)
            bits = np.zeros((rows, 8), dtype=np.uint8)
            bits[:, :5] = np.packbits(improving, axis=1, bitorder="little")
            bits = bits.view("<u8")[:, 0]
            at = layout.tiles
            for start in range(0, NUM_KINDS, 9):
                group = improving[:, start : start + 9]
                width = group.shape[1]
                mask[:, at : at + width] = group
                mask[:, at + width] = (bits >> np.uint64(start)) & np.uint64((1 << width) - 1) != 0
                at += width + 1
        if layout.remaining is not None:
            # a kind's slot is ,"1m":N and an unused eighth byte: the digits through a (rows, kind,
            # byte) view, a strided write; the mask as one little-endian word per kind and row, the
            # kind's improving bit times 0x0001010101010101 (bytes 0-6). Byte by byte the mask cost
            # ~0.25 s a 100k batch, ~0.1 s as a repeated array; the digits as words (a uint64 copy
            # of the counts, shifted) 3x the strided write (bench row ``shanten - --json full``)
            base = layout.remaining
            slots = text[:, base : base + 8 * NUM_KINDS].reshape(rows, NUM_KINDS, 8)
            np.add(left, ord("0"), out=slots[:, :, 6])
            words = slice(base // 8, base // 8 + NUM_KINDS)
            seven_bytes = np.uint64(0x0001010101010101)
            np.multiply(improving.view(np.uint8), seven_bytes, out=mask.view("<u8")[:, words])
            first_kind = np.argmax(improving, axis=1)
            mask[np.arange(rows), base + 8 * first_kind] = False  # no comma before the first
        data = text[mask]
        # bytes selected per row: a sum of bytes (0 or 1) in uint16; count_nonzero by row casts every
        # byte to intp first (about twice the time: ~0.06 s more a 100k batch, bench row
        # ``shanten - --json full``)
        lengths = np.add.reduce(mask.view(np.uint8), axis=1, dtype=np.uint16)
        per_hand = np.bincount(owner, weights=lengths, minlength=count).astype(np.int64)
        return data, per_hand


class _RowLayout:
    """The byte template of an analysis row (see :meth:`HandLines._blocks`) for the fields asked:
    columns of each part and which are always, or only in a discard's row, selected."""

    def __init__(self, fields: Sequence[str], lines: HandLines) -> None:
        import numpy as np

        parts: list[bytes] = []
        always: list[int] = []
        discard_only: list[int] = []
        self.leading_commas: list[int] = []
        self.shanten = self.ukeire = self.tiles = self.remaining = None
        width = 0

        def put(text: bytes, where: list[int] | None) -> int:
            nonlocal width
            at = width
            parts.append(text)
            if where is not None:
                where.extend(range(at, at + len(text)))
            width += len(text)
            return at

        self.sep = put(b",", None)
        put(b'{"tile":"', discard_only)
        self.name = put(b"??", discard_only)
        put(b'"', discard_only)
        if "shanten" in fields:
            put(b',"shanten":', discard_only)
            sign = put(b"-", None)
            self.shanten = (sign, put(b"0", discard_only))
        first_row_field = True
        for field in ("ukeire", "tiles", "remaining"):
            if field not in fields:
                continue
            key = b',"' + field.encode() + b'":'
            at = put(key, always)
            if first_row_field:  # its comma: not in a 3n+1 hand's row that no head field precedes
                always.remove(at)
                self.leading_commas.append(at)
                first_row_field = False
            if field == "ukeire":
                self.ukeire = (put(b"0", None), put(b"0", None), put(b"0", always))
            elif field == "tiles":
                put(b'"', always)
                self.tiles = put(lines.slot_chars.tobytes(), None)
                put(b'"', always)
            else:
                put(b"{", always)
                put(bytes(-width % 8), None)  # the slots start on a word
                self.remaining = put(lines.remaining_template.tobytes(), None)
                put(b"}", always)
        put(b"}", discard_only)
        put(bytes(-width % 8), None)  # rows of whole words
        self.width = width
        self.template = np.frombuffer(b"".join(parts), dtype=np.uint8)
        #: the columns selected in every 3n+1 hand's row, and in every discard's row
        self.hand_row = np.zeros(width, dtype=bool)
        self.hand_row[always] = True
        self.discard_row = self.hand_row.copy()
        self.discard_row[discard_only] = True
        #: the two, a 3n+1 hand's row first
        self.rows = np.stack([self.hand_row, self.discard_row])


def write_answers(
    stream: IO[bytes], out: IO[bytes], lines: HandLines, flush: Callable[[], None] = lambda: None
) -> None:
    """Answer every chunk of ``stream`` on ``out`` as it comes."""
    number = 1
    for chunk in chunks(stream, lines.chunk_bytes):
        out.write(lines.answer(chunk, number))
        out.flush()
        number += chunk.count(b"\n")
    flush()


def dumps(obj: object) -> str:
    """One JSON line, as :func:`mjcli.output.emit_json` writes it."""
    return json_line(obj)
