"""The Hong Kong (and Red) replay part of the page, the same shape as riichi's with this game's
measures: agreement by kind of decision (discard, claim, win, kong, rob), by phase of the hand (the
tiles left in the wall) and by shanten before acting, the policy x policy heat map, and the
decisions where the policies disagree most with the player, drawn as the seat's tiles (bonus tiles
and jokers included).

Figures come from the replay's ``decisions.parquet`` through :mod:`mjcli.hk.summary` (the table and
the agreement matrix, exactly as ``mjcli summary --game hk`` prints them) and
:mod:`mjcli.report.agreement` (the same agreement by group, with its interval; the game is the
unit). ``advise --game hk`` takes typed hands only, on their own turn: a decision on the seat's own
turn gets the typed-hand command of its position; a claim, a win on a discard or a rob gets none.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.errors import UsageError
from mjcli.hk.notation import hand_text, parse_hand, tile_code
from mjcli.hk.summary import KINDS, summarise
from mjcli.ledger import table_source
from mjcli.plugins import recorded_options
from mjcli.report import charts
from mjcli.report.agreement import PHASES, overall, rates_by, rows_of_points, shanten_group
from mjcli.report.agreement import most_disputed as disputed_points
from mjcli.report.outputs import MARKERS, REPLAY_MANIFEST, Output, columns, read_json
from mjcli.report.page import Page
from mjcli.report.tiles_svg import Sprite, hk_hand, hk_tokens, move_tiles

#: a game is the unit of the intervals: decisions of one game are not independent
CLUSTERS = ("file", "game_id")
#: one decision point (the summary's key and the kind)
POINT = ["file", "game_id", "hand_index", "round", "turn", "seat", "kind"]
NEEDED = (*POINT, "player", "hand", "actual", "policy", "choice", "agree")
#: columns written since mjcli report draws Hong Kong replays: taken as empty when an older
#: table lacks them (the charts and commands that need them are then left out, with a note)
OPTIONAL: dict[str, Any] = {
    "drawn": pl.String,
    "offered": pl.String,
    "melds": pl.String,
    "reason": pl.String,
    "bonus": pl.String,
    "seen": pl.String,
    "shanten": pl.Int64,
    "min_faan": pl.Int64,
    "wall_left": pl.Int64,
}
#: the wall holds at most 91 tiles once the hands are dealt (Red: 95): thirds of that
EARLY, LATE = 60, 30
SHANTEN_ORDER = ("complete", "tenpai", "1", "2", "3", "4+")
_ROUND = re.compile(r"([ESWN])([1-4])-\d+$")


def decisions(folder: Path) -> pl.LazyFrame:
    """The replay's decisions, with the optional columns an older table lacks added empty."""
    source = table_source(folder, "decisions")  # the file, or the parts of a run on Ray or resumed
    path = source[0] if isinstance(source, list) and source else folder / MARKERS["replay"]
    names = columns(path)
    missing = [c for c in NEEDED if c not in names]
    if missing:
        raise UsageError(f"'{path}' is not a Hong Kong replay's decisions (no {', '.join(missing)} column)")
    lf = pl.scan_parquet(source if isinstance(source, list) and source else path)
    absent = [pl.lit(None, dtype=t).alias(c) for c, t in OPTIONAL.items() if c not in names]
    return lf.with_columns(absent) if absent else lf


def phase() -> pl.Expr:
    w = pl.col("wall_left")
    return (
        pl.when(w > EARLY)
        .then(pl.lit("early"))
        .when(w > LATE)
        .then(pl.lit("middle"))
        .when(w.is_not_null())
        .then(pl.lit("late"))
    )


def most_disputed(lf: pl.LazyFrame, top: int) -> pl.DataFrame:
    """The ``top`` most disputed decision points (:func:`mjcli.report.agreement.most_disputed`)."""
    return disputed_points(lf, top, POINT)


# ---------------------------------------------------------------- a decision drawn


def seat_wind(round_label: str, seat: int) -> str | None:
    """The seat's wind in the hand ``E2-0`` (the digit is the dealer's seat + 1), or None."""
    m = _ROUND.match(round_label or "")
    if m is None:
        return None
    return "ESWN"[(seat - (int(m.group(2)) - 1)) % 4]


def _typed_hand(hand: str, drawn: str | None) -> str:
    """The hand as advise reads it: the drawn tile written last."""
    if not drawn:
        return hand
    codes = parse_hand(hand, jokers=True)
    codes.remove(tile_code(drawn))
    return hand_text(codes) + drawn


