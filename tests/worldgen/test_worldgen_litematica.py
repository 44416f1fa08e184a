"""Litematica files, built here from the format's description, every region read."""

from __future__ import annotations

from pathlib import Path

import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from worldgen.errors import SchematicError
from worldgen.formats.litematica import unpack_bits
from worldgen.schematic import read_schematic, write_schematic
from worldgen.states import key_of


def pack(values: list[int], bits: int) -> list[int]:
    """Litematica's bit array, the slow obvious way: value i at bits i*b .. i*b+b-1."""
    total = 0
    for i, value in enumerate(values):
        total |= value << (i * bits)
    words = -(-len(values) * bits // 64)
    out = []
    for w in range(words):
        word = (total >> (64 * w)) & ((1 << 64) - 1)
        out.append(word - (1 << 64) if word >= 1 << 63 else word)  # a signed Long
    return out


@settings(max_examples=200, deadline=None)
@given(bits=st.integers(2, 12), data=st.data())
def test_unpacking_agrees_with_the_obvious_packing(bits: int, data: st.DataObject) -> None:
    values = data.draw(st.lists(st.integers(0, (1 << bits) - 1), max_size=300))
    longs = np.array(pack(values, bits), dtype=np.int64)
    assert unpack_bits(longs, bits, len(values)).tolist() == values


def xyz(x: int, y: int, z: int) -> nbtlib.Compound:
    return nbtlib.Compound({"x": nbtlib.Int(x), "y": nbtlib.Int(y), "z": nbtlib.Int(z)})


def region(
    position: tuple[int, int, int],
    size: tuple[int, int, int],
    palette: list[tuple[str, dict[str, str]]],
    cells: np.ndarray,
    tile_entities: list[nbtlib.Compound] = (),  # type: ignore[assignment]
) -> nbtlib.Compound:
    bits = max(2, (len(palette) - 1).bit_length())
    entries = []
    for name, props in palette:
        entry = nbtlib.Compound({"Name": nbtlib.String(name)})
        if props:
            entry["Properties"] = nbtlib.Compound({k: nbtlib.String(v) for k, v in props.items()})
        entries.append(entry)
    return nbtlib.Compound(
        {
            "Position": xyz(*position),
            "Size": xyz(*size),
            "BlockStatePalette": nbtlib.List[nbtlib.Compound](entries),
            "BlockStates": nbtlib.LongArray(pack(cells.ravel().tolist(), bits)),
            "TileEntities": nbtlib.List[nbtlib.Compound](list(tile_entities)),
            "Entities": nbtlib.List[nbtlib.Compound](),
        }
    )


def litematic(path: Path, regions: dict[str, nbtlib.Compound], version: int = 2586) -> None:
    root = nbtlib.Compound(
        {
            "Version": nbtlib.Int(5),
            "MinecraftDataVersion": nbtlib.Int(version),
            "Metadata": nbtlib.Compound({"Name": nbtlib.String("a house"), "RegionCount": nbtlib.Int(len(regions))}),
            "Regions": nbtlib.Compound(regions),
        }
    )
    nbtlib.File(root, root_name="").save(path, gzipped=True)


PALETTE = [
    ("minecraft:air", {}),
    ("minecraft:stone_bricks", {}),
    ("minecraft:red_wool", {}),
    ("minecraft:oak_stairs", {"facing": "west", "half": "top", "shape": "straight", "waterlogged": "false"}),
    ("minecraft:chest", {"facing": "south", "type": "single", "waterlogged": "false"}),
    ("minecraft:glass", {}),
]  # six states: 3 bits, so values straddle longs


def test_every_region_is_read_with_its_blocks_and_block_entities(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    main = rng.integers(1, 4, size=(3, 5, 7))  # [y, z, x], 105 cells of 3 bits
    main[0, 0, 0] = 4  # the chest
    chest = nbtlib.Compound(
        {"id": nbtlib.String("minecraft:chest"), **xyz(0, 0, 0), "Items": nbtlib.List[nbtlib.Compound]()}
    )
    annex = np.full((2, 2, 2), 5)  # glass, in a region with negative sizes
    path = tmp_path / "house.litematic"
    litematic(
        path,
        {
            "main": region((0, 0, 0), (7, 3, 5), PALETTE, main, [chest]),
            "annex": region((-1, 4, -1), (-2, -2, -2), PALETTE, annex),
        },
    )
    loaded = read_schematic(path)
    assert loaded.format == "Litematica .litematic" and loaded.data_version == 2586
    grid = loaded.grid
    # The annex spans x -2..-1, y 3..4, z -2..-1: the enclosing box starts at (-2, 0, -2).
    assert grid.size == (9, 5, 7) and grid.offset == (-2, 0, -2)
    keys = {1: key_of(98), 2: key_of(35, 14), 3: key_of(53, 5), 4: key_of(54, 3)}
    expected = np.vectorize(keys.get)(main)
    assert np.array_equal(grid.cells[0:3, 2:7, 2:9], expected)
    assert (grid.cells[3:5, 0:2, 0:2] == key_of(20)).all()
    assert set(grid.block_entities) == {(2, 0, 2)}  # region-relative, moved with the region
    assert grid.block_entities[(2, 0, 2)].id == "minecraft:chest"
    assert not loaded.report.unknown and not loaded.report.approximated
    assert "2 regions were merged" in " ".join(loaded.report.notes)

    out = tmp_path / "house.schem"  # Litematica imports Sponge v3: the way back
    write_schematic(grid, out)
    again = read_schematic(out).grid
    assert again.same_blocks(grid) and again.offset == grid.offset


def test_a_1_12_litematic_uses_pre_flattening_names(tmp_path: Path) -> None:
    palette = [
        ("minecraft:air", {}),
        ("minecraft:stonebrick", {"variant": "mossy_stonebrick"}),
        ("minecraft:log2", {"axis": "z", "variant": "acacia"}),
    ]
    path = tmp_path / "old.litematic"
    litematic(path, {"r": region((0, 0, 0), (3, 1, 1), palette, np.array([[[0, 1, 2]]]))}, 1343)
    assert read_schematic(path).grid.cells.ravel().tolist() == [0, key_of(98, 1), key_of(162, 8)]


def test_cut_block_states_are_refused_with_the_region(tmp_path: Path) -> None:
    path = tmp_path / "cut.litematic"
    body = region((0, 0, 0), (40, 1, 1), PALETTE, np.zeros((1, 1, 40), dtype=np.int64))
    body["BlockStates"] = nbtlib.LongArray([0])
    litematic(path, {"Main hall": body})
    with pytest.raises(
        SchematicError,
        match=r"cut\.litematic: Litematica \.litematic: Regions\.Main hall\.BlockStates: holds 1 longs",
    ):
        read_schematic(path)


def test_litematica_files_are_not_written(tmp_path: Path) -> None:
    with pytest.raises(SchematicError, match=r"read, not written; write \.schem"):
        write_schematic(
            read_schematic(Path(__file__).with_name("fixtures") / "prismarine_spongeV3.schem").grid,
            tmp_path / "x.litematic",
        )
