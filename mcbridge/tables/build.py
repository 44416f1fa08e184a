"""Place an arena's static structure in the world in a few batched writes.

Two cuboid fills clear the space and lay the floor; then every other block goes in one
pipelined batch, supports before the signs that hang on them (an unsupported wall sign
pops off as an item). worldgen's planner merges cuboids further for large builds.

Before it writes, `survey` reads what is there (one pipelined `world.getBlocks` per chunk
column, all in one round trip), so `arena build` can say what it will overwrite and refuse
to replace anything but air unless the operator says `--yes`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mcbridge.tables.config import Arena
from mcbridge.tables.layout import Structure, arena_layout
from mcbridge.world import blocks
from mcbridge.world.connection import Connection
from mcbridge.world.geometry import Cuboid, Pos

CHUNK = 16


@dataclass(frozen=True)
class Survey:
    """What building an arena would overwrite: its world box, how much of what the build
    fills with air is not air, and how much of the floor layer it repaves.

    [decided here] Only blocks above the floor make a build refuse: the floor layer is the
    ground (grass on a fresh world) the arena is meant to pave, and refusing it would make
    every first build need `--yes`, which would teach operators to always type it.
    """

    bounds: Cuboid  # world coordinates
    non_air: int  # above the floor: would become air or the arena's structure
    floor_non_air: int  # in the floor layer: repaved with the floor material
    reads: int  # getBlocks commands it took (one per chunk column)

    def describe(self) -> str:
        lo, hi = self.bounds.lo, self.bounds.hi
        where = f"x {lo.x}..{hi.x}, y {lo.y}..{hi.y}, z {lo.z}..{hi.z}"
        above = "all air" if not self.non_air else f"{self.non_air} not air"
        floor = f"{self.floor_non_air} floor blocks repaved"
        return f"{where} ({self.bounds.volume} blocks: above the floor {above}; {floor})"


def chunk_columns(box: Cuboid) -> Iterator[Cuboid]:
    """`box` cut along chunk borders (16 x 16 columns, full height): the server loads a
    chunk per read, so a read never spans two."""
    lo, hi = box.lo, box.hi
    for cx in range(lo.x // CHUNK, hi.x // CHUNK + 1):
        for cz in range(lo.z // CHUNK, hi.z // CHUNK + 1):
            yield Cuboid(
                Pos(max(lo.x, cx * CHUNK), lo.y, max(lo.z, cz * CHUNK)),
                Pos(min(hi.x, cx * CHUNK + CHUNK - 1), hi.y, min(hi.z, cz * CHUNK + CHUNK - 1)),
            )


def survey(conn: Connection, arena: Arena) -> Survey:
    """Read the arena's box from the world: one getBlocks per chunk column, one batch."""
    box = arena.frame.cuboid_to_world(arena.bounds)
    batch = conn.batch()
    parts = list(chunk_columns(box))
    replies = [batch.get_blocks(part) for part in parts]
    batch.flush()
    above = floor = 0
    for part, reply in zip(parts, replies, strict=True):
        layer = part.size[0] * part.size[2]  # getBlocks order is y outermost: the floor comes first
        ids = reply.result()
        floor += sum(1 for block_id in ids[:layer] if block_id != blocks.AIR.id)
        above += sum(1 for block_id in ids[layer:] if block_id != blocks.AIR.id)
    return Survey(box, above, floor, len(parts))


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
