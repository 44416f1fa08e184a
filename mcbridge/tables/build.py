"""Place an arena's static structure in the world in a few batched writes (see
`shell.write_shell`; worldgen's planner merges cuboids further for large builds)."""

from __future__ import annotations

from mcbridge.tables.config import Arena
from mcbridge.tables.layout import Structure
from mcbridge.tables.shell import write_shell
from mcbridge.world.connection import Connection


def build_arena(conn: Connection, arena: Arena, structure: Structure | None = None) -> int:
    """Write the arena; returns the number of commands sent."""
    batch = conn.batch(fence_every=100)
    sent = write_shell(batch, arena, structure)
    batch.flush()
    return sent
