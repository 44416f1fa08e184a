"""The embedded world's player simulator and its thread-friendly handle."""

from __future__ import annotations

import threading

import pytest
from rj_support import connect_mcpi, wait_until

from mcbridge.world.driver import DIAMOND_SWORD, PlayerDriver, ServerHandle, SimPlayer
from mcbridge.world.embedded import WorldError, start_embedded

WOOL, STICK = 35, 280


def test_the_handle_and_players_implement_the_driver_protocols(embedded):
    assert isinstance(embedded, ServerHandle)
    assert isinstance(embedded.players, PlayerDriver)
    assert isinstance(embedded.players.join("proto"), SimPlayer)
    assert embedded.kind == "embedded" and embedded.host == "127.0.0.1" and embedded.port > 0


def test_join_rules(embedded):
    embedded.players.join("alice")
    with pytest.raises(WorldError, match="already online"):
        embedded.players.join("alice")
    for bad in ("", "x" * 17, "bad name", "semi;colon"):
        with pytest.raises(WorldError, match="not a valid player name"):
            embedded.players.join(bad)
    assert embedded.players.online() == ["alice"]


def test_a_player_joins_at_the_spawn(embedded):
    alice = embedded.players.join("alice")
    assert alice.position() == (0.5, 0.0, 0.5)
    alice.walk_to(3, 1, -2)
    assert alice.position() == (3, 1, -2)


def test_place_uses_up_the_item_and_needs_free_air(embedded):
    bob = embedded.players.join("bob")
    embedded.give("bob", WOOL, 11, 2)
    bob.place(1, 0, 1, WOOL, 11)
    assert embedded.get_block(1, 0, 1) == (WOOL, 11)
    assert bob.inventory() == {(WOOL, 11): 1}
    assert bob.held() == (WOOL, 11)
    with pytest.raises(WorldError, match="not free air"):
        bob.place(1, 0, 1, WOOL, 11)
    with pytest.raises(WorldError, match="not free air"):
        bob.place(1, -1, 1, WOOL, 11)  # grass
    bob.place(2, 0, 1, WOOL, 11)
    assert bob.inventory() == {} and bob.held() == (0, 0)
    with pytest.raises(WorldError, match="give it first"):
        bob.place(3, 0, 1, WOOL, 11)
    embedded.give("bob", STICK, 0, 1)
    with pytest.raises(WorldError, match="not a block"):
        bob.place(3, 0, 1, STICK)


def test_break_block(embedded):
    carol = embedded.players.join("carol")
    carol.break_block(0, -1, 0)
    assert embedded.get_block(0, -1, 0) == (0, 0)
    with pytest.raises(WorldError, match="Nothing breakable"):
        carol.break_block(0, -1, 0)
    with pytest.raises(WorldError, match="Nothing breakable"):
        carol.break_block(0, -5, 0)  # bedrock


def test_hold_gives_a_missing_item_once(embedded):
    dave = embedded.players.join("dave")
    dave.hold(DIAMOND_SWORD)
    dave.hold(DIAMOND_SWORD)
    assert dave.inventory() == {(DIAMOND_SWORD, 0): 1}
    dave.hold(0)  # empty hand
    assert dave.held() == (0, 0)


def test_right_click_on_air_is_not_a_hit(embedded):
    erin = embedded.players.join("erin")
    erin.hold(DIAMOND_SWORD)
    mc = connect_mcpi(embedded.host, embedded.port)
    try:
        erin.right_click(5, 3, 5)  # air
        erin.right_click(5, -1, 5)  # grass
        assert [(h.pos.x, h.pos.y, h.pos.z) for h in mc.events.pollBlockHits()] == [(5, -1, 5)]
        with pytest.raises(WorldError, match="face"):
            erin.right_click(5, -1, 5, face=6)
    finally:
        mc.conn.socket.close()


