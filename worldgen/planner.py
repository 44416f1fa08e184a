"""The paste planner: a grid (or the changed part of it) -> ordered commands, in ticks.

Why each rule:

* **Boxes, not blocks.** `world.setBlocks` costs one command whatever its volume, and a
  RaspberryJuice session runs at most 9000 commands per tick, so equal blocks are merged
  into boxes (:mod:`worldgen.merge`). For a full paste the planner also tries
  *overpainting*: fill the whole region with its commonest block in one command, then
  box only what differs (a hollow room becomes two commands instead of six walls); the
  cheaper plan wins. A repair never overpaints: it must not touch blocks that are right.
* **Supports first.** Torches, signs, buttons, levers, carpets, sand... (`needs_support`
  in the legacy table) pop off or fall when placed before the block they rest on. They
  go after every other block, lowest first.
* **Signs last, with their text.** `world.setSign` sets the block and its lines in one
  command, so a sign with text is never boxed.
* **Never a box the server refuses.** The embedded world takes boxes up to 4,194,304
  blocks, RaspberryJuice forks 1,000,000 (`max_box`): bigger boxes, the overpaint base
  included, are cut into layers (:func:`worldgen.merge.split_box`).
* **Ticks.** Commands are cut into groups of `per_tick`; one more line per tick is left
  for the fence that confirms the group (see `mcbridge.world.pipeline`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from mcbridge.world import commands
from mcbridge.world.pipeline import COMMANDS_PER_TICK
from worldgen.grid import BlockGrid, Pos
from worldgen.merge import Box, Mask, merge_boxes, split_box
from worldgen.states import LegacyTable, default_table, split_key

#: Commands per tick the planner fills; the last line of each tick is the fence.
PER_TICK = COMMANDS_PER_TICK - 1
SIGN_IDS = frozenset({63, 68})
#: How many of the commonest blocks are tried as the overpaint base.
OVERPAINT_CANDIDATES = 2
#: ... and only blocks filling at least this share of the cells to place.
OVERPAINT_MIN_SHARE = 0.1
#: The largest `setBlocks` box when the server does not say (RaspberryJuice forks' cap).
DEFAULT_MAX_BOX = 1_000_000


@dataclass(frozen=True, slots=True)
class Step:
    """One command in world coordinates."""

    name: str
    args: tuple[int | str, ...]
    blocks: int  # cells it writes

    def line(self) -> str:
        """Exactly the request line the connection sends (sanitised)."""
        return str(commands.make(self.name, self.args))


@dataclass
class Plan:
    steps: list[Step]
    cells: int  # cells the plan has to make right
    per_block: int  # commands the naive way needs: one per such cell
    strategy: str
    per_tick: int = PER_TICK
    max_box: int = DEFAULT_MAX_BOX
    blocks_by_name: Counter[str] = field(default_factory=Counter)

    @property
    def commands(self) -> int:
        return len(self.steps)

    @property
    def ticks(self) -> int:
        """Server ticks the commands need at the per-tick budget (0 for an empty plan)."""
        return -(-len(self.steps) // self.per_tick)

    @property
    def ratio(self) -> float:
        """How many times fewer commands than one per block."""
        return self.per_block / len(self.steps) if self.steps else float("inf")

    def tick_groups(self) -> Iterator[list[Step]]:
        for start in range(0, len(self.steps), self.per_tick):
            yield self.steps[start : start + self.per_tick]

    def summary(self) -> str:
        return (
            f"{self.cells} blocks, {self.commands} commands ({self.per_block} one per block,"
            f" {self.ratio:.1f}x fewer), {self.ticks} ticks at {self.per_tick + 1}"
            f" lines per tick; strategy: {self.strategy}; boxes of at most {self.max_box} blocks"
        )


def plan_paste(
    grid: BlockGrid,
    at: Pos,
    *,
    table: LegacyTable | None = None,
    per_tick: int = PER_TICK,
    max_box: int = DEFAULT_MAX_BOX,
) -> Plan:
    """Every cell of the grid, placed with its low corner at ``at``."""
    must = np.ones(grid.cells.shape, dtype=bool)
    return _plan(grid, at, must, None, table or default_table(), per_tick, max_box, overpaint=True)


def plan_changes(
    grid: BlockGrid,
    at: Pos,
    changed: Mask,
    *,
    restamp_signs: bool = False,
    table: LegacyTable | None = None,
    per_tick: int = PER_TICK,
    max_box: int = DEFAULT_MAX_BOX,
) -> Plan:
    """Only the changed cells; unchanged cells may be passed over by a box of their block.

    ``restamp_signs`` also rewrites the text of unchanged signs (sign text cannot be read
    back over RaspberryJuice, so this is the only way to be sure of it).
    """
    if changed.shape != grid.cells.shape:
        raise ValueError("the changed mask must have the grid's shape")
    must = changed.copy()
    if restamp_signs:
        for pos in _text_signs(grid):
            x, y, z = pos
            must[y, z, x] = True
    return _plan(grid, at, must, ~changed, table or default_table(), per_tick, max_box, overpaint=False)


def _plan(
    grid: BlockGrid,
    at: Pos,
    must: Mask,
    may: Mask | None,
    table: LegacyTable,
    per_tick: int,
    max_box: int,
    *,
    overpaint: bool,
) -> Plan:
    if per_tick < 1:
        raise ValueError("per_tick must be at least 1")
    if max_box < 1:
        raise ValueError("max_box must be at least 1 block")
    cells = grid.cells
    signs = [pos for pos in _text_signs(grid) if must[pos[1], pos[2], pos[0]]]
    sign_mask = np.zeros(cells.shape, dtype=bool)
    for x, y, z in signs:
        sign_mask[y, z, x] = True
    dependent = np.isin(cells >> 4, np.fromiter(table.needs_support, dtype=np.int64))
    boxed = must & ~sign_mask
    free_may = np.zeros(cells.shape, dtype=bool) if may is None else may & ~sign_mask
    # Cells written in a later pass may be covered by any earlier box; they are painted
    # with their neighbours' commonest block so the boxes around them can grow through.
    later = must & (dependent | sign_mask)
    paint = _paint_over(cells, later)
    solid = boxed & ~dependent
    structural = merge_boxes(paint, solid, free_may | later)
    attached = merge_boxes(cells, boxed & dependent, free_may)
    base: Box | None = None
    strategy = "box merge"
    if overpaint:
        for key in _common_keys(cells, solid):
            rest = merge_boxes(paint, solid & (cells != key), free_may | later)
            if len(rest) + _pieces(cells.size, max_box) < len(structural):
                h, length, w = cells.shape
                base = Box(0, 0, 0, w - 1, h - 1, length - 1, key)
                structural = rest
                strategy = f"overpaint with {_name(table, key)}, then box merge"

    ordered = ([base] if base else []) + _bottom_up(structural) + _bottom_up(attached)
    steps = [_box_step(piece, at) for box in ordered for piece in split_box(box, max_box)]
    for x, y, z in sorted(signs, key=lambda p: (p[1], p[2], p[0])):
        # An empty trailing line would be dropped by the server's comma split and the old
        # text would stay; a single space clears it.
        lines = [text or " " for text in grid.block_entities[(x, y, z)].sign_lines() or ()]
        block_id, data = split_key(int(cells[y, z, x]))
        steps.append(Step("world.setSign", (at[0] + x, at[1] + y, at[2] + z, block_id, data, *lines), 1))
    count = int(must.sum())
    names = _count_names(table, cells[must])
    return Plan(steps, count, count, strategy, per_tick, max_box, names)


def _pieces(volume: int, max_box: int) -> int:
    """Commands the overpaint base costs once cut to the box cap (a good estimate)."""
    return -(-volume // max_box)


def _text_signs(grid: BlockGrid) -> list[Pos]:
    """Sign cells that carry text (a sign block with a sign block entity)."""
    out = []
    for pos, entity in grid.block_entities.items():
        x, y, z = pos
        if int(grid.cells[y, z, x]) >> 4 in SIGN_IDS and entity.sign_lines() is not None:
            out.append(pos)
    return out


def _paint_over(cells: npt.NDArray[np.uint16], later: Mask) -> npt.NDArray[np.uint16]:
    """A copy of ``cells`` where each ``later`` cell takes its neighbours' commonest block."""
    paint = cells.copy()
    height, length, width = cells.shape
    for y, z, x in np.argwhere(later).tolist():
        around: Counter[int] = Counter()
        for dy, dz, dx in _NEIGHBOURS:
            ny, nz, nx = y + dy, z + dz, x + dx
            if 0 <= ny < height and 0 <= nz < length and 0 <= nx < width and not later[ny, nz, nx]:
                around[int(cells[ny, nz, nx])] += 1
        if around:
            paint[y, z, x] = around.most_common(1)[0][0]
    return paint


