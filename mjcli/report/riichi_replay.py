"""The riichi replay part of the page: agreement charts, the policy x policy heat map, and the
decisions where the policies disagree most with the player (and, against a baseline, the changed
ones), each drawn as the seat's hand with the moves, the reasons and the command that reopens it.

Figures come from the replay's ``decisions.parquet`` through :mod:`mjcli.riichi.summary` (the
summary table and the agreement matrix, exactly as ``mjcli summary`` prints them) and
:mod:`mjcli.report.agreement` (the same agreement, by group, with its interval).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from html import escape
from pathlib import Path
from typing import Any

import polars as pl

from mjcli.ledger import table_source
from mjcli.output import plural
from mjcli.plugins import recorded_options
from mjcli.report import charts
from mjcli.report.agreement import PHASES, overall, rates_by, rows_of_points, shanten_group
from mjcli.report.agreement import most_disputed as disputed_points
from mjcli.report.outputs import REPLAY_MANIFEST, Output, read_json
from mjcli.report.page import Page
from mjcli.report.tiles_svg import Sprite, move_tiles, riichi_hand
from mjcli.riichi.summary import KEY, KINDS, compare_baseline, scan, summarise

#: a game is the unit of the intervals: decisions of one game are not independent
CLUSTERS = ("file", "game_id", "game")
POINT = [*KEY, "game"]
#: a go-round is about two moves a seat (eight at four players, six at three): the first six
#: go-rounds are the usual "early" of a hand (moves 0-47 at four players), the next six "middle",
#: the rest "late"
PHASE_ROUNDS = 6
PHASE_MOVES = 8 * PHASE_ROUNDS
SHANTEN_ORDER = ("complete", "tenpai", "1", "2", "3", "4+")


def phase(players: pl.Expr | int = 4) -> pl.Expr:
    """The phase of a decision from its move number, ``players`` seats at the table."""
    go_round = pl.col("turn") // (2 * players)
    return (
        pl.when(go_round < PHASE_ROUNDS)
        .then(pl.lit("early"))
        .when(go_round < 2 * PHASE_ROUNDS)
        .then(pl.lit("middle"))
        .otherwise(pl.lit("late"))
    )


def with_players(lf: pl.LazyFrame, folder: Path) -> tuple[pl.LazyFrame, set[int]]:
    """The decisions with ``_players``, the seats of each game's table (replay's games table has a
    row per seat: ``games.parquet``, or its parts in a parted run; 4 where it is missing), and the
    table sizes found."""
    source = table_source(folder, "games")
    try:
        if not source:
            raise OSError("no games table")
        games = pl.scan_parquet(source).select("file", "game").collect()
        seats = games.group_by("file", "game").len("_players")
    except (OSError, pl.exceptions.PolarsError):
        return lf.with_columns(pl.lit(4).alias("_players")), {4}
    schema = lf.collect_schema()
    seats = seats.with_columns(pl.col("game").cast(schema["game"]), pl.col("file").cast(schema["file"]))
    # A join does not keep the rows' order (Polars' default), and the charts list the policies in
    # the order of their first row: without the sort the page changed from run to run.
    joined = lf.with_row_index("_row").join(seats.lazy(), on=["file", "game"], how="left").sort("_row")
    joined = joined.drop("_row").with_columns(pl.col("_players").fill_null(4))
    return joined, set(seats["_players"]) or {4}


@dataclass(frozen=True)
class Logs:
    """Where the logs a replay read are, from its ``replay.json`` (label -> path)."""

    paths: dict[str, str]
    known: bool  # the replay recorded its inputs
    rules: dict[str, str] = field(default_factory=dict)  # label -> the rule set its games were played under
    #: the labels of files holding several games (their advise commands name the game)
    several: frozenset[str] = frozenset()
    #: the ``--plugin``/``--bot`` options that make the replay's own policies known to advise
    options: tuple[str, ...] = ()
    #: the replay's ``--hands-shown`` (players' names; empty: none), None when it took the logs'
    hands_shown: tuple[str, ...] | None = None
    #: (file, game) -> its players' names in lower case (games.parquet), read for ``hands_shown``
    players: dict[tuple[str, int], frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, folder: Path) -> Logs:
        manifest = folder / REPLAY_MANIFEST
        if not manifest.is_file():
            return cls({}, False)
        data = read_json(manifest)
        inputs = data.get("inputs") or []
        paths: dict[str, str] = {}
        rules: dict[str, str] = {}
        for item in inputs:
            if isinstance(item, dict) and "label" in item and "path" in item:
                paths.setdefault(str(item["label"]), str(item["path"]))
                if isinstance(item.get("rules"), str):
                    rules.setdefault(str(item["label"]), item["rules"])
        shown = data.get("hands_shown")
        hands_shown = tuple(str(n) for n in shown) if isinstance(shown, list) else None
        return cls(paths, True, rules, options=tuple(recorded_options(data)), hands_shown=hands_shown)

    def command_path(self, label: str) -> str | None:
        """The log's path for a command typed here: relative below the current folder, else absolute."""
        path = self.paths.get(label)
        if path is None:
            return None
        p = Path(path)
        try:
            return p.relative_to(Path.cwd()).as_posix()
        except ValueError:
            return p.as_posix()


