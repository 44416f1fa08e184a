"""A scripted line server for the connection tests: behaviours no real server here has
(plain RJ without extensions, unsolicited lines). It listens on 127.0.0.1 only and stops
every thread it starts (the accept loop is `faults.listener.Listener`, shared with the
link-fault proxy). Links that break are `faults.proxy.FaultProxy`.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable

from faults.listener import Listener


class ScriptedServer(Listener):
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
