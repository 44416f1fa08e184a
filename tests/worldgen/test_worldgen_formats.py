"""Every format: write then read gives the same grid; bad files give clear errors."""

from __future__ import annotations

import gzip
from pathlib import Path

import nbtlib
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from worldgen_support import grids

from worldgen.errors import SchematicError
from worldgen.grid import BlockEntity, BlockGrid
from worldgen.schematic import Fallback, format_for_path, read_schematic, write_schematic
from worldgen.states import key_of

FORMATS = [
    ("sponge-v3", ".schem", "Sponge .schem v3"),
    ("sponge-v2", ".schem", "Sponge .schem v2"),
    ("mcedit", ".schematic", "MCEdit .schematic"),
    ("structure", ".nbt", "structure .nbt"),
]
SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.parametrize(("fmt", "suffix", "name"), FORMATS)
@SETTINGS
@given(grid=grids())
def test_write_then_read_gives_the_same_grid(
    tmp_path: Path, fmt: str, suffix: str, name: str, grid: BlockGrid
) -> None:
    path = tmp_path / f"g{suffix}"
    report = write_schematic(grid, path, fmt=fmt)
    assert not report
    loaded = read_schematic(path)
    assert loaded.format == name
    assert not loaded.report, loaded.report.lines()
    assert loaded.grid.same_blocks(grid)
    assert loaded.grid.block_entities == grid.block_entities
    for pos, entity in grid.block_entities.items():
        assert loaded.grid.block_entities[pos].sign_lines() == entity.sign_lines()


@SETTINGS
@given(
    ids=st.lists(st.integers(0, 4095), min_size=1, max_size=60),
    data=st.integers(0, 15),
)
def test_mcedit_keeps_ids_above_255_in_add_blocks(
    tmp_path: Path, ids: list[int], data: int
) -> None:
    cells = np.array([key_of(i, data) for i in ids], dtype=np.uint16).reshape(1, 1, -1)
    path = tmp_path / "wide.schematic"
    write_schematic(BlockGrid(cells), path)
    assert read_schematic(path).grid.same_blocks(BlockGrid(cells))


def test_offset_and_unread_parts_are_reported(tmp_path: Path) -> None:
    grid = BlockGrid.filled(2, 2, 2, 35, 14)
    grid.offset = (-3, 0, 5)
    path = tmp_path / "o.schem"
    write_schematic(grid, path)
    file = nbtlib.load(path)
    file["Schematic"]["Entities"] = nbtlib.List[nbtlib.Compound]([nbtlib.Compound()])
    file.save(path, gzipped=True)
    loaded = read_schematic(path)
    assert loaded.grid.offset == (-3, 0, 5)
    assert loaded.report.notes == ["1 entities in the file were not read (blocks only)"]


def test_sign_text_from_any_era_is_read() -> None:
    json_era = BlockEntity("minecraft:sign", nbtlib.Compound(
        {"Text1": nbtlib.String('{"text":"A","extra":[{"text":"B"}]}'),
         "Text2": nbtlib.String('"plain json"'), "Text3": nbtlib.String("not json {"),
         "Text4": nbtlib.String('["x", {"text": "y"}]')}))
    assert json_era.sign_lines() == ("AB", "plain json", "not json {", "xy")
    modern = BlockEntity("minecraft:sign", nbtlib.Compound({"front_text": nbtlib.Compound(
        {"messages": nbtlib.List[nbtlib.String]([nbtlib.String('{"text":"hi"}')])})}))
    assert modern.sign_lines() == ("hi", "", "", "")
    assert BlockEntity("minecraft:chest").sign_lines() is None


def test_unknown_states_become_the_fallback_and_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "modern.schem"
    body = nbtlib.Compound({
        "Version": nbtlib.Int(3), "DataVersion": nbtlib.Int(3465),
        "Width": nbtlib.Short(2), "Height": nbtlib.Short(1), "Length": nbtlib.Short(2),
        "Blocks": nbtlib.Compound({
            "Palette": nbtlib.Compound({"minecraft:deepslate": nbtlib.Int(0),
                                        "minecraft:red_wool": nbtlib.Int(1)}),
            "Data": nbtlib.ByteArray([0, 1, 1, 0]),
        }),
    })
    nbtlib.File({"Schematic": body}, root_name="").save(path, gzipped=True)
    loaded = read_schematic(path, fallback=Fallback("minecraft:glass"))
    glass, wool = key_of(20), key_of(35, 14)
    assert loaded.grid.cells.ravel().tolist() == [glass, wool, wool, glass]
    assert loaded.report.unknown == {"minecraft:deepslate": 2}
    assert loaded.data_version == 3465


