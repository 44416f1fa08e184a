"""Booth sight lines for the Bribery and Braff arenas ([FAIRPLAY] 2 on plain RaspberryJuice):
no straight line from anywhere a player can stand outside the booths reaches the front of
a hand-panel sign or of a private sign, through the arena's static structure.

The caster is the Wool Bluff one (`test_booth_sightlines`: exact voxel traversal from
every standable cell's eyes, sneaking, standing and jumping, signs counted see-through).
These booths keep everything private on the back wall's inner face, facing north, away
from the door in that wall; the front wall's action signs face the door but show only
what the public view says (the sign-table hidden-information tests check that).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from test_booth_sightlines import (
    FACE_SPOTS,
    SIGN_PLATE,
    Occupancy,
    Sighting,
    Target,
    box_entry_cells,
    clear_line,
    eyes_of,
    face_points,
    standable,
)

from mcbridge import CONFIG_DIR
from mcbridge.tables.config import Arena, SeatPlan, load_arena
from mcbridge.tables.kits.booth_panels import viewer_spots
from mcbridge.tables.layout import arena_layout

PRIVATE = {
    "bribery": ("played", "picked"),
    "braff": ("character", "bonuses", "cup_now"),
}


def private_targets(arena: Arena, seat: SeatPlan) -> list[Target]:
    """The front plate of every hand-panel sign and every private sign of a seat."""
    spots = [*viewer_spots(seat.cards), *(seat.signs[name] for name in PRIVATE[arena.game])]
    targets = []
    for spot in spots:
        normal = spot.faces.vector
        plate = spot.at - normal  # the support; the plate lies on its front face
        aims = [(u, 0.3 + 0.45 * v) for u, v in FACE_SPOTS]  # the plate spans y 0.28..0.78
        for point in face_points(plate, normal, aims):
            shifted = tuple(c + SIGN_PLATE * n for c, n in zip(point, normal, strict=True))
            targets.append(Target(f"seat {seat.index} sign at {spot.at}", shifted, normal))  # type: ignore[arg-type]
    return targets


def sightlines(arena: Arena) -> list[Sighting]:
    grid = Occupancy(arena_layout(arena), arena.bounds, see_through=set())
    eyes = eyes_of(standable(grid, [seat.booth.cuboid for seat in arena.seats]))
    found = []
    for seat in arena.seats:
        for target in private_targets(arena, seat):
            normal = np.array(list(target.normal), dtype=float)
            facing = (eyes - np.asarray(target.point)) @ normal > 0  # in front of that side
            entries = box_entry_cells(eyes, target.point, seat.booth.cuboid)
            open_entry = ~grid.opaque[entries[:, 0] - grid.lo.x, entries[:, 1] - grid.lo.y, entries[:, 2] - grid.lo.z]
            for eye in eyes[facing & open_entry]:
                point = (float(eye[0]), float(eye[1]), float(eye[2]))
                if clear_line(grid, point, target.point):
                    found.append(Sighting(point, target))
    return found


@pytest.mark.parametrize("game", sorted(PRIVATE))
def test_no_line_of_sight_from_outside_to_a_hand_or_private_sign(game: str) -> None:
    arena = load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml")
    assert len(private_targets(arena, arena.seats[0])) >= 5 * 6  # every panel sign and private sign is aimed at
    found = sightlines(arena)
    assert found == [], "\n".join(str(s) for s in found[:10])


def test_the_caster_sees_a_private_sign_hung_on_the_front_wall() -> None:
    """The same booths with the `played` sign where `info` hangs (front wall, facing the
    door): the caster must see it from behind the booth, or the test above proves nothing."""
    arena = load_arena(CONFIG_DIR / "arenas" / "bribery.yaml")
    seats = [dataclasses.replace(seat, signs={**seat.signs, "played": seat.signs["info"]}) for seat in arena.seats]
    seen = {s.target.what for s in sightlines(dataclasses.replace(arena, seats=seats))}
    assert seen == {f"seat {seat.index} sign at {seat.signs['info'].at}" for seat in arena.seats}
