"""`write_runs`: rows of one block go out as one `world.setBlocks`, and the world the
commands make is exactly the cells asked for (no cell missed, none outside, none twice)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcbridge.tables.reconcile import write_runs
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import Pos

cells = st.builds(Pos, st.integers(0, 5), st.integers(0, 2), st.integers(0, 5))
blocks = st.sampled_from([Block(0), Block(35, 14), Block(35, 1), Block(76, 3)])


def world_after(batch: Batch) -> dict[Pos, Block]:
    """What the batch's setters write, cell by cell (later writes win)."""
    world: dict[Pos, Block] = {}
    for item in batch.items:
        args = [int(a) for a in item.command.args]
        if item.command.name == "world.setBlock":
            world[Pos(*args[:3])] = Block(*args[3:5])
            continue
        assert item.command.name == "world.setBlocks"
        (x1, y1, z1, x2, y2, z2), block = args[:6], Block(*args[6:8])
        assert y1 == y2 and (x1 == x2 or z1 == z2)  # a row, never a box
        for x in range(min(x1, x2), max(x1, x2) + 1):
            for z in range(min(z1, z2), max(z1, z2) + 1):
                assert Pos(x, y1, z) not in world, "a cell written twice"
                world[Pos(x, y1, z)] = block
    return world


@given(st.dictionaries(cells, blocks, max_size=60))
def test_the_commands_write_exactly_the_changes(changes: dict[Pos, Block]) -> None:
    batch = Batch()
    added = write_runs(batch, list(changes.items()))
    assert added == len(batch.items) <= len(changes)
    assert world_after(batch) == changes


def test_a_row_of_one_block_is_one_command_and_a_lone_cell_its_own() -> None:
    row = [(Pos(x, 1, 7), Block(0)) for x in range(3, 13)]
    column = [(Pos(2, 1, z), Block(35, 14)) for z in range(0, 4)]
    batch = Batch()
    assert write_runs(batch, [*row, *column, (Pos(9, 4, 9), Block(76, 3))]) == 3
    assert sorted(str(i.command) for i in batch.items) == [
        "world.setBlock(9,4,9,76,3)", "world.setBlocks(2,1,0,2,1,3,35,14)", "world.setBlocks(3,1,7,12,1,7,0,0)"]
