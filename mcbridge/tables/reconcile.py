"""Send the world only what differs from what we last wrote there.

A table's scene is its *desired* world. The reconciler keeps the last state it wrote per
position and emits just the changes; `forget()` (after a reconnect or restart) makes the
next write a full re-render, which is how the world heals itself: no stale signs, no
missing torches.

Private parts (a `Scene` with a `booth`) go, where the server has private blocks, to the
booth's viewer only: the world gets a neutral block (the booth wall material) or a blank sign
of the same kind there, and the viewer's overlays are reconciled the same way (only what
differs from what that viewer was last sent). When the viewer changes (the occupant left,
another sat down), the old viewer's overlays in that booth are cleared first: in offline mode
a name is no login, and whoever joins later under it must see nothing stale.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter

from mcbridge.tables.kit import Scene
from mcbridge.tables.layout import Lines
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Cuboid, Pos

BLANK: Lines = ("", "", "", "")
AIR = Block(0)


class Reconciler:
    def __init__(self, frame: ArenaFrame, neutral: Block = AIR, booths: Sequence[Cuboid] = ()) -> None:
        """`neutral`: what the world shows where a private block is; `booths`: each booth's
        cuboid (arena-local), where a viewer's overlays are cleared when the viewer changes."""
        self.frame = frame
        self.neutral = neutral
        self.booths = [frame.cuboid_to_world(b) for b in booths]
        self.viewers: dict[int, str | None] = {}  # booth -> who was last sent its private part
        #: booth -> (the private parts last sent, by identity; what its viewer was sent)
        self.private: dict[int, tuple[tuple[Scene, ...], dict[Pos, Block], dict[Pos, Lines]]] = {}
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
        self.private.clear()  # overlays are sent again (a restarted server has none)

    def forget_cells(self, cells: Iterable[Pos]) -> None:
        """Players changed these cells: write them again even if the scene did not change."""
        changed = False
        for cell in cells:
            self.blocks.pop(cell, None)
            self.signs.pop(cell, None)
            changed = True
        if changed:
            self._last, self._last_parts = None, ()

    def shows(self, scene: Scene | None, viewers: Sequence[str | None] | None = None) -> bool:
        """Whether `write(batch, scene, viewers)` would add nothing: this very scene was written
        last, to the same viewers, and nothing was forgotten since."""
        if scene is None or scene is not self._last:
            return False
        return viewers is None or all(self.viewers.get(booth) == viewer for booth, viewer in enumerate(viewers))

    def write(self, batch: Batch, scene: Scene, viewers: Sequence[str | None] | None = None) -> int:
        """Add the changes of this scene (arena-local) to `batch`; returns commands added.

        `viewers` (per booth: who may see its private part, None for nobody) only where the
        server has private blocks; without it private parts are drawn in the world.

        A table hands back the very same scene while nothing changed, and the same part
        objects for the parts that did not change: those cost nothing here.
        """
        added = 0
        if viewers is not None:
            for booth, viewer in enumerate(viewers):
                if self.viewers.get(booth) != viewer:
                    added += self._new_viewer(batch, booth, viewer)
        if scene is self._last:
            return added
        parts = scene.parts or (scene,)
        same = self._last_parts if len(self._last_parts) == len(parts) else ()
        # Cells the changed parts drew or draw now: an unchanged part may have lost one of them to
        # a later part, or a changed earlier part may now draw over one of a later part's, so an
        # unchanged part draws those of its cells again (later parts win, in order). The set
        # work runs in C; an unchanged part that shares no cell with them costs one disjoint test.
        dirty: set[Pos] = set()
        for k, old in enumerate(same):
            new = parts[k]
            if old is not new:
                dirty.update(old.blocks, old.signs, new.blocks, new.signs)
        private: dict[int, list[Scene]] = {}
        for k, part in enumerate(parts):
            if viewers is not None and part.booth is not None:
                private.setdefault(part.booth, []).append(part)
            elif not (same and same[k] is part):
                added += self._write(batch, part.blocks, part.signs)
            elif dirty and not (dirty.isdisjoint(part.blocks) and dirty.isdisjoint(part.signs)):
                added += self._write(batch, _within(part.blocks, dirty), _within(part.signs, dirty))
        for booth, group in private.items():
            assert viewers is not None
            added += self._write_private(batch, booth, tuple(group), viewers[booth] if booth < len(viewers) else None)
        self._last, self._last_parts = scene, parts
        return added

    def _new_viewer(self, batch: Batch, booth: int, viewer: str | None) -> int:
        old = self.viewers.get(booth)
        self.viewers[booth] = viewer
        self.private.pop(booth, None)
        self._last = None  # the booth's part goes out again, to its new viewer
        if old is None or booth >= len(self.booths):
            return 0
        batch.private_clear(old, self.booths[booth])
        return 1

    def _write_private(self, batch: Batch, booth: int, group: tuple[Scene, ...], viewer: str | None) -> int:
        """The world gets the neutral version of a booth's private parts; its viewer, the parts."""
        part = group[0] if len(group) == 1 else Scene.of_parts(group)
        neutral_blocks = {p: (b if p in part.signs else self.neutral) for p, b in part.blocks.items()}
        added = self._write(batch, neutral_blocks, dict.fromkeys(part.signs, BLANK))
        last, sent_blocks, sent_signs = self.private.get(booth, ((), {}, {}))
        unchanged = len(last) == len(group) and all(a is b for a, b in zip(last, group, strict=True))
        if viewer is None or unchanged:
            return added
        for local, block in part.blocks.items():
            if local not in part.signs and sent_blocks.get(local) != block:
                batch.private_set_block(viewer, *self._world(local, block))
                sent_blocks[local] = block
                added += 1
        for local, lines in part.signs.items():
            if sent_signs.get(local) != lines and local in part.blocks:
                at, turned = self._world(local, part.blocks[local])
                batch.private_set_sign(viewer, at, turned, [line or " " for line in lines])
                sent_signs[local] = lines
                added += 1
        self.private[booth] = (group, sent_blocks, sent_signs)
        return added

    def _write(self, batch: Batch, blocks: Mapping[Pos, Block], signs: Mapping[Pos, Lines]) -> int:
        # A changed part usually changes a few cells of many: the subset tests of the items
        # views run in C (positions and blocks are tuples) and skip the Python loops when
        # nothing of that kind changed. Sign cells' blocks are in `blocks` too, so blocks that
        # all match mean no sign needs writing for its block's sake either.
        written = self.blocks
        blocks_same = blocks.items() <= written.items()
        if blocks_same and signs.items() <= self.signs.items():
            return 0
        added = 0
        if not blocks_same:
            changed = [(local, block) for local, block in blocks.items()
                       if written.get(local) != block and local not in signs]
            written.update(changed)
            added = write_runs(batch, [self._world(local, block) for local, block in changed])
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


