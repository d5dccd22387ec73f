"""``mjcli shanten - --json``: lines of hands in, one JSON object per line out, a chunk at a time in numpy.

The answers are those of :mod:`mjcli.riichi.hand_report` (``analyse`` and ``HandResult.to_json``),
byte for byte; only the way they are made differs. A chunk of standard input (what one read gives,
at most :data:`CHUNK_BYTES`) is read as bytes and split in two:

* plain lines (``[1-9]`` digits and ``m p s z`` letters only, digits before each letter, 1z-7z) are
  parsed together: every byte's suit is the next letter's, and the counts of all lines come from one
  ``bincount``. Their shanten, and for each 3n+1 hand or each discard of a 3n+2 hand the shanten
  after every draw, are numpy batches (:func:`mjcli.analysis.draw_table_batch`), and the JSON text
  itself is cut from fixed-width byte templates with a mask (a tile's ``"1m":3`` is selected or not)
  and assembled with one gather: no Python object per hand or per tile;
* any other line (red fives, spaces, mjai letters, a bad line, ``--sanma``) goes through the
  reading and analysis of one hand in Python, exactly as before.

Both kinds of line are written in input order. A chunk is answered before the next is read, so a
pipe from a slow generator gets its answers as it goes. The 100k-hand batch went from about 46 s
to a few seconds of CPU this way (``benchmarks/bench_speed.py``, row ``shanten - full --json``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

from mjcli.errors import UsageError
from mjcli.tiles import NUM_KINDS, SUITS, tile_name

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


def chunks(stream: IO[bytes], size: int = CHUNK_BYTES) -> Any:
    """Whole lines of ``stream`` (bytes, each ending in a newline but perhaps the last), what one
    read gives at a time: a pipe's answers come as its lines come."""
    read = getattr(stream, "read1", stream.read)
    rest = b""
    while True:
        data = read(size)
        if not data:
            break
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


