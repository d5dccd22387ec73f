"""Polars summaries of a replay's ``decisions.parquet``, shared by ``replay`` and ``summary``.

Everything works on a :class:`polars.LazyFrame` scanned from the file, so a summary of a large run
reads only the columns it needs. Rates are shares of rows (one row per decision point and policy):

* ``agree``: the policy chose what the player did;
* by kind: the same over decision points of one kind (``discard``, ``riichi``, ``call``, ``pass``,
  ``win``, ``kan``, ``nukidora`` (three-player), ``abort``; a kind is shown where it occurs);
* ``top1``: agreement over the decisions where the player discarded (a plain or riichi discard);
* ``equal``: over those decisions, the share where the player's discard was among the policy's
  equally-good choices: the same tile, or one leaving the same shanten and the same ukeire as the
  policy's choice (the efficiency measure of ``mjcli.analysis``, whatever rule the policy used); a
  policy that chose no discard there did not.

Outside bots add, when they are in the table: their faults per policy and, for a bot whose answers
carry Mortal's q-values, the gap between the value of its own choice and of the player's move
(``q_gap``, in the bot's own estimate); :func:`costly_decisions` ranks the decisions by that gap.

:func:`compare_baseline` is the CI gate: each policy's choices against an older run's, on the
decision points both have, joined on the stable key :data:`mjcli.riichi.replay.KEY` plus ``policy``;
the changed decisions come with the new run's ``q_gap``, the largest first. A gate must never pass
by accident: a baseline that cannot be read in full (:func:`read_baseline`, before the run) or that
shares under :data:`MIN_OVERLAP` of its decision points with the run (another set of logs or
policies) is an error, not "0 changed".
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.errors import UsageError, WrongGameError, one_line, short_path
from mjcli.ledger import CONTENTS, check_not_unfinished, table_source
from mjcli.output import format_table, plural

#: the key of a decision point (see mjcli.riichi.replay); a row adds ``policy``
KEY = ["file", "game_id", "round", "honba", "turn", "seat", "kind"]
#: the types replay writes them in (``decisions.parquet``)
KEY_TYPES = {
    "file": pl.String,
    "game_id": pl.String,
    "round": pl.String,
    "honba": pl.Int32,
    "turn": pl.Int32,
    "seat": pl.Int32,
    "kind": pl.String,
}
KINDS = ("discard", "riichi", "call", "pass", "win", "kan", "nukidora", "abort")
BY_CHOICES = ("player", "policy", "round", "kind")
_DISCARD_ACTUAL = pl.col("actual").str.starts_with("discard ") | pl.col("actual").str.starts_with("riichi ")
# a policy that did not discard where the player did (a kan, a win, a bot's fault: equally_good is
# null there) did not choose an equally good discard: it counts as not equal, so top1 and equal
# share one denominator, the player's discards (equal was the mean over the rows where both sides
# discarded, and a policy that often declared a kan there looked better for it)
_EQUAL = pl.col("equally_good").fill_null(False)


def scan(path: str | os.PathLike[str] | Sequence[Path]) -> pl.LazyFrame:
    """The decisions of a replay: ``DIR`` (its ``decisions.parquet``, or the ``decisions/`` parts of
    a parted run: on a cluster or resumed, see :mod:`mjcli.ledger`), that file itself, the parts
    folder, or a list of parts."""
    target, shown = _decisions_source(path)
    try:
        lf = pl.scan_parquet(target)
        names = lf.collect_schema().names()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise UsageError(f"'{shown}' is not a readable Parquet file ({type(exc).__name__})") from None
    missing = [c for c in (*KEY, "policy", "choice", "actual", "agree") if c not in names]
    if missing:
        game = _replay_game(Path(shown))
        if game is not None and game != "riichi":  # another game's replay, read as riichi's
            raise WrongGameError(f"'{shown}' is a {game} replay's: give --game {game}", game)
        raise UsageError(f"'{shown}' is not a replay's decisions table (no {', '.join(missing)} column)")
    return lf


def _replay_game(table: Path) -> str | None:
    """The game the ``replay.json`` beside a decisions table (or its parts folder) names, if any."""
    for folder in (table.parent, table.parent.parent, table):
        manifest = folder / "replay.json"
        try:
            game = json.loads(manifest.read_text(encoding="utf-8")).get("game")
        except (OSError, ValueError, AttributeError):
            continue
        return game if isinstance(game, str) else None
    return None


def decisions_files(path: str | os.PathLike[str]) -> list[Path]:
    """The files a run's decisions are read from, for ``path`` as :func:`scan` takes it (a folder
    given as ``--baseline`` is its ``decisions.parquet`` or its parts): what a command that reads
    them must not write over."""
    target, _ = _decisions_source(path)
    return list(target) if isinstance(target, list) else [target]


def _decisions_source(path: str | os.PathLike[str] | Sequence[Path]) -> tuple[Path | list[Path], str]:
    """What to scan for ``path`` (see :func:`scan`), and how to name it in a message."""
    if isinstance(path, Sequence) and not isinstance(path, str):
        if not path:
            raise UsageError("no decisions parts to read")
        return list(path), str(Path(path[0]).parent)
    p = Path(path)
    if not p.is_dir():
        if not p.is_file():
            raise UsageError(f"'{path}' does not exist (give a replay --out folder or its decisions.parquet)")
        return p, str(p)
    folder = p.parent if p.name == "decisions" and (p.parent / CONTENTS).is_file() else p
    found = table_source(folder, "decisions")
    if found is None:
        check_not_unfinished(folder)  # a stopped run of another command says so, not "no decisions"
        raise UsageError(
            f"'{path}' holds no decisions.parquet nor decisions/ parts "
            "(give a replay --out folder or its decisions.parquet)"
        )
    if isinstance(found, list):
        if not found:
            raise UsageError(f"'{path}' holds no decisions parts")
        return found, str(folder / "decisions")
    return found, str(found)


def _rates() -> list[pl.Expr]:
    return [
        pl.len().alias("decisions"),
        pl.col("agree").mean().alias("agree"),
        pl.col("agree").filter(_DISCARD_ACTUAL).mean().alias("top1"),
        _EQUAL.filter(_DISCARD_ACTUAL).mean().alias("equal"),
    ]


def policy_table(lf: pl.LazyFrame) -> pl.DataFrame:
    """Per policy: decisions, agreement overall and by kind, top-1 and equally-good rates."""
    by_kind = [pl.col("agree").filter(pl.col("kind") == k).mean().alias(k) for k in KINDS]
    kinds_present = set(lf.select(pl.col("kind").unique()).collect().to_series().to_list())
    frame = lf.group_by("policy").agg(*_rates(), *by_kind).collect()
    cols = ["policy", "decisions", "agree", *[k for k in KINDS if k in kinds_present], "top1", "equal"]
    return _in_policy_order(lf, frame.select(cols))


def _in_policy_order(lf: pl.LazyFrame, frame: pl.DataFrame) -> pl.DataFrame:
    """Policies in the order they were asked (first appearance in the file), not alphabetically."""
    return _ordered(_policy_order(lf), frame)


def _policy_order(lf: pl.LazyFrame) -> list[Any]:
    return lf.select(pl.col("policy").unique(maintain_order=True)).collect().to_series().to_list()


def _ordered(order: list[Any], frame: pl.DataFrame) -> pl.DataFrame:
    rank = pl.DataFrame(
        {"policy": order, "_rank": list(range(len(order)))}, schema={"policy": pl.String, "_rank": pl.Int32}
    )
    return frame.join(rank, on="policy", how="left").sort("_rank", *frame.columns[1:2]).drop("_rank")


def group_table(lf: pl.LazyFrame, by: str) -> pl.DataFrame:
    """Agreement per ``by`` (player, policy, round or kind) and policy."""
    if by not in BY_CHOICES:
        raise UsageError(f"--by '{by}' is not one of {', '.join(BY_CHOICES)}")
    if by == "policy":
        return _in_policy_order(lf, lf.group_by("policy").agg(*_rates()).collect())
    frame = lf.group_by(by, "policy").agg(*_rates()).collect()
    frame = _in_policy_order(lf, frame)
    return frame.sort(by, maintain_order=True)


def agreement_matrix(lf: pl.LazyFrame) -> pl.DataFrame:
    """Share of decision points where two policies chose the same action (one row per policy)."""
    agg = _pair_sums(lf).select("policy", "policy_b", *_means(["same"]))
    return _matrix_frame(_policy_order(lf), agg)


def _pair_sums(lf: pl.LazyFrame) -> pl.DataFrame:
    """Per pair of policies: the decision points where both chose (``same__d``) and where they chose
    the same (``same__n``)."""
    # The self-join has a row per pair of policies at each decision point: joined on one integer per
    # decision point and one per choice (dense ranks: equal exactly when the strings are, null where
    # the choice is), not on the seven key columns and the choices' strings, the join's peak memory
    # is a third (bench_speed "peak memory": the summary's step of a replay of 19 hanchan).
    # (A row with a null key column never met another in the join on the columns: dropped first.)
    choices = lf.filter(pl.all_horizontal(pl.col(KEY).is_not_null())).select(
        pl.struct(KEY).rank("dense").alias("point"), "policy", pl.col("choice").rank("dense").alias("choice")
    )
    pairs = choices.join(choices, on="point", how="inner", suffix="_b")
    return (
        pairs.group_by("policy", "policy_b")
        .agg(*_counted(pl.col("choice") == pl.col("choice_b"), "same"))
        .collect()
    )


def _block_pair_sums(df: pl.DataFrame) -> pl.DataFrame | None:
    """:func:`_pair_sums` of a frame laid out as a replay writes its rows: decision point after
    decision point, each one row per policy with the same policies in the same order (and no key
    twice, no null in a key); None for any other frame (the join then).

    The policies' choices at the points then make a table of one column per policy, and each pair
    of policies is two sums over two of its columns, the same as over the self-join's rows (P x P
    rows a point): the pair sums of 12,000 rows 8-9 -> 5.7-6 ms, ``mjcli summary`` of 171 hanchan
    (533k rows) 2.10 -> 1.76 s (tests/test_summary.py: equal to the join on every layout)."""
    n = df.height
    if not n:
        return None
    point = df.select(pl.struct(KEY).rle_id()).to_series()  # runs of rows with the same key
    points = int(point[-1]) + 1
    size = n // points
    if n % points or not (point == pl.int_range(0, n, eager=True) // size).all():
        return None  # points of different sizes
    # (a run's rows share their key: its first row speaks for it)
    keys = df.select(KEY).gather_every(size)
    if keys.select(pl.any_horizontal(pl.all().is_null()).any()).item() or keys.n_unique() != points:
        return None  # a null in a key, or a key met again after another
    policy = df.get_column("policy")
    names = policy.head(size)
    if names.null_count() or names.n_unique() != size:
        return None
    if not policy.equals(names.gather(pl.int_range(0, n, eager=True) % size)):
        return None  # the policies in another order somewhere
    choice = df.get_column("choice")
    wide = pl.DataFrame([choice.gather_every(size, offset=j).alias(str(j)) for j in range(size)])
    # a pair's sums are its mirror's: each pair counted once (the diagonal too)
    pairs = [(a, b) for a in range(size) for b in range(a, size)]
    sums = wide.select(
        x for i, (a, b) in enumerate(pairs) for x in _counted(pl.col(str(a)) == pl.col(str(b)), str(i))
    )
    values = dict(zip(pairs, zip(sums.row(0)[0::2], sums.row(0)[1::2], strict=True), strict=True))
    every = [(a, b) for a in range(size) for b in range(size)]
    both = [values[(a, b) if a <= b else (b, a)] for a, b in every]
    return pl.DataFrame(
        {
            "policy": [names[a] for a, _ in every],
            "policy_b": [names[b] for _, b in every],
            "same__n": [v[0] for v in both],
            "same__d": [v[1] for v in both],
        },
        schema={
            "policy": policy.dtype,
            "policy_b": policy.dtype,
            "same__n": sums.schema["0__n"],
            "same__d": sums.schema["0__d"],
        },
    )


def _matrix_frame(order: list[Any], agg: pl.DataFrame) -> pl.DataFrame:
    same = {(a, b): v for a, b, v in agg.iter_rows()}
    data: dict[str, list[Any]] = {"policy": order}
    for b in order:
        data[b] = [same.get((a, b)) for a in order]
    return pl.DataFrame(data, schema={"policy": pl.String, **{b: pl.Float64 for b in order}})


def bot_table(lf: pl.LazyFrame) -> pl.DataFrame:
    """Per policy with a fault or a q-value: faults, decisions valued by the bot's q-values, the mean
    gap between the value of its choice and of the player's move, and the share of those decisions
    where the player's move was worth less to the bot (gap above 0). Empty for a table without bots."""
    names = lf.collect_schema().names()
    if "fault" not in names or "q_gap" not in names:
        return pl.DataFrame()
    frame = (
        lf.group_by("policy")
        .agg(
            pl.col("fault").is_not_null().sum().alias("faults"),
            pl.col("q_gap").is_not_null().sum().alias("valued"),
            pl.col("q_gap").mean().alias("mean_gap"),
            (pl.col("q_gap") > 0).mean().alias("worse"),
        )
        .filter((pl.col("faults") > 0) | (pl.col("valued") > 0))
        .collect()
    )
    return _in_policy_order(lf, frame) if frame.height else frame


