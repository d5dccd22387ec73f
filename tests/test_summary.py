"""Summaries of a replay (mjcli.riichi.summary) and the ``replay`` / ``summary`` commands end to end."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import LOGS
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import UsageError
from mjcli.riichi.policies import POLICY_NAMES
from mjcli.riichi.summary import (
    agreement_matrix,
    compare_baseline,
    group_table,
    policy_table,
    scan,
    summarise,
)

GAME = LOGS / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog"
EDGE = LOGS / "tenhou6-edge"
runner = CliRunner()


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("summary")
    res = runner.invoke(app, ["replay", str(GAME), "--out", str(d), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    return d


def test_policy_rates_are_the_shares_of_rows(out):
    df = pl.read_parquet(out / "decisions.parquet")
    table = {r["policy"]: r for r in policy_table(scan(out)).to_dicts()}
    assert list(table) == list(POLICY_NAMES)  # the order asked ("all": the built-ins in order)
    for name, r in table.items():
        mine = df.filter(pl.col("policy") == name)
        assert r["decisions"] == mine.height
        assert r["agree"] == pytest.approx(mine["agree"].mean())
        disc = mine.filter(pl.col("kind") == "discard")
        assert r["discard"] == pytest.approx(disc["agree"].mean())
        played = mine.filter(pl.col("actual").str.contains("^(discard|riichi) "))
        assert r["top1"] == pytest.approx(played["agree"].mean())
        assert r["equal"] >= r["top1"]  # agreeing is one way of being equally good
        # over the same decisions as top1: a choice that is no discard (equally_good null) is not
        # equal (it was the mean over the rows where both discarded)
        assert r["equal"] == pytest.approx(played["equally_good"].fill_null(False).mean())


def test_equal_counts_a_choice_that_is_no_discard_as_not_equal(out, tmp_path):
    df = pl.read_parquet(out / "decisions.parquet")
    played = df.filter(pl.col("actual").str.contains("^(discard|riichi) ") & (pl.col("policy") == "akagi"))
    rows = played.head(4).with_columns(
        pl.Series("equally_good", [True, True, False, None]), pl.Series("agree", [True, False, False, False])
    )
    rows.write_parquet(tmp_path / "decisions.parquet")
    (r,) = policy_table(scan(tmp_path / "decisions.parquet")).to_dicts()
    assert (r["top1"], r["equal"]) == (0.25, 0.5)  # 2 of 4, not 2 of 3


def test_matrix_is_symmetric_with_a_unit_diagonal(out):
    m = agreement_matrix(scan(out))
    names = m["policy"].to_list()
    for i, a in enumerate(names):
        assert m[a][i] == 1.0
        for j, b in enumerate(names):
            assert m[b][i] == pytest.approx(m[a][j])
    # one cell by hand
    df = pl.read_parquet(out / "decisions.parquet")
    a = df.filter(pl.col("policy") == "akagi").sort("event", "seat")["choice"]
    g = df.filter(pl.col("policy") == "greedy").sort("event", "seat")["choice"]
    assert m["greedy"][names.index("akagi")] == pytest.approx((a == g).mean())


def test_matrix_equals_the_join_on_the_key_columns_with_nulls_and_repeated_keys():
    """The matrix joins on integer ranks of the key and the choices (less memory): the same shares as
    the plain join on the seven key columns and the choice strings, where a null choice is never
    compared, a row with a null key never meets another and a repeated key pairs every row."""
    from mjcli.riichi.summary import KEY

    base = {"file": "f", "game_id": "g", "round": "E1", "honba": 0, "seat": 0, "kind": "discard"}
    rows = []
    for turn, choices in enumerate(
        [
            ("discard 1m", "discard 1m", "discard 2m"),
            ("discard 5p", None, "discard 5p"),
            ("pass", "pass", "chi"),
        ]
    ):
        for policy, choice in zip(("a", "b", "c"), choices, strict=True):
            rows.append({**base, "turn": turn, "policy": policy, "choice": choice})
    rows.append({**base, "turn": 2, "policy": "a", "choice": "chi"})  # the same key twice for a
    rows.append({**base, "round": None, "turn": 9, "policy": "b", "choice": "pass"})  # a null key
    rows.append({**base, "round": None, "turn": 9, "policy": "c", "choice": "pass"})
    lf = pl.DataFrame(
        rows,
        schema={
            **{k: pl.String for k in KEY},
            "honba": pl.Int32,
            "turn": pl.Int32,
            "seat": pl.Int32,
            "policy": pl.String,
            "choice": pl.String,
        },
    ).lazy()
    choices = lf.select(*KEY, "policy", "choice")
    plain = (
        choices.join(choices, on=KEY, how="inner", suffix="_b")
        .group_by("policy", "policy_b")
        .agg((pl.col("choice") == pl.col("choice_b")).mean().alias("same"))
        .collect()
    )
    expected = {(a, b): v for a, b, v in plain.iter_rows()}
    m = agreement_matrix(lf)
    names = m["policy"].to_list()
    assert names == ["a", "b", "c"]
    for i, a in enumerate(names):
        for b in names:
            assert m[b][i] == expected.get((a, b))
    assert expected[("a", "c")] not in (None, 0.0, 1.0)  # the case is not trivial


def test_group_tables(out):
    by_player = group_table(scan(out), "player")
    assert by_player["decisions"].sum() == pl.read_parquet(out / "decisions.parquet").height
    assert set(by_player["player"]) == set(pl.read_parquet(out / "games.parquet")["player"])
    assert group_table(scan(out), "policy").height == len(POLICY_NAMES)
    with pytest.raises(UsageError):
        group_table(scan(out), "colour")


def test_summary_command_repeats_the_replay_summary(out):
    again = runner.invoke(app, ["summary", str(out), "--json"])
    assert again.exit_code == 0, again.output
    s = json.loads(again.stdout)
    # the replay's own summary, and the rule set its games were played under (replay.json keeps it;
    # the summary of a folder dropped it)
    rules = s.pop("rules")
    assert s == summarise(out)
    assert sum(rules.values()) == s["games"] == 1
    assert s["games"] == 1 and s["decision_points"] * len(POLICY_NAMES) == s["rows"]
    assert runner.invoke(app, ["summary", str(out)]).stdout.splitlines()[1].startswith("rules: ")
    human = runner.invoke(app, ["summary", str(out / "decisions.parquet"), "--by", "round"])
    assert human.exit_code == 0 and "by round" in human.output and "E1" in human.output


def test_summary_of_a_folder_without_a_replay_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="holds no decisions.parquet"):
        scan(tmp_path)
    (tmp_path / "decisions.parquet").write_text("not parquet")
    with pytest.raises(UsageError, match="not a readable Parquet"):
        scan(tmp_path)


def test_baseline_against_itself_has_no_changes(out):
    changes, counts = compare_baseline(scan(out), out / "decisions.parquet")
    assert changes.height == 0 and counts["only_old"] == counts["only_new"] == 0 and counts["compared"] > 0


def test_more_changes_than_listed_are_said_to_be_where_they_are(out, tmp_path):
    # past the 50 listed, the rest were said to be "all in changes.parquet", also without --out,
    # whose folder (and that file) is gone when the command ends
    old = pl.read_parquet(out / "decisions.parquet")
    old = old.with_columns(
        pl.when(pl.col("kind") == "discard").then(pl.lit("discard 9z")).otherwise("choice").alias("choice")
    )
    base = tmp_path / "old.parquet"
    old.write_parquet(base)
    args = ["replay", str(GAME), "--jobs", "1", "--baseline", str(base)]
    res = runner.invoke(app, args)
    assert res.exit_code == 1, res.output
    assert "more (--out DIR keeps them all in DIR/changes.parquet)" in res.stdout
    assert "all in changes.parquet" not in res.stdout
    res = runner.invoke(app, [*args, "--out", str(tmp_path / "new")])
    assert res.exit_code == 1, res.output
    assert f"more (all in {tmp_path / 'new' / 'changes.parquet'})" in res.stdout
    assert (tmp_path / "new" / "changes.parquet").is_file()


def test_replay_cli_json_skips_bad_logs_and_exits_1(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    res = runner.invoke(
        app, ["replay", str(bad), str(EDGE / "chankan.json"), "--policy", "greedy", "--json", "-j", "1"]
    )
    assert res.exit_code == 1
    s = json.loads(res.stdout)
    assert s["games"] == 1 and len(s["skipped"]) == 1 and "bad.json" in s["skipped"][0]


def test_replay_cli_usage_errors(tmp_path):
    from mjcli.cli import main

    for args, message in [
        (["replay", str(tmp_path / "none.mjlog")], "does not exist"),
        (["replay", str(GAME), "--policy", "nosuch"], "unknown policy"),
        (["replay", str(GAME), "--by", "colour"], "--by"),
        (["replay", str(GAME), "--seat", "7"], "--seat 7"),
        (["replay", str(GAME), "--baseline", str(tmp_path / "old.parquet")], "old.parquet"),
    ]:
        res = runner.invoke(app, args)
        assert res.exit_code != 0
        assert message in str(res.exception) or message in res.output, (args, res.output)
    assert callable(main)


def test_replay_reads_paths_from_stdin(tmp_path):
    res = runner.invoke(
        app,
        ["replay", "-", "--policy", "greedy", "--out", str(tmp_path), "-j", "1"],
        input=f"{EDGE / 'double_ron.json'}\n{EDGE / 'rinshan.json'}\n",
    )
    assert res.exit_code == 0, res.output
    files = set(pl.read_parquet(tmp_path / "games.parquet")["file"])
    assert files == {"double_ron.json", "rinshan.json"}


def _whole_table_summary(lf: pl.LazyFrame, by: str | None) -> dict:
    """The summary worked out over the whole table at once (the functions that read it all)."""
    from mjcli.riichi.summary import bot_table

    rows, npol, games = (
        lf.select(pl.len(), pl.col("policy").n_unique(), pl.struct("file", "game_id").n_unique())
        .collect()
        .row(0)
    )
    out = {
        "summary": True,
        "games": games,
        "decision_points": rows // npol,
        "rows": rows,
        "policies": policy_table(lf).to_dicts(),
        "matrix": agreement_matrix(lf).to_dicts(),
    }
    if by is not None:
        out["by"] = by
        out["groups"] = group_table(lf, by).to_dicts()
    assert bot_table(lf).height == 0
    return out


def _files(frame: pl.DataFrame, labels: list[str]) -> pl.DataFrame:
    """The table repeated under other file labels, in the order given; a label's second run is a part
    of the table (its decision points pair with the first run's, at other shares)."""
    runs = [frame.slice(100, 700) if label in labels[:i] else frame for i, label in enumerate(labels)]
    return pl.concat([run.with_columns(file=pl.lit(label)) for run, label in zip(runs, labels, strict=True)])


@pytest.mark.parametrize("labels", [["f1", "f2", "f3"], ["f1", "f2", "f1"]])
def test_summary_file_by_file_equals_the_whole_table(out, monkeypatch, labels):
    """The summary added up over chunks of a few files (a file's rows carried over into the next
    chunk) equals the figures of the whole table, float for float; a file whose rows come in two
    runs (["f1", "f2", "f1"]: its decision points meet across chunks) too. And the replay's way:
    each file's frame added as it is written (added up alone or with the next files)."""
    import mjcli.riichi.summary as summary_module
    from mjcli.riichi.summary import SummaryParts, file_chunks

    one = pl.read_parquet(out / "decisions.parquet")
    # the key of one decision point repeated, a null key and a null choice, within the file's rows
    one = pl.concat([one, one.slice(5, 3), one.slice(40, 2).with_columns(round=pl.lit(None))])
    one = one.with_columns(choice=pl.when(pl.int_range(pl.len()) % 97 == 3).then(None).otherwise("choice"))
    table = _files(one, labels)
    lf = table.lazy()
    # chunks that end inside decision points (997 rows: a prime)
    monkeypatch.setattr(summary_module, "CHUNK_ROWS", 997)
    assert len(list(file_chunks(lf, ["file", "policy"], 997))) >= 3
    for by in (None, "player", "policy", "round", "kind"):
        expected = _whole_table_summary(lf, by)
        assert summarise(lf, by) == expected
        for waiting in (997, 20_000):  # files added up one by one, and several together
            monkeypatch.setattr(summary_module, "CHUNK_ROWS", waiting)
            parts = SummaryParts(by)
            for frame in table.partition_by("file", maintain_order=True):
                parts.add(frame)
            assert summarise(lf, by, parts) == expected
        monkeypatch.setattr(summary_module, "CHUNK_ROWS", 997)


def test_file_chunks_never_split_a_run_of_a_file():
    from mjcli.riichi.summary import file_chunks

    frame = pl.DataFrame({"file": ["a"] * 5 + ["b"] * 1 + [None] * 3 + ["c"] * 7, "x": range(16)})
    for size in (1, 2, 3, 5, 100):
        chunks = list(file_chunks(frame.lazy(), ["file", "x"], size))
        assert pl.concat(chunks).equals(frame)
        ends = [c["file"][-1] for c in chunks[:-1]]
        starts = [c["file"][0] for c in chunks[1:]]
        assert all(e != s for e, s in zip(ends, starts, strict=True))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_pair_sums_of_a_replays_layout_are_the_joins(data):
    """The pair sums read off a replay's layout (a point's rows together, the same policies in the
    same order) are the self-join's, pair for pair and type for type; any other layout (a key twice,
    a null in a key, a point short of a policy, the policies in another order) is left to the join."""
    from mjcli.riichi.summary import KEY, _block_pair_sums, _pair_sums

    policies = data.draw(st.lists(st.sampled_from("abcde"), min_size=1, max_size=5, unique=True))
    points = data.draw(
        st.lists(st.tuples(st.sampled_from(["E1", "E2", None]), st.integers(0, 3)), min_size=1, max_size=10)
    )
    base = {"file": "f", "game_id": "g", "honba": 0, "seat": 1, "kind": "discard"}
    rows = [
        {
            **base,
            "round": rnd,
            "turn": turn,
            "policy": p,
            "choice": data.draw(st.sampled_from(["x", "y", None])),
        }
        for rnd, turn in points
        for p in policies
    ]
    change = data.draw(st.sampled_from(["none", "swap", "drop", "repeat"]))
    if change == "swap" and len(rows) > 1:
        i = data.draw(st.integers(0, len(rows) - 2))
        rows[i], rows[i + 1] = rows[i + 1], rows[i]
    elif change == "drop" and len(rows) > 1:
        del rows[data.draw(st.integers(0, len(rows) - 1))]
    elif change == "repeat":
        rows.extend(rows[: len(policies)])  # the first point's rows again, at the end
    schema = {k: pl.String for k in KEY} | {"honba": pl.Int32, "turn": pl.Int32, "seat": pl.Int32}
    frame = pl.DataFrame(rows, schema={**schema, "policy": pl.String, "choice": pl.String})
    got = _block_pair_sums(frame)
    expected = _pair_sums(frame.lazy()).sort("policy", "policy_b")
    clean = change == "none" and None not in [r for r, _ in points] and len(set(points)) == len(points)
    if clean:
        assert got is not None
    if got is not None:
        assert got.schema == expected.schema
        assert got.sort("policy", "policy_b").equals(expected)


@pytest.mark.parametrize("text", ["[1, 2]", '"text"', "null", "{not json"])
def test_a_simulation_folder_whose_summary_json_is_no_object_is_a_usage_error(tmp_path, text):
    # a JSON array there was an AttributeError traceback
    from mjcli.riichi.simulate.run import folder_summary

    (tmp_path / "summary.json").write_text(text)
    with pytest.raises(UsageError, match="is not a riichi simulation's output"):
        folder_summary(tmp_path)
