"""Which tables' arenas hold a world position, in one dict lookup instead of a scan.

Why: every cycle where someone moved, each located player was tested against every arena
(`Cuboid.contains`, 50 tables x 200 players = 10 000 tests); on the cycles that also locate
the seated players (the booth guard's) that scan was most of a click's dispatch. Arenas are
boxes a few dozen blocks wide, so a grid of columns `CELL` blocks square lists the few arenas
that reach into each column; a position is then tested only against those.

The answer is exactly the scan's: every arena that contains the position, in table order
(overlapping arenas, which `mcbridge validate` warns about, keep working as before).
"""

from __future__ import annotations

from collections.abc import Sequence

from mcbridge.world.geometry import Cuboid, Pos

#: Column width of the grid, in blocks (a power of two: a shift finds the column).
CELL_BITS = 4


class AreaIndex:
    def __init__(self, areas: Sequence[Cuboid]) -> None:
        self.areas = list(areas)
        self._columns: dict[tuple[int, int], list[int]] = {}
        for index, area in enumerate(self.areas):
            for cx in range(area.lo.x >> CELL_BITS, (area.hi.x >> CELL_BITS) + 1):
                for cz in range(area.lo.z >> CELL_BITS, (area.hi.z >> CELL_BITS) + 1):
                    self._columns.setdefault((cx, cz), []).append(index)

    def holding(self, at: Pos) -> list[int]:
        """The indexes of the areas that contain `at` (a world cell), in order."""
        near = self._columns.get((at.x >> CELL_BITS, at.z >> CELL_BITS))
        return [i for i in near if self.areas[i].contains(at)] if near else []

    def first(self, at: Pos) -> int | None:
        """The first area that contains `at`, or None."""
        for index in self._columns.get((at.x >> CELL_BITS, at.z >> CELL_BITS), ()):
            if self.areas[index].contains(at):
                return index
        return None
