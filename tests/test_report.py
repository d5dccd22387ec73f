"""`mjcli report` without a browser: the HTML of each kind of output, read back and checked against
the tables it comes from; the charts and tiles as SVG; detection, bad input, reopening a decision."""

from __future__ import annotations

import json
import math
import re
import shlex
import shutil
from collections import Counter
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from report_outputs import HK_BROKEN, HK_TAMPERED, KINDS, ODD_LOGS
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.games import games_with
from mjcli.hk.advise import build_view
from mjcli.hk.figures import format_estimate as hk_format
from mjcli.hk.policies import get_policy
from mjcli.hk.rules import get_rules
from mjcli.hk.summary import KINDS as HK_KINDS
from mjcli.hk.summary import summarise as hk_summarise
from mjcli.report import charts, hk_replay
from mjcli.report.agreement import pair_matrix, rates_by
from mjcli.report.build import SECTIONS, build_report, write_report
from mjcli.report.outputs import find_outputs
from mjcli.report.riichi_replay import CLUSTERS, most_disputed
from mjcli.report.tiles_svg import Sprite, doudizhu_hand, hk_hand, hk_tokens, riichi_hand, tile_tokens
from mjcli.riichi.summary import KEY, agreement_matrix, policy_table, scan
from mjcli.stats import Estimate

runner = CliRunner()


class Parsed(HTMLParser):
    """The parts of a page the tests look at: SVG charts and their shapes, hands and their tiles,
    symbols and the ids used, commands, every attribute value."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.charts: list[Counter[str]] = []
        self.hands: list[tuple[int, int]] = []  # (data-tiles, tiles inside)
        self.symbols: set[str] = set()
        self.uses: list[str] = []
        self.commands: list[str] = []
        self.attrs: list[str] = []
        self.tags: Counter[str] = Counter()
        self._chart_depth = 0
        self._hand_depth = 0
        self._depth = 0
        self._in_cmd = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags[tag] += 1
        self.attrs.extend(v for v in a.values() if v)
        classes = (a.get("class") or "").split()
        if tag not in ("br", "meta", "rect", "path", "use", "line", "circle", "polygon", "polyline"):
            self._depth += 1
        if tag == "svg" and "chart" in classes:
            self.charts.append(Counter())
            self._chart_depth = self._depth
        elif self._chart_depth and tag in ("rect", "path", "polyline", "polygon", "circle"):
            self.charts[-1][f"{tag}.{classes[0] if classes else ''}"] += 1
        if tag == "div" and "hand" in classes:
            self.hands.append((int(a["data-tiles"] or -1), 0))
            self._hand_depth = self._depth
        elif self._hand_depth and tag == "svg" and ("tile" in classes or "card" in classes):
            want, got = self.hands[-1]
            self.hands[-1] = (want, got + 1)
        if tag == "symbol":
            self.symbols.add(a["id"] or "")
        if tag == "use":
            self.uses.append(a["href"] or "")
        if tag == "code" and "cmd" in classes:
            self._in_cmd = True
            self.commands.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("br", "meta", "rect", "path", "use", "line", "circle", "polygon", "polyline"):
            if self._depth == self._chart_depth:
                self._chart_depth = 0
            if self._depth == self._hand_depth:
                self._hand_depth = 0
            self._depth -= 1
        if tag == "code":
            self._in_cmd = False

    def handle_data(self, data: str) -> None:
        if self._in_cmd:
            self.commands[-1] += data


def page_of(folder: Path, tmp_path: Path, *args: str) -> tuple[str, Parsed]:
    target = tmp_path / f"{folder.name}.html"
    result = runner.invoke(app, ["report", str(folder), "-o", str(target), *args])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"wrote {target} (")
    text = target.read_text(encoding="utf-8")
    return text, Parsed(text)


def assert_self_contained(text: str, parsed: Parsed) -> None:
    """Nothing to load: no script, link, image or frame; the only URL is the SVG namespace."""
    assert not parsed.tags["script"] and not parsed.tags["link"] and not parsed.tags["img"]
    assert not parsed.tags["iframe"] and "@import" not in text and "url(" not in text
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", text))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls
    assert all(u.startswith("#") and u[1:] in parsed.symbols for u in parsed.uses)
    ids = re.findall(r' id="([^"]+)"', text)
    assert len(ids) == len(set(ids)), "an id given twice"


def assert_drawn(parsed: Parsed, charts_at_least: int, hands: int) -> None:
    assert len(parsed.charts) >= charts_at_least
    data = ("rect.bar", "rect.cell", "polyline.line", "circle.dot")
    for shapes in parsed.charts:
        assert sum(shapes[d] for d in data) > 0, f"an empty chart: {shapes}"
    assert len(parsed.hands) == hands
    assert all(want == got and want > 0 for want, got in parsed.hands), parsed.hands


# ---------------------------------------------------------------- each kind of output


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_found_and_drawn(kind: str, report_outputs: dict[str, Path], tmp_path: Path) -> None:
    folder = report_outputs[kind]
    (found,) = find_outputs(folder)
    assert f"{found.game}-{found.kind}" == kind
    text, parsed = page_of(folder, tmp_path)
    assert_self_contained(text, parsed)
    hands = 12 if kind.endswith("replay") else 0
    assert_drawn(parsed, 2, hands)
    # the same input gives the same bytes
    again = build_report(folder).html
    assert again == text


def test_replay_page_figures_are_the_summarys(report_outputs: dict[str, Path], tmp_path: Path) -> None:
    """The agreement by kind drawn (with intervals) is the summary's figure; the interval holds it."""
    folder = report_outputs["riichi-replay"]
    lf = scan(folder)
    table = policy_table(lf)
    kinds = rates_by(lf, pl.col("kind"), CLUSTERS)
    for row in table.iter_rows(named=True):
        for k in kinds.groups:
            e = kinds.rates[row["policy"]][k]
            assert e.value == pytest.approx(row[k], abs=1e-12)
            assert math.isnan(e.lo) or e.lo - 1e-12 <= e.value <= e.hi + 1e-12
    text, _ = page_of(folder, tmp_path)
    for row in table.iter_rows(named=True):
        assert f"<td>{row['policy']}</td>" in text


