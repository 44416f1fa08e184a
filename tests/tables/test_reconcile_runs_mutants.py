"""The reconciler's commands for shapes and scenes the first tests did not cover (issue 20,
item 1): a rectangle of one block, two unchanged parts drawing the same cell, and a private
sign whose text comes back equal in a new part.

Written for survivors of the second reconcile sample (bench/mutation.py reconcile --sample 40
--seed 2): `write_runs` sorting cells for rows along z when it looks for rows along x (a
rectangle then cost a command per column, or per cell); every cell of every unchanged part
taken as dirty (two overlapping unchanged parts then redrew their shared cell twice a cycle);
and a private sign re-sent when its lines are an equal new tuple rather than the same one.
"""

from __future__ import annotations

from test_reconcile_mutants import BOOTH, FRAME, GLASS, SIGN, STONE, WALL, WOOL, set_block, turned, world, write

from mcbridge.tables.kit import Scene
from mcbridge.tables.reconcile import Reconciler, write_runs
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import Pos


def test_a_rectangle_of_one_block_is_one_set_blocks_per_row_along_x() -> None:
    batch = Batch()
    cells = [(Pos(x, 4, z), WOOL) for z in (7, 8) for x in (1, 2, 3)]
    assert write_runs(batch, cells) == 2
    assert [str(item.command) for item in batch.items] == [
        "world.setBlocks(1,4,7,3,4,7,35,14)",
        "world.setBlocks(1,4,8,3,4,8,35,14)",
    ]


def test_columns_along_z_are_one_set_blocks_each_when_no_row_along_x_is_longer() -> None:
    batch = Batch()
    cells = [(Pos(x, 4, z), WOOL) for x in (1, 3) for z in (5, 6, 7)]  # x = 1 and 3: no row along x
    assert write_runs(batch, cells) == 2
    assert [str(item.command) for item in batch.items] == [
        "world.setBlocks(1,4,5,1,4,7,35,14)",
        "world.setBlocks(3,4,5,3,4,7,35,14)",
    ]


def test_two_unchanged_parts_drawing_one_cell_cost_nothing_when_another_part_changes() -> None:
    rec = Reconciler(FRAME)
    under, over = Scene(blocks={Pos(0, 0, 0): STONE}), Scene(blocks={Pos(0, 0, 0): GLASS})
    write(rec, Scene.of_parts([under, over, Scene(blocks={Pos(5, 0, 0): WOOL})]))
    changed = Scene(blocks={Pos(5, 0, 0): STONE})
    assert write(rec, Scene.of_parts([under, over, changed]))[1] == [set_block(Pos(5, 0, 0), STONE)]


def test_a_private_sign_with_equal_lines_in_a_new_part_is_not_sent_again() -> None:
    rec = Reconciler(FRAME, WALL, [BOOTH])
    cell, sign = Pos(0, 1, 2), Pos(1, 0, 0)

    def hand(block: Block) -> Scene:
        lines = ("3 red", *[""] * 3)  # built anew at each render, as a kit does
        return Scene(blocks={cell: block, sign: SIGN}, signs={sign: lines}, booth=0)

    write(rec, Scene.of_parts([hand(WOOL)]), ["Alice"])
    assert write(rec, Scene.of_parts([hand(GLASS)]), ["Alice"])[1] == [
        f"mcbridge.private.setBlock(Alice,{world(cell)},{turned(GLASS)})"
    ]
