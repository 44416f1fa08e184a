"""`mcbridge validate | schema | arena build | run | demo`."""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Any

from mcbridge import CONFIG_DIR

DEFAULT_ARENA = CONFIG_DIR / "arenas" / "wool_bluff.yaml"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("validate", help="check an arena YAML file")
    p.add_argument("file", type=Path)
    p.set_defaults(func=cmd_validate)

    p = subparsers.add_parser("schema", help="print the arena JSON Schema (for editor completion)")
    p.set_defaults(func=cmd_schema)

    p = subparsers.add_parser("arena", help="arena tools")
    sub = p.add_subparsers(dest="arena_command", metavar="ACTION")
    b = sub.add_parser("build", help="place the arena's structure in the world")
    b.add_argument("file", type=Path)
    _server_args(b)
    b.set_defaults(func=cmd_build)

    p = subparsers.add_parser("run", help="run the arena's table on a server until Ctrl-C")
    p.add_argument("file", type=Path)
    _server_args(p)
    p.add_argument("--journal", type=Path, default=Path("var/journal.sqlite"))
    p.add_argument("--build", action="store_true", help="build the arena first")
    p.add_argument("--seed", type=int, default=None,
                   help="make the deals reproducible (default: a secret random seed per start)")
    p.add_argument(
        "--start-delay",
        type=float,
        default=10.0,
        help="seconds after the last join before a match starts with free seats left",
    )
    p.add_argument("--reveal-hold", type=float, default=5.0, help="seconds the revealed hands stay on the walls")
    p.set_defaults(func=cmd_run)

    p = subparsers.add_parser("demo", help="bots play a full Wool Bluff match on the embedded world")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--tps", type=float, default=20.0, help="server ticks per second (0 = as fast as possible)")
    p.add_argument("--mode", choices=("booth", "give"), default="booth", help="how hands are dealt")
    p.add_argument(
        "--torches", choices=("controller", "players"), default="controller", help="who puts up the penalty torches"
    )
    p.add_argument("--lang", choices=("en", "ja"), default="en")
    p.add_argument("--turns", type=int, default=None, help="fewer turns for a shorter demo")
    p.set_defaults(func=cmd_demo)


def _server_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=4711)


def cmd_validate(args: argparse.Namespace) -> int:
    from mcbridge.tables.config import ArenaError, load_arena

    try:
        arena = load_arena(args.file)
    except ArenaError as exc:
        for problem in exc.problems:
            print(problem)
        print(f"{len(exc.problems)} problem(s) in {args.file}")
        return 1
    print(f"OK: {args.file} ({arena.name}: {arena.game}, {len(arena.seats)} seats, {arena.dispensing} mode)")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from mcbridge.tables.config import json_schema

    print(json_schema())
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from mcbridge.tables.build import build_arena
    from mcbridge.tables.config import load_arena
    from mcbridge.world.connection import Connection

    arena = load_arena(args.file)
    with Connection(args.host, args.port) as conn:
        started = time.monotonic()
        sent = build_arena(conn, arena)
        print(
            f"built {arena.name}: {sent} commands, {conn.stats.round_trips} round trips, "
            f"{time.monotonic() - started:.2f} s"
        )
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from mcbridge.tables.build import build_arena
    from mcbridge.tables.config import load_arena
    from mcbridge.tables.journal import Journal
    from mcbridge.tables.supervisor import Supervisor
    from mcbridge.tables.wool_table import WoolBluffTable
    from mcbridge.world.connection import Connection

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    arena = load_arena(args.file)
    journal = Journal(args.journal)
    with Connection(args.host, args.port) as conn:
        if args.build:
            build_arena(conn, arena)
        caps = conn.capabilities()
        table = WoolBluffTable(
            arena,
            journal,
            time.monotonic,
            seed=args.seed,
            can_give="give" in caps,
            can_tell="tell" in caps,
            start_delay=args.start_delay,
            reveal_hold=args.reveal_hold,
        )
        print(f"running {arena.name} on {args.host}:{args.port} (journal {args.journal}); Ctrl-C stops", flush=True)
        Supervisor(conn, [table]).run(until=lambda: False, max_seconds=float("inf"))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from mcbridge.tables.demo_run import run_demo

    return run_demo(
        seed=args.seed,
        players=args.players,
        tps=args.tps,
        mode=args.mode,
        lang=args.lang,
        torches=args.torches,
        turns=args.turns,
    )
