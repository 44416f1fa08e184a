"""What every reader returns, and the block-entity plumbing the formats share."""

from __future__ import annotations

from dataclasses import dataclass, field

import nbtlib

from worldgen.formats.fields import Fields
from worldgen.grid import BlockEntity, BlockGrid, Pos
from worldgen.states import ConversionReport

#: Fields that say where and what a block entity is; each format spells them differently,
#: so they are taken out on reading and written back in the target format's spelling.
PLACEMENT_FIELDS = frozenset({"x", "y", "z", "id", "Id", "Pos", "pos"})

#: Pre-1.11 MCEdit files name block entities without a namespace.
_OLD_ENTITY_IDS = {
    "Sign": "minecraft:sign",
    "Chest": "minecraft:chest",
    "Furnace": "minecraft:furnace",
    "Trap": "minecraft:dispenser",
    "Dropper": "minecraft:dropper",
    "FlowerPot": "minecraft:flower_pot",
    "Banner": "minecraft:banner",
    "Skull": "minecraft:skull",
    "EnderChest": "minecraft:ender_chest",
    "MobSpawner": "minecraft:mob_spawner",
    "Music": "minecraft:noteblock",
    "Beacon": "minecraft:beacon",
}


@dataclass
class Loaded:
    """A schematic read into a grid, with what the reading could not carry over."""

    grid: BlockGrid
    format: str
    data_version: int | None
    report: ConversionReport = field(default_factory=ConversionReport)
    #: Entries in the file's palette (distinct id:data for MCEdit), as `worldgen info` shows.
    palette: int | None = None


#: The largest grid a file may claim: 2^27 cells (a 512^3 box), 256 MiB of uint16.
#: Bigger claims are refused before anything is allocated for them.
MAX_CELLS = 1 << 27


def checked_volume(fields: Fields, name: str, size: Pos) -> int:
    """width * height * length, refused when past `MAX_CELLS` (a hostile or broken size)."""
    volume = size[0] * size[1] * size[2]
    if volume > MAX_CELLS:
        raise fields.error(
            name,
            f"claims {size[0]}x{size[1]}x{size[2]} = {volume} blocks; at most {MAX_CELLS}"
            " are read (split the build into parts)",
        )
    return volume


def entity_id(raw: str) -> str:
    raw = str(raw)
    if raw in _OLD_ENTITY_IDS:
        return _OLD_ENTITY_IDS[raw]
    return raw if ":" in raw else f"minecraft:{raw.lower()}"


def entity_payload(compound: nbtlib.Compound) -> nbtlib.Compound:
    """The block entity's own data: everything but its position and id."""
    return nbtlib.Compound({k: v for k, v in compound.items() if k not in PLACEMENT_FIELDS})


def place_entity(
    entities: dict[Pos, BlockEntity], grid_size: Pos, pos: Pos, entity: BlockEntity, fields: Fields
) -> None:
    width, height, length = grid_size
    x, y, z = pos
    if not (0 <= x < width and 0 <= y < height and 0 <= z < length):
        raise fields.error(
            None, f"a block entity ({entity.id}) sits at {pos}, outside the {grid_size} region"
        )
    entities[pos] = entity


def note_ignored(report: ConversionReport, what: str, count: int) -> None:
    if count:
        report.notes.append(f"{count} {what} in the file were not read (blocks only)")