_NEIGHBOURS = ((0, 0, 1), (0, 0, -1), (0, 1, 0), (0, -1, 0), (1, 0, 0), (-1, 0, 0))


def _common_keys(cells: npt.NDArray[np.uint16], where: Mask) -> list[int]:
    """The commonest blocks, if common enough for an overpaint to have a chance."""
    values, counts = np.unique(cells[where], return_counts=True)
    order = np.argsort(-counts, kind="stable")[:OVERPAINT_CANDIDATES]
    enough = OVERPAINT_MIN_SHARE * int(where.sum())
    return [int(values[i]) for i in order if counts[i] >= enough]


def _bottom_up(boxes: list[Box]) -> list[Box]:
    return sorted(boxes, key=lambda b: (b.y1, b.z1, b.x1))


def _box_step(box: Box, at: Pos) -> Step:
    ax, ay, az = at
    block_id, data = split_key(box.key)
    if box.volume == 1:
        return Step("world.setBlock", (ax + box.x1, ay + box.y1, az + box.z1, block_id, data), 1)
    args = (
        ax + box.x1,
        ay + box.y1,
        az + box.z1,
        ax + box.x2,
        ay + box.y2,
        az + box.z2,
        block_id,
        data,
    )
    return Step("world.setBlocks", args, box.volume)


def _name(table: LegacyTable, key: int) -> str:
    state = table.state_of(key)
    block_id, data = split_key(key)
    return str(state).removeprefix("minecraft:") if state else f"{block_id}:{data}"


def _count_names(table: LegacyTable, keys: npt.NDArray[np.uint16]) -> Counter[str]:
    values, counts = np.unique(keys, return_counts=True)
    return Counter({_name(table, int(v)): int(c) for v, c in zip(values, counts, strict=True)})