def test_the_pair_matrix_of_dou_dizhu_is_the_riichi_summarys_on_riichi(
    report_outputs: dict[str, Path],
) -> None:
    """Dou Dizhu's heat map is computed by the report (its summary has none); on riichi rows the same
    function gives exactly the riichi summary's matrix, so the two cannot drift apart."""
    lf = scan(report_outputs["riichi-replay"])
    names, matrix = pair_matrix(lf, KEY)
    theirs = agreement_matrix(lf)
    assert names == theirs["policy"].to_list()
    assert matrix == [[row[n] for n in names] for row in theirs.iter_rows(named=True)]


def test_the_most_disputed_decisions_are_found(report_outputs: dict[str, Path]) -> None:
    """Brute force over the rows: no decision point has more policies against the player than the
    first one drawn, and each drawn point has as many as counted."""
    lf = scan(report_outputs["riichi-replay"])
    rows = lf.collect().to_dicts()
    against: Counter[tuple] = Counter()
    for r in rows:
        key = (r["file"], r["game_id"], r["round"], r["honba"], r["turn"], r["seat"], r["kind"], r["game"])
        against[key] += not r["agree"]
    top = most_disputed(lf, 5)
    assert top.height == 5
    assert top["against"][0] == max(against.values())
    for r in top.iter_rows(named=True):
        key = (r["file"], r["game_id"], r["round"], r["honba"], r["turn"], r["seat"], r["kind"], r["game"])
        assert against[key] == r["against"]
    assert top["against"].to_list() == sorted(top["against"].to_list(), reverse=True)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", None]),  # a key column that may be null
            st.integers(0, 3),  # another
            st.sampled_from(["p1", "p2", "p3"]),
            st.sampled_from(["x", "y", "z", None]),  # the choice (a bot's fault: none)
            st.booleans() | st.none(),  # agree
            st.integers(-3, 3),  # a "worst" figure
        ),
        max_size=60,
    ),
    st.integers(1, 8),
)
def test_the_most_disputed_points_are_the_brute_forces(rows: list[tuple], top: int) -> None:
    """Every figure of every point counted in Python, sorted as the function says; a null key value
    is a key value, a null choice is one more choice, a null agreement counts neither way."""
    from mjcli.report.agreement import most_disputed as disputed

    frame = pl.DataFrame(
        rows,
        schema={
            "k1": pl.String,
            "k2": pl.Int32,
            "policy": pl.String,
            "choice": pl.String,
            "agree": pl.Boolean,
            "w": pl.Int32,
        },
        orient="row",
    )
    got = disputed(frame.lazy(), top, ["k1", "k2"], {"worst": pl.col("w")})
    points: dict[tuple, list[tuple]] = {}
    for r in rows:
        points.setdefault((r[0], r[1]), []).append(r)
    expected = []
    for (k1, k2), its in points.items():
        against = [r for r in its if r[4] is False]
        if not against:
            continue
        consensus = max(Counter(r[3] for r in against).values())
        expected.append((k1, k2, len(its), len(against), consensus, max(r[5] for r in its)))
    # against, consensus, worst: largest first; then the key, nulls first (Polars' order)
    expected.sort(key=lambda e: (-e[3], -e[4], -e[5], e[0] is not None, e[0] or "", e[1]))
    assert got.columns == ["k1", "k2", "asked", "against", "consensus", "worst"]
    assert got.rows() == expected[:top]


def test_the_rows_of_the_drawn_points_come_in_the_tables_order_whatever_the_order(
    report_outputs: dict[str, Path],
) -> None:
    """Each drawn point's rows in the table's order, the same every run, on a table in any order
    (rows shuffled): what a count in Python over the rows finds."""
    from mjcli.report.agreement import rows_of_points
    from mjcli.report.riichi_replay import POINT

    table = pl.read_parquet(report_outputs["riichi-replay"] / "decisions.parquet")
    if "game" not in table.columns:
        table = table.with_columns(game=pl.lit(0, dtype=pl.Int32))
    shuffled = table.sample(fraction=1.0, shuffle=True, seed=7)
    points = most_disputed(shuffled.lazy(), 6)
    wanted = set(points.select(POINT).iter_rows())
    expected: dict[tuple, list[dict]] = {}
    for r in shuffled.iter_rows(named=True):
        key = tuple(r[c] for c in POINT)
        if key in wanted:
            expected.setdefault(key, []).append(r)
    for _ in range(4):
        got = rows_of_points(shuffled.lazy(), points, POINT)
        assert [[{k: v for k, v in r.items() if k != "_rank"} for r in got[k]] for k in expected] == list(
            expected.values()
        )
        assert list(got) == [tuple(r) for r in points.select(POINT).iter_rows()]


