"""The asyncio front of the connection: same pipeline, asyncio streams for I/O.

Why native asyncio rather than the sync connection in an executor: the tables supervisor
and the web view run on one event loop; an executor would park a thread on every wait,
could not cancel a wait cleanly and would need a second lock discipline. Here a waiting
task costs nothing, `asyncio.wait_for` bounds every reply, and cancellation is safe: the
expected-reply queue lives in the shared `Pipeline`, so if a task is cancelled mid-wait the
next task simply goes on reading where it stopped. The reply matching, fences, resync and
error rules are the very same code as the sync `Connection` (sans-I/O `Pipeline`).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, NoReturn

from mcbridge.world import commands
from mcbridge.world.commands import Batch
from mcbridge.world.connection import (
    BACKOFF_MAX,
    BACKOFF_START,
    DEFAULT_PORT,
    MAX_REPLY_BYTES,
    handshake_line,
    handshake_refused,
    resolve_secret,
    unsupported_message,
)
from mcbridge.world.errors import ConnectionLost, ProtocolError, ReplyTimeout, Unsupported
from mcbridge.world.pipeline import (
    Desync,
    Item,
    Pipeline,
    Stats,
    _Unit,
    batch_error,
    timeout_error,
)

log = logging.getLogger(__name__)

#: A broken stream: reset, EOF mid-line, or a line longer than MAX_REPLY_BYTES.
_STREAM_ERRORS = (OSError, EOFError, asyncio.IncompleteReadError, asyncio.LimitOverrunError)

Hook = Callable[["AsyncConnection"], Awaitable[None] | None]


class _TaskLock:
    """An asyncio lock the owning task may re-enter (reconnect hooks use the connection)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    async def __aenter__(self) -> None:
        task = asyncio.current_task()
        if self._owner is not task or task is None:
            await self._lock.acquire()
            self._owner = task
        self._depth += 1

    async def __aexit__(self, *_: object) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
            self._lock.release()


class AsyncBatch(Batch):
    """A `Batch` bound to an `AsyncConnection`: `await flush()` or `async with`."""

    def __init__(self, conn: AsyncConnection, fence_every: int) -> None:
        super().__init__(fence_every)
        self._conn = conn

    async def flush(self) -> None:
        items, self.items = self.items, []
        await self._conn.run_batch(items, self.fence_every)

    async def __aenter__(self) -> AsyncBatch:
        return self

    async def __aexit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            await self.flush()


