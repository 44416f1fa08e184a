"""Fault injection for the connection tests: a TCP proxy that can cut connections, and a
scripted line server for behaviours no real server here has (plain RJ without extensions,
unsolicited lines). Both listen on 127.0.0.1 only and stop every thread they start.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from typing import Self

JOIN_TIMEOUT = 5.0


class _Listener:
    """Accept loop in a thread; subclasses handle each accepted socket.

    With `listening=False` the port is bound but refuses connections until `listen()`:
    a server that is down, on a port nobody else can take meanwhile (it is never released
    and bound again).
    """

    def __init__(self, port: int = 0, *, listening: bool = True) -> None:
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.bind(("127.0.0.1", port))
        self._server.settimeout(0.1)
        self.port = self._server.getsockname()[1]
        self.host = "127.0.0.1"
        self.accepted = 0
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        if listening:
            self.listen()

    def listen(self) -> None:
        self._server.listen()
        self._spawn(self._accept_loop)

    def _spawn(self, target: Callable[..., None], *args: object) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        with self._lock:
            self._threads.append(thread)
        thread.start()

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            with self._lock:
                self._sockets.append(client)
            self._handle(client)

    def _handle(self, client: socket.socket) -> None:
        raise NotImplementedError

    def _track(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)

    def cut(self) -> None:
        """Close every open connection (the listener stays up)."""
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def stop(self) -> None:
        self._stop.set()
        self._server.close()
        self.cut()
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(JOIN_TIMEOUT)
            assert not thread.is_alive(), f"{thread} did not stop"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


class Proxy(_Listener):
    """Forwards to a real server. `cut_after_lines=n` closes the *first* connection after
    forwarding n request lines: a server dropping the link in the middle of a batch."""

    def __init__(
        self,
        target: tuple[str, int],
        cut_after_lines: int | None = None,
        port: int = 0,
        *,
        listening: bool = True,
    ) -> None:
        self.target = target
        self.cut_after_lines = cut_after_lines
        super().__init__(port, listening=listening)

    def _handle(self, client: socket.socket) -> None:
        upstream = socket.create_connection(self.target, timeout=JOIN_TIMEOUT)
        self._track(upstream)
        limit = self.cut_after_lines if self.accepted == 1 else None
        self._spawn(self._pump, client, upstream, limit)
        self._spawn(self._pump, upstream, client, None)

    def _pump(self, src: socket.socket, dst: socket.socket, limit: int | None) -> None:
        seen = 0
        try:
            src.settimeout(0.1)
        except OSError:
            return  # already cut
        while not self._stop.is_set():
            try:
                data = src.recv(1 << 16)
            except TimeoutError:
                continue
            except OSError:
                break
            if not data:
                break
            if limit is not None:
                seen_now = data.count(b"\n")
                if seen + seen_now >= limit:
                    cut_at = _nth_newline(data, limit - seen)
                    with contextlib.suppress(OSError):
                        dst.sendall(data[: cut_at + 1])
                    break
                seen += seen_now
            try:
                dst.sendall(data)
            except OSError:
                break
        for sock in (src, dst):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def _nth_newline(data: bytes, n: int) -> int:
    index = -1
    for _ in range(n):
        index = data.index(b"\n", index + 1)
    return index


class ScriptedServer(_Listener):
    """Answers each request line with `respond(line)`: a list of reply lines (maybe empty).

    Fences (`world.getBlockWithData`, `world.getBlocks`) are answered like RaspberryJuice
    over air.
    """

    def __init__(self, respond: Callable[[str], list[str]]) -> None:
        self.respond = respond
        self.received: list[str] = []
        super().__init__()

    def _handle(self, client: socket.socket) -> None:
        self._spawn(self._serve, client)

    def _serve(self, client: socket.socket) -> None:
        buffer = b""
        client.settimeout(0.1)
        while not self._stop.is_set():
            try:
                data = client.recv(1 << 16)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            out: list[str] = []
            for raw in lines:
                line = raw.decode("utf-8")
                self.received.append(line)
                out.extend(answer_fence(line) or self.respond(line))
            if out:
                with contextlib.suppress(OSError):
                    client.sendall("".join(f"{reply}\n" for reply in out).encode())


def answer_fence(line: str) -> list[str]:
    if line.startswith("world.getBlockWithData("):
        return ["0,0"]
    if not line.startswith("world.getBlocks("):
        return []
    x1, y1, z1, x2, y2, z2 = (int(v) for v in line[len("world.getBlocks(") : -1].split(","))
    volume = (abs(x2 - x1) + 1) * (abs(y2 - y1) + 1) * (abs(z2 - z1) + 1)
    return [",".join(["0"] * volume)]
