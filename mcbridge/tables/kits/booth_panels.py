"""Sign panels read as the player inside the booth sees them.

`Region.cells` lists a region top row first and then by ascending local x, which is left
to right only for a panel that faces south (the viewer looks north). A private panel on a
booth's back wall faces north, so its viewer sees ascending x from right to left; cards
laid out by `Region.cells` would read 500..100. `viewer_spots` orders a panel's signs left
to right for whoever reads them, whatever way the panel faces.

A hand panel is a seat region `cards`; the arena-part helpers at the end build it (blank
signs) and check it (it faces a side and holds a hand).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcbridge.tables.arena import Arena, ArenaCheck, Region, SeatPlan, SignSpot
from mcbridge.tables.kits.signs import static_panel
from mcbridge.world.geometry import Facing, Pos

if TYPE_CHECKING:
    from mcbridge.core.yamlmarks import MarkedYaml
    from mcbridge.tables.layout import Structure

#: For text facing this way, the unit step that goes to the reader's right.
_RIGHT_OF_READER = {
    Facing.SOUTH: Pos(1, 0, 0),  # the reader looks north: east is on the right
    Facing.NORTH: Pos(-1, 0, 0),
    Facing.EAST: Pos(0, 0, -1),  # the reader looks west: north is on the right
    Facing.WEST: Pos(0, 0, 1),
}


def viewer_spots(region: Region) -> list[SignSpot]:
    """The panel's cells as wall signs, top row first, each row left to right as read."""
    if region.faces is None:
        raise ValueError("a sign panel needs 'faces'")
    right = _RIGHT_OF_READER[region.faces]
    cells = sorted(region.cuboid, key=lambda p: (-p.y, p.x * right.x + p.z * right.z))
    return [SignSpot(cell, region.faces) for cell in cells]


def viewer_targets(region: Region, target: str) -> dict[Pos, tuple[str, int]]:
    """Clickable cells of a panel: cell -> (target, slot), slots in reading order."""
    return {spot.at: (target, k) for k, spot in enumerate(viewer_spots(region))}


# -- the arena part of a booth's hand panel -----------------------------------------------
def phase_timeouts(arena: Arena) -> dict[str, int]:
    """The arena's timeouts for its game's timed phases (the rules' `timeouts` option)."""
    return {k: v for k, v in arena.timeouts.items() if k in arena.part.timeouts}


def static_hand_panel(structure: Structure, arena: Arena, seat: SeatPlan) -> None:
    """`ArenaPart.static` for a seat region `cards`: blank signs on every cell."""
    if seat.cards.faces is not None:
        static_panel(structure, seat.cards)


def hand_panel_check(need: Callable[[Arena], int], what: str) -> ArenaCheck:
    """An arena check of the seats' `cards` panel: it faces a side, and has at least
    `need(arena)` cells (`what` says what they are for)."""

    def check(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
        wanted = need(arena)
        reported: set[tuple[Any, ...]] = set()  # a template too small is one problem, not one per seat
        for seat in arena.seats:
            own = arena.raw["seats"][seat.index]
            src: tuple[Any, ...] = ("seats", seat.index, "cards") if "cards" in own else ("seat_template", "cards")
            if src in reported:
                continue
            region = seat.cards
            if region.faces is None:
                reported.add(src)
                problems.append(f"{marked.where(src)}: cards needs 'faces' (the side the seated player reads)")
            elif region.cuboid.volume < wanted:
                reported.add(src)
                problems.append(
                    f"{marked.where(src)}: cards holds {region.cuboid.volume} signs but {what} needs {wanted}; "
                    f"make it at least {wanted} cells"
                )

    return check
