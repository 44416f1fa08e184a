"""Sponge `.schem`: read versions 1-3, write 2 and 3 (3 is WorldEdit's default).

v1/v2 keep everything in a root compound named ``Schematic``; v3 nests a ``Schematic``
compound in an unnamed root and moves the palette, data and block entities into
``Blocks``. Block data is a varint index per cell in ``x + z*W + y*W*L`` order.
"""

from __future__ import annotations

import nbtlib
import numpy as np

from worldgen import varint
from worldgen.formats.common import Loaded, checked_volume, entity_id, entity_payload, note_ignored, place_entity
from worldgen.formats.fields import Fields, unsigned_short
from worldgen.formats.palette import cells_from_indices, palette_for_cells
from worldgen.grid import BlockEntity, BlockGrid, Pos
from worldgen.states import BlockState, ConversionReport, LegacyTable

SUPPORTED_READ = (1, 2, 3)
SUPPORTED_WRITE = (2, 3)


def format_name(version: int | None) -> str:
    return f"Sponge .schem v{version}" if version is not None else "Sponge .schem"


def schematic_body(root: nbtlib.Compound) -> tuple[nbtlib.Compound, int] | None:
    """(the compound holding Version, version) if this looks like a Sponge file."""
    inner = root.get("Schematic")
    if isinstance(inner, nbtlib.Compound) and "Version" in inner:
        return inner, int(inner["Version"])
    if "Version" in root and ("Palette" in root or "Blocks" in root or "BlockData" in root):
        return root, int(root["Version"])
    return None


def read(
    root: nbtlib.Compound, path: str, table: LegacyTable, fallback_key: int
) -> Loaded:
    found = schematic_body(root)
    if found is None:
        raise Fields(root, path, format_name(None), "").error(
            "Version", "is missing; this is not a Sponge schematic"
        )
    body, version = found
    fields = Fields(body, path, format_name(version), "Schematic")
    if version not in SUPPORTED_READ:
        raise fields.error(
            "Version",
            f"is {version}; this reader knows versions {', '.join(map(str, SUPPORTED_READ))}."
            " Re-save the schematic with WorldEdit (//schem save NAME sponge.3).",
        )
    width, height, length = (fields.dimension(n) for n in ("Width", "Height", "Length"))
    volume = checked_volume(fields, "Width", (width, height, length))
    offset, origin = paste_offset(fields, version)
    data_version = fields.get("DataVersion", nbtlib.Int, required=version >= 2)
    report = ConversionReport()

    if version == 3:
        blocks = fields.child("Blocks", required=False)
        if blocks is None:  # the spec allows a schematic without blocks: all air
            cells = np.zeros((height, length, width), dtype=np.uint16)
            grid = BlockGrid(cells, {}, offset, origin=origin)
            return Loaded(grid, fields.fmt, _int(data_version), report, 0)
        palette_fields, palette_name, data_name, entities_name = blocks, "Palette", "Data", (
            "BlockEntities"
        )
    else:
        blocks = fields
        palette_fields, palette_name, data_name = fields, "Palette", "BlockData"
        entities_name = "BlockEntities" if version == 2 else "TileEntities"

    palette = _read_palette(palette_fields, palette_name)
    raw = blocks.need(data_name, nbtlib.ByteArray)
    try:
        indices = varint.decode(raw)
    except varint.VarintError as exc:
        raise blocks.error(data_name, f"{exc}; the file is corrupt") from None
    if indices.size != volume:
        raise blocks.error(
            data_name,
            f"holds {indices.size} blocks but Width*Height*Length is {volume}"
            f" ({width}x{height}x{length}); the file is truncated or corrupt",
        )
    flat = cells_from_indices(indices, palette, table, fallback_key, report, blocks, data_name)
    cells = flat.reshape(height, length, width)

    entities: dict[Pos, BlockEntity] = {}
    for i, item in enumerate(blocks.get(entities_name, nbtlib.List, required=False) or []):
        entry = Fields(item, path, fields.fmt, f"{blocks.where}.{entities_name}[{i}]")
        pos = entry.triple("Pos")
        assert pos is not None
        if version == 3:
            data = entry.get("Data", nbtlib.Compound, required=False) or nbtlib.Compound()
            payload = entity_payload(data)  # some writers repeat id and x/y/z inside
        else:
            payload = entity_payload(item)
            payload.pop("ContentVersion", None)
        be = BlockEntity(entity_id(entry.need("Id", nbtlib.String)), payload)
        place_entity(entities, (width, height, length), pos, be, entry)

    note_ignored(report, "entities", len(fields.get("Entities", nbtlib.List, required=False) or []))
    if fields.has("Biomes") or fields.has("BiomeData"):
        report.notes.append("biomes in the file were not read (blocks only)")
    grid = BlockGrid(cells, entities, offset, origin=origin)
    return Loaded(grid, fields.fmt, _int(data_version), report, len(palette))


