"""Read and write schematics: the one entry point the CLI, planner and tests use.

Reading detects the format from the content (not the file name): Sponge v1-3, MCEdit,
a vanilla structure, or Litematica (read only). Writing picks the format from the file name unless told.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import nbtlib
import numpy as np

from worldgen import nbt
from worldgen.errors import SchematicError
from worldgen.formats import litematica, mcedit, sponge, structure
from worldgen.formats.common import Loaded
from worldgen.grid import BlockGrid
from worldgen.states import BlockState, ConversionReport, LegacyTable, default_table

#: What unknown blocks become unless the operator says otherwise: solid, so an unknown
#: wall block still makes a wall.
DEFAULT_FALLBACK = "minecraft:stone"

WRITE_FORMATS = ("sponge-v3", "sponge-v2", "mcedit", "structure")
_FORMAT_NAMES = {
    "sponge-v3": "Sponge .schem",
    "mcedit": "MCEdit .schematic",
    "structure": "structure .nbt",
    "litematica": "Litematica .litematic",
}
_READ_ONLY = {".litematic": "litematica"}
_BY_SUFFIX = {".schem": "sponge-v3", ".schematic": "mcedit", ".nbt": "structure"}

__all__ = [
    "DEFAULT_FALLBACK",
    "WRITE_FORMATS",
    "Fallback",
    "Loaded",
    "SchematicError",
    "describe",
    "format_for_path",
    "read_schematic",
    "write_schematic",
]


class Fallback:
    """The block that stands in for unknown ones, in both spellings."""

    def __init__(self, text: str = DEFAULT_FALLBACK, table: LegacyTable | None = None) -> None:
        table = table or default_table()
        try:
            state = BlockState.parse(text)
        except ValueError:
            raise ValueError(
                f"fallback {text!r} is not a block state like minecraft:stone"
            ) from None
        key, exact = table.legacy_of(state)
        if key is None or not exact:
            raise ValueError(
                f"fallback {text!r} must be a block the legacy table knows exactly"
                " (for example minecraft:stone or minecraft:air)"
            )
        self.state = state
        self.key = key

    def __str__(self) -> str:
        return str(self.state)


def format_for_path(path: str | os.PathLike[str]) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in _READ_ONLY:
        raise SchematicError(
            str(path),
            f"{_FORMAT_NAMES[_READ_ONLY[suffix]]} files are read, not written; write .schem"
            " (Sponge v3, which Litematica imports) instead",
        )
    if suffix not in _BY_SUFFIX:
        raise SchematicError(
            str(path),
            f"unknown file type {suffix or '(none)'!r}; use .schem (Sponge v3), "
            ".schematic (MCEdit) or .nbt (structure), or name the format",
        )
    return _BY_SUFFIX[suffix]


def read_schematic(
    path: str | os.PathLike[str],
    *,
    fallback: Fallback | None = None,
    table: LegacyTable | None = None,
) -> Loaded:
    """Read any supported schematic into a grid (raises `SchematicError`)."""
    table = table or default_table()
    fallback = fallback or Fallback(table=table)
    name = str(path)
    if not os.path.isfile(name):
        raise SchematicError(name, "no such file")
    try:
        root = nbt.load(name, columns=frozenset({"blocks"}))
    except nbt.NbtError as exc:
        suffix = Path(name).suffix.lower()
        guess = _BY_SUFFIX.get(suffix) or _READ_ONLY.get(suffix)
        fmt = f"NBT ({_FORMAT_NAMES[guess]}?)" if guess else "NBT"
        raise SchematicError(name, exc.reason, fmt=fmt, field=exc.field) from None
    if sponge.schematic_body(root) is not None:
        return sponge.read(root, name, table, fallback.key)
    if mcedit.looks_like(root):
        return mcedit.read(root, name)
    if structure.looks_like(root):
        return structure.read(root, name, table, fallback.key)
    if litematica.looks_like(root):
        return litematica.read(root, name, table, fallback.key)
    keys = ", ".join(sorted(str(k) for k in root)[:8]) or "nothing"
    raise SchematicError(
        name,
        "is NBT but not a schematic this tool knows (Sponge .schem v1-3, MCEdit .schematic,"
        f" structure .nbt, Litematica .litematic); its top level holds {keys}",
    )


def describe(loaded: Loaded) -> dict[str, Any]:
    """The facts `worldgen info` prints (its JSON keys), from a file as read."""
    grid = loaded.grid
    report = loaded.report
    palette = loaded.palette if loaded.palette is not None else int(np.unique(grid.cells).size)
    return {
        "format": loaded.format,
        "data_version": loaded.data_version,
        "size": list(grid.size),
        "offset": list(grid.offset),
        "origin": None if grid.origin is None else list(grid.origin),
        "palette": palette,
        "non_air_cells": int(np.count_nonzero(grid.cells >> 4)),
        "block_entities": len(grid.block_entities),
        "unknown_states": len(report.unknown),
        "unknown_cells": report.unknown_cells,
        "approximated_cells": sum(report.approximated.values()),
        "notes": list(report.notes),
    }


def write_schematic(
    grid: BlockGrid,
    path: str | os.PathLike[str],
    *,
    fmt: str | None = None,
    fallback: Fallback | None = None,
    table: LegacyTable | None = None,
) -> ConversionReport:
    """Write a grid; returns what could not be carried over (legacy blocks the table lacks)."""
    table = table or default_table()
    fallback = fallback or Fallback(table=table)
    fmt = fmt or format_for_path(path)
    file: nbtlib.File | nbt.Document
    if fmt == "sponge-v3":
        file, report = sponge.write(grid, table, fallback.state, version=3)
    elif fmt == "sponge-v2":
        file, report = sponge.write(grid, table, fallback.state, version=2)
    elif fmt == "mcedit":
        file, report = mcedit.write(grid)
    elif fmt == "structure":
        file, report = structure.write(grid, table, fallback.state)
    else:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(WRITE_FORMATS)}")
    tmp = Path(f"{path}.tmp")
    file.save(tmp, gzipped=True)
    os.replace(tmp, path)
    return report
