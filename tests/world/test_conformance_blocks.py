"""Conformance: block commands (protocol/raspberryjuice.md §2, §2.1, §2.4)."""

from __future__ import annotations

import pytest
from mcpi.block import Block
from rj_support import connect_mcpi

from mcbridge.world.embedded import start_embedded

WOOL, STONE, GLASS, WALL_SIGN, STANDING_SIGN = 35, 1, 20, 68, 63


def test_set_and_get_a_block_with_data(mc, spot):
    x, y, z = spot
    mc.setBlock(x, y, z, WOOL, 14)
    assert mc.getBlock(x, y, z) == WOOL
    assert mc.getBlockWithData(x, y, z) == Block(WOOL, 14)
    mc.setBlock(x, y, z, WOOL)  # data defaults to 0
    assert mc.getBlockWithData(x, y, z) == Block(WOOL, 0)


def test_mcpi_floors_float_coordinates(mc, spot):
    x, y, z = spot
    mc.setBlock(x + 0.7, y + 0.2, z + 0.9, STONE)
    assert mc.getBlock(x, y, z) == STONE


def test_get_blocks_is_y_then_x_then_z_with_ids_only(mc, spot):
    x, y, z = spot
    # A 2x2x2 cube where every block's id encodes its position: 1 + dy*4 + dx*2 + dz
    # (ids 1..8; 2 is grass and 3 dirt, both fine), wool data to prove data is dropped.
    for dy in (0, 1):
        for dx in (0, 1):
            for dz in (0, 1):
                mc.setBlock(x + dx, y + dy, z + dz, 1 + dy * 4 + dx * 2 + dz, 0)
    mc.setBlock(x + 1, y + 1, z + 1, WOOL, 5)
    ids = list(mc.getBlocks(x + 1, y + 1, z + 1, x, y, z))  # corners in any order
    assert ids == [1, 2, 3, 4, 5, 6, 7, WOOL]


def test_get_blocks_of_one_block(mc, spot):
    x, y, z = spot
    mc.setBlock(x, y, z, GLASS)
    assert list(mc.getBlocks(x, y, z, x, y, z)) == [GLASS]


def test_set_blocks_normalises_corners_and_fills_inclusively(mc, spot):
    x, y, z = spot
    mc.setBlocks(x + 2, y + 1, z, x, y, z + 2, WOOL, 11)
    assert set(mc.getBlocks(x, y, z, x + 2, y + 1, z + 2)) == {WOOL}
    assert mc.getBlockWithData(x + 2, y + 1, z + 2) == Block(WOOL, 11)
    assert mc.getBlock(x + 3, y, z) == 0  # nothing outside
    assert mc.getBlock(x, y + 2, z) == 0


@pytest.mark.parametrize("block_id", [253, 254, 256, 4096, -1])
def test_unknown_block_ids_fail(raw, spot, block_id):
    x, y, z = spot
    client = raw()
    client.send(
        f"world.setBlock({x},{y},{z},{block_id})\n"
        f"world.setBlocks({x},{y},{z},{x + 1},{y},{z},{block_id})\n"
        f"world.setSign({x},{y},{z},{block_id},0,text)\n"
        f"world.getBlock({x},{y},{z})\n"
    )
    assert client.lines(4) == ["Fail", "Fail", "Fail", "0"]


def test_the_highest_block_id_exists(mc, spot):
    x, y, z = spot
    mc.setBlock(x, y, z, 255)  # structure block
    assert mc.getBlock(x, y, z) == 255


def test_get_height_is_the_first_free_y_and_sees_through_glass(mc, spot):
    x, _, z = spot
    assert mc.getHeight(x, z) == 0  # flat world: first free y is the spawn level
    mc.setBlocks(x, 0, z, x, 2, z, STONE)
    assert mc.getHeight(x, z) == 3
    mc.setBlock(x, 3, z, GLASS)  # light passes: the heightmap ignores it
    assert mc.getHeight(x, z) == 3
    assert mc.getHeight(x + 0.5, z + 0.5) == 3


