"""The RaspberryJuice bridge on flying-squid: what this server adds or must work around.

The RaspberryJuice behaviour both servers share is tested by tests/world's conformance suite;
these tests cover the flying-squid side: sign texts kept and re-sent with chunks, batched block
changes reaching clients, the mcbridge.* extensions, text kept verbatim, robustness.
"""

from __future__ import annotations

import json
import socket

import pytest
from squid_support import wait_until

pytestmark = pytest.mark.server

WOOL, STONE, WALL_SIGN, STANDING_SIGN = 35, 1, 68, 63
SWORD = 276


def test_sign_text_is_kept_and_shown_to_clients(squid, mc, join, area):
    x, y, z = area
    viewer = join("reader")
    mc.setBlock(x, y, z + 1, STONE)
    mc.setSign(x, y, z, WALL_SIGN, 2, "Wool Bluff", "seat 3", "bid: 4 red", "")
    mc.getBlock(x, y, z)  # fence: the setters have run
    assert squid.sign_lines(x, y, z) == ("Wool Bluff", "seat 3", "bid: 4 red", "")
    wait_until(
        lambda: viewer.sign_text(x, y, z) == ["Wool Bluff", "seat 3", "bid: 4 red", ""],
        what="the bot to see the sign text",
    )
    mc.setSign(x, y, z, WALL_SIGN, 2, "BLUFF!")  # other lines keep their text
    wait_until(lambda: viewer.sign_text(x, y, z) == ["BLUFF!", "seat 3", "bid: 4 red", ""])


def test_sign_text_is_sent_again_with_the_chunk(squid, mc, join):
    # Far outside the bot's view: its client has never had this chunk. It receives the chunk
    # when teleported there, and the sign text must come with it (flying-squid sends chunks
    # with no block entities at all).
    x, y, z = 600, 0, 600
    mc.setSign(x, y, z, STANDING_SIGN, 8, "far", "away")
    traveller = join("traveller")
    mc.entity.setTilePos(traveller.entity_id, x, y, z - 3)
    wait_until(
        lambda: traveller.sign_text(x, y, z) == ["far", "away", "", ""],
        what="the sign text to arrive with the chunk",
    )


def test_sign_text_goes_with_the_sign(squid, mc, area):
    x, y, z = area
    mc.setSign(x, y, z, STANDING_SIGN, 0, "old")
    mc.setSign(x, y, z, STANDING_SIGN, 4)  # same kind of sign, turned: text stays
    mc.getBlock(x, y, z)
    assert squid.sign_lines(x, y, z) == ("old", "", "", "")
    mc.setBlock(x, y, z, WOOL)  # the sign is gone, and its text with it
    mc.setSign(x, y, z, STANDING_SIGN, 0)
    mc.getBlock(x, y, z)
    assert squid.sign_lines(x, y, z) == ("", "", "", "")
    assert squid.sign_lines(x + 1, y, z) is None


@pytest.mark.parametrize(
    ("size", "what"),
    [(1, "one block_change"), (4, "a multi_block_change"), (16, "a whole column sent again")],
)
def test_bridge_writes_reach_clients(mc, join, size, what):
    # Columns of their own (chunk-aligned), so 16x3x16 = 768 changes exceed the resend limit.
    x0, z0 = {1: (-48, 48), 4: (-32, 48), 16: (-16, 48)}[size]
    viewer = join("viewer")
    mc.setBlocks(x0, 0, z0, x0 + size - 1, 2, z0 + size - 1, WOOL, 5)
    corners = [(x0, 0, z0), (x0 + size - 1, 2, z0 + size - 1), (x0, 2, z0 + size - 1)]
    def shows_lime_wool(corner: tuple[int, int, int]) -> bool:
        return (viewer.block_at(*corner) or {}).get("data") == 5

    for corner in corners:
        wait_until(lambda: shows_lime_wool(corner), what=f"{what} to show lime wool at {corner}")  # noqa: B023
    mc.setBlocks(x0, 0, z0, x0 + size - 1, 2, z0 + size - 1, 0)
    wait_until(lambda: viewer.block_at(*corners[1])["id"] == 0, what="the blocks to go")


