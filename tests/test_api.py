"""The library API of README.md: its example runs as written and gives the values its comments say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mjcli import api
from mjcli.errors import MjcliError, UsageError

ROOT = Path(__file__).resolve().parents[1]


def _readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Python API", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_runs_and_says_true(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the example's paths are those of the checkout
    scope: dict[str, object] = {}
    exec(compile(_readme_example(), "README.md", "exec"), scope)
    assert scope["best"].kind == 29 and scope["best"].shanten == 0 and scope["best"].ukeire_total == 4
    hand = scope["hand"]
    assert (hand.han, hand.fu, hand.total) == (7, 30, 12000)
    assert [name for _, name, _ in hand.yaku][:3] == ["Riichi", "Pinfu", "Tanyao"]
    assert len(scope["game"].events) == 1702 and type(scope["game"].events[0]).__name__ == "StartGame"
    assert scope["report"].status == "ok" and scope["report"].rounds == 15
    decisions = scope["decisions"]
    assert decisions.height == 120 and set(decisions["policy"]) == {"akagi", "efficiency"}
    assert scope["agreement"]["policy"].to_list() == ["akagi", "efficiency"]
    assert sorted(scope["placements"]) == ["akagi", "greedy"]
    assert sum(scope["placements"].values()) == pytest.approx(5.0)  # two seats each: 2.5 on average


def test_the_readme_comments_are_the_values() -> None:
    assert api.shanten("123m456p789s1135z") == 1
    assert api.ukeire("123m456p789s1135z").total == 8


def test_the_api_raises_the_projects_errors_naming_the_input() -> None:
    with pytest.raises(UsageError, match="unknown win condition"):
        api.score("22456m456p456s678s", win="8s", riichii=True)
    with pytest.raises(Exception, match="12x"):
        api.shanten("12x")


def test_replay_through_the_api_equals_the_files_of_the_command(tmp_path: Path) -> None:
    import polars as pl
    from typer.testing import CliRunner

    from mjcli.cli import app

    logs = [str(ROOT / "fixtures" / "simulate" / "logs" / "sim-000000.json")]
    frame = api.replay(logs, policies=["greedy"])
    result = CliRunner().invoke(
        app, ["replay", *logs, "--policy", "greedy", "--out", str(tmp_path), "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    assert frame.equals(pl.read_parquet(tmp_path / "decisions.parquet"))


def test_replay_of_one_path_alone_reads_that_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A string is a sequence of characters: "a.json" was read as "a", ".", "j", ... and "." walked
    the whole folder (and "/" in a path, the whole machine)."""
    import shutil

    log = ROOT / "fixtures" / "simulate" / "logs" / "sim-000000.json"
    shutil.copy(log, tmp_path / "a.json")
    shutil.copy(ROOT / "fixtures" / "simulate" / "logs" / "sim-000001.json", tmp_path / "b.json")
    monkeypatch.chdir(tmp_path)
    alone = api.replay("a.json", policies=["greedy"])
    assert alone.height > 0 and set(alone["file"]) == {"a.json"}
    assert alone.equals(api.replay(["a.json"], policies=["greedy"]))
    assert api.replay(Path("a.json"), policies=["greedy"]).equals(alone)
    # and the policies as the command line writes them (a string was read a letter a policy)
    assert api.replay("a.json", policies="greedy").equals(alone)
    both = api.replay("a.json", policies="greedy,akagi")
    assert set(both["policy"]) == {"greedy", "akagi"}
    with pytest.raises(UsageError, match="use 1 to 256 jobs"):
        api.replay("a.json", policies="greedy", jobs=0)


def test_advise_takes_melds_and_winds_as_score_writes_them() -> None:
    """melds="pon:111z" was read a character a meld ("with 8 melds a hand to advise has -10"),
    seat_wind="S" was a TypeError and players=5 a ValueError: none of them the project's errors."""
    typed = api.advise("123m456p789s55z", ["akagi"], melds="pon:111z", seat_wind="S", round_wind="E")
    assert typed["melds"] == "pon:111z" and (typed["seat_wind"], typed["round_wind"]) == ("S", "E")
    from mjcli.melds import parse_melds

    assert typed == api.advise("123m456p789s55z", ["akagi"], melds=parse_melds("pon:111z"), seat_wind=1)
    with pytest.raises(UsageError, match="three or four players"):
        api.advise("123m456p789s11355z", players=5)
    with pytest.raises(MjcliError, match="'X' is not a wind"):
        api.advise("123m456p789s11355z", seat_wind="X")
