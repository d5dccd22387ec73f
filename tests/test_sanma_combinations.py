"""Three-player tables with the other table rules and run options: open riichi scored and played at
three seats, hands shown to the two other seats, and a three-player replay written as a dataset of
parts by the process pool and resumed."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.ledger import CONTENTS, MANIFESTS
from mjcli.riichi.formats import read_log
from mjcli.riichi.replay import decisions_of
from mjcli.riichi.rules import get_rules
from mjcli.riichi.scoring import score_typed
from mjcli.riichi.verify import OK, verify_file

ROOT = Path(__file__).resolve().parents[1]
SANMA_LOGS = sorted(
    str(p) for p in (ROOT / "fixtures" / "sanma").iterdir() if p.is_file() and p.name != "README.md"
)
runner = CliRunner()


def yaku(s) -> list[tuple[str, int]]:
    return [(y, h) for y, _, h in s.result.yaku]


def test_open_riichi_scored_under_three_player_rules() -> None:
    # a dealer tsumo: open riichi 2 han beside the Norths set aside; tsumo-son (two payers only)
    s = score_typed(
        "123678p567p23455s", "5s", seat="E", tsumo=True, riichi=True, open_riichi=True, kita=1,
        rules="tenhou-sanma",
    )  # fmt: skip
    assert sorted(yaku(s)) == [("dora", 1), ("open_riichi", 2), ("tsumo", 1)]
    assert s.result.payments == {"each": 3900}  # 4 han 30 fu: 11,600 from three, 7,800 from two
    split = score_typed(
        "123678p567p23455s", "5s", seat="E", tsumo=True, riichi=True, open_riichi=True, kita=1,
        rules="sanma-split",
    )  # fmt: skip
    # half the absent North's 3900 each: 3900 + 2000 (1950 rounded up)
    assert split.result.payments == {"each": 5900}
    # a ron by a player not in riichi: a yakuman, paid by the discarder alone as at four seats
    ron = score_typed(
        "123678p567p23455s", "5s", seat="S", riichi=True, open_riichi=True, rules="tenhou-sanma"
    )
    assert yaku(ron) == [("sashikomi", 13)] and ron.result.payments == {"discarder": 32000}
    normal = score_typed(
        "123678p567p23455s", "5s", seat="S", riichi=True, open_riichi=True, discarder_riichi=True,
        rules="tenhou-sanma",
    )  # fmt: skip
    assert yaku(normal) == [("open_riichi", 2)] and normal.result.payments == {"discarder": 2600}


@pytest.fixture(scope="module")
def open_sanma(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("open-sanma")
    result = runner.invoke(
        app,
        ["simulate", "--players", "akagi,mahjongjoy,efficiency", "--games", "1", "--seed", "5",
         "--length", "tonpuu", "--open-riichi", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def test_open_riichi_played_at_a_three_player_table(open_sanma: Path) -> None:
    summary = json.loads((open_sanma / "summary.json").read_text())
    assert summary["rules"] == "tenhou-sanma-tonpuu+open-riichi" and summary["seats"] == 3
    assert summary["hands_shown"] == ["akagi"]
    log = json.loads((open_sanma / "logs" / "sim-000000.json").read_text())
    assert log["rule"]["open_riichi"] == 1 and log["rule"]["hands_shown"] == [0]
    ends = {tuple(k[0]): k[-1] for k in log["log"]}
    # akagi (seat 0, the dealer) tsumo with open riichi: 6,000 from each of the two other seats
    assert ends[(0, 0, 0)][1][:3] == [13000, -6000, -6000] and "オープン立直(2飜)" in ends[(0, 0, 0)][2]
    # then a deal-in to its open riichi by a player not in riichi: a dealer yakuman, 200 per honba
    assert ends[(0, 1, 0)][1][:3] == [49200, -48200, 0] and "オープン立直放銃(役満)" in ends[(0, 1, 0)][2]
    for path in (open_sanma / "logs").iterdir():
        [report] = verify_file(path)
        assert report.status == OK, (path, report.mismatches, report.error)


def test_hands_shown_at_three_seats(open_sanma: Path) -> None:
    for name in ("sim-000000.json", "sim-000000.mjai.jsonl"):
        (game,) = read_log(open_sanma / "logs" / name)
        assert game.events[0].rules.hands_shown == (0,) and game.players == 3
        views = [d.view for d in decisions_of(game.events, get_rules("tenhou-sanma"))]
        assert {d.seat for d in decisions_of(game.events, get_rules("tenhou-sanma"))} == {0, 1, 2}
        for v in views:
            assert len(v.shown_hands) == 3 and v.shown_hands[1:] == (None, None)
            if v.seat == 0:
                assert v.shown_hands[0] is None
            else:
                assert v.shown_hands[0] is not None and len(v.shown_hands[0]) % 3 in (1, 2)


def test_a_three_player_replay_as_parts_on_the_process_pool_resumes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["replay", *SANMA_LOGS, "--policies", "greedy,efficiency", "--out", str(out), "--json"]
    first = runner.invoke(app, [*args, "--jobs", "2", "--resume"])
    assert first.exit_code == 0, first.output
    contents = json.loads((out / CONTENTS).read_text())
    parts = {t: [out / p for p in contents["tables"][t]["parts"]] for t in ("decisions", "games")}
    assert len(parts["decisions"]) == len(SANMA_LOGS)
    whole = pl.read_parquet(parts["decisions"])
    games = pl.read_parquet(parts["games"])
    assert set(whole["seat"]) == {0, 1, 2} and "nukidora" in set(whole["kind"])
    assert games.group_by("file", "game").len()["len"].to_list() == [3] * len(SANMA_LOGS)
    summary = [json.loads(line) for line in first.output.splitlines() if line.startswith("{")][-1]
    assert summary["games"] == len(SANMA_LOGS)  # a game is three seat rows here, not four
    # a run stopped before its end: the last task's record gone, no dataset.json
    sorted((out / MANIFESTS).iterdir())[-1].unlink()
    (out / CONTENTS).unlink()
    again = runner.invoke(app, [*args, "--jobs", "2", "--resume"])
    assert again.exit_code == 0, again.output
    summary = [json.loads(line) for line in again.output.splitlines() if line.startswith("{")][-1]
    assert summary["resumed"] == len(SANMA_LOGS) - 1 and summary["games"] == len(SANMA_LOGS)
    contents = json.loads((out / CONTENTS).read_text())
    assert pl.read_parquet([out / p for p in contents["tables"]["decisions"]["parts"]]).equals(whole)
    # other hands shown are other views, so other rows: nothing is kept
    other = runner.invoke(app, [*args, "--jobs", "2", "--resume", "--hands-shown", "none"])
    assert other.exit_code == 0, other.output
    summary = [json.loads(line) for line in other.output.splitlines() if line.startswith("{")][-1]
    assert summary["resumed"] == 0
    # the rows of a plain run in one process
    plain = runner.invoke(
        app, ["replay", *SANMA_LOGS, "--policies", "greedy,efficiency", "--out", str(tmp_path / "p")]
    )
    assert plain.exit_code == 0, plain.output
    assert pl.read_parquet(tmp_path / "p" / "decisions.parquet").equals(whole)
    # the report reads the parts, the games' parts too (turn phases of three seats)
    page = tmp_path / "r.html"
    result = runner.invoke(app, ["report", str(out), "-o", str(page)])
    assert result.exit_code == 0, result.output
    assert "at three players: moves 0-35, 36-71, the rest." in page.read_text(encoding="utf-8")
