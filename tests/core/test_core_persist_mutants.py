"""A saved match whose `from_json` field is damaged is refused as a BadState naming that field,
whichever way the field's own loader fails (core/persist.py `decode`).

Braff's chips are a `ChipStacks`, whose `from_json` fails three ways on damaged data: a list
where an object belongs (TypeError), a negative stack (ValueError) and a missing key
(KeyError). Each must come back as the stable `bad_state` code with the field and the type
expected, never as the raw exception from inside the loader.

Written from the seed-2 sample list of core.persist (bench/mutation.py core.persist --sample 30
--seed 2), whose only survivor is an equivalent (bench/mutation_equivalents.md). cosmic-ray's
`ExceptionReplacer` puts an undefined name into that `except`, so any exception through it kills
those mutants (main's KeyError case did); these cases catch what they cannot, an `except` that
loses TypeError or ValueError, which only the KeyError case had covered.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcbridge.core.errors import BadState
from mcbridge.games import load


@pytest.mark.parametrize(
    ("chips", "error"),
    [
        ([50, 50, 50], "list indices"),  # TypeError inside ChipStacks.from_json
        ({"stacks": [-1, 50, 50], "contributions": [0, 0, 0]}, "whole numbers >= 0"),  # ValueError
        ({"stacks": [50, 50, 50]}, "contributions"),  # KeyError
    ],
)
def test_damaged_chips_in_a_saved_match_are_refused_naming_the_field(chips: Any, error: str) -> None:
    game = load("braff")
    saved = json.loads(game.new_match(["ann", "bob", "cy"], 1).to_json())
    saved["state"]["chips"] = chips
    with pytest.raises(BadState) as refused:
        game.from_json(json.dumps(saved))
    assert refused.value.code == "bad_state"
    assert (refused.value.details["field"], refused.value.details["expected"]) == ("chips", "ChipStacks")
    assert error in refused.value.details["error"]