def write(
    grid: BlockGrid, table: LegacyTable, fallback: BlockState, version: int = 3
) -> tuple[nbtlib.File, ConversionReport]:
    if version not in SUPPORTED_WRITE:
        raise ValueError(f"Sponge version {version} cannot be written; use 2 or 3")
    report = ConversionReport()
    names, indices = palette_for_cells(grid.cells, table, fallback, report)
    palette = nbtlib.Compound({name: nbtlib.Int(i) for i, name in enumerate(names)})
    data = nbtlib.ByteArray(varint.encode(indices).view(np.int8))
    entities = nbtlib.List[nbtlib.Compound](
        [_entity_entry(pos, be, version) for pos, be in sorted(grid.block_entities.items())]
    )
    body = nbtlib.Compound(
        {
            "Version": nbtlib.Int(version),
            "DataVersion": nbtlib.Int(table.data_version),
            "Width": unsigned_short(grid.width),
            "Height": unsigned_short(grid.height),
            "Length": unsigned_short(grid.length),
        }
    )
    body.update(_offset_fields(grid, version))
    if version == 3:
        body["Blocks"] = nbtlib.Compound(
            {"Palette": palette, "Data": data, "BlockEntities": entities}
        )
        return nbtlib.File({"Schematic": body}, gzipped=True, root_name=""), report
    body["PaletteMax"] = nbtlib.Int(len(names))
    body["Palette"] = palette
    body["BlockData"] = data
    body["BlockEntities"] = entities
    return nbtlib.File(body, gzipped=True, root_name="Schematic"), report


def paste_offset(fields: Fields, version: int) -> tuple[Pos, Pos | None]:
    """(paste offset, absolute origin or None), as WorldEdit reads each version.

    v1/v2 ``Offset`` is the absolute position of the low corner; the paste offset is
    ``Metadata.WEOffsetX/Y/Z`` (none: the low corner lands at the player) and the origin
    is ``Offset - WEOffset``. v3 ``Offset`` is the paste offset itself, and
    ``Metadata.WorldEdit.Origin`` the origin.
    """
    offset = fields.triple("Offset", required=False)
    metadata = fields.child("Metadata", required=False)
    if version == 3:
        origin = None
        worldedit = metadata.child("WorldEdit", required=False) if metadata else None
        if worldedit is not None:
            origin = worldedit.triple("Origin", required=False)
        return offset or (0, 0, 0), origin
    we = None
    if metadata is not None and all(metadata.has(f"WEOffset{a}") for a in "XYZ"):
        x, y, z = (int(metadata.need(f"WEOffset{a}", nbtlib.Int)) for a in "XYZ")
        we = (x, y, z)
    if we is None:
        return (0, 0, 0), offset
    if offset is None:
        return we, None
    return we, (offset[0] - we[0], offset[1] - we[1], offset[2] - we[2])


def _offset_fields(grid: BlockGrid, version: int) -> dict[str, nbtlib.Compound | nbtlib.IntArray]:
    """The offset fields each version wants, so WorldEdit pastes where the source did."""
    origin = grid.origin or (0, 0, 0)
    if version == 3:
        fields: dict[str, nbtlib.Compound | nbtlib.IntArray] = {
            "Offset": nbtlib.IntArray(list(grid.offset))
        }
        if grid.origin is not None:
            fields["Metadata"] = nbtlib.Compound(
                {"WorldEdit": nbtlib.Compound({"Origin": nbtlib.IntArray(list(origin))})}
            )
        return fields
    low = [o + d for o, d in zip(origin, grid.offset, strict=True)]
    metadata = nbtlib.Compound(
        {f"WEOffset{a}": nbtlib.Int(v) for a, v in zip("XYZ", grid.offset, strict=True)}
    )
    return {"Offset": nbtlib.IntArray(low), "Metadata": metadata}


def _entity_entry(pos: Pos, be: BlockEntity, version: int) -> nbtlib.Compound:
    entry = nbtlib.Compound({"Pos": nbtlib.IntArray(list(pos)), "Id": nbtlib.String(be.id)})
    if version == 3:
        entry["Data"] = be.nbt
    else:
        entry.update(be.nbt)
    return entry


def _read_palette(fields: Fields, name: str) -> dict[int, str]:
    raw = fields.need(name, nbtlib.Compound)
    palette: dict[int, str] = {}
    for state, index in raw.items():
        if not isinstance(index, nbtlib.Int) or int(index) < 0:
            raise fields.error(f"{name}[{state!r}]", "should be a non-negative Int index")
        if int(index) in palette:
            raise fields.error(
                name, f"gives index {int(index)} to both {palette[int(index)]!r} and {state!r}"
            )
        palette[int(index)] = state
    return palette


def _int(value: nbtlib.Int | None) -> int | None:
    return None if value is None else int(value)