def costly_decisions(lf: pl.LazyFrame, limit: int = 10) -> pl.DataFrame:
    """The decisions where the player's move cost the most by a bot's own values (largest ``q_gap``)."""
    if "q_gap" not in lf.collect_schema().names():
        return pl.DataFrame()
    return (
        lf.filter(pl.col("q_gap").is_not_null() & (pl.col("q_gap") > 0))
        .sort("q_gap", descending=True)
        .head(limit)
        .select("file", "round", "honba", "turn", "seat", "policy", "actual", "choice", "q_gap")
        .collect()
    )


def summarise(
    path_or_frame: str | os.PathLike[str] | Sequence[Path] | pl.LazyFrame,
    by: str | None = None,
    parts: SummaryParts | None = None,
) -> dict[str, Any]:
    """The whole summary as plain data (what ``--json`` prints). A file whose data cannot be read
    (damaged after its header) is a :class:`UsageError` naming it. ``parts``: the table's rows
    already added up file by file as they were written (a replay's run), instead of reading it."""
    if isinstance(path_or_frame, pl.LazyFrame):
        return _summarise(path_or_frame, by, parts)
    lf = scan(path_or_frame)
    try:
        return _summarise(lf, by, parts)
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise _damaged(path_or_frame, exc) from None


def _damaged(path: str | os.PathLike[str], exc: BaseException, what: str = "") -> UsageError:
    detail = " ".join(str(exc).split())[:80]
    return UsageError(f"{what}'{path}' is damaged: its data cannot be read ({type(exc).__name__}: {detail})")


