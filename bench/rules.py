"""Rules-engine speed: full bot matches per second for every game, side by side.

For each game it plays full 4-player bot matches (5 for Briscola) and reports:
* **engine**: the loop a table runs (view, legal actions, the bot's choice, apply) on one
  mutable state, as actions and matches per second;
* **deep-copy baseline**: the same loop, but the state is deep-copied before every action,
  as an immutable-state design (or a naive undo stack) would do;
* **replay**: the recorded journal applied again without bots or views (the rules alone).
Ratios between rows measured in the same run are the point (machines are noisy; ratios travel).

`--against DIR` compares with another checkout instead (e.g. the commit before a speed-up:
`git worktree add /tmp/before a2c723d`): for each game both trees run the same loop with the
same seeds in alternating subprocesses, best of `--rounds`, and the table shows actions/s
before, after and after/before, for the engine loop and for the replay.

`--profile` runs 40 matches of each game's engine loop and replay under cProfile instead and
prints the share of own time in mcbridge/core and the entries with the most own time, to see
what a speed-up should go after (profiled times are inflated: compare entries, not totals).

Run: .venv/bin/python bench/rules.py [--seconds 2] [--games wool_bluff,...] [--against DIR | --profile]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A worker measures whichever checkout MCBRIDGE_ROOT names (this one by default).
sys.path.insert(0, os.environ.get("MCBRIDGE_ROOT", str(ROOT)))

from mcbridge import games  # noqa: E402
from mcbridge.core import CHANCE, Action, Game, Rng  # noqa: E402

Log = list[tuple[int, Action]]
#: The replay row cycles through the matches of seeds 0..REPLAYED-1, so two runs (or two
#: checkouts) replay exactly the same actions whatever their engine speed.
REPLAYED = 20


def play(game: Game, seed: int, players: int, deep_copy: bool) -> Log:
    names = [f"p{i}" for i in range(players)]
    state = game.new_match(names, seed)
    rng = Rng(seed)
    bot = game.bot()
    log: Log = []
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


def replay(game: Game, seed: int, players: int, log: Log) -> None:
    state = game.new_match([f"p{i}" for i in range(players)], seed)
    for seat, action in log:
        state.apply(seat, action)


def measure(fn: Callable[[int], int], budget: float) -> tuple[int, int, float]:
    """Run fn(seed) -> actions until the time budget is spent; (matches, actions, seconds).

    Seconds are this process's CPU time, so other work on a shared machine skews less."""
    matches = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < budget or matches == 0:
        actions += fn(matches)
        matches += 1
    return matches, actions, elapsed


def bench_game(name: str, players: int, budget: float, baseline: bool = True) -> dict[str, float]:
    game = games.load(name)
    lo, hi = game.player_range
    players = max(lo, min(players, hi))
    logs: dict[int, Log] = {}

    def engine(seed: int) -> int:
        logs[seed] = play(game, seed, players, deep_copy=False)
        return len(logs[seed])

    def copying(seed: int) -> int:
        return len(play(game, seed, players, deep_copy=True))

    def rules_only(seed: int) -> int:
        log = logs[seed % REPLAYED]
        replay(game, seed % REPLAYED, players, log)
        return len(log)

    e = measure(engine, budget)
    for seed in range(REPLAYED):  # the same matches for every tree and budget
        if seed not in logs:
            logs[seed] = play(game, seed, players, deep_copy=False)
    r = measure(rules_only, budget)
    row = {
        "players": players,
        "matches_s": e[0] / e[2],
        "actions_s": e[1] / e[2],
        "replay_actions_s": r[1] / r[2],
        "actions_per_match": e[1] / e[0],
    }
    if baseline:
        b = measure(copying, budget)
        row["baseline_matches_s"] = b[0] / b[2]
        row["ratio"] = row["matches_s"] / row["baseline_matches_s"]
    return row


