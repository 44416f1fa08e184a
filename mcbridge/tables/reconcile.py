"""Send the world only what differs from what we last wrote there.

A table's scene is its *desired* world. The reconciler keeps the last state it wrote per
position and emits just the changes; `forget()` (after a reconnect or restart) makes the
next write a full re-render, which is how the world heals itself: no stale signs, no
missing torches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mcbridge.tables.layout import Lines
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Pos


class Reconciler:
    def __init__(self, frame: ArenaFrame) -> None:
        self.frame = frame
        self.blocks: dict[Pos, Block] = {}
        self.signs: dict[Pos, Lines] = {}
        self._last: tuple[object, object] | None = None  # the scene written last, by identity

    def forget(self) -> None:
        self.blocks.clear()
        self.signs.clear()
        self._last = None

    def forget_cells(self, cells: Iterable[Pos]) -> None:
        """Players changed these cells: write them again even if the scene did not change."""
        for cell in cells:
            self.blocks.pop(cell, None)
            self.signs.pop(cell, None)
        self._last = None

    def write(self, batch: Batch, blocks: Mapping[Pos, Block], signs: Mapping[Pos, Lines]) -> int:
        """Add the changes of this scene (arena-local) to `batch`; returns commands added.

        A table hands back the very same scene while nothing changed: that costs nothing here.
        """
        if self._last is not None and self._last[0] is blocks and self._last[1] is signs:
            return 0
        self._last = (blocks, signs)
        added = 0
        for local, block in blocks.items():
            if local in signs:
                continue
            if self.blocks.get(local) != block:
                batch.set_block(self.frame.to_world(local), self.frame.block_to_world(block))
                self.blocks[local] = block
                added += 1
        for local, lines in signs.items():
            wanted = blocks.get(local)
            if self.signs.get(local) != lines or (wanted is not None and self.blocks.get(local) != wanted):
                sign_block = wanted if wanted is not None else self.blocks.get(local)
                if sign_block is None:
                    continue  # a sign text for a block this scene does not own
                # RJ splits arguments with Java's split(","), which drops trailing empty fields, and
                # keeps the old text of a line it is not given: a blank line goes out as one space.
                sent = [line or " " for line in lines]
                batch.set_sign(self.frame.to_world(local), self.frame.block_to_world(sign_block), sent)
                self.signs[local] = lines
                self.blocks[local] = sign_block
                added += 1
        return added
