"""Palette index checks at their exact bounds (issue 20, item 1: survivors of the mutation run).

`cells_from_indices` refuses a palette sparse enough to make a huge lookup table (an index
beyond ``2 * entries + 4096``) and a cell whose index has no palette entry; both with the
field's name, never an IndexError or a silently wrong block. These cases sit on each bound.
"""

from __future__ import annotations

import numpy as np
import pytest

from worldgen.errors import SchematicError
from worldgen.formats.fields import Fields
from worldgen.formats.palette import cells_from_indices
from worldgen.states import ConversionReport, default_table

FIELDS = Fields({}, "arena.schem", "Sponge .schem v2", "Schematic")
STONE, DIRT = "minecraft:stone", "minecraft:dirt"


def cells(indices: list[int], palette: dict[int, str]) -> np.ndarray:
    table = default_table()
    fallback = table.keys_for_states([STONE], [1], 0, ConversionReport())[0]
    return cells_from_indices(
        np.array(indices, dtype=np.int64), palette, table, fallback, ConversionReport(), FIELDS, "BlockData"
    )


def key(state: str) -> int:
    return int(cells([0], {0: state})[0])


def test_no_palette_and_no_cells_is_an_empty_region() -> None:
    assert cells([], {}).shape == (0,)


@pytest.mark.parametrize("entries", [1, 2, 3, 2048])  # 2048: 2 * entries and 4096 share a bit
def test_the_highest_index_a_palette_may_use_is_twice_its_entries_plus_4096(entries: int) -> None:
    top = 2 * entries + 4096 - 1
    palette = {i: STONE for i in range(entries - 1)} | {top: DIRT}
    assert cells([top, 0] if entries > 1 else [top], palette)[0] == key(DIRT)
    sparse = {i: STONE for i in range(entries - 1)} | {top + 1: DIRT}
    with pytest.raises(SchematicError, match=rf"BlockData: has a palette index of {top + 1} for {entries} entries"):
        cells([0], sparse)


def test_a_cell_one_past_the_palette_is_refused_by_name() -> None:
    with pytest.raises(SchematicError, match=r"BlockData: uses palette index 1 but the palette has no entry"):
        cells([0, 1], {0: STONE})


def test_a_cell_on_a_hole_in_the_palette_is_refused_by_name() -> None:
    with pytest.raises(SchematicError, match=r"BlockData: uses palette index 1 but the palette has no entry"):
        cells([0, 1, 2], {0: STONE, 2: DIRT})
    with pytest.raises(SchematicError, match=r"BlockData: uses palette index 1 but the palette has no entry"):
        cells([0, 2, 1, 3], {0: STONE, 3: DIRT})  # two holes: the lowest is named
    assert list(cells([0, 2], {0: STONE, 2: DIRT})) == [key(STONE), key(DIRT)]
