"""Dice Bluff chat bids with one word too many: a word the bid does not know, or two star
words, are refused with the bid's example, never read as the bid without them.

Written for a survivor of the mutation sample (bench/mutation.py dice_bluff.parse): `unknown
or len(wilds) > 1 or ...` read as `unknown and len(wilds) > 1 or ...`, which accepted
"bid 9 3 banana" as nine 3s and "bid 5 star star" as five stars.
"""

from __future__ import annotations

import pytest
from test_dice_bluff_text import bidding_state

from mcbridge.core import IllegalAction
from mcbridge.games.dice_bluff import Bid


@pytest.mark.parametrize("text", ["bid 9 3 banana", "9 3 dance", "3が9個 hello", "bid 5 star star", "bid 5 ★★"])
def test_a_bid_with_a_word_too_many_is_refused_with_the_example(text: str) -> None:
    state = bidding_state()
    with pytest.raises(IllegalAction) as refused:
        state.game.parse_action(0, text, state)
    assert refused.value.code == "bad_bid_syntax"
    assert refused.value.details == {"text": text, "example": "bid 9 3 / bid 5 stars / 3が9個"}


def test_the_same_bids_without_the_extra_word_are_read() -> None:
    state = bidding_state()
    assert state.game.parse_action(0, "bid 9 3", state) == Bid(9, 3)
    assert state.game.parse_action(0, "bid 5 ★", state) == Bid(5, 6)
