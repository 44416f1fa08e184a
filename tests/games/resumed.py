"""A match played on from its saved JSON at every step must be the match played straight.

Tables resume matches from the journal, so every rule has to read a restored state exactly
as the live one: phases and names read back from JSON are fresh strings (an identity check
against a literal fails only there), and any field the save forgets shows up a few steps on.
Used by the per-game mutant tests (tests/games/test_<game>_mutants.py).
"""

from __future__ import annotations

from mcbridge.core import CHANCE, Rng
from mcbridge.core.game import Action, Policy, State
from tests.games.game_hooks import copy_of


def next_move(state: State, policy: Policy, rng: Rng) -> tuple[int, Action]:
    """Who acts next and what: chance samples its move, a player's `policy` chooses."""
    seat = min(state.to_act())
    if seat == CHANCE:
        return seat, state.sample_chance(rng)
    return seat, policy.choose(state.view(seat), state.legal_actions(seat), rng)


def play(state: State, policy: Policy, rng: Rng, *, resume: bool) -> tuple[list[tuple[int, Action]], State]:
    """`core.play_out` on a copy, optionally restoring the match from its JSON before every
    step; returns the log and the final state."""
    log: list[tuple[int, Action]] = []
    state = copy_of(state)
    while not state.is_over:
        assert len(log) < 5000, "match did not end"
        if resume:
            state = copy_of(state)
        seat, action = next_move(state, policy, rng)
        state.apply(seat, action)
        log.append((seat, action))
    return log, state


def check_resumed_equals_straight(state: State, policy: Policy, seed: int) -> None:
    log, final = play(state, policy, Rng(seed), resume=False)
    resumed_log, resumed_final = play(state, policy, Rng(seed), resume=True)
    assert resumed_log == log
    assert resumed_final.to_json() == final.to_json()
    assert resumed_final.result().to_json() == final.result().to_json()
