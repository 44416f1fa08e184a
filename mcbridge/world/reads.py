"""Reading a set of cells with the fewest reply lines the server allows.

A table reads whole walls (a seat's wool wall at the Reveal, its torch wall now and then).
One `world.getBlockWithData` per cell is what plain RaspberryJuice offers for ids *and* data,
and in a pipelined batch every query also needs a marker after it (`pipeline`): a 10-cell
wall was 20 lines to send, parse and check, and 50 tables asked for hundreds a cycle. So:

* a wall whose cells fill a box, read for ids only (`IdCells`: a torch there or not), is one
  `world.getBlocks`, which every RaspberryJuice server has;
* a box read for ids and data is one `world.getBlocksWithData` where the server lists the
  `blocks_with_data` capability (the embedded world and server/; RaspberryJamMod's command);
* anything else is one `world.getBlockWithData` per cell, as before.

Each reply is checked for its exact shape (one id, or one `id,data` record, per block of the
box), so a region read can be no easier to feed a wrong answer than the per-cell reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Cuboid, Pos
from mcbridge.world.pipeline import Reply

#: The capability of a server with `world.getBlocksWithData` (embedded/extensions.py).
BLOCKS_WITH_DATA = "blocks_with_data"
AIR = Block(0)


class IdCells(tuple[Pos, ...]):
    """Cells whose reader needs only the block ids (their data reads as 0): a box of them is
    one `world.getBlocks` on any server."""

    __slots__ = ()


class CellRead:
    """The reply slots of one read of some cells; `blocks()` once the batch is flushed."""

    __slots__ = ("_at", "_blocks", "_cells", "_ids")

    def __init__(
        self,
        *,
        ids: Reply[list[int]] | None = None,
        blocks: Reply[list[Block]] | None = None,
        at: Sequence[int] = (),
        cells: Sequence[Reply[Block]] = (),
    ) -> None:
        self._ids, self._blocks, self._at, self._cells = ids, blocks, at, cells

    def blocks(self) -> list[Block]:
        """The cells' blocks in the order they were asked for. A failed read counts as air:
        the reader then reports what is missing, it never guesses."""
        if self._ids is not None:
            ids = self._ids.result() if self._ids.ok else None
            return [AIR] * len(self._at) if ids is None else [Block(ids[i]) for i in self._at]
        if self._blocks is not None:
            found = self._blocks.result() if self._blocks.ok else None
            return [AIR] * len(self._at) if found is None else [found[i] for i in self._at]
        return [r.result() if r.ok else AIR for r in self._cells]


def read_cells(batch: Batch, frame: ArenaFrame, cells: Sequence[Pos], *, with_data: bool) -> CellRead:
    """Add the reads of `cells` (arena-local, an `IdCells` where ids are enough) to `batch`.
    `with_data`: the server lists `BLOCKS_WITH_DATA`."""
    at, box, index = _plan(frame, cells)
    if box is not None and isinstance(cells, IdCells):
        return CellRead(ids=batch.get_blocks(box), at=index)
    if box is not None and with_data:
        return CellRead(blocks=batch.get_blocks_with_data(box), at=index)
    return CellRead(cells=[batch.get_block_with_data(c) for c in at])


#: `_plan` results, cleared when full: the tables read the same few walls every cycle, and
#: turning their cells to world coordinates and finding their box was a good part of
#: planning a cycle's batch at 50 tables.
_PLAN_LIMIT = 1024
_PLANS: dict[tuple[ArenaFrame, tuple[Pos, ...]], tuple[tuple[Pos, ...], Cuboid | None, tuple[int, ...]]] = {}


def _plan(frame: ArenaFrame, cells: Sequence[Pos]) -> tuple[tuple[Pos, ...], Cuboid | None, tuple[int, ...]]:
    """The cells in world coordinates, the box they fill (or None) and each one's index in it."""
    key = (frame, tuple(cells))
    plan = _PLANS.get(key)
    if plan is None:
        at = tuple(frame.to_world(c) for c in cells)
        box = _box_of(at)
        if len(_PLANS) >= _PLAN_LIMIT:
            _PLANS.clear()
        plan = _PLANS[key] = (at, box, tuple(box.index(c) for c in at) if box is not None else ())
    return plan


def _box_of(cells: Sequence[Pos]) -> Cuboid | None:
    """The box `cells` fill exactly, each once (more than one cell), or None."""
    if len(cells) < 2:
        return None
    box = Cuboid(Pos(min(c.x for c in cells), min(c.y for c in cells), min(c.z for c in cells)),
                 Pos(max(c.x for c in cells), max(c.y for c in cells), max(c.z for c in cells)))
    return box if box.volume == len(cells) == len(set(cells)) else None
