"""A seeded random source that gives the same draws on every machine and Python version.

`random.Random` seeded with an int or str is stable across CPython versions for the
methods used here (`random`, `randrange`, `shuffle`, `choices` with cumulative weights), so
a match seed reproduces every deal. Sub-streams are derived by hashing labels with SHA-256
rather than with `hash()`, which is salted per process.
"""

from __future__ import annotations

import hashlib
import random
import sys
from bisect import bisect
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")


def derive_seed(seed: int | str, *labels: object) -> int:
    """A 64-bit seed for the sub-stream named by `labels` (e.g. turn and seat)."""
    text = "\x1f".join([str(seed), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@lru_cache(maxsize=256)
def _cumulative(weights: tuple[tuple[str, int], ...]) -> tuple[list[str], list[float]]:
    """Keys and cumulative weights of a weight table, once per table (a match deals from the
    same weights every turn); the draws are exactly those of the sums made each time."""
    keys = [key for key, _ in weights]
    cum: list[float] = []
    total = 0.0
    for _, weight in weights:
        total += weight
        cum.append(total)
    return keys, cum


class Rng(random.Random):
    """`random.Random` with the draws games need."""

    @classmethod
    def derived(cls, seed: int | str, *labels: object) -> Rng:
        return cls(derive_seed(seed, *labels))

    def weighted_counts(self, weights: Mapping[str, int], n: int) -> dict[str, int]:
        """Draw n items with replacement from an endless supply; counts per key (all keys)."""
        counts = dict.fromkeys(weights, 0)
        for key in self.weighted_draws(weights, n):
            counts[key] += 1
        return counts

    def weighted_draws(self, weights: Mapping[str, int], n: int) -> list[str]:
        """The n keys `weighted_counts` counts, in draw order (the same draws)."""
        keys, cum = _cumulative(tuple(weights.items()))
        return self.choices(keys, cum_weights=cum, k=n)

    def weighted_tally(self, weights: Mapping[str, int], n: int) -> list[int]:
        """How many of the n `weighted_draws` fall on each key, in `weights` order: the same
        draws (`choices` with cumulative weights, step by step), counted as they are drawn,
        so no list of keys is built to be counted again (a deal per seat per turn)."""
        _, cum = _cumulative(tuple(weights.items()))
        total = cum[-1] + 0.0 if cum else 0.0
        if total <= 0.0:
            raise ValueError("Total of weights must be greater than zero")
        tally = [0] * len(cum)
        draw, hi = self.random, len(cum) - 1
        for _ in range(n):
            tally[bisect(cum, draw() * total, 0, hi)] += 1
        return tally

    def pick(self, items: Sequence[T]) -> T:
        """One item, uniformly. A legal-action list may hold `ActionRange` entries (core/legal.py);
        then the pick is uniform over the concrete actions they stand for, so
        `rng.pick(state.legal_actions(seat))` always returns an action `apply` accepts."""
        # core/legal.py imports this module, so it is looked up, not imported (an import
        # statement here costs more than the pick); no ranges exist before it is loaded.
        legal = sys.modules.get("mcbridge.core.legal")
        if legal is not None and legal.ActionRange in map(type, items):  # scanned in C
            found: T = legal.pick_concrete(items, self)
            return found
        if not items:
            raise ValueError("empty range for a draw below 0")
        return items[self._randbelow(len(items))]  # type: ignore[attr-defined]  # `below`, inlined: one call per step

    def below(self, n: int) -> int:
        """`randrange(n)`: the same draw, without its argument checks (n > 0, an int)."""
        if n <= 0:
            raise ValueError(f"empty range for a draw below {n}")
        return self._randbelow(n)  # type: ignore[attr-defined]  # CPython's, since 3.2

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def roll(self, dice: int, faces: int = 6) -> list[int]:
        # randrange(n) is _randbelow(n) after argument checks: the same draws, faster
        below = self._randbelow  # type: ignore[attr-defined]
        return [below(faces) + 1 for _ in range(dice)]
