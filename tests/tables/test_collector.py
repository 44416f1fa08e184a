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
