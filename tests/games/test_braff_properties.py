"""Braff properties over random matches (hypothesis): termination, chip conservation,
replay and JSON round trips, legal timeouts, and no hidden information in any view.

"No hidden information" is proved by twins: a copy of the match in which two other
seats have swapped characters and cards (and the draw pile is reordered) must look
exactly the same to the observer, so nothing in the observer's view depends on them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Action, Event, Policy, Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games.braff import Braff, BraffState

GAME = games.load("braff")
assert isinstance(GAME, Braff)
GAME_PATTERN_TWO = games.load("braff", {"end_pattern": 2, "max_laps": 3})
MAX_ACTIONS = 5000
NAMES = ["p0", "p1", "p2", "p3"]


class TypeFirstPolicy:
    """Picks an action type uniformly, then one of that type: reaches drops, stands and
    all-ins far more often than a uniform pick among hundreds of raise stakes."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        by_type: dict[str, list[Action]] = {}
        for action in legal:
            by_type.setdefault(type(action).__name__, []).append(action)
        return rng.pick(by_type[rng.pick(sorted(by_type))])


POLICIES: dict[str, Policy] = {"random": RandomPolicy(), "type_first": TypeFirstPolicy(), "bot": GAME.bot()}

Step = Callable[[BraffState, int, Action, list[Event], Rng], None]


Journal = list[tuple[int, Action]]


def play(game: Braff, seed: int, players: int, policy: str, on_step: Step) -> tuple[BraffState, Journal]:
    state = game.new_match([f"p{i}" for i in range(players)], seed)
    assert isinstance(state, BraffState)
    rng = Rng(seed)
    journal: Journal = []
    while not state.is_over:
        assert len(journal) < MAX_ACTIONS, "the match did not end"
        seat = min(state.to_act())
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = POLICIES[policy].choose(state.view(seat), state.legal_actions(seat), rng)
        events = state.apply(seat, action)
        journal.append((seat, action))
        on_step(state, seat, action, events, rng)
    return state, journal


matches = given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 5),
    policy=st.sampled_from(sorted(POLICIES)),
    pattern_two=st.booleans(),
)
moderate = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@moderate
@matches
def test_chips_are_conserved_and_timeouts_are_legal(seed: int, players: int, policy: str, pattern_two: bool) -> None:
    game = GAME_PATTERN_TWO if pattern_two else GAME
    total = int(game.options["starting_chips"]) * players

    def check(state: BraffState, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
        assert sum(state.chips.stacks) + state.chips.pot_total + state.carry == total
        assert min(state.chips.stacks) >= 0 and state.carry >= 0
        for waiting in state.to_act() - {CHANCE}:
            assert state.timeout_action(waiting) in state.legal_actions(waiting)

    state, _ = play(game, seed, players, policy, check)
    result = state.result()
    assert result["over"] and [row["chips"] for row in result["standings"]] == sorted(state.chips.stacks, reverse=True)
    assert state.round <= state.rounds_limit and (min(state.chips.stacks) == 0 or state.round == state.rounds_limit)


@moderate
@matches
def test_replay_and_json_round_trips(seed: int, players: int, policy: str, pattern_two: bool) -> None:
    game = GAME_PATTERN_TWO if pattern_two else GAME

    def check(state: BraffState, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
        assert game.from_json(state.to_json()) == state
        assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
        json.dumps([e.to_json() for e in events])

    state, journal = play(game, seed, players, policy, check)
    replayed = game.new_match(state.players, seed)
    for seat, action in journal:
        replayed.apply(seat, action)
    assert replayed == state
    assert game.from_json(state.to_json()) == state


def twin(state: BraffState, observer: int | None, rng: Rng) -> BraffState | None:
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


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@matches
def test_no_view_shows_another_seats_character_or_cards(
    seed: int, players: int, policy: str, pattern_two: bool
) -> None:
    game = GAME_PATTERN_TWO if pattern_two else GAME

    def check(state: BraffState, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
        public = state.view(None)
        assert not {"hand", "character", "cup"} & set(public)
        for observer in [None, *range(len(state.players))]:
            other = twin(state, observer, rng)
            if other is None:
                continue
            assert other.view(observer) == state.view(observer)
            if other.characters != state.characters:  # the swap really moved hidden data
                assert other.to_json() != state.to_json()

    play(game, seed, players, policy, check)


def test_events_never_carry_hidden_cards_before_the_show() -> None:
    """Apply the same public action to a match and its twin: the events must be equal
    (only the show, which reveals by rule, may differ)."""
    for seed in range(6):

        def check(state: BraffState, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
            if state.is_over or seat == CHANCE or state.phase not in ("open", "bet"):
                return
            (actor,) = state.to_act()
            other = twin(state, actor, rng)
            if other is None:
                return
            mine = state.timeout_action(actor)
            copy = BraffState.restore(state.game, json.loads(state.to_json())["state"])
            assert copy.apply(actor, mine) == other.apply(actor, mine)

        play(GAME, seed, 4, "type_first", check)
