"""The rules-core contract, checked the same way for every game (DESIGN.md §3).

Whatever a table sends (a well-formed action at the wrong time, junk fields, a seat that is
not to act), the answer is an IllegalAction with a stable code and an unchanged match.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Game, IllegalAction, Rng, State

#: Words the games know (colours, cards, ranks, faces) mixed with nonsense.
WORDS = ["red", "black", "white", "blue", "A", "D", "Ac", "coppe", "star", "solo", "fake", "", "x"]
junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=6),
    max_leaves=8,
)


def match(game: Game, seed: int, steps: int) -> State:
    """A match after up to `steps` random legal actions."""
    lo, hi = game.player_range
    state = game.new_match([f"p{i}" for i in range(max(lo, min(4, hi)))], seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = min(state.to_act())
        state.apply(seat, state.sample_chance(rng) if seat == CHANCE else rng.pick(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("name", games.available())
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 120), data=st.data())
def test_malformed_actions_are_refused_cleanly(name: str, seed: int, steps: int, data: st.DataObject) -> None:
    """Any action type with junk in its fields: refused with the state unchanged (or legal)."""
    game = games.load(name)
    state = match(game, seed, steps)
    if state.is_over:
        return
    cls = data.draw(st.sampled_from(game.action_types))
    fields = {f.name: data.draw(junk) for f in dataclasses.fields(cls)}
    before = state.to_json()
    try:
        state.apply(min(state.to_act()), game.action_from_json({"type": cls.__name__, **fields}))
    except IllegalAction:
        assert state.to_json() == before


@pytest.mark.parametrize("name", games.available())
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 120))
def test_a_seat_that_is_not_to_act_is_refused_and_has_nothing_legal(name: str, seed: int, steps: int) -> None:
    game = games.load(name)
    state = match(game, seed, steps)
    if state.is_over:
        with pytest.raises(IllegalAction) as over:
            state.apply(0, game.action_types[-1].__new__(game.action_types[-1]))
        assert over.value.code == "match_over"
        return
    waiting = state.to_act()
    idle = [s for s in range(len(state.view(None)["players"])) if s not in waiting]
    for seat in idle:
        assert state.legal_actions(seat) == []
        some_action = next(iter(state.legal_actions(min(waiting))), None)
        if some_action is None:
            continue
        before = state.to_json()
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, some_action)
        assert refused.value.code == "not_your_turn"
        assert state.to_json() == before
