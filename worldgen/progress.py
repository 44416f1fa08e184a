"""A small progress bar with ETA on stderr (no dependency: this is all we need).

It draws only on a terminal, at most ten times a second, and always ends its line, so
logs and pipes stay clean.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 28


class Progress:
    def __init__(
        self,
        label: str,
        total: int,
        unit: str = "commands",
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
    ) -> None:
        self.label = label
        self.total = max(0, total)
        self.unit = unit
        self.done = 0
        self._stream = stream if stream is not None else sys.stderr
        self._enabled = self._stream.isatty() if enabled is None else enabled
        self._start = time.monotonic()
        self._last_draw = 0.0
        self._drawn = False

    def extend(self, count: int) -> None:
        """More work turned up (a read learns how many data reads it needs)."""
        self.total += max(0, count)

    def advance(self, count: int = 1) -> None:
        self.done = min(self.total, self.done + count)
        now = time.monotonic()
        if now - self._last_draw >= 0.1 or self.done >= self.total:
            self._draw(now)

    def close(self) -> None:
        if self._enabled and self._drawn:
            self._draw(time.monotonic())
            self._stream.write("\n")
            self._stream.flush()
            self._drawn = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def line(self, now: float) -> str:
        fraction = self.done / self.total if self.total else 1.0
        filled = int(fraction * WIDTH)
        elapsed = now - self._start
        if self.done and self.done < self.total:
            eta = f"ETA {_clock(elapsed * (self.total - self.done) / self.done)}"
        else:
            eta = f"{_clock(elapsed)} elapsed"
        bar = "#" * filled + "-" * (WIDTH - filled)
        return (
            f"{self.label} [{bar}] {fraction:4.0%} {self.done}/{self.total} {self.unit}  {eta}"
        )

    def _draw(self, now: float) -> None:
        self._last_draw = now
        if not self._enabled:
            return
        self._stream.write("\r" + self.line(now))
        self._stream.flush()
        self._drawn = True


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    return f"{minutes}:{secs:02d}"
