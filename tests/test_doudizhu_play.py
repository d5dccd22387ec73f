"""Dou Dizhu engine, policies, simulation and replay: whole games played through the engine."""

from __future__ import annotations

import hashlib
import json
import random

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjcli.doudizhu.cards import DECK_COUNTS, NUM_RANKS, add, deal, format_counts, parse_hand
from mjcli.doudizhu.engine import DOUZERO_SETTING, DoudizhuRules, PlayView, check_move, play_game
from mjcli.doudizhu.formats import read_records, walk
from mjcli.doudizhu.movegen import legal_moves
from mjcli.doudizhu.moves import KickerRule, Kind, beats, classify_one
from mjcli.doudizhu.policies import GreedyPolicy, ZhanPaiPolicy, get_policy
from mjcli.doudizhu.replay import replay
from mjcli.doudizhu.simulate import game_specs, simulate
from mjcli.errors import LogFormatError, UsageError

NAMES = ["zhanpai", "greedy", "random"]


def _play(names, seed, rules=DoudizhuRules()):
    return play_game([get_policy(n) for n in names], seed, rules)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), names=st.permutations(NAMES), kicker=st.sampled_from(list(KickerRule)))
def test_games_conserve_cards_and_settle(seed, names, kicker):
    record = _play(names, str(seed), DoudizhuRules(kicker=kicker))
    hands = [parse_hand(h) for h in record["hands"]]
    total = add(add(add(hands[0], hands[1]), hands[2]), parse_hand(record["kitty"]))
    assert total == DECK_COUNTS  # the deal is the deck
    # The walk re-checks every play with the rules engine; the winner is the seat that played out.
    points = list(walk(record))
    assert len(points) == len(record["bids"]) + len(record["plays"])
    # Every seat played only cards it held; the winner played exactly all of its cards.
    kitty = parse_hand(record["kitty"], allow_empty=True)
    owned = [add(h, kitty) if s == record["landlord"] else h for s, h in enumerate(hands)]
    played = [[0] * NUM_RANKS for _ in range(3)]
    for seat, cards, *_ in record["plays"]:
        for r, n in enumerate(parse_hand(cards, allow_empty=True)):
            played[seat][r] += n
    for seat in range(3):
        assert all(p <= o for p, o in zip(played[seat], owned[seat], strict=True))
    assert tuple(played[record["winner"]]) == owned[record["winner"]]
    assert sum(record["points"]) == 0
    bombs = sum(1 for p in record["plays"] if p[2] in ("bomb", "rocket"))
    assert record["bombs"] == bombs
    assert record["stake"] == record["bid"] * 2**bombs * (2 if record["spring"] else 1)


def test_same_seed_same_game():
    """A game is a function of its seed alone, in any process and on any machine: the values are
    pinned (computed once and written here; a change to the deal or the policies shows up here)."""
    record = _play(NAMES, "42")
    assert record["hands"] == ["333456778TTJQKA2B", "44567889TJJQQAA2R", "3455678999TJQKKA2"]
    assert record["kitty"] == "6K2" and record["plays"][0] == [2, "KKKA", "trio_single", "K", 1]
    assert (record["landlord"], record["winner"], record["points"]) == (2, 0, [3, 3, -6])
    text = json.dumps(record, sort_keys=True, ensure_ascii=False)
    assert hashlib.sha256(text.encode()).hexdigest() == (
        "d841fa112e1de54d2d3205d477689b1b39a64831c11a0db6003dc38af0c6fa6e"
    )
    assert _play(NAMES, "43") != record


def test_douzero_setting_scores_two_and_one():
    rules = DOUZERO_SETTING
    record = _play(["greedy"] * 3, "7", rules)
    assert record["landlord"] == 0 and record["bid"] == 1 and not record["spring"]
    assert abs(record["points"][0]) == 2 * 2 ** record["bombs"]


class Scripted:
    """Plays the given card strings in turn (as their preferred reading) and passes otherwise."""

    name = "scripted"

    def __init__(self, moves):
        self.moves = list(moves)

    def bid(self, view, rng):
        return 0, "scripted"

    def play(self, view, rng):
        if self.moves:
            move = classify_one(parse_hand(self.moves[0]))
            if view.lead is None or (move is not None and beats(move, view.lead)):
                self.moves.pop(0)
                return move, "scripted"
        return None, "scripted"


