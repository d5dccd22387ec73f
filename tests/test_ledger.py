"""ledger.py: rows to Parquet atomically, and tables streamed through part files."""

from __future__ import annotations

import json

import polars as pl
import pytest

from mjcli.ledger import StreamedTable, to_frame, write_table

read_parquet = pl.read_parquet
write_parquet = write_table


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


def test_a_streamed_table_joins_its_parts_and_leaves_no_part_behind(tmp_path):
    frames = [pl.DataFrame({"a": list(range(i, i + 7))}) for i in range(0, 70, 7)]
    with StreamedTable(tmp_path / "t.parquet", pl.DataFrame(schema={"a": pl.Int64}), batch_rows=10) as t:
        for f in frames:
            t.add(f)
        path = t.close()
    assert read_parquet(path)["a"].to_list() == list(range(70))
    assert [p.name for p in tmp_path.iterdir()] == ["t.parquet"]


def test_a_streamed_tables_bytes_follow_its_rows_alone(tmp_path, monkeypatch):
    """Whatever the parts, the file is the rows in groups of ROW_GROUP_ROWS: the bytes of one
    write of the whole frame with that group size."""
    from mjcli import ledger

    monkeypatch.setattr(ledger, "ROW_GROUP_ROWS", 100)
    rows = pl.DataFrame({"a": list(range(1000)), "b": [f"x{i % 13}" for i in range(1000)]})
    whole = tmp_path / "whole.parquet"
    rows.write_parquet(whole, row_group_size=100)
    files = []
    for n, cuts in enumerate(((0, 1000), (0, 7, 300, 301, 999, 1000), tuple(range(0, 1001, 37)) + (1000,))):
        target = tmp_path / f"t{n}.parquet"
        with StreamedTable(target, rows.clear(), batch_rows=150) as t:
            for start, end in zip(cuts, cuts[1:], strict=False):
                t.add(rows.slice(start, end - start))
            files.append(t.close())
    assert all(f.read_bytes() == whole.read_bytes() for f in files)
    assert read_parquet(files[0]).equals(rows)


def test_the_parts_reader_honours_a_projection_a_filter_and_a_limit(tmp_path):
    from mjcli.ledger import _parts_in_turn

    parts = []
    for i in range(4):
        part = tmp_path / f"p{i}.parquet"
        pl.DataFrame({"a": list(range(i * 10, i * 10 + 10)), "b": ["x"] * 10}).write_parquet(part)
        parts.append(part)
    lazy = _parts_in_turn(parts, {"a": pl.Int64, "b": pl.String})
    assert lazy.collect()["a"].to_list() == list(range(40))
    assert lazy.select("b").collect().columns == ["b"]
    assert lazy.filter(pl.col("a") % 7 == 0).select("b").collect().height == 6
    assert lazy.filter(pl.col("a") > 5).head(12).collect()["a"].to_list() == list(range(6, 18))


def test_a_stopped_streamed_table_writes_nothing(tmp_path):
    with (
        pytest.raises(KeyboardInterrupt),
        StreamedTable(tmp_path / "t.parquet", pl.DataFrame(), batch_rows=1) as t,
    ):
        t.add(pl.DataFrame({"a": [1, 2]}))
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_schemas_written_as_python_types_make_the_columns_they_always_had() -> None:
    # Dou Dizhu's and Hong Kong's simulations write their column types as Python types (their modules
    # import Polars only where a frame is made, so that a run forks its workers): Polars must read
    # them as the dtypes the tables had when they were written with Polars' own
    import polars as pl

    from mjcli.doudizhu import replay as ddz_replay
    from mjcli.doudizhu import simulate as ddz
    from mjcli.doudizhu import summary as ddz_summary
    from mjcli.hk import replay as hk_replay
    from mjcli.hk import simulate as hk
    from mjcli.hk import verify as hk_verify

    python_to_polars = {int: pl.Int64, str: pl.String, bool: pl.Boolean, float: pl.Float64}
    python_to_polars |= {list[str]: pl.List(pl.String), list[int]: pl.List(pl.Int64)}
    schemas = [ddz.GAMES_SCHEMA, ddz.RECORDS_SCHEMA, ddz_summary._ROLE_SCHEMA, ddz_replay.DECISIONS_SCHEMA]
    schemas += [hk.GAMES_SCHEMA, hk.ROUNDS_SCHEMA, hk_replay.DECISIONS_SCHEMA, hk_replay.GAMES_SCHEMA]
    schemas += [hk_verify.ROW_SCHEMA, hk_verify.GAMES_SCHEMA, hk_verify.MISMATCH_SCHEMA]
    for schema in schemas:
        frame = to_frame([], schema)
        assert dict(frame.schema) == {name: python_to_polars[t] for name, t in schema.items()}
    assert hk.ROUNDS_SCHEMA["items"] == list[str] and hk.ROUNDS_SCHEMA["deltas"] == list[int]


def _square(context, task: int) -> int:
    return task * task


def _split(result: int):
    return {"t": pl.DataFrame({"x": [result]})}, {"x": result}


def _fingerprint(task: int) -> tuple[str, str]:
    from mjcli.ledger import text_sha256

    return f"input-{task}", text_sha256(str(task))


def _parted(root, tasks, largest: int, resume: bool):
    from mjcli.ledger import PartedRun

    run = PartedRun(root, ("t",), {"o": 1}, resume=resume)
    notes = list(run.run(_square, _split, _fingerprint, tasks, label=lambda t: f"input-{t}", largest=largest))
    return run, notes


def test_a_resumed_run_never_makes_a_block_around_a_kept_task(tmp_path) -> None:
    # Ten inputs in blocks of 3: [0-2] [3-5] [6-8] [9]. The records of [0-2] and [6-8] gone (their
    # tasks stopped), the rerun works on six inputs in blocks of 2, and made [0,1] [2,6] [7,8]: the
    # block [2,6] around the kept [3-5] put the rows 2,6 before 3,4,5 and never gave back the notes of
    # 3, 4 and 5 (a resumed verify of 300 logs reported 262)
    from mjcli.ledger import MANIFESTS

    tasks = list(range(10))
    first, notes = _parted(tmp_path, tasks, 3, resume=True)
    assert [n["x"] for n in notes] == [t * t for t in tasks]
    firsts = {}
    for path in (tmp_path / MANIFESTS).iterdir():
        firsts[json.loads(path.read_text())["inputs"][0]["label"]] = path
    firsts["input-0"].unlink()
    firsts["input-6"].unlink()
    again, notes = _parted(tmp_path, tasks, 3, resume=True)
    assert again.resumed == 4
    assert [n["x"] for n in notes] == [t * t for t in tasks]
    assert again.scan("t").collect()["x"].to_list() == [t * t for t in tasks]


def test_a_kept_task_whose_inputs_no_longer_follow_one_another_is_done_again(tmp_path) -> None:
    # inputs 0-7 in tasks of two; the rerun has an input added between 0 and 1: their part, kept,
    # would put both rows before the new input's where a run of its own puts them around it
    first, _ = _parted(tmp_path, list(range(8)), 4, resume=True)
    assert first.scan("t").collect().height == 8
    tasks = [0, 9, 1, 2, 3, 4, 5, 6, 7]
    again, notes = _parted(tmp_path, tasks, 4, resume=True)
    assert again.resumed == 6  # [2, 3], [4, 5] and [6, 7]
    assert [n["x"] for n in notes] == [t * t for t in tasks]
    assert again.scan("t").collect()["x"].to_list() == [t * t for t in tasks]
