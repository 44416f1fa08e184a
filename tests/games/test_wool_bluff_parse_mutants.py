"""Wool Bluff chat discards where a colour without a count (one wool) comes before another
colour: the count belongs to the colour right before it, wherever that colour stands.

Written for survivors of the mutation sample (bench/mutation.py wool_bluff.parse): the
look-ahead for a colour's count read one word off on odd positions, which crashed on
"discard red blue" and gave blue's count to red in "discard red blue 2".
"""

from __future__ import annotations

import pytest
from test_wool_bluff_helpers import GAME, discard
from test_wool_bluff_input import bidding

from mcbridge.core import IllegalAction
from mcbridge.games.wool_bluff import Discard


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("discard red blue", discard(red=1, blue=1)),
        ("discard red blue 2", discard(red=1, blue=2)),
        ("捨て 赤 青 黒", discard(red=1, blue=1, black=1)),
        ("discard red green 3 blue", discard(red=1, green=3, blue=1)),
        ("discard red 2 green blue 4 white", discard(red=2, green=1, blue=4, white=1)),
    ],
)
def test_a_colour_without_a_count_is_one_wool_wherever_it_stands(text: str, action: Discard) -> None:
    assert GAME.parse_action(1, text, bidding()) == action


def test_a_count_with_no_colour_after_a_bare_colour_is_refused() -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.parse_action(1, "discard red blue 2 3", bidding())
    assert refused.value.code == "bad_discard_syntax"