def test_spring_and_reverse_spring():
    # Deals are whole decks. Spring: the rocket and three bombs nobody can beat, then four-with-two;
    # the peasants never play.
    hands = [parse_hand(h) for h in ("2222AAAAKKKKQQQQB", "3456789TJ3456789T", "456789TJJJ456789T")]
    landlord = Scripted(["BR", "2222", "AAAA", "KKKK", "QQQQ33"])
    rules = DoudizhuRules(bidding=False, springs=True)
    record = play_game(
        [landlord, Scripted([]), Scripted([])], "s", rules, hands=hands, kitty=parse_hand("R33")
    )
    assert record["landlord_won"] and record["spring"] and record["bombs"] == 4
    assert record["stake"] == 1 * 2**4 * 2 and record["points"] == [64, -32, -32]
    # Reverse spring: the landlord plays its opening 3 and nothing more; seat 1 plays out.
    hands = [parse_hand(h) for h in ("33445566778899TJJ", "3456789TJ3456789Q", "TTQQKKKKAAAA2222B")]

    def scripts():
        return [Scripted(["3"]), Scripted(["Q", "3456789TJ", "3456789"]), Scripted([])]

    record = play_game(scripts(), "r", rules, hands=hands, kitty=parse_hand("RJQ"))
    assert not record["landlord_won"] and record["spring"] and record["stake"] == 2
    assert record["points"] == [-4, 2, 2]
    plain = play_game(scripts(), "r", DOUZERO_SETTING, hands=hands, kitty=parse_hand("RJQ"))
    assert not plain["spring"] and plain["points"] == [-2, 1, 1]


# -- policies -------------------------------------------------------------------------------------


def view(hand, lead=None, *, seat=0, landlord=0, lead_seat=None, left=(17, 17, 17)):
    h = parse_hand(hand)
    lead_move = classify_one(parse_hand(lead)) if lead else None
    return PlayView(
        seat=seat,
        hand=h,
        landlord=landlord,
        bid=1,
        kitty=(0,) * NUM_RANKS,
        cards_left=tuple(sum(h) if s == seat else left[s] for s in range(3)),
        lead=lead_move,
        lead_seat=lead_seat,
        played=lead_move.cards if lead_move else (0,) * NUM_RANKS,
        history=(),
    )


RNG = random.Random(0)


def test_zhanpai_plays_out_a_whole_hand():
    move, reason = ZhanPaiPolicy().play(view("33344456"), RNG)
    assert move.kind is Kind.AIRPLANE_SINGLE and "plays out" in reason


def test_zhanpai_leaves_partner_lead():
    # Seat 1 is a peasant; seat 2 (its partner) led 5; the landlord is seat 0.
    move, reason = ZhanPaiPolicy().play(view("789TJQ", "5", seat=1, landlord=0, lead_seat=2), RNG)
    assert move is None and "partner" in reason
    # greedy does not leave it: it beats the partner with its smallest single
    move, reason = GreedyPolicy().play(view("789TJQ", "5", seat=1, landlord=0, lead_seat=2), RNG)
    assert move.kind is Kind.SINGLE and move.text() == "7" and "smallest" in reason


def test_zhanpai_keeps_bombs_unless_needed():
    hand = "3333789TJK"
    quiet, reason = ZhanPaiPolicy().play(view(hand, "A", seat=1, landlord=0, lead_seat=0), RNG)
    assert quiet is None, reason  # no bomb on a single A with the landlord far from the end
    urgent, reason = ZhanPaiPolicy().play(
        view(hand, "A", seat=1, landlord=0, lead_seat=0, left=(2, 10, 10)), RNG
    )
    assert urgent is not None and urgent.kind is Kind.BOMB and "stops" in reason


def test_zhanpai_follow_avoids_splitting_a_chain():
    move, reason = ZhanPaiPolicy().play(view("34567QQ", "6", seat=1, landlord=0, lead_seat=0), RNG)
    assert move is None or move.text() in ("Q",), reason  # never the 7 out of 34567


def test_zhanpai_bids_on_strong_hands_only():
    from mjcli.doudizhu.engine import BidView

    strong = parse_hand("3456789TJQKA22BR2")
    weak = parse_hand("334466899JJKK5TQ3")  # plan Pn 97: eight steps, nothing high
    assert ZhanPaiPolicy().bid(BidView(0, strong, ()), RNG)[0] == 3
    assert ZhanPaiPolicy().bid(BidView(0, weak, ()), RNG)[0] == 0
    assert ZhanPaiPolicy().bid(BidView(1, strong, ((0, 3),)), RNG)[0] == 0  # nothing above 3


