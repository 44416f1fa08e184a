"""Bribery: "raise" or "call" typed without cards is answered with how many cards to name,
counted from what this seat already has down (rules/bribery.md: a raise must bring the seat's
count above the highest, a call must match it).

Written for survivors of the mutation sample (bench/mutation.py bribery.parse): nine changes
to that count (a sign, the raise's extra card, bit operators for + and -) that no test read.
"""

from __future__ import annotations

import pytest

from mcbridge.core import IllegalAction
from mcbridge.games.bribery import BriberyState, Call, Raise
from mcbridge.i18n import locale
from tests.games.test_bribery_rules import HANDS3, setup


def asked(state: BriberyState, seat: int, text: str) -> tuple[int, str]:
    """The refusal's count, and the line the player reads."""
    with pytest.raises(IllegalAction) as refused:
        state.game.parse_action(seat, text, state)
    assert refused.value.code == "name_cards"
    return refused.value.details["need"], locale("en").refusal("bribery", refused.value, state.players)


def test_the_first_bet_of_a_round_asks_for_one_card() -> None:
    state = setup(HANDS3)
    assert asked(state, 0, "raise") == (1, "Name the card(s) to play (at least 1), e.g. !raise 300 informant")


def test_with_two_down_against_three_a_raise_asks_for_two_and_a_call_for_one() -> None:
    state = setup(HANDS3)
    state.apply(0, Raise((500, 400)))  # seat 0 has 2 down
    state.apply(1, Raise((500, 400, 300)))  # the highest is 3
    state.apply(2, Call((100, 200, 300)))
    assert asked(state, 0, "raise") == (2, "Name the card(s) to play (at least 2), e.g. !raise 300 informant")
    assert asked(state, 0, "コール")[0] == 1
    assert state.game.parse_action(0, "raise 300 200", state) == Raise((200, 300))  # what it asked for