def test_ten_thousand_pipelined_set_blocks_all_land(raw, area):
    x, y, z = area
    client = raw()
    lines = [
        f"world.setBlock({x + i % 8},{y + i // 64},{z + (i // 8) % 8},{WOOL},{i % 16})\n"
        for i in range(10_000)
    ]
    client.send("".join(lines) + f"world.getBlockWithData({x + 7},{y + 156},{z + 1})\n")
    # The last write to each position wins: position (7, 156, 1) was last written by i=9999.
    assert client.line() == f"{WOOL},{9999 % 16}"
    client.send(f"world.setBlocks({x},{y},{z},{x + 7},{y + 160},{z + 7},0)\n")


def test_capabilities_and_the_sign_query(raw, area):
    client = raw()
    caps = "give,tell,private,placements,blocks_with_data,escaped,max_box=4194304"
    assert client.ask("mcbridge.capabilities()") == caps
    x, y, z = area
    client.send(f"world.setSign({x},{y},{z},{STANDING_SIGN},0,a,b,c,d)\n")
    assert json.loads(client.ask(f"mcbridge.getSign({x},{y},{z})")) == ["a", "b", "c", "d"]
    assert client.ask(f"mcbridge.getSign({x + 1},{y},{z})") == "Fail"


def test_give_is_all_or_nothing(raw, join):
    bot = join("hoarder")
    client = raw()
    client.send(
        f"mcbridge.give({bot.name},{WOOL},1,2305)\n"  # more than a full inventory holds
        f"mcbridge.give({bot.name},{SWORD},0,37)\n"  # swords do not stack: 36 slots only
        f"mcbridge.give({bot.name},{WOOL},1,64)\n"
        "world.getBlock(0,-5,0)\n"
    )
    assert client.lines(3) == ["Fail", "Fail", "7"]
    wait_until(lambda: bot.inventory() == {(WOOL, 1): 64}, what="exactly one stack")


def test_text_is_sent_verbatim(mc, join):
    speaker, listener = join("speaker"), join("listener")
    mc.postToChat("rock & roll &a not green")
    wait_until(lambda: "rock & roll &a not green" in listener.chat_heard(), what="chat.post")
    speaker.chat("fish && chips & peas")
    line = f"<{speaker.name}> fish && chips & peas"
    wait_until(lambda: line in listener.chat_heard(), what="player chat, '&' intact")
    assert [p.message for p in mc.events.pollChatPosts()] == ["fish && chips & peas"]


def test_players_see_who_joined_before_them(join):
    first = join("early")
    second = join("late")
    wait_until(lambda: first.name in second.players_seen()["listed"], what="the tab list")
    wait_until(lambda: first.name in second.players_seen()["visible"], what="the player entity")
    wait_until(lambda: second.name in first.players_seen()["visible"], what="the newcomer")


def test_abs_pos_is_bukkits_unparseable_location_text(raw, join):
    join("absolute")
    reply = raw().ask("player.getAbsPos()")
    assert reply.startswith("Location{world=CraftWorld{name=world},x=")
    assert reply.endswith("}") and ",pitch=" in reply and ",yaw=" in reply


def test_bad_input_never_stops_the_server(squid, raw, join):
    client = raw()
    client.send(
        b"world.getBlock(0,0,0\xff\xfe)\n"  # invalid UTF-8
        + b"x" * (5 * 1024 * 1024)  # a 5 MiB line: dropped, answered with Fail
        + b"\nworld.getBlocks(-2000,0,-2000,2000,10,2000)\n"  # too big to answer: Fail
        b"world.setBlocks(-2000,0,-2000,2000,10,2000,1)\n"  # too big to write: Fail
        b"world.spawnEntity(0,0,0,1)\n"  # flying-squid cannot spawn dropped items: Fail
        b"\x00\x01\x02(\x03)\n"  # unknown command: Fail
        b"world.getBlock(0,-5,0)\n"
    )
    assert client.lines(7) == ["Fail"] * 6 + ["7"]
    # Garbage on the Minecraft port must not take the server down.
    for junk in (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", bytes(range(256)) * 64, b"\xff" * 10):
        with socket.create_connection(("127.0.0.1", squid.minecraft_port), timeout=5) as sock:
            sock.sendall(junk)
    assert client.ask("world.getBlock(0,-5,0)") == "7"
    assert squid.is_running()
    bot = join("survivor")
    assert raw().ask(f"world.getPlayerId({bot.name})") == str(bot.entity_id)
