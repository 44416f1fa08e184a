"""The asyncio TCP server and its tick loop: RaspberryJuice's execution model.

A Bukkit server runs RJ's commands on its main thread, once per tick: every tick it visits
the sessions in connection order and runs up to 9000 queued lines of each. Replies
therefore come only on a tick, pipelined lines are answered together, and a query costs
a round trip *plus* up to one tick. This class reproduces that on one asyncio loop:
reader tasks only queue lines, and :meth:`EmbeddedServer.tick` runs them.

``tps`` sets the pace: 20 is Minecraft's; ``0`` runs a tick as soon as there is work
(for fast tests), still one tick at a time with the same per-tick budget. Tests can also
:meth:`pause` the clock and :meth:`step` single ticks to observe tick boundaries exactly.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
from collections.abc import Iterable

from . import extensions, private  # noqa: F401  (register the mcbridge.* commands)
from .commands import MalformedLine, run_line
from .overlays import BlockChange
from .session import LineSplitter, Session
from .storage import Position
from .world import BlockHit, ChatPost, World
from .worldfile import load_world, save_world

log = logging.getLogger("mcbridge.world.embedded")

DEFAULT_PORT = 4711
MAX_COMMANDS_PER_TICK = 9000
#: A reader stops reading while its session has this many characters of lines waiting
#: (back-pressure instead of unbounded memory; RJ's queue is unbounded). A client that
#: sends faster than the ticks run is slowed down by TCP, and loses nothing.
MAX_QUEUED_CHARS = 1 << 20
#: A session whose client does not read its replies is not run while this much output
#: is still unsent.
MAX_UNSENT_BYTES = 64 << 20
READ_CHUNK = 1 << 16


class EmbeddedServer:
    """One embedded world served over RaspberryJuice. Runs on the loop that starts it."""

    def __init__(
        self,
        world: World | None = None,
        *,
        tps: float = 20.0,
        absolute: bool = False,
        world_file: str | os.PathLike[str] | None = None,
        max_commands_per_tick: int = MAX_COMMANDS_PER_TICK,
        secret: str | None = None,
    ) -> None:
        if tps < 0:
            raise ValueError("tps must be 0 (as fast as possible) or a positive rate.")
        self.world_file = world_file
        if world is None:
            world = load_world(world_file) if world_file is not None and os.path.exists(world_file) else World()
        self.world = world
        #: SHA-256 of the shared secret each connection must give first, if any.
        self._secret_hash = None if secret is None else _digest(secret)
        self.tps = tps
        self.absolute = absolute
        self.max_commands_per_tick = max_commands_per_tick
        self.sessions: list[Session] = []
        self.ticks = 0
        self.host = "127.0.0.1"
        self.port = 0
        self.world.listeners.append(self)
        self._server: asyncio.Server | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._work = asyncio.Event()
        self._paused = False
        self._session_count = 0
        self._readers: set[asyncio.Task[None]] = set()

    # -------------------------------------------------------------------- lifecycle
    async def start(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> int:
        """Listen and start ticking; returns the port (useful with port 0)."""
        self._server = await asyncio.start_server(self._serve_client, host, port)
        self.host = host
        self.port = self._server.sockets[0].getsockname()[1]
        self._ticker = asyncio.create_task(self._tick_loop(), name="embedded-ticks")
        log.info("embedded world listening on %s:%d (tps %s)", host, self.port, self.tps)
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        for session in self.sessions:
            session.close()
        self.sessions.clear()
        if self._readers:  # closed sockets end their readers; cancel any straggler
            _, stragglers = await asyncio.wait(self._readers, timeout=1.0)
            for task in stragglers:
                task.cancel()
            if stragglers:
                await asyncio.wait(stragglers, timeout=1.0)
        if self._server is not None:
            await self._server.wait_closed()

    def save(self, path: str | os.PathLike[str] | None = None) -> None:
        target = path if path is not None else self.world_file
        if target is None:
            raise ValueError("No world file: pass a path to save to.")
        save_world(self.world, target)

    @property
    def origin(self) -> Position:
        """The block every session's coordinates are relative to."""
        return (0, 0, 0) if self.absolute else self.world.spawn

    # -------------------------------------------------------------------- the clock
    def pause(self) -> None:
        """Stop the tick clock (queued lines wait); :meth:`step` runs ticks by hand."""
        self._paused = True

    def resume(self) -> None:
        self._paused = False
        self._work.set()

    def step(self, count: int = 1) -> None:
        for _ in range(count):
            self.tick()

    def queued_lines(self) -> int:
        return sum(len(s.in_queue) for s in self.sessions)

    def tick(self) -> None:
        """One server tick: run each session's queued lines, in connection order."""
        self.ticks += 1
        for session in [s for s in self.sessions if s.pending_removal]:
            self.sessions.remove(session)
            session.close()
        for session in list(self.sessions):
            try:
                self._run_session(session)
            except MalformedLine as exc:
                # RJ throws this outside its try/catch and loses the rest of the tick for
                # every later session too, so a flood of blank lines on one connection
                # stalls all others for as many ticks [decided here: hardening]. Only the
                # culprit's turn ends: its next lines run next tick.
                log.warning("session %d: malformed line %r: its turn ends", session.number, exc.args[0])

    def _run_session(self, session: Session) -> None:
        if session.origin is None:
            session.set_origin(self.origin)
        replies: list[str] = []
        try:
            if session.output_backlog() > MAX_UNSENT_BYTES:
                return
            processed = 0
            if not session.authenticated and session.in_queue:
                replies.append(self._authenticate(session, session.next_line()))
                if not session.authenticated:
                    return
            while session.in_queue:
                reply = run_line(session, self.world, session.next_line())
                processed += 1
                if reply is not None:
                    replies.append(reply)
                if processed >= self.max_commands_per_tick:
                    if session.in_queue:
                        log.warning(
                            "Over %d commands were queued - deferring %d to next tick",
                            self.max_commands_per_tick,
                            len(session.in_queue),
                        )
                    break
            if session.end_of_input and not session.in_queue:
                session.pending_removal = True
        finally:
            session.send_lines(replies)

    def _authenticate(self, session: Session, line: str) -> str:
        """The first line must be `mcbridge.auth(secret)`: `1`, or `Fail` and the end."""
        given = line[len("mcbridge.auth(") : -1] if line.startswith("mcbridge.auth(") else None
        assert self._secret_hash is not None
        if given is not None and line.endswith(")") and hmac.compare_digest(_digest(given), self._secret_hash):
            session.authenticated = True
            return "1"
        log.warning("session %d did not give the shared secret; closed", session.number)
        session.in_queue.clear()
        session.pending_removal = True
        return "Fail"

    async def _tick_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self.tps > 0:
            period = 1.0 / self.tps
            deadline = loop.time()
            while True:
                deadline += period
                delay = deadline - loop.time()
                if delay < -1.0:  # far behind (a stalled machine): do not race to catch up
                    deadline = loop.time()
                await asyncio.sleep(max(delay, 0.0))
                if not self._paused:
                    self._safe_tick()
        else:
            while True:
                await self._work.wait()
                self._work.clear()
                if self._paused:
                    continue
                self._safe_tick()
                if any(s.pending_removal for s in self.sessions):
                    self._work.set()
                if self.queued_lines():
                    self._work.set()
                    if all(s.output_backlog() > MAX_UNSENT_BYTES for s in self.sessions if s.in_queue):
                        await asyncio.sleep(0.01)  # only clients that do not read: no spin
                await asyncio.sleep(0)  # let readers and simulated players in

    def _safe_tick(self) -> None:
        try:
            self.tick()
        except Exception:  # a bug must never take the whole server down
            log.exception("tick %d failed", self.ticks)

    # ---------------------------------------------------------------- connections
    async def _serve_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Read lines into the session's queue until EOF; ticks do the rest. The socket
        is closed when a tick removes the session (after its last line has run)."""
        task = asyncio.current_task()
        if task is not None:
            self._readers.add(task)
        transport = writer.transport
        self._session_count += 1
        session = Session(
            number=self._session_count,
            write=lambda data: None if transport.is_closing() else transport.write(data),
            output_backlog=transport.get_write_buffer_size,
            close=transport.close,
            authenticated=self._secret_hash is None,
        )
        self.sessions.append(session)
        self._work.set()
        splitter = LineSplitter()
        try:
            while True:
                data = await reader.read(READ_CHUNK)
                if not data:
                    break
                self._queue(session, splitter.feed(data))
                while session.queued_chars > MAX_QUEUED_CHARS and session in self.sessions:
                    await asyncio.sleep(0.005)
            self._queue(session, splitter.finish())
        except (ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            # Only close() cancels readers. Ending normally keeps asyncio's stream
            # callback (Python 3.11) from logging a spurious traceback.
            pass
        finally:
            session.end_of_input = True
            self._work.set()
            if task is not None:
                self._readers.discard(task)

    def _queue(self, session: Session, lines: Iterable[str]) -> None:
        session.queue_lines(lines)
        self._work.set()

    # ------------------------------------------------- world events -> session queues
    def block_hit(self, hit: BlockHit) -> None:
        for session in self.sessions:
            if session.authenticated:
                session.block_hit(hit)

    def chat_posted(self, post: ChatPost) -> None:
        for session in self.sessions:
            if session.authenticated:
                session.chat_posted(post)

    def block_placed(self, change: BlockChange) -> None:
        for session in self.sessions:
            if session.authenticated:
                session.block_placed(change)

    def block_broken(self, change: BlockChange) -> None:
        for session in self.sessions:
            if session.authenticated:
                session.block_broken(change)


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "replace")).digest()
