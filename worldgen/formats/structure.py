"""Vanilla structure `.nbt` (structure blocks, 1.10+): a palette plus one compound per block.

One NBT compound per block made this format slow for big builds (~35 us a block through
nbtlib); blocks are now read as numpy columns (`worldgen.nbt.Columns`) and written as
one numpy layout, so it costs about what the other formats do. Positions the file leaves out are
structure voids ("leave the world as it is"); a grid has no such cell, so they are read
as air and counted in the report.
"""

from __future__ import annotations

import io
import struct

import nbtlib
import numpy as np
import numpy.typing as npt

from worldgen.formats.common import (
    Loaded,
    checked_volume,
    entity_id,
    entity_payload,
    note_ignored,
    place_entity,
)
from worldgen.formats.fields import Fields
from worldgen.formats.palette import cells_from_indices, palette_for_cells
from worldgen.grid import BlockEntity, BlockGrid, Pos
from worldgen.nbt import Columns, Document
from worldgen.states import BlockState, ConversionReport, LegacyTable

FORMAT = "structure .nbt"
#: The first DataVersion with flattened names (17w47a); older files speak 1.12's names.
FLATTENING = 1451
#: No Minecraft release wrote a smaller DataVersion (1.9 is 169): such a file is not real.
OLDEST = 100


def looks_like(root: nbtlib.Compound) -> bool:
    return "blocks" in root and "size" in root and ("palette" in root or "palettes" in root)


def read(root: nbtlib.Compound, path: str, table: LegacyTable, fallback_key: int) -> Loaded:
    fields = Fields(root, path, FORMAT, "")
    report = ConversionReport()
    version = fields.get("DataVersion", nbtlib.Int, required=False)
    data_version = None if version is None else int(version)
    if data_version is not None and data_version < OLDEST:
        raise fields.error(
            "DataVersion",
            f"is {data_version}, which no Minecraft version writes; the file cannot be placed",
        )
    pre_flattening = data_version is None or data_version < FLATTENING
    if pre_flattening:
        report.notes.append(
            "saved before 1.13 (no DataVersion or one below 1451): read with 1.12 block names"
        )
    size = fields.triple("size")
    assert size is not None
    width, height, length = size
    if min(size) <= 0:
        raise fields.error("size", f"is {size}; every side must be at least 1")
    if fields.has("palettes"):
        variants = fields.need("palettes", nbtlib.List)
        if not variants:
            raise fields.error("palettes", "is empty")
        raw_palette = variants[0]
        if len(variants) > 1:
            report.notes.append(
                f"the file has {len(variants)} palette variants; the first one was used"
            )
        palette_where = "palettes[0]"
    else:
        raw_palette = fields.need("palette", nbtlib.List)
        palette_where = "palette"
    palette = {i: state_text(Fields(entry, path, FORMAT, f"{palette_where}[{i}]"))
               for i, entry in enumerate(raw_palette)}

    volume = checked_volume(fields, "size", (width, height, length))
    indices = np.zeros(volume, dtype=np.int64)
    present = np.zeros(volume, dtype=bool)
    entities: dict[Pos, BlockEntity] = {}
    blocks = root.get("blocks")
    if isinstance(blocks, Columns):  # the bounded reader's fast path: whole runs at once
        _place_columns(blocks, fields, size, indices, present)
        items: list[tuple[int, nbtlib.Compound]] = sorted(blocks.others.items())
    else:
        items = list(enumerate(fields.need("blocks", nbtlib.List)))
    for i, item in items:
        entry = Fields(item, path, FORMAT, f"blocks[{i}]")
        pos = entry.triple("pos")
        assert pos is not None
        x, y, z = pos
        if not (0 <= x < width and 0 <= y < height and 0 <= z < length):
            raise entry.error("pos", f"is {pos}, outside the size {size}")
        flat = x + z * width + y * width * length
        indices[flat] = int(entry.need("state", nbtlib.Int))
        present[flat] = True
        nbt = entry.get("nbt", nbtlib.Compound, required=False)
        if nbt is not None:
            be = BlockEntity(entity_id(nbt.get("id", "")), entity_payload(nbt))
            place_entity(entities, size, pos, be, entry)
    if indices.min(initial=0) < 0:
        raise fields.error("blocks", "holds a negative palette index")
    keys = cells_from_indices(
        indices[present],
        palette,
        table,
        fallback_key,
        report,
        fields,
        "blocks",
        pre_flattening=pre_flattening,
    )
    cells = np.zeros(volume, dtype=np.uint16)  # air where the file has no block
    cells[present] = keys
    voids = volume - int(present.sum())
    if voids:
        report.notes.append(f"{voids} positions have no block (structure void); read as air")
    note_ignored(report, "entities", len(fields.get("entities", nbtlib.List, required=False) or []))
    grid = BlockGrid(cells.reshape(height, length, width), entities)
    return Loaded(grid, FORMAT, data_version, report, len(palette))


