"""Positions, cuboids and the arena-local -> world transform, in one place.

Arenas are described in YAML in local coordinates (as if the arena faced north) and placed
in the world with an origin and a facing. Every rotation of positions *and* of block data
(a wall sign or torch must turn with the wall it hangs on) happens here, so no other module
does its own trigonometry.

Minecraft axes: +x east, +y up, +z south. "Facing north" means local axes = world axes.
Each quarter turn is clockwise seen from above: north -> east -> south -> west.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from mcpi.vec3 import Vec3

from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.sanitize import floor


class Pos(NamedTuple):
    """An integer block position: hashable and immutable, yet usable wherever mcpi wants a
    `Vec3` (it has `.x .y .z` and iterates as x, y, z).

    [decided here] A tuple (a NamedTuple), not a frozen dataclass: the reconciler and the
    tables look positions up in dicts hundreds of thousands of times a second at 50 tables,
    and a tuple hashes and compares in C where the dataclass ran Python for every `__hash__`
    and `__eq__`. The one change of meaning: a Pos now equals the plain tuple of its
    coordinates (`Pos(1, 2, 3) == (1, 2, 3)`), and so finds the same dict entry. Nothing
    mixes the two as keys; `tuple + Pos` would concatenate, which is why `+`, `-` and `*`
    on a Pos are vector arithmetic (with a Pos on the left).
    """

    x: int
    y: int
    z: int

    @classmethod
    def of(cls, value: Pos | Vec3 | Iterable[float]) -> Pos:
        """Floor any position-like value (Vec3, tuple, Pos) to a block position."""
        if type(value) is Pos:
            return value
        x, y, z = value
        return cls(floor(x), floor(y), floor(z))

    def __add__(self, other: Pos | Iterable[int]) -> Pos:  # type: ignore[override]
        ox, oy, oz = other
        return Pos(self.x + ox, self.y + oy, self.z + oz)

    def __sub__(self, other: Pos | Iterable[int]) -> Pos:
        ox, oy, oz = other
        return Pos(self.x - ox, self.y - oy, self.z - oz)

    def __neg__(self) -> Pos:
        return Pos(-self.x, -self.y, -self.z)

    def __mul__(self, k: int) -> Pos:  # type: ignore[override]
        return Pos(self.x * k, self.y * k, self.z * k)

    def __rmul__(self, k: int) -> Pos:  # type: ignore[override]
        return Pos(self.x * k, self.y * k, self.z * k)

    def offset(self, dx: int = 0, dy: int = 0, dz: int = 0) -> Pos:
        return Pos(self.x + dx, self.y + dy, self.z + dz)

    def to_vec3(self) -> Vec3:
        return Vec3(self.x, self.y, self.z)

    def clone(self) -> Pos:
        """mcpi code calls `clone()` before mutating; a Pos never mutates."""
        return self

    def __repr__(self) -> str:
        return f"Pos({self.x}, {self.y}, {self.z})"


@dataclass(frozen=True, slots=True, init=False)
class Cuboid:
    """An axis-aligned box of blocks, both corners included, corners normalised.

    Iteration and `index` follow `world.getBlocks` order (y outermost, then x, z fastest),
    so `cuboid.at(i)` is the position of the i-th id in a getBlocks reply.
    """

    lo: Pos
    hi: Pos

    def __init__(self, a: Pos | Vec3 | Iterable[float], b: Pos | Vec3 | Iterable[float]):
        pa, pb = Pos.of(a), Pos.of(b)
        object.__setattr__(self, "lo", Pos(min(pa.x, pb.x), min(pa.y, pb.y), min(pa.z, pb.z)))
        object.__setattr__(self, "hi", Pos(max(pa.x, pb.x), max(pa.y, pb.y), max(pa.z, pb.z)))

    @property
    def size(self) -> tuple[int, int, int]:
        """(nx, ny, nz)."""
        return (self.hi.x - self.lo.x + 1, self.hi.y - self.lo.y + 1, self.hi.z - self.lo.z + 1)

    @property
    def volume(self) -> int:
        nx, ny, nz = self.size
        return nx * ny * nz

    def __len__(self) -> int:
        return self.volume

    def __contains__(self, p: object) -> bool:
        return self.contains(p)

    def contains(self, p: Pos | Vec3 | Iterable[float]) -> bool:
        q = Pos.of(p)
        lo, hi = self.lo, self.hi
        return lo.x <= q.x <= hi.x and lo.y <= q.y <= hi.y and lo.z <= q.z <= hi.z

    def index(self, p: Pos | Vec3 | Iterable[float]) -> int:
        """Index of p in a getBlocks reply: ((y-ymin)*nx + (x-xmin))*nz + (z-zmin)."""
        q = Pos.of(p)
        if not self.contains(q):
            raise ValueError(f"{q!r} is outside {self!r}.")
        nx, _, nz = self.size
        return ((q.y - self.lo.y) * nx + (q.x - self.lo.x)) * nz + (q.z - self.lo.z)

    def at(self, i: int) -> Pos:
        """The position of the i-th block in getBlocks order (inverse of `index`)."""
        if not 0 <= i < self.volume:
            raise IndexError(f"index {i} outside a cuboid of {self.volume} blocks.")
        nx, _, nz = self.size
        yx, z = divmod(i, nz)
        y, x = divmod(yx, nx)
        return Pos(self.lo.x + x, self.lo.y + y, self.lo.z + z)

    def __iter__(self) -> Iterator[Pos]:
        lo, hi = self.lo, self.hi
        for y in range(lo.y, hi.y + 1):
            for x in range(lo.x, hi.x + 1):
                for z in range(lo.z, hi.z + 1):
                    yield Pos(x, y, z)

    def intersects(self, other: Cuboid) -> bool:
        a, b = self, other
        return (
            a.lo.x <= b.hi.x
            and b.lo.x <= a.hi.x
            and a.lo.y <= b.hi.y
            and b.lo.y <= a.hi.y
            and a.lo.z <= b.hi.z
            and b.lo.z <= a.hi.z
        )

    def args(self) -> tuple[int, int, int, int, int, int]:
        """The six numbers of `world.getBlocks` / `world.setBlocks`."""
        return (*self.lo, *self.hi)

    def __repr__(self) -> str:
        return f"Cuboid({self.lo!r}, {self.hi!r})"


class Facing(enum.Enum):
    """Where an arena's front faces; the value is clockwise quarter turns from north."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @classmethod
    def parse(cls, text: str | Facing) -> Facing:
        if isinstance(text, Facing):
            return text
        key = str(text).strip().upper()
        aliases = {"N": "NORTH", "E": "EAST", "S": "SOUTH", "W": "WEST"}
        try:
            return cls[aliases.get(key, key)]
        except KeyError:
            raise ValueError(f"unknown facing {text!r}: use north, east, south or west.") from None

    @property
    def vector(self) -> Pos:
        """The unit step in this direction (north = -z)."""
        return rotate(Pos(0, 0, -1), self.value)


