"""Shanten lookup tables: how they are generated, stored and loaded.

The approach is the one of tomohxx's and Cryolite's calculators. A hand splits into four groups that
never share a meld: the three suits (9 kinds each, sequences allowed) and the honours (7 kinds,
triplets and pairs only). For one group with counts ``h`` and for ``m`` melds (0..4) and ``p`` pairs
(0..1), the *distance* ``d(h, m, p)`` is the least number of tiles that must be added to ``h`` so that
it contains ``m`` melds and ``p`` pairs, never using a fifth copy of a kind. A whole hand of ``3n+1``
or ``3n+2`` tiles needs ``n`` melds and one pair, so its regular shanten is
``min over splits (sum of group distances) - 1``; the minimum over splits is a min-plus convolution
of the groups' distance rows.

Storage. A group's counts are coded in base 5 (``code = sum(count[i] * 5**i)``), so the suit table
has ``5**9`` entries and the honour table ``5**7``. Only a few hundred different distance rows exist,
so each code stores a small row id and the rows are kept once (``rows``). The rows are closed under
min-plus convolution: ``combine[a, b]`` is the id of the row of two groups together, so the shanten of
a whole hand is four code lookups and three ``combine`` lookups, in pure Python and in numpy alike.

The shipped file ``data/shanten_tables.bin`` is a header and the four tables as bytes, zlib-compressed
(about 90 KB; row ids and ``combine`` fit a byte each). :func:`load_raw` reads it with no numpy, for
the single-hand path of a quick command (about 7 ms instead of the 120 ms of importing numpy);
:func:`load` gives the numpy arrays of the batch path. ``python -m mjcli.analysis.tables``
regenerates the file; a test does the same in memory and compares.
"""

from __future__ import annotations

import contextlib
import itertools
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

MAX_MELDS = 4
#: columns of a distance row: (melds 0..4) x (pairs 0..1)
ROW_SHAPE = (MAX_MELDS + 1, 2)
SUIT_KINDS = 9
HONOR_KINDS = 7
FORMAT_VERSION = 2
DATA_PATH = Path(__file__).resolve().parent / "data" / "shanten_tables.bin"
_MAGIC = b"MJST"
_HEADER = 7  # magic, format version (1 byte), number of rows (2 bytes, little-endian)

# Distances never exceed 14 (a whole target hand); 99 stands for "not reached yet".
_FAR = 99


@dataclass(frozen=True)
class ShantenTables:
    """The generated tables (see the module docstring)."""

    rows: np.ndarray  # (K, 5, 2) int8: distance rows, every id used below points in here
    suit_ids: np.ndarray  # (5**9,) row id of each suit code (uint16 generated, uint8 as loaded)
    honor_ids: np.ndarray  # (5**7,) row id of each honour code (the same)
    combine: np.ndarray  # (K, K) uint16: row id of two groups together (min-plus convolution)

    def equals(self, other: ShantenTables) -> bool:
        import numpy as np

        return all(
            np.array_equal(getattr(self, f), getattr(other, f))
            for f in ("rows", "suit_ids", "honor_ids", "combine")
        )


# ---------------------------------------------------------------- generation


