"""Against a real embedded world over real sockets: paste, export, diff, repair."""

from __future__ import annotations

from itertools import count
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from worldgen_support import grids

from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.sanitize import sign_line
from worldgen import operations
from worldgen.diff import diff_world
from worldgen.grid import BlockGrid
from worldgen.schematic import read_schematic, write_schematic
from worldgen.states import key_of

SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_spots = count()


def free_spot(size: tuple[int, int, int] = (16, 0, 16)) -> tuple[int, int, int]:
    """A fresh corner per test so examples never see each other's blocks."""
    n = next(_spots)
    return (n % 16) * 20 - 160, 2, (n // 16) * 20 - 160


def export_of(conn: Connection, grid: BlockGrid, at: tuple[int, int, int]) -> BlockGrid:
    w, h, length = grid.size
    return operations.export(conn, at, (at[0] + w - 1, at[1] + h - 1, at[2] + length - 1))


def assert_signs(server: EmbeddedHandle, grid: BlockGrid, at: tuple[int, int, int]) -> None:
    for (x, y, z), entity in grid.block_entities.items():
        expected = entity.sign_lines()
        got = server.sign_lines(at[0] + x, at[1] + y, at[2] + z)
        assert got is not None and expected is not None
        sent = tuple(sign_line(line).strip() for line in expected)  # as the wire carries it
        assert tuple(line.strip() for line in got) == sent


@pytest.mark.parametrize("suffix", [".schem", ".schematic", ".nbt"])
@SETTINGS
@given(source=grids(max_side=5))
def test_paste_then_export_equals_the_source(
    server: EmbeddedHandle, conn: Connection, tmp_path: Path, suffix: str, source: BlockGrid
) -> None:
    path = tmp_path / f"source{suffix}"
    write_schematic(source, path)
    grid = read_schematic(path).grid
    at = free_spot()
    plan = operations.paste(conn, grid, at)
    assert plan.commands <= grid.volume + len(grid.block_entities)
    exported = export_of(conn, grid, at)
    assert exported.same_blocks(source)
    assert_signs(server, source, at)
    # and the export survives its own file round trip
    write_schematic(exported, tmp_path / "export.schem")
    assert read_schematic(tmp_path / "export.schem").grid.same_blocks(source)


def test_rotated_paste_turns_blocks_and_positions(server: EmbeddedHandle, conn: Connection) -> None:
    grid = BlockGrid.filled(4, 3, 2, 98)
    grid.set(1, 1, 0, 76, 4)  # red torch pointing north, hanging on the wall behind it (z+1)
    grid.set_sign(2, 1, 0, 68, 2, ["north", "", "", ""])
    grid.set(3, 2, 1, 53, 0)  # stairs facing east
    turned, report = operations.rotate(grid, 90)
    assert not report
    assert turned.size == (2, 3, 4)
    assert turned.get(1, 1, 1) == (76, 1)  # now pointing east
    assert turned.get(1, 1, 2) == (68, 5)  # sign faces east
    assert turned.get(0, 2, 3) == (53, 2)  # stairs face south
    at = free_spot()
    operations.paste(conn, turned, at)
    assert export_of(conn, turned, at).same_blocks(turned)
    assert server.sign_lines(at[0] + 1, at[1] + 1, at[2] + 2) == ("north", " ", " ", " ")
    full, _ = operations.rotate(turned, 270)
    assert full.same_blocks(grid)


def arena_like() -> BlockGrid:
    """A small booth: floor, walls, wool wall slots (air), torches, signs, a glass window."""
    grid = BlockGrid.filled(12, 6, 10, 0)
    grid.fill((0, 0, 0), (11, 0, 9), 43, 8)
    grid.fill((0, 1, 9), (11, 5, 9), 98)
    grid.fill((0, 1, 0), (0, 5, 9), 98)
    grid.fill((3, 3, 9), (8, 4, 9), 95, 8)
    grid.fill((2, 1, 8), (6, 1, 8), 35, 0)  # white wool display row
    for x in range(2, 7):
        grid.set(x, 3, 8, 76, 4)
    grid.set_sign(1, 2, 8, 68, 2, ["Seat 1", "", "", ""])
    return grid


def test_repair_reads_in_one_round_trip_and_touches_only_changed_blocks(
    server: EmbeddedHandle, conn: Connection
) -> None:
    grid = arena_like()
    at = free_spot()
    operations.paste(conn, grid, at)
    clean = operations.repair(conn, grid, at)
    assert clean.diff.count == 0 and clean.plan.commands == 0
    assert clean.diff.read.round_trips == 1  # ids and data in one pipelined write

    ax, ay, az = at
    server.set_block(ax + 3, ay + 1, az + 8, 35, 14)  # wool recoloured: same id, new data
    server.set_block(ax + 4, ay + 3, az + 8, 0)  # a torch knocked off
    server.set_block(ax + 5, ay + 3, az + 8, 76, 1)  # a torch turned
    server.set_block(ax + 6, ay + 2, az + 5, 35, 4)  # wool placed in the open
    server.set_block(ax + 1, ay + 2, az + 8, 0)  # the sign broken
    before = conn.stats.snapshot()
    fixed = operations.repair(conn, grid, at)
    used = conn.stats - before
    assert fixed.diff.count == 5
    # the two torches (knocked off, turned) are neighbours: one box puts both right
    assert fixed.plan.commands == 4
    assert used.commands == fixed.diff.read.commands + fixed.plan.commands
    assert export_of(conn, grid, at).same_blocks(grid)
    assert server.sign_lines(ax + 1, ay + 2, az + 8) == ("Seat 1", " ", " ", " ")
    again = operations.repair(conn, grid, at)
    assert again.diff.count == 0 and again.plan.commands == 0


def test_lit_and_unlit_torches_count_as_the_same_block(server: EmbeddedHandle, conn: Connection) -> None:
    grid = arena_like()
    at = free_spot()
    operations.paste(conn, grid, at)
    server.set_block(at[0] + 2, at[1] + 3, at[2] + 8, 75, 4)  # the game turned it off
    assert diff_world(conn, grid, at).count == 0


def test_large_reads_fetch_data_only_where_the_id_matches(server: EmbeddedHandle, conn: Connection) -> None:
    grid = arena_like()
    at = free_spot()
    operations.paste(conn, grid, at)
    server.set_block(at[0] + 2, at[1] + 1, at[2] + 8, 1)  # wool -> stone: id differs
    server.set_block(at[0] + 3, at[1] + 1, at[2] + 8, 35, 5)  # wool recoloured
    found = diff_world(conn, grid, at, per_tick=4)  # too small for the one-write path
    assert found.count == 2
    data_bearing = int(np.isin(grid.ids, [35, 43, 68, 76, 95, 98]).sum())
    chunks = found.read.commands - (data_bearing - 1)
    assert chunks == 1  # one getBlocks, then data for all but the stone cell
    assert found.read.round_trips == 1 + -(-(data_bearing - 1) // 4)
    assert {(key >> 4, key & 15) for _, key, _ in found.cells()} == {(35, 0)}


def test_a_repair_too_big_to_read_in_one_tick_rewrites_unread_cells(server: EmbeddedHandle, conn: Connection) -> None:
    grid = arena_like()
    at = free_spot()
    operations.paste(conn, grid, at)
    ax, ay, az = at
    server.set_block(ax + 4, ay + 1, az + 8, 35, 11)  # data-only change: not read here
    server.set_block(ax + 6, ay + 2, az + 5, 35, 4)  # id change: seen by getBlocks
    server.set_block(ax + 3, ay + 3, az + 8, 75, 4)  # the game turned a torch off
    result = operations.repair(conn, grid, at, per_tick=40)
    torches = 5
    assert result.diff.read.commands == 1 + torches  # ids, then only the switching blocks
    assert result.diff.read.round_trips == 1
    assert result.diff.count == 1
    assert result.diff.unverified_count == int(np.isin(grid.ids, [35, 43, 68, 95, 98]).sum())
    assert result.plan.commands < 20  # the unverified cells go out as a few boxes
    torch_at = (ax + 3, ay + 3, az + 8)
    assert server.get_block(*torch_at) == (75, 4)  # left as the game set it
    server.set_block(*torch_at, 76, 4)
    assert export_of(conn, grid, at).same_blocks(grid)


def test_export_reads_data_only_for_ids_that_need_it(conn: Connection) -> None:
    grid = BlockGrid.filled(3, 2, 3, 20)  # glass: one state only
    grid.set(1, 1, 1, 35, 9)
    at = free_spot()
    operations.paste(conn, grid, at)
    before = conn.stats.snapshot()
    exported = export_of(conn, grid, at)
    assert exported.same_blocks(grid)
    assert (conn.stats - before).commands == 2  # one getBlocks, one getBlockWithData


def test_a_failing_command_is_named(conn: Connection) -> None:
    grid = BlockGrid(np.array([[[key_of(254)]]], dtype=np.uint16))  # no such block in 1.12
    from mcbridge.world.errors import CommandFailed
    from worldgen.errors import PasteIncomplete

    with pytest.raises(PasteIncomplete, match=r"world\.setBlock\(.*,254,0\)") as caught:
        operations.paste(conn, grid, free_spot())
    assert isinstance(caught.value.cause, CommandFailed)
    assert caught.value.counts()["missing_commands"] == 1