def test_unknown_policy():
    with pytest.raises(UsageError, match="unknown Dou Dizhu policy 'nope'"):
        get_policy("nope")


# -- simulate and replay ---------------------------------------------------------------------------


def test_simulate_is_the_same_for_any_jobs(tmp_path):
    one = simulate(NAMES, 8, 3, out=tmp_path / "a", jobs=1)
    two = simulate(NAMES, 8, 3, out=tmp_path / "b", jobs=2)
    for name in ("games.jsonl", "games.parquet", "summary.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    assert one["roles"] == two["roles"]
    games = pl.read_parquet(tmp_path / "a" / "games.parquet")
    assert games.height == 8 * 3
    assert set(games.columns) >= {"game", "seed", "seat", "policy", "role", "points", "win"}
    assert games.group_by("game").agg(pl.col("points").sum())["points"].to_list() == [0] * 8


def test_duplicate_line_ups(tmp_path):
    specs = game_specs(["zhanpai", "greedy"], 2, 1, True, "douzero")
    assert [s.lineup for s in specs] == [
        "zhanpai|greedy,greedy",
        "greedy|greedy,greedy",
        "greedy|zhanpai,zhanpai",
    ] * 2
    summary = simulate(["zhanpai", "greedy"], 4, 1, duplicate=True, out=tmp_path)
    sides = [row["side"] for row in summary["comparison"]]
    assert sides == ["landlord", "peasants", "both (DouZero)"]
    records = list(read_records(tmp_path / "games.jsonl"))
    # The three line-ups of a deal share its cards; no bidding, seat 0 leads as the landlord.
    assert len({json.dumps(r["hands"]) for r in records[:3]}) == 1
    for record in records:
        points = list(walk(record))
        assert record["bids"] == [] and points[0].kind == "lead" and points[0].seat == 0


@pytest.mark.parametrize(
    ("players", "repeated"),
    [(["zhanpai", "greedy", "greedy"], "greedy"), (["zhanpai", "zhanpai"], "zhanpai")],
)
def test_duplicate_refuses_a_name_given_twice(players, repeated):
    # Before: zhanpai,greedy,greedy played every line-up twice and the comparison said 10 deals
    # (each listed twice) for 5; zhanpai,zhanpai said 15 deals for 5 (A|AA is all three line-ups).
    with pytest.raises(UsageError, match=f"'{repeated}' is named twice"):
        game_specs(players, 5, 2, True, "douzero")
    assert len(game_specs(players, 5, 2, False, "douzero")) == 5  # at the table a seat each is fine


def test_replay_walks_records_and_reports_bad_ones(tmp_path):
    simulate(NAMES, 3, 9, out=tmp_path / "sim")
    lines = (tmp_path / "sim" / "games.jsonl").read_text().splitlines()
    broken = json.loads(lines[0])
    broken["plays"][0] = [broken["landlord"], "", "pass", "", 0]  # a pass on the free opening lead
    (tmp_path / "bad.jsonl").write_text(json.dumps(broken) + "\n" + lines[1] + "\n")
    (tmp_path / "junk.jsonl").write_text("not json\n")
    summary = replay(
        [tmp_path / "sim" / "games.jsonl", tmp_path / "bad.jsonl", tmp_path / "junk.jsonl"],
        ["zhanpai", "greedy"],
        out=tmp_path / "rep",
    )
    assert summary["games"] == 4
    assert len(summary["errors"]) == 2
    frame = pl.read_parquet(tmp_path / "rep" / "decisions.parquet")
    assert frame.columns == [
        "file",
        "game_id",
        "round",
        "turn",
        "seat",
        "player",
        "kind",
        "hand",
        "actual",
        "policy",
        "choice",
        "agree",
        "reason",
        "lead",
        "role",
        "kicker",
    ]
    assert set(frame["kind"].unique()) == {"bid", "lead", "follow"}
    # Each record's own players agree with themselves: replaying greedy's seats with greedy agrees.
    greedy_own = frame.filter((pl.col("player") == "greedy") & (pl.col("policy") == "greedy"))
    assert greedy_own.height > 0 and greedy_own["agree"].all()


def test_replay_is_the_same_for_any_jobs(tmp_path):
    simulate(NAMES, 4, 21, out=tmp_path / "sim")
    paths = [tmp_path / "sim" / "games.jsonl"]
    replay(paths, NAMES, out=tmp_path / "one", jobs=1)
    replay(paths, NAMES, out=tmp_path / "two", jobs=2)
    assert (tmp_path / "one" / "decisions.parquet").read_bytes() == (
        tmp_path / "two" / "decisions.parquet"
    ).read_bytes()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), follow=st.booleans(), data=st.data())
