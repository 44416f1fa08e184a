"""Booth sight lines on plain RaspberryJuice ([FAIRPLAY] 2): no view of a hand from outside.

Without private blocks (a plain RaspberryJuice server), a seat's hand display and its private
signs are ordinary blocks, hidden only by the booth around them. This casts straight lines from
the eyes of a player standing on every cell outside the booths (the plaza, the gaps between
booths, behind them, on their roofs, and a margin of open ground around the arena) to every
exposed face of every hand display cell and to the front of every private sign, through the
arena's static structure (`arena_layout`), and reports each line that nothing opaque blocks.

The booths this guards against had a straight 1x2 door in the back wall right under the hand
display and the private signs on the front wall facing it: through the door one saw the bottom
face of display slot 7 (seat 0 local 4,3,13), the sides of slots 6 and 8 through it when it was
glass, and the fronts of the `colour`, `bid` and `info` signs. The shipped layout
(config/arenas/wool_bluff.yaml) is the smallest change found clean (0 lines, eyes sneaking,
standing and jumping): booths one taller with the display a row up, so the back wall keeps a
solid row at y 3 over the door and the display faces away from anyone looking in, and the
private signs on the back wall's inner face, facing north (their fronts face away from the door).

Worst case on purpose: the other cells of a hand display count as see-through (a slot may hold
glass after a discard), and so do signs and torches. A line is exact voxel traversal
(Amanatides & Woo), not sampling, so a gap of any width is found.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest

from mcbridge import CONFIG_DIR
from mcbridge.tables.config import Arena, SeatPlan, load_arena
from mcbridge.tables.layout import Structure, arena_layout
from mcbridge.world.geometry import Cuboid, Pos

ARENA_FILE = CONFIG_DIR / "arenas" / "wool_bluff.yaml"
#: Vanilla 1.12 eyes above the feet: sneaking, standing, at the top of a jump. A player is
#: 0.6 wide, so the eyes can be anywhere from 0.3 inside a cell's edge (against a wall) on.
EYE_HEIGHTS = (1.54, 1.62, 2.87)
EYE_SPOTS = [(0.5, 0.5), (0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)]
#: Open ground around the arena where a player may stand too.
MARGIN = 8
#: Points aimed at on a face (u, v across it): its middle and near its corners.
FACE_SPOTS = [(0.5, 0.5), (0.05, 0.05), (0.95, 0.05), (0.05, 0.95), (0.95, 0.95)]
#: Signs whose text shows a seat's private state (kits/wool_bluff_render: the bid draft and the info line).
PRIVATE_SIGNS = ("colour", "bid", "info")
#: Blocks a player sees through: air, glass and panes, signs, torches.
SEE_THROUGH_IDS = frozenset({0, 20, 95, 102, 160, 63, 68, 50, 75, 76})
#: A wall sign is a plate 2/16 thick against its support block.
SIGN_PLATE = 0.125
#: How far off a face an aimed point lies (so the line ends in front of it, not inside it).
OFF_FACE = 1e-3

FACES = [Pos(1, 0, 0), Pos(-1, 0, 0), Pos(0, 1, 0), Pos(0, -1, 0), Pos(0, 0, 1), Pos(0, 0, -1)]

Point = tuple[float, float, float]


@dataclass(frozen=True)
class Target:
    """A point that shows something private, and which way the visible side looks."""

    what: str
    point: Point
    normal: Pos


@dataclass(frozen=True)
class Sighting:
    eye: Point
    target: Target

    def __str__(self) -> str:
        x, y, z = (round(v, 2) for v in self.eye)
        return f"from ({x}, {y}, {z}) to {self.target.what}"


class Occupancy:
    """Which cells block sight, in arena-local coordinates, with the ground around."""

    def __init__(self, structure: Structure, bounds: Cuboid, see_through: set[Pos]) -> None:
        self.lo = Pos(bounds.lo.x - MARGIN, bounds.lo.y - 1, bounds.lo.z - MARGIN)
        self.hi = Pos(bounds.hi.x + MARGIN, bounds.hi.y + 3, bounds.hi.z + MARGIN)
        shape = (self.hi.x - self.lo.x + 1, self.hi.y - self.lo.y + 1, self.hi.z - self.lo.z + 1)
        self.opaque = np.zeros(shape, dtype=bool)
        ground = bounds.lo.y - self.lo.y  # the arena's floor layer is the ground level
        self.opaque[:, : ground + 1, :] = True
        for pos, block in structure.blocks.items():
            blocking = block.id not in SEE_THROUGH_IDS and pos not in see_through
            self.opaque[self._index(pos)] = blocking

    def _index(self, p: Pos) -> tuple[int, int, int]:
        return (p.x - self.lo.x, p.y - self.lo.y, p.z - self.lo.z)

    def blocks(self, x: int, y: int, z: int) -> bool:
        i, j, k = x - self.lo.x, y - self.lo.y, z - self.lo.z
        shape = self.opaque.shape
        if not (0 <= i < shape[0] and 0 <= k < shape[2]) or j >= shape[1]:
            return False  # open air (or ground level beyond the margin: never looked through)
        return bool(self.opaque[i, max(j, 0), k])

    def cells(self) -> Iterator[Pos]:
        for x in range(self.lo.x, self.hi.x + 1):
            for y in range(self.lo.y + 1, self.hi.y):
                for z in range(self.lo.z, self.hi.z + 1):
                    yield Pos(x, y, z)


def standable(grid: Occupancy, booths: list[Cuboid]) -> list[Pos]:
    """Cells outside every booth where a player fits (two free cells on something solid)."""
    return [
        p
        for p in grid.cells()
        if grid.blocks(p.x, p.y - 1, p.z)
        and not grid.blocks(*p)
        and not grid.blocks(p.x, p.y + 1, p.z)
        and not any(p in booth for booth in booths)
    ]


def eyes_of(cells: list[Pos]) -> np.ndarray:
    return np.array(
        [(c.x + u, c.y + h, c.z + v) for c in cells for u, v in EYE_SPOTS for h in EYE_HEIGHTS],
        dtype=float,
    )


def face_points(cell: Pos, normal: Pos, spots: list[tuple[float, float]]) -> list[Point]:
    """Points just off one face of a cell (the face whose outward normal is `normal`)."""
    n = tuple(normal)
    axis = next(i for i, value in enumerate(n) if value)
    across = [i for i in range(3) if i != axis]
    points = []
    for u, v in spots:
        p = [float(cell.x), float(cell.y), float(cell.z)]
        p[axis] += (1.0 + OFF_FACE) if n[axis] > 0 else -OFF_FACE
        p[across[0]] += u
        p[across[1]] += v
        points.append((p[0], p[1], p[2]))
    return points


def seat_targets(arena: Arena, seat: SeatPlan, grid: Occupancy) -> list[Target]:
    targets = []
    for slot, cell in enumerate(seat.hand_display.cells):
        for normal in FACES:
            if grid.blocks(*(cell + normal)):
                continue  # a face against a wall shows nothing
            for point in face_points(cell, normal, FACE_SPOTS):
                targets.append(Target(f"seat {seat.index} display slot {slot} {cell}", point, normal))
    for name in PRIVATE_SIGNS:
        spot = seat.signs[name]
        normal = spot.faces.vector
        plate = spot.at - normal  # the support; the plate lies on its front face
        spots = [(u, 0.3 + 0.45 * v) for u, v in FACE_SPOTS]  # the plate spans y 0.28..0.78
        for point in face_points(plate, normal, spots):
            shifted = tuple(c + SIGN_PLATE * n for c, n in zip(point, normal, strict=True))
            targets.append(Target(f"seat {seat.index} sign {name!r} {spot.at}", shifted, normal))  # type: ignore[arg-type]
    return targets


def box_entry_cells(eyes: np.ndarray, target: Point, box: Cuboid) -> np.ndarray:
    """For lines from each eye to `target` (inside `box`), the cell where each enters the box.

    Every line from outside to a private point must enter its booth's shell somewhere; where
    that first cell is solid the line is blocked, which settles almost every line at once.
    """
    lo = np.array([box.lo.x, box.lo.y, box.lo.z], dtype=float)
    hi = np.array([box.hi.x + 1, box.hi.y + 1, box.hi.z + 1], dtype=float)
    direction = np.asarray(target) - eyes
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = (lo - eyes) / direction
        t2 = (hi - eyes) / direction
    near = np.where(direction == 0, -np.inf, np.minimum(t1, t2))
    entry = np.clip(near.max(axis=1), 0.0, 1.0)
    point = eyes + direction * entry[:, None] + direction * 1e-9
    return np.floor(point).astype(int)


def clear_line(grid: Occupancy, a: Point, b: Point) -> bool:
    """True when no opaque cell lies on the segment a-b (Amanatides & Woo traversal)."""
    cell = [math.floor(v) for v in a]
    end = [math.floor(v) for v in b]
    d = [bv - av for av, bv in zip(a, b, strict=True)]
    step = [1 if dv > 0 else -1 for dv in d]
    t_max, t_delta = [], []
    for i in range(3):
        if d[i] == 0:
            t_max.append(math.inf)
            t_delta.append(math.inf)
            continue
        boundary = cell[i] + (1 if d[i] > 0 else 0)
        t_max.append((boundary - a[i]) / d[i])
        t_delta.append(abs(1 / d[i]))
    while True:
        if grid.blocks(*cell):
            return False
        if cell == end:
            return True
        i = t_max.index(min(t_max))
        if t_max[i] > 1.0:
            return True
        cell[i] += step[i]
        t_max[i] += t_delta[i]


def sightlines(arena: Arena) -> list[Sighting]:
    structure = arena_layout(arena)
    displays = {cell for seat in arena.seats for cell in seat.hand_display.cuboid}
    grid = Occupancy(structure, arena.bounds, see_through=displays)
    booths = [seat.booth.cuboid for seat in arena.seats]
    eyes = eyes_of(standable(grid, booths))
    found = []
    for seat in arena.seats:
        for target in seat_targets(arena, seat, grid):
            normal = np.array(list(target.normal), dtype=float)
            facing = (eyes - np.asarray(target.point)) @ normal > 0  # in front of that side
            entries = box_entry_cells(eyes, target.point, seat.booth.cuboid)
            open_entry = ~grid.opaque[
                entries[:, 0] - grid.lo.x, entries[:, 1] - grid.lo.y, entries[:, 2] - grid.lo.z
            ]
            for eye in eyes[facing & open_entry]:
                point = (float(eye[0]), float(eye[1]), float(eye[2]))
                if clear_line(grid, point, target.point):
                    found.append(Sighting(point, target))
    return found


@pytest.fixture(scope="module")
def shipped() -> Arena:
    return load_arena(ARENA_FILE)


def test_the_ray_caster_sees_through_the_door_and_never_through_a_wall(shipped):
    seat = shipped.seats[0]
    grid = Occupancy(arena_layout(shipped), shipped.bounds, see_through=set())
    x, eye_y = seat.door.cuboid.lo.x + 0.5, 1 + EYE_HEIGHTS[1]
    behind, inside = seat.booth.cuboid.hi.z + 3.5, seat.interior.cuboid.lo.z + 0.5
    assert clear_line(grid, (x, eye_y, behind), (x, eye_y, inside))  # straight through the door
    assert not clear_line(grid, (x + 1, eye_y, behind), (x + 1, eye_y, inside))  # the back wall
    assert not clear_line(grid, (x, eye_y, behind), (x, eye_y, 5.5))  # and the front wall
    for cell in seat.door.cuboid:
        grid.opaque[grid._index(cell)] = True
    assert not clear_line(grid, (x, eye_y, behind), (x, eye_y, inside))


def test_no_line_of_sight_from_outside_to_a_hand_or_private_sign(shipped):
    found = sightlines(shipped)
    by_target: dict[str, Sighting] = {}
    for sighting in found:
        by_target.setdefault(sighting.target.what, sighting)
    summary = "\n".join(str(s) for s in by_target.values())
    assert not found, f"{len(found)} lines of sight, {len(by_target)} targets seen:\n{summary}"

