"""The draws games build on (core/rng.py) at their edges: `below` refuses an empty range with a
ValueError instead of drawing forever, draws 0 from a range of one, and `pick` works in a
program that never loaded the legal-list module (a tool that only deals or rolls).

Written for the survivors of the core sample (bench/mutation.py core.rng --sample 30 --seed 2;
each test names its mutant).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from mcbridge.core import Rng


class BoundedRng(Rng):
    """An `Rng` that fails a test instead of hanging it: CPython's `_randbelow(0)` asks for 0-bit
    numbers until one is below 0, which never happens. Its draws are `Rng`'s own (overriding
    `getrandbits` keeps `random.Random` on the same `_randbelow_with_getrandbits`)."""

    calls = 0

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        if self.calls > 10_000:
            raise AssertionError("drew forever: below() let an empty range through")
        return super().getrandbits(k)


@pytest.mark.parametrize("n", [0, -1, -7])
def test_a_draw_below_zero_or_less_is_refused(n: int) -> None:
    """rng.py:75 `n <= 0` -> `n < 0` and -> `n <= -1`: below(0) then drew forever."""
    with pytest.raises(ValueError, match=f"empty range for a draw below {n}"):
        BoundedRng(1).below(n)


def test_a_draw_below_one_is_zero_and_draws_are_randranges() -> None:
    """rng.py:75 `n <= 0` -> `n <= 1`: below(1), a range of one action, was refused."""
    assert [BoundedRng(s).below(1) for s in range(5)] == [0] * 5
    a, b = BoundedRng(4), Rng(4)
    assert [a.below(n) for n in (1, 2, 6, 1000)] == [b.randrange(n) for n in (1, 2, 6, 1000)]


def test_pick_works_before_the_legal_list_module_is_loaded() -> None:
    """rng.py:66 `legal is not None and ...` -> `or`: with core/legal.py never imported the
    lookup is None, and the mutant asked None for its ActionRange. A fresh interpreter, since
    this test process has long loaded it."""
    script = (
        "import sys\n"
        "from mcbridge.core.rng import Rng\n"
        "assert 'mcbridge.core.legal' not in sys.modules, 'loaded already: the test proves nothing'\n"
        "print(Rng(7).pick('abcdef'), Rng(7).pick([10, 20, 30]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [Rng(7).pick("abcdef"), str(Rng(7).pick([10, 20, 30]))]
