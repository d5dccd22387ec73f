"""Each ``--kicker`` option against the implementation it is named after, asked as itself: RLCard 1.2
and DouZero 1.1 run in the peer venv ``.venv-peers/ddz`` (``make peers``, which ``make test`` runs)
through ``tests/peers/ddz_peer.py``; this process never imports them.

For each option: (1) every legal play of up to 20 cards, and how the reference ranks or reads each;
(2) the leads of 2,000 random hands and 500 hands built around trio runs; (3) the follows of 1,500
(hand, previous play) pairs, half of them against airplanes with kickers; (4) "A beats B" for 5,000
pairs plus the cases the rules doc names. ``rlcard`` must agree with RLCard and ``douzero`` with
DouZero everywhere. ``pagat`` is compared with RLCard and may differ only as
``docs/doudizhu-kickers.md`` lists (:data:`PAGAT_VS_RLCARD`); any other difference fails. Seeds are
fixed. Without the peer venv the tests fail (they do not skip): run ``make peers``.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mjcli.doudizhu.cards import (
    ACE,
    DECK_COUNTS,
    NUM_RANKS,
    Counts,
    add,
    counts_of,
    deck_ranks,
    format_counts,
)
from mjcli.doudizhu.cards import parse_hand as cards
from mjcli.doudizhu.movegen import legal_moves
from mjcli.doudizhu.moves import NO_ANSWER, KickerRule, Kind, Move, as_lead, beats, classify, classify_one

ROOT = Path(__file__).resolve().parents[1]
PEER_PYTHON = ROOT / ".venv-peers" / "ddz" / "bin" / "python"
DRIVER = ROOT / "tests" / "peers" / "ddz_peer.py"
KICKER_DOC = ROOT / "docs" / "doudizhu-kickers.md"

MAX_CARDS = 20
SEED = 20
RANDOM_HANDS, RUN_HANDS, FOLLOWS, BEATS = 2000, 500, 1500, 5600
RULES = list(KickerRule)
#: The implementation each option is compared with (Pagat has none that runs: RLCard, with the
#: differences of PAGAT_VS_RLCARD).
REFERENCE = {KickerRule.RLCARD: "rlcard", KickerRule.DOUZERO: "douzero", KickerRule.PAGAT: "rlcard"}

#: Cases from the rules doc and issue 20, added to the sampled follows and "A beats B" pairs.
PROBE_FOLLOWS = [
    ("444555666777", "333444555678"),  # a 12-card run on three trios with kickers
    ("555666777888", "333444555666"),  # ... and on a 12-card run
    ("333444555666789T", "3334445556667778"),  # DouZero: only bombs answer what its detector rejects
    ("888999TTTJJJKKKQ", "3334445556667778"),
    ("359TTTJJJQQQKKK2", "999TTTJJJQQQKKKB"),
    ("3333444555666777888K", "44455566677789TJ"),
    ("QQQKKKAAA22234BR", "333444555678"),
]
PROBE_BEATS = [
    ("444555666777", "333444555678"),
    ("333444555KKK", "444555666789"),  # DouZero ranks airplanes by the highest trio, kicker trios too
    ("444555666999", "555666777389"),
    ("44555666777A", "444555666AAA"),
    ("5JJJQQQKKKA2", "TTTJJJQQQKKK"),
    ("333444555666KKK2", "44455566677789TJ"),
    ("QQQKKKAAA222", "JJJQQQKKK345"),
    ("3333", "3334445556667778"),
    ("44455536", "33344478"),
    ("555534", "4444KA"),
    ("4444", "555534"),
    ("BR", "2222"),
    ("3333", "BR"),
    ("TTTTBR", "55558Q"),
    ("KKKAAABR", "3555666T"),
]


# -- the documented rule differences ----------------------------------------------------------


def _single_kickers(move: Move) -> Counts:
    """The kickers of an airplane with single kickers read with the run ending at ``move.main``."""
    low = move.main - move.size + 1
    return tuple(c - 3 if low <= r <= move.main else c for r, c in enumerate(move.cards))


def repeats_a_kicker_rank(text: str) -> bool:
    """An airplane with single kickers under RLCard's rule whose kickers repeat a rank."""
    return any(
        m.kind is Kind.AIRPLANE_SINGLE and max(_single_kickers(m)) >= 2
        for m in classify(cards(text), KickerRule.RLCARD)
    )


