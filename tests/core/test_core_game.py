"""The core's match setup and JSON entry points at their edges (core/game.py): the limits
on players and names are inclusive, and every refusal says what is allowed.

Written to kill mutants bench/mutation.py found surviving in core/game.py.
"""

from __future__ import annotations

import pytest

from mcbridge import games
from mcbridge.core import OptionError
from mcbridge.core.errors import BadState, IllegalAction
from mcbridge.core.game import MAX_NAME_LENGTH


def refused_players(game_name: str, players: list[str], **options: int) -> OptionError:
    with pytest.raises(OptionError) as refused:
        games.load(game_name, options).new_match(players, 1)
    assert refused.value.key == "players"
    return refused.value


def test_player_counts_are_inclusive_and_the_refusal_names_the_range() -> None:
    game = games.load("wool_bluff", {"min_players": 2, "max_players": 4})
    assert game.new_match(["a", "b"], 1).players == ["a", "b"]
    assert len(game.new_match(list("abcd"), 1).players) == 4
    assert refused_players("wool_bluff", ["a"], min_players=2, max_players=4).allowed == "2 to 4 players"
    assert refused_players("wool_bluff", list("abcde"), min_players=2, max_players=4).allowed == "2 to 4 players"
    assert refused_players("wool_bluff", ["a", "b"], min_players=3, max_players=3).allowed == "exactly 3 players"


def test_names_of_exactly_the_longest_length_are_kept() -> None:
    longest = "x" * MAX_NAME_LENGTH
    assert games.load("wool_bluff").new_match([longest, "b"], 1).players == [longest, "b"]
    too_long = refused_players("wool_bluff", [longest + "x", "b"])
    assert too_long.value == longest + "x"
    assert too_long.allowed == f"printable names of 1 to {MAX_NAME_LENGTH} characters"
    assert refused_players("wool_bluff", ["a", "a"]).allowed == "distinct player names"


def test_min_players_above_max_players_is_an_option_error() -> None:
    with pytest.raises(OptionError) as refused:
        games.load("wool_bluff", {"min_players": 4, "max_players": 3})
    error = refused.value
    assert (error.key, error.value, error.allowed) == ("min_players", 4, "at most max_players (3)")
    assert games.load("wool_bluff", {"min_players": 3, "max_players": 3}).player_range == (3, 3)


def test_saved_text_that_is_not_a_match_is_a_bad_state_with_a_stable_code() -> None:
    game = games.load("wool_bluff")
    good = game.new_match(["a", "b"], 1).to_json()
    cases = {
        "{": "bad_json",
        "[1]": "bad_state",
        good.replace('"wool_bluff"', '"braff"', 1): "wrong_game",
        '{"game": "wool_bluff", "state": {}}': "missing_field",
        '{"game": "wool_bluff", "options": {}, "state": []}': "missing_field",
    }
    for text, code in cases.items():
        with pytest.raises(BadState) as refused:
            game.from_json(text)
        assert refused.value.code == code, text
    assert game.from_json(good).to_json() == good


def test_an_action_of_the_wrong_field_type_is_refused_naming_the_field() -> None:
    game = games.load("wool_bluff")
    assert game.action_from_json({"type": "Bid", "colour": "red", "count": 3}).to_json()["count"] == 3
    for data, details in (
        ({"type": "Bid", "colour": "red", "count": True}, {"field": "count"}),
        ({"type": "Bid", "colour": "red", "count": 2.5}, {"field": "count"}),
        ({"type": "Bid", "colour": 5, "count": 3}, {"field": "colour"}),
    ):
        with pytest.raises(IllegalAction) as refused:
            game.action_from_json(data)
        assert refused.value.code == "bad_action_fields"
        assert details.items() <= refused.value.details.items(), refused.value.details
    with pytest.raises(IllegalAction) as refused:
        game.action_from_json(["Bid"])  # type: ignore[arg-type]
    assert (refused.value.code, refused.value.details["type"]) == ("bad_action_fields", None)
