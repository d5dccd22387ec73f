"""report.py: rows to Parquet atomically, and the small Polars summaries."""

from __future__ import annotations

import polars as pl
import pytest

from mjcli.report import count_by, read_parquet, write_parquet


def test_rows_round_trip_with_a_fixed_schema(tmp_path):
    rows = [{"a": 1, "b": [1, 2], "c": "x"}, {"a": 2, "b": [], "c": "y"}]
    schema = {"a": pl.Int32, "b": pl.List(pl.Int64), "c": pl.String}
    path = write_parquet(rows, tmp_path / "sub" / "t.parquet", schema=schema)
    df = read_parquet(path)
    assert df.schema == pl.Schema(schema) and df.to_dicts() == rows
    empty = read_parquet(write_parquet([], tmp_path / "e.parquet", schema=schema))
    assert empty.height == 0 and empty.schema == pl.Schema(schema)


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "t.parquet"
    write_parquet([{"a": 1}], target)
    with pytest.raises(Exception):  # noqa: B017 - polars raises its own error types
        write_parquet([{"a": 1}, {"a": "not an int"}], target, schema={"a": pl.Int64})
    assert read_parquet(target)["a"].to_list() == [1]
    assert [p.name for p in tmp_path.iterdir()] == ["t.parquet"]


def test_count_by_most_frequent_first():
    df = pl.DataFrame({"kind": ["ron", "tsumo", "ron", "exhaustive", "tsumo", "ron"]})
    assert count_by(df, "kind") == [("ron", 3), ("tsumo", 2), ("exhaustive", 1)]
    assert count_by(df.clear(), "kind") == []
