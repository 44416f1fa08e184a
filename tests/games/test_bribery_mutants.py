"""bribery cases written to kill mutants bench/mutation.py found surviving in the rules."""

from __future__ import annotations

import pytest

from mcbridge.core import IllegalAction
from mcbridge.games import load
from mcbridge.games.bribery import Call, Raise
from tests.games.contract import policy
from tests.games.resumed import check_resumed_equals_straight
from tests.games.test_bribery_rules import HANDS3, setup


@pytest.mark.parametrize("kind", ["bot", "random"])
def test_a_match_resumed_at_every_step_is_the_match_played_straight(kind: str) -> None:
    game = load("bribery")
    state = game.new_match(["ann", "bob", "cy"], seed=11)
    check_resumed_equals_straight(state, policy(game, kind), seed=5)


def test_a_refused_bet_says_how_many_cards_the_seat_needs_beyond_its_own() -> None:
    """rules/bribery.md: a raise must bring the seat's count above the highest, a call must
    match it exactly; the refusal's `need` (what the locale tells the player) counts the cards
    still to play on top of those the seat has already played."""
    state = setup(HANDS3)
    state.apply(0, Raise((500, 400)))  # seat 0 has 2 down
    state.apply(1, Raise((500, 400, 300)))  # highest 3
    state.apply(2, Call((100, 200, 300)))
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Raise((300,)))  # 2 + 1 = 3: not above 3
    assert (err.value.code, err.value.details) == ("raise_too_small", {"count": 3, "highest": 3, "need": 2})
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Call((300, 200)))  # 2 + 2 = 4: a call must make exactly 3
    assert (err.value.code, err.value.details) == ("call_wrong_count", {"count": 2, "need": 1})
    state.apply(0, Call((300,)))
