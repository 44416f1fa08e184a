"""Positions, cuboids (getBlocks order) and the arena frame, mostly as properties."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcpi.vec3 import Vec3

from mcbridge.world.blocks import Block
from mcbridge.world.geometry import (
    ArenaFrame,
    Cuboid,
    Facing,
    Pos,
    rotate,
    rotate_block,
    support_offset,
)

coord = st.integers(-1000, 1000)
positions = st.builds(Pos, coord, st.integers(0, 255), coord)
small = st.builds(Pos, st.integers(-4, 4), st.integers(-4, 4), st.integers(-4, 4))
facings = st.sampled_from(list(Facing))
turns = st.integers(-8, 8)
directional = st.sampled_from(
    [50, 75, 76, 77, 143, 69, 68, 65, 54, 23, 158, 63, 53, 67, 114, 86, 91, 235, 250, 35, 1]
)


@given(positions, turns)
def test_four_quarter_turns_are_the_identity(p: Pos, n: int) -> None:
    assert rotate(rotate(p, n), 4 - n) == p
    assert rotate(p, 4) == p


@given(positions, facings, positions)
def test_local_to_world_and_back(origin: Pos, facing: Facing, local: Pos) -> None:
    frame = ArenaFrame(origin, facing)
    assert frame.to_local(frame.to_world(local)) == local
    assert frame.to_world(Pos(0, 0, 0)) == origin


def test_each_facing_turns_local_north_its_way() -> None:
    forward = Pos(0, 0, -1)  # local north
    origin = Pos(10, 64, 10)
    for facing in Facing:
        frame = ArenaFrame(origin, facing)
        assert frame.to_world(forward) - origin == facing.vector
    assert Facing.EAST.vector == Pos(1, 0, 0) and Facing.SOUTH.vector == Pos(0, 0, 1)
    assert ArenaFrame.of((0.5, 64.2, -0.5), "w") == ArenaFrame(Pos(0, 64, -1), Facing.WEST)


@given(directional, st.integers(0, 15), turns)
def test_block_rotation_four_times_is_identity(block_id: int, data: int, n: int) -> None:
    block = Block(block_id, data)
    assert rotate_block(rotate_block(block, n), -n) == block
    assert rotate_block(block, 4) == block


@given(directional, st.integers(0, 15), st.integers(0, 3))
def test_attached_blocks_turn_with_their_support(block_id: int, data: int, n: int) -> None:
    """Rotating a torch/sign/button's data moves its support exactly as rotating space."""
    block = Block(block_id, data)
    support = support_offset(block)
    turned = support_offset(rotate_block(block, n))
    if support is None:
        assert turned is None
    else:
        assert turned == rotate(support, n)


def test_wall_sign_and_torch_data_under_a_quarter_turn() -> None:
    assert rotate_block(Block(68, 2), 1) == Block(68, 5)  # faces north -> faces east
    assert rotate_block(Block(76, 1), 1) == Block(76, 3)  # faces east -> faces south
    assert rotate_block(Block(63, 8), 1) == Block(63, 12)  # standing sign north -> east
    assert rotate_block(Block(35, 14), 3) == Block(35, 14)  # wool has no direction
    frame = ArenaFrame(Pos(0, 0, 0), Facing.SOUTH)
    assert frame.block_to_world(Block(68, 2)) == Block(68, 3)
    assert frame.block_to_local(frame.block_to_world(Block(75, 4))) == Block(75, 4)


@given(small, small)
def test_cuboid_index_and_position_are_inverse(a: Pos, b: Pos) -> None:
    cuboid = Cuboid(a, b)
    for i, p in enumerate(cuboid):
        assert cuboid.index(p) == i
        assert cuboid.at(i) == p
        assert p in cuboid
    assert len(list(cuboid)) == cuboid.volume


def test_cuboid_order_is_y_then_x_then_z() -> None:
    cuboid = Cuboid((1, 5, 1), (0, 4, 0))  # corners in any order
    assert cuboid.lo == Pos(0, 4, 0) and cuboid.hi == Pos(1, 5, 1)
    assert list(cuboid)[:3] == [Pos(0, 4, 0), Pos(0, 4, 1), Pos(1, 4, 0)]
    assert cuboid.index(Pos(1, 5, 1)) == 7
    with pytest.raises(ValueError):
        cuboid.index((2, 4, 0))
    with pytest.raises(IndexError):
        cuboid.at(8)


@given(small, small, small, small)
def test_intersects_matches_brute_force(a: Pos, b: Pos, c: Pos, d: Pos) -> None:
    one, two = Cuboid(a, b), Cuboid(c, d)
    expected = any(p in two for p in one)
    assert one.intersects(two) == expected == two.intersects(one)


def test_pos_is_a_vec3_stand_in() -> None:
    p = Pos.of(Vec3(1.7, -0.5, -2.2))
    assert p == Pos(1, -1, -3)
    assert list(p) == [1, -1, -3]
    assert p + Pos(1, 1, 1) == Pos(2, 0, -2)
    assert p.to_vec3() == Vec3(1, -1, -3)
    assert {p: 1}[Pos(1, -1, -3)] == 1
    assert sorted(itertools.islice(Cuboid((0, 0, 0), (1, 0, 0)), 2)) == [Pos(0, 0, 0), Pos(1, 0, 0)]
