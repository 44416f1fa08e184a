"""The live web view and operator console (`--web ADDR`): see server.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mcbridge.tables.build import build_arena
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.web.address import parse_addr
from mcbridge.web.hub import WebHub
from mcbridge.web.server import WebServer
from mcbridge.world.connection import Connection

__all__ = ["parse_addr", "start_web"]


def start_web(addr: str, tables: list[Table], *, token: str | None = None, journal_path: Path | None = None,
              conn: Connection | None = None, supervisor: Supervisor | None = None,
              stats_url: str | None = None) -> tuple[WebHub, WebServer]:
    """Start the server beside the tables and print where it is and the operator token.
    With the world connection and the supervisor, operators can also repair and rebuild."""
    host, port = parse_addr(addr)
    repair: Callable[[Table], None] | None = None
    rebuild: Callable[[Table], None] | None = None
    if conn is not None and supervisor is not None:
        world, sup = conn, supervisor

        def repair(table: Table) -> None:  # every cell of every table written again next cycle
            sup.forget()

        def rebuild(table: Table) -> None:  # the structure from the YAML, then the live scene
            build_arena(world, table.arena)
            sup.forget()

    pauses = supervisor.protocol.pauses if supervisor is not None else None  # one pause mechanism
    hub = WebHub(tables, pauses=pauses, rebuild=rebuild, repair=repair)
    server = WebServer(hub, host, port, token=token, journal_path=journal_path, stats_url=stats_url).start()
    hub.cycle()  # the first states, for whoever connects before the first cycle
    print(f"web view on {server.url} (operator token {'from --web-token' if token else server.token})", flush=True)
    return hub, server
