"""The Dou Dizhu replay part of the page, the same shape as riichi's with this game's measures:
agreement by kind of decision (bid, lead, follow), by phase of the game and by cards in hand, the
policy x policy heat map, and the decisions where the policies disagree most with the player drawn
as hands of cards.

Phase: a decision's place among its game's decisions (bids included), in thirds. The unit of the
intervals is the game (see :mod:`mjcli.report.agreement`).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.errors import UsageError
from mjcli.ledger import table_source
from mjcli.plugins import recorded_options
from mjcli.report import charts
from mjcli.report.agreement import PHASES, overall, pair_matrix, rates_by, rows_of_points, thirds
from mjcli.report.agreement import most_disputed as disputed_points
from mjcli.report.outputs import MARKERS, REPLAY_MANIFEST, Output, columns, read_json
from mjcli.report.page import Page
from mjcli.report.tiles_svg import Sprite, doudizhu_hand

CLUSTERS = ("file", "game_id")
POINT = ["file", "game_id", "round", "turn", "seat", "kind"]
KINDS = ("bid", "lead", "follow")
CARD_GROUPS = ("1-5", "6-10", "11-15", "16-20")
NEEDED = (*POINT, "hand", "actual", "policy", "choice", "agree", "reason")


def scan(folder: Path) -> pl.LazyFrame:
    """The decisions of a replay folder: its file, or the parts of a run on Ray or resumed."""
    source = table_source(folder, "decisions")
    path = folder / MARKERS["replay"]
    if isinstance(source, list) and source:
        path, parts = source[0], source
    names = columns(path)
    missing = [c for c in NEEDED if c not in names]
    if missing:
        raise UsageError(f"'{path}' is not a Dou Dizhu replay's decisions (no {', '.join(missing)} column)")
    lf = pl.scan_parquet(parts if isinstance(source, list) and source else path)
    # written since mjcli report (kicker later): an older output lacks them
    for extra in ("lead", "role", "kicker"):
        if extra not in names:
            lf = lf.with_columns(pl.lit(None, dtype=pl.String).alias(extra))
    return lf


def phase() -> pl.Expr:
    last = pl.col("turn").max().over(CLUSTERS)
    return thirds(pl.col("turn") / (last + 1))


def cards_group() -> pl.Expr:
    n = pl.col("hand").str.len_chars()
    return (
        pl.when(n <= 5)
        .then(pl.lit("1-5"))
        .when(n <= 10)
        .then(pl.lit("6-10"))
        .when(n <= 15)
        .then(pl.lit("11-15"))
        .otherwise(pl.lit("16-20"))
    )


def most_disputed(lf: pl.LazyFrame, top: int) -> pl.DataFrame:
    """The ``top`` most disputed decision points (:func:`mjcli.report.agreement.most_disputed`)."""
    return disputed_points(lf, top, POINT)


def _move(sprite: Sprite, move: str, kind: str) -> str:
    if kind == "bid" or move == "pass":
        return f'<span class="move">{escape(move)}</span>'
    return f'<span class="move">{"".join(sprite.card(c, 16) for c in move)}</span>'


def advise_command(row: dict[str, Any], options: Sequence[str] = ()) -> tuple[str, str]:
    """``mjcli advise --game doudizhu`` for a lead or a follow (bids: advise has none); ``options``:
    the replay's ``--plugin`` options (``replay.json``'s ``policy_options``), which make its plugins
    known to advise."""
    if row["kind"] == "bid":
        return "", "advise does not take bids: the bid is shown here only."
    cmd = f"mjcli advise --game doudizhu {shlex.quote(row['hand'])}"
    if row.get("lead"):
        cmd += f" --lead {shlex.quote(row['lead'])}"
    if row.get("role") == "landlord":
        cmd += " --landlord"
    if row.get("kicker") not in (None, "douzero"):  # advise's default; a lead reads by the rule
        cmd += f" --kicker {shlex.quote(row['kicker'])}"
    if options:
        cmd += " " + shlex.join(options)
    note = (
        "advise sets a fresh table around the hand (opponents at 17 cards, no card played but the "
        "lead), so a policy that counts the cards played may answer otherwise than here."
    )
    if row["kind"] == "follow" and row.get("role") == "peasant":
        note += (
            " advise takes --lead as an opponent's play: where the partner played it, a policy that "
            "lets its partner's play stand (zhanpai) answers otherwise there."
        )
    if row["kind"] == "follow" and not row.get("lead"):
        note = "This output does not record the combination to beat (an older mjcli wrote it). " + note
    return cmd, note


def draw_decision(
    sprite: Sprite, rows: Sequence[dict[str, Any]], number: int, options: Sequence[str] = ()
) -> str:
    r = rows[0]
    against = sum(1 for x in rows if not x["agree"])
    role = f", {r['role']}" if r.get("role") else ""
    head = (
        f"<h3>#{number} {escape(r['file'])} &middot; game {escape(str(r['game_id']))} &middot; turn "
        f"{r['turn']} &middot; seat {r['seat']} ({escape(r['player'] or '')}{escape(role)}) &middot; "
        f'{escape(r["kind"])} <span class="badge bad">{against} of {len(rows)} policies chose '
        "otherwise</span></h3>"
    )
    hand = doudizhu_hand(sprite, r["hand"], r.get("lead"))
    lines = [
        f"<tr><td><b>the player</b></td><td>{_move(sprite, r['actual'], r['kind'])}</td>"
        "<td class='muted'>what was played</td></tr>"
    ]
    for x in rows:
        mark = "agree" if x["agree"] else "disagree"
        lines.append(
            f"<tr><td>{escape(x['policy'])}</td><td class='{mark}'>{_move(sprite, x['choice'], x['kind'])}"
            f"</td><td>{escape(x.get('reason') or '')}</td></tr>"
        )
    table = (
        '<table class="data"><thead><tr><th>who</th><th>move</th><th>reason</th></tr></thead>'
        f"<tbody>{''.join(lines)}</tbody></table>"
    )
    cmd, note = advise_command(r, options)
    cmd_html = f'<code class="cmd">{escape(cmd)}</code>' if cmd else ""
    return f'{head}{hand}{table}{cmd_html}<p class="note">{escape(note)}</p>'


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 12) -> None:
    lf = scan(out.folder)
    counts = lf.select(pl.len(), pl.col("policy").n_unique(), pl.struct(*CLUSTERS).n_unique()).collect()
    rows, npol, games = counts.row(0)
    page.lines.append(
        f"replay (Dou Dizhu): {games} games, {rows // max(npol, 1)} decision points, {rows} policy answers"
    )
    sec = page.section("ddz-replay-agreement", "Replay (Dou Dizhu): agreement with the players")
    sec.note(
        "Share of decisions where a policy chose what the player did (the same bid, the same cards, or "
        "a pass). Whiskers and bands: 95 % intervals, cluster-robust over games."
    )
    if not rows:
        sec.note("This replay holds no decision.")
        return
    whole = overall(lf, CLUSTERS)
    kinds = rates_by(lf, pl.col("kind"), CLUSTERS, KINDS)
    sec.table(
        ["policy", "agree [95 % interval]", *kinds.groups],
        [[p, whole.get(p), *[kinds.rates[p].get(k) for k in kinds.groups]] for p in kinds.policies],
    )
    sec.chart(
        "By kind of decision",
        kinds.bars("Agreement by kind of decision", "kind of decision"),
    )
    phases = rates_by(lf, phase(), CLUSTERS, PHASES)
    sec.chart(
        "By phase of the game",
        phases.lines("Agreement by phase", "third of the game"),
        note="A decision's place among its game's decisions (bids included), in thirds.",
    )
    cards = rates_by(lf, cards_group(), CLUSTERS, CARD_GROUPS)
    sec.chart(
        "By cards in hand",
        cards.lines("Agreement by cards in hand", "cards in hand"),
    )
    names, matrix = pair_matrix(lf, POINT)
    sec.chart(
        "Policy x policy: the same choice",
        charts.heat_map(names, matrix, title="Agreement between policies"),
        note="Share of decision points where the two policies chose the same.",
    )
    disputed = page.section("ddz-replay-disputed", "Replay (Dou Dizhu): where the policies disagree most")
    points = most_disputed(lf, top)
    disputed.note(
        f"The {points.height} decision points with the most policies choosing otherwise than the "
        "player, then the most of them agreeing on the same other move."
    )
    if points.is_empty():
        return
    by_point = rows_of_points(lf, points, POINT)
    manifest = out.folder / REPLAY_MANIFEST
    options = recorded_options(read_json(manifest)) if manifest.is_file() else []
    for i, key in enumerate(points.select(POINT).iter_rows(), 1):
        disputed.decision(draw_decision(page.sprite, by_point[key], i, options))
