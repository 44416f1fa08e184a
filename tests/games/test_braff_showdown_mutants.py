"""Braff's show (showdown.exposure): who a doubt card puts out, for each kind and for none.

Written for a survivor of the mutation sample (bench/mutation.py braff.showdown):
`doubt == "not_enough"` read as `doubt >= "not_enough"`. In play every live seat receives
exactly one doubt card (each gives one to the next live seat), so the show never asks about a
seat without one; `exposure` still documents `doubt: str | None`, and a player who received
no card must never be exposed, whatever their cup.
"""

from __future__ import annotations

import pytest

from mcbridge import games
from mcbridge.games.braff import Braff
from mcbridge.games.braff.cards import Character
from mcbridge.games.braff.showdown import exposure

FAKES = ["black"]


def character(name: str) -> Character:
    """A character card of the shipped seed (rules/braff.md's table)."""
    game = games.load("braff")
    assert isinstance(game, Braff)
    return game.characters[name]


@pytest.mark.parametrize("name", ["a", "aaa", "c", "f"])
def test_no_doubt_card_exposes_nobody_even_below_the_meter(name: str) -> None:
    assert exposure(character(name), ["black", "black"], 1, None, 6, FAKES) is None


def test_not_enough_exposes_only_a_cup_below_the_meter() -> None:
    hand = ["red", "white"]
    assert exposure(character("b"), hand, 2, "not_enough", 3, FAKES) == "not_enough"
    assert exposure(character("b"), hand, 3, "not_enough", 3, FAKES) is None
    assert exposure(character("b"), hand, 2, "fake", 3, FAKES) is None  # not a fake-exposed character


def test_fake_exposes_a_named_character_holding_black_whatever_the_cup() -> None:
    assert exposure(character("c"), ["black"], 9, "fake", 3, FAKES) == "fake"
    assert exposure(character("c"), ["white"], 1, "fake", 3, FAKES) is None  # white is never fake
    assert exposure(character("d"), ["black"], 1, "fake", 3, FAKES) is None  # D is not named
