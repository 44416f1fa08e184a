"""The real Minecraft server: flying-squid (Node) with the RaspberryJuice bridge, from Python.

`start_flying_squid()` runs `server/launcher.js` as a child process and returns a
`ServerHandle` whose `port` is the RaspberryJuice bridge and whose `players` joins mineflayer
bots, so the same tests and demos run here as on the embedded world. `mcbridge server` runs it
in the foreground for people who want to join with a Minecraft 1.12.2 client.

Everything Node-side lives in `server/` (see server/launcher.js for the flags). This module only
starts, watches and stops processes, always by PID.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

from mcbridge.world.botrunner import BotDriver, stop_process

#: server/ in a source checkout (this file is mcbridge/world/realserver.py).
SERVER_DIR = Path(__file__).resolve().parents[2] / "server"
#: Versions package.json pins; an install with others is treated as missing.
PINNED = {"flying-squid": "1.12.0", "mineflayer": "4.39.0"}
MIN_NODE_MAJOR = 18
GAMEMODES = ("survival", "creative", "adventure")


class ServerUnavailable(RuntimeError):
    """A prerequisite of the real server is absent (no `node` on PATH, no server/node_modules).

    Only this is a reason for a test to skip; anything else that stops the server (a broken
    install, a crash at start-up) is a plain RuntimeError and fails the test.
    """


def find_node() -> str:
    """Path of a usable `node` (18 or newer); ServerUnavailable if absent, else RuntimeError."""
    node = shutil.which("node")
    if node is None:
        raise ServerUnavailable(
            "Node.js is not installed (no `node` on PATH); install Node 18 or newer to run the flying-squid server."
        )
    try:
        version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        major = int(version.lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError) as exc:
        raise RuntimeError(f"could not run `{node} --version`: {exc}") from exc
    if major < MIN_NODE_MAJOR:
        raise RuntimeError(f"Node {version} is too old for flying-squid; install Node 18 or newer.")
    return node


def node_modules_missing(server_dir: Path = SERVER_DIR) -> bool:
    return not (server_dir / "node_modules").is_dir()


def node_deps_problem(server_dir: Path = SERVER_DIR) -> str | None:
    """Why server/node_modules is unusable (missing or other versions), or None if it is fine."""
    for package, version in PINNED.items():
        manifest = server_dir / "node_modules" / package / "package.json"
        try:
            installed = json.loads(manifest.read_text(encoding="utf-8")).get("version")
        except (OSError, ValueError):
            return f"{server_dir}/node_modules is not installed; run `npm ci` in {server_dir}"
        if installed != version:
            return f"{package} {installed} is installed but {version} is pinned; run `npm ci` in {server_dir}"
    return None


def ensure_node_deps(server_dir: Path = SERVER_DIR) -> None:
    """Install the pinned Node packages with `npm ci` unless they are already there."""
    if node_deps_problem(server_dir) is None:
        return
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed; install Node.js (with npm) 18 or newer.")
    print(f"Installing the Node packages in {server_dir} (npm ci, about 20 s)...", flush=True)
    result = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=server_dir, check=False)
    problem = node_deps_problem(server_dir)
    if result.returncode != 0 or problem is not None:
        raise RuntimeError(f"`npm ci` in {server_dir} failed: {problem or 'see its output above'}")


class _BridgeLink:
    """A private RaspberryJuice connection for the handle's own requests (give, tell, signs)."""

    def __init__(self, port: int, timeout: float = 10.0, secret: str | None = None) -> None:
        self._port = port
        self._timeout = timeout
        self._secret = secret
        self._sock: socket.socket | None = None
        self._buffer = b""
        self._lock = threading.Lock()

    def _line(self, sock: socket.socket) -> str:
        while b"\n" not in self._buffer:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the bridge closed the connection")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode("utf-8")

    def request(self, line: str, setter: bool = False) -> str:
        """Send one command and return its reply; for a setter, "" on success or "Fail"."""
        if "\n" in line or "\r" in line:
            raise ValueError("a bridge request must be one line")
        with self._lock:
            if self._sock is None:
                self._sock = socket.create_connection(("127.0.0.1", self._port), self._timeout)
                self._buffer = b""
                if self._secret is not None:
                    self._sock.sendall(f"mcbridge.auth({self._secret})\n".encode())
                    if self._line(self._sock) != "1":
                        raise ConnectionError("the bridge refused the shared secret")
            fence = "mcbridge.capabilities()"
            try:
                self._sock.sendall((line + "\n" + (fence + "\n" if setter else "")).encode())
                reply = self._line(self._sock)
                if setter and reply == "Fail":
                    self._line(self._sock)  # the fence's answer
                    return "Fail"
            except OSError:
                # Replies are matched by order only: after a timeout the stream cannot be
                # trusted, so the next request starts on a fresh connection.
                self._sock.close()
                self._sock = None
                raise
            return "" if setter else reply

    def close(self) -> None:
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None


