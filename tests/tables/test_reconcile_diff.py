"""The reconciler's diff against a model world: whatever the scenes, after each write the world
holds exactly the scene (later parts win), and an unchanged scene or part costs nothing.

Scenes here are made of parts the way kits make them: a part that did not change is the very
same object again (the reconciler skips it unread), a changed one is a new object. Parts may
overlap, which the shipped kits avoid but the reconciler must still get right: a skipped part
whose cell an earlier changed part now draws over, or a later changed part stopped drawing,
has to be written again. A fast path that skips a stale cell, or a cached sign command that
sends an old text, leaves the model world different from the scene and fails here.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.tables.kit import Scene
from mcbridge.tables.layout import Lines
from mcbridge.tables.reconcile import Reconciler
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Pos

FRAME = ArenaFrame.of((40, 3, -7), "south")
SIGN = Block(68, 2)
cells = st.builds(Pos, st.integers(0, 3), st.integers(0, 1), st.integers(0, 3))
plain = st.sampled_from([Block(0), Block(1), Block(35, 14), Block(35, 1), Block(76, 3)])
texts = st.tuples(*[st.sampled_from(["", "red", "blue", "BID 3"])] * 4)


@st.composite
def parts(draw: st.DrawFn) -> Scene:
    blocks = draw(st.dictionaries(cells, plain, max_size=6))
    signs: dict[Pos, Lines] = draw(st.dictionaries(cells, texts, max_size=2))
    for at in signs:
        blocks[at] = SIGN
    return Scene(blocks=blocks, signs=signs)


#: A step: for each of the three part slots, keep the last part (None) or put in a new one.
steps = st.lists(st.lists(st.none() | parts(), min_size=3, max_size=3), min_size=1, max_size=8)


def apply(world_blocks: dict[Pos, Block], world_signs: dict[Pos, Lines], batch: Batch) -> None:
    """What the batch's commands do to a world (arena-local, back through the frame)."""
    for item in batch.items:
        args = item.command.args
        name = item.command.name
        if name == "world.setSign":
            at = FRAME.to_local(Pos(*map(int, args[:3])))
            world_blocks[at] = FRAME.block_to_local(Block(int(args[3]), int(args[4])))
            world_signs[at] = tuple(line.strip() for line in args[5:9])  # type: ignore[assignment]
        elif name == "world.setBlock":
            world_blocks[FRAME.to_local(Pos(*map(int, args[:3])))] = FRAME.block_to_local(Block(*map(int, args[3:5])))
        else:
            assert name == "world.setBlocks", name
            a, b = Pos(*map(int, args[:3])), Pos(*map(int, args[3:6]))
            block = FRAME.block_to_local(Block(*map(int, args[6:8])))
            for x in range(min(a.x, b.x), max(a.x, b.x) + 1):
                for y in range(min(a.y, b.y), max(a.y, b.y) + 1):
                    for z in range(min(a.z, b.z), max(a.z, b.z) + 1):
                        world_blocks[FRAME.to_local(Pos(x, y, z))] = block


@settings(max_examples=300, deadline=None)
@given(steps)
def test_the_world_equals_every_scene_after_its_write(script: list[list[Scene | None]]) -> None:
    rec = Reconciler(FRAME)
    world_blocks: dict[Pos, Block] = {}
    world_signs: dict[Pos, Lines] = {}
    current: list[Scene] = [Scene(), Scene(), Scene()]
    for step in script:
        current = [old if new is None else new for old, new in zip(current, step, strict=True)]
        scene = Scene.of_parts(current)
        batch = Batch()
        assert rec.write(batch, scene) == len(batch.items)
        apply(world_blocks, world_signs, batch)
        for at, block in scene.blocks.items():
            assert world_blocks.get(at) == block, f"{at}: the world has {world_blocks.get(at)}, the scene {block}"
        for at, lines in scene.signs.items():
            assert world_signs.get(at) == lines, f"{at}: the sign reads {world_signs.get(at)}, the scene {lines}"
        again = Batch()
        assert rec.write(again, Scene.of_parts(current)) == 0, "an unchanged scene must cost nothing"


def test_a_changed_earlier_part_drawing_over_a_skipped_later_part_is_drawn_under_it_again() -> None:
    """Later parts win: the skipped part's cell goes out again after the earlier part's."""
    cell = Pos(1, 0, 1)
    board, wall = Scene(blocks={Pos(0, 0, 0): Block(1)}), Scene(blocks={cell: Block(35, 14)})
    rec = Reconciler(FRAME)
    rec.write(Batch(), Scene.of_parts([board, wall]))
    batch = Batch()
    rec.write(batch, Scene.of_parts([Scene(blocks={Pos(0, 0, 0): Block(1), cell: Block(0)}), wall]))
    at = FRAME.to_world(cell)
    assert [str(i.command) for i in batch.items] == [
        f"world.setBlock({at.x},{at.y},{at.z},0,0)", f"world.setBlock({at.x},{at.y},{at.z},35,14)"]


def test_a_sign_changed_back_and_forth_is_written_each_time_with_its_own_text() -> None:
    """The encoded-command cache is keyed by content: red, blue, red again are three writes."""
    at = Pos(2, 1, 0)
    rec = Reconciler(FRAME)
    sent = []
    for text in ("red", "blue", "red", "red"):
        batch = Batch()
        rec.write(batch, Scene(blocks={at: SIGN}, signs={at: (text, "", "", "")}))
        sent.append([item.command.args[5] for item in batch.items])
    assert sent == [["red"], ["blue"], ["red"], []]
