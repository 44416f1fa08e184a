"""The embedded world's private overlays as a model would have them (no server, no wire).

Whatever sequence of private writes, clears and world writes happens, a player sees the world
with exactly their own overlays on top, and never anyone else's.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.world.commands import BlockChange, parse_block_changes
from mcbridge.world.embedded.overlays import seen_block, seen_sign
from mcbridge.world.embedded.storage import state_of
from mcbridge.world.embedded.world import World
from mcbridge.world.geometry import Pos

OWNERS = ("ann", "ben", "cy")
CELLS = [(x, 5, z) for x in range(3) for z in range(2)]
BLOCKS = [(1, 0), (35, 14), (35, 11), (68, 3), (98, 0)]

ops = st.one_of(
    st.tuples(st.just("private"), st.sampled_from(OWNERS), st.sampled_from(CELLS),
              st.sampled_from(BLOCKS)),
    st.tuples(st.just("sign"), st.sampled_from(OWNERS), st.sampled_from(CELLS),
              st.text("abc", max_size=3)),
    st.tuples(st.just("clear"), st.sampled_from(OWNERS), st.sampled_from(CELLS), st.booleans()),
    st.tuples(st.just("world"), st.none(), st.sampled_from(CELLS), st.sampled_from(BLOCKS)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(ops, max_size=40))
def test_each_player_sees_the_world_and_only_their_own_overlays(sequence):
    world = World()
    model: dict[str, dict[tuple[int, int, int], tuple[tuple[int, int], tuple[str, ...] | None]]]
    model = {owner: {} for owner in OWNERS}
    for kind, owner, cell, value in sequence:
        if kind == "private":
            world.private.set(owner, cell, state_of(*value))
            model[owner][cell] = (value, None)
        elif kind == "sign":
            world.private.set(owner, cell, state_of(68, 3), {0: value})
            old = model[owner].get(cell)
            kept = old[1] if old is not None and old[0][0] == 68 and old[1] else ("", "", "", "")
            model[owner][cell] = ((68, 3), (value, *kept[1:]))
        elif kind == "clear":
            if value:
                world.private.clear(owner)
                model[owner].clear()
            else:
                world.private.clear(owner, cell, cell)
                model[owner].pop(cell, None)
        else:
            world.set_block(*cell, *value)
    for owner in (*OWNERS, "stranger"):
        mine = model.get(owner, {})
        for cell in CELLS:
            if cell in mine:
                block, lines = mine[cell]
                assert seen_block(world, owner, cell) == block
                assert seen_sign(world, owner, cell) == lines
            else:
                assert seen_block(world, owner, cell) == world.get_block(*cell)
                assert seen_sign(world, owner, cell) == world.sign_lines(cell)


@given(
    st.lists(
        st.tuples(
            st.integers(1, 2**31 - 1),
            st.integers(-(2**31), 2**31 - 1),
            st.integers(0, 255),
            st.integers(-(2**31), 2**31 - 1),
            st.integers(0, 255),
            st.integers(0, 15),
        ),
        max_size=8,
    )
)
def test_block_change_records_read_back_exactly(records):
    line = "|".join(",".join(map(str, record)) for record in records)
    changes = parse_block_changes(line)
    assert [(c.entity_id, *c.pos, *c.block) for c in changes] == records
    assert all(isinstance(c, BlockChange) and isinstance(c.pos, Pos) for c in changes)


def test_a_malformed_record_is_never_half_read():
    for line in ("1,2,3", "1,2,3,4,5,6|x", "1,2,3,4,5,6,7", "a,2,3,4,5,6"):
        try:
            parse_block_changes(line)
        except ValueError:
            continue
        raise AssertionError(f"{line!r} was accepted")
