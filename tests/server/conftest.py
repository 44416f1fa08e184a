"""Fixtures for the flying-squid tests: one survival server for the whole session.

Tests share it, so each uses unique player names (``join``) and its own block area
(``area``), and the players it joins leave again at teardown. Everything skips with the
reason when Node or server/node_modules is missing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest
from mcpi.minecraft import Minecraft
from squid_support import REPLY_TIMEOUT, RawClient, start_or_skip, unique_name

from mcbridge.world.botrunner import BotPlayer
from mcbridge.world.realserver import FlyingSquidServer

_areas = itertools.count(0)


@pytest.fixture(scope="session")
def squid() -> Iterator[FlyingSquidServer]:
    server = start_or_skip()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def mc(squid: FlyingSquidServer) -> Iterator[Minecraft]:
    """The unmodified mcpi client, with a socket timeout so a missing reply fails the test."""
    client = Minecraft.create(squid.host, squid.port)
    client.conn.socket.settimeout(REPLY_TIMEOUT)
    yield client
    client.conn.socket.close()


@pytest.fixture
def raw(squid: FlyingSquidServer) -> Iterator[Callable[[], RawClient]]:
    clients: list[RawClient] = []

    def connect() -> RawClient:
        client = RawClient(squid.port)
        clients.append(client)
        return client

    yield connect
    for client in clients:
        client.close()


@pytest.fixture
def join(squid: FlyingSquidServer) -> Iterator[Callable[[str], BotPlayer]]:
    """Join a bot with a unique name; every bot joined leaves at teardown."""
    joined: list[BotPlayer] = []

    def join_bot(prefix: str) -> BotPlayer:
        bot = squid.players.join(unique_name(prefix))
        joined.append(bot)
        return bot

    yield join_bot
    for bot in joined:
        bot.leave()


@pytest.fixture
def area() -> tuple[int, int, int]:
    """Protocol coordinates of an 8x8 ground-level area no other test uses, near the spawn
    (y=0 is the first air block above the grass), within a bot's view from the spawn."""
    n = next(_areas)
    return (8 * (n % 6) - 24, 0, 8 * (n // 6) - 24)
