"""Ukeire of ``shanten`` and ``advise`` under ``--game hk`` and ``--game red``: the copies of the
improving tiles still to be drawn, as README's ``mjcli shanten`` defines them ("four copies less
those in the hand and those given with --seen") and as riichi's table counts them."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mjcli.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def _discards(*args: str) -> dict[str, tuple[int, str]]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.splitlines()[0])
    return {d["tile"]: (d["ukeire"], d["tiles"]) for d in data["discards"]}


def test_the_discarded_tile_is_no_copy_left() -> None:
    """Discarding 2p from 11m234567p789s567z: drawing a 2p again improves the hand, but the hand
    held one of the four, now in the river: 3 are left (riichi's table says 21, not 22)."""
    hand = "11m234p567p789s567z"
    hk = _discards("shanten", "--game", "hk", hand)
    riichi = _discards("shanten", hand)
    assert hk["2p"] == (21, "1m258p567z")
    assert hk["2p"] == riichi["2p"] and hk["7p"] == riichi["7p"] and hk["5z"] == riichi["5z"]


def test_a_red_joker_is_an_improving_tile() -> None:
    """A joker stands for any tile (Red design point 2), so it is drawn as an improvement like
    the tiles it can be: 1111mJ23p456789s waits on 1p, 4p and a joker (3 left of the 4, fewer
    with jokers seen)."""
    result = run("shanten", "--game", "red", "1111mJ23p456s789s", "--json")
    data = json.loads(result.stdout)
    assert (data["ukeire"], data["tiles"]) == (11, "14pJ")
    result = run("shanten", "--game", "red", "1111mJ23p456s789s", "--seen", "JJ", "--json")
    assert json.loads(result.stdout)["ukeire"] == 9
    # every joker held: none left to draw
    result = run("shanten", "--game", "red", "JJJJ123p456s789s", "--json")
    assert "J" not in json.loads(result.stdout)["tiles"]
    # a 14-tile hand: each discard's row counts the jokers left too
    rows = _discards("shanten", "--game", "red", "123m456pJ789s55z1z3z")
    assert rows["3z"] == (8, "15zJ")
    # Hong Kong has no jokers to draw
    assert "J" not in _discards("shanten", "--game", "hk", "123m456p789s55z1z3z2s")["3z"][1]


def _advise_rows(*args: str) -> dict[str, tuple[int, str]]:
    result = run("advise", *args, "--policy", "hk-pm0", "--json")
    assert result.exit_code == 0, result.output
    return {d["tile"]: (d["ukeire"], d["tiles"]) for d in json.loads(result.stdout)["discards"]}


def test_advise_counts_seen_and_melded_tiles_as_gone() -> None:
    """advise's discard table is shanten's: --seen and the hand's own melds are no copies left
    (it counted four of every kind whatever was seen or melded)."""
    hand = "123m456m789m12p55z7z"
    assert _advise_rows("--game", "hk", hand, "--seen", "333p")["7z"] == (1, "3p")
    shanten = _discards("shanten", "--game", "hk", hand, "--seen", "333p")
    assert _advise_rows("--game", "hk", hand, "--seen", "333p") == shanten
    # the same hand with a pung of 3p melded: one 3p is left
    assert _advise_rows("--game", "hk", "456789m12p55z7z", "--melds", "pon:333p")["7z"] == (1, "3p")
    # Red: a joker seen is one fewer to draw; the discarded joker itself is gone too
    rows = _advise_rows("--game", "red", "1111mJ23p456s789s5z", "--seen", "J")
    assert rows["J"] == (13, "14p5zJ")
