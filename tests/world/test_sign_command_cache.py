"""`Batch.set_sign`'s cache of encoded lines: every line equals the general encoder's
(`commands.make`), for hostile text too, before and after the cache fills and is cleared."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.world import commands
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch, make
from mcbridge.world.geometry import Pos

lines = st.lists(st.text(max_size=30), max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.builds(Pos, st.integers(-99, 99), st.integers(0, 9), st.integers(-99, 99)), lines)
def test_a_cached_sign_line_is_the_general_encoding(pos: Pos, text: list[str]) -> None:
    batch = Batch()
    batch.set_sign(pos, Block(68, 3), text)
    batch.set_sign(pos, Block(68, 3), text)  # the second from the cache
    want = make("world.setSign", [pos, Block(68, 3), text[:4]])
    assert [item.command for item in batch.items] == [want, want]


def test_past_the_cache_limit_every_sign_still_says_its_own_text() -> None:
    batch = Batch()
    texts = [f"line {k}" for k in range(commands._CACHE_LIMIT + 10)]
    for text in texts:
        batch.set_sign(Pos(1, 2, 3), Block(68, 2), [text, "", "x,y", "(z)"])
    assert [item.command.args[5:] for item in batch.items] == [(t, "", "x\u201ay", "[z]") for t in texts]
    assert len(commands._SIGN_ARGS) <= commands._CACHE_LIMIT
