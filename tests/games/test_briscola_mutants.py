"""Briscola bugiarda cases written to kill mutants bench/mutation.py found surviving in the rules."""

from __future__ import annotations

import json

import pytest

from mcbridge.core import Rng, play_out
from mcbridge.core.policies import RandomPolicy
from mcbridge.games import load
from mcbridge.games.briscola_bugiarda import BriscolaState
from tests.games.contract import policy
from tests.games.resumed import check_resumed_equals_straight


@pytest.mark.parametrize("kind", ["bot", "random"])
def test_a_match_resumed_at_every_step_is_the_match_played_straight(kind: str) -> None:
    game = load("briscola_bugiarda")
    state = game.new_match(["ann", "bob", "cy", "dee", "eve"], seed=11)
    check_resumed_equals_straight(state, policy(game, kind), seed=5)


@pytest.mark.parametrize("laps", [1, 60])
def test_the_match_ends_after_its_last_deal_however_many_laps(laps: int) -> None:
    """rules/briscola_bugiarda.md: every player deals once per lap. With 60 laps (300 deals,
    past CPython's cache of small ints, where `is` and `==` part ways) the match, restored at
    the start of its last deal, ends when that deal does."""
    game = load("briscola_bugiarda", {"laps": laps})
    state = game.new_match(["ann", "bob", "cy", "dee", "eve"], seed=3)
    assert isinstance(state, BriscolaState)
    while state.deal == 0:
        state.apply(min(state.to_act()), state.sample_chance(Rng(1)))
    data = json.loads(state.to_json())
    data["state"]["deal"] = 5 * laps
    last = game.from_json(json.dumps(data))
    assert isinstance(last, BriscolaState)
    log = play_out(last, RandomPolicy(), Rng(2), max_actions=500)
    assert last.is_over and last.deal == 5 * laps
    assert len(log) < 500
