"""An arena's YAML -> its static structure as a block grid (for `worldgen build`).

The structure itself comes from `mcbridge.tables.layout.arena_layout`, the same function
`arena build` places, so a schematic and a built arena can never disagree. The grid is
in arena-local coordinates (as if the arena faced north), covering `bounds`; its offset
is the local position of the low corner (relative to the arena's origin).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mcbridge.tables.config import Arena, load_arena
from mcbridge.tables.layout import Structure, arena_layout
from mcbridge.world.geometry import Cuboid
from worldgen.grid import BlockGrid
from worldgen.states import key_of


def structure_grid(structure: Structure, bounds: Cuboid) -> BlockGrid:
    """Blocks and sign texts of a layout over the bounds box; cells it leaves out are air."""
    width, height, length = bounds.size
    cells = np.zeros((height, length, width), dtype=np.uint16)
    lo = bounds.lo
    for pos, block in structure.blocks.items():
        if not bounds.contains(pos):
            raise ValueError(f"the layout puts a block at {pos}, outside the bounds {bounds}")
        cells[pos.y - lo.y, pos.z - lo.z, pos.x - lo.x] = key_of(block.id, block.data)
    grid = BlockGrid(cells, offset=(lo.x, lo.y, lo.z))
    for pos, lines in structure.signs.items():
        block = structure.blocks[pos]
        grid.set_sign(pos.x - lo.x, pos.y - lo.y, pos.z - lo.z, block.id, block.data, lines)
    return grid


def arena_grid(arena: Arena) -> BlockGrid:
    return structure_grid(arena_layout(arena), arena.bounds)


def arena_file_grid(path: str | Path) -> BlockGrid:
    """Load and check an arena file (raises `ArenaError` listing every problem)."""
    return arena_grid(load_arena(path))
