"""Seed files as an operator writes them (core/seeds.py): a placeholder is exactly
`{value, placeholder}`; a mapping with any other key is an option value, checked as one.

Written for the survivors of the core sample (bench/mutation.py core.seeds --sample 30 --seed 2;
each test names its mutant).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbridge.core import OptionError
from mcbridge.core.seeds import load_seed, seed_path
from mcbridge.games.wool_bluff.options import SCHEMA


def test_a_mapping_with_more_than_value_and_placeholder_is_not_a_placeholder(tmp_path: Path) -> None:
    """seeds.py:111 `set(value) == {...}` -> `>=`: the extra key was dropped and 7 loaded as a
    guessed number, where the option check must see the whole mapping and refuse it."""
    shipped = seed_path("wool_bluff").read_text(encoding="utf-8")
    assert "\n  turns: 10 " in shipped
    path = tmp_path / "wool_bluff.yaml"

    def with_turns(turns: str) -> Path:
        path.write_text(shipped.replace("\n  turns: 10 ", f"\n  turns: {turns} ", 1), encoding="utf-8")
        return path

    assert load_seed("wool_bluff", SCHEMA, with_turns("{value: 7, placeholder: a guess}")).options["turns"] == 7
    with pytest.raises(OptionError) as refused:
        load_seed("wool_bluff", SCHEMA, with_turns("{value: 7, placeholder: a guess, unit: rounds}"))
    assert refused.value.key == "turns" and "a whole number" in refused.value.allowed
    assert refused.value.where == f"{path}:7:10"
