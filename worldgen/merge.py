"""Greedy 3-D box merge: cover cells with few boxes of one block each (one setBlocks each).

A cell is *must* (it has to be written) or *may* (already right, so a box of its own block
may pass over it: RaspberryJuice skips blocks that are already equal) or neither (a box
must not touch it). From each uncovered must cell, in Sponge order, a box grows along x,
then along the second axis, then along y, as far as every cell it swallows holds the same
block and is must or may. Boxes may overlap where they agree, which lets later boxes grow
through cells an earlier one already set.

The growth along x is precomputed for the whole grid (the length of the run of equal,
allowed cells starting at each cell), so growing a box costs one comparison per row, not
per cell. Both horizontal orders (x first, z first) are tried and the smaller cover kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: When the first order leaves this share of cells in boxes of their own, stop there.
NOTHING_MERGES = 0.9

Cells = npt.NDArray[np.uint16]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class Box:
    """Grid-local inclusive corners and the key (``id << 4 | data``) to fill with."""

    x1: int
    y1: int
    z1: int
    x2: int
    y2: int
    z2: int
    key: int

    @property
    def volume(self) -> int:
        return (self.x2 - self.x1 + 1) * (self.y2 - self.y1 + 1) * (self.z2 - self.z1 + 1)


def merge_boxes(target: Cells, must: Mask, may: Mask | None = None) -> list[Box]:
    """Few boxes covering every must cell; see the module docstring for the rules."""
    if not must.any():
        return []
    allowed = must | may if may is not None else must
    x_first = _merge(target, must, allowed)
    if len(x_first) > NOTHING_MERGES * int(must.sum()):
        return x_first  # noise: the other order cannot do much better, skip its cost
    # z first: the same algorithm on the grid with x and z swapped, then swapped back.
    swapped = _merge(target.transpose(0, 2, 1), must.transpose(0, 2, 1), allowed.transpose(0, 2, 1))
    if len(swapped) < len(x_first):
        return [Box(b.z1, b.y1, b.x1, b.z2, b.y2, b.x2, b.key) for b in swapped]
    return x_first


def _runs_along_x(target: Cells, allowed: Mask) -> npt.NDArray[np.int32]:
    """run[y, z, x] = how many cells from x on share target[y, z, x] and are allowed."""
    height, length, width = target.shape
    run = np.zeros((height, length, width), dtype=np.int32)
    run[:, :, width - 1] = allowed[:, :, width - 1]
    for x in range(width - 2, -1, -1):
        same = (target[:, :, x] == target[:, :, x + 1]) & allowed[:, :, x]
        run[:, :, x] = np.where(same, run[:, :, x + 1] + 1, allowed[:, :, x].astype(np.int32))
    return run


def _merge(target: Cells, must: Mask, allowed: Mask) -> list[Box]:
    # Plain Python lists over flat indices: per-box work is a handful of scalar lookups,
    # which lists answer several times faster than numpy scalar indexing.
    height, length, width = target.shape
    target = np.ascontiguousarray(target)
    run = _runs_along_x(target, np.ascontiguousarray(allowed)).ravel().tolist()
    keys = target.ravel().tolist()
    covered = bytearray(target.size)
    layer = length * width
    boxes: list[Box] = []
    for start in np.flatnonzero(must).tolist():
        if covered[start]:
            continue
        key, span = keys[start], run[start]
        y, rest = divmod(start, layer)
        z, x = divmod(rest, width)

        # A row fits when the run from its first cell is long enough and of this block.
        z2 = z
        while z2 + 1 < length:
            i = start + (z2 + 1 - z) * width
            if run[i] < span or keys[i] != key:
                break
            z2 += 1
        rows = range(start, start + (z2 - z + 1) * width, width)
        y2 = y
        while y2 + 1 < height:
            up = (y2 + 1 - y) * layer
            if any(run[i + up] < span or keys[i + up] != key for i in rows):
                break
            y2 += 1
        fill = b"\x01" * span
        for dy in range(y2 - y + 1):
            for i in rows:
                j = i + dy * layer
                covered[j : j + span] = fill
        boxes.append(Box(x, y, z, x + span - 1, y2, z2, key))
    return boxes


def split_box(box: Box, max_volume: int) -> list[Box]:
    """Cut a box into boxes of at most ``max_volume`` cells (servers cap `setBlocks`).

    Whole y layers are kept together while they fit, then z rows of a layer, then x runs,
    so the pieces stay few (``ceil(volume / max_volume)`` when the layer fits) and are
    sent bottom up like every other box.
    """
    if max_volume < 1:
        raise ValueError("the largest box must hold at least one block")
    if box.volume <= max_volume:
        return [box]
    width, length = box.x2 - box.x1 + 1, box.z2 - box.z1 + 1
    pieces: list[Box] = []
    layer = width * length
    if layer <= max_volume:
        step = max_volume // layer
        for y in range(box.y1, box.y2 + 1, step):
            pieces.append(Box(box.x1, y, box.z1, box.x2, min(box.y2, y + step - 1), box.z2, box.key))
        return pieces
    for y in range(box.y1, box.y2 + 1):
        if width <= max_volume:
            step = max_volume // width
            for z in range(box.z1, box.z2 + 1, step):
                pieces.append(Box(box.x1, y, z, box.x2, y, min(box.z2, z + step - 1), box.key))
            continue
        for z in range(box.z1, box.z2 + 1):
            for x in range(box.x1, box.x2 + 1, max_volume):
                pieces.append(Box(x, y, z, min(box.x2, x + max_volume - 1), y, z, box.key))
    return pieces
