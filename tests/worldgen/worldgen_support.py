"""Helpers shared by the worldgen tests: grids drawn from the legacy table."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from worldgen.grid import BlockGrid
from worldgen.planner import Plan
from worldgen.states import LegacyTable, default_table, key_of

TABLE = default_table()


def canonical_keys(table: LegacyTable = TABLE) -> list[int]:
    """Legacy keys that survive legacy -> state -> legacy unchanged (one per state)."""
    keys = []
    for key in sorted(table.known_keys()):
        state = table.state_of(key)
        assert state is not None
        if table.legacy_of(state) == (key, True):
            keys.append(key)
    return keys


CANONICAL = np.array(canonical_keys(), dtype=np.uint16)


@st.composite
def grids(draw: st.DrawFn, max_side: int = 6, with_signs: bool = True) -> BlockGrid:
    """Random grids of canonical blocks, sometimes with sign text."""
    w, h, length = (draw(st.integers(1, max_side)) for _ in range(3))
    palette = draw(st.lists(st.sampled_from(CANONICAL.tolist()), min_size=1, max_size=12))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cells = rng.choice(np.array(palette, dtype=np.uint16), size=(h, length, w))
    grid = BlockGrid(cells.astype(np.uint16))
    if with_signs:
        for _ in range(draw(st.integers(0, 3))):
            x, y, z = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1)), draw(st.integers(0, length - 1))
            text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
            lines = draw(st.lists(text, min_size=4, max_size=4))
            grid.set_sign(x, y, z, 68, draw(st.sampled_from([2, 3, 4, 5])), lines)
    return grid


def box_slices(step_args: tuple[int | str, ...], at: tuple[int, int, int]) -> tuple[slice, ...]:
    x1, y1, z1, x2, y2, z2 = (int(a) for a in step_args[:6])
    ax, ay, az = at
    return (
        slice(min(y1, y2) - ay, max(y1, y2) - ay + 1),
        slice(min(z1, z2) - az, max(z1, z2) - az + 1),
        slice(min(x1, x2) - ax, max(x1, x2) - ax + 1),
    )


def run_plan(plan: Plan, world: np.ndarray, at: tuple[int, int, int]) -> np.ndarray:
    """Apply a plan to an array the way RaspberryJuice applies it to a world."""
    out = world.copy()
    for step in plan.steps:
        if step.name == "world.setBlocks":
            out[box_slices(step.args, at)] = key_of(int(step.args[6]), int(step.args[7]))
        else:
            x, y, z, block_id, data = (int(a) for a in step.args[:5])
            out[y - at[1], z - at[2], x - at[0]] = key_of(block_id, data)
    return out


def city(side: int = 256, seed: int = 7) -> BlockGrid:
    """A real-world-like build of side^3: layered ground, a road grid, towers with windows,
    a wool mosaic and leafy noise (the part no box merge can shrink)."""
    rng = np.random.default_rng(seed)
    grid = BlockGrid.filled(side, side, side, 0)
    ground = side // 4
    grid.fill((0, 0, 0), (side - 1, ground - 4, side - 1), 1)
    grid.fill((0, ground - 3, 0), (side - 1, ground - 2, side - 1), 3)
    grid.fill((0, ground - 1, 0), (side - 1, ground - 1, side - 1), 2)
    block = 32
    for bx in range(0, side - block + 1, block):
        for bz in range(0, side - block + 1, block):
            grid.fill((bx, ground - 1, bz), (bx + block - 1, ground - 1, bz + 3), 43)  # road
            top = ground + int(rng.integers(8, max(9, side // 2)))
            x1, z1, x2, z2 = bx + 6, bz + 8, bx + block - 6, bz + block - 4
            grid.fill((x1, ground, z1), (x2, top, z2), 98, int(rng.integers(0, 3)))
            grid.fill((x1 + 1, ground, z1 + 1), (x2 - 1, top - 1, z2 - 1), 0)
            for y in range(ground + 2, top - 1, 4):  # windows
                grid.fill((x1, y, z1 + 2), (x1, y + 1, z2 - 2), 20)
                grid.fill((x2, y, z1 + 2), (x2, y + 1, z2 - 2), 95, int(rng.integers(0, 16)))
    mosaic = rng.integers(0, 16, size=(16, 1, 48)).astype(np.uint16)
    grid.cells[ground : ground + 16, 1:2, 4:52] = (35 << 4) | mosaic
    leaves = rng.random((8, 24, 24)) < 0.5
    patch = grid.cells[ground : ground + 8, side - 26 : side - 2, side - 26 : side - 2]
    patch[leaves] = key_of(18, 0)
    return grid
