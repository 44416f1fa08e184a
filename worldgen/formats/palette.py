"""Palette <-> cell conversions shared by the state-based formats (Sponge, structure).

Lookups run once per palette entry; cells are mapped with one numpy gather.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from worldgen.formats.fields import Fields
from worldgen.states import BlockState, ConversionReport, LegacyTable


def cells_from_indices(
    indices: npt.NDArray[np.int64],
    palette: Mapping[int, str],
    table: LegacyTable,
    fallback_key: int,
    report: ConversionReport,
    fields: Fields,
    field_name: str,
    *,
    pre_flattening: bool = False,
) -> npt.NDArray[np.uint16]:
    """Legacy keys for palette indices; unknown states become ``fallback_key``.

    ``pre_flattening`` reads the palette with 1.12's names (files saved before 1.13).
    """
    size = (max(palette) + 1) if palette else 0
    if size > 2 * len(palette) + 4096:  # a sparse palette would make a huge lookup table
        raise fields.error(
            field_name,
            f"has a palette index of {size - 1} for {len(palette)} entries; the file is corrupt",
        )
    if indices.size and int(indices.max()) >= size:
        raise fields.error(
            field_name,
            f"uses palette index {int(indices.max())} but the palette has no entry for it",
        )
    counts = np.bincount(indices, minlength=size) if indices.size else np.zeros(size, np.int64)
    missing = [i for i in range(size) if i not in palette and counts[i]]
    if missing:
        raise fields.error(
            field_name, f"uses palette index {missing[0]} but the palette has no entry for it"
        )
    order = sorted(palette)
    keys = table.keys_for_states(
        [palette[i] for i in order],
        [int(counts[i]) for i in order],
        fallback_key,
        report,
        pre_flattening=pre_flattening,
    )
    lookup = np.full(size, fallback_key, dtype=np.uint16)
    lookup[order] = keys
    return lookup[indices]


def palette_for_cells(
    cells: npt.NDArray[np.uint16],
    table: LegacyTable,
    fallback: BlockState,
    report: ConversionReport,
) -> tuple[list[str], npt.NDArray[np.int64]]:
    """(state strings, index per cell in C order); equal states share one entry."""
    keys, inverse = np.unique(cells.ravel(), return_inverse=True)
    counts = np.bincount(inverse, minlength=keys.size)
    states = table.states_for_keys(
        [int(k) for k in keys], [int(c) for c in counts], fallback, report
    )
    names: list[str] = []
    index_of: dict[str, int] = {}
    remap = np.empty(keys.size, dtype=np.int64)
    for i, state in enumerate(states):
        text = str(state)
        if text not in index_of:
            index_of[text] = len(names)
            names.append(text)
        remap[i] = index_of[text]
    return names, remap[inverse]