class FlyingSquidServer:
    """A running flying-squid server with its bridge: the `ServerHandle` for "flying-squid"."""

    kind = "flying-squid"
    host = "127.0.0.1"

    def __init__(
        self,
        process: subprocess.Popen[str],
        ready: dict[str, Any],
        node: str,
        log_path: Path | None,
        log_file: IO[str] | None,
        secret: str | None = None,
    ) -> None:
        self.process = process
        self.secret = secret
        self.port: int = int(ready["bridge_port"])
        self.minecraft_port: int = int(ready["minecraft_port"])
        self.origin: tuple[int, ...] = tuple(int(v) for v in ready["origin"])
        self.world_dir = Path(ready["world"])
        self.startup_ms: int = int(ready.get("startup_ms", 0))
        self.log_path = log_path
        self._log_file = log_file
        self.players = BotDriver(node, SERVER_DIR, self.minecraft_port, self.port, self.origin, log_file, secret)
        self._link = _BridgeLink(self.port, secret=secret)

    @property
    def pid(self) -> int:
        return self.process.pid

    def is_running(self) -> bool:
        return self.process.poll() is None

    # -- what tests and the controller need beyond RaspberryJuice (via mcbridge.* commands) --

    def give(self, player_name: str, item_id: int, data: int = 0, count: int = 1) -> None:
        """Put items in a player's inventory (mcbridge.give); ValueError if refused."""
        reply = self._link.request(f"mcbridge.give({player_name},{item_id},{data},{count})", True)
        if reply == "Fail":
            raise ValueError(f"the server refused to give {count} x {item_id}:{data} to {player_name!r}")

    def tell(self, player_name: str, text: str) -> None:
        """Send one player a private message (mcbridge.tell); ValueError if nobody has that name."""
        if self._link.request(f"mcbridge.tell({player_name},{text})", True) == "Fail":
            raise ValueError(f"no player named {player_name!r} is online")

    def sign_lines(self, x: int, y: int, z: int) -> tuple[str, str, str, str] | None:
        """The four lines of the sign at protocol x,y,z, or None when the block is no sign."""
        reply = self._link.request(f"mcbridge.getSign({int(x)},{int(y)},{int(z)})")
        if reply == "Fail":
            return None
        a, b, c, d = json.loads(reply)
        return (a, b, c, d)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the bots, then the server (SIGTERM, SIGKILL after `timeout` s); idempotent."""
        self._link.close()
        self.players.stop()
        stop_process(self.process, timeout)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
            if self.log_path is not None and self.process.returncode == 0:
                self.log_path.unlink(missing_ok=True)

    def __enter__(self) -> FlyingSquidServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def start_flying_squid(
    port: int = 0,
    bridge_port: int = 0,
    world_dir: str | os.PathLike[str] | None = None,
    gamemode: str = "survival",
    view_distance: int = 4,
    host: str = "127.0.0.1",
    hitclick: str = "RIGHT",
    timeout: float = 30.0,
    log: str | os.PathLike[str] | bool | None = None,
    secret: str | None = None,
) -> FlyingSquidServer:
    """Start flying-squid and its bridge; return once both listen.

    Port 0 picks a free port (read the chosen ones from `.minecraft_port` and `.port`). Without
    `world_dir` the world is temporary. `hitclick` is RaspberryJuice's setting: which sword
    clicks are block hits (RIGHT, its default; LEFT; BOTH). `log`: None writes the server log to a temporary file
    (removed after a clean stop, kept otherwise and named in errors), a path writes it there,
    True passes it through to this process's stderr. `secret` is the bridge's shared secret
    (server/README.md); the handle's own links and the bots give it. Raises ServerUnavailable
    when Node or server/node_modules is absent, RuntimeError with the reason when the server
    does not come up within `timeout`.
    """
    node = find_node()
    problem = node_deps_problem()
    if problem is not None:
        raise (ServerUnavailable if node_modules_missing() else RuntimeError)(problem)
    if gamemode not in GAMEMODES:
        raise ValueError(f"gamemode must be one of {', '.join(GAMEMODES)}, not {gamemode!r}")

    log_path: Path | None = None
    log_file: IO[str] | None = None
    if log is not True:
        if log is None or log is False:
            fd, name = tempfile.mkstemp(prefix="mcbridge-flying-squid-", suffix=".log")
            os.close(fd)
            log_path = Path(name)
        else:
            log_path = Path(log)
        log_file = open(log_path, "a", encoding="utf-8")  # noqa: SIM115 - closed by stop()

    command = [
        node,
        str(SERVER_DIR / "launcher.js"),
        "--host", host,
        "--port", str(port),
        "--bridge-port", str(bridge_port),
        "--gamemode", gamemode,
        "--view-distance", str(view_distance),
        "--hitclick", hitclick,
        "--parent-pid", str(os.getpid()),
    ]  # fmt: skip
    if world_dir is not None:
        command += ["--world", str(Path(world_dir).resolve())]
    env = dict(os.environ)
    env.pop("MCBRIDGE_BRIDGE_SECRET", None)
    if secret is not None:
        env["MCBRIDGE_BRIDGE_SECRET"] = secret
    process = subprocess.Popen(
        command,
        cwd=SERVER_DIR,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=log_file if log_file is not None else None,
        text=True,
        encoding="utf-8",
        start_new_session=True,
    )
    try:
        ready = _wait_for_ready(process, timeout)
        if ready.get("event") != "ready":
            raise RuntimeError(f"flying-squid did not start: {ready.get('message')}")
    except BaseException as exc:
        stop_process(process, 5.0)
        if log_file is not None:
            log_file.close()
        if isinstance(exc, RuntimeError) and log_path is not None:
            raise RuntimeError(f"{exc} (server log: {log_path})") from exc
        raise
    return FlyingSquidServer(process, ready, node, log_path, log_file, secret)


def _wait_for_ready(process: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    """The launcher's first stdout line (a JSON event), read with a deadline."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, name="flying-squid-stdout", daemon=True).start()
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise RuntimeError(f"flying-squid did not report ready within {timeout:.0f} s") from None
        if line is None:
            raise RuntimeError(f"flying-squid exited during start-up (code {process.wait()})")
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(event, dict) and event.get("event") in ("ready", "error"):
            return event


