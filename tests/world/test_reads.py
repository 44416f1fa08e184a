"""`reads.read_cells`: which command reads which set of cells, and what a failed read gives."""

from __future__ import annotations

from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.errors import CommandFailed
from mcbridge.world.geometry import ArenaFrame, Cuboid, Facing, Pos
from mcbridge.world.reads import AIR, IdCells, read_cells

FRAME = ArenaFrame(Pos(10, 0, 10), Facing.WEST)
WALL = tuple(sorted(Cuboid(Pos(0, 0, 0), Pos(2, 1, 0)), key=lambda p: (-p.y, p.x, p.z)))


def names(cells: tuple[Pos, ...], with_data: bool) -> list[str]:
    batch = Batch()
    read_cells(batch, FRAME, cells, with_data=with_data)
    return [str(item.command) for item in batch.items]


def test_a_box_is_one_region_read_in_world_coordinates() -> None:
    box = FRAME.cuboid_to_world(Cuboid(Pos(0, 0, 0), Pos(2, 1, 0)))
    args = ",".join(map(str, box.args()))
    assert names(WALL, with_data=True) == [f"world.getBlocksWithData({args})"]
    assert names(IdCells(WALL), with_data=False) == [f"world.getBlocks({args})"]
    assert names(IdCells(WALL), with_data=True) == [f"world.getBlocks({args})"]


def test_what_is_no_box_or_has_no_region_read_is_read_block_by_block() -> None:
    holey = (*WALL[:2], *WALL[3:])  # a box with a cell missing
    twice = (*WALL, WALL[0])
    for cells, with_data in ((WALL, False), (holey, True), (twice, True), (WALL[:1], True),
                             (IdCells(holey), True), (IdCells(WALL[:1]), True)):
        sent = names(cells, with_data)
        assert sent == [f"world.getBlockWithData({','.join(map(str, FRAME.to_world(c)))})" for c in cells]


def test_the_blocks_come_back_in_the_cells_order_and_a_failed_read_as_air() -> None:
    batch = Batch()
    region = read_cells(batch, FRAME, WALL, with_data=True)
    ids = read_cells(batch, FRAME, IdCells(WALL), with_data=True)
    single = read_cells(batch, FRAME, WALL, with_data=False)
    box = FRAME.cuboid_to_world(Cuboid(Pos(0, 0, 0), Pos(2, 1, 0)))
    truth = {c: Block(35, k) for k, c in enumerate(WALL)}
    in_box_order = [truth[FRAME.to_local(p)] for p in box]
    region_reply, ids_reply, *cell_replies = (item.reply for item in batch.items)
    region_reply._set_line("|".join(f"{b.id},{b.data}" for b in in_box_order))
    ids_reply._set_line(",".join(str(b.id) for b in in_box_order))
    for reply, cell in zip(cell_replies, WALL, strict=True):
        reply._set_line(f"{truth[cell].id},{truth[cell].data}")
    assert region.blocks() == single.blocks() == [truth[c] for c in WALL]
    assert ids.blocks() == [Block(35)] * len(WALL)
    failed = Batch()
    lost = read_cells(failed, FRAME, WALL, with_data=True)
    failed.items[0].reply._fail(CommandFailed(["world.getBlocksWithData"]))
    assert lost.blocks() == [AIR] * len(WALL)
