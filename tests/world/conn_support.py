"""A scripted line server for the connection tests: behaviours no real server here has
(plain RJ without extensions, unsolicited lines). It listens on 127.0.0.1 only and stops
every thread it starts. Links that break are `faults.proxy.FaultProxy`.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from typing import Self

JOIN_TIMEOUT = 5.0


class _Listener:
    """Accept loop in a thread; subclasses handle each accepted socket."""

    def __init__(self, port: int = 0) -> None:
        self._server = socket.create_server(("127.0.0.1", port))
        self._server.settimeout(0.1)
        self.port = self._server.getsockname()[1]
        self.host = "127.0.0.1"
        self.accepted = 0
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
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
