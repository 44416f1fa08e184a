"""``mcbridge world ...``: run the embedded world as a stand-alone server.

``mcbridge world serve`` lets a controller, mcpi scripts or bots in another process talk
RaspberryJuice to the embedded world exactly as they would to a Minecraft server. It
listens on 127.0.0.1 only (the embedded world has no authentication, like RJ), says where,
and on Ctrl-C or SIGTERM stops cleanly and saves the world if ``--world`` was given.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcbridge.world.embedded import EmbeddedServer

HOST = "127.0.0.1"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    world = subparsers.add_parser(
        "world", help="The embedded world (a RaspberryJuice server in Python).",
        description="The embedded world: a RaspberryJuice server without Minecraft.",
    )
    commands = world.add_subparsers(dest="world_command", metavar="COMMAND")
    world.set_defaults(func=lambda args: _print_help(world))
    serve = commands.add_parser(
        "serve",
        help="Serve the embedded world on 127.0.0.1.",
        description="Serve the embedded world over RaspberryJuice on 127.0.0.1 until "
        "Ctrl-C or SIGTERM.",
    )
    serve.add_argument("--port", type=int, default=4711,
                       help="TCP port (default 4711; 0 picks a free one).")
    serve.add_argument("--tps", type=float, default=20.0,
                       help="Ticks per second (default 20; 0 = as fast as possible).")
    serve.add_argument("--world", type=Path, metavar="FILE",
                       help="Load the world from FILE if it exists; save it there on exit.")
    serve.add_argument("--absolute", action="store_true",
                       help="Absolute coordinates (origin 0,0,0) instead of spawn-relative.")
    serve.set_defaults(func=serve_command)


def _print_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def serve_command(args: argparse.Namespace) -> int:
    if args.tps < 0:
        print("mcbridge world serve: --tps must be 0 or more.", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print("mcbridge world serve: --port must be 0..65535.", file=sys.stderr)
        return 2
    from mcbridge.world.embedded import EmbeddedServer, WorldFileError

    try:
        server = EmbeddedServer(
            tps=args.tps,
            absolute=args.absolute,
            world_file=args.world,
            secret=os.environ.get("MCBRIDGE_BRIDGE_SECRET") or None,
        )
    except WorldFileError as exc:
        print(f"mcbridge world serve: {exc}", file=sys.stderr)
        return 1
    try:
        return asyncio.run(_serve(server, args.port))
    except OSError as exc:
        print(
            f"mcbridge world serve: cannot listen on {HOST}:{args.port} ({exc.strerror}). "
            "Pick another --port, or --port 0 for a free one.",
            file=sys.stderr,
        )
        return 1


async def _serve(server: EmbeddedServer, port: int) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    actual_port = await server.start(HOST, port)
    mode = "absolute coordinates" if server.absolute else "coordinates relative to spawn"
    pace = "as fast as possible" if server.tps == 0 else f"{server.tps:g} ticks/s"
    print(
        f"mcbridge world: RaspberryJuice on {HOST}:{actual_port} ({pace}, {mode}, "
        f"origin {server.origin}). Ctrl-C stops.",
        flush=True,
    )
    try:
        await stop.wait()
    finally:
        await server.close()
        if server.world_file is not None:
            server.save()
            print(f"mcbridge world: saved the world to {server.world_file}.", flush=True)
    return 0
