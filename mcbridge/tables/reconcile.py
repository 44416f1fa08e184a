"""Send the world only what differs from what we last wrote there.

A table's scene is its *desired* world. The reconciler keeps the last state it wrote per
position and emits just the changes; `forget()` (after a reconnect or restart) makes the
next write a full re-render, which is how the world heals itself: no stale signs, no
missing torches.
"""

from __future__ import annotations

from collections.abc import Mapping

from mcbridge.tables.layout import Lines
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Pos


class Reconciler:
    def __init__(self, frame: ArenaFrame) -> None:
        self.frame = frame
        self.blocks: dict[Pos, Block] = {}
        self.signs: dict[Pos, Lines] = {}

    def forget(self) -> None:
        self.blocks.clear()
        self.signs.clear()

    def write(self, batch: Batch, blocks: Mapping[Pos, Block], signs: Mapping[Pos, Lines]) -> int:
        """Add the changes of this scene (arena-local) to `batch`; returns commands added."""
        added = 0
        for local, block in blocks.items():
            if local in signs:
                continue
            if self.blocks.get(local) != block:
                batch.set_block(self.frame.to_world(local), self.frame.block_to_world(block))
                self.blocks[local] = block
                added += 1
        for local, lines in signs.items():
            block = blocks.get(local)
            if self.signs.get(local) != lines or (block is not None and self.blocks.get(local) != block):
                sign_block = block or self.blocks.get(local)
                if sign_block is None:
                    continue  # a sign text for a block this scene does not own
                batch.set_sign(self.frame.to_world(local), self.frame.block_to_world(sign_block), lines)
                self.signs[local] = lines
                self.blocks[local] = sign_block
                added += 1
        return added
