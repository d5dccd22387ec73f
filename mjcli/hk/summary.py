"""The summary of a Hong Kong replay (``decisions.parquet``): per policy, the share of decisions
where it chose what the player did, overall and by kind of decision, and the agreement between
policies (the share of decision points where two chose the same move)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjcli.errors import UsageError, short_path
from mjcli.ledger import table_source
from mjcli.output import format_table

# Polars is imported where a frame is made (see mjcli.hk.replay)
if TYPE_CHECKING:
    import polars as pl

KINDS = ("discard", "claim", "win", "kong", "rob")


def load(path: Path) -> pl.DataFrame:
    """The decisions of a replay: ``DIR`` (its ``decisions.parquet``, or the parts of a run on Ray or
    resumed, see :mod:`mjcli.ledger`) or the file itself."""
    import polars as pl

    source = table_source(path, "decisions") if path.is_dir() else path
    if source is None or (isinstance(source, Path) and not source.is_file()):
        raise UsageError(f"'{path}' holds no decisions.parquet (run mjcli replay --game hk ... --out DIR)")
    target = source if isinstance(source, Path) else path / "decisions"
    try:
        frame = pl.read_parquet(source)
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise UsageError(
            f"'{short_path(target)}' is not a readable Parquet file ({type(exc).__name__})"
        ) from None
    if "hand_index" not in frame.columns or "policy" not in frame.columns:
        raise UsageError(f"'{target}' is not a Hong Kong replay's decisions.parquet")
    return frame


def summarise(frame: pl.DataFrame) -> dict[str, Any]:
    import polars as pl

    policies = list(dict.fromkeys(frame["policy"].to_list()))
    rows = []
    for p in policies:
        sub = frame.filter(pl.col("policy") == p)
        entry: dict[str, Any] = {"policy": p, "decisions": sub.height, "agree": _rate(sub)}
        for k in KINDS:
            entry[k] = _rate(sub.filter(pl.col("kind") == k))
        rows.append(entry)
    key = ["file", "game_id", "hand_index", "turn", "seat"]
    matrix: dict[str, dict[str, float | None]] = {}
    wide = {
        p: frame.filter(pl.col("policy") == p).select([*key, pl.col("choice").alias(p)]) for p in policies
    }
    for a in policies:
        matrix[a] = {}
        for b in policies:
            if a == b:
                matrix[a][b] = 1.0
                continue
            joined = wide[a].join(wide[b], on=key)
            same = (joined[a] == joined[b]).mean() if joined.height else None
            matrix[a][b] = None if same is None else round(float(same), 6)  # type: ignore[arg-type]
    points = frame.select(key).unique().height
    return {
        "game": "hk",
        "decision_points": points,
        "answers": frame.height,
        "policies": rows,
        "matrix": matrix,
    }


def _rate(sub: pl.DataFrame) -> float | None:
    return None if sub.height == 0 else round(float(sub["agree"].mean()), 6)  # type: ignore[arg-type]


def _cell(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def format_summary(s: dict[str, Any]) -> str:
    if not s["answers"]:
        return f"{s['decision_points']} decision points, no policy answer"
    head = ["policy", "decisions", "agree", *KINDS]
    rows = [
        [e["policy"], e["decisions"], _cell(e["agree"]), *(_cell(e[k]) for k in KINDS)] for e in s["policies"]
    ]
    names = [e["policy"] for e in s["policies"]]
    matrix = [[a, *(_cell(s["matrix"][a][b]) for b in names)] for a in names]
    return "\n".join(
        [
            f"{s['decision_points']} decision points, {s['answers']} policy answers",
            "",
            "agreement with the players (share of decisions; by kind)",
            format_table(head, rows, "lr" + "r" * (len(head) - 2)),
            "",
            "agreement between policies (share of decision points with the same choice)",
            format_table(["policy", *names], matrix, "l" + "r" * len(names)),
        ]
    )