def _parse(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of the lines ``buf[starts[i]:ends[i]]``: which are plain (see the module docstring) with 0..4
    copies of each kind, and the counts of every line (meaningful for those only)."""
    import numpy as np

    n = len(starts)
    digit = (buf >= ord("1")) & (buf <= ord("9"))
    suit = np.full(256, -1, dtype=np.int8)
    for s, letter in enumerate(SUITS):
        suit[ord(letter)] = s
    suit_of = suit[buf]
    letter = suit_of >= 0
    newline = buf == 10
    # line index of every byte (newlines belong to the line they end)
    line = np.cumsum(newline) - newline
    other = ~(digit | letter | newline)
    bad = np.bincount(line[other], minlength=n)[:n] > 0
    empty = ends == starts
    last = buf[np.maximum(ends - 1, 0)]
    bad |= empty | (suit[last] < 0)
    # a letter must follow a digit of its own line
    letters = np.flatnonzero(letter)
    prev = buf[np.maximum(letters - 1, 0)]
    lonely = ~((prev >= ord("1")) & (prev <= ord("9"))) | (letters == 0)
    bad[line[letters[lonely]]] = True
    # each digit takes the suit of the next letter (in its own line when the line is plain)
    digits = np.flatnonzero(digit)
    if len(letters) and len(digits):
        nxt = np.minimum(np.searchsorted(letters, digits), len(letters) - 1)
        s = suit_of[letters[nxt]].astype(np.int64)
        value = buf[digits].astype(np.int64) - ord("1")
        honour_too_high = (s == 3) & (value > 6)
        bad[line[digits[honour_too_high]]] = True
        kinds = s * 9 + value
        ok = ~bad[line[digits]] & (kinds < NUM_KINDS)
        counts = np.bincount(line[digits[ok]] * NUM_KINDS + kinds[ok], minlength=n * NUM_KINDS)
        counts = counts[: n * NUM_KINDS].reshape(n, NUM_KINDS)
    else:
        counts = np.zeros((n, NUM_KINDS), dtype=np.int64)
    bad |= (counts > 4).any(axis=1)
    return ~bad, counts


# ---------------------------------------------------------------- one chunk


class HandLines:
    """The JSON answers to lines of hands, chunk by chunk (see the module docstring).

    ``one_line(text, number)`` answers a line that is not plain: the bytes of its JSON line(s)
    (empty for a blank line), and whether the line was bad; it is the command's reading of one hand.
    """

    def __init__(
        self,
        seen: Sequence[int],
        fields: Sequence[str],
        one_line: Callable[[str, int], tuple[str, bool]],
        sanma: bool = False,
    ) -> None:
        import numpy as np

        self.np = np
        self.seen = np.array(seen, dtype=np.int64)
        self.fields = tuple(fields)
        self.one_line = one_line
        self.sanma = sanma  # the numpy draw tables know the four-player tile set only: one by one
        self.numbers = _numbers(_NUMBER_LOW, _NUMBER_HIGH)
        kinds, chars = _group_layout()
        self.slot_kinds = np.array(kinds)
        self.slot_chars = np.array(chars, dtype=np.uint8)
        # "remaining": per kind 7 bytes: the comma before it, then "1m":N (N filled per row)
        rem = np.zeros((NUM_KINDS, 7), dtype=np.uint8)
        for k in range(NUM_KINDS):
            rem[k] = np.frombuffer(b',"' + tile_name(k).encode() + b'":0', dtype=np.uint8)
        self.remaining_template = rem
        self.names = np.frombuffer(b"".join(tile_name(k).encode() for k in range(NUM_KINDS)), dtype=np.uint8)
        self.encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
        self.errors = getattr(sys.stdin, "errors", None) or "strict"
        self.out_encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        self.out_errors = getattr(sys.stdout, "errors", None) or "strict"
        self.bad = 0
        self.entries = 0

    def answer(self, chunk: bytes, first_line: int) -> bytes:
        """The JSON lines of the lines in ``chunk`` (whole lines), the first being line ``first_line``."""
        np = self.np
        if not chunk.endswith(b"\n"):
            chunk += b"\n"
        buf = np.frombuffer(chunk, dtype=np.uint8)
        ends = np.flatnonzero(buf == 10)
        starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
        plain, counts = _parse(buf, starts, ends)
        sizes = counts.sum(axis=1)
        legal = np.zeros(64, dtype=bool)
        legal[[1, 2, 4, 5, 7, 8, 10, 11, 13, 14]] = True
        plain &= legal[np.minimum(sizes, 63)]
        if self.seen.any():
            plain &= ((counts + self.seen) <= 4).all(axis=1)
        if self.sanma:
            plain[:] = False
        # lines that are not plain: one by one, as the command reads one hand
        others = np.flatnonzero(~plain)
        texts = []
        for i in others.tolist():
            text, bad = self.one_line(
                chunk[starts[i] : ends[i]].decode(self.encoding, self.errors), first_line + i
            )
            self.bad += bad
            self.entries += bool(text)
            texts.append(text.encode(self.out_encoding, self.out_errors))
        n = len(starts)
        other_bytes = _pieces(
            np.frombuffer(b"".join(texts), dtype=np.uint8), np.array([len(t) for t in texts], dtype=np.int64)
        )
        which = np.full(n, -1)
        which[others] = np.arange(len(others))
        self.entries += int(plain.sum())
        text = _Text(n)
        text.piece(other_bytes, np.maximum(which, 0), ~plain)
        self._plain(text, buf, starts, ends, plain, counts[plain], sizes[plain])
        data, _ = text.build()
        return data.tobytes()

    def _plain(
        self, text: _Text, buf: Any, starts: Any, ends: Any, plain: Any, counts: Any, sizes: Any
    ) -> None:
        """The columns of the plain lines' objects (zero length in the other records)."""
        np = self.np
        from mjcli.analysis.shanten_calc import shanten_rows

        count = len(counts)
        if not count:
            return
        n = len(plain)
        fields = self.fields
        at = np.maximum(np.cumsum(plain) - 1, 0)  # a record's row among the plain hands
        counts = counts.astype(np.uint8)
        shanten = shanten_rows(counts)
        plus2 = sizes % 3 == 2
        hand_label = self._labels(counts)
        num = self.numbers
        lo = -_NUMBER_LOW

        def on(mask_of_hands: Any) -> Any:  # a mask of the plain hands as a mask of the records
            out = np.zeros(n, dtype=bool)
            out[plain] = mask_of_hands
            return out

        every = on(np.ones(count, dtype=bool))
        one_more = on(~plus2)
        two_more = on(plus2)
        # which field comes first in each kind of object: no comma before it
        first_plus1 = next((f for f in FIELDS if f in fields and f != "discards"), None)
        first_plus2 = next(
            (f for f in FIELDS if f in fields and f in ("hand", "size", "shanten", "discards")), None
        )

        def first(field: str) -> Any:
            return np.where(two_more, first_plus2 == field, first_plus1 == field)

        text.const(b"{", every)
        if "hand" in fields:
            text.keyed(b"hand", first("hand"), every)
            text.const(b'"', every)
            text.piece(hand_label, at, every)
            text.const(b'"', every)
        if "size" in fields:
            text.keyed(b"size", first("size"), every)
            text.piece(num, sizes[at] + lo, every)
        if "shanten" in fields:
            text.keyed(b"shanten", first("shanten"), every)
            text.piece(num, shanten[at].astype(np.int64) + lo, every)
        if needs_analysis(fields):
            rows = self._rows(counts, plus2)
            # the 3n+1 hands' own row
            own = np.full(count, 0, dtype=np.int64)
            own[~plus2] = rows["row_of_hand"]
            row_at = own[at]
            for field in ("ukeire", "tiles", "remaining"):
                if field not in fields:
                    continue
                text.keyed(field.encode(), first(field), one_more)
                self._row_value(text, field, rows, row_at, one_more)
            if "discards" in fields:
                text.keyed(b"discards", first("discards"), two_more)
                text.const(b"[", two_more)
                discards = self._discards(rows, count)
                text.piece(discards, at, two_more)
                text.const(b"]", two_more)
        text.const(b"}\n", every)

    def _row_value(self, text: _Text, field: str, rows: dict[str, Any], index: Any, where: Any) -> None:
        if field == "ukeire":
            text.piece(self.numbers, rows["total"][index] - _NUMBER_LOW, where)
        elif field == "tiles":
            text.const(b'"', where)
            text.piece(rows["tiles"], index, where)
            text.const(b'"', where)
        else:
            text.const(b"{", where)
            text.piece(rows["remaining"], index, where)
            text.const(b"}", where)

    def _labels(self, counts: Any) -> tuple[Any, Any, Any]:
        """Each hand in sorted mpsz: per kind up to four copies of its digit, a letter per suit held."""
        np = self.np
        kinds = self.slot_kinds
        # slots: per suit, 4 slots per kind, then the letter
        slot_kind = np.repeat(kinds, np.where(kinds >= 0, 4, 1))
        slot_copy = np.concatenate([np.arange(4) if k >= 0 else [0] for k in kinds])
        slot_char = np.repeat(self.slot_chars, np.where(kinds >= 0, 4, 1))
        suit_held = np.stack([counts[:, 9 * s : 9 * s + 9].sum(axis=1) > 0 for s in range(4)], axis=1)
        digit_mask = counts[:, np.maximum(slot_kind, 0)] > slot_copy
        letter_mask = suit_held[:, np.maximum(-1 - slot_kind, 0)]
        mask = np.where(slot_kind >= 0, digit_mask, letter_mask)
        return _masked(slot_char, mask)

    def _rows(self, counts: Any, plus2: Any) -> dict[str, Any]:
        """The analysis rows: one per 3n+1 hand, one per distinct discard of a 3n+2 hand."""
        np = self.np
        from mjcli.analysis import draw_table_batch

        hands13 = np.flatnonzero(~plus2)
        hi, ki = np.nonzero(counts[plus2] > 0)
        hands14 = np.flatnonzero(plus2)[hi]
        left14 = counts[hands14].copy()
        left14[np.arange(len(hands14)), ki] -= 1
        table = np.concatenate([counts[hands13], left14])
        owner = np.concatenate([hands13, hands14])
        discard = np.concatenate([np.full(len(hands13), -1), ki])
        current, after = draw_table_batch(table)
        improving = after < current[:, None]
        left = np.maximum(0, 4 - counts[owner].astype(np.int64) - self.seen)
        total = np.where(improving, left, 0).sum(axis=1)
        kinds = self.slot_kinds
        slot = np.maximum(kinds, 0)
        suit_any = np.stack(
            [improving[:, 9 * s : min(9 * s + 9, NUM_KINDS)].any(axis=1) for s in range(4)], axis=1
        )
        tiles_mask = np.where(kinds >= 0, improving[:, slot], suit_any[:, np.maximum(-1 - kinds, 0)])
        rem = np.broadcast_to(self.remaining_template, (len(table), NUM_KINDS, 7)).copy()
        rem[:, :, 6] += left.astype(np.uint8)
        rem_mask = np.repeat(improving, 7, axis=1).reshape(len(table), NUM_KINDS, 7)
        # no comma before the first improving kind
        firsts = np.argmax(improving, axis=1)
        rem_mask[np.arange(len(table)), firsts, 0] = False
        row_of_hand = np.arange(len(hands13))
        return {
            "owner": owner,
            "discard": discard,
            "shanten": current.astype(np.int64),
            "total": total,
            "tiles": _masked(self.slot_chars, tiles_mask),
            "remaining": _masked(rem.reshape(len(table), -1), rem_mask.reshape(len(table), -1)),
            "row_of_hand": row_of_hand,
            "first14": len(hands13),
        }

    def _discards(self, rows: dict[str, Any], count: int) -> tuple[Any, Any, Any]:
        """Per hand, its discards' objects joined with commas (empty for a 3n+1 hand), best first."""
        np = self.np
        start = rows["first14"]
        owner = rows["owner"][start:]
        kind = rows["discard"][start:]
        shanten = rows["shanten"][start:]
        total = rows["total"][start:]
        order = np.lexsort((kind, -total, shanten, owner)) + start
        d = len(order)
        text = _Text(d)
        owners = rows["owner"][order]
        first_of_hand = np.ones(d, dtype=bool)
        first_of_hand[1:] = owners[1:] != owners[:-1]
        text.const(b",", ~first_of_hand)
        text.const(b'{"tile":"')
        text.piece(_pieces(self.names, np.full(NUM_KINDS, 2)), rows["discard"][order])
        text.const(b'"')
        for field in DISCARD_FIELDS:
            if field not in self.fields:
                continue
            text.keyed(field.encode(), False, True)
            if field == "shanten":
                text.piece(self.numbers, rows["shanten"][order] - _NUMBER_LOW)
            else:
                self._row_value(text, field, rows, order, True)
        text.const(b"}")
        data, lengths = text.build()
        per_hand = np.bincount(owners, weights=lengths, minlength=count).astype(np.int64)
        return _pieces(data, per_hand)


def write_answers(
    stream: IO[bytes], out: IO[bytes], lines: HandLines, flush: Callable[[], None] = lambda: None
) -> None:
    """Answer every chunk of ``stream`` on ``out`` as it comes."""
    number = 1
    for chunk in chunks(stream):
        out.write(lines.answer(chunk, number))
        out.flush()
        number += chunk.count(b"\n")
    flush()


def dumps(obj: object) -> str:
    """One JSON line, as :func:`mjcli.output.emit_json` writes it."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
