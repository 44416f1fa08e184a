"""Conformance: private blocks (`private`) and placement attribution (`placements`) on both
servers (wire format: mcbridge/world/embedded/private.py, server/README.md).

A player's view is read the way its client has it: the embedded simulator's `seen_block` /
`seen_sign`, and on flying-squid a mineflayer bot's chunk data (`bot.blockAt`, sign text
from block entities). The world itself -- every `world.getBlock` -- keeps the neutral block.
"""

from __future__ import annotations

import asyncio

import pytest
from conn_support import ScriptedServer
from rj_support import wait_until

from mcbridge.world.aconnection import AsyncConnection
from mcbridge.world.blocks import Block
from mcbridge.world.commands import BlockChange
from mcbridge.world.connection import Connection, Minecraft
from mcbridge.world.driver import SimPlayer
from mcbridge.world.errors import CommandFailed, Unsupported
from mcbridge.world.geometry import Cuboid, Pos

STONE_BRICK, WOOL, RED, BLUE, WALL_SIGN, SIGN_SOUTH = 98, 35, 14, 11, 68, 3
TORCH, STONE, DIAMOND_SWORD = 50, 1, 276


@pytest.fixture
def conn(rj_server):
    with Connection(rj_server.host, rj_server.port) as connection:
        yield connection


def bring(conn: Connection, spot: tuple[int, int, int], *players: SimPlayer) -> None:
    """Teleport players next to `spot` and wait until their clients have the chunk there
    (a bot's client only has the chunks around it)."""
    x, y, z = spot
    for player in players:
        with conn.batch() as batch:
            batch.set_entity_tile(player.entity_id, (x, y, z + 3))
        wait_until(lambda p=player: p.seen_block(x, y - 1, z) is not None, what="the chunk")


def test_capabilities_list_private_and_placements(raw):
    assert {"private", "placements"} <= set(raw().ask("mcbridge.capabilities()").split(","))


def test_only_the_owner_sees_a_private_block_and_sign(conn, join, spot):
    owner, other = join("owner"), join("other")
    bring(conn, spot, owner, other)
    x, y, z = spot
    with conn.batch() as batch:
        batch.set_block((x, y + 1, z), STONE_BRICK)  # the neutral block everyone sees
        batch.set_sign((x + 1, y + 1, z), (WALL_SIGN, SIGN_SOUTH), ["", "", "", ""])
        batch.private_set_block(owner.name, (x, y + 1, z), (WOOL, RED))
        batch.private_set_sign(owner.name, (x + 1, y + 1, z), (WALL_SIGN, SIGN_SOUTH), ["RED 3"])
        world_block = batch.get_block_with_data((x, y + 1, z))
    assert world_block.result() == Block(STONE_BRICK, 0)
    wait_until(lambda: owner.seen_block(x, y + 1, z) == (WOOL, RED), what="the owner's wool")
    wait_until(
        lambda: owner.seen_sign(x + 1, y + 1, z) == ("RED 3", "", "", ""), what="the owner's sign"
    )
    assert other.seen_block(x, y + 1, z) == (STONE_BRICK, 0)
    assert other.seen_sign(x + 1, y + 1, z) == ("", "", "", "")


def test_a_private_sign_keeps_lines_not_given_and_clear_shows_the_world_again(conn, join, spot):
    owner = join("clearer")
    bring(conn, spot, owner)
    x, y, z = spot
    with conn.batch() as batch:
        batch.set_blocks((x, y, z), (x + 2, y, z), STONE_BRICK)
        batch.private_set_sign(owner.name, (x, y, z), (WALL_SIGN, SIGN_SOUTH), ["a", "b"])
        batch.command("mcbridge.private.setSign", owner.name, x, y, z, WALL_SIGN, SIGN_SOUTH, "c")
        batch.private_set_block(owner.name, (x + 1, y, z), (WOOL, BLUE))
        batch.private_set_block(owner.name, (x + 2, y, z), (WOOL, RED))
    wait_until(lambda: owner.seen_sign(x, y, z) == ("c", "b", "", ""), what="kept lines")
    with conn.batch() as batch:
        batch.private_clear(owner.name, Cuboid((x, y, z), (x + 1, y, z)))
    wait_until(lambda: owner.seen_block(x + 1, y, z) == (STONE_BRICK, 0), what="cleared block")
    assert owner.seen_block(x, y, z) == (STONE_BRICK, 0)
    assert owner.seen_sign(x, y, z) is None
    assert owner.seen_block(x + 2, y, z) == (WOOL, RED)  # outside the cleared cuboid
    with conn.batch() as batch:
        batch.private_clear(owner.name)
    wait_until(lambda: owner.seen_block(x + 2, y, z) == (STONE_BRICK, 0), what="all cleared")