def _digits(num_kinds: int) -> np.ndarray:
    """All count vectors of a group, row ``code`` holding the base-5 digits of ``code``."""
    import numpy as np

    codes = np.arange(5**num_kinds, dtype=np.int64)
    return np.stack([(codes // 5**i) % 5 for i in range(num_kinds)], axis=1).astype(np.int8)


def _targets(num_kinds: int, sequences: bool) -> list[set[int]]:
    """For each (m, p) column, the codes of every exact union of m melds and p pairs (<= 4 copies)."""
    import numpy as np

    powers = 5 ** np.arange(num_kinds)
    melds = []
    if sequences:
        for i in range(num_kinds - 2):
            v = np.zeros(num_kinds, np.int64)
            v[i : i + 3] = 1
            melds.append(v)
    for i in range(num_kinds):
        v = np.zeros(num_kinds, np.int64)
        v[i] = 3
        melds.append(v)
    out: list[set[int]] = []
    for m in range(MAX_MELDS + 1):
        for p in range(2):
            found: set[int] = set()
            for chosen in itertools.combinations_with_replacement(range(len(melds)), m):
                base = np.sum([melds[j] for j in chosen], axis=0) if chosen else np.zeros(num_kinds, np.int64)
                pair_kinds = range(num_kinds) if p else [None]
                for pk in pair_kinds:
                    v = base.copy()
                    if pk is not None:
                        v[pk] += 2
                    if v.max() <= 4:
                        found.add(int(v @ powers))
            out.append(found)
    return out


def group_distances(num_kinds: int, sequences: bool) -> np.ndarray:
    """``d[code, m, p]`` for every count vector of a group (int8, shape ``(5**k, 5, 2)``).

    Two sweeps over the codes ordered by tile count:

    * upwards: ``h`` *contains* (m melds, p pairs) when it is such a union itself or when ``h`` minus
      one tile contains it;
    * downwards: ``d(h) = 0`` when ``h`` contains the target, else ``1 + min d(h + one tile)`` (adding
      the right tile always brings an optimal target one tile closer, and never more than one).
    """
    import numpy as np

    digits = _digits(num_kinds)
    n = len(digits)
    powers = (5 ** np.arange(num_kinds)).astype(np.int64)
    cols = 2 * (MAX_MELDS + 1)
    contains = np.zeros((n, cols), dtype=bool)
    for col, codes in enumerate(_targets(num_kinds, sequences)):
        contains[list(codes), col] = True

    sizes = digits.sum(axis=1)
    order = np.argsort(sizes, kind="stable")
    bounds = np.searchsorted(sizes[order], np.arange(sizes.max() + 2))
    levels = [order[bounds[s] : bounds[s + 1]] for s in range(sizes.max() + 1)]

    for idx in levels[1:]:
        acc = contains[idx]
        for k in range(num_kinds):
            has = digits[idx, k] > 0
            acc |= contains[np.where(has, idx - powers[k], 0)] & has[:, None]
        contains[idx] = acc

    dist = np.where(contains, 0, _FAR).astype(np.int16)
    for idx in reversed(levels[:-1]):
        best = np.full((len(idx), cols), _FAR, dtype=np.int16)
        for k in range(num_kinds):
            room = digits[idx, k] < 4
            nxt = dist[np.where(room, idx + powers[k], 0)]
            best = np.minimum(best, np.where(room[:, None], nxt, _FAR))
        dist[idx] = np.where(contains[idx], 0, best + 1)
    assert dist.max() <= 14, "every target is reachable from every group"
    return dist.reshape(n, *ROW_SHAPE).astype(np.int8)


def convolve_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus convolution of every row of ``a`` with every row of ``b``: shape ``(len a, len b, 5, 2)``."""
    import numpy as np

    a = a.astype(np.int16)[:, None]
    b = b.astype(np.int16)[None, :]
    out = np.full((a.shape[0], b.shape[1], *ROW_SHAPE), _FAR, dtype=np.int16)
    for m in range(MAX_MELDS + 1):
        for ma in range(m + 1):
            mb = m - ma
            out[:, :, m, 0] = np.minimum(out[:, :, m, 0], a[:, :, ma, 0] + b[:, :, mb, 0])
            both = np.minimum(a[:, :, ma, 0] + b[:, :, mb, 1], a[:, :, ma, 1] + b[:, :, mb, 0])
            out[:, :, m, 1] = np.minimum(out[:, :, m, 1], both)
    return out.astype(np.int8)


def generate() -> ShantenTables:
    """Build all tables from scratch (a few seconds)."""
    import numpy as np

    suit = group_distances(SUIT_KINDS, sequences=True)
    honor = group_distances(HONOR_KINDS, sequences=False)

    # One registry of distinct rows; grow it until combining any two rows gives a known row.
    registry: dict[int, int] = {}
    rows: list[np.ndarray] = []

    def ids_of(block: np.ndarray) -> np.ndarray:
        flat = block.reshape(len(block), -1).astype(np.int64)
        # distances are 0..14: pack a row into one integer (4 bits per entry) to find distinct rows fast
        packed = flat @ (16 ** np.arange(flat.shape[1], dtype=np.int64))
        uniq, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
        mapping = np.empty(len(uniq), dtype=np.int64)
        for i, at in enumerate(first):
            key = int(uniq[i])
            if key not in registry:
                registry[key] = len(rows)
                rows.append(flat[at].reshape(ROW_SHAPE))
            mapping[i] = registry[key]
        return mapping[inverse.reshape(-1)]

    suit_ids = ids_of(suit)
    honor_ids = ids_of(honor)
    done = 0
    while done < len(rows):
        # combine the new rows with every row (commutative, so one triangle is enough)
        known = np.array(rows)
        fresh = known[done:]
        done = len(rows)
        ids_of(convolve_rows(fresh, known).reshape(-1, *ROW_SHAPE))
    all_rows = np.array(rows, dtype=np.int8)
    combine = ids_of(convolve_rows(all_rows, all_rows).reshape(-1, *ROW_SHAPE))
    assert len(rows) == len(all_rows), "the registry is closed under combination"
    size = len(all_rows)
    return ShantenTables(
        rows=all_rows,
        suit_ids=suit_ids.astype(np.uint16),
        honor_ids=honor_ids.astype(np.uint16),
        combine=combine.reshape(size, size).astype(np.uint16),
    )


# ---------------------------------------------------------------- storage


@dataclass(frozen=True)
class RawTables:
    """The tables as bytes (see :class:`ShantenTables`): ``rows[10 * id + 2 * melds + pairs]``,
    ``combine[size * a + b]``, ``suit_ids[code]``, ``honor_ids[code]``."""

    size: int
    rows: bytes
    combine: bytes
    suit_ids: bytes
    honor_ids: bytes


def encode(tables: ShantenTables) -> bytes:
    """The file's bytes: a header, then rows, combine, suit and honour ids, one byte each, compressed."""
    size = len(tables.rows)
    if size > 256 or tables.rows.min() < 0:
        raise ValueError(f"{size} rows: the byte format holds at most 256 (ids are one byte)")
    body = b"".join(
        a.astype("uint8").tobytes() for a in (tables.rows, tables.combine, tables.suit_ids, tables.honor_ids)
    )
    return _MAGIC + bytes([FORMAT_VERSION]) + size.to_bytes(2, "little") + zlib.compress(body, 9)


def decode(data: bytes, where: object = "the tables") -> RawTables:
    if data[:4] != _MAGIC or data[4] != FORMAT_VERSION:
        raise RuntimeError(f"{where} is not a shanten table file of format {FORMAT_VERSION}; regenerate it")
    size = int.from_bytes(data[5:_HEADER], "little")
    body = zlib.decompress(data[_HEADER:])
    cuts = [0, size * 10, size * size, 5**SUIT_KINDS, 5**HONOR_KINDS]
    for i in range(1, len(cuts)):
        cuts[i] += cuts[i - 1]
    if len(body) != cuts[-1]:
        raise RuntimeError(f"{where} has {len(body)} bytes of tables, expected {cuts[-1]}; regenerate it")
    rows, combine, suit_ids, honor_ids = (body[a:b] for a, b in itertools.pairwise(cuts))
    return RawTables(size, rows, combine, suit_ids, honor_ids)


def save(tables: ShantenTables, path: Path = DATA_PATH) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(encode(tables))
    tmp.replace(path)


def _arrays(raw: RawTables) -> ShantenTables:
    import numpy as np

    # The ids as read-only views of the loaded bytes, not uint16 copies: the 2 MB of the suit ids are
    # held once (the single-hand path reads the same bytes) instead of three times, ~4 MiB of every
    # process that uses the batch path (bench_speed "peak memory"). Ids fit a byte (see encode); the
    # callers widen them before any arithmetic.
    return ShantenTables(
        rows=np.frombuffer(raw.rows, dtype=np.uint8).astype(np.int8).reshape(raw.size, *ROW_SHAPE),
        suit_ids=np.frombuffer(raw.suit_ids, dtype=np.uint8),
        honor_ids=np.frombuffer(raw.honor_ids, dtype=np.uint8),
        combine=np.frombuffer(raw.combine, dtype=np.uint8).astype(np.uint16).reshape(raw.size, raw.size),
    )


def read(path: Path = DATA_PATH) -> ShantenTables:
    return _arrays(decode(path.read_bytes(), path))


@lru_cache(maxsize=1)
def load_raw() -> RawTables:
    """The shipped tables as bytes, no numpy (generated and saved on first use if the file is missing)."""
    try:
        return decode(DATA_PATH.read_bytes(), DATA_PATH)
    except FileNotFoundError:
        data = encode(generate())
        with contextlib.suppress(OSError):  # read-only install: keep the tables in memory only
            DATA_PATH.write_bytes(data)
        return decode(data)


@lru_cache(maxsize=1)
def load() -> ShantenTables:
    """The shipped tables as numpy arrays (for the batch path)."""
    return _arrays(load_raw())  # load_raw is cached too: the same bytes under both


def main() -> None:
    tables = generate()
    save(tables)
    print(f"wrote {DATA_PATH} ({DATA_PATH.stat().st_size} bytes, {len(tables.rows)} distinct rows)")


if __name__ == "__main__":
    main()