def test_chat_limits_and_what_players_hear(embedded):
    frank, gina = embedded.players.join("frank"), embedded.players.join("gina")
    frank.chat("hello")
    with pytest.raises(WorldError, match="256"):
        frank.chat("x" * 257)
    frank.chat("two\nlines\u202e\u00a7c")  # control, bidi and colour codes are stripped
    frank.chat("\r\n\u200b")  # nothing left: dropped
    assert gina.chat_heard() == ["Welcome gina", "<frank> hello", "<frank> twolinesc"]
    assert frank.chat_heard() == [
        "Welcome frank", "Welcome gina", "<frank> hello", "<frank> twolinesc"
    ]
    embedded.tell("gina", "secret")
    assert gina.private_messages() == ["secret"] and frank.private_messages() == []
    assert "secret" not in embedded.public_chat()
    with pytest.raises(WorldError, match="No player"):
        embedded.tell("nobody", "x")


def test_a_player_who_left_cannot_act(embedded):
    hank = embedded.players.join("hank")
    hank.leave()
    hank.leave()  # idempotent
    assert not hank.online
    for action in (lambda: hank.chat("x"), lambda: hank.hold(1), lambda: hank.walk_to(1, 1, 1)):
        with pytest.raises(WorldError, match="left"):
            action()
    assert embedded.players.join("hank").entity_id != hank.entity_id  # a new entity


def test_player_commands_stay_pinned_after_the_player_leaves(embedded):
    first = embedded.players.join("first")
    embedded.players.join("second")
    mc = connect_mcpi(embedded.host, embedded.port)
    try:
        mc.player.setTilePos(4, 0, 4)  # pins "first" for this connection
        assert tuple(mc.player.getTilePos()) == (4, 0, 4)  # (and fences the setter)
        first.leave()
        assert tuple(mc.player.getTilePos()) == (4, 0, 4)  # still the departed player
        fresh = connect_mcpi(embedded.host, embedded.port)
        try:
            assert tuple(fresh.player.getTilePos()) == (0, 0, 0)  # "second", at the spawn
        finally:
            fresh.conn.socket.close()
    finally:
        mc.conn.socket.close()


def test_simulated_players_are_safe_from_many_threads(embedded):
    players = [embedded.players.join(f"tom{i}") for i in range(8)]
    errors: list[BaseException] = []

    def busy(player) -> None:
        try:
            for i in range(50):
                player.chat(f"{player.name} {i}")
                player.walk_to(i, 0, i)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=busy, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    assert len(embedded.public_chat()) == 8 + 8 * 50


def test_direct_world_access_uses_protocol_coordinates(embedded):
    embedded.set_block(0, 0, 0, 1)
    assert embedded.server.world.get_block(0, 5, 0) == (1, 0)  # absolute: spawn is y=5
    embedded.fill((2, 0, 2), (0, 1, 0), WOOL, 3)
    assert embedded.get_block(1, 1, 1) == (WOOL, 3)
    with pytest.raises(WorldError, match="block id"):
        embedded.set_block(0, 0, 0, 300)
    assert embedded.sign_lines(0, 0, 0) is None


def test_handle_lifecycle():
    handle = start_embedded(tps=20)
    mc = connect_mcpi(handle.host, handle.port)
    assert mc.getBlock(0, -1, 0) == 2
    handle.stop()
    handle.stop()  # idempotent
    with pytest.raises(RuntimeError, match="not running"):
        handle.get_block(0, 0, 0)
    mc.conn.socket.close()
    with pytest.raises(ValueError, match="tps"):
        start_embedded(tps=-1)


def test_a_busy_port_is_reported(embedded):
    with pytest.raises(OSError):
        start_embedded(port=embedded.port)


def test_a_stopped_server_closes_its_connections():
    with start_embedded(tps=0) as handle:
        mc = connect_mcpi(handle.host, handle.port)
    wait_until(lambda: mc.conn.socket.recv(10) == b"", what="connection closed")
    mc.conn.socket.close()