def advise_command(
    row: dict[str, Any], game: str, policies: Sequence[str], options: Sequence[str] = ()
) -> tuple[str, str]:
    """The typed-hand ``mjcli advise`` of a decision on the seat's own turn, and a note (a decision
    on another player's tile gets the note alone); ``options``: the replay's ``--plugin`` options
    (``replay.json``'s ``policy_options``), which make its plugins known to advise."""
    if row.get("offered"):
        what = "an added kong" if row["kind"] == "rob" else "another player's discard"
        return "", (
            f"A decision on {what}: advise takes a hand on its own turn only, so this one is shown here only."
        )
    wind = seat_wind(row["round"], row["seat"])
    if wind is None or row.get("min_faan") is None or row.get("seen") is None:
        return "", "This replay table does not record the table around the hand (an older mjcli wrote it)."
    parts = ["mjcli", "advise", "--game", game, _typed_hand(row["hand"], row.get("drawn"))]
    if row.get("melds"):
        parts += ["--melds", row["melds"]]
    if row["seen"]:
        parts += ["--seen", row["seen"]]
    parts += ["--seat", wind, "--round", row["round"][0]]
    bonus = hk_tokens(row.get("bonus") or "")
    for option, letter in (("--flowers", "F"), ("--seasons", "S")):
        numbers = [t[1] for t in bonus if t[0] == letter]
        if numbers:
            parts += [option, ",".join(numbers)]
    parts += ["--min-faan", str(row["min_faan"]), "--policy", ",".join(policies), *options]
    notes = []
    if not row.get("drawn"):
        notes.append(
            "This turn comes right after a call, when only a discard is allowed: advise takes the last "
            "tile written as just drawn and may also offer a kong or a win."
        )
    if row.get("wall_left") == 0:
        notes.append(
            "The tile drawn was the wall's last: advise takes the wall as not empty, so it counts no "
            "last-tile faan, and a win that needs it is not offered there."
        )
    return shlex.join(parts), " ".join(notes)


def _move(sprite: Sprite, move: str) -> str:
    parts = move.split()
    tiles = hk_tokens(parts[1]) if len(parts) >= 2 else None
    return move_tiles(sprite, move, tiles)


def draw_decision(
    sprite: Sprite,
    rows: Sequence[dict[str, Any]],
    number: int,
    game: str,
    policies: Sequence[str],
    options: Sequence[str] = (),
) -> str:
    r = rows[0]
    against = sum(1 for x in rows if not x["agree"])
    who = f" ({escape(r['player'])})" if r.get("player") else ""
    head = (
        f"<h3>#{number} {escape(r['file'])} &middot; hand {r['hand_index']} ({escape(r['round'])}) &middot; "
        f"turn {r['turn']} &middot; seat {r['seat']}{who} &middot; {escape(r['kind'])} "
        f'<span class="badge bad">{against} of {len(rows)} policies chose otherwise</span></h3>'
    )
    hand = hk_hand(sprite, r["hand"], r.get("drawn"), r.get("offered"), r.get("melds"), r.get("bonus"))
    facts = [
        f"shanten before acting: {r['shanten']}" if r.get("shanten") is not None else "",
        f"{r['wall_left']} tiles left in the wall" if r.get("wall_left") is not None else "",
        f"minimum {r['min_faan']} faan" if r.get("min_faan") is not None else "",
    ]
    lines = [
        f"<tr><td><b>the player</b></td><td>{_move(sprite, r['actual'])}</td>"
        "<td class='muted'>what was played</td></tr>"
    ]
    for x in rows:
        mark = "agree" if x["agree"] else "disagree"
        lines.append(
            f"<tr><td>{escape(x['policy'])}</td><td class='{mark}'>{_move(sprite, x['choice'])}</td>"
            f"<td>{escape(x.get('reason') or '')}</td></tr>"
        )
    table = (
        '<table class="data"><thead><tr><th>who</th><th>move</th><th>reason</th></tr></thead>'
        f"<tbody>{''.join(lines)}</tbody></table>"
    )
    cmd, note = advise_command(r, game, policies, options)
    cmd_html = f'<code class="cmd">{escape(cmd)}</code>' if cmd else ""
    note_html = f'<p class="note">{escape(note)}</p>' if note else ""
    return (
        f'{head}{hand}<p class="note">{escape("; ".join(f for f in facts if f))}</p>{table}'
        f"{cmd_html}{note_html}"
    )