def test_the_advise_command_of_a_drawn_decision_reopens_it(
    report_outputs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command on the page, run as written, shows the same position: the player's move and
    every policy's choice are the row's."""
    folder = report_outputs["riichi-replay"]
    monkeypatch.chdir(tmp_path)  # the log paths must not depend on where the page was made
    _, parsed = page_of(folder, tmp_path)
    rows = scan(folder).collect()
    assert len(parsed.commands) == 12
    for cmd in parsed.commands[:3]:
        args = shlex.split(cmd)
        assert args[:2] == ["mjcli", "advise"] and Path(args[2]).is_file()
        result = runner.invoke(app, [*args[1:], "--policy", "akagi,mahjongjoy,efficiency", "--json"])
        assert result.exit_code == 0, result.output
        shown = json.loads(result.stdout)
        opt = dict(zip(args[3::2], args[4::2], strict=True))
        here = rows.filter(
            (pl.col("file") == Path(args[2]).name)
            & (pl.col("round") == opt["--round"])
            & (pl.col("honba") == int(opt["--honba"]))
            & (pl.col("turn") == int(opt["--turn"]))
            & (pl.col("seat") == int(opt["--seat"]))
        )
        assert here.height == 3
        assert shown["actual_text"] == here["actual"][0]
        assert {p["policy"]: p["choice"] for p in shown["policies"]} == dict(
            zip(here["policy"], here["choice"], strict=True)
        )


def test_a_replay_without_its_manifest_shows_the_label(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "old"
    shutil.copytree(report_outputs["riichi-replay"], folder)
    (folder / "replay.json").unlink()
    (found,) = find_outputs(folder)
    assert (found.kind, found.game) == ("replay", "riichi")  # from the columns
    text, parsed = page_of(folder, tmp_path)
    assert parsed.commands[0].startswith("mjcli advise sim-00000")
    assert "this output has no replay.json naming the file" in text


def test_every_replay_output_keeps_its_manifest(report_outputs: dict[str, Path]) -> None:
    """replay.json is one of the files replay --out owns: it comes out of the stage with the tables."""
    for kind in (k for k in report_outputs if k.endswith("-replay")):
        manifest = json.loads((report_outputs[kind] / "replay.json").read_text())
        assert manifest["game"] == kind.split("-")[0] and manifest["inputs"], kind
        assert all(Path(i["path"]).is_file() for i in manifest["inputs"]), kind


def test_an_older_replay_table_without_the_figures_is_drawn(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "older"
    folder.mkdir()
    frame = pl.read_parquet(report_outputs["riichi-replay"] / "decisions.parquet")
    frame.drop("game", "shanten", "shanten_after_actual", "ukeire_choice", "melds").write_parquet(
        folder / "decisions.parquet"
    )
    text, parsed = page_of(folder, tmp_path)
    assert_self_contained(text, parsed)
    assert_drawn(parsed, 3, 12)


def test_baseline_draws_the_changed_decisions(report_outputs: dict[str, Path], tmp_path: Path) -> None:
    """Two of a policy's choices edited in a copy: the page draws those two decision points, with
    the baseline's choice beside the new one; replay's own changes.parquet is drawn the same way."""
    folder = report_outputs["riichi-replay"]
    frame = pl.read_parquet(folder / "decisions.parquet")
    edited = frame.with_row_index("_i").with_columns(
        pl.when((pl.col("_i") < 4) & (pl.col("policy") == "akagi"))
        .then(pl.lit("nine_terminals"))
        .otherwise(pl.col("choice"))
        .alias("choice")
    )
    changed = edited.filter(pl.col("choice") != frame["choice"])
    assert changed.height == 2
    old = tmp_path / "old.parquet"
    edited.drop("_i").write_parquet(old)
    text, parsed = page_of(folder, tmp_path, "--baseline", str(old), "--top", "3")
    assert_self_contained(text, parsed)
    assert 'id="replay-changes"' in text and "2 changed of" in text
    assert len(parsed.hands) == 3 + 2
    assert text.count('baseline: <span class="move">nine_terminals</span>') == 2
    # the same from replay --baseline's changes.parquet
    rerun = tmp_path / "rerun"
    logs = [Path(p["path"]) for p in json.loads((folder / "replay.json").read_text())["inputs"]]
    res = runner.invoke(
        app, ["replay", *map(str, logs), "--policy", "akagi,mahjongjoy,efficiency", "-j", "1",
              "--baseline", str(old), "--max-changes", "5", "--out", str(rerun)],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    text2, parsed2 = page_of(rerun, tmp_path)
    assert "2 changed decisions, as replay --baseline wrote them" in text2
    assert len(parsed2.hands) == 12 + 2


def test_simulation_page_shows_summary_figures_and_rank_counts(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = report_outputs["riichi-simulate"]
    summary = json.loads((folder / "summary.json").read_text())
    text, parsed = page_of(folder, tmp_path)
    assert 'id="simulation-paired"' in text  # --duplicate
    assert len(parsed.charts) == 5 + 3
    games = pl.read_parquet(folder / "games.parquet")
    for e in summary["policies"]:
        p = e["placement"]
        assert f"{p['value']:.2f} [{p['lo']:.2f}, {p['hi']:.2f}]" in text
        mine = games.filter(pl.col("policy") == e["policy"])
        for rank, label in enumerate(("1st", "2nd", "3rd", "4th"), 1):
            n = mine.filter(pl.col("placement") == rank).height
            if n:
                assert f"{e['policy']}, {label}: {n / mine.height:.1%} ({n})" in text


def test_verify_page_lists_every_mismatch_with_its_round(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = report_outputs["riichi-verify"]
    text, parsed = page_of(folder, tmp_path)
    games = pl.read_parquet(folder / "verify_games.parquet")
    rounds = pl.read_parquet(folder / "verify.parquet")
    # what `mjcli verify` printed: the same counts
    logs = len(list((report_outputs["riichi-simulate"] / "logs").iterdir()))
    assert games.height == logs + 2 and set(games["status"]) == {"ok", "mismatch", "error"}
    line = f"{int(rounds['match'].sum())}/{rounds.height} rounds match"
    assert line in text
    mism = pl.read_parquet(folder / "verify_mismatches.parquet")
    assert mism.to_dicts() == [
        {
            "file": str(ODD_LOGS[0]),
            "game": "confusing_nakis_1",
            "round": "E2-2",
            "what": "seat 0 deltas",
            "log": "[1600,0,-1600,0]",
            "engine": "[2600,0,-1600,0]",
        }
    ]
    assert "<td>E2-2</td><td>seat 0 deltas</td><td>[1600,0,-1600,0]</td><td>[2600,0,-1600,0]</td>" in text
    assert "incomplete log: the log ends after round S3-0" in text


def test_an_older_verify_output_lists_the_rounds_that_do_not_match(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "old-verify"
    folder.mkdir()
    shutil.copy(report_outputs["riichi-verify"] / "verify.parquet", folder / "verify.parquet")
    text, parsed = page_of(folder, tmp_path)
    assert "has no verify_mismatches.parquet" in text
    assert "<td>E2-2</td><td>ron</td><td>ron</td>" in text
    assert len(parsed.charts) == 1


def test_doudizhu_replay_records_the_lead_and_role(report_outputs: dict[str, Path], tmp_path: Path) -> None:
    frame = pl.read_parquet(report_outputs["doudizhu-replay"] / "decisions.parquet")
    follows = frame.filter(pl.col("kind") == "follow")
    assert follows["lead"].null_count() == 0
    assert frame.filter(pl.col("kind") != "follow")["lead"].null_count() == frame.height - follows.height
    assert set(frame.filter(pl.col("kind") == "bid")["role"].to_list()) == {None}
    assert set(follows["role"]) == {"landlord", "peasant"}
    _, parsed = page_of(report_outputs["doudizhu-replay"], tmp_path)
    plays = [c for c in parsed.commands if "--lead" in c]
    assert plays
    result = runner.invoke(app, shlex.split(plays[0])[1:])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("kind", KINDS)
def test_every_chart_with_axes_names_its_values(
    kind: str, report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    """Bars, lines and stacked bars carry a y-axis title (a reviewer found none on any chart: the
    points of an ADP chart were explained only above it); the heat maps name their rows and
    columns by the policies."""
    text, _ = page_of(report_outputs[kind], tmp_path)
    svgs = re.findall(r'<svg [^>]*class="chart".*?</svg>', text, flags=re.S)
    with_axes = [svg for svg in svgs if 'class="axis"' in svg]
    assert with_axes
    for svg in with_axes:
        titles = re.findall(r'rotate\(-90\)" text-anchor="middle">([^<]+)</text>', svg)
        assert len(titles) == 1 and titles[0].strip(), svg[:300]


def test_the_advise_commands_of_a_file_of_two_games_name_the_game(tmp_path: Path) -> None:
    """A file holding two games: each drawn decision's command carries --game-index (the page said
    "advise reads the file's first game", and advise did, in silence), and reopens the row."""
    shared = Path(__file__).resolve().parents[2] / "shared" / "logs" / "mjai"
    two = tmp_path / "two.jsonl"
    two.write_bytes(
        (shared / "example_before_injection.jsonl").read_bytes()
        + (shared / "126_204_0_mjai.jsonl").read_bytes()
    )
    out = tmp_path / "rep"
    result = runner.invoke(
        app, ["replay", str(two), "--policy", "greedy,akagi", "-j", "1", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    _, parsed = page_of(out, tmp_path)
    rows = scan(out).collect()
    assert parsed.commands and all("--game-index" in c for c in parsed.commands)
    for cmd in parsed.commands[:4]:
        args = shlex.split(cmd)
        opt = dict(zip(args[3::2], args[4::2], strict=True))
        shown = runner.invoke(app, [*args[1:], "--policy", "greedy,akagi", "--json"])
        assert shown.exit_code == 0, shown.output
        here = rows.filter(
            (pl.col("game") == int(opt["--game-index"]))
            & (pl.col("round") == opt["--round"])
            & (pl.col("honba") == int(opt["--honba"]))
            & (pl.col("turn") == int(opt["--turn"]))
            & (pl.col("seat") == int(opt["--seat"]))
        )
        assert json.loads(shown.stdout)["actual_text"] == here["actual"][0]


def test_doudizhu_games_by_role_are_shares_of_the_games_sat_in(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    """Two policies at a table of three: one holds two seats of every game. Each bar splits the games
    a policy sat in (landlord only, peasant only, both) and sums to 100 %; the counts give back the
    summary's games by role (a reviewer found 60 % where a policy was landlord in 90 % of its games:
    the summary's overlapping counts were divided by their sum)."""
    folder = report_outputs["doudizhu-simulate"]
    summary = json.loads((folder / "summary.json").read_text())
    seats = pl.read_parquet(folder / "games.parquet")
    text, _ = page_of(folder, tmp_path)
    tips = re.findall(
        r"<title>([a-z_]+), (landlord|peasant|landlord and peasant): ([0-9.]+)% \((\d+)\)</title>", text
    )
    assert tips
    for policy in {t[0] for t in tips}:
        mine = {part: (float(share), int(n)) for p, part, share, n in tips if p == policy}
        sat = seats.filter(pl.col("policy") == policy)["game"].n_unique()
        assert sum(n for _, n in mine.values()) == sat
        assert abs(sum(share for share, _ in mine.values()) - 100) < 0.5
        both = mine.get("landlord and peasant", (0, 0))[1]
        by_role = {r["role"]: r["games"] for r in summary["roles"] if r["policy"] == policy}
        assert mine.get("landlord", (0, 0))[1] + both == by_role.get("landlord", 0)
        assert mine.get("peasant", (0, 0))[1] + both == by_role.get("peasant", 0)
    assert any(part == "landlord and peasant" for _, part, _, _ in tips)


