"""The arena's static structure as a function of its YAML: local position -> block.

`arena build` places it; worldgen turns the same structure into a schematic, so the two
can never disagree. Only what never changes during play is here (shell, walls, board,
sign blocks); the game's kit adds its own fixed blocks through `ArenaPart.static`, and
the live parts (hands, wool walls, torches, sign texts) are drawn by the kit's `render`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mcbridge.tables.arena import Arena, SignSpot
from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import Cuboid, Facing, Pos

#: Wall sign data by the direction its text faces (protocol/raspberryjuice.md §2.4).
WALL_SIGN_DATA = {Facing.NORTH: 2, Facing.SOUTH: 3, Facing.WEST: 4, Facing.EAST: 5}
#: Wall torch data by the direction it points away from its support block.
WALL_TORCH_DATA = {Facing.EAST: 1, Facing.WEST: 2, Facing.SOUTH: 3, Facing.NORTH: 4}
#: Marks an empty slot of a hand display (light grey stained glass).
EMPTY_SLOT = Block(95, 8)

Lines = tuple[str, str, str, str]


#: the four wall signs and torches, made once (renders ask for them for every sign they draw)
_WALL_SIGNS = {facing: Block(blocks.WALL_SIGN.id, data) for facing, data in WALL_SIGN_DATA.items()}
_WALL_TORCHES = {facing: Block(blocks.REDSTONE_TORCH_ON.id, data) for facing, data in WALL_TORCH_DATA.items()}


def wall_sign(facing: Facing) -> Block:
    return _WALL_SIGNS[facing]


def wall_torch(facing: Facing) -> Block:
    return _WALL_TORCHES[facing]


@dataclass
class Structure:
    """Blocks and sign texts in arena-local coordinates (later writes win)."""

    blocks: dict[Pos, Block] = field(default_factory=dict)
    signs: dict[Pos, Lines] = field(default_factory=dict)

    def fill(self, cuboid: Cuboid, block: Block) -> None:
        for p in cuboid:
            self.blocks[p] = block

    def sign(self, spot: SignSpot, lines: Lines = ("", "", "", "")) -> None:
        self.blocks[spot.at] = wall_sign(spot.faces)
        self.signs[spot.at] = lines


def arena_layout(arena: Arena) -> Structure:
    s = Structure()
    b = arena.bounds
    s.fill(Cuboid(b.lo, Pos(b.hi.x, b.lo.y, b.hi.z)), arena.materials["floor"])
    s.fill(Cuboid(b.lo.offset(dy=1), b.hi), blocks.AIR)
    s.fill(arena.board_wall.cuboid, arena.materials["board"])
    for spot in arena.board_signs.values():
        s.sign(spot)
    for seat in arena.seats:
        shell = seat.booth.cuboid
        s.fill(shell, arena.materials["wall"])
        s.fill(Cuboid(shell.lo, Pos(shell.hi.x, shell.lo.y, shell.hi.z)), arena.materials["floor"])
        s.fill(Cuboid(Pos(shell.lo.x, shell.hi.y, shell.lo.z), shell.hi), arena.materials["roof"])
        s.fill(seat.interior.cuboid, blocks.AIR)
        s.fill(seat.door.cuboid, blocks.AIR)
        arena.part.static(s, arena, seat)  # the game's own fixed blocks (displays, walls)
        for spot in seat.signs.values():
            s.sign(spot)
    return s
