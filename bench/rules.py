"""Rules-engine speed: full bot matches per second for every game, side by side.

For each game it plays full 4-player bot matches two ways in the same run:
* **engine**: the loop a table runs (choose, apply) on one mutable state;
* **deep-copy baseline**: the same loop, but the state is deep-copied before every action,
  as an immutable-state design (or a naive undo stack) would do.
The ratio between them is the point of the bench (machines are noisy; ratios travel).
It also reports the bot's cost separately by replaying the recorded journal without it.

Run: .venv/bin/python bench/rules.py [--seconds 2] [--games wool_bluff,...]
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcbridge import games
from mcbridge.core import CHANCE, Action, Game, Rng


def play(game: Game, seed: int, players: int, deep_copy: bool) -> list[tuple[int, Action]]:
    names = [f"p{i}" for i in range(players)]
    state = game.new_match(names, seed)
    rng = Rng(seed)
    bot = game.bot()
    log: list[tuple[int, Action]] = []
    while not state.is_over:
        seat = min(state.to_act())
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = bot.choose(state.view(seat), state.legal_actions(seat), rng)
        if deep_copy:
            state = copy.deepcopy(state)
        state.apply(seat, action)
        log.append((seat, action))
    return log


def replay(game: Game, seed: int, players: int, log: list[tuple[int, Action]]) -> None:
    state = game.new_match([f"p{i}" for i in range(players)], seed)
    for seat, action in log:
        state.apply(seat, action)


def measure(fn, budget: float) -> tuple[int, int, float]:  # type: ignore[no-untyped-def]
    """Run fn(seed) -> actions until the time budget is spent; (matches, actions, seconds)."""
    matches = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < budget or matches == 0:
        actions += fn(matches)
        matches += 1
    return matches, actions, elapsed


def bench_game(name: str, players: int, budget: float) -> dict[str, float]:
    game = games.load(name)
    lo, hi = game.player_range
    players = max(lo, min(players, hi))
    logs: dict[int, list[tuple[int, Action]]] = {}

    def engine(seed: int) -> int:
        logs[seed] = play(game, seed, players, deep_copy=False)
        return len(logs[seed])

    def baseline(seed: int) -> int:
        return len(play(game, seed, players, deep_copy=True))

    def rules_only(seed: int) -> int:
        log = logs[seed % len(logs)]
        replay(game, seed % len(logs), players, log)
        return len(log)

    e = measure(engine, budget)
    b = measure(baseline, budget)
    r = measure(rules_only, budget)
    return {
        "players": players,
        "matches_s": e[0] / e[2],
        "actions_s": e[1] / e[2],
        "baseline_matches_s": b[0] / b[2],
        "replay_actions_s": r[1] / r[2],
        "ratio": (e[0] / e[2]) / (b[0] / b[2]),
        "actions_per_match": e[1] / e[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per measurement")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", default=",".join(games.available()))
    args = parser.parse_args()
    print(
        f"{'game':<18} {'pl':>2} {'matches/s':>10} {'actions/s':>10} {'act/match':>9} "
        f"{'deep-copy m/s':>13} {'engine/copy':>11} {'replay act/s':>12}"
    )
    for name in args.games.split(","):
        row = bench_game(name, args.players, args.seconds)
        print(
            f"{name:<18} {row['players']:>2} {row['matches_s']:>10.1f} {row['actions_s']:>10.0f} "
            f"{row['actions_per_match']:>9.0f} {row['baseline_matches_s']:>13.1f} {row['ratio']:>10.1f}x "
            f"{row['replay_actions_s']:>12.0f}"
        )


if __name__ == "__main__":
    main()