def _summarise(lf: pl.LazyFrame, by: str | None, parts: SummaryParts | None) -> dict[str, Any]:
    if parts is None:
        parts = SummaryParts(by)
        for frame in file_chunks(lf, parts.columns(lf.collect_schema().names()), CHUNK_ROWS):
            parts.add(frame)
    parts.finish()
    rows = parts.rows
    if by is not None and rows and by not in BY_CHOICES:
        raise UsageError(f"--by '{by}' is not one of {', '.join(BY_CHOICES)}")
    out: dict[str, Any] = {
        "summary": True,
        "games": len(parts.games) if rows else 0,
        "decision_points": rows // len(parts.order) if parts.order else 0,
        "rows": rows,
        "policies": parts.policy_table().to_dicts() if rows else [],
        # a file's rows met again after another file's (not a table replay wrote): the pairs of
        # its decision points may span two chunks, so the matrix is joined over the whole table
        "matrix": (agreement_matrix(lf) if parts.split else parts.matrix()).to_dicts() if rows else [],
    }
    if by is not None:
        out["by"] = by
        out["groups"] = parts.group_table().to_dicts() if rows else []
    # the outside bots' figures (a float mean, a top-k) over the whole table, only when a bot
    # answered: a replay of the built-in policies alone never reads more than a chunk
    bots = bot_table(lf) if rows and parts.bots else pl.DataFrame()
    if bots.height:
        out["bots"] = bots.to_dicts()
        costly = costly_decisions(lf)
        if costly.height:
            out["costly"] = costly.to_dicts()
    return out


