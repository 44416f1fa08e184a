"""Bribery's and Briscola bugiarda's views are built partly from caches (the part of the view
that only some actions change, finished tricks, who played the called card, VP sums). A
restored match starts with every cache empty, so at every step of random bot matches, for
every observer, its view must equal the live match's view exactly: the same keys in the same
order, the same values of the same types (a tuple where a tuple was, a list where a list
was). A cache that a transition forgot to drop shows up here as a stale key. (Mappings saved
inside the match, like the last showdown, come back from JSON with their keys sorted, so
only the view's own keys are held to their order.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Rng, State
from mcbridge.games.bribery import BriberyState

#: game -> the player counts to play
CASTS = {"bribery": (3, 4, 5), "briscola_bugiarda": (5,)}


def cold(state: State) -> State:
    """The same match, restored: every cache empty."""
    return type(state).restore(state.game, json.loads(state.to_json())["state"])


def typed(value: Any) -> Any:
    """The value with its container types spelled out, so a list never equals a tuple."""
    if hasattr(value, "items"):
        return (type(value).__name__, sorted((k, typed(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, [typed(v) for v in value])
    return value


@pytest.mark.parametrize("name", CASTS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 100_000), data=st.data())
def test_every_view_of_the_live_match_equals_the_view_of_its_cold_copy(name: str, seed: int, data: Any) -> None:
    game = games.load(name)
    players = data.draw(st.sampled_from(CASTS[name]))
    state = game.new_match([f"p{i}" for i in range(players)], seed)
    rng, bot = Rng(seed), game.bot()
    while not state.is_over:
        copy = cold(state)
        for observer in (None, *range(players)):
            view, fresh = state.view(observer), copy.view(observer)
            assert list(view) == list(fresh) and typed(view) == typed(fresh), (state.seq, observer)
        assert state.scores() == copy.scores()
        seat = min(state.to_act())
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = bot.choose(state.view(seat), state.legal_actions(seat), rng)
        state.apply(seat, action)
    assert typed(state.view(None)) == typed(cold(state).view(None))


def test_bribery_vp_follow_cards_added_to_or_taken_from_owned_after_a_view() -> None:
    state = games.load("bribery").new_match(["a", "b", "c"], seed=3)
    assert isinstance(state, BriberyState)
    card = next(iter(state.game.influencers))
    state.view(None)
    state.owned[1].append(card)
    assert state.scores()[1] == state.game.vp_of[card]
    state.owned = [[], [], [card, card]]
    assert state.scores() == [0, 0, 2 * state.game.vp_of[card]]
