"""Talking to a live world: read a region, run a plan.

Reading is where RaspberryJuice is awkward: `world.getBlocks` returns ids only, and the
only way to get a block's data (wool colour, torch facing) is one `getBlockWithData` per
block. So a read is built in two layers:

1. **Ids for every cell**, with `getBlocks` over chunks of the region, all chunks sent in
   one pipelined write (one round trip, answered in the same tick).
2. **Data only where the id cannot tell.** The legacy table knows which ids come in one
   state only (air, glass, stone bricks of one kind...); their data is never read. For
   the rest the caller says which cells matter. When the caller can name them before the
   ids are known (a repair knows what each cell *should* be) and they fit in the same
   tick as the chunks, they ride in the first write: the whole read is one round trip and
   one tick. Otherwise the ids come first and data is read only where it still matters
   (for a repair: where the id already matches, since a wrong id is wrong whatever its
   data), pipelined at most one tick's budget per write.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mcbridge.world.blocks import Block
from mcbridge.world.connection import Connection, SyncBatch
from mcbridge.world.errors import CommandFailed, ProtocolError, WorldError
from mcbridge.world.geometry import Cuboid, Pos
from mcbridge.world.pipeline import Reply
from worldgen.errors import PasteIncomplete, Written
from worldgen.grid import BlockGrid
from worldgen.grid import Pos as Triple  # a plain (x, y, z) tuple
from worldgen.merge import Mask
from worldgen.planner import PER_TICK, Plan
from worldgen.progress import Progress

#: Cells per getBlocks request: replies of ~50 KB, few requests even for big regions.
CHUNK_CELLS = 16_384
#: Ticks' worth of commands written per flush while pasting (progress updates between).
TICKS_PER_FLUSH = 4

Ids = npt.NDArray[np.int32]


@dataclass
class WorldRead:
    """What a region holds: ids everywhere, data where it was read (-1 elsewhere)."""

    at: Triple
    ids: Ids  # [y, z, x]
    data: npt.NDArray[np.int16]  # [y, z, x], -1 = not read
    round_trips: int
    commands: int

    def to_grid(self) -> BlockGrid:
        """The region as a grid (data not read is 0: the id has one state only)."""
        data = np.where(self.data < 0, 0, self.data).astype(np.uint16)
        return BlockGrid((self.ids.astype(np.uint16) << 4) | data)


def region_chunks(at: Triple, size: Triple, max_cells: int = CHUNK_CELLS) -> list[Cuboid]:
    """Split a region into getBlocks cuboids: whole layers, or strips of a layer."""
    width, height, length = size
    ax, ay, az = at
    layer = width * length
    chunks: list[Cuboid] = []
    if layer <= max_cells:
        step = max(1, max_cells // layer)
        for y in range(0, height, step):
            y2 = min(height, y + step) - 1
            chunks.append(Cuboid(Pos(ax, ay + y, az), Pos(ax + width - 1, ay + y2, az + length - 1)))
        return chunks
    rows = max(1, max_cells // length)  # x rows of full z length per chunk
    for y in range(height):
        for x in range(0, width, rows):
            x2 = min(width, x + rows) - 1
            chunks.append(Cuboid(Pos(ax + x, ay + y, az), Pos(ax + x2, ay + y, az + length - 1)))
    return chunks


def read_region(
    conn: Connection,
    at: Triple,
    size: Triple,
    choose_data: Callable[[Ids], Mask],
    *,
    guess: Mask | None = None,
    per_tick: int = PER_TICK,
    progress: Progress | None = None,
) -> WorldRead:
    """Read ids everywhere and data where ``choose_data(ids)`` says (see module docstring).

    ``guess`` is a superset of the cells ``choose_data`` can pick, known before reading;
    when it fits in one tick with the id chunks, everything is read in one round trip.
    """
    width, height, length = size
    chunks = region_chunks(at, size)
    ids = np.zeros((height, length, width), dtype=np.int32)
    data = np.full((height, length, width), -1, dtype=np.int16)
    upfront = guess is not None and len(chunks) + int(guess.sum()) <= per_tick
    round_trips = commands = 0

    batch = conn.batch()
    id_replies = [batch.command("world.getBlocks", *chunk.args(), parse=parse_ids) for chunk in chunks]
    early: list[tuple[Triple, Reply[Block]]] = []
    if upfront and guess is not None:
        early = _queue_data(batch, at, np.argwhere(guess))
    commands += len(batch)
    if progress is not None:
        progress.extend(len(batch))
    batch.flush()
    round_trips += 1
    for chunk, reply in zip(chunks, id_replies, strict=True):
        _place_ids(ids, at, chunk, reply.result())
    if progress is not None:
        progress.advance(len(chunks) + len(early))
    _place_data(data, early)

    wanted = choose_data(ids) & (data < 0)
    cells = np.argwhere(wanted)  # rows of (y, z, x)
    if progress is not None:
        progress.extend(len(cells))
    for start in range(0, len(cells), per_tick):
        batch = conn.batch()
        pending = _queue_data(batch, at, cells[start : start + per_tick])
        commands += len(batch)
        batch.flush()
        round_trips += 1
        _place_data(data, pending)
        if progress is not None:
            progress.advance(len(pending))
    return WorldRead(at, ids, data, round_trips, commands)


def apply_plan(
    conn: Connection,
    plan: Plan,
    *,
    progress: Progress | None = None,
    ticks_per_flush: int = TICKS_PER_FLUSH,
    done: Written | None = None,
) -> int:
    """Run a plan: a few ticks' worth per write, one fence per tick. Returns round trips.

    ``done`` marks steps already written by an earlier, interrupted run (`--resume`):
    they are not sent again. When a write fails (a `Fail`, a timeout, a lost
    connection), the writes already sent are waited for, and `PasteIncomplete` says which
    steps are confirmed written and which are not; nothing is left to guess.
    """
    written = np.zeros(len(plan.steps), dtype=bool) if done is None else done.copy()
    if written.shape != (len(plan.steps),):
        raise ValueError("done must hold one flag per step of the plan")
    todo = np.flatnonzero(~written).tolist()
    per_flush = plan.per_tick * ticks_per_flush
    round_trips = 0
    for start in range(0, len(todo), per_flush):
        part = todo[start : start + per_flush]
        batch = conn.batch(fence_every=plan.per_tick)
        replies: list[Reply[None]] = [batch.command(plan.steps[i].name, *plan.steps[i].args) for i in part]
        try:
            batch.flush()
        except WorldError as exc:
            for i, reply in zip(part, replies, strict=True):
                written[i] = reply.ok  # a Fail in a tick's segment leaves it unconfirmed
            if isinstance(exc, CommandFailed):
                exc = _pin_down(conn, plan, written, part) or exc
            raise PasteIncomplete(plan, written, exc) from exc
        written[part] = True
        round_trips += 1
        if progress is not None:
            progress.advance(len(part))
    return round_trips


def _pin_down(conn: Connection, plan: Plan, written: Written, part: list[int]) -> WorldError | None:
    """Send a failed write's unconfirmed steps again with a fence after each one.

    With one fence per tick a `Fail` only names its tick's segment (thousands of
    commands). Setting a block again is harmless, so this second pass costs one round
    trip and leaves exactly the refused steps unwritten, with the first one named.
    """
    again = [i for i in part if not written[i]]
    batch = conn.batch(fence_every=1)
    replies: list[Reply[None]] = [batch.command(plan.steps[i].name, *plan.steps[i].args) for i in again]
    try:
        batch.flush()
    except WorldError as exc:
        for i, reply in zip(again, replies, strict=True):
            written[i] = reply.ok
        return exc
    written[again] = True
    return None


def parse_ids(line: str) -> npt.NDArray[np.int32]:
    """A getBlocks reply, parsed by numpy (4x faster than int() per id on big regions).

    A malformed reply raises ValueError, which the connection turns into a
    ProtocolError for that reply; the caller also checks the count.
    """
    return np.fromstring(line, dtype=np.int32, sep=",")


def _queue_data(batch: SyncBatch, at: Triple, cells: npt.NDArray[np.intp]) -> list[tuple[Triple, Reply[Block]]]:
    """One getBlockWithData per cell; ``cells`` are (y, z, x) rows as np.argwhere gives."""
    return [((x, y, z), batch.get_block_with_data(Pos(at[0] + x, at[1] + y, at[2] + z))) for y, z, x in cells.tolist()]


def _place_ids(ids: Ids, at: Triple, chunk: Cuboid, values: npt.NDArray[np.int32]) -> None:
    nx, ny, nz = chunk.size
    if len(values) != nx * ny * nz:
        raise ProtocolError(f"world.getBlocks{chunk.args()} answered {len(values)} ids, {nx * ny * nz} expected")
    block = values.reshape(ny, nx, nz).transpose(0, 2, 1)
    x0, y0, z0 = chunk.lo.x - at[0], chunk.lo.y - at[1], chunk.lo.z - at[2]
    ids[y0 : y0 + ny, z0 : z0 + nz, x0 : x0 + nx] = block


def _place_data(data: npt.NDArray[np.int16], pending: list[tuple[Triple, Reply[Block]]]) -> None:
    for (x, y, z), reply in pending:
        data[y, z, x] = reply.result().data & 0x0F
