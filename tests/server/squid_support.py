"""Helpers for the flying-squid tests: starting a server or skipping, a raw line client, waits.

Everything talks to the server over TCP on 127.0.0.1. Only an absent prerequisite (no Node,
no server/node_modules) makes the test skip with the reason; a broken one fails it.
"""

from __future__ import annotations

import itertools
import socket
import time
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from mcbridge.world.realserver import FlyingSquidServer, ServerUnavailable, start_flying_squid

T = TypeVar("T")
REPLY_TIMEOUT = 10.0
_names = itertools.count(1)


def start_or_skip(**options: Any) -> FlyingSquidServer:
    """start_flying_squid(**options), or skip the test when Node or its packages are absent.

    Only `ServerUnavailable` skips: Node present but the server failing to start (or any
    other error mentioning node) fails the test.
    """
    try:
        return start_flying_squid(**options)
    except ServerUnavailable as exc:
        pytest.skip(f"flying-squid server not available: {exc}")


def unique_name(prefix: str) -> str:
    """A player name no other test uses (the session server is shared), and a valid Java name
    even for a one-letter prefix: the server refuses names under 3 characters, so "p" + 1
    must be "p01" (else a test passes in the suite, where the counter is high, and fails alone)."""
    return f"{prefix}{next(_names):02d}"[:16]


class RawClient:
    """A bare RaspberryJuice connection: send lines, read reply lines in order."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=REPLY_TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer = b""
        self.ask("world.getBlock(0,0,0)")  # registered: events from now on reach this connection

    def send(self, data: bytes | str) -> None:
        self.sock.sendall(data.encode("utf-8") if isinstance(data, str) else data)

    def line(self) -> str:
        while b"\n" not in self._buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n", 1)
        return raw.decode("utf-8")

    def lines(self, count: int) -> list[str]:
        return [self.line() for _ in range(count)]

    def ask(self, request: str) -> str:
        self.send(request + "\n")
        return self.line()

    def close(self) -> None:
        self.sock.close()


def wait_until(probe: Callable[[], T], timeout: float = REPLY_TIMEOUT, what: str = "") -> T:
    """Call ``probe`` until it returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or probe}")
        time.sleep(0.05)
