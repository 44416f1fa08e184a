"""Chip bookkeeping at its edges (issue 20, item 1: survivors of the mutation run on chips.py).

Saved chip data is checked before a resumed match plays on with it: every count a whole
number >= 0, in lists. Side pots are layers whose eligible seats shrink strictly, layer by
layer (each layer is some live payer's own level, and that payer is eligible no higher).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.core.chips import ChipStacks, side_pots


@pytest.mark.parametrize(
    "data",
    [
        {"stacks": [-1, 5], "contributions": [0, 0]},
        {"stacks": [5, 5], "contributions": [0, -1]},
        {"stacks": [True, 5], "contributions": [0, 0]},
        {"stacks": [5.0, 5], "contributions": [0, 0]},
        {"stacks": (5, 5), "contributions": [0, 0]},
        {"stacks": [5, 5], "contributions": "00"},
    ],
    ids=["negative stack", "negative contribution", "bool", "float", "tuple", "text"],
)
def test_saved_chip_data_that_is_not_whole_numbers_at_least_zero_in_lists_is_refused(
    data: dict[str, list[int]],
) -> None:
    with pytest.raises(ValueError, match="chip counts must be whole numbers >= 0"):
        ChipStacks.from_json(data)


def test_zero_chips_in_saved_data_are_accepted() -> None:
    assert ChipStacks.from_json({"stacks": [0, 3], "contributions": [2, 0]}).to_json() == {
        "stacks": [0, 3],
        "contributions": [2, 0],
    }


@given(
    st.lists(st.sampled_from([0, 1, 2, 5, 8]), min_size=2, max_size=6).flatmap(
        lambda c: st.tuples(st.just(c), st.lists(st.integers(0, len(c) - 1), min_size=1, unique=True))
    )
)
def test_each_side_pot_has_strictly_fewer_eligible_seats_than_the_one_below(case: tuple[list[int], list[int]]) -> None:
    contributions, live = case
    pots = side_pots(contributions, live)
    for lower, upper in itertools.pairwise(pots):
        assert upper.eligible < lower.eligible
