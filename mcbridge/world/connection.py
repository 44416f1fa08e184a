"""The synchronous connection to a RaspberryJuice server, and an mcpi-compatible facade.

mcpi's own `Connection` loses pipelined replies (a new `makefile` per read), has no
timeouts, no lock and no reconnect, and lets a newline in chat text inject a command
(protocol/raspberryjuice.md §5). This one keeps mcpi's surface (`send`, `sendReceive`, so
`mcpi.minecraft.Minecraft(conn)` works) on top of:

* one socket with TCP_NODELAY and a buffered line reader;
* `Batch`es written in one go, replies matched in order by the shared `Pipeline`, setters
  confirmed by fences so a stray `Fail` names its command;
* a timeout on every reply, after which the stream is resynchronised in place;
* reconnect with backoff on the next use after a loss, then `on_reconnect` hooks so upper
  layers can render the world again;
* a re-entrant lock: threads may share one connection (their batches run one at a time).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from typing import Any, NoReturn

from mcpi import minecraft as mcpi_minecraft

from mcbridge.world import commands
from mcbridge.world.commands import Batch, BlockChange
from mcbridge.world.errors import ConnectionLost, ProtocolError, ReplyTimeout, Unsupported
from mcbridge.world.geometry import Cuboid
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

DEFAULT_PORT = 4711
#: The environment variable holding the bridge's shared secret (server/README.md).
SECRET_ENV = "MCBRIDGE_BRIDGE_SECRET"
_SECRET_CHARS = re.compile(r"[!-~]{8,256}")
#: Replies longer than this are refused (a 256x64x256 getBlocks is about 8 MB).
MAX_REPLY_BYTES = 64 << 20
#: Fire-and-forget commands whose fence replies may wait unread before `send` reads them.
_MAX_UNREAD_UNITS = 512
BACKOFF_START, BACKOFF_MAX = 0.05, 2.0


def unsupported_message(missing: set[str], address: str) -> str:
    what = {
        "give": "giving items (mcbridge.give)",
        "tell": "private messages (mcbridge.tell)",
        "private": "private blocks (mcbridge.private.*)",
        "placements": "placement events (mcbridge.events.block.placed/broken)",
    }
    wanted = " and ".join(what.get(m, m) for m in sorted(missing))
    return (
        f"The server at {address} does not support {wanted}. Plain RaspberryJuice has no "
        "private channel: run the embedded world or server/ (flying-squid), or use RCON."
    )


def resolve_secret(secret: str | None) -> str | None:
    """The secret to give first: `secret`, else $MCBRIDGE_BRIDGE_SECRET; None for none."""
    value = secret if secret is not None else os.environ.get(SECRET_ENV) or None
    if value is not None and (not _SECRET_CHARS.fullmatch(value) or set(value) & set(",()")):
        raise ValueError(
            "The bridge secret must be 8-256 printable ASCII characters without spaces, commas or parentheses."
        )
    return value


def handshake_line(secret: str) -> bytes:
    return f"mcbridge.auth({secret})\n".encode("ascii")


def handshake_refused(address: str, reply: str) -> ConnectionLost:
    return ConnectionLost(
        f"The server at {address} refused the shared secret (it answered {reply[:40]!r}): "
        f"set {SECRET_ENV} to the bridge's secret, or unset it for a bridge without one."
    )


def connect_with_backoff(host: str, port: int, deadline_s: float) -> socket.socket:
    """Connect, retrying with doubling delays until `deadline_s` seconds have passed."""
    deadline = time.monotonic() + deadline_s
    delay = BACKOFF_START
    while True:
        remaining = deadline - time.monotonic()
        try:
            sock = socket.create_connection((host, port), timeout=max(0.05, min(remaining, 5)))
        except OSError as exc:
            if time.monotonic() + delay > deadline:
                raise ConnectionLost(
                    f"Cannot connect to the RaspberryJuice server at {host}:{port} ({exc}). "
                    f"Is it running? Start the embedded one with `mcbridge world serve "
                    f"--port {port}`."
                ) from exc
            time.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)
            continue
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock


class LineReader:
    """Buffered reader: every byte received is kept until its line is consumed."""

    def __init__(self, sock: socket.socket, max_line: int = MAX_REPLY_BYTES) -> None:
        self._sock = sock
        self._buf = bytearray()
        self._lines: deque[str] = deque()
        self._max = max_line

    def readline(self, timeout: float) -> str:
        """The next line; TimeoutError if none completes in `timeout` s; EOFError at EOF."""
        if self._lines:
            return self._lines.popleft()
        deadline = time.monotonic() + timeout
        while not self._lines:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            self._sock.settimeout(remaining)
            self._receive()
        return self._lines.popleft()

    def ready_lines(self) -> list[str]:
        """Whatever complete lines have already arrived, without waiting."""
        self._sock.settimeout(0.0)
        with contextlib.suppress(BlockingIOError, InterruptedError):
            while True:
                self._receive()
        lines = list(self._lines)
        self._lines.clear()
        return lines

    def _receive(self) -> None:
        chunk = self._sock.recv(1 << 18)
        if not chunk:
            raise EOFError("the server closed the connection")
        self._buf += chunk
        if b"\n" not in chunk:
            if len(self._buf) > self._max:
                raise ProtocolError(f"a reply line exceeded {self._max} bytes.", desync=True)
            return
        end = self._buf.rfind(b"\n")
        text = self._buf[:end].decode("utf-8", "replace")
        del self._buf[: end + 1]
        self._lines.extend(line.removesuffix("\r") for line in text.split("\n"))


class SyncBatch(Batch):
    """A `Batch` bound to a `Connection`: `flush()` or leave the `with` block to send it."""

    def __init__(self, conn: Connection, fence_every: int) -> None:
        super().__init__(fence_every)
        self._conn = conn

    def flush(self) -> None:
        """Send everything in one write and wait for every reply (setters confirmed).

        Raises `CommandFailed` naming every failed setter, `ReplyTimeout`, or
        `ConnectionLost`; a failed query's error stays in its `Reply` for `result()`.
        """
        items, self.items = self.items, []
        self._conn.run_batch(items, self.fence_every)

    def __enter__(self) -> SyncBatch:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self.flush()


class Connection:
    """One RaspberryJuice session; see the module docstring. mcpi-compatible."""

    RequestFailed = "Fail"

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
        self.reconnect_timeout = reconnect_timeout
        self.fence_every = fence_every
        self.on_reconnect: list[Callable[[Connection], None]] = []
        self.lastSent = ""  # mcpi compatibility
        self._pipe = Pipeline(fence_at)
        self._lock = threading.RLock()
        self._caps: frozenset[str] | None = None
        self._closed = False
        self._sock: socket.socket | None = connect_with_backoff(host, port, connect_timeout)
        self._reader = LineReader(self._sock)
        self._handshake()

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def stats(self) -> Stats:
        """Commands, fences, round trips and estimated ticks so far (see `Stats`)."""
        return self._pipe.stats

    @property
    def connected(self) -> bool:
        return self._sock is not None

    # ------------------------------------------------------------------ batches
    def batch(self, fence_every: int | None = None) -> SyncBatch:
        return SyncBatch(self, self.fence_every if fence_every is None else fence_every)

    def run_batch(self, items: list[Item], fence_every: int,
                  on_written: Callable[[], None] | None = None) -> None:
        """Write `items` at once, wait for all their replies, raise what the batch earned.

        A batch of idempotent commands whose stream lost its place but was resynchronised
        in place is sent again (up to `retries` times); otherwise the typed error is
        raised and the batch hands out no value. `on_written` is called once the batch is
        first handed to the socket, before the wait (a caller on another thread may then
        go on with work that would otherwise hold up the encoding: see `Supervisor.step`).
        """
        with self._lock:
            self._check_extensions(items)
            for attempt in range(self.retries + 1):
                self._write(items, fence_every, owner=None, wait=True, on_written=on_written if attempt == 0 else None)
                error = batch_error(item.reply for item in items)
                retry = self.connected and attempt < self.retries
                if not (retry and commands.worth_retrying(error, items)):
                    break
                log.info("sending the batch again (%s)", error)
                commands.reset_replies(items)
            if error is not None:
                raise error
            self._raise_unclaimed()

    def sync(self) -> None:
        """Wait until every command sent so far is answered or confirmed."""
        with self._lock:
            if not self._pipe.idle and self._sock is not None:
                self._pipe.waiting()
                self._read_until(lambda: self._pipe.idle)
            self._raise_unclaimed()

    # ------------------------------------------------------------------ mcpi surface
    def send(self, f: str | bytes, *data: Any) -> None:
        """mcpi's fire-and-forget setter: written now, confirmed by a later wait.

        If it failed, the next wait of the same thread on this connection (`sendReceive`,
        `sync`, a batch) raises `CommandFailed` naming it, after reading its own replies.
        """
        batch = self.batch()
        batch.command(f, *data)
        with self._lock:
            self._check_extensions(batch.items)
            self._write(batch.items, self.fence_every, owner=threading.get_ident(), wait=False)
            if self._pipe.unread_units() > _MAX_UNREAD_UNITS:
                self._absorb_ready()

    def sendReceive(self, f: str | bytes, *data: Any) -> str:
        """mcpi's query: one round trip, the raw reply text (errors raised, typed)."""
        batch = self.batch()
        reply = batch.command(f, *data, parse=str)
        batch.flush()
        return reply.result()

    def capabilities(self) -> frozenset[str]:
        """Server extensions (`mcbridge.capabilities()`); empty on plain RaspberryJuice."""
        with self._lock:
            if self._caps is None:
                batch = self.batch()
                reply = batch.capabilities()
                batch.flush()
                self._caps = reply.result() if reply.ok else frozenset()
            return self._caps

    def max_box(self) -> int | None:
        """The largest `world.setBlocks` box the server says it takes (``max_box=N`` among
        its capabilities), or None when it does not say."""
        return commands.capability_number(self.capabilities(), "max_box")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._drop(ConnectionLost(f"the connection to {self.address} was closed."))

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals
    def _check_extensions(self, items: list[Item]) -> None:
        """Refuse extension commands the server lacks before anything is written."""
        needed = commands.extensions_needed(items)
        missing = needed - self.capabilities() if needed else set()
        if missing:
            raise Unsupported(unsupported_message(missing, self.address))

    def _write(self, items: list[Item], fence_every: int, *, owner: Hashable | None, wait: bool,
               on_written: Callable[[], None] | None = None) -> None:
        sock = self._ensure_connected()
        data, last = self._pipe.encode(items, fence_every, owner=owner)
        if items:
            self.lastSent = str(items[-1].command)
        try:
            self._send_bytes(sock, data)
        except OSError as exc:
            self._lost(exc)
        if on_written is not None:
            on_written()
        if wait and last is not None:
            self._pipe.waiting()
            target: _Unit = last
            self._read_until(lambda: target.complete)

    def _send_bytes(self, sock: socket.socket, data: bytes) -> None:
        """A bounded blocking write (the reader leaves its own timeouts on the socket)."""
        sock.settimeout(self.reply_timeout + self.resync_timeout)
        sock.sendall(data)

    def _read_until(self, done: Callable[[], bool]) -> None:
        while not done():
            try:
                line = self._reader.readline(self.reply_timeout)
            except TimeoutError:
                self._resync(timeout_error(self._pipe.head_command(), self.reply_timeout))
                continue
            except (OSError, EOFError, ProtocolError) as exc:
                self._lost(exc)
            self._feed(line)

    def _feed(self, line: str) -> None:
        try:
            self._pipe.feed(line)
        except Desync as exc:
            self._resync(ProtocolError(f"reply stream out of step: {exc}.", desync=True))

    def _resync(self, cause: ReplyTimeout | ProtocolError) -> None:
        """Fail what waits with `cause`, then discard lines up to a unique fence's reply."""
        if isinstance(cause, ReplyTimeout):
            self._pipe.stats.timeouts += 1
        log.warning("%s: resynchronising the reply stream", cause)
        data = self._pipe.begin_resync(cause, self._pipe.head_command())
        try:
            assert self._sock is not None
            self._send_bytes(self._sock, data)
            while self._pipe.resync_pending():
                self._pipe.feed(self._reader.readline(self.resync_timeout))
        except TimeoutError:
            self._drop(ConnectionLost(f"{self.address} stopped answering; reconnecting."))
        except (OSError, EOFError, ProtocolError, Desync) as exc:
            self._lost(exc)

    def _absorb_ready(self) -> None:
        """Read fence replies that already arrived, so unread replies cannot pile up."""
        try:
            lines = self._reader.ready_lines()
        except (OSError, EOFError, ProtocolError) as exc:
            self._lost(exc)
        for line in lines:
            self._feed(line)

    def _raise_unclaimed(self) -> None:
        error = self._pipe.take_unclaimed(threading.get_ident())
        if error is not None:
            raise error

    def _ensure_connected(self) -> socket.socket:
        if self._sock is not None:
            return self._sock
        if self._closed:
            raise ConnectionLost(f"the connection to {self.address} is closed.")
        self._sock = connect_with_backoff(self.host, self.port, self.reconnect_timeout)
        self._reader = LineReader(self._sock)
        self._handshake()
        self._caps = None
        self._pipe.stats.reconnects += 1
        log.info("reconnected to %s", self.address)
        for hook in list(self.on_reconnect):
            hook(self)
        return self._sock

    def _handshake(self) -> None:
        """Give the shared secret before anything else, when one is configured."""
        if self.secret is None:
            return
        assert self._sock is not None
        try:
            self._send_bytes(self._sock, handshake_line(self.secret))
            reply = self._reader.readline(self.reply_timeout)
        except (OSError, EOFError, TimeoutError, ProtocolError) as exc:
            self._lost(exc)
        if reply != "1":
            refused = handshake_refused(self.address, reply)
            self._drop(refused)
            raise refused

    def _lost(self, exc: BaseException) -> NoReturn:
        error = ConnectionLost(
            f"Lost the connection to {self.address} ({str(exc) or type(exc).__name__}); it "
            "reconnects on next use. Commands in flight may or may not have run."
        )
        self._drop(error)
        raise error from exc

    def _drop(self, error: ConnectionLost) -> None:
        self._pipe.abandon(lambda command, _head: ConnectionLost(f"{command}: {error}"))
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
        self._sock = None


