"""A token bucket: how often one web client may ask for work that costs the tables' machine.

A replay rebuilds a whole match through the rules engine and reads the journal; a client
asking in a loop would turn the controller's spare CPU into its own. Each connection gets
a bucket: `burst` requests at once, then one per `1 / rate` seconds; an empty bucket says
how long until the next token, so the refusal can tell the client when to try again.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class TokenBucket:
    def __init__(self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        if burst < 1 or rate <= 0:
            raise ValueError(f"a token bucket needs burst >= 1 and rate > 0 (got {burst}, {rate})")
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = float(burst)
        self.at = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        """One token if there is one (True), else nothing is taken (False)."""
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> int:
        """Whole seconds (at least 1) until `take` can succeed again."""
        self._refill()
        return max(1, math.ceil((1 - self.tokens) / self.rate))
