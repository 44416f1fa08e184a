"""mineflayer bots as `SimPlayer`s: real Minecraft clients that tests and demos script.

The bots live in one Node process (`server/bots/runner.js`), which this module drives with JSON
lines over its stdin and stdout. One process hosts every bot because a mineflayer process costs
about 100 MB; requests are answered out of order, so each carries an id and its own timeout.

Coordinates in the public API are protocol coordinates (relative to the RaspberryJuice origin),
as everywhere in `mcbridge.world.driver`; the runner works in absolute world coordinates.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

#: Extra seconds the Python side waits beyond a request's own timeout (the runner answers
#: every request itself, timeouts included; this only covers a runner that has hung).
REPLY_MARGIN_S = 5.0


class BotError(RuntimeError):
    """A bot could not do what it was asked (the message says why)."""


class BotRunner:
    """The Node process hosting the bots, with a reader thread matching replies to requests."""

    def __init__(
        self,
        node: str,
        server_dir: Path,
        host: str,
        minecraft_port: int,
        bridge_port: int,
        log: IO[str] | None = None,
        start_timeout: float = 20.0,
        secret: str | None = None,
    ) -> None:
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._pending: dict[int, tuple[threading.Event, list[dict[str, Any]]]] = {}
        self._ready = threading.Event()
        self._dead: str | None = None
        self.process = subprocess.Popen(
            [
                node,
                str(server_dir / "bots" / "runner.js"),
                "--host",
                host,
                "--port",
                str(minecraft_port),
                "--bridge-port",
                str(bridge_port),
            ],
            cwd=server_dir,
            env={**os.environ, "MCBRIDGE_BRIDGE_SECRET": secret or ""},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log if log is not None else subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, name="bot-runner-reader", daemon=True)
        self._reader.start()
        if not self._ready.wait(start_timeout):
            self.stop()
            raise RuntimeError(f"the bot runner did not start within {start_timeout:.0f} s")
        if self._dead is not None:
            raise RuntimeError(f"the bot runner exited at start: {self._dead}")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            if message.get("event") == "ready":
                self._ready.set()
                continue
            with self._lock:
                waiter = self._pending.pop(message.get("id"), None)
            if waiter is not None:
                waiter[1].append(message)
                waiter[0].set()
        self._dead = f"the bot runner exited (code {self.process.wait()})"
        self._ready.set()
        with self._lock:
            waiters = list(self._pending.values())
            self._pending.clear()
        for event, _ in waiters:
            event.set()

    def request(self, op: str, timeout: float = 10.0, **fields: Any) -> Any:
        """Run one op and return its result; BotError if refused, TimeoutError if too slow."""
        if self._dead is not None:
            raise BotError(self._dead)
        request_id = next(self._ids)
        event = threading.Event()
        box: list[dict[str, Any]] = []
        with self._lock:
            self._pending[request_id] = (event, box)
        message = {"id": request_id, "op": op, "timeout": timeout, **fields}
        try:
            assert self.process.stdin is not None
            with self._lock:
                self.process.stdin.write(json.dumps(message) + "\n")
                self.process.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise BotError(f"the bot runner is gone: {exc}") from exc
        if not event.wait(timeout + REPLY_MARGIN_S):
            with self._lock:
                self._pending.pop(request_id, None)
            raise TimeoutError(f"bot runner gave no answer to {op} within {timeout + REPLY_MARGIN_S:.0f} s")
        if not box:
            raise BotError(self._dead or "the bot runner stopped")
        reply = box[0]
        if reply.get("ok"):
            return reply.get("result")
        if reply.get("timeout"):
            raise TimeoutError(f"{op}: {reply.get('error')}")
        raise BotError(f"{op}: {reply.get('error')}")

    def stop(self, timeout: float = 5.0) -> None:
        """Let the bots leave (closing stdin asks the runner to quit), then stop it by PID."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                stop_process(self.process, timeout)
        self._reader.join(timeout)


def stop_process(process: subprocess.Popen[Any], timeout: float) -> None:
    """SIGTERM by PID, then SIGKILL if it is still there after `timeout` seconds."""
    if process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout)