def rotate(p: Pos, turns: int) -> Pos:
    """Rotate an offset about the y axis by `turns` clockwise quarter turns (seen from above)."""
    x, y, z = p
    for _ in range(turns % 4):
        x, z = -z, x
    return Pos(x, y, z)


# --- Block data under rotation -------------------------------------------------------------
# One clockwise quarter turn for each family of directional blocks (legacy data values).

# Data 2 north, 3 south, 4 west, 5 east; higher bits (dispenser "triggered") kept.
_FACING_2345 = frozenset({23, 54, 61, 62, 65, 68, 130, 146, 158, 177})
_TURN_2345 = {2: 5, 5: 3, 3: 4, 4: 2}
# Torches and buttons: 1 east, 2 west, 3 south, 4 north; 0/5 ceiling/floor; +8 kept.
_TORCH_LIKE = frozenset({50, 75, 76, 77, 143})
_TURN_TORCH = {1: 3, 3: 2, 2: 4, 4: 1}
_LEVER = 69
_TURN_LEVER = {**_TURN_TORCH, 5: 6, 6: 5, 0: 7, 7: 0}
# Standing sign / banner: 16 rotations, 0 south, 4 west, 8 north, 12 east.
_ROTATION_16 = frozenset({63, 176})
# Stairs: 0 east, 1 west, 2 south, 3 north; +4 upside down kept.
_STAIRS = frozenset({53, 67, 108, 109, 114, 128, 134, 135, 136, 156, 163, 164, 180, 203})
_TURN_STAIRS = {0: 2, 2: 1, 1: 3, 3: 0}
# Pumpkins and glazed terracotta: 0 south, 1 west, 2 north, 3 east.
_HORIZONTAL_4 = frozenset({86, 91, *range(235, 251)})


