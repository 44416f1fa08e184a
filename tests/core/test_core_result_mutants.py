"""A match's result cannot be edited once made (core/result.py): the journal, the web feed and
the stats recorder all read the same `Result`, so none may change what the others see.

Written for the survivors of the core sample (bench/mutation.py core.result --sample 30 --seed 2).
"""

from __future__ import annotations

import dataclasses

import pytest

from mcbridge.games import load


def test_a_finished_matchs_result_cannot_be_changed() -> None:
    """result.py:49 `Result` with `frozen=False`: a reader could set `over` or swap the
    standings of the result every other reader holds."""
    game = load("dice_bluff")
    result = game.new_match(["ann", "bob"], 3).result()
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.over = True  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.standings = ()  # type: ignore[misc]
    assert result.over is False and len(result.standings) == 2
