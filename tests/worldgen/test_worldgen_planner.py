"""The box merge and the paste planner, without a server."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from worldgen_support import box_slices, grids, run_plan

from worldgen.grid import BlockGrid
from worldgen.merge import merge_boxes
from worldgen.planner import plan_changes, plan_paste
from worldgen.states import default_table, key_of

TABLE = default_table()
shapes = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    shape=shapes,
)
def test_boxes_cover_every_must_cell_and_only_allowed_cells(data: st.DataObject, shape: tuple[int, int, int]) -> None:
    target = data.draw(arrays(np.uint16, shape, elements=st.integers(0, 3)))
    must = data.draw(arrays(np.bool_, shape))
    may = data.draw(arrays(np.bool_, shape))
    covered = np.zeros(shape, dtype=bool)
    for box in merge_boxes(target, must, may):
        region = (slice(box.y1, box.y2 + 1), slice(box.z1, box.z2 + 1), slice(box.x1, box.x2 + 1))
        assert (target[region] == box.key).all()
        assert (must | may)[region].all()
        covered[region] = True
    assert covered[must].all()


def test_simple_shapes_need_few_boxes() -> None:
    solid = np.full((4, 5, 6), 7, dtype=np.uint16)
    assert len(merge_boxes(solid, np.ones(solid.shape, bool))) == 1
    wall_x = np.zeros((4, 5, 6), dtype=np.uint16)
    wall_x[:, 2, :] = 7
    assert len(merge_boxes(wall_x, wall_x == 7)) == 1
    wall_z = np.zeros((4, 5, 6), dtype=np.uint16)
    wall_z[:, :, 3] = 7
    assert len(merge_boxes(wall_z, wall_z == 7)) == 1  # z-first order finds it


@settings(max_examples=60, deadline=None)
@given(grid=grids(), world_seed=st.integers(0, 2**32 - 1))
def test_a_paste_plan_rebuilds_the_grid_whatever_was_there(grid: BlockGrid, world_seed: int) -> None:
    at = (100, 5, -20)
    plan = plan_paste(grid, at)
    world = np.random.default_rng(world_seed).integers(0, 4000, grid.cells.shape).astype(np.uint16)
    assert np.array_equal(run_plan(plan, world, at), grid.cells)
    assert plan.cells == plan.per_block == grid.volume
    assert plan.ticks == (1 if plan.steps else 0)


@settings(max_examples=60, deadline=None)
@given(grid=grids(), data=st.data())
def test_a_change_plan_writes_only_changed_cells(grid: BlockGrid, data: st.DataObject) -> None:
    at = (0, 0, 0)
    changed = data.draw(arrays(np.bool_, grid.cells.shape))
    world = grid.cells.copy()
    world[changed] = key_of(1, 1) if grid.cells.flat[0] != key_of(1, 1) else key_of(1, 2)
    world[changed & (grid.cells == world)] = 0  # make sure every changed cell differs
    changed = world != grid.cells
    plan = plan_changes(grid, at, changed)
    assert np.array_equal(run_plan(plan, world, at), grid.cells)
    for step in plan.steps:  # no box sets a cell that was right to anything else
        if step.name == "world.setBlocks":
            region = box_slices(step.args, at)
            key = key_of(int(step.args[6]), int(step.args[7]))
            assert (changed[region] | (grid.cells[region] == key)).all()
    assert plan.cells == int(changed.sum())


def test_supports_go_before_what_hangs_on_them_and_signs_last() -> None:
    grid = BlockGrid.filled(5, 4, 5, 0)
    grid.fill((0, 0, 0), (4, 0, 4), 1)  # floor
    grid.fill((0, 1, 4), (4, 3, 4), 98)  # back wall
    grid.set(2, 2, 3, 76, 4)  # red torch on the wall, pointing north
    grid.set(1, 1, 1, 12)  # sand: falls without the floor
    grid.set(3, 1, 1, 171, 14)  # red carpet
    grid.set_sign(0, 2, 3, 68, 2, ["Seat 1", "", "", ""])
    plan = plan_paste(grid, (0, 0, 0))
    names = [(s.name, tuple(s.args[-2:])) for s in plan.steps]
    first_dependent = next(i for i, s in enumerate(plan.steps) if s.args[-2] in (12, 76, 171))
    assert all(s.args[-2] not in (12, 76, 171) for s in plan.steps[:first_dependent])
    assert all(s.name != "world.setSign" for s in plan.steps[:-1]), names
    assert plan.steps[-1].line() == "world.setSign(0,2,3,68,2,Seat 1, , , )"
    assert np.array_equal(run_plan(plan, np.zeros_like(grid.cells), (0, 0, 0)), grid.cells)


def test_overpaint_turns_a_hollow_room_into_two_commands() -> None:
    grid = BlockGrid.filled(10, 6, 10, 98)
    grid.fill((1, 1, 1), (8, 4, 8), 0)
    plan = plan_paste(grid, (0, 0, 0))
    assert plan.commands == 2
    assert plan.strategy.startswith("overpaint with stone_bricks")
    assert plan.ratio == 300


def test_ticks_respect_the_per_tick_budget() -> None:
    grid = BlockGrid(np.arange(2500, dtype=np.uint16).reshape(1, 50, 50) % 16 + key_of(35))
    plan = plan_paste(grid, (0, 0, 0), per_tick=999)
    groups = list(plan.tick_groups())
    assert plan.ticks == len(groups) == -(-plan.commands // 999)
    assert all(len(g) <= 999 for g in groups)
    assert "ticks at 1000 lines per tick" in plan.summary()


def test_sign_lines_are_sanitised_on_the_wire() -> None:
    grid = BlockGrid.filled(1, 1, 1, 0)
    grid.set_sign(0, 0, 0, 63, 8, ["a,b", "line\nbreak", "(x)", ""])
    line = plan_paste(grid, (0, 0, 0)).steps[-1].line()
    assert line == "world.setSign(0,0,0,63,8,a\u201ab,line break,[x], )"  # a comma as its look-alike
