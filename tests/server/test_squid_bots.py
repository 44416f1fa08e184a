"""The mineflayer bot runner: real 1.12.2 clients on flying-squid, scripted from Python.

Each check goes both ways where it can: what the bot did must show up on the RaspberryJuice
bridge (a hit, a chat event, a block), and what the server did must show up in the bot's own
client (an item, a message, a block, sign text).
"""

from __future__ import annotations

import pytest
from mcpi.block import Block
from mcpi.connection import RequestError
from squid_support import wait_until

from mcbridge.world.botrunner import BotError
from mcbridge.world.driver import DIAMOND_SWORD, WOOL

pytestmark = pytest.mark.server

RED, BLUE = 14, 11
STONE, STICK = 1, 280


def test_joined_bots_are_listed_and_leave_cleanly(squid, mc, join):
    bot = join("joiner")
    assert mc.getPlayerEntityId(bot.name) == bot.entity_id
    assert mc.entity.getName(bot.entity_id) == bot.name
    assert bot.position() == (0.5, 0.0, 0.5)  # the spawn, on the RJ origin block
    bot.leave()  # returns once the server has dropped the player
    with pytest.raises(RequestError):
        mc.getPlayerEntityId(bot.name)
    bot.leave()  # leaving twice is harmless


def test_chat_is_heard_by_other_bots_and_by_the_bridge(mc, join):
    alice, bob = join("alice"), join("bob")
    alice.chat("I bid 4 red")
    wait_until(lambda: f"<{alice.name}> I bid 4 red" in bob.chat_heard(), what="bob hears alice")
    [post] = mc.events.pollChatPosts()
    assert (post.entityId, post.message) == (alice.entity_id, "I bid 4 red")


def test_a_sword_right_click_is_a_block_hit(mc, join, area):
    x, y, z = area
    mc.setBlock(x, y, z, WOOL, RED)
    bot = join("clicker")
    bot.right_click(x, y, z)  # empty hand: no hit
    bot.hold(DIAMOND_SWORD)
    bot.right_click(x, y, z, face=3)
    [hit] = mc.events.pollBlockHits()  # right_click returns once the server has the click
    assert (hit.pos.x, hit.pos.y, hit.pos.z, hit.face, hit.entityId) == (x, y, z, 3, bot.entity_id)
    assert mc.getBlockWithData(x, y, z).data == RED  # a sword click changes nothing


def test_walk_then_place_from_the_inventory(squid, mc, join, area):
    x, y, z = area
    bot = join("builder")
    squid.give(bot.name, WOOL, BLUE, 3)
    wait_until(lambda: bot.inventory().get((WOOL, BLUE)) == 3, what="three blue wool")
    mc.entity.setTilePos(bot.entity_id, x, y, z + 3)  # teleported close, then a short walk
    bot.walk_to(x + 0.5, y, z + 0.5)
    px, py, pz = bot.position()
    assert (round(px, 2), round(py, 2), round(pz, 2)) == (x + 0.5, y, z + 0.5)
    bot.place(x + 2, y, z, WOOL, BLUE)
    assert mc.getBlockWithData(x + 2, y, z) == Block(WOOL, BLUE)
    assert bot.inventory().get((WOOL, BLUE)) == 2  # survival: placing uses one up
    with pytest.raises(BotError, match="no item"):
        bot.place(x + 3, y, z, WOOL, RED)


def test_break_a_block(mc, join, area):
    x, y, z = area
    mc.setBlock(x + 1, y, z, WOOL, RED)
    bot = join("breaker")
    mc.entity.setTilePos(bot.entity_id, x, y, z + 2)
    bot.break_block(x + 1, y, z)
    assert mc.getBlock(x + 1, y, z) == 0
    with pytest.raises(BotError, match="no block"):
        bot.break_block(x + 1, y, z)


def test_given_items_and_private_messages_reach_one_player_only(squid, raw, join):
    alice, bob = join("alice"), join("bob")
    client = raw()
    client.send(f"mcbridge.give({alice.name},{WOOL},{RED},10)\n")
    client.send(f"mcbridge.tell({alice.name},your wool: 10 red, 0 blue)\n")
    wait_until(lambda: alice.inventory().get((WOOL, RED)) == 10, what="alice's wool")
    wait_until(lambda: "your wool: 10 red, 0 blue" in alice.private_messages(), what="tell")
    assert bob.inventory() == {}
    assert bob.private_messages() == []
    assert not any("your wool" in line for line in alice.chat_heard() + bob.chat_heard())


def test_hold_takes_from_the_inventory_or_gets_one(join):
    bot = join("holder")
    bot.hold(STICK)
    bot.hold(DIAMOND_SWORD)
    assert bot.inventory() == {(STICK, 0): 1, (DIAMOND_SWORD, 0): 1}
    bot.hold(STICK)  # already there: nothing new
    assert bot.inventory() == {(STICK, 0): 1, (DIAMOND_SWORD, 0): 1}


def test_hold_fetches_an_item_from_the_main_inventory(squid, mc, join, area):
    x, y, z = area
    bot = join("packer")
    for data in range(9):
        squid.give(bot.name, WOOL, data, 1)  # a full hotbar
    squid.give(bot.name, WOOL, 12, 1)  # lands in the main inventory
    wait_until(lambda: len(bot.inventory()) == 10, what="ten kinds of wool")
    mc.entity.setTilePos(bot.entity_id, x, y, z)
    bot.hold(WOOL, 12)  # inventory clicks, which the server must confirm
    bot.place(x + 1, y, z, WOOL, 12)  # the server agrees on what is in the hand
    assert mc.getBlockWithData(x + 1, y, z) == Block(WOOL, 12)


def test_requests_fail_with_a_reason(squid, join):
    bot = join("failing")
    runner = squid.players.runner()
    with pytest.raises(BotError, match="unknown op"):
        runner.request("fly")
    with pytest.raises(BotError, match="no bot named"):
        runner.request("state", bot="nobody_here")
    with pytest.raises(BotError, match="already joined"):
        squid.players.join(bot.name)
    with pytest.raises(BotError, match="letters, digits"):
        squid.players.join("no spaces allowed")
    with pytest.raises(TimeoutError):
        bot.walk_to(0.5, 0, 200.5, timeout=0.3)
    bot.walk_to(0.5, 0, 0.5)  # the bot is still usable
