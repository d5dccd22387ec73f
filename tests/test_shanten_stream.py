"""``mjcli shanten - --json`` a chunk at a time (mjcli/riichi/hand_lines.py): the numpy answers of plain
lines equal the one-hand Python path byte for byte, for every field set; --fields; streaming."""

from __future__ import annotations

import io
import json
import os
import random
import selectors
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.analysis import shanten
from mjcli.errors import UsageError
from mjcli.riichi.hand_lines import FIELDS, HandLines, dumps, needs_analysis, parse_fields, select
from mjcli.riichi.hand_report import analyse, check_seen, read_hand
from mjcli.tiles import RED_FIVES, tile_name, to_mpsz

ROOT = Path(__file__).resolve().parents[1]


def _one_by_one(fields: tuple[str, ...], seen: list[int]):
    """The reading and analysis of one hand in Python: the reference for the numpy path."""

    def answer(line: str, number: int) -> tuple[str, bool]:
        text = line.strip()
        if not text:
            return "", False
        try:
            hand = read_hand(text, what=f"hand '{text}'")
            check_seen(hand, seen)
        except Exception as exc:
            return dumps({"line": number, "error": str(exc)}), True
        result = analyse(hand, shanten(hand.counts), seen, not needs_analysis(fields))
        return dumps(select(result.to_json(), fields)), False

    return answer


def _random_hands(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)]
    lines = []
    for i in range(count):
        rng.shuffle(wall)
        size = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 13, 14)[i % 12]
        tiles = wall[:size]
        for red, five in zip(RED_FIVES, (4, 13, 22), strict=True):  # a red five now and then (0m 0p 0s)
            if five in tiles and rng.random() < 0.4:
                tiles[tiles.index(five)] = red
        lines.append(to_mpsz(tiles))
    return lines


@pytest.mark.parametrize(
    "fields",
    [
        FIELDS,
        ("hand", "size", "shanten"),
        ("discards", "ukeire"),
        ("tiles", "remaining"),
        ("size",),
        ("shanten",),
    ],
)
def test_numpy_answers_equal_the_one_hand_path(fields):
    seen = [0] * 34
    seen[0] = 2  # two 1m seen: a hand with three 1m is refused (one by one), the others count fewer
    seen[31] = 1
    lines = _random_hands(600, seed=len(fields))
    lines[5] = "111m" + lines[5][:10]  # maybe too many with the seen 1m: the one-by-one path says
    lines += ["", "  ", "123m456p789s1122z", "0m123p", "12x", "1112223334445z", "19m19p19s1234567z"]
    lines += ["00m123p", "0z123p", "0m5m123p456s789s11z", "0m555m123p456s78s", "0p", "5p0p", "0s5s5s55s"]
    # plain but not written as their labels are (suits out of order, digits unsorted, 0 after 5)
    lines += ["456p123m789s1122z", "321m654p987s2211z", "123m456p789s2211z", "50m123p456s789s11z"]
    lines += ["1234m5067p", "1122z123m456p789s", "123m456p789s11z22z", "0455m", "4055m"]
    reference = _one_by_one(fields, seen)
    expected = "".join(reference(line, i + 1)[0] for i, line in enumerate(lines))
    plain = HandLines(seen, fields, reference)
    got = plain.answer(("\n".join(lines) + "\n").encode(), 1).decode()
    assert got == expected
    assert plain.entries == sum(1 for line in lines if line.strip())


@pytest.mark.parametrize("fields", [FIELDS, ("hand", "size", "shanten", "ukeire", "discards")])
def test_the_chunk_size_changes_no_byte(fields):
    """Wide rows are read in smaller chunks (``WIDE_CHUNK_BYTES``): the bytes written are the same
    whatever the chunks, down to a few lines each, a bad line and a blank one among them."""
    from mjcli.riichi.hand_lines import CHUNK_BYTES, WIDE_CHUNK_BYTES, write_answers

    seen = [0] * 34
    lines = _random_hands(300, seed=11)
    lines[40:40] = ["", "12x", "123m456p789s1122z"]
    data = ("\n".join(lines) + "\n").encode()
    written = {}
    for size in (1 << 20, 200, 37):
        handled = HandLines(seen, fields, _one_by_one(fields, seen))
        handled.chunk_bytes = size
        out = io.BytesIO()
        write_answers(io.BytesIO(data), out, handled)
        written[size] = out.getvalue()
        assert handled.entries == sum(1 for line in lines if line.strip())
    assert written[200] == written[37] == written[1 << 20]
    assert len(written[37].splitlines()) == len(lines) - 1  # every line answered, the blank one not
    wide = "tiles" in fields
    assert HandLines(seen, fields, _one_by_one(fields, seen)).chunk_bytes == (
        WIDE_CHUNK_BYTES if wide else CHUNK_BYTES
    )