def test_outside_the_world_height_reads_air_and_writes_are_ignored(raw, spot):
    x, _, z = spot
    client = raw()
    client.send(
        f"world.setBlock({x},300,{z},1)\n"
        f"world.getBlock({x},300,{z})\n"
        f"world.getBlock({x},-6,{z})\n"  # y = -1 absolute
        f"world.getBlocks({x},-7,{z},{x},-4,{z})\n"
    )
    assert client.lines(3) == ["0", "0", "0,0,7,3"]


def test_set_sign_places_the_block(mc, spot):
    x, y, z = spot
    mc.setBlock(x, y, z + 1, STONE)  # support behind a north-facing wall sign
    mc.setSign(x, y, z, WALL_SIGN, 2, "Hello", "world")
    assert mc.getBlockWithData(x, y, z) == Block(WALL_SIGN, 2)
    mc.setSign(x, y, z + 3, STANDING_SIGN, 8)
    assert mc.getBlockWithData(x, y, z + 3) == Block(STANDING_SIGN, 8)


def _sign_reader(server):
    reader = getattr(server, "sign_lines", None)
    if reader is None:
        pytest.skip("the server handle has no sign_lines(): no RJ command reads sign text")
    return reader


def test_set_sign_text_semantics(rj_server, mc, spot):
    sign_lines = _sign_reader(rj_server)
    x, y, z = spot
    mc.setBlock(x, y, z + 1, STONE)
    mc.setSign(x, y, z, WALL_SIGN, 2, "one", "two", "three", "four", "five")
    mc.getBlock(x, y, z)  # fence: the setters ran
    assert sign_lines(x, y, z) == ("one", "two", "three", "four")  # a fifth line is ignored
    mc.setSign(x, y, z, WALL_SIGN, 2, "ONE")  # omitted lines keep their old text
    mc.getBlock(x, y, z)
    assert sign_lines(x, y, z) == ("ONE", "two", "three", "four")
    mc.setSign(x, y, z, WALL_SIGN, 2, "", "TWO", "", "")  # Java's split drops trailing ""
    mc.getBlock(x, y, z)
    assert sign_lines(x, y, z) == ("", "TWO", "three", "four")
    mc.setSign(x, y, z, WALL_SIGN, 2, "a,b (c)")  # mcpi rewrites , ( ) in sign text
    mc.getBlock(x, y, z)
    assert sign_lines(x, y, z)[0] == "a;b [c]"


def test_sign_text_survives_an_equal_set_block_and_dies_with_the_sign(rj_server, mc, spot):
    sign_lines = _sign_reader(rj_server)
    x, y, z = spot
    mc.setSign(x, y, z, STANDING_SIGN, 0, "kept")
    mc.setBlock(x, y, z, STANDING_SIGN, 0)  # same id and data: skipped
    mc.getBlock(x, y, z)
    assert sign_lines(x, y, z) == ("kept", "", "", "")
    mc.setBlock(x, y, z, STONE)
    mc.setSign(x, y, z, STANDING_SIGN, 0)
    mc.getBlock(x, y, z)
    assert sign_lines(x, y, z) == ("", "", "", "")


def test_set_sign_on_a_non_sign_block_id_just_sets_the_block(rj_server, mc, spot):
    x, y, z = spot
    mc.setSign(x, y, z, WOOL, 3, "ignored")
    assert mc.getBlockWithData(x, y, z) == Block(WOOL, 3)
    reader = getattr(rj_server, "sign_lines", None)
    if reader is not None:
        assert reader(x, y, z) is None


def test_absolute_mode_puts_the_origin_at_zero():
    with start_embedded(tps=0, absolute=True) as server:
        mc = connect_mcpi(server.host, server.port)
        try:
            assert mc.getBlock(0, 0, 0) == 7  # bedrock is at absolute y=0
            assert mc.getBlock(0, 4, 0) == 2
            assert mc.getHeight(0, 0) == 5
        finally:
            mc.conn.socket.close()


def test_the_world_is_superflat(mc):
    assert list(mc.getBlocks(3, -5, 3, 3, 0, 3)) == [7, 3, 3, 3, 2, 0]
