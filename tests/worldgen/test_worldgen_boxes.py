"""Never a box larger than the server takes; a failed paste says what is written, and resumes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from worldgen_support import box_slices, grids, run_plan

from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.embedded.commands import MAX_CUBOID_BLOCKS
from mcbridge.world.errors import CommandFailed
from worldgen import operations
from worldgen.errors import PasteIncomplete
from worldgen.grid import BlockGrid
from worldgen.live import apply_plan
from worldgen.merge import Box, split_box
from worldgen.planner import DEFAULT_MAX_BOX, Step, plan_paste
from worldgen.states import key_of


@settings(max_examples=300, deadline=None)
@given(
    corner=st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)),
    size=st.tuples(st.integers(1, 9), st.integers(1, 9), st.integers(1, 9)),
    cap=st.integers(1, 800),
)
def test_split_boxes_tile_the_box_exactly_within_the_cap(
    corner: tuple[int, int, int], size: tuple[int, int, int], cap: int
) -> None:
    x, y, z = corner
    box = Box(x, y, z, x + size[0] - 1, y + size[1] - 1, z + size[2] - 1, 7)
    seen = np.zeros((size[1], size[2], size[0]), dtype=np.int64)
    pieces = split_box(box, cap)
    for piece in pieces:
        assert piece.volume <= cap and piece.key == 7
        seen[piece.y1 - y : piece.y2 - y + 1, piece.z1 - z : piece.z2 - z + 1, piece.x1 - x : piece.x2 - x + 1] += 1
    assert (seen == 1).all()  # every cell once: no gap, no overlap
    if size[0] * size[2] <= cap:  # whole layers fit: as few pieces as the volume needs
        assert len(pieces) == -(-box.volume // ((cap // (size[0] * size[2])) * size[0] * size[2]))


@settings(max_examples=60, deadline=None)
@given(grid=grids(max_side=7, with_signs=False), cap=st.integers(1, 40))
def test_no_planned_box_exceeds_the_cap_and_the_result_is_the_same(grid: BlockGrid, cap: int) -> None:
    at = (5, 6, 7)
    plan = plan_paste(grid, at, max_box=cap)
    assert plan.max_box == cap
    for step in plan.steps:
        assert step.blocks <= cap
        if step.name == "world.setBlocks":
            region = box_slices(step.args, at)
            assert np.ones(grid.cells.shape)[region].size == step.blocks
    world = np.full(grid.cells.shape, key_of(1), dtype=np.uint16)
    assert np.array_equal(run_plan(plan, world, at), grid.cells)


def test_the_overpaint_base_of_a_huge_region_is_cut() -> None:
    # Issue 16 had the base of a 201x256x201 arena sent as one 10.3M box; the same shape
    # scaled down by 4 on the cap: air in whole layers of at most 250,000 blocks.
    grid = BlockGrid.filled(101, 128, 101, 0)
    grid.fill((0, 0, 0), (100, 0, 100), 1)
    plan = plan_paste(grid, (0, 0, 0), max_box=DEFAULT_MAX_BOX // 4)
    assert max(step.blocks for step in plan.steps) <= DEFAULT_MAX_BOX // 4
    assert sum(step.blocks for step in plan.steps) == grid.volume
    layers = DEFAULT_MAX_BOX // 4 // (101 * 101)  # 24 layers of air per box
    assert plan.commands == 1 + -(-127 // layers)  # the floor, then ceil(127 / 24) boxes


def test_both_servers_report_their_box_cap(conn: Connection) -> None:
    assert conn.max_box() == MAX_CUBOID_BLOCKS == 4_194_304


def test_a_paste_larger_than_the_servers_box_cap_arrives_whole(server: EmbeddedHandle, conn: Connection) -> None:
    """5.2M blocks: the embedded world refuses any one box over 4.19M, so this only works
    when the planner cuts to the reported cap. (The 256^3 case runs in bench/worldgen.py:
    reading its data back block by block takes minutes at 20 TPS.)"""
    side, height = 256, 80
    grid = BlockGrid.filled(side, height, side, 0)
    grid.fill((0, 0, 0), (side - 1, 0, side - 1), 20)
    grid.fill((3, 1, 3), (40, 30, 3), 35, 14)
    at = (-1200, 1, -1200)
    server.fill((at[0], at[1], at[2]), (at[0] + side - 1, at[1] + height - 1, at[2] + side - 1), 1)
    plan = operations.paste(conn, grid, at)
    assert plan.max_box == MAX_CUBOID_BLOCKS
    assert max(step.blocks for step in plan.steps) <= MAX_CUBOID_BLOCKS
    exported = operations.export(conn, at, (at[0] + side - 1, at[1] + height - 1, at[2] + side - 1))
    assert exported.same_blocks(grid)


def _steps_in_world(server: EmbeddedHandle, steps: list[Step]) -> list[bool]:
    """Whether each single-block step's block is in the world."""
    out = []
    for step in steps:
        x, y, z, block_id, data = (int(a) for a in step.args[:5])
        out.append(server.get_block(x, y, z) == (block_id, data))
    return out


def test_a_failed_batch_says_what_is_written_and_resumes_the_rest(server: EmbeddedHandle, conn: Connection) -> None:
    # Twelve single blocks in a row, three commands per tick: the fifth is refused.
    at = (-900, 3, -900)
    cells = (key_of(35) + np.arange(12, dtype=np.uint16) % 16).reshape(1, 1, 12)
    grid = BlockGrid(cells.astype(np.uint16))
    plan = plan_paste(grid, at, per_tick=3)
    assert plan.commands == 12
    broken = list(plan.steps)
    bad = broken[4]
    broken[4] = Step(bad.name, (*bad.args[:3], 254, 0), 1)  # no such block: Fail
    plan_broken = type(plan)(broken, plan.cells, plan.per_block, plan.strategy, 3, plan.max_box)
    with pytest.raises(PasteIncomplete) as caught:
        apply_plan(conn, plan_broken, ticks_per_flush=2)
    failure = caught.value
    assert isinstance(failure.cause, CommandFailed) and ",254,0)" in str(failure.cause)
    # The failing tick's other steps (3, 5) are sent again one fence each and confirmed;
    # the refused step 4 and the later write (6-11), never sent, are not written.
    expected = [True] * 4 + [False] * 8
    expected[4], expected[5] = False, True
    assert failure.written.tolist() == expected
    assert failure.counts() == {
        "written_commands": 5,
        "written_blocks": 5,
        "missing_commands": 7,
        "missing_blocks": 7,
    }
    assert _steps_in_world(server, plan.steps) == expected

    before = conn.stats.snapshot()
    apply_plan(conn, plan, done=failure.written)  # the cause fixed: only the rest is sent
    assert (conn.stats - before).commands == 7
    assert all(_steps_in_world(server, plan.steps))


def test_done_must_match_the_plan(conn: Connection) -> None:
    plan = plan_paste(BlockGrid.filled(2, 1, 1, 1), (0, 0, 0))
    with pytest.raises(ValueError, match="one flag per step"):
        apply_plan(conn, plan, done=np.zeros(plan.commands + 1, dtype=bool))
