"""Web view at scale: 500 spectator websockets, delivery latency from the world change.

The server process holds one Wool Bluff table (no world: its actions come from the game's
bot policy, one per 50 ms tick, as fast as a busy table), the hub and the web server, as
`mcbridge run --web` does. After each action the tables' loop calls `hub.cycle()` (where a
real loop does it: right after the supervisor's write, the world change); its start time
is the reference. The spectators run in a second process (so they do not share the
server's GIL): N websockets, each noting when every `table` message arrives. Both sides
read CLOCK_MONOTONIC, which is one clock for the whole machine on Linux.

Also: S stalled clients (they finish the handshake, then never read, with a small receive
buffer) that the server must drop, and the tables' own time per cycle (hub.cycle) with 0
spectators and with N + S, side by side: the ratio shows whether spectators slow the table.

Run: .venv/bin/python bench/web.py [--clients 500] [--stalled 20] [--procs 1] [--seconds 20]
Goal (issue 17): p99 delivery <= 50 ms (one tick); stalled clients dropped; cycle ratio ~1.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TICK = 0.05
SEQ = re.compile(rb'"match": (\d+|null), "seq": (\d+)')


# -- the spectators' process --------------------------------------------------------------
HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")


def _spectate(port: int, clients: int, stalled: int, seconds: float) -> dict[str, object]:
    """Readers as lean as a socket can be (a selector, no frame parsing: the server's frames
    are unmasked, so the JSON is in the byte stream), so the figures are the server's, not
    a Python websocket client's; the real client is the browser test's chromium."""
    import selectors

    arrivals: list[dict[str, float]] = [{} for _ in range(clients)]
    tails = [b""] * clients
    sel = selectors.DefaultSelector()
    keep = []
    for _ in range(stalled):  # handshake, then never read again
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(HANDSHAKE)
        keep.append(s)
    for k in range(clients):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(HANDSHAKE)
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, k)
        keep.append(s)
    print("READY", flush=True)
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        for key, _ in sel.select(min(left, 0.5)):
            k = key.data
            try:
                data = key.fileobj.recv(1 << 16)  # type: ignore[union-attr]
            except BlockingIOError:
                continue
            now = time.monotonic()
            chunk = tails[k] + data
            for m in SEQ.finditer(chunk):
                arrivals[k].setdefault(f"{m[1].decode()}/{m[2].decode()}", now)
            tails[k] = chunk[-64:]
    for s in keep:
        s.close()
    return {"arrivals": arrivals}


def spectators_main(port: int, clients: int, stalled: int, seconds: float) -> None:
    result = _spectate(port, clients, stalled, seconds)
    sys.stdout.write("RESULT " + json.dumps(result) + "\n")


# -- the server's process -----------------------------------------------------------------
def make_table(tmp: Path):  # type: ignore[no-untyped-def]
    from mcbridge import CONFIG_DIR
    from mcbridge.tables.config import load_arena
    from mcbridge.tables.journal import Journal
    from mcbridge.tables.table import Table

    arena = load_arena(CONFIG_DIR / "arenas" / "wool_bluff.yaml")
    arena = dataclasses.replace(arena, locale="en", settings={**arena.settings, "dispensing": "booth"})
    table = Table(arena, Journal(tmp / "bench.sqlite"), time.monotonic, seed=1, start_delay=0.0, hold=0.0,
                  reveal_hold=0.0)
    for booth, name in enumerate(["Aki", "Ben", "Chie", "Dan"]):
        table.join(booth, name)
    return table


def play_for(table, hub, seconds: float, sent: dict[str, float], cycle_ms: list[float]) -> None:  # type: ignore[no-untyped-def]
    """One bot action per tick, then the web's hook, as the tables' loop would."""
    from mcbridge.core import Rng
    from mcbridge.games.wool_bluff import WoolBluffBot
    from mcbridge.world.blocks import Block

    bot, rng = WoolBluffBot(), Rng(5)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        wanted = table.reads_wanted()  # the walls read back as drawn (no world here)
        if wanted:
            scene = table.scene().blocks
            table.on_reads({key: [scene.get(p, Block(0)) for p in cells] for key, cells in wanted.items()})
        table.tick()
        state = table.state
        if state is not None and not state.is_over:
            for seat in sorted(s for s in state.to_act() if s >= 0)[:1]:
                table.submit(seat, bot.choose(state.view(seat), state.legal_actions(seat), rng))
        t0 = time.monotonic()
        hub.cycle()
        cycle_ms.append((time.monotonic() - t0) * 1000)
        time.sleep(max(0.0, TICK - (time.monotonic() - started)))


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=500)
    ap.add_argument("--stalled", type=int, default=20)
    ap.add_argument("--procs", type=int, default=1, help="processes the spectators are spread over")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--spectators", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.spectators:
        port, clients, stalled, seconds = args.spectators
        spectators_main(int(port), int(clients), int(stalled), float(seconds))
        return 0

    from mcbridge.web.hub import WebHub
    from mcbridge.web.server import WebServer

    with tempfile.TemporaryDirectory() as tmp:
        table = make_table(Path(tmp))
        hub = WebHub([table])
        server = WebServer(hub, "127.0.0.1", 0).start()
        sent: dict[str, float] = {}
        sink = hub.sink
        assert sink is not None

        def probe(name: str, messages: dict[str, bytes], at: float) -> None:
            m = SEQ.search(messages["en"])
            if m:
                sent.setdefault(f"{m[1].decode()}/{m[2].decode()}", at)
            sink(name, messages, at)

        hub.sink = probe
        fanout: list[float] = []
        fanout_cpu: list[float] = []

        def on_sent(_table: str, at: float, cpu: float) -> None:
            if at:
                fanout.append((time.monotonic() - at) * 1000)
                fanout_cpu.append(cpu * 1000)

        server.on_sent = on_sent
        alone: list[float] = []
        play_for(table, hub, min(5.0, args.seconds), {}, alone)

        procs = []
        for k in range(args.procs):  # spectators spread over processes, so they keep up with the server
            share, stalled = args.clients // args.procs, args.stalled if k == 0 else 0
            procs.append(subprocess.Popen([sys.executable, __file__, "--spectators", str(server.port), str(share),
                                           str(stalled), str(args.seconds)], stdout=subprocess.PIPE, text=True))
        for proc in procs:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert line.startswith("READY"), line
        time.sleep(2.0)  # every client through its handshake and welcome
        sent.clear()
        fanout.clear()
        fanout_cpu.clear()
        served: list[float] = []
        play_for(table, hub, args.seconds - 3.0, sent, served)
        result: dict[str, list[dict[str, float]]] = {"arrivals": []}
        for proc in procs:
            out, _ = proc.communicate(timeout=args.seconds + 60)
            result["arrivals"] += json.loads(out.split("RESULT ", 1)[1])["arrivals"]
        server.stop()
        table.journal.close()

    latencies, missing, received = [], 0, 0
    for arrivals in result["arrivals"]:
        for key, at in sent.items():
            if key in arrivals:
                latencies.append((arrivals[key] - at) * 1000)
                received += 1
            else:
                missing += 1
    latencies.sort()
    print(f"spectators {args.clients} (+{args.stalled} stalled), {len(sent)} table updates in "
          f"{args.seconds - 3.0:.0f} s, {received} deliveries, {missing} not delivered by the end")
    print(f"delivery from the world change: p50 {pct(latencies, 50):.1f} ms, p99 {pct(latencies, 99):.1f} ms, "
          f"max {latencies[-1]:.1f} ms; p99 {pct(latencies, 99) / (TICK * 1000):.2f} ticks (goal <= 1)")
    fanout.sort()
    print(f"world change to the last spectator's socket written (server side): p50 {pct(fanout, 50):.1f} ms, "
          f"p99 {pct(fanout, 99):.1f} ms, max {fanout[-1]:.1f} ms; CPU of one fan-out to all: "
          f"p50 {pct(fanout_cpu, 50):.1f} ms, p99 {pct(fanout_cpu, 99):.1f} ms")
    print(f"machine load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"stalled clients dropped by the server: {server.dropped} of {args.stalled}")
    a99, s99 = pct(alone, 99), pct(served, 99)
    print(f"tables' web hook per cycle: alone p50 {pct(alone, 50):.2f} ms p99 {a99:.2f} ms | "
          f"with spectators p50 {pct(served, 50):.2f} ms p99 {s99:.2f} ms | p99 ratio {s99 / a99:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