def _players_by_game(folder: Path) -> dict[tuple[str, int], frozenset[str]]:
    """Each game's players (lower case) from replay's games table; empty where it cannot be read."""
    source = table_source(folder, "games")
    try:
        if not source:
            return {}
        frame = pl.scan_parquet(source).select("file", "game", "player").collect()
    except (OSError, pl.exceptions.PolarsError):
        return {}
    players: dict[tuple[str, int], set[str]] = {}
    for file, game, player in frame.iter_rows():
        players.setdefault((str(file), int(game)), set()).add(str(player or "").lower())
    return {k: frozenset(v) for k, v in players.items()}


def advise_command(logs: Logs, row: dict[str, Any]) -> tuple[str, str]:
    """The ``mjcli advise`` command that reopens a decision, and a note when the log is not known."""
    path = logs.command_path(row["file"])
    where = shlex.quote(path) if path is not None else shlex.quote(row["file"])
    cmd = (
        f"mjcli advise {where} --round {row['round']} --honba {row['honba']} "
        f"--turn {row['turn']} --seat {row['seat']}"
    )
    note = ""
    if path is None:
        note = (
            f"'{row['file']}' is the log's path inside the folder given to replay "
            + (
                "(replay.json does not list it)"
                if logs.known
                else "(this output has no replay.json naming the file)"
            )
            + ": prefix that folder."
        )
    if row.get("game") or row["file"] in logs.several:
        cmd += f" --game-index {row.get('game') or 0}"
    if logs.hands_shown is not None:
        # the view the row was made from: a replay with --hands-shown saw other hands than the log
        # records (a simulated akagi seat's, or none), and advise takes the log's by default. Only
        # the names that play in this game: advise refuses the others (replay takes a name that
        # plays in any of its logs), and no name of this game is "none" here
        here = logs.players.get((row["file"], int(row.get("game") or 0)))
        names = [n for n in logs.hands_shown if here is None or n.lower() in here]
        cmd += f" --hands-shown {shlex.quote(','.join(names) or 'none')}"
    if logs.options:  # the replay's plugins and bots, asked again beside the built-ins
        cmd += " " + shlex.join(logs.options)
    return cmd, note.strip()


# ---------------------------------------------------------------- the decisions drawn


def most_disputed(lf: pl.LazyFrame, top: int) -> pl.DataFrame:
    """The ``top`` most disputed decision points (:func:`mjcli.report.agreement.most_disputed`),
    after the consensus by the shanten, then the ukeire, the player's move lost against a policy's."""
    return disputed_points(
        lf,
        top,
        POINT,
        {
            "loss": pl.col("shanten_after_actual") - pl.col("shanten_after_choice"),
            "gap": pl.col("ukeire_choice") - pl.col("ukeire_actual"),
        },
    )


