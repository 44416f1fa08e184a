"""Conformance: players and the player.* / entity.* commands on players
(protocol/raspberryjuice.md §1 "Session life", §2, §2.5)."""

from __future__ import annotations

import pytest
from mcpi.connection import RequestError
from mcpi.vec3 import Vec3
from rj_support import connect_mcpi, wait_until

UNKNOWN_ID = 987654


def test_get_player_ids_fails_when_nobody_is_online(raw):
    assert raw().ask("world.getPlayerIds()") == "Fail"


def test_player_ids_and_names(mc, join):
    alice, bob = join("alice"), join("bob")
    assert set(mc.getPlayerEntityIds()) >= {alice.entity_id, bob.entity_id}
    assert mc.getPlayerEntityId(alice.name) == alice.entity_id
    assert mc.entity.getName(bob.entity_id) == bob.name
    with pytest.raises(RequestError):
        mc.getPlayerEntityId(alice.name.upper())  # exact, case-sensitive
    with pytest.raises(RequestError):
        mc.getPlayerEntityId(alice.name[:-1])  # no partial matches


def test_entity_get_name_never_answers_an_unknown_id(raw):
    client = raw()
    client.send(f"entity.getName({UNKNOWN_ID})\nworld.getBlock(0,-5,0)\n")
    assert client.line() == "7"  # the getName produced no line at all
    assert client.ask("entity.getName(x)") == "Fail"  # a bad number still fails


def test_joining_broadcasts_welcome(join):
    first = join("first")
    second = join("second")
    wait_until(lambda: f"Welcome {second.name}" in first.chat_heard(), what="welcome")
    wait_until(lambda: f"Welcome {second.name}" in second.chat_heard(), what="own welcome")


def test_player_commands_fail_when_nobody_is_online(raw):
    client = raw()
    client.send("player.getPos()\nplayer.setTile(1,2,3)\nplayer.events.chat.posts()\n")
    assert client.lines(3) == ["Fail", "Fail", "Fail"]


def test_player_tile_and_position_are_relative_to_the_origin(mc, join, spot):
    player = join("walker")
    x, y, z = spot
    mc.player.setTilePos(x, y, z)
    assert mc.player.getTilePos() == Vec3(x, y, z)
    assert mc.player.getPos() == Vec3(x, y, z)  # setTile puts the feet on the block corner
    wait_until(lambda: player.position() == (x, y, z), what="player moved")
    mc.player.setPos(x + 0.5, y, z - 0.25)
    assert mc.player.getPos() == Vec3(x + 0.5, y, z - 0.25)
    assert mc.player.getTilePos() == Vec3(x, y, z - 1)  # tiles floor


def test_player_commands_mean_the_first_player(mc, join, spot):
    first, second = join("first"), join("second")
    x, y, z = spot
    mc.entity.setTilePos(second.entity_id, x + 3, y, z)
    mc.player.setTilePos(x, y, z)
    assert mc.entity.getTilePos(first.entity_id) == Vec3(x, y, z)
    assert mc.entity.getTilePos(second.entity_id) == Vec3(x + 3, y, z)


def test_entity_commands_move_any_player(mc, join, spot):
    _, target = join("bystander"), join("target")
    x, y, z = spot
    mc.entity.setPos(target.entity_id, x + 0.5, y + 1, z + 0.5)
    assert mc.entity.getPos(target.entity_id) == Vec3(x + 0.5, y + 1, z + 0.5)
    assert mc.entity.getTilePos(target.entity_id) == Vec3(x, y + 1, z)
    wait_until(lambda: target.position() == (x + 0.5, y + 1, z + 0.5), what="teleport")


def test_rotation_pitch_and_direction(mc, join):
    player = join("looker")
    mc.player.setRotation(90)
    mc.player.setPitch(30)
    assert mc.player.getRotation() == 90.0
    assert mc.player.getPitch() == 30.0
    assert mc.entity.getPitch(player.entity_id) == 30.0
    mc.player.setPitch(0)
    mc.player.setRotation(-90)  # east: RJ's player.getRotation flips the sign
    assert mc.player.getRotation() == 90.0
    assert mc.entity.getRotation(player.entity_id) == -90.0
    direction = mc.player.getDirection()
    assert (round(direction.x, 6), round(direction.y, 6), round(direction.z, 6)) == (1, 0, 0)
    mc.player.setDirection(0, 0, 1)  # south = yaw 0
    assert mc.entity.getRotation(player.entity_id) == 0.0
    mc.player.setDirection(0, 1, 0)  # straight up
    assert mc.player.getPitch() == -90.0


def test_entity_getters_fail_for_an_unknown_id(raw):
    client = raw()
    for command in ("getTile", "getPos", "getDirection", "getRotation", "getPitch"):
        client.send(f"entity.{command}({UNKNOWN_ID})\n")
    client.send(f"entity.setTile({UNKNOWN_ID},0,0,0)\nentity.setPos({UNKNOWN_ID},0,0,0)\n")
    assert client.lines(7) == ["Fail"] * 7


def test_entity_look_setters_are_silent_for_an_unknown_id(raw):
    client = raw()
    client.send(
        f"entity.setRotation({UNKNOWN_ID},90)\nentity.setPitch({UNKNOWN_ID},9)\n"
        f"entity.setDirection({UNKNOWN_ID},1,0,0)\nentity.setRotation({UNKNOWN_ID},x)\n"
        "world.getBlock(0,-5,0)\n"
    )
    assert client.line() == "7"


def test_a_new_connection_sees_the_same_players(rj_server, join):
    player = join("seen")
    other = connect_mcpi(rj_server.host, rj_server.port)
    try:
        assert other.getPlayerEntityId(player.name) == player.entity_id
    finally:
        other.conn.socket.close()


def test_a_player_who_left_is_gone(mc, join):
    stayer, leaver = join("stayer"), join("leaver")
    leaver.leave()
    wait_until(lambda: leaver.entity_id not in mc.getPlayerEntityIds(), what="leave")
    with pytest.raises(RequestError):
        mc.getPlayerEntityId(leaver.name)
    with pytest.raises(RequestError):
        mc.entity.getPos(leaver.entity_id)
    assert mc.getPlayerEntityId(stayer.name) == stayer.entity_id