class BotPlayer:
    """A `SimPlayer` backed by one mineflayer bot."""

    def __init__(self, runner: BotRunner, name: str, origin: Sequence[int], state: dict[str, Any]):
        self.name = name
        self._runner = runner
        self._origin = tuple(origin)
        self._entity_id = int(state["entity_id"])
        self._left = False

    @property
    def entity_id(self) -> int:
        return self._entity_id

    def _absolute(self, x: float, y: float, z: float) -> list[float]:
        return [x + self._origin[0], y + self._origin[1], z + self._origin[2]]

    def _request(self, op: str, timeout: float = 10.0, **fields: Any) -> Any:
        return self._runner.request(op, timeout, bot=self.name, **fields)

    def position(self) -> tuple[float, float, float]:
        x, y, z = self._request("state")["position"]
        return (x - self._origin[0], y - self._origin[1], z - self._origin[2])

    def walk_to(self, x: float, y: float, z: float, timeout: float = 10.0) -> None:
        self._request("walk_to", timeout, position=self._absolute(x, y, z))

    def hold(self, item_id: int, data: int = 0) -> None:
        self._request("hold", item=item_id, data=data)

    def right_click(self, x: int, y: int, z: int, face: int = 1) -> None:
        self._request("right_click", position=self._absolute(x, y, z), face=face)

    def left_click(self, x: int, y: int, z: int, face: int = 1) -> None:
        """Punch a block without breaking it (start digging, stop at once)."""
        self._request("left_click", position=self._absolute(x, y, z), face=face)

    def players_seen(self) -> dict[str, list[str]]:
        """{"listed": names in this client's player list, "visible": those it sees in the world}."""
        return dict(self._request("players_seen"))

    def place(self, x: int, y: int, z: int, item_id: int, data: int = 0) -> None:
        self._request("place", position=self._absolute(x, y, z), item=item_id, data=data)

    def break_block(self, x: int, y: int, z: int) -> None:
        self._request("break", position=self._absolute(x, y, z))

    def chat(self, text: str) -> None:
        self._request("chat", text=text)

    def inventory(self) -> dict[tuple[int, int], int]:
        return {(i["id"], i["data"]): i["count"] for i in self._request("inventory")}

    def private_messages(self) -> list[str]:
        return list(self._request("messages")["private"])

    def chat_heard(self) -> list[str]:
        return list(self._request("messages")["public"])

    def block_at(self, x: int, y: int, z: int) -> dict[str, Any] | None:
        """What this client sees at a block: {"id", "data", "name"[, "sign_text"]} or None."""
        result = self._request("block_at", position=self._absolute(x, y, z))
        return dict(result) if result is not None else None

    def sign_text(self, x: int, y: int, z: int) -> list[str] | None:
        """The four lines this client shows on the sign at x,y,z (None if it sees no sign)."""
        block = self.block_at(x, y, z)
        return list(block["sign_text"]) if block and "sign_text" in block else None

    def seen_block(self, x: int, y: int, z: int) -> tuple[int, int] | None:
        """(id, data) this client shows at x,y,z (as the embedded simulator's `seen_block`);
        None when it has no chunk there."""
        block = self.block_at(x, y, z)
        return (int(block["id"]), int(block["data"])) if block is not None else None

    def seen_sign(self, x: int, y: int, z: int) -> tuple[str, str, str, str] | None:
        """The sign text this client shows there (None where it sees no sign)."""
        lines = self.sign_text(x, y, z)
        return (lines[0], lines[1], lines[2], lines[3]) if lines is not None else None

    def received_at(self, x: int, y: int, z: int) -> dict[str, list[Any]]:
        """Every block state ([id, data]) and sign text this client was ever sent for x,y,z in
        block or sign packets (chunk data aside): what a logging client would have seen."""
        return dict(self._request("received_at", position=self._absolute(x, y, z)))

    def leave(self) -> None:
        """Disconnect; returns once the server no longer lists the player. Idempotent."""
        if not self._left:
            self._request("leave")
            self._left = True


class BotDriver:
    """A `PlayerDriver` that joins mineflayer bots; the runner starts on the first join."""

    def __init__(
        self,
        node: str,
        server_dir: Path,
        minecraft_port: int,
        bridge_port: int,
        origin: Sequence[int],
        log: IO[str] | None = None,
        secret: str | None = None,
    ) -> None:
        self._args = (node, server_dir, "127.0.0.1", minecraft_port, bridge_port, log)
        self._secret = secret
        self._origin = tuple(origin)
        self._runner: BotRunner | None = None
        self._lock = threading.Lock()

    def runner(self) -> BotRunner:
        with self._lock:
            if self._runner is None:
                self._runner = BotRunner(*self._args, secret=self._secret)
            return self._runner

    def join(self, name: str, timeout: float = 10.0) -> BotPlayer:
        runner = self.runner()
        state = runner.request("join", timeout, bot=name)
        return BotPlayer(runner, name, self._origin, state)

    def stop(self) -> None:
        with self._lock:
            if self._runner is not None:
                self._runner.stop()
                self._runner = None
