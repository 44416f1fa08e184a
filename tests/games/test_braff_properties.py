"""Braff properties beyond the every-game contract suite (test_every_game_contract.py already
checks, at every step of default matches, chip conservation, twins that swap two seats'
characters and cards, the bot deciding from its own view, round trips and replay): the same
checks with the second end pattern, how a match ends, and events that never carry hidden
cards before the show."""

from __future__ import annotations

import json

from contract import POLICY_KINDS, match_at, play_checked, walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Rng
from mcbridge.games.braff import BraffState

GAME = games.load("braff")
GAME_PATTERN_TWO = games.load("braff", {"end_pattern": 2, "max_laps": 3})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 5), kind=st.sampled_from(POLICY_KINDS))
def test_the_second_end_pattern_keeps_the_contract(seed: int, players: int, kind: str) -> None:
    play_checked(GAME_PATTERN_TWO, players, seed, kind)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 5),
    kind=st.sampled_from(POLICY_KINDS),
    pattern_two=st.booleans(),
)
def test_a_match_ends_at_the_round_limit_or_when_a_stack_is_empty(
    seed: int, players: int, kind: str, pattern_two: bool
) -> None:
    game = GAME_PATTERN_TWO if pattern_two else GAME
    state = match_at(game, seed, 1.0, players, kind)
    assert isinstance(state, BraffState) and state.is_over
    result = state.result()
    assert [row["chips"] for row in result["standings"]] == sorted(state.chips.stacks, reverse=True)
    assert state.round <= state.rounds_limit and (min(state.chips.stacks) == 0 or state.round == state.rounds_limit)


def twin(state: BraffState, observer: int, rng: Rng) -> BraffState | None:
    """The match with two seats other than `observer` swapping their hidden deal."""
    dealt = [s for s in range(len(state.players)) if state.characters[s] is not None and s != observer]
    if len(dealt) < 2:
        return None
    a, b = rng.sample(dealt, 2)
    data = json.loads(state.to_json())["state"]
    for key in ("characters", "hands"):
        data[key][a], data[key][b] = data[key][b], data[key][a]
    rng.shuffle(data["pile"])
    return BraffState.restore(state.game, data)


def test_events_never_carry_hidden_cards_before_the_show() -> None:
    """Apply the same public action to a match and its twin: the events must be equal (only
    the show, which reveals by rule, may differ)."""
    checked = 0
    for seed in range(6):
        rng = Rng(seed)
        for state in walk(GAME, 4, seed, "type_first"):
            assert isinstance(state, BraffState)
            if state.phase not in ("open", "bet"):
                continue
            (actor,) = state.to_act() - {CHANCE}
            other = twin(state, actor, rng)
            if other is None:
                continue
            mine = state.timeout_action(actor)
            copy = BraffState.restore(state.game, json.loads(state.to_json())["state"])
            assert copy.apply(actor, mine) == other.apply(actor, mine)
            checked += 1
    assert checked > 0