def test_private_blocks_wait_for_their_owner_to_join(conn, rj_server, spot):
    x, y, z = spot
    name = f"later{spot[0] + 100}{spot[2]}"[:16]
    with conn.batch() as batch:
        batch.set_block((x, y, z), STONE_BRICK)
        batch.private_set_block(name, (x, y, z), (WOOL, RED))
    player = rj_server.players.join(name)
    try:
        bring(conn, spot, player)
        wait_until(lambda: player.seen_block(x, y, z) == (WOOL, RED), what="wool on join")
    finally:
        player.leave()


def test_bad_private_requests_fail_and_change_nothing(raw, conn, join, spot):
    player = join("refused")
    bring(conn, spot, player)
    x, y, z = spot
    client = raw()
    client.send(
        f"mcbridge.private.setBlock(Aki-1,{x},{y},{z},{WOOL})\n"  # not a player name
        f"mcbridge.private.setBlock({'a' * 17},{x},{y},{z},{WOOL})\n"  # too long
        f"mcbridge.private.setBlock({player.name},{x},{y},{z},9999)\n"  # no such block
        f"mcbridge.private.setBlock({player.name},{x},{y})\n"  # missing arguments
        f"mcbridge.private.setSign({player.name},{x},{y},{z},{WOOL},0,text)\n"  # no sign
        f"mcbridge.private.clear()\n"
        f"world.getBlock({x},{y},{z})\n"
    )
    assert client.lines(7) == ["Fail"] * 6 + ["0"]
    assert player.seen_block(x, y, z) == (0, 0)


def test_placements_and_breaks_name_the_player(conn, join, spot):
    placer = join("placer")
    x, y, z = spot
    with conn.batch() as batch:
        batch.set_block((x, y, z), STONE)
        batch.set_block((x + 1, y, z), TORCH, 5)  # a standing torch
        batch.poll_placed()
        batch.poll_broken()
    bring(conn, spot, placer)
    placer.hold(WOOL, RED)
    placer.place(x, y + 1, z, WOOL, RED)
    placer.break_block(x + 1, y, z)
    placed = wait_until(conn_poll(conn, "placed"), what="a placement record")
    broken = wait_until(conn_poll(conn, "broken"), what="a break record")
    assert placed == [BlockChange(placer.entity_id, Pos(x, y + 1, z), Block(WOOL, RED))]
    assert broken == [BlockChange(placer.entity_id, Pos(x + 1, y, z), Block(TORCH, 5))]
    # The controller's own writes are nobody's placements.
    with conn.batch() as batch:
        batch.set_block((x + 2, y, z), WOOL, BLUE)
        batch.set_block((x + 2, y, z), 0)
        again = batch.poll_placed(), batch.poll_broken()
    assert [reply.result() for reply in again] == [[], []]


def conn_poll(conn: Connection, kind: str):
    def poll() -> list[BlockChange]:
        with conn.batch() as batch:
            reply = batch.poll_placed() if kind == "placed" else batch.poll_broken()
        return reply.result()

    return poll


def test_events_clear_also_empties_the_placement_queues(raw, conn, join, spot):
    placer = join("cleared")
    x, y, z = spot
    cleared, kept = raw(), raw()
    cleared.send(f"world.setBlock({x},{y},{z},{STONE})\n")
    bring(conn, spot, placer)
    placer.hold(WOOL, RED)
    placer.place(x, y + 1, z, WOOL, RED)
    wait_until(lambda: cleared.ask(f"world.getBlock({x},{y + 1},{z})") == str(WOOL))
    assert cleared.ask("events.clear()\nmcbridge.events.block.placed()") == ""
    record = f"{placer.entity_id},{x},{y + 1},{z},{WOOL},{RED}"
    assert kept.ask("mcbridge.events.block.placed()") == record


