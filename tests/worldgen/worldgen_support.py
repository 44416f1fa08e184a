"""Helpers shared by the worldgen tests: grids drawn from the legacy table."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from worldgen.grid import BlockGrid
from worldgen.states import LegacyTable, default_table

TABLE = default_table()


def canonical_keys(table: LegacyTable = TABLE) -> list[int]:
    """Legacy keys that survive legacy -> state -> legacy unchanged (one per state)."""
    keys = []
    for key in sorted(table.known_keys()):
        state = table.state_of(key)
        assert state is not None
        if table.legacy_of(state) == (key, True):
            keys.append(key)
    return keys


CANONICAL = np.array(canonical_keys(), dtype=np.uint16)


@st.composite
def grids(draw: st.DrawFn, max_side: int = 6, with_signs: bool = True) -> BlockGrid:
    """Random grids of canonical blocks, sometimes with sign text."""
    w, h, length = (draw(st.integers(1, max_side)) for _ in range(3))
    palette = draw(st.lists(st.sampled_from(CANONICAL.tolist()), min_size=1, max_size=12))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cells = rng.choice(np.array(palette, dtype=np.uint16), size=(h, length, w))
    grid = BlockGrid(cells.astype(np.uint16))
    if with_signs:
        for _ in range(draw(st.integers(0, 3))):
            x, y, z = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1)), draw(
                st.integers(0, length - 1)
            )
            text = st.text(
                st.characters(blacklist_categories=("Cs", "Cc")), max_size=12
            )
            lines = draw(st.lists(text, min_size=4, max_size=4))
            grid.set_sign(x, y, z, 68, draw(st.sampled_from([2, 3, 4, 5])), lines)
    return grid
