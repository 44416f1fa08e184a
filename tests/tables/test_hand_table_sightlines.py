"""Booth sight lines for the Bribery and Braff arenas ([FAIRPLAY] 2 on plain RaspberryJuice):
no straight line from anywhere a player can stand outside the booths reaches the front of
a hand-panel sign or of a private sign, through the arena's static structure.

The caster is the Wool Bluff one (`test_booth_sightlines`, aimed at sign plates by
`sign_support.private_sign_sightlines`: exact voxel traversal from every standable cell's
eyes, sneaking, standing and jumping).
These booths keep everything private on the back wall's inner face, facing north, away
from the door in that wall; the front wall's action signs face the door but show only
what the public view says (the sign-table hidden-information tests check that).
"""

from __future__ import annotations

import dataclasses

import pytest
from sign_support import private_sign_sightlines

from mcbridge import CONFIG_DIR
from mcbridge.tables.arena import SignSpot
from mcbridge.tables.config import SeatPlan, load_arena
from mcbridge.tables.kits.signs import panel_spots

PRIVATE = {
    "bribery": ("played", "picked"),
    "braff": ("character", "bonuses", "cup_now"),
}


def private_spots(seat: SeatPlan) -> list[SignSpot]:
    """Every hand-panel sign and every private sign of a seat."""
    game = "bribery" if "picked" in seat.signs else "braff"
    return [*panel_spots(seat.cards), *(seat.signs[name] for name in PRIVATE[game])]


@pytest.mark.parametrize("game", sorted(PRIVATE))
def test_no_line_of_sight_from_outside_to_a_hand_or_private_sign(game: str) -> None:
    arena = load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml")
    assert len(private_spots(arena.seats[0])) >= 8  # every panel sign and private sign is aimed at
    found = private_sign_sightlines(arena, private_spots)
    assert found == [], "\n".join(str(s) for s in found[:10])


def test_the_caster_sees_a_private_sign_hung_on_the_front_wall() -> None:
    """The same booths with the `played` sign where `info` hangs (front wall, facing the
    door): the caster must see it from behind the booth, or the test above proves nothing."""
    arena = load_arena(CONFIG_DIR / "arenas" / "bribery.yaml")
    seats = [dataclasses.replace(seat, signs={**seat.signs, "played": seat.signs["info"]}) for seat in arena.seats]
    seen = {s.target.what for s in private_sign_sightlines(dataclasses.replace(arena, seats=seats), private_spots)}
    assert seen == {f"seat {seat.index} sign at {seat.signs['info'].at}" for seat in arena.seats}
