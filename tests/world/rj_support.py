"""Helpers for the RaspberryJuice conformance suite: a raw line client and bounded waits.

Everything here talks to a server only over TCP on 127.0.0.1. "No reply" is never tested
by waiting for silence: a query is sent right after, and its answer must be the next line.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import TypeVar

import pytest
from mcpi.minecraft import Minecraft

T = TypeVar("T")

REPLY_TIMEOUT = 10.0


#: A harmless query: its answer proves the server has registered the connection (a
#: connection only receives events from the moment the server has accepted it).
HANDSHAKE = "world.getBlock(0,0,0)"


class RawClient:
    """A bare RaspberryJuice connection: send bytes, read reply lines in order."""

    def __init__(self, host: str, port: int, timeout: float = REPLY_TIMEOUT) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer = b""
        self.ask(HANDSHAKE)

    def send(self, data: bytes | str) -> None:
        self.sock.sendall(data.encode("utf-8") if isinstance(data, str) else data)

    def line(self) -> str:
        """The next reply line (without its LF); raises TimeoutError when none comes."""
        while b"\n" not in self._buffer:
            try:
                chunk = self.sock.recv(1 << 20)
            except TimeoutError:
                raise TimeoutError("no reply line within the timeout") from None
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


def only_embedded(server: object, reason: str) -> None:
    """Skip unless ``server`` is the embedded world (for behaviour a real server lacks)."""
    if getattr(server, "kind", None) != "embedded":
        pytest.skip(f"embedded-only: {reason}")


def connect_mcpi(host: str, port: int) -> Minecraft:
    """The stock mcpi client, with a socket timeout, once the server has registered it."""
    client = Minecraft.create(host, port)
    client.conn.socket.settimeout(REPLY_TIMEOUT)
    client.conn.sendReceive(HANDSHAKE.split("(")[0].encode(), 0, 0, 0)
    return client


def wait_until(probe: Callable[[], T], timeout: float = REPLY_TIMEOUT, what: str = "") -> T:
    """Call ``probe`` until it returns something truthy; fail after ``timeout`` seconds.

    Events from a real server's bots arrive asynchronously, so tests poll for them."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or probe}")
        time.sleep(0.02)
