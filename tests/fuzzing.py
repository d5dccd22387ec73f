"""Fuzzing the readers and the hand parser: real inputs mutated, and random strings.

Shared by ``test_fuzz.py`` (a bounded run in ``make test``) and ``fuzz.py`` (``make fuzz``: a run
for a time budget, printing how many inputs each target took). The only outcomes allowed are a
result or a project error (:class:`mjcli.errors.MjcliError`, shown as one line); anything else
fails with the input that caused it, shrunk by hypothesis.

Mutations of a real file: truncate it, flip a bit, delete a run of bytes, splice in a piece of
another file, insert a character that fools ``str`` tests (``'²'.isdigit()`` is true, ``int('²')``
fails), gzip it, and swap the type of one JSON value (on one line of JSON lines) for another type
(a number for a list, null for a string...), which is what reaches the code after the parse.
"""

from __future__ import annotations

import contextlib
import copy
import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from shared import LOGS

from mjcli.errors import MjcliError, one_line

#: values swapped in for a JSON value of another type
SWAPS: list[Any] = [None, 0, -1, 3, 10**20, -(10**20), 1.5, 1e308, True, "", "x", "5mr", "pass", "BR"]
SWAPS += [[], [1], [[]], [0, "", "pass", "", 0], {}, {"a": 1}, "\u0000"]
#: characters that pass str.isdigit() or str.isspace() without being ASCII digits or spaces, and others
TRICKY = ["²", "٣", "\u00a0", "\ufeff", "\u202e", "\x00", "\u3000", "Ⅻ", "𝟘", "é"]


def riichi_corpus() -> list[bytes]:
    """Every shared log, as bytes (Tenhou XML, tenhou.net/6, mjai)."""
    return [p.read_bytes() for p in sorted(LOGS.rglob("*")) if p.is_file() and p.suffix != ".md"]


def doudizhu_corpus(folder: Path) -> list[bytes]:
    """Dou Dizhu records as ``simulate`` writes them: a few games with bidding, a few duplicate deals."""
    from mjcli.doudizhu.simulate import simulate

    simulate(["zhanpai", "greedy", "random"], 4, 1, out=folder / "table", jobs=1)
    simulate(["zhanpai", "greedy", "random"], 2, 2, out=folder / "duplicate", duplicate=True, jobs=1)
    return [(folder / d / "games.jsonl").read_bytes() for d in ("table", "duplicate")]


def hk_corpus() -> list[bytes]:
    """Hong Kong and Red logs as ``simulate`` writes them: one short game of each (three hands)."""
    from mjcli.hk.policies import HK_POLICIES, RED_POLICIES
    from mjcli.hk.rules import get_rules
    from mjcli.hk.simulate import game_specs, run_games

    out = []
    for preset, players in (("hk", HK_POLICIES), ("red", RED_POLICIES)):
        rules = get_rules(preset).with_options(max_hands=3)
        out += [o.log.encode() for o in run_games(game_specs(players, 1, 7, rules, False))]
    return out


def _swap(obj: Any, path: list[int], value: Any) -> Any:
    """``obj`` with the value at ``path`` (indexes taken modulo each container's size) replaced."""
    if not path or not isinstance(obj, dict | list) or not obj:
        return value
    keys = list(obj) if isinstance(obj, dict) else list(range(len(obj)))
    key = keys[path[0] % len(keys)]
    obj[key] = _swap(obj[key], path[1:], value)
    return obj


@st.composite
def mutated(draw: st.DrawFn, corpus: list[bytes]) -> bytes:
    """A corpus file with one to three mutations."""
    data = draw(st.sampled_from(corpus))
    for op in draw(
        st.lists(
            st.sampled_from(["truncate", "flip", "delete", "splice", "json", "gzip"]), min_size=1, max_size=3
        )
    ):
        if op == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        elif op == "flip" and data:
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + bytes([data[at] ^ (1 << draw(st.integers(0, 7)))]) + data[at + 1 :]
        elif op == "delete" and data:
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + data[at + draw(st.integers(1, 200)) :]
        elif op == "splice":
            other = draw(st.sampled_from(corpus))
            start = draw(st.integers(0, len(other)))
            piece = other[start : start + draw(st.integers(0, 2000))]
            at = draw(st.integers(0, len(data)))
            data = data[:at] + piece + data[at:]
        elif op == "unicode":  # next to a digit, where a number is being read
            at = draw(st.integers(0, len(data)))
            at = next((i for i in range(at, min(len(data), at + 400)) if data[i : i + 1].isdigit()), at)
            keep = at + draw(st.sampled_from([0, 1]))  # before the digit, or in its place
            data = data[:at] + draw(st.sampled_from(TRICKY)).encode() + data[keep:]
        elif op == "json":
            data = _json_swap(draw, data)
        elif op == "gzip":
            data = gzip.compress(data, mtime=0)
    return data


