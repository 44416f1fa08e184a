"""Schematic versus world: which cells differ, read with as few commands as possible.

Two blocks are the same when their ids agree up to the lit/unlit pairs the game flips by
itself (a 1.13+ server even reports them alike; `same_block` in the legacy table), and,
for ids that come in several states, their data agrees too.

RaspberryJuice returns ids in bulk (`getBlocks`) but data one block per command
(`getBlockWithData`), so data is read only where the id cannot tell (see
:mod:`worldgen.live`). When even that does not fit in one tick, a repair may skip it:

* **exact** (always for `diff`, and for a repair whose reads fit in one tick): every
  data-bearing cell whose id matches is read; the diff is exact.
* **re-assert** (a repair too big for one tick of reads): only ids are read. Cells whose
  id matches but whose data was not read are *unverified*; the repair writes them again,
  merged into boxes. RaspberryJuice skips every block that already equals what is
  written (`world.setBlocks` -> `updateBlock`), so blocks that were right are not touched,
  and the whole repair takes two ticks: one to read, one to write. Blocks the game
  switches by itself (lit/unlit torches, lamps) are always read, never re-asserted, so
  a repair never relights a torch the game turned off.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mcbridge.world.connection import Connection
from worldgen.grid import BlockGrid, Pos
from worldgen.live import WorldRead, read_region, region_chunks
from worldgen.merge import Mask
from worldgen.planner import PER_TICK
from worldgen.progress import Progress
from worldgen.states import LegacyTable, default_table, format_key


@dataclass
class Diff:
    expected: BlockGrid
    read: WorldRead
    changed: Mask
    unverified: Mask  # id right, data not read (re-assert mode only)

    @property
    def count(self) -> int:
        return int(self.changed.sum())

    @property
    def unverified_count(self) -> int:
        return int(self.unverified.sum())

    def cells(self, limit: int | None = None) -> list[tuple[Pos, int, tuple[int, int | None]]]:
        """(local position, expected key, (actual id, actual data or None)) per change."""
        out: list[tuple[Pos, int, tuple[int, int | None]]] = []
        for y, z, x in np.argwhere(self.changed)[:limit].tolist():
            data = int(self.read.data[y, z, x])
            actual = (int(self.read.ids[y, z, x]), data if data >= 0 else None)
            out.append(((x, y, z), int(self.expected.cells[y, z, x]), actual))
        return out

    def summary(self) -> Counter[tuple[str, str]]:
        """How many cells went from which expected block to which actual block."""
        counts: Counter[tuple[str, str]] = Counter()
        for _, key, (block_id, data) in self.cells():
            actual = f"{block_id}:{data}" if data is not None else f"{block_id}:?"
            counts[(format_key(key), actual)] += 1
        return counts


def data_matters(table: LegacyTable, ids: npt.NDArray[np.integer]) -> Mask:
    """Cells whose id comes in several states, so only the data tells them apart."""
    single = np.fromiter(table.single_state_ids, dtype=np.int64)
    return ~np.isin(ids, single)


class _Comparer:
    """Expected ids and data, ready to compare with what a read returns."""

    def __init__(self, expected: BlockGrid, table: LegacyTable) -> None:
        self.canon = np.array([table.same_block_id(i) for i in range(4096)], dtype=np.int64)
        self.ids = (expected.cells >> 4).astype(np.int64)
        self.data = (expected.cells & 0x0F).astype(np.int16)
        self.needs_data = data_matters(table, self.ids)
        #: Cells whose block the game switches by itself: never re-asserted, always read.
        switching = np.fromiter(table.switching_ids, dtype=np.int64)
        self.switching = np.isin(self.ids, switching) & self.needs_data

    def same_id(self, ids: npt.NDArray[np.int32]) -> Mask:
        inside = (ids >= 0) & (ids < self.canon.size)
        return inside & (self.canon[self.ids] == self.canon[np.clip(ids, 0, self.canon.size - 1)])


def compare(expected: BlockGrid, read: WorldRead, table: LegacyTable) -> tuple[Mask, Mask]:
    """(changed, unverified) masks; see the module docstring."""
    cmp = _Comparer(expected, table)
    same_id = cmp.same_id(read.ids)
    unread = read.data < 0
    data_differs = cmp.needs_data & ~unread & (read.data != cmp.data)
    changed = ~same_id | data_differs
    unverified = same_id & cmp.needs_data & unread
    return changed, unverified


def diff_world(
    conn: Connection,
    expected: BlockGrid,
    at: Pos,
    *,
    reassert: bool = False,
    table: LegacyTable | None = None,
    per_tick: int = PER_TICK,
    progress: Progress | None = None,
) -> Diff:
    """Read the region where ``expected`` sits and compare.

    With ``reassert``, data reads that do not fit in one tick with the id reads are
    skipped, leaving those cells unverified (see module docstring); otherwise every
    data-bearing cell whose id matches is read, over as many round trips as it takes.
    """
    table = table or default_table()
    cmp = _Comparer(expected, table)
    wanted = cmp.needs_data
    if reassert:
        chunks = len(region_chunks(at, expected.size))
        if chunks + int(wanted.sum()) > per_tick:
            wanted = cmp.switching

    def choose(ids: npt.NDArray[np.int32]) -> Mask:
        return wanted & cmp.same_id(ids)  # a wrong id is wrong whatever its data

    read = read_region(
        conn, at, expected.size, choose, guess=wanted, per_tick=per_tick, progress=progress
    )
    changed, unverified = compare(expected, read, table)
    return Diff(expected, read, changed, unverified)
