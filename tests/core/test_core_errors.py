"""The core's errors: stable codes and messages that name what went wrong and where.

Written to kill mutants bench/mutation.py found surviving in core/errors.py.
"""

from __future__ import annotations

from mcbridge.core.errors import BadState, IllegalAction, OptionError


def test_an_illegal_action_keeps_its_code_and_details_and_shows_them_in_order() -> None:
    error = IllegalAction("bid_too_low", count=3, colour="red")
    assert (error.code, error.details) == ("bid_too_low", {"count": 3, "colour": "red"})
    assert str(error) == "bid_too_low(count=3, colour='red')"
    assert str(IllegalAction("not_your_turn")) == "not_your_turn"


def test_a_bad_state_shows_its_code_and_details_like_an_illegal_action() -> None:
    error = BadState("missing_field", field="hands")
    assert isinstance(error, ValueError)
    assert (error.code, error.details) == ("missing_field", {"field": "hands"})
    assert str(error) == "missing_field(field='hands')"
    assert str(BadState("bad_json")) == "bad_json"


def test_an_option_error_names_key_value_and_what_is_allowed_and_gains_a_place() -> None:
    error = OptionError("dice", 9, "an integer 1..6", code="out_of_range")
    assert (error.key, error.value, error.allowed, error.where) == ("dice", 9, "an integer 1..6", None)
    assert str(error) == "option 'dice': 9 is not allowed; expected an integer 1..6"
    assert OptionError("dice", 9, "x").code == "bad_option"
    placed = error.located("seed.yaml:3:7")
    assert str(placed) == "seed.yaml:3:7: option 'dice': 9 is not allowed; expected an integer 1..6"
    assert (placed.key, placed.value, placed.allowed, placed.where, placed.code) == (
        "dice",
        9,
        "an integer 1..6",
        "seed.yaml:3:7",
        "out_of_range",
    )
