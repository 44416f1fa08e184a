"""The arena shell (its static structure, as `mcbridge arena build` writes it): written into
a batch, and watched for a world that restarted empty or was wiped.

`ShellWatch` reads a handful of key shell blocks with a poll (every `PROBE_EVERY` cycles and
after every reconnect): nine floor cells (corners, edge middles, centre) that no scene
draws. One of them wrong means the world lost the shell, and the supervisor writes it again
and re-renders every scene (issue 15) [decided here: the floor, because no kit draws on it,
so a match scene can never look like a lost shell; 9 reads per 5 s; a player who breaks a
probed floor block makes the table rebuild its shell, which the operator wants anyway].
"""

from __future__ import annotations

from collections.abc import Collection

from mcbridge.tables.config import Arena
from mcbridge.tables.layout import Structure, arena_layout
from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import Cuboid, Pos
from mcbridge.world.pipeline import Reply

#: Cycles between two probes (about 5 s at 20 cycles a second).
PROBE_EVERY = 100


def write_shell(batch: Batch, arena: Arena, structure: Structure | None = None) -> int:
    """Queue the arena's static structure into `batch`; returns the number of commands.

    Two cuboid fills clear the space and lay the floor; then every other block, supports
    before the signs that hang on them (an unsupported wall sign pops off as an item).
    """
    s = structure or arena_layout(arena)
    frame = arena.frame
    floor = _floor(arena)
    b = arena.bounds
    batch.fill(frame.cuboid_to_world(Cuboid(b.lo.offset(dy=1), b.hi)), blocks.AIR)
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
    return sent


def _floor(arena: Arena) -> Cuboid:
    b = arena.bounds
    return Cuboid(b.lo, Pos(b.hi.x, b.lo.y, b.hi.z))


class ShellWatch:
    """Which shell blocks to probe, and whether a probe found them in place."""

    def __init__(self, arena: Arena, drawn: Collection[Pos] = ()) -> None:
        self.arena = arena
        s = arena_layout(arena)
        lo, hi = _floor(arena).lo, _floor(arena).hi
        cells = {
            Pos(x, lo.y, z) for x in (lo.x, (lo.x + hi.x) // 2, hi.x) for z in (lo.z, (lo.z + hi.z) // 2, hi.z)
        }
        floor = arena.materials["floor"]
        expected = {p: s.blocks.get(p, floor) for p in sorted(cells) if p not in drawn}
        frame = arena.frame
        #: world position -> the block id expected there (data is left out: a server may
        #: normalise it, and an id is enough to tell a shell from an empty world)
        self.expected = {frame.to_world(p): frame.block_to_world(b).id for p, b in expected.items()}

    def probe(self, batch: Batch) -> list[Reply[Block]]:
        return [batch.get_block_with_data(p) for p in self.expected]

    def intact(self, replies: list[Reply[Block]]) -> bool:
        """False only when a probed block answered and was wrong (a failed read proves nothing)."""
        return all(not r.ok or r.result().id == want for r, want in zip(replies, self.expected.values(), strict=True))
