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
