"""Dou Dizhu speed: plans per second of the seed's planner and games per second per core."""

from __future__ import annotations

import random
import time

from mjcli.doudizhu import planner
from mjcli.doudizhu.cards import add, deal, parse_hand
from mjcli.doudizhu.engine import DoudizhuRules, play_game
from mjcli.doudizhu.policies import get_policy

HARD = ["33445566778899TTJJQQ", "3456789TJQKA3456789T", "33445566778899TTJJQK", "3344556677889TTJJQQK"]


def bench_plans(n_deals: int = 1000) -> None:
    rng = random.Random(2024)
    hands = []
    for _ in range(n_deals):
        dealt, kitty = deal(rng)
        hands.extend(dealt)
        hands.append(add(dealt[0], kitty))  # a landlord's 20 cards
    planner.clear_caches()
    start = time.perf_counter()
    for hand in hands:
        planner.plan(hand)
    cold = time.perf_counter() - start
    print(
        f"planner: {len(hands)} dealt hands (17 and 20 cards), empty caches: {len(hands) / cold:,.0f} plans/s"
    )
    worst = 0.0
    for text in HARD:
        planner.clear_caches()
        start = time.perf_counter()
        planner.plan(parse_hand(text))
        worst = max(worst, time.perf_counter() - start)
    print(f"planner: slowest of {len(HARD)} chain-heavy 20-card hands, empty caches: {worst * 1000:.1f} ms")


def bench_games(name: str, games: int) -> None:
    policies = [get_policy(name)] * 3
    planner.clear_caches()
    start = time.perf_counter()
    plays = 0
    for g in range(games):
        plays += len(play_game(policies, f"bench:{g}", DoudizhuRules())["plays"])
    took = time.perf_counter() - start
    speed = f"{games / took:,.1f} games/s ({plays / took:,.0f} moves/s)"
    print(f"games: 3 x {name:<8} {games} games with bidding, one core: {speed}")


def run() -> None:
    bench_plans()
    bench_games("zhanpai", 300)
    bench_games("greedy", 300)
    bench_games("random", 300)


if __name__ == "__main__":
    run()
