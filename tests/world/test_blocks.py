"""Block names, the 16 colours, and compatibility with mcpi's Block."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcpi import block as mcpi_block

from mcbridge.world import blocks
from mcbridge.world.blocks import Block, Color


def test_wool_colours_follow_the_legacy_data_table() -> None:
    assert blocks.wool("red") == Block(35, 14)
    assert blocks.wool(Color.BLUE) == Block(35, 11)
    assert blocks.wool("yellow") == Block(35, 4)
    assert blocks.wool("green") == Block(35, 13)
    assert blocks.wool("black") == Block(35, 15)
    assert blocks.wool("white") == Block(35, 0)
    assert blocks.wool("silver") == blocks.wool("light gray") == Block(35, 8)
    assert len(Color) == 16


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("red_wool", Block(35, 14)),
        ("Red Wool", Block(35, 14)),
        ("wool:red", Block(35, 14)),
        ("35:14", Block(35, 14)),
        ("35", Block(35, 0)),
        ("stone", Block(1, 0)),
        ("redstone_torch", Block(76, 0)),
        ("redstone_torch_off", Block(75, 0)),
        ("wall_sign", Block(68, 0)),
        ("blue_concrete", Block(251, 11)),
        ("light_blue_stained_glass", Block(95, 3)),
        ("black_terracotta", Block(159, 15)),
        ("68:3", Block(68, 3)),
    ],
)
def test_parse_block_accepts_names_and_numbers(text: str, expected: Block) -> None:
    assert blocks.parse_block(text) == expected


def test_parse_block_suggests_the_near_miss() -> None:
    with pytest.raises(ValueError, match="red_wool"):
        blocks.parse_block("red_wol")
    with pytest.raises(ValueError, match="0-15"):
        blocks.parse_block("35:16")
    with pytest.raises(ValueError, match="colour"):
        blocks.wool("ultraviolet")


@given(st.sampled_from(sorted(blocks.COLORED.values())), st.integers(0, 15))
def test_names_round_trip_for_every_coloured_block(block_id: int, data: int) -> None:
    block = Block(block_id, data)
    assert blocks.parse_block(blocks.block_name(block)) == block
    assert blocks.color_of(block) == Color(data)


def test_named_blocks_round_trip_and_unknown_ids_print_numbers() -> None:
    for block in blocks.NAMES.values():
        assert blocks.parse_block(blocks.block_name(block)) == block
    assert blocks.block_name(Block(68, 3)) == "wall_sign:3"
    assert blocks.block_name(Block(4000, 2)) == "4000:2"


def test_block_is_interchangeable_with_mcpi_block() -> None:
    assert Block(35, 14) == mcpi_block.Block(35, 14)
    assert mcpi_block.Block(35, 14) == Block(35, 14)
    assert list(Block(35, 14)) == [35, 14]
    assert blocks.STONE == mcpi_block.STONE
    assert {Block(1): "hashable"}[Block(1, 0)] == "hashable"
