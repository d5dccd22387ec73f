"""Hong Kong and Red logs with a value of the wrong type (a number for a tile, null for an event's
text, a list for a hand or the rules): each is one log's error naming the place, the batch goes on;
and a simulation folder whose summary.json is not an object is a one-line error."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fuzzing import hk_corpus, swapped
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import LogFormatError, MjcliError
from mjcli.hk.formats import read_game, walk

runner = CliRunner()
CORPUS = hk_corpus()
HK_LOG, RED_LOG = (json.loads(data) for data in CORPUS)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(game: dict[str, Any]) -> None:
        at = game
        for key in path[:-1]:
            if key == "decision":  # the first event that is a player's choice, not a draw
                key = next(i for i, (_, text) in enumerate(at) if text.split()[0] not in ("draw", "replace"))
            at = at[key]
        at[path[-1]] = value

    return change


#: (what is changed, the change, words the error must hold)
CASES = [
    ("a wall tile a number", _set(("hands", 0, "wall", 0), 5), "hand 0 (E1-0): wall tile 0: 5 is not a tile"),
    ("an event's text null", _set(("hands", 0, "events", "decision", 1), None), "null is not a move"),
    ("an event not a pair", _set(("hands", 0, "events", 3), 7), "event 3 is 7, not [seat, text]"),
    ("a hand not an object", _set(("hands", 1), [1, 2]), "hand 1 (E"),
    ("a wall not a list", _set(("hands", 0, "wall"), "5m"), '"wall" is "5m", not a list'),
    ("a result not an object", _set(("hands", 0, "result"), [1]), '"result" is [1], not an object'),
    ("the rules a list", _set(("rules",), [1]), '"rules" is [1], not an object'),
    ("a rule of another type", _set(("rules", "min_faan"), "3"), '"min_faan" is "3", not a whole number'),
    ("a faan null", _set(("rules", "faan"), {"all_pungs": None}), 'faan of "all_pungs" is null'),
    ("the final a list", _set(("final",), [1]), '"final" is [1], not an object'),
    ("the players a number", _set(("players",), 5), '"players" is not a list of 4 names'),
    # numbers out of range, said in the log's own keys (it named the command line's --min-faan), and
    # a cap or faan whose 2^faan points would not end
    ("a minimum above the cap", _set(("rules", "min_faan"), 30), '"min_faan" is 30, not 0 to the cap (13)'),
    ("a cap past any table", _set(("rules", "cap"), 10**6), '"cap" is 1000000, not 1 to 64'),
    ("no hands allowed", _set(("rules", "max_hands"), -1), '"max_hands" is -1, not a number of hands'),
    (
        "an item's faan huge",
        _set(("rules", "faan"), {"all_pungs": 10**9}),
        'faan of "all_pungs" is 1000000000',
    ),
]


@pytest.mark.parametrize("base", [HK_LOG, RED_LOG], ids=["hk", "red"])
@pytest.mark.parametrize(("what", "change", "words"), CASES, ids=[c[0] for c in CASES])
def test_a_value_of_another_type_is_the_logs_error(
    tmp_path: Path, base: dict[str, Any], what: str, change: Callable[[dict[str, Any]], None], words: str
) -> None:
    game = copy.deepcopy(base)
    change(game)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(game))
    with pytest.raises(LogFormatError) as caught:
        for _ in walk(read_game(path)):
            pass
    assert words in str(caught.value), what


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_corrupt_log_in_a_batch_is_reported_and_the_rest_processed(tmp_path: Path, command: str) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    bad = copy.deepcopy(HK_LOG)
    bad["hands"][0]["wall"][0] = 5
    (logs / "a-bad.json").write_text(json.dumps(bad))
    (logs / "b-good.json").write_bytes(CORPUS[0])
    extra = ["--out", str(tmp_path / "out")] if command == "replay" else []
    result = runner.invoke(app, [command, "--game", "hk", str(logs), *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "wall tile 0: 5 is not a tile" in result.output
    if command == "verify":
        assert "ok " in result.output and "b-good.json" in result.output
    else:
        assert "1 game," in result.output and "a-bad.json" in result.output


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
@given(swapped(CORPUS))
def test_only_the_projects_errors_come_out_of_a_log_with_values_swapped(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.getbasetemp() / "swapped.json"  # one file rewritten: a folder each is slow
    path.write_bytes(data)
    try:
        for _ in walk(read_game(path)):
            pass
    except MjcliError as exc:
        assert str(exc) and "\n" not in str(exc)


def test_a_summary_that_is_not_an_object_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "summary.json").write_text("[1, 2]")
    result = runner.invoke(app, ["summary", "--game", "hk", str(tmp_path)])
    # the CLI's main turns a project error into one line and exit 2 (the runner shows the error)
    assert isinstance(result.exception, MjcliError), result.exception
    assert "summary.json' is not a simulation's summary" in str(result.exception)


def test_a_lone_surrogate_in_a_players_name_is_written_as_its_escape(tmp_path: Path) -> None:
    # JSON's "\ud800" alone (no UTF-8 holds it) stopped replay with a UnicodeEncodeError traceback
    game = copy.deepcopy(HK_LOG)
    game["players"][0] = "\ud800x"
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(game), encoding="utf-8")  # (ensure_ascii: written as the escape)
    res = runner.invoke(app, ["replay", "--game", "hk", str(path), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    assert read_game(path)["players"][0] == "\\ud800x"
