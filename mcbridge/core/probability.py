"""Odds the bots reason with: how likely is "at least k" among what a seat cannot see."""

from __future__ import annotations

import math
from functools import lru_cache


@lru_cache(maxsize=16384)
def binomial_tail(n: int, p: float, k: int) -> float:
    """P(Binomial(n, p) >= k): at least k hits among n unseen items, each a hit with chance p."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))
