"""Real files from public projects, and hand-built files for each bug issue 16 found."""

from __future__ import annotations

from pathlib import Path

import nbtlib
import numpy as np
import pytest

from mcbridge.world.connection import Connection
from worldgen import operations
from worldgen.errors import SchematicError
from worldgen.grid import BlockGrid
from worldgen.schematic import WRITE_FORMATS, read_schematic, write_schematic
from worldgen.states import default_table, format_key, key_of

TABLE = default_table()

FIXTURES = Path(__file__).with_name("fixtures")
SHARED = sorted(FIXTURES.glob("*.schem*"))
SUFFIX = {"sponge-v3": ".schem", "sponge-v2": ".schem", "mcedit": ".schematic", "structure": ".nbt"}


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", ["sponge-v3", "sponge-v2", "mcedit"])
def test_the_shared_files_round_trip(path: Path, fmt: str, tmp_path: Path) -> None:
    loaded = read_schematic(path)
    out = tmp_path / f"copy{SUFFIX[fmt]}"
    report = write_schematic(loaded.grid, out, fmt=fmt)
    again = read_schematic(out)
    if fmt == "mcedit":  # legacy numbers both ways: exact
        assert again.grid.same_blocks(loaded.grid)
    else:  # a legacy id:data with no state of its own comes back as its id's base state
        assert np.array_equal(again.grid.cells, as_states_keep(loaded.grid.cells))
        assert not report.unknown
        stray = {k for k in np.unique(loaded.grid.cells).tolist() if TABLE.state_of(k) is None}
        assert set(report.base_state) == {format_key(k) for k in stray}
    assert again.grid.offset == loaded.grid.offset
    assert again.grid.block_entities == loaded.grid.block_entities


def as_states_keep(cells: np.ndarray) -> np.ndarray:
    """What legacy cells become through block states: exact, or the id's base state."""
    keys, inverse = np.unique(cells, return_inverse=True)
    kept = []
    for key in keys.tolist():
        state = TABLE.state_of(key) or TABLE.state_of(TABLE.base_key(key >> 4) or 0)
        assert state is not None
        back, exact = TABLE.legacy_of(state)
        assert back is not None and exact
        kept.append(back)
    return np.array(kept, dtype=np.uint16)[inverse].reshape(cells.shape)


@pytest.mark.parametrize("path", [p for p in SHARED if "Station" not in p.name], ids=lambda p: p.name)
def test_the_shared_files_paste_and_export_equal(path: Path, conn: Connection) -> None:
    grid = read_schematic(path).grid
    at = (-2000 + 64 * SHARED.index(path), 3, 900)
    operations.paste(conn, grid, at)
    w, h, length = grid.size
    exported = operations.export(conn, at, (at[0] + w - 1, at[1] + h - 1, at[2] + length - 1))
    # Ids everywhere; data where the id has several states (air 0:7 reads back as 0:0:
    # RaspberryJuice reads no data where the block has one state only).
    differs = exported.cells != grid.cells
    single = np.isin(grid.cells >> 4, list(TABLE.single_state_ids))
    assert not (differs & ~single).any()
    assert ((exported.cells >> 4) == (grid.cells >> 4)).all()


