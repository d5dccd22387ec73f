"""Three-player games played by the policies (simulate), checked by the engine again (verify) and
replayed (each policy agreeing with itself), and the commands' three-player options."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from mjcli.cli import app
from mjcli.errors import InvalidHandError, UsageError
from mjcli.riichi.engine import events as ev
from mjcli.riichi.formats import read_log
from mjcli.riichi.replay import ReplayOptions, replay_file
from mjcli.riichi.simulate.run import simulate
from mjcli.riichi.verify import OK, verify_file

NAMES = ["akagi", "mahjongjoy", "efficiency"]
runner = CliRunner()


def test_a_simulated_three_player_run_verifies_and_replays_itself(tmp_path: Path) -> None:
    # seed 167: two East-only games with Norths set aside, a ron on one, kans, rons, tsumo wins (a
    # ron on a North is rare: 3 seeds of 400 with akagi's hand shown, as simulate plays by default)
    summary = simulate(NAMES, 2, 167, out=tmp_path, length="tonpuu")
    assert summary["rules"] == "tenhou-sanma-tonpuu" and summary["seats"] == 3
    logs = sorted((tmp_path / "logs").iterdir())
    assert len(logs) == 4
    for path in logs:
        [report] = verify_file(path)
        assert report.status == OK, (path, report.mismatches, report.error)
    events = [e for p in logs if p.suffix == ".json" for e in read_log(p)[0].events]
    kinds = {type(e).__name__ for e in events}
    assert {"Nukidora", "ClosedKan"} <= kinds or {"Nukidora", "AddedKan"} <= kinds
    assert "Chi" not in kinds
    assert any(
        isinstance(a, ev.Nukidora) and isinstance(b, ev.Win) for a, b in zip(events, events[1:], strict=False)
    )
    assert all(len(e.hands) == 3 for e in events if isinstance(e, ev.StartRound))

    games = pl.read_parquet(tmp_path / "games.parquet")
    assert sorted(games["seat"].unique()) == [0, 1, 2] and sorted(games["placement"].unique()) == [1, 2, 3]
    rounds = pl.read_parquet(tmp_path / "rounds.parquet")
    assert rounds["tiles_drawn"].max() <= 55 and all(len(d) == 3 for d in rounds["deltas"])

    # replay: every seat's decisions put to every policy; each policy agrees with itself everywhere
    d = pl.concat(
        [replay_file(p, p.name, ReplayOptions(tuple(NAMES))).decisions for p in logs if p.suffix == ".json"]
    )
    own = d.filter(pl.col("player") == pl.col("policy"))
    assert own.height and own["agree"].all()
    assert "nukidora" in set(d["kind"]) and "nukidora 4z" in set(own["choice"])


def test_a_sanma_split_run_says_its_rule_and_verifies_without_rules(tmp_path: Path) -> None:
    # A sanma-split game's logs said nothing of the split North share: `mjcli verify DIR/logs` read
    # them as tsumo-son (tenhou-sanma) and every tsumo mismatched; and the tenhou.net/6 result of
    # a non-dealer's tsumo gave the four-player payments ("30符3飜1000-2000点" for 1500-2500) or a
    # third of the total for a limit hand ("満貫2666-5332点" for 3000-5000), which read back as
    # other points. Seed 104: both kinds of tsumo, a dealer's too.
    summary = simulate(["efficiency", "greedy", "mahjongjoy"], 6, 104, out=tmp_path, rules="sanma-split")
    assert summary["rules"] == "sanma-split"
    logs = sorted((tmp_path / "logs").iterdir())
    assert '"absent_share":"split"' in logs[0].read_text(encoding="utf-8")
    tsumo_texts = []
    for path in logs:
        [report] = verify_file(path)
        assert report.status == OK, (path, report.mismatches, report.error)
        assert report.rules == "sanma-split"
        if path.suffix == ".json":
            for rnd in json.loads(path.read_text(encoding="utf-8"))["log"]:
                result = rnd[-1]
                tsumo_texts += [
                    (result[i], result[i + 1][3])
                    for i in range(1, len(result), 2)
                    if result[0] == "和了" and result[i + 1][0] == result[i + 1][1]
                ]
            # the two formats hold the same game
            assert read_log(path)[0].events == read_log(path.with_suffix(".mjai.jsonl"))[0].events
    non_dealer = [(d, t) for d, t in tsumo_texts if "-" in t]
    assert any("満" in t for _, t in non_dealer) and any("符" in t for _, t in non_dealer)
    for deltas, text in non_dealer:
        # what each payer paid (honba aside: 100 a payer) is what the text says
        found = re.search(r"(\d+)-(\d+)点$", text)
        assert found, text
        a, b = int(found[1]), int(found[2])
        paid = sorted(-d for d in deltas[:3] if d < 0)
        assert paid[1] - paid[0] == b - a, (deltas, text)
        assert sum(deltas[:3]) >= 0 and a % 100 == 0 and (paid[0] - a) % 100 == 0, (deltas, text)


def test_a_log_s_absent_share_is_read_and_checked() -> None:
    from mjcli.errors import LogFormatError
    from mjcli.riichi.formats import read_bytes

    def start(players: int, value: object) -> bytes:
        rules = {"players": players, "length": "hanchan", "absent_share": value}
        names = [*NAMES, "greedy"][:players]
        return (json.dumps({"type": "start_game", "names": names, "rules": rules}) + "\n").encode()

    assert read_bytes(start(3, "split"), "g")[0].rules.absent_share == "split"
    assert read_bytes(start(3, "lost"), "g")[0].rules.absent_share == ""  # tsumo-son: saying nothing
    assert read_bytes(start(4, "split"), "g")[0].rules.absent_share == ""  # no absent seat at four
    try:
        read_bytes(start(3, "half"), "g")
    except LogFormatError as exc:
        assert "absent_share 'half'" in str(exc)
    else:
        raise AssertionError("an unknown absent_share was read")


def test_simulate_command_three_names_make_a_three_player_table(tmp_path: Path) -> None:
    args = ["simulate", "--games", "1", "--players", ",".join(NAMES), "--length", "tonpuu", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.splitlines()[0])
    assert data["rules"] == "tenhou-sanma-tonpuu" and data["seats"] == 3
    # named four-player rules keep three names round four seats, as before
    result = runner.invoke(app, [*args[:-1], "--rules", "tenhou", "--json"])
    data = json.loads(result.stdout.splitlines()[0])
    assert data["rules"] == "tenhou-tonpuu" and "seats" not in data
    # four policies do not fit three seats
    result = runner.invoke(
        app, ["simulate", "--games", "1", "--players", "akagi,akagi,akagi,greedy", "--rules", "tenhou-sanma"]
    )
    assert isinstance(result.exception, UsageError) and "seat 3 players" in str(result.exception)
    # the text summary names the last place of three
    result = runner.invoke(app, args[:-1])
    assert "3rd place %" in result.stdout and "rules tenhou-sanma" in result.stdout


def test_score_sanma_with_norths_set_aside() -> None:
    # a dealer riichi tsumo with two Norths set aside and West as the indicator: 2 x (1 + 1) dora
    result = runner.invoke(
        app,
        [
            "score",
            "123p456p789s11z99m",
            "--win",
            "9m",
            "--sanma",
            "--tsumo",
            "--riichi",
            "--kita",
            "2",
            "--dora",
            "3z",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == "tenhou-sanma" and data["kita"] == 2
    assert {y["id"]: y["han"] for y in data["yaku"]}["dora"] == 4
    assert data["payments"] == {"each": 6000} and data["total"] == 12000  # haneman: the two others pay
    text = runner.invoke(
        app, ["score", "123p456p789s11z99m", "--win", "9m", "--sanma", "--tsumo", "--seat", "S"]
    )
    assert "tsumo-son" in text.stdout and "the other non-dealer" in text.stdout
    split = runner.invoke(
        app,
        [
            "score",
            "123p456p789s11z99m",
            "--win",
            "9m",
            "--rules",
            "sanma-split",
            "--tsumo",
            "--seat",
            "S",
            "--json",
        ],
    )
    # 1 han 40 fu, base 320: 700 and 400 (tsumo-son), each + half North's 400 = 900 and 600
    assert json.loads(split.stdout)["payments"] == {"dealer": 900, "non_dealer": 600}


def test_score_sanma_errors() -> None:
    bad = runner.invoke(app, ["score", "234m456p789s111z99m", "--win", "9m", "--sanma"])
    assert isinstance(bad.exception, InvalidHandError) and "no 2m-8m" in str(bad.exception)
    four = runner.invoke(app, ["score", "123p456p789s111z99m", "--win", "9m", "--kita", "1"])
    assert isinstance(four.exception, UsageError) and "three-player" in str(four.exception)
    mixed = runner.invoke(
        app, ["score", "123p456p789s111z99m", "--win", "9m", "--sanma", "--rules", "tenhou"]
    )
    assert isinstance(mixed.exception, UsageError) and "four-player" in str(mixed.exception)


def test_shanten_sanma() -> None:
    result = runner.invoke(app, ["shanten", "--sanma", "19m123p456p789s11z", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["tiles"] == "19m1z"  # no 2m, 3m, 7m or 8m to wait on
    four = json.loads(runner.invoke(app, ["shanten", "19m123p456p789s11z", "--json"]).stdout)
    assert "2" in four["tiles"].split("m")[0] or four["ukeire"] > data["ukeire"]
    batch = runner.invoke(
        app, ["shanten", "--sanma", "-", "--shanten-only", "--json"], input="1111m111122233z\n"
    )
    assert json.loads(batch.stdout)["shanten"] == 2  # four-player: 1 (the fourth 1m in a 123m run)
    bad = runner.invoke(app, ["shanten", "--sanma", "123m456p789s1135z"])
    assert isinstance(bad.exception, InvalidHandError) and "no 2m-8m" in str(bad.exception)
    seen = runner.invoke(app, ["shanten", "--sanma", "19m123p456p789s11z", "--seen", "5m"])
    assert isinstance(seen.exception, InvalidHandError) and "--seen" in str(seen.exception)


def test_advise_a_sanma_hand() -> None:
    result = runner.invoke(app, ["advise", "19m159p19s34557z4p4z", "--sanma", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 3 and "nukidora 4z" in data["legal"]
    actions = {p["policy"]: p["action"] for p in data["policies"]}
    assert actions["mahjongjoy"] == "nukidora" and actions["greedy"] == "discard"
    assert all(
        not set(d["tiles"].split("m")[0]) & set("2345678") for d in data["discards"] if "m" in d["tiles"]
    )
    north_seat = runner.invoke(app, ["advise", "19m159p19s34557z4p4z", "--sanma", "--seat", "N"])
    assert isinstance(north_seat.exception, UsageError) and "E, S, W" in str(north_seat.exception)


def _readme_block(command: str) -> list[str]:
    """The output README.md shows under ``$ {command}`` (up to the end of its code block)."""
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    after = text.split(f"$ {command}\n", 1)[1]
    return after.split("```", 1)[0].rstrip("\n").splitlines()


def test_the_readme_three_player_examples_print_as_written(monkeypatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[1])  # the examples' paths are the checkout's
    for command in (
        "mjcli score 123p456p789s11z99m --win 9m --sanma --tsumo --riichi --kita 2 --dora 3z --seat S "
        "--honba 1",
        "mjcli shanten --sanma 19m123p456p789s11z 1111m111122233z",
        "mjcli advise 19m159p19s34557z4p4z --sanma",
        "mjcli verify fixtures/sanma",
    ):
        result = runner.invoke(app, command.split()[1:])
        assert result.stdout.rstrip("\n").splitlines() == _readme_block(command), command