@dataclass(frozen=True)
class RuleDifference:
    """A difference between an option and its reference made on purpose: plays of which ``applies``
    holds are legal on the ``legal_in`` side only. ``name`` is its heading in docs/doudizhu-kickers.md."""

    name: str
    legal_in: str  # "reference" or "mjcli"
    applies: Callable[[str], bool]


PAGAT_VS_RLCARD = (RuleDifference("Airplane kickers that repeat a rank", "reference", repeats_a_kicker_rank),)
DIFFERENCES: dict[KickerRule, tuple[RuleDifference, ...]] = {
    KickerRule.RLCARD: (),
    KickerRule.DOUZERO: (),
    KickerRule.PAGAT: PAGAT_VS_RLCARD,
}


@dataclass
class Report:
    """Plays on one side only, sorted into documented differences and the rest (which fail)."""

    rule: KickerRule
    documented: Counter[str] = field(default_factory=Counter)
    undocumented: list[str] = field(default_factory=list)
    compared: int = 0

    def one_side(self, play: str, legal_in: str, where: str) -> None:
        for diff in DIFFERENCES[self.rule]:
            if diff.legal_in == legal_in and diff.applies(play):
                self.documented[diff.name] += 1
                return
        side = f"{REFERENCE[self.rule]} only" if legal_in == "reference" else f"mjcli {self.rule} only"
        self.undocumented.append(f"{play} ({side}) {where}".rstrip())

    def sets(self, ours: set[str], theirs: set[str], where: str = "") -> None:
        self.compared += 1
        for play in sorted(ours - theirs):
            self.one_side(play, "mjcli", where)
        for play in sorted(theirs - ours):
            self.one_side(play, "reference", where)

    def check(self, what: str, at_least: int) -> None:
        assert self.compared >= at_least, f"{what}: only {self.compared} cases compared"
        shown = "\n".join(self.undocumented[:25])
        assert not self.undocumented, (
            f"{what}, --kicker {self.rule} vs {REFERENCE[self.rule]}: {len(self.undocumented)} undocumented "
            f"differences in {self.compared} cases (documented: {dict(self.documented)}):\n{shown}"
        )


# -- the cases ---------------------------------------------------------------------------------


def random_hand(rng: random.Random) -> Counts:
    deck = deck_ranks()
    rng.shuffle(deck)
    return counts_of(deck[: rng.choice((17, 20))])


def trio_run_hand(rng: random.Random) -> Counts:
    """A 17- or 20-card hand holding a run of 2 to 5 trios, the other cards dealt at random."""
    k = rng.choice((2, 3, 4, 4, 5))
    low = rng.randint(0, ACE - k + 1)
    run = tuple(3 if low <= r < low + k else 0 for r in range(NUM_RANKS))
    rest = [r for r, n in enumerate(DECK_COUNTS) for _ in range(n - run[r])]
    rng.shuffle(rest)
    return add(run, counts_of(rest[: rng.choice((17, 20)) - 3 * k]))


def with_kickers(move: Move) -> bool:
    return move.kind in (Kind.AIRPLANE_SINGLE, Kind.AIRPLANE_PAIR)


def every_play(rule: KickerRule) -> set[str]:
    """Every legal play of up to 20 cards: what a hand of the whole deck may lead."""
    return {m.text() for m in legal_moves(DECK_COUNTS, None, rule) if m.count <= MAX_CARDS}


@dataclass
class Cases:
    leads: list[Counts]
    follows: list[tuple[Counts, Counts]]
    beats: list[tuple[Counts, Counts]]
    widest: set[str]  # every play under douzero, the widest rule

    def request(self) -> dict:
        return {
            "universe": sorted(self.widest),
            "leads": [format_counts(h) for h in self.leads],
            "follows": [[format_counts(h), format_counts(p)] for h, p in self.follows],
            "beats": [[format_counts(a), format_counts(b)] for a, b in self.beats],
        }


