"""Truncated and hostile NBT is refused with file, format and field, in bounded memory/time.

Each file here is small but lies: about lengths, nesting, sizes. Without the checks in
`worldgen.nbt` they would spin for hours, overflow the stack or allocate gigabytes.
"""

from __future__ import annotations

import gzip
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from worldgen import nbt
from worldgen.errors import SchematicError
from worldgen.grid import BlockGrid
from worldgen.schematic import read_schematic, write_schematic


def tag_name(name: str) -> bytes:
    raw = name.encode()
    return struct.pack(">H", len(raw)) + raw


def root(body: bytes, name: str = "Schematic") -> bytes:
    return b"\x0a" + tag_name(name) + body + b"\x00"


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(gzip.compress(data))
    return path


def test_a_list_of_two_billion_end_tags_is_refused(tmp_path: Path) -> None:
    body = b"\x09" + tag_name("Entities") + b"\x00" + struct.pack(">i", 2**31 - 1)
    path = write(tmp_path, "ends.schem", root(body))
    with pytest.raises(SchematicError, match=r"ends\.schem: NBT .*: Entities: claims 2147483647"):
        read_schematic(path)


@pytest.mark.parametrize(
    ("tag", "field"),
    [(7, "BlockData"), (11, "Offset"), (12, "BlockStates"), (8, None)],
)
def test_lengths_past_the_end_of_the_file_are_refused_before_allocating(
    tmp_path: Path, tag: int, field: str | None
) -> None:
    if tag == 8:  # a string claiming 65535 bytes, 3 there
        body = b"\x08" + tag_name("Name") + struct.pack(">H", 65535) + b"abc"
        expected = r"Name: needs 65535 more bytes"
    else:
        body = bytes([tag]) + tag_name(field or "") + struct.pack(">i", 2**31 - 1) + b"\x01" * 8
        expected = rf"{field}: claims 2147483647 elements but only \d+ bytes remain"
    path = write(tmp_path, "liar.schem", root(body))
    with pytest.raises(SchematicError, match=rf"liar\.schem: NBT \(Sponge \.schem\?\): {expected}"):
        read_schematic(path)


def test_a_list_of_compounds_claiming_more_than_the_file_holds(tmp_path: Path) -> None:
    body = b"\x09" + tag_name("blocks") + b"\x0a" + struct.pack(">i", 10**9) + b"\x00" * 10
    path = write(tmp_path, "blocks.nbt", root(body, ""))
    with pytest.raises(SchematicError, match=r"structure \.nbt\?\): blocks: claims 1000000000"):
        read_schematic(path)


@pytest.mark.parametrize("kind", ["compound", "list"])
def test_deep_nesting_is_refused_not_a_stack_overflow(tmp_path: Path, kind: str) -> None:
    depth = 100_000
    if kind == "compound":  # {"": {"": {...}}}
        body = (b"\x0a" + tag_name("")) * depth + b"\x00" * depth
    else:  # [[[...]]]
        body = b"\x09" + tag_name("a") + (b"\x09" + struct.pack(">i", 1)) * depth + b"\x00"
        body += struct.pack(">i", 0)
    path = write(tmp_path, "deep.schematic", root(body))
    with pytest.raises(SchematicError, match=r"deep\.schematic: NBT .*nests deeper than 512"):
        read_schematic(path)


def test_a_gzip_bomb_is_refused_at_the_size_cap(tmp_path: Path) -> None:
    path = tmp_path / "bomb.schem"
    path.write_bytes(gzip.compress(b"\x0a\x00\x00" + b"\x00" * (3 << 20)))
    with pytest.raises(nbt.NbtError, match=r"unpacks \(gzip\) to over 1048576 bytes"):
        nbt.read_bytes(str(path), max_bytes=1 << 20)
    assert nbt.MAX_BYTES == 512 << 20  # what read_schematic allows


def test_a_huge_claimed_size_is_refused_before_allocating(tmp_path: Path) -> None:
    sizes = b"".join(struct.pack(">i", 100_000) for _ in range(3))
    body = (
        b"\x09"
        + tag_name("size")
        + b"\x03"
        + struct.pack(">i", 3)
        + sizes
        + b"\x09"
        + tag_name("palette")
        + b"\x0a"
        + struct.pack(">i", 0)
        + b"\x09"
        + tag_name("blocks")
        + b"\x0a"
        + struct.pack(">i", 0)
    )
    path = write(tmp_path, "huge.nbt", root(body, ""))
    with pytest.raises(SchematicError, match=r"huge\.nbt: structure \.nbt: size: claims 100000x"):
        read_schematic(path)


def test_a_sponge_v3_without_blocks_cannot_claim_a_huge_box(tmp_path: Path) -> None:
    import nbtlib

    body = nbtlib.Compound(
        {
            "Version": nbtlib.Int(3),
            "DataVersion": nbtlib.Int(3700),
            "Width": nbtlib.Short(-1),
            "Height": nbtlib.Short(-1),
            "Length": nbtlib.Short(-1),
        }
    )
    path = tmp_path / "air.schem"
    nbtlib.File({"Schematic": body}, root_name="").save(path, gzipped=True)
    with pytest.raises(SchematicError, match=r"Sponge \.schem v3: Schematic\.Width: claims 65535x"):
        read_schematic(path)


def test_a_sparse_palette_index_is_refused(tmp_path: Path) -> None:
    import nbtlib

    body = nbtlib.Compound(
        {
            "Version": nbtlib.Int(2),
            "DataVersion": nbtlib.Int(2586),
            "Width": nbtlib.Short(1),
            "Height": nbtlib.Short(1),
            "Length": nbtlib.Short(1),
            "Palette": nbtlib.Compound({"minecraft:stone": nbtlib.Int(2**31 - 1)}),
            "BlockData": nbtlib.ByteArray([0]),
        }
    )
    path = tmp_path / "sparse.schem"
    nbtlib.File(body, root_name="Schematic").save(path, gzipped=True)
    with pytest.raises(SchematicError, match=r"BlockData: has a palette index of 2147483647"):
        read_schematic(path)


_VALID: dict[str, bytes] = {}


def _valid(suffix: str, tmp_path: Path) -> bytes:
    if suffix not in _VALID:
        grid = BlockGrid.filled(3, 2, 2, 35, 4)
        grid.set_sign(0, 0, 0, 68, 2, ["a", "b", "", ""])
        path = tmp_path / f"valid{suffix}"
        write_schematic(grid, path)
        _VALID[suffix] = gzip.decompress(path.read_bytes())
    return _VALID[suffix]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    suffix=st.sampled_from([".schem", ".schematic", ".nbt"]),
    edits=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=6),
    cut=st.one_of(st.none(), st.integers(0, 10_000)),
)
def test_damaged_files_are_read_or_refused_never_a_crash(
    tmp_path: Path, suffix: str, edits: list[tuple[int, int]], cut: int | None
) -> None:
    data = bytearray(_valid(suffix, tmp_path))
    for where, value in edits:
        data[where % len(data)] = value
    if cut is not None:
        data = data[: cut % len(data)]
    path = tmp_path / f"damaged{suffix}"
    path.write_bytes(gzip.compress(bytes(data)))
    try:
        read_schematic(path)
    except SchematicError as exc:
        assert str(exc).startswith(str(path))
