"""Fuzzing, bounded: every reader and the hand parser on mutated real inputs and random strings,
where the only outcomes allowed are a result or a one-line project error (see ``fuzzing.py``).

``make test`` runs a few dozen inputs per target (a few seconds); ``make fuzz`` runs the same
targets for minutes and prints the counts (``tests/fuzz.py``). ``MJCLI_FUZZ_EXAMPLES`` sets the
number of inputs per target here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fuzzing import (
    doudizhu_corpus,
    doudizhu_reader,
    hand_parsers,
    hand_text,
    hk_corpus,
    hk_reader,
    mutated,
    random_bytes,
    riichi_corpus,
    riichi_reader,
    swapped,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("MJCLI_FUZZ_EXAMPLES", "40"))
RIICHI = riichi_corpus()
HK = hk_corpus()

bounded = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


@pytest.fixture(scope="module")
def doudizhu(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[bytes], Path]:
    folder = tmp_path_factory.mktemp("doudizhu")
    return doudizhu_corpus(folder), folder


@bounded
@given(mutated(RIICHI))
def test_riichi_readers_on_mutated_logs(data: bytes) -> None:
    riichi_reader(data)


@bounded
@given(random_bytes)
def test_riichi_readers_on_random_bytes(data: bytes) -> None:
    riichi_reader(data)


@settings(bounded, max_examples=max(1, EXAMPLES // 8))
@given(mutated(RIICHI))
def test_the_engine_on_mutated_logs(data: bytes) -> None:
    riichi_reader(data, engine=True)


@bounded
@given(st.data())
def test_doudizhu_records_on_mutated_records(doudizhu: tuple[list[bytes], Path], data: st.DataObject) -> None:
    corpus, scratch = doudizhu
    doudizhu_reader(data.draw(mutated(corpus)), scratch)


@bounded
@given(mutated(HK))
def test_hk_logs_on_mutated_logs(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    hk_reader(data, tmp_path_factory.getbasetemp())


@settings(bounded, max_examples=EXAMPLES * 3)
@given(swapped(HK))
def test_hk_logs_with_values_of_other_types(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    hk_reader(data, tmp_path_factory.getbasetemp())


@settings(bounded, max_examples=EXAMPLES * 5)
@given(hand_text)
def test_the_hand_parsers_on_random_strings(text: str) -> None:
    hand_parsers(text)


# ---------------------------------------------------------------- what fuzzing found, kept as tests


def test_found_a_digit_that_int_refuses_in_a_hand() -> None:
    hand_parsers("²")  # '²'.isdigit() is true: the parser took it for a tile number


def test_found_a_digit_that_int_refuses_in_an_mjlog_tag(shared_logs: Path) -> None:
    log = (shared_logs / "tenhou-xml" / "2010081709gm-00a9-0000-fe3371ad.mjlog").read_bytes()
    at = log.index(b"<T")
    for tag in ("<T²/>", "<D1²/>"):
        riichi_reader(log[:at] + tag.encode() + log[at:])


def test_found_a_record_field_of_another_type(doudizhu: tuple[list[bytes], Path]) -> None:
    import json

    corpus, scratch = doudizhu
    record = json.loads(corpus[0].splitlines()[0])
    for field, value in [
        ("rules", 1.5),
        ("bids", [[-1, 1]]),
        ("landlord", True),
        ("plays", [[0, 1, 2, 3, 4]]),
    ]:
        doudizhu_reader(json.dumps({**record, field: value}).encode(), scratch)
