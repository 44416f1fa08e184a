"""Rows of one block go out as one `world.setBlocks` whatever order a part lists its cells in,
and wherever the arena stands, also far from the world's origin (mcbridge/tables/reconcile.py
`write_runs`).

Written for two survivors of the third reconcile sample (bench/mutation.py reconcile --sample 40
--seed 3; each test names its mutant).
"""

from __future__ import annotations

import random

from mcbridge.tables.kit import Scene
from mcbridge.tables.reconcile import Reconciler, write_runs
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Pos

WOOL = Block(35, 14)


def test_a_row_listed_in_any_order_is_one_command() -> None:
    """reconcile.py:218 `itemgetter(1, 2, 0)` -> `itemgetter(1, 2, 1)`: the row's cells were no
    longer sorted along x, so a row listed right to left (or shuffled, as a kit's dict may list
    it) cost one `setBlock` per cell."""
    row = [Pos(x, 4, 7) for x in range(3, 11)]
    for order in (row[::-1], random.Random(5).sample(row, len(row))):
        batch = Batch()
        assert write_runs(batch, [(at, WOOL) for at in order]) == 1
        assert [str(item.command) for item in batch.items] == ["world.setBlocks(3,4,7,10,4,7,35,14)"]


def test_a_row_and_a_column_far_from_the_origin_are_one_command_each() -> None:
    """reconcile.py:223 `a.z == b.z` -> `a.z is b.z`: the other tests' arenas stand at coordinates
    below 257, where CPython keeps one object per int, so `is` agreed with `==`; at x = z = 1000
    (world coordinates computed from the frame: new int objects) each cell went out alone."""
    frame = ArenaFrame.of((1000, 64, 1000), "north")
    row = {Pos(x, 0, 0): WOOL for x in range(5)}
    column = {Pos(9, 2, z): WOOL for z in range(4)}
    batch = Batch()
    assert Reconciler(frame).write(batch, Scene(blocks={**row, **column})) == 2
    ends = sorted((frame.to_world(Pos(0, 0, 0)), frame.to_world(Pos(4, 0, 0))))
    tops = sorted((frame.to_world(Pos(9, 2, 0)), frame.to_world(Pos(9, 2, 3))))
    assert sorted(str(item.command) for item in batch.items) == sorted(
        f"world.setBlocks({a.x},{a.y},{a.z},{b.x},{b.y},{b.z},35,14)" for a, b in (ends, tops)
    )
