"""A running embedded world in a background thread, usable from ordinary (sync) code.

Tests, bots and the demo are synchronous; the server is asyncio. :func:`start_embedded`
runs the server's loop in a daemon thread and returns an :class:`EmbeddedHandle` that
implements :class:`mcbridge.world.driver.ServerHandle`, plus what a test needs beyond the
protocol: direct world access without the wire, the private channel and item giving
(the same extensions the real server has), and the tick clock.

Every method may be called from any thread; each one runs on the loop thread and waits
for it (with a timeout), so it never races a tick.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

from .server import EmbeddedServer
from .simulator import EmbeddedPlayers
from .storage import Position, state_of
from .world import World, WorldError

T = TypeVar("T")

CALL_TIMEOUT = 10.0


class EmbeddedHandle:
    """A started embedded server (implements :class:`mcbridge.world.driver.ServerHandle`)."""

    kind = "embedded"

    def __init__(self, server: EmbeddedServer) -> None:
        self.server = server
        self.host = "127.0.0.1"
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self.players = EmbeddedPlayers(server, self.call)

    # ------------------------------------------------------------------ lifecycle
    def _start(self, host: str, port: int, timeout: float) -> None:
        ready = threading.Event()
        failure: list[BaseException] = []

        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            try:
                self.port = await self.server.start(host, port)
                self.host = host
            except BaseException as exc:
                failure.append(exc)
                ready.set()
                return
            ready.set()
            try:
                await self._stop.wait()
            finally:
                await self.server.close()

        self._thread = threading.Thread(
            target=asyncio.run, args=(main(),), name=f"embedded-world:{port}", daemon=True
        )
        self._thread.start()
        if not ready.wait(timeout):
            raise TimeoutError(f"The embedded world did not start within {timeout} s.")
        if failure:
            self._thread.join(timeout)
            raise failure[0]

    def stop(self, timeout: float = 10.0) -> None:
        """Close every connection and end the loop thread (idempotent)."""
        loop, stop, thread = self._loop, self._stop, self._thread
        if loop is None or stop is None or thread is None or not thread.is_alive():
            return
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout)
        if thread.is_alive():
            raise TimeoutError(f"The embedded world did not stop within {timeout} s.")

    def __enter__(self) -> EmbeddedHandle:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def call(self, func: Callable[[], T], timeout: float = CALL_TIMEOUT) -> T:
        """Run ``func`` on the server's loop thread (between ticks) and return its result."""
        if self._loop is None or self._thread is None or not self._thread.is_alive():
            raise RuntimeError("The embedded world is not running: start it first.")
        if threading.current_thread() is self._thread:
            return func()
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(func())
            except BaseException as exc:
                future.set_exception(exc)

        self._loop.call_soon_threadsafe(run)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"The embedded world did not answer within {timeout} s.") from None

    # ------------------------------------------------------------------ the clock
    @property
    def ticks(self) -> int:
        """Ticks run so far. Replies only ever leave the server on a tick."""
        return self.server.ticks

    def pause(self) -> None:
        self.call(self.server.pause)

    def resume(self) -> None:
        self.call(self.server.resume)

    def step(self, count: int = 1) -> None:
        """Run ``count`` ticks now (normally while paused)."""
        self.call(lambda: self.server.step(count))

    def queued_lines(self) -> int:
        """Request lines received but not yet run, over all connections."""
        return self.call(self.server.queued_lines)

    # ------------------------------------------------ world access (protocol coords)
    @property
    def origin(self) -> Position:
        """The absolute block that protocol coordinate (0,0,0) means."""
        return self.server.origin

    def get_block(self, x: int, y: int, z: int) -> tuple[int, int]:
        """(id, data) at protocol coordinates, without going through the wire."""
        return self.call(lambda: self.server.world.get_block(*self._abs(x, y, z)))

    def set_block(self, x: int, y: int, z: int, block_id: int, data: int = 0) -> None:
        self.call(lambda: self.server.world.set_block(*self._abs(x, y, z), block_id, data))

    def fill(self, low: Position, high: Position, block_id: int, data: int = 0) -> None:
        """Set every block of the inclusive cuboid (any corner order)."""
        a, b = self._abs(*low), self._abs(*high)
        lo = (min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2]))
        hi = (max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2]))
        self.call(lambda: self.server.world.store.fill(lo, hi, state_of(block_id, data)))

    def sign_lines(self, x: int, y: int, z: int) -> tuple[str, str, str, str] | None:
        """The four lines of the sign there, or None when the block is not a sign."""
        return self.call(lambda: self.server.world.sign_lines(self._abs(x, y, z)))

    def give(self, player_name: str, item_id: int, data: int = 0, count: int = 1) -> None:
        """Server-side item giving (the ``mcbridge.give`` extension's effect)."""

        def give() -> None:
            player = self.server.world.player_named(player_name)
            if player is None:
                raise WorldError(f"No player named {player_name!r} is online.")
            self.server.world.give(player, item_id, data, count)

        self.call(give)

    def tell(self, player_name: str, text: str) -> None:
        """Send a private message to one player (the ``mcbridge.tell`` extension's effect)."""

        def tell() -> None:
            player = self.server.world.player_named(player_name)
            if player is None:
                raise WorldError(f"No player named {player_name!r} is online.")
            self.server.world.tell(player, text)

        self.call(tell)

    def public_chat(self) -> list[str]:
        """Every public chat line so far (what the server console showed)."""
        return self.call(lambda: list(self.server.world.public_chat))

    def save(self, path: str | os.PathLike[str] | None = None) -> None:
        """Write the world to ``path`` (default: the world file it was started with)."""
        self.call(lambda: self.server.save(path))

    def _abs(self, x: int, y: int, z: int) -> Position:
        ox, oy, oz = self.server.origin
        return (int(x) + ox, int(y) + oy, int(z) + oz)


def start_embedded(
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    tps: float = 20.0,
    world: World | None = None,
    world_file: str | os.PathLike[str] | None = None,
    absolute: bool = False,
    timeout: float = 10.0,
    secret: str | None = None,
) -> EmbeddedHandle:
    """Start an embedded world in a background thread; port 0 picks a free port. With a
    `secret`, every connection must give it first (`mcbridge.auth`, server/README.md)."""
    server = EmbeddedServer(world, tps=tps, absolute=absolute, world_file=world_file, secret=secret)
    handle = EmbeddedHandle(server)
    handle._start(host, port, timeout)
    return handle
