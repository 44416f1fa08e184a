"""Place an arena's static structure in the world in a few batched writes.

Two cuboid fills clear the space and lay the floor; then every other block goes in one
pipelined batch, supports before the signs that hang on them (an unsupported wall sign
pops off as an item). worldgen's planner merges cuboids further for large builds.
"""

from __future__ import annotations

from mcbridge.tables.config import Arena
from mcbridge.tables.layout import Structure, arena_layout
from mcbridge.world import blocks
from mcbridge.world.connection import Connection
from mcbridge.world.geometry import Cuboid, Pos


def build_arena(conn: Connection, arena: Arena, structure: Structure | None = None) -> int:
    """Write the arena; returns the number of commands sent."""
    s = structure or arena_layout(arena)
    frame = arena.frame
    b = arena.bounds
    floor = Cuboid(b.lo, Pos(b.hi.x, b.lo.y, b.hi.z))
    above = Cuboid(b.lo.offset(dy=1), b.hi)
    batch = conn.batch(fence_every=100)
    batch.fill(frame.cuboid_to_world(above), blocks.AIR)
    batch.fill(frame.cuboid_to_world(floor), arena.materials["floor"])
    sent = 2
    for pos, block in s.blocks.items():
        if pos in s.signs or block == blocks.AIR or (pos in floor and block == arena.materials["floor"]):
            continue
        batch.set_block(frame.to_world(pos), frame.block_to_world(block))
        sent += 1
    for pos, lines in s.signs.items():
        batch.set_sign(frame.to_world(pos), frame.block_to_world(s.blocks[pos]), lines)
        sent += 1
    batch.flush()
    return sent