def test_sponge_v2_offset_is_the_origin_corner_and_weoffset_the_paste_offset(
    tmp_path: Path,
) -> None:
    loaded = read_schematic(FIXTURES / "prismarine_smallhouse1.schem")
    # The file: Offset (224, 4, -127), Metadata.WEOffset (-10, 0, -19).
    assert loaded.grid.offset == (-10, 0, -19)
    assert loaded.grid.origin == (234, 4, -108)
    v3 = tmp_path / "house.schem"
    write_schematic(loaded.grid, v3)
    body = nbtlib.load(v3)["Schematic"]
    assert [int(v) for v in body["Offset"]] == [-10, 0, -19]  # WorldEdit pastes it right
    assert [int(v) for v in body["Metadata"]["WorldEdit"]["Origin"]] == [234, 4, -108]
    mcedit = tmp_path / "house.schematic"
    write_schematic(loaded.grid, mcedit)
    root = nbtlib.load(mcedit)
    assert [int(root[f"WEOffset{a}"]) for a in "XYZ"] == [-10, 0, -19]
    assert [int(root[f"WEOrigin{a}"]) for a in "XYZ"] == [234, 4, -108]
    v2 = tmp_path / "house-v2.schem"
    write_schematic(loaded.grid, v2, fmt="sponge-v2")
    body = nbtlib.load(v2)
    assert [int(v) for v in body["Offset"]] == [224, 4, -127]
    assert [int(body["Metadata"][f"WEOffset{a}"]) for a in "XYZ"] == [-10, 0, -19]


def _sponge_v2(path: Path, offset: list[int], metadata: dict[str, int] | None) -> None:
    body = nbtlib.Compound(
        {
            "Version": nbtlib.Int(2),
            "DataVersion": nbtlib.Int(2586),
            "Width": nbtlib.Short(2),
            "Height": nbtlib.Short(1),
            "Length": nbtlib.Short(1),
            "Offset": nbtlib.IntArray(offset),
            "PaletteMax": nbtlib.Int(2),
            "Palette": nbtlib.Compound({"minecraft:stone": nbtlib.Int(0), "minecraft:red_wool": nbtlib.Int(1)}),
            "BlockData": nbtlib.ByteArray([0, 1]),
        }
    )
    if metadata is not None:
        body["Metadata"] = nbtlib.Compound({k: nbtlib.Int(v) for k, v in metadata.items()})
    nbtlib.File(body, root_name="Schematic").save(path, gzipped=True)


def test_a_v2_file_converted_to_v3_keeps_worldedits_paste_offset(tmp_path: Path) -> None:
    """Issue 16: such a file became a v3 with Offset (-101, 74, 73), pasted far away."""
    source = tmp_path / "arena.schem"
    _sponge_v2(source, [-101, 74, 73], {"WEOffsetX": -3, "WEOffsetY": 0, "WEOffsetZ": -5})
    grid = read_schematic(source).grid
    assert grid.offset == (-3, 0, -5) and grid.origin == (-98, 74, 78)
    out = tmp_path / "arena-v3.schem"
    write_schematic(grid, out)
    assert [int(v) for v in nbtlib.load(out)["Schematic"]["Offset"]] == [-3, 0, -5]


def test_a_v2_file_without_weoffset_pastes_at_its_low_corner(tmp_path: Path) -> None:
    source = tmp_path / "plain.schem"
    _sponge_v2(source, [10, 64, -7], None)
    grid = read_schematic(source).grid
    assert grid.offset == (0, 0, 0) and grid.origin == (10, 64, -7)


def _structure(path: Path, palette: list[tuple[str, dict[str, str]]], version: int | None) -> None:
    """A vanilla structure file, as structure blocks write it: one block per position."""
    root = nbtlib.Compound(
        {
            "size": nbtlib.List[nbtlib.Int]([len(palette), 1, 1]),
            "palette": nbtlib.List[nbtlib.Compound](
                [
                    nbtlib.Compound(
                        {
                            "Name": nbtlib.String(name),
                            **(
                                {"Properties": nbtlib.Compound({k: nbtlib.String(v) for k, v in props.items()})}
                                if props
                                else {}
                            ),
                        }
                    )
                    for name, props in palette
                ]
            ),
            "blocks": nbtlib.List[nbtlib.Compound](
                [
                    nbtlib.Compound({"pos": nbtlib.List[nbtlib.Int]([i, 0, 0]), "state": nbtlib.Int(i)})
                    for i in range(len(palette))
                ]
            ),
            "entities": nbtlib.List[nbtlib.Compound](),
            "author": nbtlib.String("a 1.12 player"),
        }
    )
    if version is not None:
        root["DataVersion"] = nbtlib.Int(version)
    nbtlib.File(root, root_name="").save(path, gzipped=True)


