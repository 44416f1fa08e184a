"""MCEdit `.schematic` (pre-1.13, WorldEdit 6): legacy ids and data, no palette.

The format already speaks legacy numbers, so nothing is converted and nothing is lost.
``Blocks`` holds the low 8 bits of each id; ids above 255 keep their high bits in
``AddBlocks``, two cells per byte (even index in the low nibble, as WorldEdit reads it).
"""

from __future__ import annotations

import nbtlib
import numpy as np

from worldgen.formats.common import Loaded, checked_volume, entity_id, entity_payload, note_ignored, place_entity
from worldgen.formats.fields import Fields, unsigned_short
from worldgen.grid import BlockEntity, BlockGrid, Pos
from worldgen.states import ConversionReport

FORMAT = "MCEdit .schematic"


def looks_like(root: nbtlib.Compound) -> bool:
    return "Blocks" in root and "Data" in root and "Width" in root


def read(root: nbtlib.Compound, path: str) -> Loaded:
    fields = Fields(root, path, FORMAT, "Schematic")
    materials = str(fields.get("Materials", nbtlib.String, required=False) or "Alpha")
    if materials != "Alpha":
        raise fields.error(
            "Materials",
            f"is {materials!r}; only 'Alpha' (Java Edition) schematics can be read",
        )
    width, height, length = (fields.dimension(n) for n in ("Width", "Height", "Length"))
    volume = checked_volume(fields, "Width", (width, height, length))
    low = _bytes(fields, "Blocks", volume)
    data = _bytes(fields, "Data", volume) & 0x0F
    ids = low.astype(np.uint16)
    add = fields.get("AddBlocks", nbtlib.ByteArray, required=False)
    if add is not None:
        nibbles = np.asarray(add).view(np.uint8)
        if nibbles.size < (volume + 1) // 2:
            raise fields.error(
                "AddBlocks", f"holds {nibbles.size} bytes, {(volume + 1) // 2} expected"
            )
        high = np.empty(volume, dtype=np.uint16)
        high[0::2] = nibbles[: (volume + 1) // 2] & 0x0F
        high[1::2] = nibbles[: volume // 2] >> 4
        ids |= high << 8
    cells = ((ids << 4) | data).reshape(height, length, width)

    entities: dict[Pos, BlockEntity] = {}
    for i, item in enumerate(fields.get("TileEntities", nbtlib.List, required=False) or []):
        entry = Fields(item, path, FORMAT, f"Schematic.TileEntities[{i}]")
        pos = (int(entry.need("x", nbtlib.Int)), int(entry.need("y", nbtlib.Int)),
               int(entry.need("z", nbtlib.Int)))
        be = BlockEntity(entity_id(entry.need("id", nbtlib.String)), entity_payload(item))
        place_entity(entities, (width, height, length), pos, be, entry)

    offset = _triple(fields, "WEOffset") or (0, 0, 0)
    origin = _triple(fields, "WEOrigin")
    report = ConversionReport()
    note_ignored(report, "entities", len(fields.get("Entities", nbtlib.List, required=False) or []))
    grid = BlockGrid(cells, entities, offset, origin=origin)
    return Loaded(grid, FORMAT, None, report, int(np.unique(cells).size))


def write(grid: BlockGrid) -> tuple[nbtlib.File, ConversionReport]:
    flat = grid.cells.ravel()
    ids = flat >> 4
    root = nbtlib.Compound(
        {
            "Width": unsigned_short(grid.width),
            "Height": unsigned_short(grid.height),
            "Length": unsigned_short(grid.length),
            "Materials": nbtlib.String("Alpha"),
            "Blocks": nbtlib.ByteArray((ids & 0xFF).astype(np.uint8).view(np.int8)),
            "Data": nbtlib.ByteArray((flat & 0x0F).astype(np.uint8).view(np.int8)),
            "Entities": nbtlib.List[nbtlib.Compound](),
            "TileEntities": nbtlib.List[nbtlib.Compound](
                [_tile_entity(pos, be) for pos, be in sorted(grid.block_entities.items())]
            ),
            "WEOffsetX": nbtlib.Int(grid.offset[0]),
            "WEOffsetY": nbtlib.Int(grid.offset[1]),
            "WEOffsetZ": nbtlib.Int(grid.offset[2]),
        }
    )
    if grid.origin is not None:
        for axis, value in zip("XYZ", grid.origin, strict=True):
            root[f"WEOrigin{axis}"] = nbtlib.Int(value)
    if int(ids.max(initial=0)) > 0xFF:
        high = (ids >> 8).astype(np.uint8)
        packed = np.zeros((flat.size + 1) // 2, dtype=np.uint8)
        packed[: (flat.size + 1) // 2] |= high[0::2]
        packed[: flat.size // 2] |= high[1::2] << 4
        root["AddBlocks"] = nbtlib.ByteArray(packed.view(np.int8))
    return nbtlib.File(root, gzipped=True, root_name="Schematic"), ConversionReport()


def _triple(fields: Fields, prefix: str) -> Pos | None:
    """WorldEdit's ``WEOffsetX/Y/Z`` (paste offset) or ``WEOriginX/Y/Z`` (origin)."""
    if not any(fields.has(f"{prefix}{axis}") for axis in "XYZ"):
        return None
    x, y, z = (int(fields.need(f"{prefix}{axis}", nbtlib.Int)) for axis in "XYZ")
    return x, y, z


def _tile_entity(pos: Pos, be: BlockEntity) -> nbtlib.Compound:
    entry = nbtlib.Compound(be.nbt)
    entry["id"] = nbtlib.String(be.id)
    entry["x"], entry["y"], entry["z"] = (nbtlib.Int(v) for v in pos)
    return entry


def _bytes(fields: Fields, name: str, volume: int) -> np.ndarray:
    raw = np.asarray(fields.need(name, nbtlib.ByteArray)).view(np.uint8)
    if raw.size != volume:
        raise fields.error(
            name,
            f"holds {raw.size} bytes but Width*Height*Length is {volume};"
            " the file is truncated or corrupt",
        )
    return raw