# ---------------------------------------------------------------- Hong Kong and Red


def test_hk_replay_page_figures_are_the_summarys(report_outputs: dict[str, Path], tmp_path: Path) -> None:
    """The agreement by kind drawn (with intervals) and the heat map are exactly the figures of
    mjcli summary --game hk; every interval holds its value."""
    folder = report_outputs["hk-replay"]
    lf = hk_replay.decisions(folder)
    summary = hk_summarise(lf.collect())
    kinds = rates_by(lf, pl.col("kind"), hk_replay.CLUSTERS, HK_KINDS)
    for entry in summary["policies"]:
        for k in kinds.groups:
            e = kinds.rates[entry["policy"]][k]
            assert e.value == pytest.approx(entry[k], abs=1e-6)
            assert math.isnan(e.lo) or e.lo - 1e-12 <= e.value <= e.hi + 1e-12
    text, parsed = page_of(folder, tmp_path)
    assert_self_contained(text, parsed)
    names = [e["policy"] for e in summary["policies"]]
    for a in names:
        for b in names:
            assert f"{a} and {b}: {summary['matrix'][a][b]:.1%} the same" in text


def test_the_typed_advise_of_a_drawn_hk_decision_shows_the_same_choices(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    """Each advise command on the Hong Kong page, run as written, gives every policy the choice the
    replay recorded at that point; a claim gets no command but says why."""
    folder = report_outputs["hk-replay"]
    text, parsed = page_of(folder, tmp_path)
    lf = hk_replay.decisions(folder)
    drawn: dict[tuple, list[dict]] = {
        k: [] for k in hk_replay.most_disputed(lf, 12).select(hk_replay.POINT).iter_rows()
    }
    for r in lf.collect().iter_rows(named=True):
        drawn.get(tuple(r[c] for c in hk_replay.POINT), []).append(r)
    turns = [rows for rows in drawn.values() if rows[0]["offered"] is None]  # in page order
    assert parsed.commands and len(parsed.commands) == len(turns)
    for cmd, rows in zip(parsed.commands, turns, strict=True):
        args = shlex.split(cmd)
        assert args[:4] == ["mjcli", "advise", "--game", "hk"]
        result = runner.invoke(app, [*args[1:], "--json"])
        assert result.exit_code == 0, (cmd, result.output)
        shown = json.loads(result.stdout)
        assert shown["hand"] == rows[0]["hand"] and len(shown["policies"]) == len(rows) == 4
        assert {p["policy"]: p["action"] for p in shown["policies"]} == {
            r["policy"]: r["choice"] for r in rows
        }
    claims = text.count("advise takes a hand on its own turn only")
    assert claims + len(parsed.commands) == len(parsed.hands) == 12


def test_every_position_after_a_draw_types_back_into_advise(report_outputs: dict[str, Path]) -> None:
    """Not only the drawn ones: for every decision on a seat's own turn after a draw (a few hundred
    points of the replay), the typed position of the page's advise command (hand, melds, --seen,
    winds, bonus tiles, minimum) gives every policy the replay's choice. Right after a call (no
    drawn tile) advise may offer moves the table did not: those are left out, as the page says."""
    lf = hk_replay.decisions(report_outputs["hk-replay"]).filter(
        pl.col("offered").is_null()
        & pl.col("drawn").is_not_null()
        & ((pl.col("hand_index") < 6) | (pl.col("kind") == "kong"))  # the kongs wherever they come
    )
    points: dict[tuple, list[dict]] = {}
    for r in lf.collect().iter_rows(named=True):
        points.setdefault(tuple(r[c] for c in hk_replay.POINT), []).append(r)
    assert len(points) > 300 and {rows[0]["kind"] for rows in points.values()} >= {"discard", "kong"}
    for rows in points.values():
        args = shlex.split(hk_replay.advise_command(rows[0], "hk", [r["policy"] for r in rows])[0])
        opt = dict(zip(args[5::2], args[6::2], strict=True))
        view, legal = build_view(
            args[4],
            get_rules(args[3]).with_options(min_faan=int(opt["--min-faan"])),
            melds=opt.get("--melds", ""),
            seen=opt.get("--seen", ""),
            seat=opt["--seat"],
            round_wind=opt["--round"],
            flowers=opt.get("--flowers"),
            seasons=opt.get("--seasons"),
        )
        for r in rows:
            assert get_policy(r["policy"]).decide(view, legal)[0].text() == r["choice"], (args, r)


def test_red_hands_draw_jokers_and_bonus_tiles(report_outputs: dict[str, Path], tmp_path: Path) -> None:
    folder = report_outputs["red-replay"]
    (found,) = find_outputs(folder)
    assert (found.game, found.kind) == ("red", "replay")
    text, parsed = page_of(folder, tmp_path)
    assert "Replay (Red)" in text and 'aria-label="joker (J)"' in text
    assert {"tile-J"} <= parsed.symbols and any(s.startswith(("tile-F", "tile-S")) for s in parsed.symbols)
    assert all(c.startswith("mjcli advise --game red ") for c in parsed.commands)
    sprite = Sprite()
    html = hk_hand(sprite, "123m456pJJ", drawn="J", offered="5z", melds="pon:777z", bonus="F1,S4")
    assert Parsed(sprite.defs() + html).hands == [(7 + 1 + 3 + 2 + 1, 14)]
    assert hk_tokens("F1,S3") == ["F1", "S3"] and hk_tokens("12mJ") == ["1m", "2m", "J"]


def test_hk_simulation_page_shows_summary_figures_and_rank_counts(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = report_outputs["hk-simulate"]
    summary = json.loads((folder / "summary.json").read_text())
    text, parsed = page_of(folder, tmp_path)
    assert 'id="hk-simulation-paired"' in text  # --duplicate
    assert len(parsed.charts) == 5 + 2
    games = pl.read_parquet(folder / "games.parquet")
    for e in summary["policies"]:
        assert f"<td>{hk_format(e['win_rate'], 100, 1)}</td>" in text
        assert f"<td>{hk_format(e['placement'], 1, 2)}</td>" in text
        mine = games.filter(pl.col("policy") == e["policy"])
        for rank, label in enumerate(("1st", "2nd", "3rd", "4th"), 1):
            n = mine.filter(pl.col("placement") == rank).height
            if n:
                assert f"{e['policy']}, {label}: {n / mine.height:.1%} ({n})" in text
    p = summary["paired"][0]
    assert f"<td>{hk_format(p['score'], 1, 0)}</td>" in text


def test_hk_verify_page_lists_the_mismatch_and_the_broken_log(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = report_outputs["hk-verify"]
    (found,) = find_outputs(folder)
    assert (found.game, found.kind) == ("hk", "verify")
    text, parsed = page_of(folder, tmp_path)
    games = pl.read_parquet(folder / "verify_games.parquet")
    assert games["status"].to_list().count("ok") == games.height - 2
    mism = pl.read_parquet(folder / "verify_mismatches.parquet").to_dicts()
    assert [m["file"] for m in mism] == [HK_TAMPERED] and mism[0]["what"] == "faan"
    m = mism[0]
    assert f"<td>{m['round']}</td><td>faan</td><td>{m['log']}</td><td>{m['engine']}</td>" in text
    assert int(m["log"]) == int(m["engine"]) + 1
    broken = games.filter(pl.col("file") == HK_BROKEN).row(0, named=True)
    assert broken["status"] == "error" and escape(broken["error"]) in text
    rows = pl.read_parquet(folder / "verify.parquet")
    assert f"{int(rows['match'].sum())}/{rows.height} hands match" in text
    assert len(parsed.charts) == 2


def test_an_hk_output_is_found_by_its_columns_alone(report_outputs: dict[str, Path], tmp_path: Path) -> None:
    """Without replay.json a Hong Kong replay is known by hand_index; a verify of Red logs is Red's."""
    folder = tmp_path / "bare"
    folder.mkdir()
    shutil.copy(report_outputs["red-replay"] / "decisions.parquet", folder / "decisions.parquet")
    (found,) = find_outputs(folder)
    assert (found.game, found.kind) == ("hk", "replay")
    red = tmp_path / "red-verify"
    logs = report_outputs["red-replay"].parent / "red-sim" / "logs"
    res = runner.invoke(app, ["verify", "--game", "hk", str(logs), "-j", "1", "--out", str(red)])
    assert res.exit_code == 0, res.output
    (found,) = find_outputs(red)
    assert (found.game, found.kind) == ("red", "verify")


# ---------------------------------------------------------------- detection and bad input


def test_every_game_with_replay_or_simulate_has_a_report() -> None:
    for command in ("replay", "simulate"):
        for g in games_with(command):
            assert (g.name, command) in SECTIONS


def test_several_outputs_in_one_folder_make_one_page(report_outputs: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "both"
    shutil.copytree(report_outputs["riichi-simulate"], folder)
    for name in ("verify.parquet", "verify_games.parquet", "verify_mismatches.parquet"):
        shutil.copy(report_outputs["riichi-verify"] / name, folder / name)
    assert [o.kind for o in find_outputs(folder)] == ["simulate", "verify"]
    text, _ = page_of(folder, tmp_path)
    assert text.index('id="simulation"') < text.index('id="verify"')


def test_bad_input_is_a_usage_error(report_outputs: dict[str, Path], tmp_path: Path) -> None:
    def error(*args: str) -> str:
        # in-process the error comes out as the exception (mjcli's main turns it into exit 2: below)
        result = runner.invoke(app, ["report", *args])
        assert isinstance(result.exception, UsageError), result.output
        return str(result.exception)

    assert "holds no output" in error(str(tmp_path))
    assert "does not exist" in error(str(tmp_path / "nope"))
    sim = report_outputs["riichi-simulate"]
    assert "one of the files the report reads" in error(str(sim), "-o", str(sim / "summary.json"))
    assert "applies to a riichi replay" in error(str(sim), "--baseline", str(sim / "games.parquet"))
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "decisions.parquet").write_text("not parquet")
    assert "is not a readable Parquet file" in error(str(tmp_path / "x"))
    log = tmp_path / "a.json"
    log.write_text("{}")
    assert "is not an HTML page" in error(str(sim), "-o", str(log))
    assert log.read_text() == "{}"
    before = (sim / "summary.json").read_bytes()
    with pytest.raises(UsageError):
        write_report(sim, sim / "games.parquet")
    assert (sim / "summary.json").read_bytes() == before


def test_the_cli_turns_errors_into_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "mjcli.cli", "report", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert (
        done.stderr.count("\n") == 1 and done.stderr.startswith("error: ") and "Traceback" not in done.stderr
    )


# ---------------------------------------------------------------- charts and tiles


def _shapes(svg: str) -> Parsed:
    return Parsed(f"<div>{svg}</div>")


def test_bars_draw_each_value_and_whiskers_only_for_intervals() -> None:
    values = [
        [Estimate(0.5, 0.4, 0.6), Estimate(0.25, math.nan, math.nan)],
        [None, Estimate(1.0, 0.9, 1.0)],
    ]
    svg = charts.bar_chart(["a", "b"], ["p", "q"], values, title="t")
    (shapes,) = _shapes(svg).charts
    assert shapes["rect.bar"] == 3 and shapes["path.whisker"] == 2
    assert "p, b: 25.0% (no interval)" in svg and "p, a: 50.0% [95 % interval 40.0%, 60.0%]" in svg


def test_negative_bars_hang_below_the_zero_line() -> None:
    svg = charts.bar_chart(
        ["x", "y"], ["d"], [[Estimate(-2.0, -3.0, -1.0), Estimate(1.0, 0.0, 2.0)]], title="t", y_range=None
    )
    heights = re.findall(r'class="bar" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"', svg)
    (y_neg, h_neg), (y_pos, h_pos) = [(float(a), float(b)) for a, b in heights]
    assert y_neg == pytest.approx(y_pos + h_pos, abs=0.1)  # both meet at zero
    assert h_neg == pytest.approx(2 * h_pos, abs=0.2)


def test_nice_ticks_cover_the_range() -> None:
    assert charts.nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    ticks = charts.nice_ticks(-13.6, 7.8)
    assert ticks[0] <= -13.6 and ticks[-1] >= 7.8 and len(ticks) <= 8


def test_lines_break_at_a_missing_value_and_heat_map_has_every_cell() -> None:
    e = Estimate(0.5, 0.4, 0.6)
    svg = charts.line_chart(["1", "2", "3", "4"], ["p"], [[e, e, None, e]], title="t")
    (shapes,) = _shapes(svg).charts
    assert shapes["polyline.line"] == 1 and shapes["circle.dot"] == 3 and shapes["polygon.band"] == 1
    heat = charts.heat_map(["a", "b", "c"], [[1.0, 0.5, None], [0.5, 1.0, 0.2], [None, 0.2, 1.0]], title="t")
    (cells,) = _shapes(heat).charts
    assert cells["rect.cell"] == 9 and heat.count(">-</text>") == 2


def test_tiles_of_a_hand_are_all_drawn_once_defined() -> None:
    sprite = Sprite()
    html = riichi_hand(sprite, "1230m055p789s11z", drawn="0m", offered="7z", melds="pon:555z,chi:406s")
    page = Parsed(sprite.defs() + html)
    assert page.hands == [(11 + 1 + 3 + 3 + 1, 19)]
    faces = ("1m", "2m", "3m", "0m", "0p", "5p", "7s", "8s", "9s", "1z", "5z", "4s", "0s", "6s", "7z")
    assert page.symbols == {f"tile-{t}" for t in faces}
    assert 'aria-label="red 5 characters (0m)"' in html and 'aria-label="Red dragon (7z)"' in html
    # the drawn red five is set apart, the other tiles stay in order
    hand_part = html.split('class="tiles drawn"')[0]
    assert hand_part.count("#tile-0m") == 0 and html.count("#tile-0m") == 1
    assert tile_tokens("055m") == ["0m", "5m", "5m"]
    cards = doudizhu_hand(sprite, "3345TTJBR", lead="44")
    assert Parsed(cards).hands == [(11, 11)]


def test_a_replay_page_is_the_same_bytes_every_time(tmp_path: Path) -> None:
    """The page of a three-player replay was drawn with its policies in either order, run to run
    (a join that did not keep the rows' order); a few pages of one replay must be one page."""
    sanma = Path(__file__).resolve().parents[1] / "fixtures" / "sanma"
    logs = sorted(str(p) for p in sanma.iterdir() if p.suffix != ".md" and p.is_file())
    assert logs
    out = tmp_path / "out"
    args = ["replay", *logs, "--policies", "efficiency,greedy", "-j", "1", "--out", str(out)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    pages = set()
    for i in range(6):
        page = tmp_path / f"page{i}.html"
        assert runner.invoke(app, ["report", str(out), "-o", str(page)]).exit_code == 0
        pages.add(page.read_bytes())
    assert len(pages) == 1


def _face(sprite: Sprite, key: str) -> str:
    return re.search(rf'<symbol id="{key}"[^>]*>(.*?)</symbol>', sprite.defs()).group(1)


def test_a_red_five_is_told_apart_from_a_five_by_more_than_a_shade() -> None:
    """The characters' digits are red: a red 5m drawn only in a brighter red looked like a 5m."""
    sprite = Sprite()
    for suit in "mps":
        sprite.tile(f"0{suit}")
        sprite.tile(f"5{suit}")
    for suit in "mps":
        red, plain = (re.sub(r"#[0-9a-f]{3,6}", "", _face(sprite, f"tile-{r}{suit}")) for r in "05")
        assert red != plain, suit
        assert 'class="red-five"' in _face(sprite, f"tile-0{suit}")


def test_the_words_on_a_joker_card_fit_on_the_card() -> None:
    """JOKER, written down the card at 8 px, ran past its foot (the page showed "JOKE")."""
    sprite = Sprite()
    for rank in "BR":
        sprite.card(rank)
        face = _face(sprite, f"card-{rank}")
        width, height = 28, 40
        for text in re.findall(r"<text [^>]*>[^<]*</text>", face):
            length = re.search(r'textLength="([\d.]+)"', text)
            assert length, f"a joker's words are not fitted: {text}"
            turned = re.search(r"translate\(([\d.]+) ([\d.]+)\) rotate\(90\)", text)
            if turned:
                assert float(turned.group(2)) + float(length.group(1)) <= height - 2, text
            else:
                assert float(length.group(1)) <= width - 4, text


def test_a_count_axis_has_whole_ticks(tmp_path: Path) -> None:
    """One log that could not be read: the logs-by-verdict axis read 0, 0, 0, 1, 1, 1."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.json").write_text('{"x": 1}\n', encoding="utf-8")
    out = tmp_path / "out"
    runner.invoke(app, ["verify", str(logs), "--out", str(out)])
    text, _ = page_of(out, tmp_path)
    svgs = re.findall(r'<svg [^>]*class="chart".*?</svg>', text)
    verdicts = next(c for c in svgs if "Logs by verdict" in c)
    ticks = re.findall(r'text-anchor="end">([^<]*)</text>', verdicts)
    assert ticks == ["0", "1"], ticks
    assert charts.nice_ticks(0, 3, min_step=1) == [0.0, 1.0, 2.0, 3.0]


def test_the_dou_dizhu_header_says_of_how_many_games_the_landlord_won(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    """It said "the landlord won 51" of 120 games: a count that reads as a percentage."""
    folder = report_outputs["doudizhu-simulate"]
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    text, _ = page_of(folder, tmp_path)
    assert f"the landlord won {summary['landlord_wins']} of {summary['games']} games" in text


def test_a_verify_page_lists_the_first_thousand_of_many_mismatches(
    report_outputs: dict[str, Path], tmp_path: Path
) -> None:
    """Every difference was a row of the page: 100,000 (a dataset verified under another rule set
    differs in every round) made 20 MB of HTML; the tables hold them all."""
    folder = tmp_path / "many"
    shutil.copytree(report_outputs["riichi-verify"], folder)
    found = pl.read_parquet(folder / "verify_mismatches.parquet")
    many = pl.concat([found] * 3000).with_columns(pl.int_range(pl.len()).cast(pl.String).alias("log"))
    many.write_parquet(folder / "verify_mismatches.parquet")
    text, _ = page_of(folder, tmp_path)
    assert f"{many.height} differences in" in text
    assert f"The first 1000 of {many.height} differences are listed here" in text
    assert "<td>999</td>" in text and "<td>1000</td>" not in text
    assert len(text) < 1_000_000


def test_the_advise_commands_of_a_replay_with_hands_shown_show_its_view(tmp_path: Path) -> None:
    """A replay with --hands-shown saw other hands than its logs record: each drawn decision's
    command carries the option (the names that play in that game, else none), so that advise shows
    the row's view. It printed no --hands-shown: advise then showed the simulated akagi seat's hand
    the replay had hidden, and hid seat 0's hand the replay had shown."""
    shared = Path(__file__).resolve().parents[2] / "shared" / "logs" / "mjai" / "126_204_0_mjai.jsonl"
    simulated = Path(__file__).resolve().parents[1] / "fixtures" / "simulate" / "logs" / "sim-000000.json"
    out = tmp_path / "rep"
    result = runner.invoke(
        app,
        ["replay", str(shared), str(simulated), "--hands-shown", "0", "--policy", "efficiency", "-j", "1"]
        + ["--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    _, parsed = page_of(out, tmp_path)
    assert parsed.commands
    for cmd in parsed.commands:
        args = shlex.split(cmd)
        opt = dict(zip(args[3::2], args[4::2], strict=True))
        mjai = args[2].endswith(".jsonl")
        assert opt["--hands-shown"] == ("0" if mjai else "none"), cmd
        shown = runner.invoke(app, [*args[1:], "--policy", "efficiency", "--json"])
        assert shown.exit_code == 0, shown.output
        hands = json.loads(shown.stdout).get("shown_hands") or {}
        assert set(hands) == ({"0"} if mjai and opt["--seat"] != "0" else set()), cmd