def make_cases() -> Cases:
    rng = random.Random(SEED)
    leads = [random_hand(rng) for _ in range(RANDOM_HANDS)] + [trio_run_hand(rng) for _ in range(RUN_HANDS)]
    # Previous plays and pairs are drawn from every play of 400 hands (under douzero, the widest rule).
    pools = [legal_moves(trio_run_hand(rng) if i % 2 else random_hand(rng)) for i in range(400)]
    planes = [p for p in ([m for m in pool if with_kickers(m)] for pool in pools) if p]
    follows = [(cards(h), cards(p)) for h, p in PROBE_FOLLOWS]
    for i in range(FOLLOWS):
        previous = rng.choice(rng.choice(planes) if i % 2 == 0 else rng.choice(pools))
        hand = trio_run_hand(rng) if i % 3 else random_hand(rng)
        follows.append((hand, previous.cards))
    pairs = [(cards(a), cards(b)) for a, b in PROBE_BEATS]
    while len(pairs) < BEATS + len(PROBE_BEATS):
        pool = rng.choice(pools)
        big = [m for m in pool if m.count >= 5]
        a = rng.choice(big if big and rng.random() < 0.7 else pool)
        others = [m for m in rng.choice(pools) if m.count == a.count or m.kind is Kind.BOMB]
        if others:
            pairs.append((a.cards, rng.choice(others).cards))
    return Cases(leads, follows, pairs, every_play(KickerRule.DOUZERO))