def test_writing_an_unknown_legacy_block_uses_the_fallback(tmp_path: Path) -> None:
    grid = BlockGrid.filled(1, 1, 2, 253)  # unused in 1.12
    report = write_schematic(grid, tmp_path / "x.schem", fallback=Fallback("air"))
    assert report.unknown == {"253:0": 2}
    assert read_schematic(tmp_path / "x.schem").grid.cells.tolist() == [[[0], [0]]]


def test_structure_voids_read_as_air_and_are_reported(tmp_path: Path) -> None:
    root = nbtlib.Compound({
        "DataVersion": nbtlib.Int(1976),
        "size": nbtlib.List[nbtlib.Int]([2, 1, 1]),
        "palette": nbtlib.List[nbtlib.Compound]([nbtlib.Compound(
            {"Name": nbtlib.String("minecraft:oak_stairs"),
             "Properties": nbtlib.Compound({"facing": nbtlib.String("north"),
                                            "half": nbtlib.String("top")})})]),
        "blocks": nbtlib.List[nbtlib.Compound]([nbtlib.Compound(
            {"pos": nbtlib.List[nbtlib.Int]([1, 0, 0]), "state": nbtlib.Int(0)})]),
    })
    nbtlib.File(root, root_name="").save(tmp_path / "s.nbt", gzipped=True)
    loaded = read_schematic(tmp_path / "s.nbt")
    assert loaded.grid.cells.tolist() == [[[0, key_of(53, 7)]]]
    assert loaded.report.notes == ["1 positions have no block (structure void); read as air"]


def test_sponge_v3_without_blocks_is_all_air(tmp_path: Path) -> None:
    body = nbtlib.Compound({"Version": nbtlib.Int(3), "DataVersion": nbtlib.Int(3465),
                            "Width": nbtlib.Short(1), "Height": nbtlib.Short(2),
                            "Length": nbtlib.Short(1)})
    nbtlib.File({"Schematic": body}, root_name="").save(tmp_path / "e.schem", gzipped=True)
    assert read_schematic(tmp_path / "e.schem").grid.cells.tolist() == [[[0]], [[0]]]


def test_format_from_the_file_name(tmp_path: Path) -> None:
    assert format_for_path("a.SCHEM") == "sponge-v3"
    assert format_for_path("a.schematic") == "mcedit"
    with pytest.raises(SchematicError, match=r"unknown file type '\.txt'"):
        format_for_path("a.txt")


# --- corrupt and unsupported files ------------------------------------------------------


def sponge_file(tmp_path: Path, version: int = 2, **changes: object) -> Path:
    """A valid Sponge file of the given version with some fields replaced or removed."""
    path = tmp_path / f"v{version}.schem"
    write_schematic(BlockGrid.filled(2, 2, 2, 1), path, fmt=f"sponge-v{max(version, 2)}")
    file = nbtlib.load(path)
    body = file["Schematic"] if version == 3 else file
    for name, value in changes.items():
        where = body["Blocks"] if version == 3 and name in ("Data", "Palette") else body
        if value is None:
            del where[name]
        else:
            where[name] = value
    file.save(path, gzipped=True)
    return path


