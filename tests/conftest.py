"""Fixtures shared by every test directory."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections: bound, so nobody else can take it, but not listening."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield int(holder.getsockname()[1])