def _within(cells: Mapping[Pos, Block] | Mapping[Pos, Lines], keep: set[Pos]) -> dict:
    return {cell: value for cell, value in cells.items() if cell in keep} if len(cells) < len(keep) else {
        cell: cells[cell] for cell in keep if cell in cells}


def write_runs(batch: Batch, changes: Sequence[tuple[Pos, Block]]) -> int:
    """Write `changes` (world cells, each once): a row of neighbouring cells that get the same
    block along x or z as one `world.setBlocks`, any other cell as a `world.setBlock`.
    Returns the commands added.

    Why: a match start or reset redraws whole rows (hand displays, wool and torch walls) with
    one block; at 50 tables that was hundreds of setters in one cycle, each a line for the
    server to run and for us to encode and confirm. The world ends up exactly the same.
    """
    if len(changes) < 2:
        for at, block in changes:
            batch.set_block(at, block)
        return len(changes)
    left = dict(changes)
    added = 0
    for axis, order in ((0, _ALONG_X), (2, _ALONG_Z)):  # rows along x first, then along z among the cells left
        runs: list[list[Pos]] = []
        for at in sorted(left, key=order):
            if runs and left[at] == left[runs[-1][-1]] and _next_along(runs[-1][-1], at, axis):
                runs[-1].append(at)
            else:
                runs.append([at])
        for run in runs:
            if len(run) >= 2:
                batch.set_blocks(run[0], run[-1], left[run[0]])
                for cell in run:
                    del left[cell]
                added += 1
    for at, block in left.items():
        batch.set_block(at, block)
    return added + len(left)


#: Sort keys (in C: a Pos is a tuple) that put the cells of one row along x, or z, next to each other.
_ALONG_X, _ALONG_Z = itemgetter(1, 2, 0), itemgetter(1, 0, 2)


def _next_along(a: Pos, b: Pos, axis: int) -> bool:
    if axis == 0:
        return a.y == b.y and a.z == b.z and b.x == a.x + 1
    return a.y == b.y and a.x == b.x and b.z == a.z + 1
