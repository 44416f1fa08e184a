"""Hostile connections against both servers: memory, and stalls of an honest connection.

Issue 14 measured on main: 200 connections each holding an unterminated 1 MB line raised
the embedded world from 40 to 258 MB and the bridge from 89 to 320 MB, and a flood of blank
lines on one connection stalled every other connection for about 10 s (RaspberryJuice
abandons the rest of the tick, for every later session, at each malformed line).

Each server runs in its own process (the embedded world at 20 TPS, and flying-squid with its
bridge when Node is here), so its resident memory (VmRSS) can be read. Cases:

* 200 hostile connections, each sending 1 MB with no newline and staying open: RSS before
  and after, and an honest query's round trip while they hang on;
* one connection sending 400 blank lines, then an honest query on another connection;
* one connection streaming 20 MB of one partial line while an honest one queries.

Latencies are in seconds and in ticks (50 ms). `--tree DIR` runs the servers of another
checkout (e.g. `git archive main | tar -x -C /tmp/before`) to compare before and after side by
side with `--compare DIR`. Prints a table; never fails on timing.

    python bench/hostile_connections.py [--compare /tmp/before] [--connections 200]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK = 0.05
QUERY = b"world.getBlock(0,0,0)\n"
LINE = 1 << 20  # 1 MB, no newline
START_TIMEOUT = 60.0
REPLY_TIMEOUT = 60.0


@dataclass
class Result:
    rss_before_mb: float = 0.0
    rss_after_mb: float = 0.0
    honest_under_load_s: float = 0.0
    blank_flood_s: float = 0.0
    partial_flood_s: float = 0.0


def rss_mb(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(match.group(1)) / 1024 if match else float("nan")


@contextlib.contextmanager
def embedded_server(tree: Path) -> Iterator[tuple[int, int]]:
    code = "import sys; from mcbridge.cli import main; sys.exit(main(['world', 'serve', '--port', '0', '--tps', '20']))"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("MCBRIDGE_BRIDGE_SECRET", None)
    process = subprocess.Popen(
        [sys.executable, "-c", code], cwd=tree, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r":(\d+) ", line)
        if match is None:
            raise RuntimeError(f"the embedded world did not start: {line!r}")
        yield process.pid, int(match.group(1))
    finally:
        stop(process)


@contextlib.contextmanager
def bridge_server(tree: Path) -> Iterator[tuple[int, int]]:
    node = shutil.which("node")
    if node is None or not (tree / "server" / "node_modules").is_dir():
        raise RuntimeError("no Node or server/node_modules")
    env = dict(os.environ)
    env.pop("MCBRIDGE_BRIDGE_SECRET", None)
    process = subprocess.Popen(
        [node, "launcher.js", "--port", "0", "--bridge-port", "0", "--view-distance", "2"],
        cwd=tree / "server", env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        ready = json.loads(process.stdout.readline() or "{}")
        if ready.get("event") != "ready":
            raise RuntimeError(f"flying-squid did not start: {ready}")
        yield process.pid, int(ready["bridge_port"])
    finally:
        stop(process)


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=REPLY_TIMEOUT)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def ask(port: int) -> float:
    """Seconds for one honest query on a fresh connection (after a first, untimed one)."""
    with connect(port) as sock:
        timed(sock)  # warm: the session exists and has its origin
        return timed(sock)


def timed(sock: socket.socket) -> float:
    started = time.perf_counter()
    sock.sendall(QUERY)
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(64)
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return time.perf_counter() - started


def settle(pid: int, seconds: float = 2.0) -> float:
    time.sleep(seconds)
    return rss_mb(pid)


def measure(server: contextlib.AbstractContextManager[tuple[int, int]], connections: int) -> Result:
    result = Result()
    with server as (pid, port):
        ask(port)
        result.rss_before_mb = settle(pid)
        hostile: list[socket.socket] = []
        payload = b"x" * LINE
        try:
            for _ in range(connections):
                sock = connect(port)
                sock.sendall(payload)
                hostile.append(sock)
            result.rss_after_mb = settle(pid)
            result.honest_under_load_s = ask(port)
        finally:
            for sock in hostile:
                sock.close()
        # The honest connection comes after the flooder: RaspberryJuice runs sessions in
        # connection order and abandons the tick for every later one at a malformed line.
        with connect(port) as flooder, connect(port) as honest:
            timed(flooder)
            timed(honest)
            flooder.sendall(b"\n" * 400)
            time.sleep(TICK)
            result.blank_flood_s = timed(honest)
        with connect(port) as streamer:
            done = threading.Event()

            def stream() -> None:
                chunk = b"y" * (1 << 16)
                with contextlib.suppress(OSError):
                    for _ in range(320):  # 20 MB of one line
                        if done.is_set():
                            return
                        streamer.sendall(chunk)

            thread = threading.Thread(target=stream, daemon=True)
            thread.start()
            time.sleep(0.2)
            result.partial_flood_s = ask(port)
            done.set()
            thread.join(REPLY_TIMEOUT)
    return result


def run(tree: Path, connections: int) -> dict[str, Result | str]:
    out: dict[str, Result | str] = {}
    for kind, server in (("embedded", embedded_server), ("bridge", bridge_server)):
        try:
            out[kind] = measure(server(tree), connections)
        except (RuntimeError, OSError) as exc:
            out[kind] = f"not run: {exc}"
    return out


def ticks(seconds: float) -> str:
    return f"{seconds:7.3f} s {seconds / TICK:6.1f} t"


def report(title: str, results: dict[str, dict[str, Result | str]], connections: int) -> None:
    print(f"\n{title}")
    header = f"{'server':<10}{'tree':<8}{'RSS before':>11}{'after':>9}{'growth':>9}"
    header += f"{'honest, ' + str(connections) + ' hostile':>24}{'after blank flood':>20}"
    header += f"{'during partial flood':>23}"
    print(header)
    for kind in ("embedded", "bridge"):
        rows = [(name, res[kind]) for name, res in results.items()]
        for name, r in rows:
            if isinstance(r, str):
                print(f"{kind:<10}{name:<8}{r}")
                continue
            growth = r.rss_after_mb - r.rss_before_mb
            print(
                f"{kind:<10}{name:<8}{r.rss_before_mb:>9.0f}MB{r.rss_after_mb:>7.0f}MB"
                f"{growth:>7.0f}MB{ticks(r.honest_under_load_s):>24}{ticks(r.blank_flood_s):>20}"
                f"{ticks(r.partial_flood_s):>23}"
            )
        if len(rows) == 2 and all(isinstance(r, Result) for _, r in rows):
            (_, before), (_, after) = rows
            assert isinstance(before, Result) and isinstance(after, Result)
            grow_b = max(before.rss_after_mb - before.rss_before_mb, 0.1)
            grow_a = max(after.rss_after_mb - after.rss_before_mb, 0.1)
            stall = before.blank_flood_s / max(after.blank_flood_s, 1e-6)
            print(
                f"{kind:<10}{'ratio':<8} memory growth before/after {grow_b / grow_a:.1f}x, "
                f"blank-flood stall before/after {stall:.1f}x"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout to measure")
    parser.add_argument("--compare", type=Path, help="another checkout, measured first (before)")
    parser.add_argument("--connections", type=int, default=200)
    args = parser.parse_args()
    results: dict[str, dict[str, Result | str]] = {}
    if args.compare is not None:
        results["before"] = run(args.compare.resolve(), args.connections)
    results["after" if args.compare else "this"] = run(args.tree.resolve(), args.connections)
    report("[HOSTILE] 200 connections holding 1 MB lines, blank and partial-line floods", results, args.connections)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