def draw_decision(
    sprite: Sprite,
    logs: Logs,
    rows: Sequence[dict[str, Any]],
    number: int,
    old: dict[str, str] | None = None,
) -> str:
    """One decision point: heading, the hand, the player's move and each policy's, the command.
    ``old`` (policy -> its baseline choice) marks the changed choices."""
    r = rows[0]
    against = sum(1 for x in rows if not x["agree"])
    badge = (
        f'<span class="badge bad">{against} of {len(rows)} policies chose otherwise</span>'
        if against
        else '<span class="badge ok">every policy agrees</span>'
    )
    who = f" ({escape(r['player'])})" if r.get("player") else ""
    head = (
        f"<h3>#{number} {escape(r['file'])} &middot; round {escape(r['round'])}-{r['honba']} &middot; "
        f"turn {r['turn']} &middot; seat {r['seat']}{who} &middot; {escape(r['kind'])} {badge}</h3>"
    )
    hand = riichi_hand(sprite, r["hand"], r.get("drawn"), r.get("offered"), r.get("melds"))
    before = f"shanten before acting: {r['shanten']}" if r.get("shanten") is not None else ""
    lines = [
        _row(
            "<b>the player</b>",
            move_tiles(sprite, r["actual"]),
            "<span class='muted'>what was played</span>",
            r.get("shanten_after_actual"),
            r.get("ukeire_actual"),
        )
    ]
    for x in rows:
        was = ""
        if old is not None and x["policy"] in old:
            was = f"<br><span class='muted'>baseline: {move_tiles(sprite, old[x['policy']])}</span>"
        lines.append(
            _row(
                escape(x["policy"]),
                move_tiles(sprite, x["choice"]) + was,
                escape(x.get("reason") or ""),
                x.get("shanten_after_choice"),
                x.get("ukeire_choice"),
                "agree" if x["agree"] else "disagree",
            )
        )
    table = (
        '<table class="data"><thead><tr><th>who</th><th>move</th><th>reason</th>'
        '<th class="num">shanten after</th><th class="num">ukeire</th></tr></thead>'
        f"<tbody>{''.join(lines)}</tbody></table>"
    )
    cmd, note = advise_command(logs, r)
    note_html = f'<p class="note">{escape(note)}</p>' if note else ""
    return (
        f'{head}{hand}<p class="note">{escape(before)}</p>{table}'
        f'<code class="cmd">{escape(cmd)}</code>{note_html}'
    )


def _row(who: str, move: str, reason: str, shanten: Any, ukeire: Any, mark: str = "") -> str:
    """A row of a decision's table (the cells given as HTML)."""
    cls = f" class='{mark}'" if mark else ""
    return (
        f"<tr><td>{who}</td><td{cls}>{move}</td><td>{reason}</td>"
        f"<td class='num'>{_num(shanten)}</td><td class='num'>{_num(ukeire)}</td></tr>"
    )


def _num(v: Any) -> str:
    return "-" if v is None else str(v)


# ---------------------------------------------------------------- the sections


#: columns the page uses beyond the ones every replay table has (see summary.scan): taken as
#: empty when a table written by an older mjcli lacks them
OPTIONAL: dict[str, Any] = {
    "game": pl.Int32,
    "player": pl.String,
    "hand": pl.String,
    "drawn": pl.String,
    "offered": pl.String,
    "melds": pl.String,
    "reason": pl.String,
    "equally_good": pl.Boolean,
    **dict.fromkeys(
        ("shanten", "shanten_after_actual", "shanten_after_choice", "ukeire_actual", "ukeire_choice"),
        pl.Int32,
    ),
}


def decisions(folder: Path) -> pl.LazyFrame:
    """The replay's decisions, with the optional columns an older table lacks added empty."""
    lf = scan(folder)
    names = set(lf.collect_schema().names())
    missing = [
        pl.lit(0 if c == "game" else None, dtype=t).alias(c) for c, t in OPTIONAL.items() if c not in names
    ]
    return lf.with_columns(missing) if missing else lf