# ---------------------------------------------------------------- the summary file by file

#: rows of the table read at a time by :func:`_summarise` (with the carried rows of its last file: a
#: few MiB of the key columns whatever the table's length). Smaller reads cost CPU (each slice decodes
#: its row groups again: 4096 rows took 1.0 s on 177k rows against 0.4 s), larger ones memory (16384
#: rows: +54 MiB on 59k rows, +77 MiB on 177k; 8192: +48 and +51-56)
CHUNK_ROWS = 8192


def file_chunks(lf: pl.LazyFrame, columns: list[str], rows: int = CHUNK_ROWS) -> Iterator[pl.DataFrame]:
    """``columns`` of ``lf`` in table order, in frames that each end at the end of a file's rows (the
    rows of one ``file`` value that follow each other are never split over two frames).

    Why: the summary's figures are sums over the rows, and the agreement between policies is within
    a decision point, which is within a file; so each frame's partial figures add up to the whole
    table's. Reading the table this way keeps the summary's memory flat in the number of logs:
    ``mjcli summary`` of a replay of 19 hanchan (59k rows) took +61-66 MiB over its imports, of 57
    (177k rows) +116-130 MiB, reading and ranking the whole key columns; read this way, +48 and
    +51-56 MiB."""
    carry: pl.DataFrame | None = None
    lf = lf.select(columns)
    total = lf.select(pl.len()).collect().item()
    # slices, not collect_batches: its stream reads ahead (+44 MiB on 177k rows against +31 for the
    # slices, whose reader skips the row groups before the offset; the same CPU time)
    for offset in range(0, total, rows):
        batch = lf.slice(offset, rows).collect()
        if carry is not None and carry.height:
            batch = pl.concat([carry, batch], how="vertical")
        if not batch.height:
            continue
        files = batch.get_column("file")
        # where the last file's run of rows starts: it may go on in the next batch
        others = files.ne_missing(files[-1]).arg_true()
        if others.is_empty():
            carry = batch
            continue
        cut = others[-1] + 1
        carry = batch.slice(cut)
        yield batch.slice(0, cut)
    if carry is not None and carry.height:
        yield carry