class Peer:
    """The peer process, started at once and waited for when its answer is first needed."""

    def __init__(self, request: dict) -> None:
        if not PEER_PYTHON.exists():
            pytest.fail(f"the peer venv is missing ({PEER_PYTHON}): run `make peers` (`make test` does)")
        self.proc = subprocess.Popen(
            [str(PEER_PYTHON), str(DRIVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.input: str | None = json.dumps(request)
        self._answer: dict | None = None

    def answer(self) -> dict:
        if self._answer is None:
            out, err = self.proc.communicate(self.input, timeout=600)
            if self.proc.returncode != 0:
                pytest.fail(f"{DRIVER.name} failed (exit {self.proc.returncode}):\n{err[-3000:]}")
            self._answer = json.loads(out)
        return self._answer


@pytest.fixture(scope="module")
def cases() -> Cases:
    return make_cases()


@pytest.fixture(scope="module")
def peer(cases: Cases) -> Peer:
    return Peer(cases.request())


@pytest.fixture(scope="module")
def ours(cases: Cases, peer: Peer) -> dict[KickerRule, dict]:
    """mjcli's answers for every option, worked out while the peer works out the references'."""
    out = {}
    for rule in RULES:
        leads = [{m.text() for m in legal_moves(h, None, rule)} for h in cases.leads]
        follows = []
        for hand, previous in cases.follows:
            lead = classify_one(previous, rule)
            follows.append(
                None if lead is None else {m.text() for m in legal_moves(hand, as_lead(lead, rule), rule)}
            )
        pairs = []
        for a, b in cases.beats:
            lead = classify_one(b, rule)
            pairs.append(
                None if lead is None else any(beats(m, as_lead(lead, rule)) for m in classify(a, rule))
            )
        universe = cases.widest if rule is KickerRule.DOUZERO else every_play(rule)
        out[rule] = {"universe": universe, "leads": leads, "follows": follows, "beats": pairs}
    return out


# -- the comparisons ---------------------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_every_play_of_up_to_20_cards(rule, peer, ours):
    report = Report(rule)
    report.sets(ours[rule]["universe"], set(peer.answer()[REFERENCE[rule]]["universe"]), "(every play)")
    report.check("every play of up to 20 cards", 1)
    assert len(ours[rule]["universe"]) > 12000


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_leads(rule, cases, peer, ours):
    report = Report(rule)
    theirs = peer.answer()[REFERENCE[rule]]["leads"]
    for hand, mine, their in zip(cases.leads, ours[rule]["leads"], theirs, strict=True):
        report.sets(mine, set(their), f"from {format_counts(hand)}")
    report.check("leads", RANDOM_HANDS + RUN_HANDS)


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_follows(rule, cases, peer, ours):
    report = Report(rule)
    theirs = peer.answer()[REFERENCE[rule]]["follows"]
    against_planes = 0
    for (hand, previous), mine, their in zip(cases.follows, ours[rule]["follows"], theirs, strict=True):
        if mine is None:  # not a play under this option: every play is compared on its own above
            continue
        where = f"on {format_counts(previous)} from {format_counts(hand)}"
        if their is None:
            report.one_side(format_counts(previous), "mjcli", f"as the previous play {where}")
            continue
        report.sets(mine, set(their), where)
        against_planes += any(with_kickers(m) for m in classify(previous, rule))
    report.check("follows", 1000)
    assert against_planes >= 400


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_a_beats_b(rule, cases, peer, ours):
    report = Report(rule)
    theirs = peer.answer()[REFERENCE[rule]]["beats"]
    yes = 0
    for (a, b), mine, their in zip(cases.beats, ours[rule]["beats"], theirs, strict=True):
        if mine is None:
            continue
        report.compared += 1
        yes += mine
        if their is None:
            report.one_side(format_counts(b), "mjcli", "as B")
        elif mine != their:
            report.one_side(format_counts(a), "mjcli" if mine else "reference", f"beats {format_counts(b)}")
    report.check("A beats B", 5000)
    assert yes > 500  # the pairs are not all "no"


def test_rlcard_ranks_plays_as_rlcard(peer):
    """RLCard ranks plays by (type, weight) from its action space: one type maps to one kind and
    size, and the weight orders plays of a type as the main rank does, over every play."""
    by_type: dict[str, dict[int, set[tuple[Kind, int, int]]]] = defaultdict(lambda: defaultdict(set))
    for text, (kind_name, weight) in peer.answer()["rlcard"]["universe"].items():
        readings = classify(cards(text), KickerRule.RLCARD)
        assert len(readings) == 1, (text, readings)
        m = readings[0]
        by_type[kind_name][int(weight)].add((m.kind, m.size, m.main))
    shapes = {}
    for kind_name, weights in by_type.items():
        kinds = {(k, s) for readings in weights.values() for k, s, _ in readings}
        assert len(kinds) == 1, (kind_name, kinds)
        shapes[kind_name] = kinds.pop()
        mains = [{main for _, _, main in weights[w]} for w in sorted(weights)]
        assert all(len(ms) == 1 for ms in mains), kind_name  # one weight, one main rank
        order = [ms.pop() for ms in mains]
        assert order == sorted(order) and len(set(order)) == len(order), kind_name
    assert len(set(shapes.values())) == len(shapes)  # two RLCard types are never one mjcli kind


def test_douzero_leads_stand_as_its_detector_reads_them(peer):
    """What the next player must beat (as_lead) is what DouZero's move detector makes of the cards:
    one detector type and length per kind and size, and "wrong" exactly where only bombs answer."""
    shapes: dict[tuple[str, int], set[tuple[Kind, int]]] = defaultdict(set)
    wrong = 0
    for text, (type_name, length) in peer.answer()["douzero"]["universe"].items():
        lead = as_lead(classify_one(cards(text)))
        if type_name == "TYPE_15_WRONG":
            wrong += 1
            assert lead.main == NO_ANSWER and lead.kind is Kind.AIRPLANE_SINGLE, text
        else:
            assert lead.main != NO_ANSWER, text
            shapes[type_name, length].add((lead.kind, lead.size))
    assert wrong > 1000
    assert all(len(s) == 1 for s in shapes.values()), {k: v for k, v in shapes.items() if len(v) > 1}
    assert len({next(iter(s)) for s in shapes.values()}) == len(shapes)


def test_the_peer_checks_itself(peer):
    assert peer.answer()["checks"]["douzero_generator_shortcut"] == []


def test_the_differences_are_documented():
    doc = KICKER_DOC.read_text(encoding="utf-8")
    for diffs in DIFFERENCES.values():
        for diff in diffs:
            assert f"### {diff.name}" in doc, diff.name
