"""The legacy table: the blocks an arena uses, all colours and facings, unknowns reported."""

from __future__ import annotations

import pytest

from mcbridge.world.blocks import Block
from mcbridge.world.geometry import rotate_block
from worldgen.states import (
    BlockState,
    ConversionReport,
    LegacyTable,
    format_key,
    key_of,
    parse_key,
    rotate_state,
)

COLOURS = [
    "white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray",
    "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black",
]
COLOURED = {
    35: "wool", 95: "stained_glass", 160: "stained_glass_pane", 159: "terracotta",
    171: "carpet", 251: "concrete", 252: "concrete_powder",
}


def legacy(table: LegacyTable, text: str) -> str | None:
    key, exact = table.legacy_of(BlockState.parse(text))
    assert key is None or exact, text
    return None if key is None else format_key(key)


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ("minecraft:red_wool", "35:14"),
        ("minecraft:redstone_wall_torch[facing=east,lit=true]", "76:1"),
        ("minecraft:redstone_wall_torch[facing=east,lit=false]", "75:1"),
        ("minecraft:redstone_torch[lit=true]", "76:5"),
        ("minecraft:oak_wall_sign[facing=north]", "68:2"),
        ("minecraft:wall_sign[facing=east]", "68:5"),  # 1.13 spelling
        ("minecraft:oak_sign[rotation=8]", "63:8"),
        ("minecraft:sign[rotation=12]", "63:12"),
        ("minecraft:oak_stairs[facing=west,half=top,shape=straight,waterlogged=false]", "53:5"),
        ("minecraft:smooth_stone_slab[type=top,waterlogged=false]", "44:8"),
        ("minecraft:oak_slab[type=double]", "125:0"),
        ("minecraft:glass", "20:0"),
        ("minecraft:glass_pane[east=true,north=false,south=false,west=true]", "102:0"),
        ("minecraft:spruce_log[axis=x]", "17:5"),
        ("minecraft:quartz_pillar[axis=z]", "155:4"),
        ("stone_bricks", "98:0"),
        ("minecraft:chest[facing=south,type=single,waterlogged=false]", "54:3"),
        ("minecraft:grass_block[snowy=false]", "2:0"),
        ("minecraft:short_grass", "31:1"),  # 1.20.3 spelling
        ("minecraft:cave_air", "0:0"),
    ],
)
def test_modern_states_map_to_legacy(table: LegacyTable, state: str, expected: str) -> None:
    assert legacy(table, state) == expected


@pytest.mark.parametrize(("block_id", "suffix"), sorted(COLOURED.items()))
def test_every_colour_of_every_coloured_block(
    table: LegacyTable, block_id: int, suffix: str
) -> None:
    for data, colour in enumerate(COLOURS):
        state = f"minecraft:{colour}_{suffix}"
        assert legacy(table, state) == f"{block_id}:{data}"
        found = table.state_of(key_of(block_id, data))
        assert found is not None and found.name == state  # panes add their connections


def test_torches_in_every_facing(table: LegacyTable) -> None:
    facings = {1: "east", 2: "west", 3: "south", 4: "north"}
    for data, facing in facings.items():
        assert str(table.state_of(key_of(50, data))) == f"minecraft:wall_torch[facing={facing}]"
        for block_id, lit in ((75, "false"), (76, "true")):
            state = f"minecraft:redstone_wall_torch[facing={facing},lit={lit}]"
            assert str(table.state_of(key_of(block_id, data))) == state
            assert legacy(table, state) == f"{block_id}:{data}"
    assert str(table.state_of(key_of(50, 5))) == "minecraft:torch"
    assert str(table.state_of(key_of(50, 0))) == "minecraft:torch"  # 1.12 floor torch too
    assert legacy(table, "minecraft:torch") == "50:5"


def test_signs_in_every_facing_and_rotation(table: LegacyTable) -> None:
    for data, facing in {2: "north", 3: "south", 4: "west", 5: "east"}.items():
        state = f"minecraft:oak_wall_sign[facing={facing}]"
        assert str(table.state_of(key_of(68, data))) == state
        assert legacy(table, state) == f"68:{data}"
    for rotation in range(16):
        state = f"minecraft:oak_sign[rotation={rotation}]"
        assert legacy(table, state) == f"63:{rotation}"


def test_unknown_and_approximated_states_are_counted_not_dropped(table: LegacyTable) -> None:
    report = ConversionReport()
    stone = key_of(1)
    keys = table.keys_for_states(
        ["minecraft:deepslate", "minecraft:farmland[moisture=9]", "not a state!", "air"],
        [5, 2, 1, 7],
        stone,
        report,
    )
    assert keys == [stone, key_of(60, 0), stone, 0]
    assert report.unknown == {"minecraft:deepslate": 5, "not a state!": 1}
    assert report.approximated == {"minecraft:farmland[moisture=9]": 2}
    lines = report.lines("minecraft:stone")
    assert "unknown block minecraft:deepslate: 5 cells replaced by minecraft:stone" in lines


def test_unknown_legacy_blocks_are_counted(table: LegacyTable) -> None:
    report = ConversionReport()
    fallback = BlockState.parse("stone")
    states = table.states_for_keys([key_of(35, 1), key_of(253, 0)], [3, 4], fallback, report)
    assert [str(s) for s in states] == ["minecraft:orange_wool", "minecraft:stone"]
    assert report.unknown == {"253:0": 4}


def test_parse_errors_are_clear() -> None:
    with pytest.raises(ValueError, match="not a block state"):
        BlockState.parse("minecraft:stone[")
    with pytest.raises(ValueError, match="has no '='"):
        BlockState.parse("minecraft:lever[powered]")
    with pytest.raises(ValueError, match="out of range"):
        parse_key("4096:0")


def test_rotation_turns_facing_rotation_and_axis() -> None:
    state = BlockState.parse("minecraft:oak_wall_sign[facing=north]")
    assert str(rotate_state(state, 1)) == "minecraft:oak_wall_sign[facing=east]"
    assert str(rotate_state(BlockState.parse("oak_sign[rotation=14]"), 1)).endswith("=2]")
    assert str(rotate_state(BlockState.parse("oak_log[axis=x]"), 3)).endswith("axis=z]")
    assert str(rotate_state(BlockState.parse("dispenser[facing=up]"), 1)).endswith("facing=up]")


def test_table_rotation_agrees_with_the_geometry_module(table: LegacyTable) -> None:
    """Two places turn block data; they must never disagree on a block both know."""
    checked = 0
    for key in table.known_keys():
        block = Block(key >> 4, key & 15)
        for turns in (1, 2, 3):
            theirs = rotate_block(block, turns)
            ours = table.rotate_key(key, turns)
            if theirs == block or ours is None:
                continue  # geometry leaves it alone, or the table has no legacy twin
            # redstone torches: geometry keeps data 0 (floor) unturned as the table does
            assert ours == key_of(theirs.id, theirs.data), (format_key(key), turns)
            checked += 1
    assert checked > 200


def test_ids_whose_data_never_varies(table: LegacyTable) -> None:
    assert {0, 20, 4, 45, 89}.issubset(table.single_state_ids)
    assert not {1, 35, 50, 68, 75, 76, 95}.intersection(table.single_state_ids)
    assert table.same_block_id(75) == table.same_block_id(76)