#: A 1.12 villager-house-like palette (issue 16's names) and what 1.12 itself placed.
PALETTE_112 = [
    (("minecraft:stonebrick", {"variant": "stonebrick"}), (98, 0)),
    (("minecraft:planks", {"variant": "spruce"}), (5, 1)),
    (("minecraft:log2", {"axis": "x", "variant": "acacia"}), (162, 4)),
    (("minecraft:carpet", {"color": "red"}), (171, 14)),
    (("minecraft:stone", {"variant": "smooth_andesite"}), (1, 6)),
    (("minecraft:torch", {"facing": "south"}), (50, 3)),
    (("minecraft:stone_slab", {"half": "bottom", "variant": "cobblestone"}), (44, 3)),
    (("minecraft:purpur_slab", {"half": "top", "variant": "default"}), (205, 8)),
    (("minecraft:oak_stairs", {"facing": "west", "half": "top", "shape": "outer_left"}), (53, 5)),
    (
        (
            "minecraft:wooden_door",
            {"facing": "north", "half": "upper", "hinge": "left", "open": "false", "powered": "false"},
        ),
        (64, 8),
    ),
    (("minecraft:air", {}), (0, 0)),
]


@pytest.mark.parametrize("version", [None, 1343])  # none written, and 1.12.2's own
def test_a_1_12_structure_file_reads_with_pre_flattening_names(tmp_path: Path, version: int | None) -> None:
    path = tmp_path / "house.nbt"
    _structure(path, [state for state, _ in PALETTE_112], version)
    loaded = read_schematic(path)
    assert not loaded.report.unknown and not loaded.report.approximated
    assert loaded.data_version == version
    expected = [key_of(*legacy) for _, legacy in PALETTE_112]
    assert loaded.grid.cells.ravel().tolist() == expected


def test_a_modern_structure_file_still_reads_modern_names(tmp_path: Path) -> None:
    path = tmp_path / "modern.nbt"
    _structure(path, [("minecraft:stone_bricks", {}), ("minecraft:torch", {})], 2586)
    loaded = read_schematic(path)
    assert loaded.grid.cells.ravel().tolist() == [key_of(98), key_of(50, 5)]


def test_a_structure_whose_version_cannot_be_placed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.nbt"
    _structure(path, [("minecraft:stone", {})], 12)
    with pytest.raises(SchematicError, match=r"odd\.nbt: structure \.nbt: DataVersion: is 12"):
        read_schematic(path)


def test_legacy_blocks_without_an_exact_state_convert_as_their_base_block(tmp_path: Path) -> None:
    """Issue 16: chests with data 0/1, air 0:7, water 9:1 became stone on conversion."""
    cells = np.array([[[key_of(54, 0), key_of(54, 1), key_of(0, 7), key_of(9, 1)]]], np.uint16)
    report = write_schematic(BlockGrid(cells), tmp_path / "old.schem")
    back = read_schematic(tmp_path / "old.schem").grid.cells.ravel().tolist()
    assert back == [key_of(54, 2), key_of(54, 2), key_of(0), key_of(9, 1)]
    assert not report.unknown
    assert report.base_state == {"54:0": 1, "54:1": 1, "0:7": 1}


def test_the_super_market_converts_without_a_single_stone(tmp_path: Path) -> None:
    loaded = read_schematic(FIXTURES / "prismarine_legacy_super-market.schematic")
    for fmt in ("sponge-v3", "structure"):
        report = write_schematic(loaded.grid, tmp_path / f"market{SUFFIX[fmt]}", fmt=fmt)
        assert not report.unknown, report.lines()
        assert report.base_state  # its chests with data 0/1, its air with data 7


def test_every_write_format_is_covered() -> None:
    assert set(SUFFIX) == set(WRITE_FORMATS)