def _place_columns(
    blocks: Columns,
    fields: Fields,
    size: tuple[int, int, int],
    indices: npt.NDArray[np.int64],
    present: npt.NDArray[np.bool_],
) -> None:
    """Blocks of the common layout (pos and state, no block entity), all at once."""
    rows = blocks.uniform
    if not rows.any():
        return
    pos, state = blocks.ints.get("pos"), blocks.ints.get("state")
    if pos is None or state is None or pos.ndim != 2 or pos.shape[1] != 3:
        first = int(np.flatnonzero(rows)[0])
        raise fields.error(f"blocks[{first}]", "should hold pos (three Int) and state (Int)")
    xyz = pos[rows]
    width, height, length = size
    outside = (xyz < 0).any(axis=1) | (xyz >= np.array([width, height, length])).any(axis=1)
    if outside.any():
        i = int(np.flatnonzero(rows)[int(np.argmax(outside))])
        raise fields.error(f"blocks[{i}].pos", f"is {tuple(pos[i].tolist())}, outside the size {size}")
    flat = xyz[:, 0] + xyz[:, 2] * width + xyz[:, 1] * width * length
    indices[flat] = state[rows]
    present[flat] = True


def write(
    grid: BlockGrid, table: LegacyTable, fallback: BlockState
) -> tuple[Document, ConversionReport]:
    """Every cell as a block (air included, as structure blocks save it), in Sponge order.

    Blocks without a block entity all share one byte layout, so the whole ``blocks``
    list is laid out with numpy (`_plain_blocks`); the few with one are encoded by nbtlib.
    """
    report = ConversionReport()
    names, indices = palette_for_cells(grid.cells, table, fallback, report)
    palette = nbtlib.List[nbtlib.Compound]([_palette_entry(name) for name in names])
    root = nbtlib.Compound(
        {
            "DataVersion": nbtlib.Int(table.data_version),
            "size": nbtlib.List[nbtlib.Int](list(grid.size)),
            "palette": palette,
            "entities": nbtlib.List[nbtlib.Compound](),
        }
    )
    width, _, length = grid.size
    with_entity = np.zeros(grid.volume, dtype=bool)
    special = io.BytesIO()
    for (x, y, z), be in sorted(grid.block_entities.items()):
        flat = x + z * width + y * width * length
        with_entity[flat] = True
        nbt = nbtlib.Compound(be.nbt)
        nbt["id"] = nbtlib.String(be.id)
        block = nbtlib.Compound(
            {
                "pos": nbtlib.List[nbtlib.Int]([x, y, z]),
                "state": nbtlib.Int(int(indices[flat])),
                "nbt": nbt,
            }
        )
        block.write(special)
    plain = np.flatnonzero(~with_entity)
    header = b"\x0a" + struct.pack(">i", grid.volume)
    payload = header + _plain_blocks(plain, indices[plain], grid.size) + special.getvalue()
    return Document(root, "", {"blocks": (9, payload)}), report


#: One block compound: {pos: [x, y, z], state: s}; the values sit at fixed offsets.
_ROW = (
    b"\x09\x00\x03pos\x03\x00\x00\x00\x03" + b"\x00" * 12
    + b"\x03\x00\x05state" + b"\x00" * 4 + b"\x00"
)
_POS_AT, _STATE_AT = 11, 11 + 12 + 8


def _plain_blocks(
    flat: npt.NDArray[np.intp], states: npt.NDArray[np.int64], size: tuple[int, int, int]
) -> bytes:
    """The encoded compounds of these cells (flat Sponge-order indices), all at once."""
    width, _, length = size
    rows = np.tile(np.frombuffer(_ROW, dtype=np.uint8), (flat.size, 1))
    y, rest = np.divmod(flat, width * length)
    z, x = np.divmod(rest, width)
    values = np.stack([x, y, z], axis=1).astype(">i4")
    rows[:, _POS_AT : _POS_AT + 12] = values.view(np.uint8).reshape(flat.size, 12)
    rows[:, _STATE_AT : _STATE_AT + 4] = (
        states.astype(">i4").view(np.uint8).reshape(flat.size, 4)
    )
    return rows.tobytes()


def state_text(entry: Fields) -> str:
    name = str(entry.need("Name", nbtlib.String))
    props = entry.get("Properties", nbtlib.Compound, required=False) or {}
    if not props:
        return name
    return f"{name}[{','.join(f'{k}={v}' for k, v in sorted(props.items()))}]"


def _palette_entry(text: str) -> nbtlib.Compound:
    state = BlockState.parse(text)
    entry = nbtlib.Compound({"Name": nbtlib.String(state.name)})
    if state.properties:
        entry["Properties"] = nbtlib.Compound(
            {k: nbtlib.String(v) for k, v in state.properties}
        )
    return entry
