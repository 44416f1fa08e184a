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
    """Without anyone calling `collect_ahead` the collector still frees a cycle (its own,
    higher threshold is the safety net)."""
    kept = [Node() for _ in range(100)]
    collector.settle()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold()[0] == collector.SAFETY_THRESHOLD
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only the collector can free it
    gone = weakref.ref(a)
    del a, b
    churn: list[list[int]] = []
    for _ in range(collector.SAFETY_THRESHOLD * 2):  # kept: young collections count net allocations
        churn.append([])
        if gone() is None:
            break
    assert gone() is None


@pytest.fixture
def generations(restored_gc: None) -> Iterator[list[int]]:
    """The generation of every collection that starts while the test runs (none automatic)."""
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.set_threshold(10_000_000, 3, 5)  # nothing automatic while the test allocates
    gc.collect()
    gc.callbacks.append(record)
    yield seen
    gc.callbacks.remove(record)


def test_collect_ahead_runs_the_young_collection_when_due_and_its_cascade(generations: list[int]) -> None:
    """Below `YOUNG_THRESHOLD` net allocations nothing runs; at it, a young collection (a
    middle one when two young ones came since the last middle, as the collector would)."""
    kept: list[list[int]] = [[] for _ in range(collector.YOUNG_THRESHOLD - 1000)]
    collector.collect_ahead()
    assert generations == []  # not due yet: never early (early ones made more survivors)
    kept += [[] for _ in range(2000)]
    collector.collect_ahead()
    assert generations == [0] and gc.get_count()[0] < 100
    kept += [[] for _ in range(collector.YOUNG_THRESHOLD)]
    collector.collect_ahead()
    assert generations == [0, 0]  # the second young collection since the middle one
    kept += [[] for _ in range(collector.YOUNG_THRESHOLD)]
    collector.collect_ahead()
    assert generations == [0, 0, 1]  # the third would have cascaded: the middle one runs instead
    collector.collect_ahead()
    assert generations == [0, 0, 1]  # nothing more is due
    assert len(kept) == 3 * collector.YOUNG_THRESHOLD + 1000


def test_collect_ahead_runs_a_due_full_collection_however_empty_the_young_generation(
        generations: list[int]) -> None:
    """When the next young collection would cascade into a full one, it runs now (in the
    wait), not when a busy cycle fills the young generation on a click's path."""
    for _ in range(3):
        gc.collect(1)  # three middle collections since the full one: not due yet
    gc.collect(0)
    gc.collect(0)  # the next young collection would run a middle one
    generations.clear()
    collector.collect_ahead()
    assert generations == []  # the middle one it would cascade into is not a full one, and young is empty
    gc.collect(1)  # the fourth middle collection: the next cascade would be a full one
    gc.collect(0)
    gc.collect(0)
    generations.clear()
    collector.collect_ahead()
    assert generations == [2]
    assert gc.get_count()[1:] == (0, 0)
