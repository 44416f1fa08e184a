"""The bots' odds at the ends of the scale (core/probability.py): asking for at least no hits
is certain, exactly 1.0 and not a sum that rounds near it, and a hit chance of 0 or 1 (every
unseen die a wild one, or none) gives exact answers instead of a division by zero.

Written for the survivors of the core sample (bench/mutation.py core.probability --sample 30 --seed 2).
"""

from __future__ import annotations

import pytest

from mcbridge.core.probability import binomial_tail


@pytest.mark.parametrize("n", range(13))
@pytest.mark.parametrize("p", [0.1, 1 / 6, 0.2, 0.3, 1 / 3, 0.5, 0.7])
def test_at_least_no_hits_is_exactly_certain(n: int, p: float) -> None:
    assert binomial_tail(n, p, 0) == 1.0


@pytest.mark.parametrize("n", range(6))
def test_a_certain_or_impossible_hit_gives_exact_odds(n: int) -> None:
    for k in range(1, n + 1):
        assert binomial_tail(n, 1.0, k) == 1.0
        assert binomial_tail(n, 0.0, k) == 0.0
    assert binomial_tail(n, 1.0, n + 1) == 0.0
