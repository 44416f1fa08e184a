"""Fixtures for the world tests: one conformance suite, two servers.

``rj_server`` is parametrised over ``embedded`` (a fresh embedded world per test, ticking
as fast as possible) and ``flying-squid`` (the real Minecraft server of server/, started
once per session through ``mcbridge.world.realserver.start_flying_squid``, skipped with the
reason only when Node or its packages are absent here). Tests therefore use unique player names and their
own block areas (``spot``), and the players they join leave again at teardown.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator

import pytest
from mcpi.minecraft import Minecraft
from rj_support import RawClient, connect_mcpi

from mcbridge.world.driver import ServerHandle, SimPlayer
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.realserver import ServerUnavailable, start_flying_squid

SERVER_KINDS = ["embedded", "flying-squid"]
_names = itertools.count(1)
_spots = itertools.count(0)


@pytest.fixture(scope="session")
def flying_squid() -> Iterator[ServerHandle]:
    """Skipped only when Node or server/node_modules is absent (`ServerUnavailable`); a
    server that is there but does not start fails every test that needs it."""
    try:
        handle = start_flying_squid()
    except ServerUnavailable as exc:
        pytest.skip(f"flying-squid server not available: {exc}")
    try:
        yield handle
    finally:
        handle.stop()


@pytest.fixture(params=SERVER_KINDS)
def rj_server(request: pytest.FixtureRequest) -> Iterator[ServerHandle]:
    if request.param == "embedded":
        with start_embedded(tps=0) as handle:
            yield handle
    else:
        yield request.getfixturevalue("flying_squid")


@pytest.fixture
def embedded() -> Iterator[EmbeddedHandle]:
    """A fresh embedded world ticking as fast as possible (embedded-only tests)."""
    with start_embedded(tps=0) as handle:
        yield handle


@pytest.fixture
def mc(rj_server: ServerHandle) -> Iterator[Minecraft]:
    """The unmodified mcpi client on its own connection (with a socket timeout)."""
    client = connect_mcpi(rj_server.host, rj_server.port)
    yield client
    client.conn.socket.close()


@pytest.fixture
def raw(rj_server: ServerHandle) -> Iterator[Callable[[], RawClient]]:
    """Factory of raw connections to ``rj_server``, all closed at teardown."""
    clients: list[RawClient] = []

    def connect() -> RawClient:
        client = RawClient(rj_server.host, rj_server.port)
        clients.append(client)
        return client

    yield connect
    for client in clients:
        client.close()


@pytest.fixture
def join(rj_server: ServerHandle) -> Iterator[Callable[[str], SimPlayer]]:
    """Join a player with a unique name (prefix + number); all leave at teardown."""
    joined: list[SimPlayer] = []

    def join_player(prefix: str) -> SimPlayer:
        player = rj_server.players.join(f"{prefix}{next(_names)}")
        joined.append(player)
        return player

    yield join_player
    for player in joined:
        # Best effort: a test may have made the player leave already, and the driver
        # protocol does not say whether a second leave() is an error.
        with contextlib.suppress(Exception):
            player.leave()


@pytest.fixture
def spot() -> tuple[int, int, int]:
    """A protocol-coordinate corner of an 8x8 area nobody else's test uses, at ground
    level (y=0 is the first air block above the grass)."""
    n = next(_spots)
    return (8 * (n % 16) - 64, 0, 8 * (n // 16) + 8)
