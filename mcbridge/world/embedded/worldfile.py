"""Saving and loading the embedded world: one compressed ``.npz`` file.

The file holds only what differs from the flat world: the allocated 16^3 sections (as
``uint16`` states), plus a small JSON document with the spawn, the layer profile, sign
texts and mobs. An untouched world saves to well under a kilobyte; a 256x64x256 region
of one block saves to about 11 KiB, and one of random wool colours to about 2.7 MB. Players are not saved: they are
connections, not world state. Writes go to a temporary file first, so a crash while
saving never destroys the previous save.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from . import ids
from .storage import SECTION, BlockStore
from .world import Entity, World

FORMAT = "mcbridge-embedded-world"
VERSION = 1


class WorldFileError(ValueError):
    """The file is not an embedded-world save this version can read."""


def save_world(world: World, path: str | os.PathLike[str]) -> None:
    target = Path(path)
    sections = world.store.sections()
    keys = np.array(list(sections), dtype=np.int32).reshape(-1, 3)
    arrays = (
        np.stack(list(sections.values()))
        if sections
        else np.zeros((0, SECTION, SECTION, SECTION), dtype=np.uint16)
    )
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "spawn": list(world.spawn),
        "layers": list(world.store.layers),
        "signs": [[*pos, lines] for pos, lines in world.store.signs.items()],
        "mobs": [
            [m.entity_id, m.type.type_id, m.x, m.y, m.z, m.yaw, m.pitch]
            for m in world.mobs.values()
            if m.type is not None
        ],
        "next_entity_id": world.next_entity_id,
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    try:
        with open(partial, "wb") as handle:
            np.savez_compressed(handle, keys=keys, sections=arrays, meta=np.array(json.dumps(meta)))
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def load_world(path: str | os.PathLike[str]) -> World:
    try:
        with np.load(Path(path), allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"]))
            keys, arrays = npz["keys"], npz["sections"]
    except (OSError, ValueError, KeyError) as exc:
        raise WorldFileError(
            f"{path} is not an embedded-world save ({exc}). Pass a file written by "
            "`mcbridge world serve --world FILE`, or a new path to start a fresh world."
        ) from exc
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise WorldFileError(
            f"{path} has format {meta.get('format')!r} version {meta.get('version')!r}; "
            f"this mcbridge reads {FORMAT!r} version {VERSION}."
        )
    store = BlockStore(tuple(meta["layers"]))
    store.load_sections(keys, arrays)
    store.signs = {(x, y, z): list(lines) for x, y, z, lines in meta["signs"]}
    spawn_x, spawn_y, spawn_z = meta["spawn"]
    world = World(store, spawn=(spawn_x, spawn_y, spawn_z))
    for entity_id, type_id, x, y, z, yaw, pitch in meta["mobs"]:
        world.mobs[entity_id] = Entity(entity_id, x, y, z, yaw, pitch, ids.ENTITY_TYPES[type_id])
    world.next_entity_id = int(meta["next_entity_id"])
    return world
