"""Policies that need no knowledge of a game: used by property tests and benchmarks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcbridge.core.game import Action
from mcbridge.core.rng import Rng


class RandomPolicy:
    """Uniform over the legal actions: the harshest test of a rules engine's guards."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return rng.pick(legal)  # uniform over concrete actions when the list holds ranges
