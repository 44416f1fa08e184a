"""One accept loop for the test servers on 127.0.0.1: `FaultProxy` and the connection tests'
`ScriptedServer` both subclass `Listener` and only say what to do with each accepted socket.

Bind before listen: the port is bound in `__init__` and, with `listening=False`, accepts
nothing until `listen()`. A client connecting meanwhile is refused, as by a server that is
down, yet the port stays ours the whole time: releasing it and binding it again later would
let another process (the machine runs several test sessions at once) take it in between.
Every thread a listener starts, and every socket it tracks, is closed by `stop()`.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from typing import Self

JOIN_TIMEOUT = 5.0
POLL = 0.1  # how often a blocked accept looks at the stop flag


class Listener:
    """Accept loop in a thread; subclasses handle each accepted socket in `_handle`."""

    def __init__(self, port: int = 0, *, listening: bool = True) -> None:
        self.host = "127.0.0.1"
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.bind((self.host, port))
        self._server.settimeout(POLL)
        self.port: int = self._server.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._sockets: list[socket.socket] = []
        if listening:
            self.listen()

    def listen(self) -> None:
        """Start accepting (the port was bound all along)."""
        self._server.listen()
        self._spawn(self._accept_loop)

    def _handle(self, client: socket.socket) -> None:
        raise NotImplementedError

    def _spawn(self, target: Callable[..., None], *args: object) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        with self._lock:
            self._threads.append(thread)
        thread.start()

    def _track(self, *socks: socket.socket) -> None:
        """Close these with the next `cut()` or `stop()`."""
        with self._lock:
            self._sockets.extend(socks)

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            self._track(client)
            self._handle(client)

    def cut(self) -> None:
        """Close every open connection now (the listener keeps accepting)."""
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            close(sock)

    def stop(self) -> None:
        self._stop.set()
        self._server.close()
        self.cut()
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(JOIN_TIMEOUT)
            assert not thread.is_alive(), f"{thread.name} did not stop"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
