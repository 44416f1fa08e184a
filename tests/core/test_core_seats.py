"""Seat rotation that skips eliminated seats (mcbridge.core.seats), shared by every game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.core.seats import active_from, next_active, others_in_order


def test_next_active_is_the_next_seat_and_wraps_round() -> None:
    active = [True, True, True, True]
    assert [next_active(s, active) for s in range(4)] == [1, 2, 3, 0]


def test_next_active_skips_eliminated_seats() -> None:
    active = [True, False, False, True]
    assert next_active(0, active) == 3
    assert next_active(3, active) == 0


def test_next_active_from_an_eliminated_seat_finds_the_following_active_one() -> None:
    # A turn may pass on from a seat that was just eliminated.
    assert next_active(1, [True, False, True, True]) == 2
    assert next_active(3, [False, True, True, False]) == 1


def test_next_active_returns_the_seat_itself_when_it_is_the_only_active_one() -> None:
    assert next_active(2, [False, False, True]) == 2


def test_next_active_with_nobody_active_is_an_error() -> None:
    with pytest.raises(ValueError, match="no active seat"):
        next_active(0, [False, False, False])


def test_active_from_lists_turn_order_from_a_start_seat() -> None:
    active = [True, False, True, True, True]
    assert active_from(3, active) == [3, 4, 0, 2]
    assert active_from(3, active, include_start=False) == [4, 0, 2]
    assert active_from(1, active) == [2, 3, 4, 0]  # an inactive start is not included


def test_others_in_order_goes_round_from_the_seat_after() -> None:
    assert others_in_order(2, [True] * 4) == [3, 0, 1]
    assert others_in_order(0, [True, True, False, True]) == [1, 3]
    assert others_in_order(1, [True, False, True]) == [2, 0]  # seat itself out: still excluded


@given(st.lists(st.booleans(), min_size=1, max_size=9).filter(any), st.data())
def test_rotation_visits_every_active_seat_once_per_round(active: list[bool], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(active) - 1))
    seen = []
    seat = start
    for _ in range(sum(active)):
        seat = next_active(seat, active)
        seen.append(seat)
    assert sorted(seen) == [s for s, a in enumerate(active) if a]
    assert others_in_order(start, active) == [s for s in active_from(start, active, False) if s != start]