# -- `mcbridge server` ---------------------------------------------------------------------


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "server",
        help="run a Minecraft 1.12.2 server (flying-squid) with the RaspberryJuice bridge",
        description=(
            "Start a Minecraft 1.12.2 server (flying-squid, offline mode) with a RaspberryJuice "
            "bridge on 127.0.0.1, installing its Node packages first if needed. Runs until Ctrl-C."
        ),
    )
    parser.add_argument("--port", type=int, default=25565, help="Minecraft port (default 25565)")
    parser.add_argument("--bridge-port", type=int, default=4711, help="RaspberryJuice port (default 4711)")
    parser.add_argument("--world", metavar="DIR", help="world folder (default: a temporary one)")
    parser.add_argument("--gamemode", choices=GAMEMODES, default="survival")
    parser.add_argument("--view-distance", type=int, default=8)
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address for the Minecraft port (0.0.0.0 for a LAN game; the bridge stays local)",
    )
    parser.set_defaults(func=_run_server)


def _run_server(args: argparse.Namespace) -> int:
    try:
        find_node()
        ensure_node_deps()
        server = start_flying_squid(
            port=args.port,
            bridge_port=args.bridge_port,
            world_dir=args.world,
            gamemode=args.gamemode,
            view_distance=args.view_distance,
            host=args.host,
            log=True,
        )
    except RuntimeError as exc:
        print(f"mcbridge server: {exc}", file=sys.stderr)
        return 1
    print(
        f"Minecraft 1.12.2 server (offline mode) on {args.host}:{server.minecraft_port}, "
        f"RaspberryJuice bridge on 127.0.0.1:{server.port}, world in {server.world_dir}. "
        "Press Ctrl-C to stop.",
        flush=True,
    )
    try:
        while server.is_running():
            time.sleep(0.5)
        print(f"mcbridge server: the server exited (code {server.process.returncode})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Stopping (saving the world)...", flush=True)
        return 0
    finally:
        server.stop()