def run_worker(root: Path, name: str, players: int, budget: float) -> dict[str, float]:
    """One measurement of `name` in a fresh interpreter that imports the checkout at `root`."""
    env = {**os.environ, "MCBRIDGE_ROOT": str(root)}
    command = [sys.executable, __file__, "--worker", name, "--players", str(players), "--seconds", str(budget)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True, timeout=600)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def compare(before: Path, names: list[str], players: int, budget: float, rounds: int) -> None:
    print(f"before: {before}\nafter:  {ROOT}\n(best of {rounds} alternating runs of {budget:g} s each)")
    print(
        f"{'game':<18} {'engine act/s before':>19} {'after':>9} {'ratio':>7}   "
        f"{'replay act/s before':>19} {'after':>9} {'ratio':>7}"
    )
    for name in names:
        best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
        for _ in range(rounds):
            for label, root in (("before", before), ("after", ROOT)):
                row = run_worker(root, name, players, budget)
                for key in ("actions_s", "replay_actions_s"):
                    best[label][key] = max(best[label].get(key, 0.0), row[key])
        b, a = best["before"], best["after"]
        print(
            f"{name:<18} {b['actions_s']:>19.0f} {a['actions_s']:>9.0f} {a['actions_s'] / b['actions_s']:>6.1f}x   "
            f"{b['replay_actions_s']:>19.0f} {a['replay_actions_s']:>9.0f} "
            f"{a['replay_actions_s'] / b['replay_actions_s']:>6.1f}x"
        )


def profile(name: str, players: int, matches: int = 40, top: int = 14) -> None:
    """The engine loop, then the replay, of `name` under cProfile (a fixed number of matches,
    so no clock is read inside); the entries with the most own time."""
    import cProfile
    import pstats

    game = games.load(name)
    lo, hi = game.player_range
    players = max(lo, min(players, hi))
    logs = {seed: play(game, seed, players, deep_copy=False) for seed in range(REPLAYED)}

    def engine() -> int:
        return sum(len(play(game, seed, players, deep_copy=False)) for seed in range(matches))

    def rules_only() -> int:
        for seed in range(matches):
            replay(game, seed % REPLAYED, players, logs[seed % REPLAYED])
        return sum(len(logs[seed % REPLAYED]) for seed in range(matches))

    for label, loop in (("engine", engine), ("replay", rules_only)):
        profiler = cProfile.Profile()
        actions = profiler.runcall(loop)
        stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]  # the raw table
        total = sum(row[2] for row in stats.values()) or 1.0
        core = sum(row[2] for (path, _, _), row in stats.items() if "/mcbridge/core/" in path)
        print(f"{name} {label}: {matches} matches, {actions} actions; own time in mcbridge/core {core / total:.0%}")
        for (path, line, func), (_, calls, own, _, _) in sorted(stats.items(), key=lambda item: -item[1][2])[:top]:
            where = f"{Path(path).resolve().relative_to(ROOT)}:{line} " if path.startswith(str(ROOT)) else ""
            print(f"  {own / total:6.1%} {calls / actions:6.2f}/action  {where}{func}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per measurement")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", default=",".join(games.available()))
    parser.add_argument("--against", type=Path, help="another checkout to compare with (before/after)")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: alternating runs per game")
    parser.add_argument("--profile", action="store_true", help="cProfile each game's loops instead of timing")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(bench_game(args.worker, args.players, args.seconds, baseline=False)))
        return
    names = args.games.split(",")
    if args.profile:
        for name in names:
            profile(name, args.players)
        return
    if args.against:
        compare(args.against.resolve(), names, args.players, args.seconds, args.rounds)
        return
    print(
        f"{'game':<18} {'pl':>2} {'matches/s':>10} {'actions/s':>10} {'act/match':>9} "
        f"{'deep-copy m/s':>13} {'engine/copy':>11} {'replay act/s':>12}"
    )
    for name in names:
        row = bench_game(name, args.players, args.seconds)
        print(
            f"{name:<18} {row['players']:>2} {row['matches_s']:>10.1f} {row['actions_s']:>10.0f} "
            f"{row['actions_per_match']:>9.0f} {row['baseline_matches_s']:>13.1f} {row['ratio']:>10.1f}x "
            f"{row['replay_actions_s']:>12.0f}"
        )


if __name__ == "__main__":
    main()
