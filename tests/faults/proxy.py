"""A TCP proxy that breaks a RaspberryJuice link the way broken middleboxes and plugins do.

`FaultProxy` sits between a client and a server on 127.0.0.1 and, line by line and from a
seeded RNG, drops lines, duplicates them, cuts them in two (a newline inserted at a random
point), delays them, or cuts the whole connection in the middle of a line. Faults are set per
direction: `replies` (server to client, what issue 15's fault campaign broke) and `requests`
(client to server). Order is always kept, as TCP keeps it. Everything it did is counted in
`stats`, so a test can show that faults really happened.

    with FaultProxy(("127.0.0.1", port), replies=Faults(drop=0.01), seed=3) as proxy:
        conn = Connection(proxy.host, proxy.port)

Usable from any test directory: `from faults.proxy import FaultProxy, Faults` (pytest's
`pythonpath` includes tests/). Every thread it starts is stopped and joined by `stop()`;
`cut()` closes every open connection and keeps accepting.
"""

from __future__ import annotations

import random
import select
import socket
import time
from dataclasses import dataclass, field

from faults.listener import JOIN_TIMEOUT, POLL, Listener, close


@dataclass(frozen=True)
class Faults:
    """Per-line probabilities for one direction."""

    drop: float = 0.0
    duplicate: float = 0.0
    cut: float = 0.0  # split the line in two at a random point
    delay: float = 0.0
    delay_seconds: float = 0.02
    disconnect: float = 0.0  # send part of the line, then close the connection

    def any(self) -> bool:
        return any((self.drop, self.duplicate, self.cut, self.delay, self.disconnect))


@dataclass
class FaultStats:
    lines: int = 0
    dropped: int = 0
    duplicated: int = 0
    cut: int = 0
    delayed: int = 0
    disconnects: int = 0

    def faults(self) -> int:
        return self.dropped + self.duplicated + self.cut + self.delayed + self.disconnects


@dataclass
class _Direction:
    faults: Faults
    stats: FaultStats = field(default_factory=FaultStats)


class _Disconnect(Exception):
    pass


class FaultProxy(Listener):
    """See the module docstring. `set_faults` changes them while connections are open.

    `cut_after_requests=n` closes the *first* connection once it has forwarded n request
    lines (a server dropping the link in the middle of a batch). With `listening=False` the
    port is bound but refuses connections until `listen()`: a server that is down, on a port
    nobody else can take meanwhile (see `faults.listener`: bound before it listens).
    """

    def __init__(
        self,
        target: tuple[str, int],
        *,
        replies: Faults = Faults(),
        requests: Faults = Faults(),
        seed: int = 0,
        cut_after_requests: int | None = None,
        listening: bool = True,
    ) -> None:
        self.target = target
        self.seed = seed
        self.replies = _Direction(replies)
        self.requests = _Direction(requests)
        self.cut_after_requests = cut_after_requests
        self.linked = 0  # connections passed through (accepted with the target reachable)
        super().__init__(listening=listening)

    def set_faults(self, *, replies: Faults | None = None, requests: Faults | None = None) -> None:
        if replies is not None:
            self.replies.faults = replies
        if requests is not None:
            self.requests.faults = requests

    def _handle(self, client: socket.socket) -> None:
        """Open the upstream leg for this client and pump both directions in threads."""
        try:
            upstream = socket.create_connection(self.target, timeout=JOIN_TIMEOUT)
        except OSError:
            close(client)
            return
        for sock in (client, upstream):
            sock.settimeout(None)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._track(upstream)
        self.linked += 1
        number = self.linked  # the seeds and `cut_after_requests` count linked connections only
        rng_up = random.Random(f"{self.seed}:{number}:requests")
        rng_down = random.Random(f"{self.seed}:{number}:replies")
        limit = self.cut_after_requests if number == 1 else None
        self._spawn(self._pump, client, upstream, self.requests, rng_up, limit)
        self._spawn(self._pump, upstream, client, self.replies, rng_down, None)

    def _pump(
        self,
        src: socket.socket,
        dst: socket.socket,
        direction: _Direction,
        rng: random.Random,
        limit: int | None,
    ) -> None:
        pending = b""
        try:
            while not self._stop.is_set():
                # Blocking sockets, polled with select: a send never times out on a slow
                # reader, and stop() unblocks everything by closing the sockets.
                readable, _, _ = select.select([src], [], [], POLL)
                if not readable:
                    continue
                data = src.recv(1 << 16)
                if not data:
                    break
                faults = direction.faults
                if not faults.any() and limit is None:
                    dst.sendall(pending + data)
                    pending = b""
                    continue
                *lines, pending = (pending + data).split(b"\n")
                if limit is not None and direction.stats.lines + len(lines) >= limit:
                    self._forward(lines[: limit - direction.stats.lines], dst, direction, rng)
                    raise _Disconnect
                self._forward(lines, dst, direction, rng)
        except (OSError, ValueError, _Disconnect):  # ValueError: select on a closed socket
            pass
        finally:
            close(src)
            close(dst)

    def _forward(self, lines: list[bytes], dst: socket.socket, direction: _Direction, rng: random.Random) -> None:
        faults, stats = direction.faults, direction.stats
        out: list[bytes] = []
        for line in lines:
            stats.lines += 1
            roll = rng.random()
            if roll < faults.drop:
                stats.dropped += 1
                continue
            roll -= faults.drop
            if roll < faults.duplicate:
                stats.duplicated += 1
                out += [line, line]
                continue
            roll -= faults.duplicate
            if roll < faults.cut and len(line) > 1:
                stats.cut += 1
                at = rng.randrange(1, len(line))
                out += [line[:at], line[at:]]
                continue
            roll -= faults.cut
            if roll < faults.delay:
                stats.delayed += 1
                _send(dst, out)
                out = []
                time.sleep(faults.delay_seconds)
                out.append(line)
                continue
            roll -= faults.delay
            if roll < faults.disconnect:
                stats.disconnects += 1
                _send(dst, out)
                dst.sendall(line[: len(line) // 2])
                raise _Disconnect
            out.append(line)
        _send(dst, out)


def _send(dst: socket.socket, lines: list[bytes]) -> None:
    if lines:
        dst.sendall(b"".join(line + b"\n" for line in lines))
