"""Sign panels read as the player inside the booth sees them.

`Region.cells` lists a region top row first and then by ascending local x, which is left
to right only for a panel that faces south (the viewer looks north). A private panel on a
booth's back wall faces north, so its viewer sees ascending x from right to left; cards
laid out by `Region.cells` would read 500..100. `viewer_spots` orders a panel's signs left
to right for whoever reads them, whatever way the panel faces.
"""

from __future__ import annotations

from mcbridge.tables.arena import Region, SignSpot
from mcbridge.world.geometry import Facing, Pos

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
