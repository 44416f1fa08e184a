"""Seat rotation around a table where some seats are out.

Seats are 0..n-1 in arena order; "next" is seat + 1 mod n (the seed's "player to the
right"), skipping seats that are no longer active.
"""

from __future__ import annotations

from collections.abc import Sequence


def next_active(seat: int, active: Sequence[object]) -> int:
    """The first active (truthy: True, or dice left) seat after `seat` (itself maybe inactive).

    Raises ValueError when no seat is active, since there is then nobody to pass to.
    """
    n = len(active)
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if active[candidate]:
            return candidate
    raise ValueError("no active seat")


def active_from(start: int, active: Sequence[bool], include_start: bool = True) -> list[int]:
    """Active seats in turn order beginning at `start` (or just after it)."""
    n = len(active)
    first = 0 if include_start else 1
    return [s for step in range(first, n) if active[s := (start + step) % n]]


def others_in_order(seat: int, active: Sequence[bool]) -> list[int]:
    """Every other active seat, going round from the one after `seat`."""
    return [s for s in active_from(seat, active, include_start=False) if s != seat]
