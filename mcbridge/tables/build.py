"""Place an arena's static structure in the world in a few batched writes.

The writing itself is `shell.write_shell` (also used to rebuild a lost shell after a world
restart); worldgen's planner merges cuboids further for large builds.

Before it writes, `survey` reads what is there (one pipelined `world.getBlocks` per chunk
column, all in one round trip), so `arena build` can say what it will overwrite and refuse
to replace anything but air unless the operator says `--yes`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mcbridge.tables.config import Arena
from mcbridge.tables.layout import Structure
from mcbridge.tables.shell import write_shell
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
    batch = conn.batch(fence_every=100)
    sent = write_shell(batch, arena, structure)
    batch.flush()
    return sent
