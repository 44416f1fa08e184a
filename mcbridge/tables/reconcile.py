"""Send the world only what differs from what we last wrote there.

A table's scene is its *desired* world. The reconciler keeps the last state it wrote per
position and emits just the changes; `forget()` (after a reconnect or restart) makes the
next write a full re-render, which is how the world heals itself: no stale signs, no
missing torches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mcbridge.tables.kit import Scene
from mcbridge.tables.layout import Lines
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Pos


class Reconciler:
    def __init__(self, frame: ArenaFrame) -> None:
        self.frame = frame
        self.blocks: dict[Pos, Block] = {}
        self.signs: dict[Pos, Lines] = {}
        self._last: Scene | None = None  # the scene written last, by identity
        self._last_parts: tuple[Scene, ...] = ()
        self._at: dict[Pos, Pos] = {}  # local -> world, and
        self._as: dict[Block, Block] = {}  # local block -> turned to the arena's facing: the same few, again and again

    def _world(self, local: Pos, block: Block) -> tuple[Pos, Block]:
        at = self._at.get(local)
        if at is None:
            at = self._at[local] = self.frame.to_world(local)
        turned = self._as.get(block)
        if turned is None:
            turned = self._as[block] = self.frame.block_to_world(block)
        return at, turned

    def forget(self) -> None:
        self.blocks.clear()
        self.signs.clear()
        self._last, self._last_parts = None, ()

    def forget_cells(self, cells: Iterable[Pos]) -> None:
        """Players changed these cells: write them again even if the scene did not change."""
        changed = False
        for cell in cells:
            self.blocks.pop(cell, None)
            self.signs.pop(cell, None)
            changed = True
        if changed:
            self._last, self._last_parts = None, ()

    def write(self, batch: Batch, scene: Scene) -> int:
        """Add the changes of this scene (arena-local) to `batch`; returns commands added.

        A table hands back the very same scene while nothing changed, and the same part
        objects for the parts that did not change: those cost nothing here.
        """
        if scene is self._last:
            return 0
        parts = scene.parts or (scene,)
        same = self._last_parts if len(self._last_parts) == len(parts) else ()
        added = 0
        for k, part in enumerate(parts):
            if not (same and same[k] is part):
                added += self._write(batch, part.blocks, part.signs)
        self._last, self._last_parts = scene, parts
        return added

    def _write(self, batch: Batch, blocks: Mapping[Pos, Block], signs: Mapping[Pos, Lines]) -> int:
        added = 0
        for local, block in blocks.items():
            if local in signs:
                continue
            if self.blocks.get(local) != block:
                batch.set_block(*self._world(local, block))
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
                at, turned = self._world(local, sign_block)
                batch.set_sign(at, turned, sent)
                self.signs[local] = lines
                self.blocks[local] = sign_block
                added += 1
        return added
