"""One poll per tick: hits dispatched by position and region, chat per player, names."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Iterator

import pytest

from mcbridge.world import blocks
from mcbridge.world.aconnection import AsyncConnection
from mcbridge.world.connection import Connection
from mcbridge.world.driver import DIAMOND_SWORD, ServerHandle, SimPlayer
from mcbridge.world.events import Chat, EventPoller, Hit, Polled
from mcbridge.world.geometry import Cuboid, Pos

WAIT = 10.0
_leavers = itertools.count(1)


@pytest.fixture
def conn(rj_server: ServerHandle) -> Iterator[Connection]:
    with Connection(rj_server.host, rj_server.port, reply_timeout=10) as connection:
        yield connection


def poll_until(
    poller: EventPoller, conn: Connection, done: Callable[[Polled], bool]
) -> Polled:
    """Poll (one tick each) until `done` holds for everything seen so far; bounded."""
    seen = Polled()
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        polled = poller.poll(conn)
        seen.hits += polled.hits
        seen.chats += polled.chats
        if done(seen):
            return seen
    raise AssertionError(f"events did not arrive within {WAIT} s: {seen}")


def test_hits_reach_listeners_by_position_and_region(
    conn: Connection, join: Callable[[str], SimPlayer], spot: tuple[int, int, int]
) -> None:
    x, y, z = spot
    button, wall = Pos(x, y, z), Cuboid((x + 2, y, z), (x + 4, y + 1, z))
    with conn.batch() as batch:
        batch.set_block(button, blocks.GOLD_BLOCK)
        batch.fill(wall, blocks.wool("white"))
        batch.set_block((x + 6, y, z), blocks.STONE)
    poller = EventPoller()
    at_button: list[Hit] = []
    in_wall: list[Hit] = []
    anywhere: list[Hit] = []
    poller.on_hit(at_button.append, at=button)
    stop_wall = poller.on_hit(in_wall.append, region=wall)
    poller.on_hit(anywhere.append)
    poller.poll(conn)
    alice = join("alice")
    alice.hold(DIAMOND_SWORD)
    alice.right_click(*button)
    alice.right_click(x + 3, y + 1, z, face=2)
    alice.right_click(x + 6, y, z)
    poll_until(poller, conn, lambda seen: len(seen.hits) >= 3)
    assert [h.pos for h in at_button] == [button]
    assert [(h.pos, h.face) for h in in_wall] == [(Pos(x + 3, y + 1, z), 2)]
    assert [h.pos for h in anywhere] == [button, Pos(x + 3, y + 1, z), Pos(x + 6, y, z)]
    assert {(h.player, h.entity_id) for h in anywhere} == {(alice.name, alice.entity_id)}
    stop_wall()
    alice.right_click(x + 2, y, z)
    poll_until(poller, conn, lambda seen: len(seen.hits) >= 1)
    assert len(in_wall) == 1 and len(anywhere) == 4


def test_chat_is_polled_per_player_so_a_pipe_cannot_forge_a_message(
    conn: Connection, join: Callable[[str], SimPlayer]
) -> None:
    alice, bob = join("alice"), join("bob")
    poller = EventPoller()
    heard: list[Chat] = []
    poller.on_chat(heard.append)
    poller.poll(conn)  # learns who is online
    forged = f"bid red 3|{bob.entity_id},bluff"
    alice.chat(forged)
    bob.chat("through, obviously")
    poll_until(poller, conn, lambda seen: len(seen.chats) >= 2)
    assert sorted((c.player, c.text) for c in heard) == sorted(
        [(alice.name, forged), (bob.name, "through, obviously")]
    )


def test_last_words_of_a_leaving_player_keep_their_name(
    conn: Connection, rj_server: ServerHandle
) -> None:
    carol = rj_server.players.join(f"carol{next(_leavers)}")  # leaves by itself
    poller = EventPoller()
    poller.poll(conn)
    assert poller.registry.id_of(carol.name) == carol.entity_id
    carol.chat("gotta go")
    carol.leave()
    seen = poll_until(poller, conn, lambda s: len(s.chats) >= 1)
    assert [(c.player, c.text) for c in seen.chats] == [(carol.name, "gotta go")]
    poller.poll(conn)
    assert poller.registry.id_of(carol.name) is None


def test_positions_of_many_players_in_one_round_trip(
    conn: Connection, join: Callable[[str], SimPlayer]
) -> None:
    players = [join(prefix) for prefix in ("dave", "erin", "frank")]
    poller = EventPoller()
    poller.registry.refresh(conn)
    before = conn.stats.snapshot()
    where = poller.registry.positions(conn, [p.name for p in players] + ["nobody"])
    assert (conn.stats - before).round_trips == 1
    assert where["nobody"] is None
    for player in players:
        pos = where[player.name]
        assert pos is not None
        assert all(abs(a - b) < 1.0 for a, b in zip(pos, player.position(), strict=True))


def test_async_poll(rj_server: ServerHandle, join: Callable[[str], SimPlayer]) -> None:
    gina = join("gina")

    async def scenario() -> list[Chat]:
        async with await AsyncConnection.open(rj_server.host, rj_server.port) as aconn:
            poller = EventPoller()
            await poller.apoll(aconn)
            gina.chat("async hello")
            deadline = time.monotonic() + WAIT
            chats: list[Chat] = []
            while not chats and time.monotonic() < deadline:
                chats += (await poller.apoll(aconn)).chats
            return chats

    chats = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert [(c.player, c.text) for c in chats] == [(gina.name, "async hello")]
