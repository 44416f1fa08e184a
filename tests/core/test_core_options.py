"""Option specs (mcbridge.core.options) and option overrides through mcbridge.games.load."""

from __future__ import annotations

from typing import Any

import pytest

from mcbridge import games
from mcbridge.core import OptionError
from mcbridge.core.options import Bool, Choice, Float, Int, ListOf, MapOf, Str, Struct


def refused(spec: Any, value: Any, key: str = "k") -> OptionError:
    with pytest.raises(OptionError) as exc:
        spec.check(value, key)
    return exc.value


def test_int_refuses_bools_floats_text_and_out_of_range() -> None:
    spec = Int(1, 10)
    assert spec.check(10, "k") == 10
    for bad in (True, 2.0, "3", 0, 11, None):
        err = refused(spec, bad)
        assert (err.key, err.value, err.allowed) == ("k", bad, "a whole number from 1 to 10")
    assert Int(min=0).describe() == "a whole number of at least 0"
    assert Int(max=3).describe() == "a whole number of at most 3"


def test_float_bool_str_and_choice_check_types_strictly() -> None:
    assert Float(0, 1).check(1, "k") == 1.0
    assert refused(Float(0, 1), 1.5).allowed == "a number >= 0 and <= 1"
    assert refused(Bool(), "yes").allowed == "true or false"
    assert refused(Str(3), "long").allowed == "text of at most 3 characters"
    assert Choice(1, "one").check(1, "k") == 1
    refused(Choice(1, "one"), True)  # True == 1, but it is not the option 1
    refused(Choice(1.0), 1)


def test_lists_and_maps_name_the_offending_item() -> None:
    assert refused(ListOf(Int(0, 5)), [1, 9]).key == "k[1]"
    assert refused(ListOf(Int(), min_len=2), [1]).allowed == "a list of at least 2 items, each a whole number"
    colours = MapOf(Int(0, 9), keys=Choice("red", "blue"), require_all_keys=True)
    assert refused(colours, {"red": 1, "pink": 2}).key == "k key"
    assert refused(colours, {"red": 1, "blue": 10}).key == "k.blue"
    assert refused(colours, {"red": 1}).allowed == "a value for each of blue"


def test_structs_suggest_the_closest_key_and_require_their_fields() -> None:
    spec = Struct({"bid": Int(), "respond": Int()}, required=("bid",))
    err = refused(spec, {"bdi": 3}, "timeouts")
    assert err.key == "timeouts.bdi"
    assert err.allowed == "a known key (did you mean 'bid'?): bid, respond"
    assert refused(spec, {"zzz": 1}).allowed == "a known key: bid, respond"
    err = refused(spec, {"respond": 3}, "timeouts")
    assert (err.key, err.allowed) == ("timeouts.bid", "a value (it is required)")


def test_load_applies_overrides_on_top_of_the_seed_defaults() -> None:
    game = games.load("wool_bluff", {"turns": 3, "tamper": "forfeit"})
    assert game.options["turns"] == 3
    assert game.options["tamper"] == "forfeit"
    assert game.options["hand_size"] == 10  # untouched defaults stay


def test_nested_overrides_merge_into_the_defaults() -> None:
    game = games.load("wool_bluff", {"weights": {"white": 0}, "timeouts": {"bid": 5}})
    assert game.options["weights"] == {"red": 2, "blue": 2, "yellow": 2, "green": 2, "black": 2, "white": 0}
    assert game.options["timeouts"] == {"bid": 5, "respond": 30, "discard": 45, "reveal": 60}


@pytest.mark.parametrize(
    ("options", "key", "allowed"),
    [
        ({"trns": 5}, "trns", "did you mean 'turns'?"),
        ({"turns": "5"}, "turns", "a whole number from 1 to 1000"),
        ({"turns": 0}, "turns", "a whole number from 1 to 1000"),
        ({"max_players": 9}, "max_players", "a whole number from 2 to 8"),
        ({"tamper": "kick"}, "tamper", "one of 'warn', 'forfeit'"),
        ({"weights": {"pink": 1}}, "weights key", "one of 'red', 'blue', 'yellow', 'green', 'black', 'white'"),
        ({"timeouts": 5}, "timeouts", "a mapping with keys bid, respond, discard, reveal"),
        ({"timeouts": {"bid": 0}}, "timeouts.bid", "a whole number from 1 to 3600"),
        ({"min_players": 5}, "min_players", "at most max_players (4)"),
        (
            {"weights": dict.fromkeys(("red", "blue", "yellow", "green", "black", "white"), 0)},
            "weights",
            "at least one colour with a weight above 0",
        ),
    ],
)
def test_bad_overrides_name_the_key_the_value_and_what_is_allowed(
    options: dict[str, Any], key: str, allowed: str
) -> None:
    with pytest.raises(OptionError) as exc:
        games.load("wool_bluff", options)
    assert exc.value.key == key
    assert allowed in exc.value.allowed
    assert f"option '{key}': " in str(exc.value)
    assert exc.value.where is None  # not from a file


def test_an_unknown_game_lists_the_games_there_are() -> None:
    with pytest.raises(OptionError) as exc:
        games.load("chess")
    assert exc.value.key == "game" and exc.value.value == "chess"
    assert "wool_bluff" in exc.value.allowed


def test_new_match_checks_the_players() -> None:
    game = games.load("wool_bluff")
    with pytest.raises(OptionError, match="2 to 4 players"):
        game.new_match(["solo"], seed=1)
    with pytest.raises(OptionError, match="2 to 4 players"):
        game.new_match(list("abcde"), seed=1)
    with pytest.raises(OptionError, match="distinct player names"):
        game.new_match(["ann", "ann"], seed=1)
    with pytest.raises(OptionError, match="printable names"):
        game.new_match(["ann", "bo\nb"], seed=1)
    eight = games.load("wool_bluff", {"max_players": 8}).new_match(list("abcdefgh"), 1)
    assert eight.view(None)["players"] == list("abcdefgh")
