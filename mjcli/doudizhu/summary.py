"""Polars summaries of simulated games: WP and ADP per policy and role, and the duplicate comparison.

WP is the share of games won (95 % Wilson interval); ADP the average points per game (95 % normal
interval, mean +- 1.96 standard errors); both intervals come from :mod:`mjcli.stats`. In the
duplicate comparison every figure is paired by deal: the interval of a difference is that of the
per-deal differences, which removes most of the luck of the deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mjcli.stats import normal_mean_ci, wilson

# Polars is imported where a frame is made (see mjcli.doudizhu.simulate)
if TYPE_CHECKING:
    import polars as pl


def role_summary(games: pl.DataFrame) -> pl.DataFrame:
    """Per policy and role (seat rows of games.parquet): games, wins, WP and ADP with intervals.

    Both peasants of one game share the result, so a game in which one policy holds both peasant
    seats counts once (its points are those of one peasant seat): the intervals treat games, not
    seats, as the independent draws."""
    import polars as pl

    rows = []
    games = games.unique(subset=["game", "policy", "role"], keep="first", maintain_order=True)
    grouped = games.group_by(["policy", "role"], maintain_order=True).agg(
        pl.len().alias("games"), pl.col("win").sum().alias("wins"), pl.col("points")
    )
    for r in grouped.sort(["policy", "role"]).iter_rows(named=True):
        lo, hi = wilson(r["wins"], r["games"])
        adp, adp_lo, adp_hi = normal_mean_ci(pl.Series(r["points"], dtype=pl.Float64))
        rows.append(
            {
                "policy": r["policy"],
                "role": r["role"],
                "games": r["games"],
                "wins": r["wins"],
                "wp": r["wins"] / r["games"],
                "wp_lo": lo,
                "wp_hi": hi,
                "adp": adp,
                "adp_lo": adp_lo,
                "adp_hi": adp_hi,
            }
        )
    return pl.DataFrame(rows, schema=_ROLE_SCHEMA)


#: Python types, which Polars reads as String, Int64 and Float64 (Polars is imported where a frame is
#: made: see mjcli.doudizhu.simulate)
_ROLE_SCHEMA = {
    "policy": str,
    "role": str,
    "games": int,
    "wins": int,
    "wp": float,
    "wp_lo": float,
    "wp_hi": float,
    "adp": float,
    "adp_lo": float,
    "adp_hi": float,
}


def _landlord_table(games: pl.DataFrame) -> pl.DataFrame:
    """One row per game: deal, line-up, whether the landlord won, and the landlord's points."""
    import polars as pl

    return (
        games.filter(pl.col("role") == "landlord")
        .select(
            "deal", "lineup", pl.col("win").cast(pl.Float64).alias("lw"), pl.col("points").cast(pl.Float64)
        )
        .sort("deal")
    )


def duplicate_summary(games: pl.DataFrame, players: list[str]) -> pl.DataFrame:
    """The comparison of the first policy with each other one on the same deals (see simulate)."""
    import polars as pl

    table = _landlord_table(games)
    a = players[0]
    rows: list[dict[str, Any]] = []
    for b in players[1:]:

        def lineup(landlord: str, peasant: str) -> pl.DataFrame:
            return table.filter(pl.col("lineup") == f"{landlord}|{peasant},{peasant}")

        a_bb, b_bb, b_aa = lineup(a, b), lineup(b, b), lineup(b, a)
        deals = a_bb.height
        if not (deals == b_bb.height == b_aa.height) or deals == 0:
            continue
        sides = {
            # side: (A's per-deal win and points, the baseline's) for that side of the table
            "landlord": ((a_bb["lw"], a_bb["points"]), (b_bb["lw"], b_bb["points"])),
            "peasants": ((1 - b_aa["lw"], -b_aa["points"]), (1 - b_bb["lw"], -b_bb["points"])),
            "both (DouZero)": (
                ((a_bb["lw"] + 1 - b_aa["lw"]) / 2, (a_bb["points"] - b_aa["points"]) / 2),
                ((b_aa["lw"] + 1 - a_bb["lw"]) / 2, (b_aa["points"] - a_bb["points"]) / 2),
            ),
        }
        for side, ((wa, pa), (wb, pb)) in sides.items():
            # WP of the side: Wilson over its games (two per deal for the swapped comparison).
            n_games = deals * (2 if side.startswith("both") else 1)
            wins = round(float(wa.sum()) * n_games / deals)
            wp = wins / n_games
            wp_lo, wp_hi = wilson(wins, n_games)
            gain, gain_lo, gain_hi = normal_mean_ci(wa - wb)
            # a difference of two win shares lies in [-1, 1]; the normal interval of a mean near
            # an end runs past it (1.048 for zhanpai against random)
            gain_lo, gain_hi = max(gain_lo, -1.0), min(gain_hi, 1.0)
            adp, adp_lo, adp_hi = normal_mean_ci(pa)
            adp_gain, adp_gain_lo, adp_gain_hi = normal_mean_ci(pa - pb)
            rows.append(
                {
                    "policy": a,
                    "opponent": b,
                    "side": side,
                    "deals": deals,
                    "wp": wp,
                    "wp_lo": wp_lo,
                    "wp_hi": wp_hi,
                    "base_wp": float(wb.mean()),  # type: ignore[arg-type]
                    "wp_gain": gain,
                    "wp_gain_lo": gain_lo,
                    "wp_gain_hi": gain_hi,
                    "adp": adp,
                    "adp_lo": adp_lo,
                    "adp_hi": adp_hi,
                    "base_adp": float(pb.mean()),  # type: ignore[arg-type]
                    "adp_gain": adp_gain,
                    "adp_gain_lo": adp_gain_lo,
                    "adp_gain_hi": adp_gain_hi,
                }
            )
    return pl.DataFrame(rows)


def _fmt(v: float, lo: float, hi: float, digits: int) -> str:
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def role_table(df: pl.DataFrame) -> pl.DataFrame:
    """The role summary with intervals written next to the values, for printing."""
    import polars as pl

    return df.select(
        "policy",
        "role",
        "games",
        pl.struct("wp", "wp_lo", "wp_hi")
        .map_elements(lambda s: _fmt(s["wp"], s["wp_lo"], s["wp_hi"], 3), return_dtype=pl.String)
        .alias("WP [95% CI]"),
        pl.struct("adp", "adp_lo", "adp_hi")
        .map_elements(lambda s: _fmt(s["adp"], s["adp_lo"], s["adp_hi"], 2), return_dtype=pl.String)
        .alias("ADP [95% CI]"),
    )


def duplicate_table(df: pl.DataFrame) -> pl.DataFrame:
    import polars as pl

    if df.height == 0:
        return df

    def col(prefix: str, digits: int, name: str) -> pl.Expr:
        return (
            pl.struct(prefix, f"{prefix}_lo", f"{prefix}_hi")
            .map_elements(
                lambda s: _fmt(s[prefix], s[f"{prefix}_lo"], s[f"{prefix}_hi"], digits),
                return_dtype=pl.String,
            )
            .alias(name)
        )

    return df.select(
        "policy",
        "opponent",
        "side",
        "deals",
        col("wp", 3, "WP [95% CI]"),
        pl.col("base_wp").map_elements(lambda v: f"{v:.3f}", return_dtype=pl.String).alias("opp WP"),
        col("wp_gain", 3, "WP gain [95% CI]"),
        col("adp", 2, "ADP [95% CI]"),
        pl.col("base_adp").map_elements(lambda v: f"{v:.2f}", return_dtype=pl.String).alias("opp ADP"),
        col("adp_gain", 2, "ADP gain [95% CI]"),
    )