@pytest.mark.parametrize(
    ("version", "changes", "message"),
    [
        (2, {"Version": nbtlib.Int(9)}, r"v9: Schematic\.Version: is 9; this reader knows"),
        (2, {"Palette": None}, r"v2: Schematic\.Palette: is missing"),
        (2, {"Width": nbtlib.Int(2)}, r"Schematic\.Width: should be Short but is Int"),
        (2, {"Height": nbtlib.Short(0)}, r"Schematic\.Height: is 0"),
        (2, {"BlockData": nbtlib.ByteArray([0] * 7)}, r"BlockData: holds 7 blocks but .* is 8"),
        (2, {"BlockData": nbtlib.ByteArray([0] * 7 + [-128])}, r"BlockData: the last varint"),
        (2, {"BlockData": nbtlib.ByteArray([5] * 8)}, r"uses palette index 5 but"),
        (3, {"Data": nbtlib.ByteArray([0] * 9)}, r"v3: Schematic\.Blocks\.Data: holds 9"),
        (3, {"Palette": nbtlib.Compound({"a": nbtlib.String("x")})},
         r"Schematic\.Blocks\.Palette\['a'\]: should be a non-negative Int"),
    ],
)
def test_bad_sponge_fields_name_file_version_and_field(
    tmp_path: Path, version: int, changes: dict[str, object], message: str
) -> None:
    path = sponge_file(tmp_path, version, **changes)
    with pytest.raises(SchematicError, match=message) as caught:
        read_schematic(path)
    assert str(caught.value).startswith(str(path))


def test_block_entity_outside_the_region(tmp_path: Path) -> None:
    path = tmp_path / "be.schem"
    grid = BlockGrid.filled(2, 1, 1, 68, 2)
    grid.block_entities[(0, 0, 0)] = BlockEntity.sign(["x"])
    write_schematic(grid, path)
    file = nbtlib.load(path)
    file["Schematic"]["Blocks"]["BlockEntities"][0]["Pos"] = nbtlib.IntArray([5, 0, 0])
    file.save(path, gzipped=True)
    with pytest.raises(SchematicError, match=r"BlockEntities\[0\]: a block entity .* \(5, 0, 0\)"):
        read_schematic(path)


def test_not_nbt_not_gzip_truncated_and_missing(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.schem"
    garbage.write_bytes(b"\x00\x01 definitely not nbt")
    with pytest.raises(SchematicError, match=r"garbage\.schem: NBT .*: is not a readable NBT"):
        read_schematic(garbage)
    good = tmp_path / "good.schem"
    write_schematic(BlockGrid.filled(8, 8, 8, 1), good)
    cut = tmp_path / "cut.schem"
    cut.write_bytes(good.read_bytes()[:40])
    with pytest.raises(SchematicError, match=r"cut\.schem: NBT .*: the gzip stream is cut"):
        read_schematic(cut)
    with pytest.raises(SchematicError, match="no such file"):
        read_schematic(tmp_path / "missing.schem")


def test_nbt_that_is_no_schematic(tmp_path: Path) -> None:
    path = tmp_path / "level.dat"
    nbtlib.File({"Data": nbtlib.Compound({"x": nbtlib.Int(1)})}).save(path, gzipped=True)
    with pytest.raises(SchematicError, match=r"not a schematic this tool knows.*holds Data"):
        read_schematic(path)


def test_bad_mcedit_files(tmp_path: Path) -> None:
    path = tmp_path / "m.schematic"
    write_schematic(BlockGrid.filled(2, 2, 2, 1), path)
    file = nbtlib.load(path)
    file["Materials"] = nbtlib.String("Pocket")
    file.save(path, gzipped=True)
    with pytest.raises(SchematicError, match=r"MCEdit \.schematic: Schematic\.Materials: is 'Pocket'"):
        read_schematic(path)
    file["Materials"] = nbtlib.String("Alpha")
    file["Data"] = nbtlib.ByteArray([0, 0])
    file.save(path, gzipped=True)
    with pytest.raises(SchematicError, match=r"Schematic\.Data: holds 2 bytes but .* is 8"):
        read_schematic(path)


def test_bad_structure_files(tmp_path: Path) -> None:
    path = tmp_path / "s.nbt"
    write_schematic(BlockGrid.filled(1, 1, 2, 1), path)
    file = nbtlib.load(path)
    file["blocks"][1]["pos"] = nbtlib.List[nbtlib.Int]([0, 0, 9])
    file.save(path, gzipped=True)
    with pytest.raises(SchematicError, match=r"structure \.nbt: blocks\[1\]\.pos: is \(0, 0, 9\)"):
        read_schematic(path)


def test_plain_uncompressed_nbt_is_read_too(tmp_path: Path) -> None:
    path = tmp_path / "plain.schem"
    write_schematic(BlockGrid.filled(1, 1, 1, 35, 3), path)
    raw = gzip.decompress(path.read_bytes())
    path.write_bytes(raw)
    assert read_schematic(path).grid.get(0, 0, 0) == (35, 3)
