"""Dice Bluff cases written to kill mutants bench/mutation.py found surviving in the rules.

A restored match must behave like the one it was saved from: phases read back from JSON are
new string objects, so a rule that compares them by identity breaks only after a resume.
"""

from __future__ import annotations

import pytest

from mcbridge.core import CHANCE, IllegalAction, Rng
from mcbridge.core.legal import expand
from mcbridge.games import load
from mcbridge.games.dice_bluff import Bid, Challenge, DiceBluffState, Reroll, SetAside
from tests.games.contract import policy
from tests.games.resumed import check_resumed_equals_straight
from tests.games.test_dice_bluff_rules import start


def restored(state: DiceBluffState) -> DiceBluffState:
    # json round trip: every string in the copy is a fresh object, never an interned literal
    copy = state.game.from_json(state.to_json().encode())
    assert isinstance(copy, DiceBluffState)
    return copy


def test_a_match_restored_while_a_seat_rerolls_draws_the_reroll() -> None:
    state = start({}, [[3, 3, 1, 2, 4], [5, 5, 5, 2, 1], [2, 2, 2, 2, 2]])
    state.apply(0, Bid(3, 3))
    state.apply(1, SetAside((5, 5)))
    copy = restored(state)
    assert copy.to_act() == {CHANCE}
    draw = copy.sample_chance(Rng(4))
    assert draw == state.sample_chance(Rng(4))
    assert isinstance(draw, Reroll) and draw.seat == 1 and len(draw.dice) == 3
    copy.apply(CHANCE, draw)
    assert copy.to_act() == {1} and copy.hidden[1] == sorted(draw.dice)


@pytest.mark.parametrize("options", [{}, {"ruleset": "perudo"}], ids=["bluff", "perudo"])
@pytest.mark.parametrize("kind", ["bot", "random"])
def test_a_match_resumed_at_every_step_is_the_match_played_straight(options: dict[str, str], kind: str) -> None:
    game = load("dice_bluff", options)
    state = game.new_match(["ann", "bob", "cy"], seed=11)
    check_resumed_equals_straight(state, policy(game, kind), seed=5)


def test_above_the_top_of_a_long_ladder_a_bid_is_refused_as_no_raise_possible() -> None:
    """Eight players with ten dice: a ladder of more than 256 bids (ints past CPython's small
    int cache, where `is` and `==` part ways), and after its top bid nothing is left."""
    state = start({"max_players": 8, "dice_per_player": 10}, [[2] * 10] * 8)
    top = [a for a in expand(state.legal_actions(0)) if isinstance(a, Bid)][-1]
    assert top.count == 80
    state.apply(0, top)
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, Bid(1, 2))
    assert refused.value.code == "no_raise_possible"
    assert state.legal_actions(1) == [Challenge()]
