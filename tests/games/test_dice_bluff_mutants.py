"""Dice Bluff cases written to kill mutants bench/mutation.py found surviving in the rules.

A restored match must behave like the one it was saved from: phases read back from JSON are
new string objects, so a rule that compares them by identity breaks only after a resume.
"""

from __future__ import annotations

from mcbridge.core import CHANCE, Rng
from mcbridge.games.dice_bluff import Bid, DiceBluffState, Reroll, SetAside
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
