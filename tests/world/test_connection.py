"""The connection against a real RaspberryJuice server (the embedded world, and server/
when it can run): mcpi calls, pipelined batches, `Fail` attribution, staying in step."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from mcpi import minecraft as mcpi_minecraft
from mcpi.connection import RequestError
from mcpi.vec3 import Vec3

from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.connection import Connection, Minecraft
from mcbridge.world.driver import ServerHandle, SimPlayer
from mcbridge.world.errors import CommandFailed
from mcbridge.world.geometry import Cuboid, Pos
from mcbridge.world.pipeline import Reply

BAD_ID = 4000  # no such block: RaspberryJuice throws, the setter answers a stray Fail
NO_ENTITY = 987_654


@pytest.fixture
def conn(rj_server: ServerHandle) -> Iterator[Minecraft]:
    with Minecraft.create(rj_server.host, rj_server.port, reply_timeout=10) as mc:
        yield mc


def test_stock_mcpi_calls_work_on_our_connection(conn: Minecraft, spot: tuple[int, int, int]) -> None:
    x, y, z = spot
    assert isinstance(conn, mcpi_minecraft.Minecraft)
    conn.setBlock(x, y, z, 35, 14)
    conn.setBlocks(x + 1, y, z, x + 2, y + 1, z, blocks.GLASS)
    assert conn.getBlock(x, y, z) == 35
    assert conn.getBlockWithData(Vec3(x, y, z)) == Block(35, 14)
    assert conn.getBlocks(x, y, z, x + 2, y, z) == [35, 20, 20]
    assert conn.events.pollBlockHits() == []
    conn.postToChat("hello from the tests")
    conn.events.clearAll()
    # RJ's heightmap answer: the first free y above the column's highest block (the wool).
    assert conn.getHeight(x, z) == y + 1
    assert conn.getHeight(x + 3, z) == y  # untouched ground: the first air block


def test_a_batch_is_one_round_trip_with_replies_in_order(
    conn: Minecraft, spot: tuple[int, int, int]
) -> None:
    x, y, z = spot
    rng = random.Random(3)
    walls = {
        Pos(x + i, y + h, z + w): blocks.wool(rng.randrange(16))
        for i in range(4)
        for h in range(2)
        for w in range(5)
    }
    with conn.batch() as batch:
        for pos, block in walls.items():
            batch.set_block(pos, block)
    before = conn.conn.stats.snapshot()
    with conn.batch() as batch:
        read = {pos: batch.get_block_with_data(pos) for pos in walls}
        ids = batch.get_blocks(Cuboid((x, y, z), (x + 3, y + 1, z + 4)))
    spent = conn.conn.stats - before
    assert {pos: r.result() for pos, r in read.items()} == walls
    assert ids.result() == [walls[p].id for p in Cuboid((x, y, z), (x + 3, y + 1, z + 4))]
    # A marker between each two reads and one closing fence: a dropped or duplicated line
    # is caught at the next slot, and the values count only once the closing fence came.
    assert (spent.round_trips, spent.writes, spent.commands, spent.fences) == (1, 1, 41, 41)


def test_get_blocks_follows_the_cuboid_order(conn: Minecraft, spot: tuple[int, int, int]) -> None:
    x, y, z = spot
    cuboid = Cuboid((x + 2, y + 1, z + 1), (x, y, z))
    palette = [blocks.wool(c) for c in range(16)]
    with conn.batch() as batch:
        for i, pos in enumerate(cuboid):
            batch.set_block(pos, palette[i % 16].with_data(0) if i % 2 else palette[i % 16])
        ids = batch.get_blocks(cuboid)
        data = [batch.get_block_with_data(cuboid.at(i)) for i in range(cuboid.volume)]
    assert len(ids.result()) == cuboid.volume == 12
    assert ids.result() == [d.result().id for d in data]


def test_failing_setters_are_named_exactly_and_queries_keep_their_answers(
    conn: Minecraft, spot: tuple[int, int, int]
) -> None:
    x, y, z = spot
    batch = conn.batch()
    ok1 = batch.set_block((x, y, z), blocks.wool("red"))
    bad1 = batch.set_block((x + 1, y, z), BAD_ID)
    read1 = batch.get_block_with_data((x, y, z))
    bad2 = batch.set_entity_tile(NO_ENTITY, (x, y, z))
    ok2 = batch.set_block((x + 2, y, z), blocks.wool("blue"))
    read2 = batch.get_block_with_data((x + 2, y, z))
    with pytest.raises(CommandFailed) as caught:
        batch.flush()
    failed = caught.value.all()
    assert [f.command for f in failed] == [
        f"world.setBlock({x + 1},{y},{z},{BAD_ID},0)",
        f"entity.setTile({NO_ENTITY},{x},{y},{z})",
    ]
    assert [f.index for f in failed] == [1, 3]
    assert isinstance(caught.value, RequestError)  # mcpi code that catches RequestError still works
    assert ok1.ok and ok2.ok and not bad1.ok and not bad2.ok
    assert read1.result() == blocks.wool("red") and read2.result() == blocks.wool("blue")
    assert conn.getBlockWithData(x + 2, y, z) == blocks.wool("blue")  # still in step


def test_sparse_fences_name_the_segment(conn: Minecraft, spot: tuple[int, int, int]) -> None:
    x, y, z = spot
    batch = conn.batch(fence_every=4)
    for i in range(8):
        batch.set_block((x + i, y, z), BAD_ID if i == 5 else 1)
    with pytest.raises(CommandFailed) as caught:
        batch.flush()
    error = caught.value
    assert not error.exact and error.failed_count == 1
    assert error.commands == tuple(
        f"world.setBlock({x + i},{y},{z},{BAD_ID if i == 5 else 1},0)" for i in range(4, 8)
    )
    assert "fence_every=1" in str(error)
    assert conn.getBlock(x + 7, y, z) == 1


def test_a_fire_and_forget_failure_surfaces_at_the_next_wait(
    conn: Minecraft, spot: tuple[int, int, int]
) -> None:
    x, y, z = spot
    conn.setBlock(x, y, z, BAD_ID)
    conn.setBlock(x + 1, y, z, 1)
    with pytest.raises(CommandFailed) as caught:
        conn.getBlock(x + 1, y, z)
    assert caught.value.command == f"world.setBlock({x},{y},{z},{BAD_ID})"
    assert conn.getBlock(x + 1, y, z) == 1
    conn.conn.sync()  # nothing left to confirm


def test_a_flood_of_fire_and_forget_setters_is_confirmed_without_piling_up(
    conn: Minecraft, spot: tuple[int, int, int]
) -> None:
    x, y, z = spot
    for i in range(3000):
        conn.setBlock(x + i % 8, y + 1, z + i // 8 % 8, 35, i % 16)
    conn.setBlock(x, y + 2, z, BAD_ID)
    with pytest.raises(CommandFailed, match=str(BAD_ID)):
        conn.conn.sync()
    assert conn.conn.stats.replies >= 3001
    assert conn.getBlockWithData(x + 7, y + 1, z + 2999 // 8 % 8) == Block(35, 2999 % 16)


def test_get_name_of_an_unknown_entity_fails_fast_instead_of_hanging(
    conn: Minecraft, join: Callable[[str], SimPlayer]
) -> None:
    alice = join("alice")
    with pytest.raises(CommandFailed, match="silent"):
        conn.entity.getName(NO_ENTITY)
    assert conn.entity.getName(alice.entity_id) == alice.name
    assert conn.conn.stats.timeouts == 0


def test_ten_thousand_mixed_commands_stay_in_step(conn: Minecraft, spot: tuple[int, int, int]) -> None:
    x, y, z = spot
    rng = random.Random(10_000)
    cells = [Pos(x + i, y + j, z + k) for i in range(8) for j in range(3) for k in range(8)]
    model = {cell: Block(0, 0) for cell in cells}
    with conn.batch() as batch:
        for cell in cells:
            batch.set_block(cell, blocks.AIR)
    batch = conn.batch()
    checks: list[tuple[Reply[Any], object]] = []
    failing: list[str] = []
    for i in range(10_000):
        cell = rng.choice(cells)
        kind = rng.random()
        if kind < 0.45:
            block = blocks.wool(rng.randrange(16))
            batch.set_block(cell, block)
            model[cell] = block
        elif kind < 0.47:
            failing.append(str(batch.set_block(cell, BAD_ID).command))
        elif kind < 0.49:
            checks.append((batch.entity_name(NO_ENTITY + i), CommandFailed))
        else:
            checks.append((batch.get_block_with_data(cell), model[cell]))
    with pytest.raises(CommandFailed) as caught:
        batch.flush()
    assert [f.command for f in caught.value.all()] == failing
    for check, expected in checks:
        if expected is CommandFailed:
            assert isinstance(check.error, CommandFailed)
        else:
            assert check.result() == expected
    assert conn.getBlocks(*cells[0], *cells[-1]) == [model[c].id for c in Cuboid(cells[0], cells[-1])]
    assert conn.conn.stats.tick_waits >= 2  # more than 9000 lines: the server needed 2+ ticks


def test_positions_are_floored(conn: Minecraft, spot: tuple[int, int, int]) -> None:
    x, y, z = spot
    with conn.batch() as batch:
        batch.set_block((x + 3.99, y + 0.5, z + 2.01), blocks.STONE)
        placed = batch.get_block((x + 3, y, z + 2))
    assert placed.result() == blocks.STONE.id
    assert conn.getBlock(x + 3.2, y + 0.9, z + 2.99) == blocks.STONE.id


def test_extensions_give_and_tell_reach_one_player(
    conn: Minecraft, join: Callable[[str], SimPlayer]
) -> None:
    bob = join("bob")
    assert {"give", "tell"} <= conn.capabilities()
    conn.give(bob.name, 35, 14, 10)
    conn.tell(bob.name, "your wool, keep it secret")
    conn.tell(bob.name, "no)\nchat.post(pwned")
    assert bob.inventory()[(35, 14)] == 10
    assert bob.private_messages()[-2:] == ["your wool, keep it secret", "no) chat.post(pwned"]
    assert not any("pwned" in line and "no)" not in line for line in bob.chat_heard())


def test_stats_count_commands_fences_and_round_trips(
    rj_server: ServerHandle, spot: tuple[int, int, int]
) -> None:
    x, y, z = spot
    with Connection(rj_server.host, rj_server.port) as raw_conn:
        batch = raw_conn.batch()
        for i in range(3):
            batch.set_block((x + i, y, z), 1)
        batch.get_block((x, y, z))
        batch.flush()
        stats = raw_conn.stats
        # A fence after each setter, then the batch's closing fence after the query.
        assert (stats.commands, stats.fences, stats.writes, stats.round_trips) == (4, 4, 1, 1)
        assert stats.replies == 5 and stats.tick_waits == 1
