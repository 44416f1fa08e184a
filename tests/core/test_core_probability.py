"""The bots' odds: P(at least k hits among n), checked against worked values and the pmf.

Written to kill the mutants bench/mutation.py found surviving in core/probability.py: the
bots' tests only ask that a bot plays legally, so a wrong tail passed them all.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.core.probability import binomial_tail


@pytest.mark.parametrize(
    ("n", "p", "k", "expected"),
    [
        (3, 0.5, 2, 0.5),  # 3/8 + 1/8
        (3, 0.5, 3, 0.125),  # every one a hit: p^n, not the "k > n" zero
        (4, 0.25, 1, 1 - 0.75**4),  # at least one: not the "k <= 0" certainty
        (5, 1 / 3, 2, 1 - (2 / 3) ** 5 - 5 * (1 / 3) * (2 / 3) ** 4),
        (2, 0.5, 3, 0.0),
        (0, 0.5, 1, 0.0),
        (0, 0.5, 0, 1.0),
        (6, 0.2, -2, 1.0),
    ],
)
def test_worked_values(n: int, p: float, k: int, expected: float) -> None:
    assert binomial_tail(n, p, k) == pytest.approx(expected, abs=1e-12)


@given(st.integers(0, 12), st.floats(0.01, 0.99), st.integers(0, 12))
def test_each_step_of_the_tail_is_one_term_of_the_pmf(n: int, p: float, k: int) -> None:
    """tail(k) - tail(k + 1) = P(exactly k) = C(n, k) p^k (1 - p)^(n - k) for k <= n."""
    step = binomial_tail(n, p, k) - binomial_tail(n, p, k + 1)
    exact = math.comb(n, k) * p**k * (1 - p) ** (n - k) if k <= n else 0.0
    assert step == pytest.approx(exact, abs=1e-9)