def rotate_block(block: Block | Iterable[int], turns: int) -> Block:
    """The block that looks the same after the world turns `turns` quarter turns clockwise."""
    b = Block(*block)
    for _ in range(turns % 4):
        b = _turn_once(b)
    return b


def _turn_once(b: Block) -> Block:
    i, d = b.id, b.data
    if i in _FACING_2345 and d & 7 in _TURN_2345:
        return Block(i, (d & ~7) | _TURN_2345[d & 7])
    if i in _TORCH_LIKE and d & 7 in _TURN_TORCH:
        return Block(i, (d & ~7) | _TURN_TORCH[d & 7])
    if i == _LEVER:
        return Block(i, (d & 8) | _TURN_LEVER[d & 7])
    if i in _ROTATION_16:
        return Block(i, (d & ~15) | ((d + 4) & 15))
    if i in _STAIRS:
        return Block(i, (d & ~3) | _TURN_STAIRS[d & 3])
    if i in _HORIZONTAL_4:
        return Block(i, (d & ~3) | ((d + 1) & 3))
    return b


_SUPPORT_2345 = {2: Pos(0, 0, 1), 3: Pos(0, 0, -1), 4: Pos(1, 0, 0), 5: Pos(-1, 0, 0)}
_SUPPORT_TORCH = {1: Pos(-1, 0, 0), 2: Pos(1, 0, 0), 3: Pos(0, 0, -1), 4: Pos(0, 0, 1)}


def support_offset(block: Block | Iterable[int]) -> Pos | None:
    """Where the block an attached block hangs on sits, relative to it (None: free-standing).

    Attached blocks pop off as items without support, so builders place the support first.
    """
    b = Block(*block)
    if b.id in {blocks.WALL_SIGN.id, blocks.LADDER.id, 177}:
        return _SUPPORT_2345.get(b.data & 7)
    if b.id in _TORCH_LIKE or b.id == _LEVER:
        low = b.data & 7
        if low in _SUPPORT_TORCH:
            return _SUPPORT_TORCH[low]
        if b.id == _LEVER:
            return Pos(0, 1, 0) if low in (0, 7) else Pos(0, -1, 0)
        if b.id in (blocks.STONE_BUTTON.id, blocks.WOODEN_BUTTON.id):
            return Pos(0, 1, 0) if low == 0 else Pos(0, -1, 0)
        return Pos(0, -1, 0)  # torches: 0 and 5 stand on the floor
    return None


@dataclass(frozen=True, slots=True)
class ArenaFrame:
    """An arena's placement: local coordinates (as if facing north) -> world coordinates."""

    origin: Pos
    facing: Facing = Facing.NORTH

    @classmethod
    def of(
        cls, origin: Pos | Vec3 | Iterable[float], facing: Facing | str = Facing.NORTH
    ) -> ArenaFrame:
        return cls(Pos.of(origin), Facing.parse(facing))

    def to_world(self, local: Pos | Iterable[int]) -> Pos:
        return self.origin + rotate(Pos.of(local), self.facing.value)

    def to_local(self, world: Pos | Vec3 | Iterable[float]) -> Pos:
        return rotate(Pos.of(world) - self.origin, -self.facing.value)

    def cuboid_to_world(self, local: Cuboid) -> Cuboid:
        return Cuboid(self.to_world(local.lo), self.to_world(local.hi))

    def block_to_world(self, block: Block | Iterable[int]) -> Block:
        """Turn a block's data with the arena (a sign facing local north faces `facing`)."""
        return rotate_block(block, self.facing.value)

    def block_to_local(self, block: Block | Iterable[int]) -> Block:
        return rotate_block(block, -self.facing.value)