def test_the_client_refuses_names_that_are_not_exact_player_names(conn):
    with pytest.raises(ValueError, match="not a player name"):
        conn.batch().private_set_block("Aki\u202e", (0, 0, 0), STONE)
    with pytest.raises(ValueError, match="not a player name"):
        conn.batch().private_clear("Aki,x")


def test_a_failed_private_setter_names_its_command(conn):
    batch = conn.batch()
    batch.private_set_sign("nobody", (0, 0, 0), (WOOL, 0), ["x"])
    with pytest.raises(CommandFailed, match=r"mcbridge\.private\.setSign"):
        batch.flush()


def test_servers_without_the_extensions_get_unsupported_before_anything_is_sent() -> None:
    def respond(line: str) -> list[str]:  # an older mcbridge server: give and tell only
        return ["give,tell"] if line == "mcbridge.capabilities()" else []

    with ScriptedServer(respond) as server, Minecraft.create(server.host, server.port) as mc:
        with pytest.raises(Unsupported, match="private blocks"):
            mc.private_set_block("bob", 1, 2, 3, WOOL, RED)
        with pytest.raises(Unsupported, match="private blocks"):
            mc.private_set_sign("bob", 1, 2, 3, WALL_SIGN, SIGN_SOUTH, "hand")
        with pytest.raises(Unsupported, match="placement events"):
            mc.placed_blocks()
        with pytest.raises(Unsupported, match="placement events"):
            mc.broken_blocks()
        mc.conn.sync()
    assert not any(line.startswith("mcbridge.private") for line in server.received)
    assert not any(line.startswith("mcbridge.events") for line in server.received)


def test_a_sword_click_on_a_private_block_is_a_hit_for_its_owner_only(conn, join, spot):
    owner, other = join("clicker"), join("bystander")
    bring(conn, spot, owner, other)
    x, y, z = spot
    with conn.batch() as batch:  # the world has air at x,y+1,z; only the owner sees a sign
        batch.private_set_sign(owner.name, (x, y + 1, z), (63, 0), ["click me"])
        batch.clear_events()
    wait_until(lambda: owner.seen_sign(x, y + 1, z) == ("click me", "", "", ""), what="the sign")
    for player in (other, owner):
        player.hold(DIAMOND_SWORD)
        player.right_click(x, y + 1, z)
    hits = wait_until(lambda: conn_hits(conn), what="the owner's hit")
    assert [(hit.pos.x, hit.pos.y, hit.pos.z, hit.entityId) for hit in hits] == [
        (x, y + 1, z, owner.entity_id)
    ]


def conn_hits(conn: Connection) -> list:
    with conn.batch() as batch:
        reply = batch.poll_block_hits()
    return reply.result()


def test_private_blocks_are_capped_per_player(embedded, monkeypatch):
    from mcbridge.world.embedded import overlays

    monkeypatch.setattr(overlays, "MAX_PER_PLAYER", 2)
    with Connection(embedded.host, embedded.port) as connection:
        batch = connection.batch()
        for x in range(3):
            batch.private_set_block("capped", (x, 0, 0), STONE)
        batch.private_set_block("capped", (0, 0, 0), WOOL)  # replacing one is fine
        with pytest.raises(CommandFailed) as failed:
            batch.flush()
    assert [error.index for error in failed.value.all()] == [2]


def test_the_asyncio_connection_has_the_same_methods(embedded):
    owner = embedded.players.join("asyncowner")

    async def draw() -> list[BlockChange]:
        aconn = await AsyncConnection.open(embedded.host, embedded.port)
        async with aconn, aconn.batch() as batch:
            batch.private_set_block(owner.name, (0, 0, 0), (WOOL, BLUE))
            placed = batch.poll_placed()
        return placed.result()

    assert asyncio.run(asyncio.wait_for(draw(), 30)) == []
    assert owner.seen_block(0, 0, 0) == (WOOL, BLUE)
