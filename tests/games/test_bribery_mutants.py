"""bribery cases written to kill mutants bench/mutation.py found surviving in the rules."""

from __future__ import annotations

import pytest

from mcbridge.games import load
from tests.games.contract import policy
from tests.games.resumed import check_resumed_equals_straight


@pytest.mark.parametrize("kind", ["bot", "random"])
def test_a_match_resumed_at_every_step_is_the_match_played_straight(kind: str) -> None:
    game = load("bribery")
    state = game.new_match(["ann", "bob", "cy"], seed=11)
    check_resumed_equals_straight(state, policy(game, kind), seed=5)
