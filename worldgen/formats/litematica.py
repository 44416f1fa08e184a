"""Litematica `.litematic` (read only): one or more regions, each a bit-packed palette box.

Builders share most designs in this format. The root holds ``MinecraftDataVersion``
and ``Regions``, one compound per region: ``Position`` (relative to the schematic's
origin), ``Size`` (a negative side means the region extends the other way from
``Position``), ``BlockStatePalette`` and ``BlockStates``, a long array in which every
cell takes ``max(2, bits for the palette)`` bits, packed across long boundaries, in
``x + z*W + y*W*L`` order. Block entities sit at region-relative ``x, y, z``.

All regions go into one grid over their enclosing box, in file order; a later region's
air does not erase an earlier region's blocks (regions may overlap; air is "not part of
this region" there). The paste offset is the enclosing box's low corner relative to the
origin, which is where Litematica places it against the placement's origin.
"""

from __future__ import annotations

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
from worldgen.formats.palette import cells_from_indices
from worldgen.formats.structure import FLATTENING, OLDEST, state_text
from worldgen.grid import BlockEntity, BlockGrid, Pos
from worldgen.states import ConversionReport, LegacyTable

FORMAT = "Litematica .litematic"


def looks_like(root: nbtlib.Compound) -> bool:
    return "Regions" in root and ("MinecraftDataVersion" in root or "Metadata" in root)


#: Values unpacked per numpy step: bounds the temporaries (8 arrays of this many words).
UNPACK_CHUNK = 1 << 20


def unpack_bits(longs: npt.NDArray[np.int64], bits: int, count: int) -> npt.NDArray[np.int64]:
    """``count`` values of ``bits`` bits each, packed little-end first across longs."""
    words = np.zeros(longs.size + 1, dtype=np.uint64)
    words[:-1] = longs.astype(np.int64).view(np.uint64)
    out = np.empty(count, dtype=np.int64)
    mask = np.uint64((1 << bits) - 1)
    for first in range(0, count, UNPACK_CHUNK):
        n = min(UNPACK_CHUNK, count - first)
        start = np.arange(first, first + n, dtype=np.uint64) * np.uint64(bits)
        word = (start >> np.uint64(6)).astype(np.intp)
        offset = start & np.uint64(63)
        low = words[word] >> offset
        spill = (offset + np.uint64(bits)) > np.uint64(64)
        high = np.where(spill, words[word + 1] << ((np.uint64(64) - offset) & np.uint64(63)), 0)
        out[first : first + n] = ((low | high.astype(np.uint64)) & mask).astype(np.int64)
    return out


def read(root: nbtlib.Compound, path: str, table: LegacyTable, fallback_key: int) -> Loaded:
    fields = Fields(root, path, FORMAT, "")
    report = ConversionReport()
    version = fields.get("MinecraftDataVersion", nbtlib.Int, required=False)
    data_version = None if version is None else int(version)
    if data_version is not None and data_version < OLDEST:
        raise fields.error(
            "MinecraftDataVersion",
            f"is {data_version}, which no Minecraft version writes; the file cannot be placed",
        )
    pre_flattening = data_version is not None and data_version < FLATTENING
    regions_fields = fields.child("Regions")
    assert regions_fields is not None
    regions = list(regions_fields.compound.items())
    if not regions:
        raise fields.error("Regions", "is empty; the file holds no blocks")

    boxes: list[tuple[str, Fields, Pos, Pos]] = []
    for name, region in regions:
        where = f"Regions.{name}"
        region_fields = Fields(region, path, FORMAT, where)
        if not isinstance(region, nbtlib.Compound):
            raise fields.error(where, "should be a Compound")
        position = _xyz(region_fields, "Position")
        size = _xyz(region_fields, "Size")
        if 0 in size:
            raise region_fields.error("Size", f"is {size}; every side needs at least one block")
        low = tuple(p + (s + 1 if s < 0 else 0) for p, s in zip(position, size, strict=True))
        extent = tuple(abs(s) for s in size)
        checked_volume(region_fields, "Size", (extent[0], extent[1], extent[2]))
        boxes.append((str(name), region_fields, (low[0], low[1], low[2]), (extent[0], extent[1], extent[2])))

    low = tuple(min(b[2][axis] for b in boxes) for axis in range(3))
    high = tuple(max(b[2][axis] + b[3][axis] for b in boxes) for axis in range(3))
    width, height, length = (high[axis] - low[axis] for axis in range(3))
    checked_volume(fields, "Regions", (width, height, length))
    cells = np.zeros((height, length, width), dtype=np.uint16)
    entities: dict[Pos, BlockEntity] = {}
    palette_total = 0
    ignored = 0
    for _, region_fields, region_low, (w, h, ln) in boxes:
        raw_palette = region_fields.need("BlockStatePalette", nbtlib.List)
        palette = {
            i: state_text(Fields(entry, path, FORMAT, f"{region_fields.where}.BlockStatePalette[{i}]"))
            for i, entry in enumerate(raw_palette)
        }
        if not palette:
            raise region_fields.error("BlockStatePalette", "is empty")
        palette_total += len(palette)
        bits = max(2, (len(palette) - 1).bit_length())
        volume = w * h * ln
        longs = np.asarray(region_fields.need("BlockStates", nbtlib.LongArray))
        needed = -(-volume * bits // 64)
        if longs.size < needed:
            raise region_fields.error(
                "BlockStates",
                f"holds {longs.size} longs but {w}x{h}x{ln} blocks of {bits} bits need"
                f" {needed}; the file is truncated or corrupt",
            )
        indices = unpack_bits(longs, bits, volume)
        keys = cells_from_indices(
            indices,
            palette,
            table,
            fallback_key,
            report,
            region_fields,
            "BlockStates",
            pre_flattening=pre_flattening,
        ).reshape(h, ln, w)
        ox, oy, oz = (region_low[axis] - low[axis] for axis in range(3))
        target = cells[oy : oy + h, oz : oz + ln, ox : ox + w]
        solid = (keys >> 4) != 0
        target[solid] = keys[solid]
        for i, item in enumerate(region_fields.get("TileEntities", nbtlib.List, required=False) or []):
            entry = Fields(item, path, FORMAT, f"{region_fields.where}.TileEntities[{i}]")
            x, y, z = (int(entry.need(axis, nbtlib.Int)) for axis in "xyz")
            be = BlockEntity(entity_id(item.get("id", "")), entity_payload(item))
            place_entity(entities, (width, height, length), (x + ox, y + oy, z + oz), be, entry)
        ignored += len(region_fields.get("Entities", nbtlib.List, required=False) or [])
    note_ignored(report, "entities", ignored)
    if len(boxes) > 1:
        report.notes.append(f"{len(boxes)} regions were merged into one {width}x{height}x{length} box")
    offset = (low[0], low[1], low[2])
    grid = BlockGrid(cells, entities, offset)
    return Loaded(grid, FORMAT, data_version, report, palette_total)


def _xyz(fields: Fields, name: str) -> Pos:
    child = fields.child(name)
    assert child is not None
    x, y, z = (int(child.need(axis, nbtlib.Int)) for axis in "xyz")
    return x, y, z
