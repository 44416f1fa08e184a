"""Bribery's and Briscola bugiarda's views: fast to build, yet still the state's own business.

Their views share frozen parts between calls (option tables, finished tricks, the last deal
or showdown) and the core builds the header as JSON directly. These tests hold them to the contract
that made plain copies safe: a consumer that vandalises a view changes neither the state nor
the next view, the header equals `header().to_json()`, and a restored match (whose caches
start empty) shows the same views.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Rng, State

GAMES = {"bribery": 4, "briscola_bugiarda": 5}


def as_json(view: Any) -> str:
    """The view as the wire would carry it (tuples as lists, read-only mappings as objects)."""

    def plain(value: Any) -> Any:
        if hasattr(value, "items"):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value

    return json.dumps(plain(view), sort_keys=True)


def vandalise(value: Any) -> int:
    """Try to change every container reachable from `value`; how many changes were accepted
    (each accepted one must be on the view's own fresh copy, never on shared state)."""
    accepted = 0
    if isinstance(value, list):
        for item in value:
            accepted += vandalise(item)
        value.append("vandal")
        accepted += 1
    elif isinstance(value, dict):
        for item in list(value.values()):
            accepted += vandalise(item)
        value["vandal"] = 1
        accepted += 1
    elif hasattr(value, "items"):  # a read-only mapping: refuses, its contents are still tried
        for item in value.values():
            accepted += vandalise(item)
        with pytest.raises(TypeError):
            value["vandal"] = 1
    elif isinstance(value, tuple):
        for item in value:
            accepted += vandalise(item)
    return accepted


def steps(name: str, seed: int) -> Iterator[tuple[State, int]]:
    """(state, seat to act) at every player decision of one bot match, the match moving on."""
    game = games.load(name)
    state = game.new_match([f"p{i}" for i in range(GAMES[name])], seed)
    rng, bot = Rng(seed), game.bot()
    while not state.is_over:
        seat = min(state.to_act())
        if seat == CHANCE:
            state.apply(seat, state.sample_chance(rng))
            continue
        yield state, seat
        state.apply(seat, bot.choose(state.view(seat), state.legal_actions(seat), rng))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_vandalising_a_view_changes_neither_the_state_nor_the_next_view(name: str, seed: int) -> None:
    for k, (state, seat) in enumerate(steps(name, seed)):
        if k % 7:  # every seventh decision keeps the test quick; all phases still come up
            continue
        for observer in (seat, None):
            before, dump = as_json(state.view(observer)), state.to_json()
            assert vandalise(state.view(observer)) > 0
            assert as_json(state.view(observer)) == before
            assert state.to_json() == dump


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_header_is_the_core_header_and_a_restored_match_shows_the_same_views(name: str, seed: int) -> None:
    game = games.load(name)
    for state, seat in steps(name, seed):
        view = state.view(seat)
        assert view["header"] == state.header().to_json()
        restored = game.from_json(state.to_json())
        assert as_json(restored.view(seat)) == as_json(view)
        assert as_json(restored.view(None)) == as_json(state.view(None))