def test_every_policy_move_is_legal(seed, follow, data):
    """Random table positions: each policy passes only when following and plays only legal moves."""
    rng = random.Random(seed)
    hands, _ = deal(rng)
    hand = parse_hand(format_counts(hands[0])[: rng.randint(1, 17)])
    lead = None
    if follow:
        lead = data.draw(st.sampled_from(legal_moves(hands[1], None, KickerRule.DOUZERO)))
    landlord = data.draw(st.integers(0, 2))
    lead_seat = None if lead is None else data.draw(st.sampled_from([s for s in range(3) if s != 0]))
    left = (sum(hand), data.draw(st.integers(1, 17)), data.draw(st.integers(1, 17)))
    v = PlayView(
        seat=0,
        hand=hand,
        landlord=landlord,
        bid=1,
        kitty=(0,) * NUM_RANKS,
        cards_left=left,
        lead=lead,
        lead_seat=lead_seat,
        played=lead.cards if lead else (0,) * NUM_RANKS,
        history=(),
    )
    for name in NAMES + ["zhanpai_corrected"]:
        move, reason = get_policy(name).play(v, random.Random(seed))
        assert check_move(hand, lead, move, KickerRule.DOUZERO) is None, (name, move, reason)
        assert reason


def test_walk_rejects_an_out_of_turn_play():
    record = _play(NAMES, "5")
    record["plays"][0][0] = (record["plays"][0][0] + 1) % 3
    with pytest.raises(LogFormatError, match="expected seat"):
        list(walk(record))


def test_the_report_s_advise_commands_carry_the_records_kicker_rule(tmp_path):
    """A replay of --kicker rlcard records names the rule in its rows, and the report's advise
    commands give it: advise reads a lead by the rule (its default is DouZero's), so without it a
    command could show another position than the row's."""
    import html as html_lib
    import re
    import shlex

    from typer.testing import CliRunner

    from mjcli.cli import app

    runner = CliRunner()
    sim, rep, page = tmp_path / "sim", tmp_path / "rep", tmp_path / "page.html"
    made = runner.invoke(
        app, ["simulate", "--game", "doudizhu", "--kicker", "rlcard", "--games", "6", "--out", str(sim)]
    )
    assert made.exit_code == 0, made.output
    replayed = runner.invoke(
        app,
        [
            "replay",
            "--game",
            "doudizhu",
            str(sim / "games.jsonl"),
            "--policies",
            "greedy,random",
            "--out",
            str(rep),
        ],
    )
    assert replayed.exit_code == 0, replayed.output
    assert set(pl.read_parquet(rep / "decisions.parquet")["kicker"].unique()) == {"rlcard"}
    assert runner.invoke(app, ["report", str(rep), "-o", str(page)]).exit_code == 0
    commands = [
        html_lib.unescape(c)
        for c in re.findall(r'<code class="cmd">([^<]*)</code>', page.read_text(encoding="utf-8"))
        if c.startswith("mjcli advise")
    ]
    assert commands and all("--kicker rlcard" in c for c in commands)
    shown = runner.invoke(app, [*shlex.split(commands[0])[1:], "--json"])
    assert shown.exit_code == 0, shown.output


def test_a_win_share_gain_interval_stays_within_one(tmp_path):
    """A difference of two win shares lies in [-1, 1]: the normal interval of zhanpai's gain over
    random with sides swapped reached 1.048 (seed 1, 100 deals)."""
    import json

    from typer.testing import CliRunner

    from mjcli.cli import app

    out = tmp_path / "dup"
    args = ["simulate", "--game", "doudizhu", "--players", "zhanpai,random", "--duplicate", "--games", "100"]
    made = CliRunner().invoke(app, [*args, "--seed", "1", "--out", str(out)])
    assert made.exit_code == 0, made.output
    rows = json.loads((out / "summary.json").read_text())["comparison"]
    assert rows and all(-1.0 <= r["wp_gain_lo"] <= r["wp_gain"] <= r["wp_gain_hi"] <= 1.0 for r in rows)
    assert max(r["wp_gain_hi"] for r in rows) == 1.0  # (the case that ran past it)
