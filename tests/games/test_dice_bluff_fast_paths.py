"""Dice Bluff's speed-ups agree with the slow way: shared events equal fresh ones, a raise's
ladder memo equals a fresh search, and a Roll the rules did not draw is still checked."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import CHANCE, IllegalAction, Rng
from mcbridge.games import load
from mcbridge.games.dice_bluff import Roll
from mcbridge.games.dice_bluff.rules import DiceBluffState

OPENSPIEL = {"dice_per_player": 1, "wild_face": 6, "exact": "challenger_only", "penalty": "one", "set_aside": False}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), options=st.sampled_from([{}, {"ruleset": "perudo"}, OPENSPIEL]))
def test_memo_and_shared_events_match_a_fresh_computation(seed: int, options: dict[str, object]) -> None:
    game = load("dice_bluff", options)
    state = game.new_match(["a", "b", "c"], seed)
    assert isinstance(state, DiceBluffState)
    rng = Rng(seed)
    while not state.is_over:
        seat = min(state.to_act())
        action = state.sample_chance(rng) if seat == CHANCE else rng.pick(state.legal_actions(seat))
        for event in state.apply(seat, action):
            fresh = type(event)(**{f: getattr(event, f) for f in event.__dataclass_fields__})
            assert event == fresh and event.to_json() == fresh.to_json()
        if state.phase == "bid":
            kept = state._ladder()
            state._rungs = None  # the memo cleared: a fresh search
            assert state._ladder() == kept


@pytest.mark.parametrize("dice", [(7,), (True,), (0,), (1, 2)])
def test_a_roll_not_drawn_by_the_rules_is_still_checked(dice: tuple[int, ...]) -> None:
    game = load("dice_bluff", OPENSPIEL)
    state = game.new_match(["a", "b"], 1)
    rng = Rng(1)
    state.apply(CHANCE, state.sample_chance(rng))
    drawn = state.sample_chance(rng)
    assert isinstance(drawn, Roll)
    before = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        state.apply(CHANCE, Roll(drawn.seat, dice))
    assert refused.value.code in {"bad_face", "wrong_dice_count"}
    assert state.to_json() == before
    state.apply(CHANCE, drawn)  # the drawn one is accepted
