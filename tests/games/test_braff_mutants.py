"""braff cases written to kill mutants bench/mutation.py found surviving in the rules."""

from __future__ import annotations

from typing import Any

import pytest

from mcbridge.core import IllegalAction
from mcbridge.games import load
from mcbridge.games.braff import Raise
from tests.games.contract import policy
from tests.games.resumed import check_resumed_equals_straight
from tests.games.test_braff_rules import FIVE_RED, PLAIN, keep_all, new_game, start


@pytest.mark.parametrize("kind", ["bot", "random"])
def test_a_match_resumed_at_every_step_is_the_match_played_straight(kind: str) -> None:
    game = load("braff")
    state = game.new_match(["ann", "bob", "cy"], seed=11)
    check_resumed_equals_straight(state, policy(game, kind), seed=5)


@pytest.mark.parametrize("stake", [5.0, 4.5, "5", True, None])
def test_a_stake_that_is_not_a_whole_number_of_chips_is_refused(stake: Any) -> None:
    """A modified client can send any JSON: 5.0 chips meet the D cup's minimum of 4 by value
    but are not chips, and must be refused like a low stake, changing nothing."""
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    keep_all(state)
    before = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, Raise("D", stake))
    assert refused.value.code == "stake_too_low" and refused.value.details["min"] == 4
    assert state.to_json() == before
