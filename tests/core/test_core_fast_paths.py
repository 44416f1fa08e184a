"""The core's fast paths keep the contract: `apply`'s look-up of an action's kind by exact
type, the view header copied from a per-phase template, `ActionRange.of`'s field-by-field
check of a run, the shared one-seat sets and save/restore's shortcuts for plain values.
Each test pins what the slow form did."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from mcbridge import games
from mcbridge.core import CHANCE, Action, BadState, FirstSeat, IllegalAction, Rng
from mcbridge.core.game import only
from mcbridge.core.legal import ActionRange
from mcbridge.core.persist import decode, encode

NAMES = games.available()
HEADER_KEYS = ["game", "phase", "players", "to_act", "scores", "score_name", "better", "seq", "deadline"]


@dataclass(frozen=True, slots=True)
class LateFirstSeat(FirstSeat):
    """A subclass of a listed action type: not in apply's table, so it takes the isinstance path."""


@dataclass(frozen=True, slots=True)
class Stranger(Action):
    seat: int


@pytest.mark.parametrize("name", NAMES)
def test_a_subclass_of_a_listed_action_is_applied_as_its_base(name: str) -> None:
    game = games.load(name)
    players = [f"p{i}" for i in range(game.player_range[0])]
    listed, late = game.new_match(players, 3), game.new_match(players, 3)
    rng = Rng(3)
    while listed.phase != listed.first_phase:  # Bribery arranges its influencers first
        outcome = listed.sample_chance(rng)
        listed.apply(CHANCE, outcome)
        late.apply(CHANCE, outcome)
    assert listed.apply(CHANCE, FirstSeat(1)) == late.apply(CHANCE, LateFirstSeat(1))
    assert late.to_json() == listed.to_json() and late.seq == listed.seq > 0


@pytest.mark.parametrize("name", NAMES)
def test_an_action_of_no_listed_type_is_refused_and_changes_nothing(name: str) -> None:
    game = games.load(name)
    state = game.new_match([f"p{i}" for i in range(game.player_range[0])], 3)
    before = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        state.apply(CHANCE, Stranger(0))
    assert refused.value.code == "unknown_action" and refused.value.details == {"type": "Stranger"}
    assert state.to_json() == before


@pytest.mark.parametrize("name", NAMES)
def test_every_view_gets_its_own_header_built_from_the_phase_it_is_in(name: str) -> None:
    """Headers come from a template kept per game and phase: a view's header is a copy (a
    caller that changes one changes no other view), and moving to another phase, or to the
    end, gives that phase's values, for a second match of the same game object too."""
    game = games.load(name)
    rng = Rng(11)
    for seed in (1, 2):
        state = game.new_match([f"p{i}" for i in range(game.player_range[0])], seed)
        while True:
            first, second = state.view(None)["header"], state.view(0)["header"]
            assert first == second == state.header().to_json()
            assert list(first) == [
                "game",
                "phase",
                "players",
                "to_act",
                "scores",
                "score_name",
                "better",
                "seq",
                "deadline",
            ]
            first["phase"], first["players"][0] = "changed", "changed"
            assert state.view(None)["header"] == state.header().to_json() != first
            if state.is_over:
                assert second["deadline"] is None and second["to_act"] == []
                break
            seat = min(state.to_act())
            state.apply(seat, state.sample_chance(rng) if seat == CHANCE else rng.pick(state.legal_actions(seat)))


@dataclass(frozen=True)
class Bet(Action):
    cup: str
    stake: int


@dataclass(frozen=True)
class OtherBet(Bet):
    pass


def test_a_run_is_refused_when_any_other_field_or_the_type_differs() -> None:
    run = [Bet("C", 2), Bet("C", 4), Bet("C", 6)]
    assert [ActionRange.of(run, "stake").at(i) for i in range(3)] == run
    for odd in (Bet("D", 4), OtherBet("C", 4), Bet("C", 5)):
        with pytest.raises(ValueError, match="not an evenly stepped run"):
            ActionRange.of([run[0], odd, run[2]], "stake")


def test_a_range_finds_equal_actions_as_well_as_its_own() -> None:
    run = [Bet("C", 2), Bet("C", 4)]
    entry = ActionRange.of(run, "stake")
    assert run[1] in entry and Bet("C", 4) in entry and Bet("C", 3) not in entry and OtherBet("C", 4) not in entry


def test_one_seat_sets_are_shared_and_are_the_plain_sets() -> None:
    assert only(7) is only(7) == frozenset({7})
    assert only(CHANCE) == frozenset({CHANCE}) and only(0) != only(1)


@pytest.mark.parametrize(
    ("value", "bad"), [([1, True, 3], "hand[1]"), ([1, 2.0], "hand[1]"), (["a"], "hand[0]"), ([None], "hand[0]")]
)
def test_a_list_of_whole_numbers_with_one_item_of_another_type_is_refused_naming_it(value: list[Any], bad: str) -> None:
    assert decode([4, 0, -2], list[int], "hand") == [4, 0, -2]
    with pytest.raises(BadState) as refused:
        decode(value, list[int], "hand")
    assert refused.value.details["field"] == bad


def test_plain_values_encode_as_themselves_and_containers_as_lists() -> None:
    assert encode({1: (True, None, 2.5, "x"), "k": [[1], ()]}) == {"1": [True, None, 2.5, "x"], "k": [[1], []]}
    assert encode(FirstSeat(2)) == {"type": "FirstSeat", "seat": 2}
