"""A creative-mode server with RaspberryJuice's hitclick=BOTH: left clicks and the dig fixes.

flying-squid breaks a block on the first left click in creative, sword or not; vanilla does
not let a creative player holding a sword break anything. The bridge cancels such a dig, and
then flying-squid re-sends the wrong block (its state id taken from the block id: red wool
shows as grass); the bridge sends the right one after it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mcpi.block import Block
from mcpi.minecraft import Minecraft
from squid_support import REPLY_TIMEOUT, start_or_skip, unique_name, wait_until

from mcbridge.world.realserver import FlyingSquidServer

pytestmark = pytest.mark.server

WOOL, RED, SWORD = 35, 14, 276


@pytest.fixture(scope="module")
def creative() -> Iterator[FlyingSquidServer]:
    server = start_or_skip(gamemode="creative", hitclick="BOTH")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def mc(creative: FlyingSquidServer) -> Iterator[Minecraft]:
    client = Minecraft.create(creative.host, creative.port)
    client.conn.socket.settimeout(REPLY_TIMEOUT)
    yield client
    client.conn.socket.close()


def test_a_sword_left_click_is_a_hit_and_breaks_nothing(creative, mc):
    mc.setBlock(3, 0, 3, WOOL, RED)
    bot = creative.players.join(unique_name("puncher"))
    try:
        bot.hold(SWORD)
        bot.left_click(3, 0, 3, face=1)
        bot.right_click(3, 0, 3, face=2)  # BOTH: right clicks count as well
        hits = mc.events.pollBlockHits()
        assert [(h.pos.x, h.pos.y, h.pos.z, h.face) for h in hits] == [(3, 0, 3, 1), (3, 0, 3, 2)]
        assert mc.getBlockWithData(3, 0, 3) == Block(WOOL, RED)
        # The client is told the real block again, not flying-squid's "grass:3".
        wait_until(lambda: bot.block_at(3, 0, 3) == {"id": WOOL, "data": RED, "name": "wool"})
    finally:
        bot.leave()


def test_creative_players_break_blocks_at_once_without_a_sword(creative, mc):
    mc.setBlock(5, 0, 3, WOOL, RED)
    bot = creative.players.join(unique_name("miner"))
    try:
        bot.hold(SWORD)
        bot.break_block(5, 0, 3)  # the bot puts the sword away to dig, as a person would
        assert mc.getBlock(5, 0, 3) == 0
        assert mc.events.pollBlockHits() == []  # an empty hand is no hit
    finally:
        bot.leave()
