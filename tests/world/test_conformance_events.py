"""Conformance: block hits and chat posts (protocol/raspberryjuice.md §2.2, §2.3).

Events are copied into every open connection's own queues; polling drains only that
connection's queue. "No event" is checked with a barrier: a later event that *does*
count is waited for, and the earlier one must not be in front of it.
"""

from __future__ import annotations

import pytest
from rj_support import connect_mcpi, wait_until

from mcbridge.world.driver import DIAMOND_SWORD

SWORDS = {"wood": 268, "stone": 272, "iron": 267, "gold": 283, "diamond": 276}
STICK, WOOL, STONE = 280, 35, 1


def poll_hits(mc, at_least=1):
    """Poll ``events.block.hits`` until ``at_least`` hits arrived; all of them."""
    found = []
    wait_until(lambda: found.extend(mc.events.pollBlockHits()) or len(found) >= at_least,
               what="block hits")
    return found


def poll_chats(mc, at_least=1, poll=None):
    found = []
    poll = poll or mc.events.pollChatPosts
    wait_until(lambda: found.extend(poll()) or len(found) >= at_least, what="chat posts")
    return found


@pytest.mark.parametrize("sword", SWORDS.values(), ids=SWORDS.keys())
def test_a_sword_right_click_is_a_block_hit(mc, join, spot, sword):
    x, y, z = spot
    mc.setBlock(x, y, z, WOOL, 4)
    player = join("hitter")
    player.hold(sword)
    player.right_click(x, y, z, face=1)
    [hit] = poll_hits(mc)
    assert (hit.pos.x, hit.pos.y, hit.pos.z) == (x, y, z)
    assert hit.face == 1
    assert hit.entityId == player.entity_id


def test_the_face_is_reported(mc, join, spot):
    x, y, z = spot
    mc.setBlock(x, y, z, STONE)
    player = join("facer")
    player.hold(DIAMOND_SWORD)
    for face in (0, 2, 3, 4, 5):
        player.right_click(x, y, z, face=face)
    assert [h.face for h in poll_hits(mc, 5)] == [0, 2, 3, 4, 5]


def test_no_hit_without_a_sword(mc, join, spot):
    x, y, z = spot
    mc.setBlocks(x, y, z, x + 1, y, z, STONE)
    player = join("nosword")
    player.hold(STICK)
    player.right_click(x, y, z)
    player.hold(DIAMOND_SWORD)
    player.right_click(x + 1, y, z)  # the barrier
    hits = poll_hits(mc)
    assert [(h.pos.x, h.pos.y, h.pos.z) for h in hits] == [(x + 1, y, z)]


def test_each_connection_has_its_own_queue(rj_server, mc, join, spot):
    other = connect_mcpi(rj_server.host, rj_server.port)
    try:
        x, y, z = spot
        mc.setBlock(x, y, z, STONE)
        player = join("queues")
        player.hold(DIAMOND_SWORD)
        player.right_click(x, y, z)
        assert len(poll_hits(mc)) == 1
        assert mc.events.pollBlockHits() == []  # drained here...
        assert len(poll_hits(other)) == 1  # ...but still waiting on the other connection
    finally:
        other.conn.socket.close()


def test_events_before_a_connection_opened_are_lost(rj_server, mc, join, spot):
    talker = join("early")
    talker.chat("before")
    assert [c.message for c in poll_chats(mc)] == ["before"]  # the server has seen it
    late = connect_mcpi(rj_server.host, rj_server.port)
    try:
        talker.chat("after")
        assert [c.message for c in poll_chats(late)] == ["after"]
    finally:
        late.conn.socket.close()


def test_events_clear_empties_hits_and_chats_of_this_connection_only(rj_server, mc, join, spot):
    other = connect_mcpi(rj_server.host, rj_server.port)
    try:
        x, y, z = spot
        mc.setBlock(x, y, z, STONE)
        player = join("clearer")
        player.hold(DIAMOND_SWORD)
        player.right_click(x, y, z)
        player.chat("old")
        poll_hits(other)
        poll_chats(other)  # both events have reached every queue
        mc.events.clearAll()
        mc.getBlock(x, y, z)  # fence: the clear has run before the next chat
        player.chat("new")
        assert [c.message for c in poll_chats(mc)] == ["new"]
        assert mc.events.pollBlockHits() == []
    finally:
        other.conn.socket.close()


def test_chat_posts_keep_commas_and_name_the_speaker(mc, join):
    alice, bob = join("alice"), join("bob")
    alice.chat("I bid 3, red")
    bob.chat("BLUFF, surely")
    posts = poll_chats(mc, 2)
    assert [(p.entityId, p.message) for p in posts] == [
        (alice.entity_id, "I bid 3, red"),
        (bob.entity_id, "BLUFF, surely"),
    ]


def test_several_events_come_in_one_reply_separated_by_bars(mc, raw, join):
    client = raw()
    speaker = join("bars")
    speaker.chat("a")
    speaker.chat("b")
    poll_chats(mc, 2)  # both posts have reached every connection's queue
    assert client.ask("events.chat.posts()") == f"{speaker.entity_id},a|{speaker.entity_id},b"


def test_slash_commands_are_not_chat_events(mc, join):
    player = join("slasher")
    player.chat("/help")
    player.chat("plain")
    assert [c.message for c in poll_chats(mc)] == ["plain"]


def test_entity_events_filter_by_player(mc, join, spot):
    x, y, z = spot
    mc.setBlock(x, y, z, STONE)
    alice, bob = join("alice"), join("bob")
    for player in (alice, bob):
        player.hold(DIAMOND_SWORD)
        player.right_click(x, y, z)
        player.chat(f"from {player.name}")
    bob_posts = poll_chats(mc, 1, lambda: mc.entity.pollChatPosts(bob.entity_id))
    assert [p.message for p in bob_posts] == [f"from {bob.name}"]
    bob_hits = wait_until(lambda: mc.entity.pollBlockHits(bob.entity_id), what="bob's hit")
    assert [h.entityId for h in bob_hits] == [bob.entity_id]
    mc.entity.clearEvents(alice.entity_id)
    mc.getBlock(x, y, z)  # fence
    assert mc.events.pollChatPosts() == [] and mc.events.pollBlockHits() == []


def test_player_events_mean_the_first_player(mc, join):
    first, second = join("first"), join("second")
    second.chat("not mine")
    first.chat("mine")
    assert [p.message for p in poll_chats(mc, 1, mc.player.pollChatPosts)] == ["mine"]
    assert [p.message for p in mc.events.pollChatPosts()] == ["not mine"]
    mc.player.clearEvents()
    assert mc.player.pollBlockHits() == []


def test_projectile_polls_answer_empty(mc, join):
    player = join("archer")
    assert mc.events.pollProjectileHits() == []
    assert mc.entity.pollProjectileHits(player.entity_id) == []
    assert mc.player.pollProjectileHits() == []