def add_sections(page: Page, out: Output, baseline: Path | None = None, top: int = 12) -> None:
    lf = decisions(out.folder)
    summary = summarise(lf)
    logs = Logs.of(out.folder)
    several = lf.filter(pl.col("game") > 0).select("file").unique().collect()["file"].to_list()
    logs = replace(logs, several=frozenset(several))
    if logs.hands_shown:
        logs = replace(logs, players=_players_by_game(out.folder))
    page.lines.append(
        f"replay (riichi): {summary['games']} games, {summary['decision_points']} decision points, "
        f"{summary['rows']} policy answers"
    )
    if logs.rules:
        # the rule set each log was played under (replay.json; older replays do not record it)
        counts: dict[str, int] = {}
        for name in logs.rules.values():
            counts[name] = counts.get(name, 0) + 1
        page.lines.append(
            "rules: " + ", ".join(f"{n} ({plural(c, 'log')})" for n, c in sorted(counts.items()))
        )
    sec = page.section("replay-agreement", "Replay: agreement with the players")
    sec.note(
        "Share of decisions where a policy chose what the player did. Whiskers and bands: 95 % "
        "intervals, cluster-robust over games (the decisions of one game are not independent); none "
        "where fewer than two games have such decisions."
    )
    if not summary["rows"]:
        sec.note("This replay holds no decision.")
        return
    whole = overall(lf, CLUSTERS)
    rows = [
        [p["policy"], p["decisions"], whole.get(p["policy"]), p.get("top1"), p.get("equal")]
        for p in summary["policies"]
    ]
    sec.table(["policy", "decisions", "agree [95 % interval]", "top1", "equal"], rows)
    kinds = rates_by(lf, pl.col("kind"), CLUSTERS, KINDS)
    sec.chart(
        "By kind of decision",
        kinds.bars("Agreement by kind of decision", "kind of decision"),
    )
    tables, sizes = with_players(lf, out.folder)
    phases = rates_by(tables, phase(pl.col("_players")), CLUSTERS, PHASES)
    note = (
        f"early: moves 0-{PHASE_MOVES - 1} of the round (about the first six go-rounds), middle: "
        f"{PHASE_MOVES}-{2 * PHASE_MOVES - 1}, late: the rest."
    )
    if 3 in sizes:
        three = 6 * PHASE_ROUNDS
        note = note[:-1] + f"; at three players: moves 0-{three - 1}, {three}-{2 * three - 1}, the rest."
    sec.chart(
        "By turn: early, middle, late",
        phases.lines("Agreement by turn phase", "phase of the round"),
        note=note,
    )
    shanten = rates_by(lf, shanten_group(), CLUSTERS, SHANTEN_ORDER)
    if shanten.groups:
        sec.chart(
            "By shanten before acting",
            shanten.lines("Agreement by shanten", "shanten before acting"),
        )
    else:
        sec.note("This decisions table records no shanten (an older mjcli wrote it): no chart by shanten.")
    # the summary's own matrix (tests/test_summary.py: equal to agreement_matrix over the whole
    # table), not that join made again over every row: 0.46 s of a 3.4 s report of 171 hanchan
    matrix = summary["matrix"]
    names = [row["policy"] for row in matrix]
    sec.chart(
        "Policy x policy: the same choice",
        charts.heat_map(
            names,
            [[row[n] for n in names] for row in matrix],
            title="Agreement between policies",
        ),
        note="Share of decision points where the two policies chose the same action.",
    )

    disputed = page.section("replay-disputed", "Replay: where the policies disagree most with the player")
    points = most_disputed(lf, top)
    disputed.note(
        f"The {points.height} decision points with the most policies choosing otherwise than the player "
        "(then: the most policies agreeing on the same other move, the most shanten, then ukeire, the "
        "player's move gave up). Shanten after and ukeire: of the hand each move leaves."
    )
    by_point = rows_of_points(lf, points, POINT)
    for i, key in enumerate(points.select(POINT).iter_rows(), 1):
        disputed.decision(draw_decision(page.sprite, logs, by_point[key], i))
    _changes_section(page, lf, out, logs, baseline, top)


def _changes_section(
    page: Page, lf: pl.LazyFrame, out: Output, logs: Logs, baseline: Path | None, top: int
) -> None:
    """The changed decisions against ``baseline`` (compared now), or those replay --baseline wrote."""
    if baseline is not None:
        changes, counts = compare_baseline(lf, baseline)
        source = (
            f"Compared with {baseline}: {changes.height} changed of {counts['compared']} compared "
            f"decisions ({counts['only_old']} only in the baseline, {counts['only_new']} only in this run)."
        )
    elif (out.folder / "changes.parquet").is_file():
        changes = pl.read_parquet(out.folder / "changes.parquet")
        source = f"{changes.height} changed decisions, as replay --baseline wrote them to changes.parquet."
    else:
        return
    sec = page.section("replay-changes", "Replay: decisions changed against the baseline")
    sec.note(source)
    if changes.is_empty():
        sec.note("No decision changed.")
        return
    points = changes.select(KEY).unique(maintain_order=True)
    shown = points.head(top)
    if points.height > top:
        sec.note(f"The first {top} of {points.height} decision points with a change are drawn.")
    # the points in the table's order (numbered before the join, whose order is not promised)
    full = (
        lf.with_row_index("_order")
        .join(shown.lazy(), on=KEY, how="inner")
        .sort("_order")
        .select(*POINT)
        .unique(maintain_order=True)
        .collect()
    )
    by_point = rows_of_points(lf, full, POINT)
    olds: dict[tuple, dict[str, str]] = {}
    for r in changes.iter_rows(named=True):
        olds.setdefault(tuple(r[c] for c in KEY), {})[r["policy"]] = r["old"]
    for i, key in enumerate(full.iter_rows(), 1):
        rows = by_point[key]
        sec.decision(draw_decision(page.sprite, logs, rows, i, olds.get(key[: len(KEY)], {})))