def test_fields_are_checked_and_kept_in_their_order():
    assert parse_fields("shanten, HAND") == ("hand", "shanten")
    for text in ("hand,colour", ",", ""):
        with pytest.raises(UsageError, match="--fields"):
            parse_fields(text)
    obj = {"hand": "x", "size": 14, "shanten": 1, "discards": [{"tile": "1m", "shanten": 1, "ukeire": 3}]}
    assert select(obj, ("discards", "ukeire")) == {"discards": [{"tile": "1m", "ukeire": 3}]}


def _mjcli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "mjcli", "shanten", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_cli_fields_and_its_errors():
    run = _mjcli(
        "-", "--json", "--fields", "hand,shanten", stdin="123m456p789s1122z\n\nbad\n123m456p789s11223z\n"
    )
    assert run.returncode == 2
    assert [json.loads(x) for x in run.stdout.splitlines()] == [
        {"hand": "123m456p789s1122z", "shanten": 0},
        {
            "line": 3,
            "input": "bad",
            "error": "unknown suit letter 'b' in 'bad' (use m p s z, or E S W N P F C for honours)",
        },
        {"hand": "123m456p789s11223z", "shanten": 0},
    ]
    bad = _mjcli("-", "--json", "--fields", "hand,colour", stdin="123m456p789s1122z\n")
    assert bad.returncode == 2 and bad.stderr.strip().startswith(
        "error: --fields 'hand,colour': unknown field"
    )
    assert len(bad.stderr.strip().splitlines()) == 1
    text = _mjcli("123m456p789s1122z", "--fields", "hand")
    assert text.returncode == 2 and "give --json too" in text.stderr


def test_a_pipe_is_answered_line_by_line_before_it_ends():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjcli", "shanten", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    try:
        answers = []
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            for hand in ("123m456p789s1122z", "123m456p789s11223z"):
                proc.stdin.write(hand.encode() + b"\n")
                proc.stdin.flush()
                # the answer comes while stdin is still open (a generous bound, not a time check)
                assert sel.select(timeout=60), "no answer before the end of the input"
                answers.append(json.loads(proc.stdout.readline()))
        assert [a["hand"] for a in answers] == ["123m456p789s1122z", "123m456p789s11223z"]
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()


def test_hands_in_other_notations_join_the_batch_with_the_same_answers():
    """Spaces, commas and mjai honour letters are read one by one, then analysed with the batch:
    the answers are those of the same hands given on the command line."""
    hands = ["123m 456p 789s 11223z", "EESSW 123m456p789s", "1m,2m,3m,0p5p,9s9s9s,PPFCC"]
    batch = _mjcli("-", "--json", stdin="\n".join(hands) + "\n")
    one_by_one = _mjcli(*hands, "--json")
    assert batch.returncode == one_by_one.returncode == 0, batch.stderr
    assert batch.stdout == one_by_one.stdout
    assert len(batch.stdout.splitlines()) == 3


# a batch of hands of 13/14 tiles mostly (other legal sizes too, few kinds now and then: quads, dead
# waits), a red five in place of a five sometimes; tiles as ids 0..135 so no kind exceeds four
_batch_hand = st.tuples(
    st.lists(st.integers(0, 135), min_size=1, max_size=14, unique=True).filter(
        lambda ids: len(ids) in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
    ),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_batch_hand, min_size=1, max_size=12), st.sampled_from([[0] * 34, [1] * 27 + [0] * 7]))
def test_a_batch_answers_each_hand_as_alone_and_as_mahjong_counts(hands, seen):
    """The chunk answer of the batch path is the one-hand path's, line for line, and its shanten
    numbers (the hand's, and each discard's) are `mahjong`'s."""
    from mahjong.shanten import Shanten

    lines = []
    for ids, red in hands:
        tiles = [i // 4 for i in ids]
        if red and 4 in tiles:
            tiles[tiles.index(4)] = RED_FIVES[0]
        lines.append(to_mpsz(tiles))
    reference = _one_by_one(FIELDS, seen)
    expected = "".join(reference(line, i + 1)[0] for i, line in enumerate(lines))
    got = HandLines(seen, FIELDS, reference).answer(("\n".join(lines) + "\n").encode(), 1).decode()
    assert got == expected
    for (ids, _), answer in zip(hands, got.splitlines(), strict=True):
        obj = json.loads(answer)
        if "error" in obj:  # a hand holding a tile the seen ones leave none of
            continue
        counts = [0] * 34
        for i in ids:
            counts[i // 4] += 1
        assert obj["shanten"] == Shanten.calculate_shanten(counts)
        for option in obj.get("discards", []):
            kind = next(
                k for k in range(34) if option["tile"] in (tile_name(k), tile_name(k).replace("5", "0"))
            )
            after = list(counts)
            after[kind] -= 1
            assert option["shanten"] == Shanten.calculate_shanten(after)
