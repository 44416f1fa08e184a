"""What the core promises every game and every reader of its JSON (core/game.py): actions read
back from JSON are checked element by element in tuple fields of any length; chance is seat -1;
names play up to 32 characters; actions and events cannot change once made.

Written for the survivors of the core sample (bench/mutation.py core.game --sample 30 --seed 2).
Wool Bluff's `Reveal.tampered` is the shape under test: `tuple[tuple[int, WoolPairs], ...]`,
a tuple of any length whose items are fixed (seat, pairs) tuples.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from mcbridge import games
from mcbridge.core import Action, Event, IllegalAction, OptionError
from mcbridge.games.wool_bluff.actions import Reveal

WOOL = games.load("wool_bluff")


@pytest.mark.parametrize("entries", [0, 1, 2, 3, 5])
def test_a_tuple_field_of_any_length_reads_back_from_its_json(entries: int) -> None:
    action = Reveal(tuple((seat, (("red", seat + 1), ("white", 2))) for seat in range(entries)))
    assert WOOL.action_from_json(action.to_json()) == action


@pytest.mark.parametrize(
    "tampered",
    [
        [["0", [["red", 1]]]],  # the seat of a fixed (seat, pairs) item is text
        [[0, [["red", "1"]]]],  # a count inside the pairs is text
        [[0, [["red", 1]]], [1.5, []]],  # the second item's seat is not whole
        [[0, []], [1, [[5, 1]]]],  # a colour is a number
    ],
)
def test_a_wrong_element_type_anywhere_in_a_tuple_field_is_refused_naming_it(tampered: list[Any]) -> None:
    with pytest.raises(IllegalAction) as refused:
        WOOL.action_from_json({"type": "Reveal", "tampered": tampered})
    assert refused.value.code == "bad_action_fields"
    assert refused.value.details["field"] == "tampered"


@pytest.mark.parametrize("item", [[0], [0, [], 1], []])
def test_a_fixed_item_of_the_wrong_length_is_refused_not_a_crash(item: list[Any]) -> None:
    with pytest.raises(IllegalAction) as refused:
        WOOL.action_from_json({"type": "Reveal", "tampered": [item]})
    assert (refused.value.code, refused.value.details["field"]) == ("bad_action_fields", "tampered")


@pytest.mark.parametrize("name", games.available())
def test_chance_acts_as_seat_minus_one_in_what_a_match_reports(name: str) -> None:
    """-1 is the chance seat on the wire: journals store it beside each chance action and the
    web view's header lists it in `to_act`, so it cannot move without breaking saved matches."""
    game = games.load(name)
    lo, _ = game.player_range
    state = game.new_match([f"p{i}" for i in range(lo)], 7)
    assert state.to_act() == {-1}
    assert state.view(None)["header"]["to_act"] == [-1]
    assert state.view(0)["header"]["to_act"] == [-1]


def test_names_up_to_thirty_two_characters_play_and_the_refusal_says_so() -> None:
    """32 is the cap a refusal quotes to players (twice a Minecraft name, room for a bot's
    label); a name of exactly 32 plays and 33 is refused."""
    game = games.load("wool_bluff")
    assert game.new_match(["x" * 32, "b"], 1).players[0] == "x" * 32
    with pytest.raises(OptionError) as refused:
        game.new_match(["x" * 33, "b"], 1)
    assert refused.value.allowed == "printable names of 1 to 32 characters"


@pytest.mark.parametrize("base", [Action, Event])
def test_a_game_cannot_declare_an_action_or_event_that_could_change_after_it_is_made(base: type) -> None:
    """Actions and events go into journals, legal lists, logs and sets: both bases are frozen
    dataclasses, so a game's class that is not frozen is refused where it is declared."""
    with pytest.raises(TypeError, match="frozen"):

        @dataclasses.dataclass
        class Loose(base):  # the very mistake under test
            amount: int

    @dataclasses.dataclass(frozen=True)
    class Firm(base):
        amount: int

    assert Firm(3) == Firm(3) and len({Firm(3), Firm(3)}) == 1
