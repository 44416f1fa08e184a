"""The four things an operator does with a schematic and a live world.

`paste`, `export`, `diff` and `repair` here are what the CLI, the benchmark and the
tests call; they only glue the reader, the planner and the live reads together.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mcbridge.world.blocks import Block
from mcbridge.world.connection import Connection
from mcbridge.world.geometry import rotate_block
from worldgen.diff import Diff, data_matters, diff_world
from worldgen.grid import BlockGrid, Pos
from worldgen.live import apply_plan, read_region
from worldgen.planner import DEFAULT_MAX_BOX, PER_TICK, Plan, plan_changes, plan_paste
from worldgen.progress import Progress
from worldgen.states import ConversionReport, LegacyTable, default_table, key_of


def turn_key(table: LegacyTable) -> Callable[[int, int], int | None]:
    """Block rotation: the legacy table (every block it knows, in state space), and for
    blocks it lacks, `mcbridge.world.geometry.rotate_block` (banners...)."""

    def turn(key: int, quarter_turns: int) -> int | None:
        turned = table.rotate_key(key, quarter_turns)
        if turned is not None:
            return turned
        block = Block(key >> 4, key & 0x0F)
        other = rotate_block(block, quarter_turns)
        return key_of(other.id, other.data) if other != block else None

    return turn


def server_max_box(conn: Connection) -> int:
    """The server's `setBlocks` cap if it reports one, else `DEFAULT_MAX_BOX`."""
    return conn.max_box() or DEFAULT_MAX_BOX


def rotate(grid: BlockGrid, degrees: int, table: LegacyTable | None = None) -> tuple[BlockGrid, ConversionReport]:
    """Turn a grid clockwise (seen from above) by a multiple of 90 degrees."""
    if degrees % 90:
        raise ValueError(f"--rotate takes a multiple of 90 degrees, not {degrees}")
    report = ConversionReport()
    turned = grid.rotated(degrees // 90, turn_key(table or default_table()), report)
    return turned, report


def paste(
    conn: Connection,
    grid: BlockGrid,
    at: Pos,
    *,
    table: LegacyTable | None = None,
    max_box: int | None = None,
    progress: Progress | None = None,
) -> Plan:
    """Place the grid with its low corner at ``at``; returns the plan that ran.

    Boxes are cut to ``max_box``, else to what the server reports, else to
    `DEFAULT_MAX_BOX`; a failed write raises `PasteIncomplete`.
    """
    plan = plan_paste(grid, at, table=table, max_box=max_box or server_max_box(conn))
    if progress is not None:
        progress.extend(plan.commands)
    apply_plan(conn, plan, progress=progress)
    return plan


def export(
    conn: Connection,
    corner1: Pos,
    corner2: Pos,
    *,
    table: LegacyTable | None = None,
    progress: Progress | None = None,
) -> BlockGrid:
    """The region between two corners (inclusive) as a grid, ids and data.

    Sign text cannot be read over RaspberryJuice, so exported signs carry none.
    """
    table = table or default_table()
    low = (min(corner1[0], corner2[0]), min(corner1[1], corner2[1]), min(corner1[2], corner2[2]))
    size = tuple(abs(a - b) + 1 for a, b in zip(corner1, corner2, strict=True))
    width, height, length = size
    read = read_region(
        conn,
        low,
        (width, height, length),
        lambda ids: data_matters(table, ids) & (ids != 0),
        progress=progress,
    )
    return read.to_grid()


@dataclass
class Repair:
    diff: Diff
    plan: Plan


def repair(
    conn: Connection,
    grid: BlockGrid,
    at: Pos,
    *,
    restamp_signs: bool = False,
    dry_run: bool = False,
    table: LegacyTable | None = None,
    per_tick: int = PER_TICK,
    max_box: int | None = None,
    progress: Progress | None = None,
) -> Repair:
    """Read the region, then write only what differs (nothing when ``dry_run``).

    Reads that do not fit in one tick are not made: cells whose id is right but whose
    data was not read are written again, which the server skips where they are already
    right (see :mod:`worldgen.diff`), so a repair takes two ticks whatever its size.
    """
    table = table or default_table()
    found = diff_world(conn, grid, at, reassert=True, table=table, per_tick=per_tick, progress=progress)
    plan = plan_changes(
        grid,
        at,
        found.changed | found.unverified,
        restamp_signs=restamp_signs,
        table=table,
        per_tick=per_tick,
        max_box=max_box or server_max_box(conn),
    )
    if not dry_run and plan.steps:
        if progress is not None:
            progress.extend(plan.commands)
        apply_plan(conn, plan, progress=progress)
    return Repair(found, plan)
