"""Option specs are shared values (core/options.py): a game's schema is module state that every
match, seed file and arena check reads, so no caller may change a bound in place; and a
two-sided float bound is worded as one phrase.

Written for the survivors of the core sample (bench/mutation.py core.options --sample 30 --seed 2).
"""

from __future__ import annotations

import dataclasses

import pytest

from mcbridge.core.options import Float, Int, ListOf, MapOf, Spec, Str


@pytest.mark.parametrize(
    ("spec", "field", "value"),
    [
        (Int(1, 3), "max", 99),
        (Float(0.5, 1.5), "min", 0.0),
        (Str(3), "max_len", 10**6),
        (ListOf(Int(), 1, 2), "max_len", None),
        (MapOf(Int()), "require_all_keys", True),
    ],
)
def test_a_spec_cannot_be_loosened_in_place(spec: Spec, field: str, value: object) -> None:
    before = dataclasses.replace(spec)  # type: ignore[type-var]  # every spec here is a dataclass
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(spec, field, value)
    assert spec == before and hash(spec) == hash(before)  # a value: equal specs hash equal


def test_a_float_bounded_on_both_sides_is_one_phrase() -> None:
    assert Float(0, 1).describe() == "a number >= 0 and <= 1"