def _json_swap(draw: st.DrawFn, data: bytes) -> bytes:
    lines = data.split(b"\n")
    whole = len(lines) < 2 or draw(st.booleans()) and len(lines) < 4
    texts = [data] if whole else lines
    at = draw(st.integers(0, len(texts) - 1))
    try:
        obj = json.loads(texts[at])
    except ValueError:
        return data
    path = draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=6))
    texts[at] = json.dumps(_swap(obj, path, draw(st.sampled_from(SWAPS)))).encode()
    return texts[0] if whole else b"\n".join(texts)


@st.composite
def swapped(draw: st.DrawFn, corpus: list[bytes]) -> bytes:
    """A JSON document of the corpus with one to three values anywhere in it (a hand, a wall's tile,
    an event's text, a rule) swapped for a value of another type. A Hong Kong log is one document
    over many lines, which ``mutated``'s swap (one line of JSON lines) does not reach."""
    obj = json.loads(draw(st.sampled_from(corpus)))
    for _ in range(draw(st.integers(1, 3))):
        obj = _swap_somewhere(draw, obj)
    return json.dumps(obj).encode()


def _swap_somewhere(draw: st.DrawFn, obj: Any) -> Any:
    if isinstance(obj, dict | list) and obj and draw(st.integers(0, 7)):  # mostly deeper: the leaves
        key = draw(st.sampled_from(list(obj) if isinstance(obj, dict) else range(len(obj))))
        obj[key] = _swap_somewhere(draw, obj[key])
        return obj
    return copy.deepcopy(draw(st.sampled_from(SWAPS)))  # a later swap may go into it: not SWAPS's own


#: bytes that are not any file: random, or a format's opening followed by random bytes
random_bytes = st.one_of(
    st.binary(max_size=400),
    st.tuples(
        st.sampled_from([b"<mjloggm ver='2.3'>", b'{"log":', b'{"type":"start_game"}\n', b"\x1f\x8b", b"["]),
        st.binary(max_size=300),
    ).map(lambda t: t[0] + t[1]),
)
#: strings a person might type for a hand, a meld list or a card string, and anything else
hand_text = st.one_of(
    st.text(alphabet="0123456789mpszESWNPFC ,:-ponchikaTJQKAB2R", max_size=30), st.text(max_size=30)
)


def allowed(call: Callable[[], Any]) -> Any:
    """Run ``call``: its result, or None for a project error (which must read as one line)."""
    try:
        return call()
    except MjcliError as exc:
        message = one_line(str(exc))
        assert message and "\n" not in message
        return None


# ---------------------------------------------------------------- the targets (one input each)

ENGINE_ERRORS = (MjcliError, ArithmeticError, LookupError, TypeError, ValueError)


def riichi_reader(data: bytes, engine: bool = False) -> None:
    """Read a log; convert what reads back and forth; with ``engine``, verify its first game too
    (the engine may refuse a game: ``verify`` and ``replay`` report these errors per game)."""
    from mjcli.riichi.formats import read_bytes, write_games

    games = allowed(lambda: read_bytes(data, "fuzz"))
    if not games:
        return
    for fmt in ("tenhou6", "mjai"):
        text = allowed(lambda fmt=fmt: write_games(games, fmt))
        if text:
            allowed(lambda text=text: read_bytes(text.encode(), "converted"))
    if engine:
        from mjcli.riichi.verify import verify_log

        with contextlib.suppress(ENGINE_ERRORS):
            verify_log(games[0], None)


def doudizhu_reader(data: bytes, scratch: Path) -> None:
    """Read a records file and walk every record (as ``replay --game doudizhu`` does)."""
    from mjcli.doudizhu.formats import read_records, walk

    path = scratch / "fuzz.jsonl"
    path.write_bytes(data)

    def read_all() -> int:
        return sum(1 for record in read_records(path) for _ in walk(record))

    allowed(read_all)


def hk_reader(data: bytes, scratch: Path) -> None:
    """Read a Hong Kong (or Red) log and walk it through the engine (as ``verify --game hk`` and
    ``replay --game hk`` do): a log the engine refuses must be a project error, nothing else."""
    from mjcli.hk.formats import read_game, walk

    path = scratch / "fuzz.json"
    path.write_bytes(data)
    allowed(lambda: sum(1 for _ in walk(read_game(path))))


def hand_parsers(text: str) -> None:
    """Every parser of typed text: riichi hands, melds, scoring, shanten's lines, Dou Dizhu cards."""
    from mjcli.doudizhu.cards import parse_hand as cards
    from mjcli.melds import parse_melds
    from mjcli.riichi.hand_report import read_hands
    from mjcli.riichi.scoring import score_typed
    from mjcli.tiles import parse_hand

    allowed(lambda: parse_hand(text))
    allowed(lambda: parse_melds(text))
    allowed(lambda: cards(text))
    allowed(lambda: score_typed(text, None))
    allowed(lambda: score_typed("123m456p789s11z", text[:2] or None, melds=text))
    read_hands(text.splitlines())  # never raises: a bad line is an entry
