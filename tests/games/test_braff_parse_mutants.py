"""Braff chat discards: a count names up to ten cards of a colour; a larger count is refused
as a malformed discard before it can build a long list (a player may type any number).

Written for a survivor of the mutation sample (bench/mutation.py braff.parse): the cap read
as `count > 11`, which let "discard red 11" through.
"""

from __future__ import annotations

import pytest

from mcbridge import games
from mcbridge.core import CHANCE, IllegalAction, Rng, State
from mcbridge.games.braff import Discard, FirstDealer


def discarding() -> State:
    state = games.load("braff").new_match(["ann", "bob", "cy"], seed=5)
    state.apply(CHANCE, FirstDealer(0))
    state.apply(CHANCE, state.sample_chance(Rng(5)))
    assert state.phase == "discard"
    return state


@pytest.mark.parametrize("count", [10, 3])
def test_a_count_up_to_ten_names_that_many_cards(count: int) -> None:
    state = discarding()
    assert state.game.parse_action(0, f"discard red {count}", state) == Discard(("red",) * count)


@pytest.mark.parametrize("text", ["discard red 11", "捨て 黒 12枚", "discard white 1 red 99999999"])
def test_a_count_above_ten_is_a_malformed_discard(text: str) -> None:
    state = discarding()
    with pytest.raises(IllegalAction) as refused:
        state.game.parse_action(0, text, state)
    assert (refused.value.code, refused.value.details) == (
        "bad_discard_syntax",
        {"text": text, "example": "discard red black"},
    )
