"""Simultaneous claims on one tile: Tenhou's priority (ron > pon/kan > chi), double and triple ron."""

from __future__ import annotations

import dataclasses

from mjcli.riichi.engine import events as ev
from mjcli.riichi.rules import get_rules
from mjcli.riichi.simulate.claims import resolve

TENHOU = get_rules("tenhou")


def ron(seat: int, target: int = 0) -> tuple[object, ...]:
    return (ev.Win(seat, target, 5),)


def test_everyone_passing_is_nothing() -> None:
    r = resolve(0, {}, TENHOU)
    assert r.wins == () and r.call is None and not r.triple_ron


def test_pon_and_kan_come_before_chi() -> None:
    chi = (ev.Chi(1, 0, 5, (3, 4)),)
    pon = (ev.Pon(3, 0, 5, (5, 5)),)
    kan = (ev.OpenKan(2, 0, 5, (5, 5, 5)),)
    assert resolve(0, {1: chi, 3: pon}, TENHOU).call == pon
    assert resolve(0, {1: chi, 2: kan}, TENHOU).call == kan
    assert resolve(0, {1: chi}, TENHOU).call == chi


def test_ron_comes_before_any_call() -> None:
    pon = (ev.Pon(3, 0, 5, (5, 5)),)
    r = resolve(0, {3: pon, 2: ron(2)}, TENHOU)
    assert r.wins == (2,) and r.call is None


def test_double_ron_in_turn_order_from_the_discarder() -> None:
    assert resolve(2, {1: ron(1, 2), 3: ron(3, 2)}, TENHOU).wins == (3, 1)
    assert resolve(0, {3: ron(3), 1: ron(1)}, TENHOU).wins == (1, 3)


def test_triple_ron_aborts_under_tenhou_rules() -> None:
    r = resolve(0, {1: ron(1), 2: ron(2), 3: ron(3)}, TENHOU)
    assert r.triple_ron and r.wins == ()
    no_abort = dataclasses.replace(TENHOU, triple_ron_abort=False)
    assert resolve(0, {1: ron(1), 2: ron(2), 3: ron(3)}, no_abort).wins == (1, 2)


def test_head_bump_without_double_ron() -> None:
    single = dataclasses.replace(TENHOU, double_ron=False)
    assert resolve(1, {0: ron(0, 1), 3: ron(3, 1)}, single).wins == (3,)
