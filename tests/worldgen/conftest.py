"""Fixtures: the legacy table and a real embedded world (one per test module)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from worldgen.states import LegacyTable, default_table


@pytest.fixture(scope="session")
def table() -> LegacyTable:
    return default_table()


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedHandle]:
    with start_embedded(tps=0) as handle:
        yield handle


@pytest.fixture()
def conn(server: EmbeddedHandle) -> Iterator[Connection]:
    # A bound, not a speed claim: a 5.2M-block read-back on a machine shared with a parallel
    # test worker (and other load) took longer than 10 s and failed a correct paste.
    with Connection(server.host, server.port, reply_timeout=60) as connection:
        yield connection
