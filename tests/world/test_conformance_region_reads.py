"""Conformance: `world.getBlocksWithData` (capability `blocks_with_data`), RaspberryJamMod's
region read, on both servers: ids and data of a box in one line, in getBlocks order, and
the client's reads of whole walls (`mcbridge.world.reads`) equal one read per block."""

from __future__ import annotations

from mcbridge.world.blocks import Block
from mcbridge.world.connection import Connection
from mcbridge.world.geometry import ArenaFrame, Cuboid, Facing, Pos
from mcbridge.world.reads import BLOCKS_WITH_DATA, IdCells, read_cells

WOOL = 35


def test_capabilities_list_blocks_with_data(raw):
    assert BLOCKS_WITH_DATA in raw().ask("mcbridge.capabilities()").split(",")


def test_blocks_with_data_is_y_then_x_then_z_with_data(raw, spot):
    x, y, z = spot
    client = raw()
    # a 2x2x2 cube of wool whose colour encodes its position: dy*4 + dx*2 + dz
    client.send("".join(
        f"world.setBlock({x + dx},{y + dy},{z + dz},{WOOL},{dy * 4 + dx * 2 + dz})\n"
        for dy in (0, 1) for dx in (0, 1) for dz in (0, 1)
    ))
    reply = client.ask(f"world.getBlocksWithData({x + 1},{y + 1},{z + 1},{x},{y},{z})")  # corners in any order
    assert reply == "|".join(f"{WOOL},{k}" for k in range(8))
    assert client.ask(f"world.getBlocksWithData({x},{y},{z},{x},{y},{z})") == f"{WOOL},0"


def test_blocks_with_data_fails_on_a_missing_argument(raw, spot):
    x, y, z = spot
    client = raw()
    client.send(f"world.getBlocksWithData({x},{y},{z},{x},{y})\nworld.getBlock({x},-5,{z})\n")
    assert client.lines(2) == ["Fail", "7"]


def test_wall_reads_equal_one_read_per_block(rj_server, spot):
    """A turned arena's wall (cells in reading order, not box order) read all three ways."""
    x, y, z = spot
    frame = ArenaFrame(Pos(x + 5, y, z + 1), Facing.EAST)
    wall = Cuboid(Pos(0, 0, 0), Pos(0, 1, 3))
    cells = tuple(sorted(wall, key=lambda p: (-p.y, p.x, p.z)))
    colours = {cell: Block(WOOL, k) for k, cell in enumerate(cells)}
    colours[cells[2]] = Block(0)
    with Connection(rj_server.host, rj_server.port) as conn:
        with conn.batch() as batch:
            for cell, block in colours.items():
                batch.set_block(frame.to_world(cell), block)
        with conn.batch() as batch:
            region = read_cells(batch, frame, cells, with_data=True)
            ids = read_cells(batch, frame, IdCells(cells), with_data=True)
            single = read_cells(batch, frame, cells, with_data=False)
            names = [item.command.name for item in batch.items]
    assert names == ["world.getBlocksWithData", "world.getBlocks", *["world.getBlockWithData"] * len(cells)]
    assert region.blocks() == single.blocks() == [colours[c] for c in cells]
    assert ids.blocks() == [Block(colours[c].id) for c in cells]