class Minecraft(mcpi_minecraft.Minecraft):
    """mcpi's `Minecraft` over our `Connection`, plus batches and the server extensions.

    Every stock call works (`mc.setBlock`, `mc.getBlocks`, `mc.events.pollBlockHits()`...),
    now safe from injection, with timeouts and correct `Fail` attribution.
    """

    conn: Connection

    def __init__(self, connection: Connection) -> None:
        super().__init__(connection)

    @staticmethod
    def create(address: str = "127.0.0.1", port: int = DEFAULT_PORT, **options: Any) -> Minecraft:
        return Minecraft(Connection(address, port, **options))

    def batch(self, fence_every: int | None = None) -> SyncBatch:
        return self.conn.batch(fence_every)

    def getBlocks(self, *args: Any) -> list[int]:
        """A list (mcpi returns a single-use map), in y-x-z order."""
        return list(super().getBlocks(*args))

    def spawnEntity(self, *args: Any) -> int:
        """Floors the position, as every other block-position call does."""
        x, y, z, type_id = mcpi_minecraft.intFloor(args)
        return int(self.conn.sendReceive(b"world.spawnEntity", x, y, z, type_id))

    def capabilities(self) -> frozenset[str]:
        return self.conn.capabilities()

    def give(self, player: str, item_id: int, data: int = 0, count: int = 1) -> None:
        """Put items in one player's inventory (server extension; `Unsupported` on plain RJ)."""
        with self.batch() as batch:
            batch.give(player, (item_id, data), count)

    def tell(self, player: str, text: str) -> None:
        """A message only `player` sees (server extension; `Unsupported` on plain RJ)."""
        with self.batch() as batch:
            batch.tell(player, text)

    def private_set_block(
        self, player: str, x: float, y: float, z: float, block_id: int, data: int = 0
    ) -> None:
        """A block only `player` sees (server extension `private`; `Unsupported` elsewhere)."""
        with self.batch() as batch:
            batch.private_set_block(player, (x, y, z), (block_id, data))

    def private_set_sign(
        self, player: str, x: float, y: float, z: float, block_id: int, data: int, *lines: str
    ) -> None:
        """A sign and its text only `player` sees (server extension `private`)."""
        with self.batch() as batch:
            batch.private_set_sign(player, (x, y, z), (block_id, data), lines)

    def private_clear(self, player: str, cuboid: Cuboid | None = None) -> None:
        """`player` sees the world again, everywhere or inside `cuboid`."""
        with self.batch() as batch:
            batch.private_clear(player, cuboid)

    def placed_blocks(self) -> list[BlockChange]:
        """Blocks players placed since the last poll, with who (server extension `placements`)."""
        with self.batch() as batch:
            reply = batch.poll_placed()
        return reply.result()

    def broken_blocks(self) -> list[BlockChange]:
        """Blocks players broke since the last poll, with who (server extension `placements`)."""
        with self.batch() as batch:
            reply = batch.poll_broken()
        return reply.result()

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Minecraft:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


@contextlib.contextmanager
def connect(host: str = "127.0.0.1", port: int = DEFAULT_PORT, **options: Any) -> Iterator[Minecraft]:
    """`with connect(port=...) as mc:` — a facade that closes its socket on exit."""
    mc = Minecraft.create(host, port, **options)
    try:
        yield mc
    finally:
        mc.close()
