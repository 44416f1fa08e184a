"""Dice Bluff against OpenSpiel's liars_dice: random full games per second, side by side.

Both engines play the same game (rules/dice_bluff.md, golden case): 2 players, 1 die each,
the 6 wild, the loser pays one die, an exact bid costs the challenger, no set-aside. Each
game: roll both dice, then uniform random legal actions until the challenge. OpenSpiel is
optional (`pip install open_spiel`); without it only our numbers are printed.

    .venv/bin/python bench/dice_bluff_openspiel.py [seconds per run, default 2; best of 3 runs per row]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from mcbridge.core import CHANCE, Rng
from mcbridge.games import load

OPENSPIEL_SETTINGS = {
    "ruleset": "bluff",
    "dice_per_player": 1,
    "wild_face": 6,
    "exact": "challenger_only",
    "penalty": "one",
    "set_aside": False,
}


def ours(options: dict[str, object], players: int) -> Callable[[int], None]:
    game = load("dice_bluff", options)
    names = [f"p{i}" for i in range(players)]

    def one_game(seed: int) -> None:
        state = game.new_match(names, seed)
        rng = Rng(seed)
        while not state.is_over:
            seat = min(state.to_act())
            if seat == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                # uniform over the concrete actions (a long ladder comes as ranges), as OpenSpiel's
                # list of every bid is sampled below
                state.apply(seat, rng.pick(state.legal_actions(seat)))

    return one_game


def openspiel() -> Callable[[int], None] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice", {"players": 2, "numdice": 1, "dice_sides": 6})

    def one_game(seed: int) -> None:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])

    return one_game


def games_per_second(one_game: Callable[[int], None], seconds: float) -> float:
    """Games per CPU second of this process (other load on a shared machine skews less)."""
    played = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for _ in range(50):
            one_game(played)
            played += 1
    return played / elapsed


def main(seconds: float = 2.0, rounds: int = 3) -> None:
    """Each row is the best of `rounds` runs, the rows taking turns, so a burst of load on
    the machine cannot favour one engine."""
    engines: list[tuple[str, Callable[[int], None]]] = [
        ("mcbridge dice_bluff, OpenSpiel settings", ours(OPENSPIEL_SETTINGS, 2)),
    ]
    spiel = openspiel()
    if spiel is not None:
        engines.append(("OpenSpiel liars_dice (C++ via pyspiel)", spiel))
    engines.append(("mcbridge dice_bluff, Bluff defaults, 4 players", ours({}, 4)))
    best = dict.fromkeys((label for label, _ in engines), 0.0)
    for _ in range(rounds):
        for label, one_game in engines:
            best[label] = max(best[label], games_per_second(one_game, seconds))
    rows = list(best.items())

    print(f"{'random full games':<48} {'games/s':>10}")
    for label, rate in rows:
        print(f"{label:<48} {rate:>10.0f}")
    if spiel is None:
        print("open_spiel is not installed: no OpenSpiel comparison (pip install open_spiel).")
    else:
        print(f"ratio OpenSpiel / mcbridge (same settings): {rows[1][1] / rows[0][1]:.1f}x")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