class AsyncConnection:
    """One RaspberryJuice session for asyncio code. Open with `await AsyncConnection.open()`."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        *,
        reply_timeout: float = 5.0,
        connect_timeout: float = 5.0,
        reconnect_timeout: float = 10.0,
        fence_every: int = 1,
        fence_at: tuple[int, int, int] = (0, 0, 0),
        resync_timeout: float | None = None,
        retries: int = 2,
        secret: str | None = None,
    ) -> None:
        self.host, self.port = host, port
        #: A batch of idempotent commands (`commands.IDEMPOTENT`) whose stream lost its
        #: place (a desync or a timeout, resynchronised in place) is sent again up to this
        #: many times. A lost link is raised: `on_reconnect` hooks repair the world then.
        self.retries = retries
        #: The bridge's shared secret (server/README.md), sent first on every connection.
        self.secret = resolve_secret(secret)
        self.reply_timeout = reply_timeout
        #: How long a resync may wait for its fence (late replies arrive first).
        self.resync_timeout = 3 * reply_timeout if resync_timeout is None else resync_timeout
        self.connect_timeout = connect_timeout
        self.reconnect_timeout = reconnect_timeout
        self.fence_every = fence_every
        self.on_reconnect: list[Hook] = []
        self._pipe = Pipeline(fence_at)
        self._lock = _TaskLock()
        self._caps: frozenset[str] | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._ever_connected = False
        self._closed = False

    @classmethod
    async def open(cls, host: str = "127.0.0.1", port: int = DEFAULT_PORT, **options: Any) -> AsyncConnection:
        conn = cls(host, port, **options)
        async with conn._lock:
            await conn._ensure_connected()
        return conn

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def stats(self) -> Stats:
        return self._pipe.stats

    @property
    def connected(self) -> bool:
        return self._writer is not None

    # ------------------------------------------------------------------ public API
    def batch(self, fence_every: int | None = None) -> AsyncBatch:
        return AsyncBatch(self, self.fence_every if fence_every is None else fence_every)

    async def run_batch(self, items: list[Item], fence_every: int) -> None:
        async with self._lock:
            await self._check_extensions(items)
            for attempt in range(self.retries + 1):
                await self._write(items, fence_every, owner=None, wait=True)
                error = batch_error(item.reply for item in items)
                retry = self.connected and attempt < self.retries
                if not (retry and commands.worth_retrying(error, items)):
                    break
                log.info("sending the batch again (%s)", error)
                commands.reset_replies(items)
            if error is not None:
                raise error
            self._raise_unclaimed()

    async def send(self, name: str, *args: Any) -> None:
        """A setter, confirmed by a later wait of the same task (like the sync `send`)."""
        batch = self.batch()
        batch.command(name, *args)
        async with self._lock:
            await self._check_extensions(batch.items)
            owner = asyncio.current_task()
            await self._write(batch.items, self.fence_every, owner=owner, wait=False)

    async def query(self, name: str, *args: Any) -> str:
        """One query, its raw reply text."""
        batch = self.batch()
        reply = batch.command(name, *args, parse=str)
        await batch.flush()
        return reply.result()

    async def sync(self) -> None:
        async with self._lock:
            if not self._pipe.idle and self._writer is not None:
                self._pipe.waiting()
                await self._read_until(lambda: self._pipe.idle)
            self._raise_unclaimed()

    async def capabilities(self) -> frozenset[str]:
        async with self._lock:
            if self._caps is None:
                batch = self.batch()
                reply = batch.capabilities()
                await batch.flush()
                self._caps = reply.result() if reply.ok else frozenset()
            return self._caps

    async def close(self) -> None:
        async with self._lock:
            self._closed = True
            await self._drop(ConnectionLost(f"the connection to {self.address} was closed."))

    async def __aenter__(self) -> AsyncConnection:
        async with self._lock:
            await self._ensure_connected()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ internals
    async def _check_extensions(self, items: list[Item]) -> None:
        needed = commands.extensions_needed(items)
        missing = needed - await self.capabilities() if needed else set()
        if missing:
            raise Unsupported(unsupported_message(missing, self.address))

    async def _write(self, items: list[Item], fence_every: int, *, owner: Hashable | None, wait: bool) -> None:
        writer = await self._ensure_connected()
        data, last = self._pipe.encode(items, fence_every, owner=owner)
        try:
            writer.write(data)
            await asyncio.wait_for(writer.drain(), self.reply_timeout + self.resync_timeout)
        except OSError as exc:  # TimeoutError included: a server that stopped reading
            await self._lost(exc)
        if wait and last is not None:
            self._pipe.waiting()
            target: _Unit = last
            await self._read_until(lambda: target.complete)

    async def _readline(self, timeout: float | None = None) -> str:
        assert self._reader is not None
        wait = self.reply_timeout if timeout is None else timeout
        raw = await asyncio.wait_for(self._reader.readuntil(b"\n"), wait)
        return raw[:-1].decode("utf-8", "replace").removesuffix("\r")

    async def _read_until(self, done: Callable[[], bool]) -> None:
        while not done():
            try:
                line = await self._readline()
            except TimeoutError:
                await self._resync(timeout_error(self._pipe.head_command(), self.reply_timeout))
                continue
            except _STREAM_ERRORS as exc:
                await self._lost(exc)
            await self._feed(line)

    async def _feed(self, line: str) -> None:
        try:
            self._pipe.feed(line)
        except Desync as exc:
            await self._resync(ProtocolError(f"reply stream out of step: {exc}.", desync=True))

    async def _resync(self, cause: ReplyTimeout | ProtocolError) -> None:
        if isinstance(cause, ReplyTimeout):
            self._pipe.stats.timeouts += 1
        log.warning("%s: resynchronising the reply stream", cause)
        data = self._pipe.begin_resync(cause, self._pipe.head_command())
        try:
            assert self._writer is not None
            self._writer.write(data)
            await asyncio.wait_for(self._writer.drain(), self.resync_timeout)
            while self._pipe.resync_pending():
                self._pipe.feed(await self._readline(self.resync_timeout))
        except TimeoutError:
            await self._drop(ConnectionLost(f"{self.address} stopped answering; reconnecting."))
        except _STREAM_ERRORS as exc:
            await self._lost(exc)

    def _raise_unclaimed(self) -> None:
        error = self._pipe.take_unclaimed(asyncio.current_task())
        if error is not None:
            raise error

    async def _ensure_connected(self) -> asyncio.StreamWriter:
        if self._writer is not None:
            return self._writer
        if self._closed:
            raise ConnectionLost(f"the connection to {self.address} is closed.")
        reconnect = self._ever_connected
        timeout = self.reconnect_timeout if reconnect else self.connect_timeout
        self._reader, self._writer = await _open_with_backoff(self.host, self.port, timeout)
        await self._handshake()
        self._ever_connected = True
        self._caps = None
        if reconnect:
            self._pipe.stats.reconnects += 1
            log.info("reconnected to %s", self.address)
            for hook in list(self.on_reconnect):
                result = hook(self)
                if inspect.isawaitable(result):
                    await result
        return self._writer

    async def _handshake(self) -> None:
        """Give the shared secret before anything else, when one is configured."""
        if self.secret is None:
            return
        assert self._writer is not None
        try:
            self._writer.write(handshake_line(self.secret))
            await asyncio.wait_for(self._writer.drain(), self.reply_timeout)
            reply = await self._readline()
        except (*_STREAM_ERRORS, TimeoutError) as exc:
            await self._lost(exc)
        if reply != "1":
            refused = handshake_refused(self.address, reply)
            await self._drop(refused)
            raise refused

    async def _lost(self, exc: BaseException) -> NoReturn:
        error = ConnectionLost(
            f"Lost the connection to {self.address} ({str(exc) or type(exc).__name__}); it "
            "reconnects on next use. Commands in flight may or may not have run."
        )
        await self._drop(error)
        raise error from exc

    async def _drop(self, error: ConnectionLost) -> None:
        self._pipe.abandon(lambda command, _head: ConnectionLost(f"{command}: {error}"))
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, asyncio.TimeoutError):
                await asyncio.wait_for(writer.wait_closed(), 1.0)


async def _open_with_backoff(
    host: str, port: int, deadline_s: float
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    deadline = time.monotonic() + deadline_s
    delay = BACKOFF_START
    while True:
        remaining = max(0.05, deadline - time.monotonic())
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, limit=MAX_REPLY_BYTES), min(remaining, 5)
            )
        except (OSError, TimeoutError) as exc:
            if time.monotonic() + delay > deadline:
                raise ConnectionLost(
                    f"Cannot connect to the RaspberryJuice server at {host}:{port} ({exc}). "
                    f"Is it running? Start the embedded one with `mcbridge world serve "
                    f"--port {port}`."
                ) from exc
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)
            continue
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return reader, writer
