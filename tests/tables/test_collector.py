"""`collector.settle`: what lives at startup is frozen, and garbage made afterwards, reference
cycles included, is still collected without anyone calling `gc.collect`."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from mcbridge.tables import collector


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_survivors_are_frozen_and_later_cycles_still_collected(restored_gc: None) -> None:
    kept = [Node() for _ in range(100)]
    collector.settle()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold()[0] == collector.YOUNG_THRESHOLD
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only the collector can free it
    gone = weakref.ref(a)
    del a, b
    churn: list[list[int]] = []
    for _ in range(collector.YOUNG_THRESHOLD * 2):  # kept: young collections count net allocations
        churn.append([])
        if gone() is None:
            break
    assert gone() is None


def test_collect_ahead_runs_only_the_costly_collection_that_is_coming(restored_gc: None) -> None:
    """Nothing while the young generation is under half full or the next young collection
    would stay young; past half, the middle collection it would have cascaded into."""
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.set_threshold(100_000, 3, 1000)  # nothing automatic while the test allocates
    gc.collect(1)  # middle count back to 0
    gc.callbacks.append(record)
    try:
        kept: list[list[int]] = [[] for _ in range(60_000)]
        collector.collect_ahead()
        assert seen == []  # past half, but the next young collection stays young: the collector's
        gc.collect(0)
        gc.collect(0)  # the second young collection since the middle one
        seen.clear()
        kept += [[] for _ in range(20_000)]
        collector.collect_ahead()
        assert seen == []  # a fifth of the way: not yet
        kept += [[] for _ in range(40_000)]
        collector.collect_ahead()
        assert seen == [1]  # the next young collection would have run the middle one too
    finally:
        gc.callbacks.remove(record)
    assert len(kept) == 120_000


def test_collect_ahead_runs_a_due_full_collection_however_empty_the_young_generation(restored_gc: None) -> None:
    """When the next young collection would cascade into a full one, it runs now (in the
    wait), not when a busy cycle fills the young generation on a click's path."""
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.set_threshold(100_000, 3, 5)  # nothing automatic while the test runs
    gc.collect()
    for _ in range(3):
        gc.collect(1)  # four middle collections since the full one: not due yet
    gc.collect(0)
    gc.collect(0)  # the next young collection would run a middle one
    gc.callbacks.append(record)
    try:
        collector.collect_ahead()
        assert seen == []  # the middle one it would cascade into is not a full one, and young is empty
        gc.collect(1)  # the fifth middle collection would now be followed by a full one
        gc.collect(0)
        gc.collect(0)
        seen.clear()
        collector.collect_ahead()
        assert seen == [2]
        assert gc.get_count()[1:] == (0, 0)
    finally:
        gc.callbacks.remove(record)
