"""Conformance: the ``mcbridge.*`` extensions both servers add to RaspberryJuice
(wire format: mcbridge/world/embedded/extensions.py), and their server-side twins."""

from __future__ import annotations

from rj_support import wait_until

WOOL, RED, DIAMOND_SWORD = 35, 14, 276


def test_capabilities_list_give_and_tell(raw):
    assert set(raw().ask("mcbridge.capabilities()").split(",")) >= {"give", "tell"}


def test_give_puts_items_in_the_inventory(raw, join):
    player = join("taker")
    client = raw()
    client.send(f"mcbridge.give({player.name},{WOOL},{RED},10)\n")
    client.send(f"mcbridge.give({player.name},{DIAMOND_SWORD},0,1)\n")
    wait_until(lambda: player.inventory().get((WOOL, RED)) == 10, what="ten red wool")
    wait_until(lambda: player.inventory().get((DIAMOND_SWORD, 0)) == 1, what="a sword")


def test_give_fails_for_an_unknown_player_or_item(raw, join):
    player = join("giver")
    client = raw()
    client.send(
        f"mcbridge.give(nobody_here,{WOOL},0,1)\n"
        f"mcbridge.give({player.name.upper()},{WOOL},0,1)\n"
        f"mcbridge.give({player.name},0,0,1)\n"
        f"mcbridge.give({player.name},9999,0,1)\n"
        f"mcbridge.give({player.name},{WOOL},0,0)\n"
        f"mcbridge.give({player.name},{WOOL},0)\n"
        f"mcbridge.give({player.name},{WOOL},x,1)\n"
        "world.getBlock(0,-5,0)\n"
    )
    assert client.lines(8) == ["Fail"] * 7 + ["7"]


def test_tell_reaches_one_player_only(raw, join):
    alice, bob = join("alice"), join("bob")
    client = raw()
    client.send(f"mcbridge.tell({alice.name},your hand: 3 red, 2 blue)\n")
    wait_until(lambda: "your hand: 3 red, 2 blue" in alice.private_messages(), what="tell")
    assert bob.private_messages() == []
    assert not any("your hand" in line for line in alice.chat_heard() + bob.chat_heard())


def test_tell_fails_for_an_unknown_player(raw):
    client = raw()
    client.send("mcbridge.tell(nobody_here,psst)\nworld.getBlock(0,-5,0)\n")
    assert client.lines(2) == ["Fail", "7"]


def test_server_side_give_and_tell(rj_server, join):
    player = join("handled")
    rj_server.give(player.name, WOOL, 4, 3)
    rj_server.tell(player.name, "hello from the server")
    wait_until(lambda: player.inventory().get((WOOL, 4)) == 3, what="given wool")
    wait_until(lambda: "hello from the server" in player.private_messages(), what="message")


def test_held_items_come_from_the_inventory(join, spot):
    player = join("holder")
    player.hold(DIAMOND_SWORD)  # given when missing
    assert player.inventory().get((DIAMOND_SWORD, 0)) == 1
