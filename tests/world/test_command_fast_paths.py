"""The batch's shortcuts for the tables' commands (positions and blocks as `Pos` and `Block`)
write exactly the line `make` writes for the same arguments: numbers as text, sign lines
sanitised by their role."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch, make
from mcbridge.world.geometry import Pos

coords = st.integers(-(2**31), 2**31 - 1)
positions = st.builds(Pos, coords, coords, coords)
blocks = st.builds(Block, st.integers(0, 255), st.integers(0, 15))


@given(positions, positions, blocks, st.lists(st.text(max_size=30), max_size=5), st.integers(0, 2**31 - 1))
def test_each_shortcut_sends_the_line_make_builds(a: Pos, b: Pos, block: Block, lines: list[str], eid: int) -> None:
    batch = Batch()
    batch.set_block(a, block)
    batch.set_blocks(a, b, block)
    batch.set_sign(a, block, lines)
    batch.get_block_with_data(a)
    batch.entity_pos(eid)
    batch.poll_chat_posts(eid)
    expected = [
        make("world.setBlock", [a, block]),
        make("world.setBlocks", [a, b, block]),
        make("world.setSign", [a, block, lines[:4]]),
        make("world.getBlockWithData", [a]),
        make("entity.getPos", [eid]),
        make("entity.events.chat.posts", [eid]),
    ]
    assert [item.command for item in batch.items] == expected
    assert [item.command.wire() for item in batch.items] == [(str(c) + "\n").encode() for c in expected]