def _counted(value: pl.Expr, name: str) -> list[pl.Expr]:
    """A mean as its two sums: the true values and the values (nulls are not counted)."""
    return [value.sum().alias(f"{name}__n"), value.count().alias(f"{name}__d")]


def _means(names: Sequence[str]) -> list[pl.Expr]:
    """The means of :func:`_counted`'s sums (null where nothing was counted, as ``mean`` gives).
    Both sums are exact integers, so their quotient is the float ``mean`` gives over the whole table."""
    return [
        pl.when(pl.col(f"{n}__d") > 0).then(pl.col(f"{n}__n") / pl.col(f"{n}__d")).alias(n) for n in names
    ]


def _rate_sums() -> list[pl.Expr]:
    return [
        pl.len().alias("decisions"),
        *_counted(pl.col("agree"), "agree"),
        *_counted(pl.col("agree").filter(_DISCARD_ACTUAL), "top1"),
        *_counted(_EQUAL.filter(_DISCARD_ACTUAL), "equal"),
    ]


def _add_up(total: pl.DataFrame | None, part: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Partial sums of one chunk added to the running ones, group by group."""
    if total is None:
        return part
    both = pl.concat([total, part], how="vertical")
    return both.group_by(keys, maintain_order=True).agg(pl.all().sum())


class SummaryParts:
    """The summary's figures as sums, added up frame by frame: each frame holds every row of the
    files it holds (see :func:`file_chunks`), in the table's order. A replay adds each file's rows
    as it writes them, so that its summary reads nothing back (bench_speed "peak memory")."""

    def __init__(self, by: str | None) -> None:
        self.by = by if by in BY_CHOICES else None  # another --by is refused once a row is seen
        self.rows = 0
        self.order: dict[Any, None] = {}  # the policies in the order they first appear
        self.games: set[tuple[Any, Any]] = set()
        self.kinds: set[Any] = set()
        self.files: set[Any] = set()  # the files whose rows are all read
        self.split = False  # a file's rows came in two runs (see _summarise)
        self.bots = False  # an outside bot's fault or q-value is in the table
        self.policies: pl.DataFrame | None = None
        self.pairs: pl.DataFrame | None = None
        self.groups: pl.DataFrame | None = None
        self.by_dtype: Any = None
        self._waiting: list[pl.DataFrame] = []  # frames not added up yet (see add)
        self._waiting_rows = 0

    def columns(self, names: list[str]) -> list[str]:
        wanted = [*KEY, "policy", "choice", "actual", "agree", "equally_good"]
        if self.by is not None and self.by not in wanted:
            wanted.append(self.by)
        return wanted + [c for c in ("fault", "q_gap") if c in names]

    def add(self, df: pl.DataFrame) -> None:
        """Add the rows of whole files (a frame may hold several; a file's rows in one frame)."""
        if not df.height:
            return
        # Frames are added up CHUNK_ROWS rows at a time, not file by file: each step is a dozen small
        # queries, ~6 ms, which cost a replay of 19 hanchan 0.22 s CPU instead of ~0.1 s. Only the
        # columns read are kept (a replay's part holds the same frames until it is written).
        self._waiting.append(df.select(self.columns(df.columns)))
        self._waiting_rows += df.height
        if self._waiting_rows >= CHUNK_ROWS:
            self.finish()

    def finish(self) -> None:
        """Add up the frames still waiting (before the figures are read)."""
        if self._waiting:
            df = pl.concat(self._waiting, how="vertical") if len(self._waiting) > 1 else self._waiting[0]
            self._waiting, self._waiting_rows = [], 0
            self._add(df)

    def _add(self, df: pl.DataFrame) -> None:
        self.rows += df.height
        self.order.update(dict.fromkeys(df.get_column("policy").unique(maintain_order=True).to_list()))
        self.games.update(df.select("file", "game_id").unique().iter_rows())
        self.kinds.update(df.get_column("kind").unique().to_list())
        files = set(df.get_column("file").unique().to_list())
        self.split = self.split or not files.isdisjoint(self.files)
        self.files |= files
        if "fault" in df.columns and "q_gap" in df.columns:
            self.bots = (
                self.bots
                or df.select(pl.col("fault").is_not_null().any() | pl.col("q_gap").is_not_null().any()).item()
            )
        by_kind = [c for k in KINDS for c in _counted(pl.col("agree").filter(pl.col("kind") == k), k)]
        part = df.group_by("policy", maintain_order=True).agg(*_rate_sums(), *by_kind)
        self.policies = _add_up(self.policies, part, ["policy"])
        pairs = _block_pair_sums(df)
        if pairs is None:
            pairs = _pair_sums(df.lazy())
        self.pairs = _add_up(self.pairs, pairs, ["policy", "policy_b"])
        if self.by is not None:
            keys = ["policy"] if self.by == "policy" else [self.by, "policy"]
            self.by_dtype = df.schema[self.by]
            self.groups = _add_up(
                self.groups, df.group_by(keys, maintain_order=True).agg(*_rate_sums()), keys
            )

    def _ordered(self, frame: pl.DataFrame) -> pl.DataFrame:
        return _ordered(list(self.order), frame)

    def policy_table(self) -> pl.DataFrame:
        self.finish()
        assert self.policies is not None
        kinds = [k for k in KINDS if k in self.kinds]
        frame = self.policies.select("policy", "decisions", *_means(["agree", *kinds, "top1", "equal"]))
        return self._ordered(frame)

    def matrix(self) -> pl.DataFrame:
        self.finish()
        assert self.pairs is not None
        agg = self.pairs.select("policy", "policy_b", *_means(["same"]))
        return _matrix_frame(list(self.order), agg)

    def group_table(self) -> pl.DataFrame:
        self.finish()
        assert self.groups is not None and self.by is not None
        rates = [pl.col("decisions"), *_means(["agree", "top1", "equal"])]
        if self.by == "policy":
            return self._ordered(self.groups.select("policy", *rates))
        frame = self._ordered(self.groups.select(pl.col(self.by).cast(self.by_dtype), "policy", *rates))
        return frame.sort(self.by, maintain_order=True)


def _num(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def _table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "(no decisions)"
    headers = list(rows[0])
    align = "".join("l" if isinstance(rows[0][h], str) else "r" for h in headers)
    return format_table(headers, [[_num(r[h]) for h in headers] for r in rows], align)


def format_summary(s: dict[str, Any]) -> str:
    """The human form of :func:`summarise`'s result."""
    parts = [
        f"{plural(s['games'], 'game')}, {plural(s['decision_points'], 'decision point')}, "
        f"{plural(s['rows'], 'policy answer')}",
        "",
        "agreement with the players (share of decisions; by kind; top1 and equal over their discards)",
        _table(s["policies"]),
        "",
        "agreement between policies (share of decision points with the same choice)",
        _table(s["matrix"]),
    ]
    if s.get("rules"):
        # a replay's games by the rule set they were played under
        parts.insert(
            1, "rules: " + ", ".join(f"{name} ({plural(n, 'game')})" for name, n in s["rules"].items())
        )
    if "groups" in s:
        parts += ["", f"by {s['by']}", _table(s["groups"])]
    if "bots" in s:
        parts += [
            "",
            "outside bots (faults; by their own q-values: decisions valued, mean q_gap, share of them "
            "where the player's move was worth less)",
            _table(s["bots"]),
        ]
    if s.get("costly"):
        parts += ["", "the player's costliest moves by a bot's q-values", _table(s["costly"])]
    return "\n".join(parts)


# ---------------------------------------------------------------- the regression gate

CHANGE_SCHEMA: dict[str, Any] = {
    **KEY_TYPES,
    "policy": pl.String,
    "hand": pl.String,
    "old": pl.String,
    "new": pl.String,
    "reason": pl.String,
    "q_gap": pl.Float64,
}


#: the least share of decision points a baseline must have in common with the run it gates
MIN_OVERLAP = 0.9


def read_baseline(path: str | os.PathLike[str]) -> pl.DataFrame:
    """The decision keys and choices of an older run, read in full now, so that a damaged file is a
    :class:`UsageError` before any work (reading only the header would not notice)."""
    try:
        lf = scan(path)
    except WrongGameError as exc:
        # scan's "give --game hk" suits `summary`; here it led to "--baseline does not apply to
        # replay --game hk": the gate is riichi's, and the run's logs are riichi logs
        raise UsageError(
            f"--baseline '{short_path(Path(path))}' holds a {exc.game} replay's decisions: the gate "
            "compares a riichi replay with an earlier riichi replay of the same logs"
        ) from None
    try:
        # every column read (a damaged column the gate does not use is still a damaged file: the
        # keys alone let one through), then the keys alone kept
        whole = lf.collect()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise _damaged(path, exc, "--baseline ") from None
    try:
        # the keys as this version writes them (a table written by another tool, or an older
        # version, may hold them as categoricals or other integer widths: the join needs one type)
        old = whole.select(
            *(pl.col(k).cast(KEY_TYPES[k]) for k in KEY),
            pl.col("policy").cast(pl.String),
            pl.col("choice").cast(pl.String).alias("old"),
        )
    except pl.exceptions.PolarsError as exc:
        raise UsageError(
            f"--baseline '{short_path(Path(path))}': its decision keys are not of the types replay "
            f"writes ({one_line(str(exc))[:120]})"
        ) from None
    # A replay writes each (key, policy) once. A table holding one twice (two runs' tables put
    # together) joined each new answer to both: "708 compared" of 354 answers, "-354 only in this
    # run", and a change counted twice or once against a second, contradicting old choice.
    twice = old.filter(pl.struct(*KEY, "policy").is_duplicated())
    if twice.height:
        r = twice.row(0, named=True)
        raise UsageError(
            f"--baseline '{short_path(Path(path))}': {twice.height} rows share their decision key "
            f"and policy with another (such as {r['file']} {r['round']}-{r['honba']} turn {r['turn']} "
            f"seat {r['seat']} {r['kind']} {r['policy']}): a replay writes each once, so it is not "
            "one replay's decisions and cannot gate this run"
        )
    return old


def compare_baseline(
    new: pl.LazyFrame, baseline: str | os.PathLike[str] | pl.DataFrame
) -> tuple[pl.DataFrame, dict[str, int]]:
    """Decisions whose choice differs from the baseline's, and counts: compared, only_old, only_new.

    Decision points are matched on :data:`KEY` and ``policy``; a point that one run has and the
    other does not (a log added, removed or now failing) is counted, not listed as a change. When
    the points in common are under :data:`MIN_OVERLAP` of the larger side, the baseline does not
    gate this run: a :class:`UsageError`. ``baseline``: a path or :func:`read_baseline`'s frame.
    """
    old = baseline if isinstance(baseline, pl.DataFrame) else read_baseline(baseline)
    gap = (
        pl.col("q_gap")
        if "q_gap" in new.collect_schema().names()
        else pl.lit(None, pl.Float64).alias("q_gap")
    )
    cur = new.select(*KEY, "policy", "hand", pl.col("choice").alias("new"), "reason", gap)
    keys = [*KEY, "policy"]
    both = cur.join(old.lazy(), on=keys, how="inner")
    changes = (
        both.filter(pl.col("old").ne_missing(pl.col("new")))
        .select(*keys, "hand", "old", "new", "reason", "q_gap")
        .sort(keys)
        .sort("q_gap", descending=True, nulls_last=True, maintain_order=True)
        .collect()
        .cast(CHANGE_SCHEMA)
    )
    compared = both.select(pl.len()).collect().item()
    n_old = old.height
    n_new = cur.select(pl.len()).collect().item()
    larger = max(n_old, n_new)
    if compared < MIN_OVERLAP * larger or not larger:
        share = f"{compared / larger:.0%}" if larger else "none"
        why = "it was made from other logs or policies"
        # the same games under other labels (`logs/a.json` given as a folder once, as a file the
        # next time): the rows are matched by the label, which the message then names
        games = [*KEY[:2]]
        relabelled = (
            old.lazy().select(*games).unique().join(cur.select(*games).unique(), on=games, how="inner")
        ).select(pl.len()).collect().item() < (
            old.lazy().select("game_id").unique().join(cur.select("game_id").unique(), on="game_id")
        ).select(pl.len()).collect().item()
        if relabelled:
            why = (
                "the same games are in both under other file labels (rows are matched by the label, "
                "the log's path as given: give the logs the same way)"
            )
        raise UsageError(
            f"the baseline and this run share {share} of the larger one's policy answers ({compared} "
            f"in common; {n_old} in the baseline, {n_new} in this run; at least {MIN_OVERLAP:.0%} "
            f"needed): {why}, and it cannot gate this run"
        )
    return changes, {"compared": compared, "only_old": n_old - compared, "only_new": n_new - compared}


def format_changes(changes: pl.DataFrame, limit: int = 50, written: str | None = None) -> str:
    """The table of changed decisions (at most ``limit`` rows, then a count of the rest and where
    they all are: ``written``, the run's ``changes.parquet``, or None when it is not kept)."""
    rows = [
        [
            r["file"],
            f"{r['round']}-{r['honba']}",
            r["turn"],
            r["seat"],
            r["policy"],
            r["hand"],
            f"{r['old'] or '(fault)'} -> {r['new'] or '(fault)'}",
            r["reason"],
        ]
        for r in changes.head(limit).iter_rows(named=True)
    ]
    text = format_table(["file", "round", "turn", "seat", "policy", "hand", "old -> new", "reason"], rows)
    if changes.height > limit:
        # without --out the run's folder is temporary: naming its changes.parquet sent a user
        # looking for a file that no longer exists
        where = f"all in {written}" if written else "--out DIR keeps them all in DIR/changes.parquet"
        text += f"\n... and {changes.height - limit} more ({where})"
    return text