def _policy_options(folder: Path) -> list[str]:
    """The replay's ``--plugin`` options from replay.json (none without it)."""
    manifest = folder / REPLAY_MANIFEST
    return recorded_options(read_json(manifest)) if manifest.is_file() else []


def _log_rules(folder: Path) -> dict[str, str]:
    """Each log's own rule set (hk, red) by its label, from replay.json (empty without it)."""
    manifest = folder / REPLAY_MANIFEST
    if not manifest.is_file():
        return {}
    out: dict[str, str] = {}
    for item in read_json(manifest).get("inputs") or []:
        if isinstance(item, dict) and isinstance(item.get("rules"), str) and "label" in item:
            out.setdefault(str(item["label"]), item["rules"])
    return out


# ---------------------------------------------------------------- the sections


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 12) -> None:
    lf = decisions(out.folder)
    frame = lf.collect()
    title = "Red" if out.game == "red" else "Hong Kong"
    summary = summarise(frame)
    games = frame.select(CLUSTERS).unique().height
    page.lines.append(
        f"replay ({title}): {games} games, {summary['decision_points']} decision points, "
        f"{summary['answers']} policy answers"
    )
    sec = page.section("hk-replay-agreement", f"Replay ({title}): agreement with the players")
    sec.note(
        "Share of decisions where a policy chose what the player did. Whiskers and bands: 95 % "
        "intervals, cluster-robust over games; none where fewer than two games have such decisions."
    )
    if not summary["answers"]:
        sec.note("This replay holds no decision.")
        return
    whole = overall(lf, CLUSTERS)
    sec.table(
        ["policy", "decisions", "agree [95 % interval]", *KINDS],
        [
            [e["policy"], e["decisions"], whole.get(e["policy"]), *[e[k] for k in KINDS]]
            for e in summary["policies"]
        ],
    )
    kinds = rates_by(lf, pl.col("kind"), CLUSTERS, KINDS)
    sec.chart(
        "By kind of decision",
        kinds.bars("Agreement by kind of decision", "kind of decision"),
    )
    phases = rates_by(lf, phase(), CLUSTERS, PHASES)
    if phases.groups:
        sec.chart(
            "By phase of the hand",
            phases.lines("Agreement by phase", "phase of the hand (tiles left in the wall)"),
            note=f"Tiles left in the wall: early more than {EARLY}, middle {LATE + 1}-{EARLY}, late {LATE} "
            "or fewer (the wall holds 91 once the hands are dealt, Red 95).",
        )
    shanten = rates_by(lf, shanten_group(), CLUSTERS, SHANTEN_ORDER)
    if shanten.groups:
        sec.chart(
            "By shanten before acting",
            shanten.lines("Agreement by shanten", "shanten before acting"),
        )
    if not phases.groups or not shanten.groups:
        sec.note(
            "This decisions table records no wall or shanten (an older mjcli wrote it): no chart by them."
        )
    names = [e["policy"] for e in summary["policies"]]
    sec.chart(
        "Policy x policy: the same choice",
        charts.heat_map(
            names,
            [[summary["matrix"][a][b] for b in names] for a in names],
            title="Agreement between policies",
        ),
        note="Share of decision points where the two policies chose the same move.",
    )

    disputed = page.section("hk-replay-disputed", f"Replay ({title}): where the policies disagree most")
    points = most_disputed(lf, top)
    disputed.note(
        f"The {points.height} decision points with the most policies choosing otherwise than the player, "
        "then the most of them agreeing on the same other move."
    )
    disputed.note(
        "A decision on the seat's own turn gets the advise command that types its position: advise "
        "reads a typed hand, not the log, so the command gives the hand (the drawn tile last), its "
        "melds, the tiles exposed elsewhere (--seen), the winds, the bonus tiles and the table's "
        "minimum; it does not know the tiles left in the wall (the last-tile faan) or a kong "
        "replacement draw. advise has no claims: a decision on another player's tile is shown here only."
    )
    if points.is_empty():
        return
    by_point = rows_of_points(frame, points, POINT)
    rules = _log_rules(out.folder)
    options = _policy_options(out.folder)
    for i, key in enumerate(points.select(POINT).iter_rows(), 1):
        rows = by_point[key]
        game = rules.get(rows[0]["file"], out.game)
        disputed.decision(draw_decision(page.sprite, rows, i, game, names, options))
