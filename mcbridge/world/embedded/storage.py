"""Block storage for the embedded world: a superflat world with lazily stored edits.

A block is one ``uint16`` state, ``id << 4 | data``, the same packing as a 1.12 chunk (and
flying-squid's world). Untouched space is never stored: it is computed from the flat
layer profile (bedrock y=0, dirt y=1..3, grass y=4, air above, like flying-squid's
``superflat``). The first write into a 16x16x16 section allocates that section (8 KiB),
so a fully edited 256x64x256 region costs 1024 sections = 8 MiB, and an arena costs a
few hundred KiB. Arrays are indexed ``[y, x, z]`` so that a cuboid read comes out in
``world.getBlocks`` order (y outermost, z fastest) without reshuffling.

Coordinates here are absolute world coordinates. Like Bukkit, the world is 256 high and
ends at the world border (|x|, |z| < 30,000,000): outside, reads give air and writes are
ignored rather than failing.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .ids import AIR, BEDROCK, DIRT, GRASS, LIGHT_TRANSPARENT_IDS

SECTION = 16
WORLD_HEIGHT = 256
WORLD_BORDER = 30_000_000
SECTION_BYTES = SECTION**3 * 2

SectionKey = tuple[int, int, int]
Position = tuple[int, int, int]


def state_of(block_id: int, data: int = 0) -> int:
    return (block_id << 4) | (data & 0xF)


#: The superflat layers, bottom up.
SUPERFLAT_LAYERS: tuple[int, ...] = (
    state_of(BEDROCK),
    state_of(DIRT),
    state_of(DIRT),
    state_of(DIRT),
    state_of(GRASS),
)

_OPAQUE_BY_ID = np.ones(4096 >> 4, dtype=bool)
_OPAQUE_BY_ID[sorted(LIGHT_TRANSPARENT_IDS)] = False
#: Lookup: state -> "counts for the heightmap".
OPAQUE_STATE = np.repeat(_OPAQUE_BY_ID, 16)


class BlockStore:
    """Block states of one world, plus the text of its signs."""

    def __init__(self, layers: tuple[int, ...] = SUPERFLAT_LAYERS) -> None:
        self.layers = layers
        self._profile = np.zeros(WORLD_HEIGHT, dtype=np.uint16)
        self._profile[: len(layers)] = layers
        self._sections: dict[SectionKey, np.ndarray] = {}
        #: Sign text by absolute position; the block at that position is a sign.
        self.signs: dict[Position, list[str]] = {}

    # ----------------------------------------------------------------- single blocks
    @staticmethod
    def in_world(x: int, y: int, z: int) -> bool:
        return 0 <= y < WORLD_HEIGHT and -WORLD_BORDER <= x < WORLD_BORDER and (
            -WORLD_BORDER <= z < WORLD_BORDER
        )

    def get(self, x: int, y: int, z: int) -> int:
        if not self.in_world(x, y, z):
            return AIR
        section = self._sections.get((x >> 4, y >> 4, z >> 4))
        if section is None:
            return int(self._profile[y])
        return int(section[y & 15, x & 15, z & 15])

    def set(self, x: int, y: int, z: int, state: int) -> bool:
        """Store one block; returns False when nothing changed (equal, or outside)."""
        if not self.in_world(x, y, z):
            return False
        old = self.get(x, y, z)
        if old == state:
            return False
        self._section_for_write((x >> 4, y >> 4, z >> 4))[y & 15, x & 15, z & 15] = state
        if (old >> 4) != (state >> 4):
            self.signs.pop((x, y, z), None)
        return True

    def small_ids(self, low: Position, high: Position) -> list[int]:
        """Block ids of a small inclusive cuboid in `world.getBlocks` order (y, x, z
        fastest): the client's fences, a few per batch. Within one section (as they are) one
        slice of it; else block by block."""
        (x0, y0, z0), (x1, y1, z1) = low, high
        key = (x0 >> 4, y0 >> 4, z0 >> 4)
        if key == (x1 >> 4, y1 >> 4, z1 >> 4) and self.in_world(x0, y0, z0) and self.in_world(x1, y1, z1):
            section = self._sections.get(key)
            if section is None:
                row = (x1 - x0 + 1) * (z1 - z0 + 1)
                return [int(self._profile[y]) >> 4 for y in range(y0, y1 + 1) for _ in range(row)]
            cut = section[y0 & 15 : (y1 & 15) + 1, x0 & 15 : (x1 & 15) + 1, z0 & 15 : (z1 & 15) + 1]
            return (cut >> 4).ravel().tolist()
        return [self.get(x, y, z) >> 4 for y in range(y0, y1 + 1) for x in range(x0, x1 + 1) for z in range(z0, z1 + 1)]

    # ----------------------------------------------------------------------- cuboids
    def read(self, low: Position, high: Position) -> np.ndarray:
        """States of the inclusive cuboid low..high as an array indexed [y, x, z]."""
        (x0, y0, z0), (x1, y1, z1) = low, high
        out = np.zeros((y1 - y0 + 1, x1 - x0 + 1, z1 - z0 + 1), dtype=np.uint16)
        ys = np.arange(y0, y1 + 1)
        inside = (ys >= 0) & (ys < WORLD_HEIGHT)
        out[inside] = self._profile[ys[inside]][:, None, None]
        out[:, _beyond_border(x0, x1), :] = AIR
        out[:, :, _beyond_border(z0, z1)] = AIR
        for key, (sy, sx, sz), (oy, ox, oz) in self._overlaps(low, high, allocate=False):
            out[oy, ox, oz] = self._sections[key][sy, sx, sz]
        return out

    def fill(self, low: Position, high: Position, state: int) -> None:
        """Write one state into the inclusive cuboid low..high (clipped to the world)."""
        volume = (high[0] - low[0] + 1) * (high[1] - low[1] + 1) * (high[2] - low[2] + 1)
        if volume < len(self.signs):  # a row of a few cells among thousands of signs: look only there
            inside: Iterator[Position] = (
                pos for pos in _cells(low, high) if pos in self.signs
            )
        else:
            inside = (pos for pos in self.signs if _contains(low, high, pos))
        replaced_signs = [pos for pos in inside if (self.get(*pos) >> 4) != (state >> 4)]
        for key, (sy, sx, sz), _ in self._overlaps(low, high, allocate=True):
            self._section_for_write(key)[sy, sx, sz] = state
        for pos in replaced_signs:
            del self.signs[pos]

    def highest_open_y(self, x: int, z: int) -> int:
        """The first y above the highest light-blocking block (0 for an empty column),
        as 1.12's heightmap behind ``getHighestBlockYAt``."""
        if not self.in_world(x, 0, z):
            return 0
        column = self._profile.copy()
        for sy in range(WORLD_HEIGHT // SECTION):
            section = self._sections.get((x >> 4, sy, z >> 4))
            if section is not None:
                column[sy * SECTION : (sy + 1) * SECTION] = section[:, x & 15, z & 15]
        opaque = np.flatnonzero(OPAQUE_STATE[column])
        return int(opaque[-1]) + 1 if opaque.size else 0

    # ------------------------------------------------------------------ persistence
    def sections(self) -> dict[SectionKey, np.ndarray]:
        return self._sections

    def load_sections(self, keys: np.ndarray, arrays: np.ndarray) -> None:
        self._sections = {
            (int(k[0]), int(k[1]), int(k[2])): np.array(a, dtype=np.uint16)
            for k, a in zip(keys, arrays, strict=True)
        }

    @property
    def allocated_bytes(self) -> int:
        return len(self._sections) * SECTION_BYTES

    # --------------------------------------------------------------------- internals
    def _section_for_write(self, key: SectionKey) -> np.ndarray:
        section = self._sections.get(key)
        if section is None:
            sy = key[1]
            column = self._profile[sy * SECTION : (sy + 1) * SECTION]
            section = np.broadcast_to(column[:, None, None], (SECTION,) * 3).copy()
            self._sections[key] = section
        return section

    def _overlaps(
        self, low: Position, high: Position, *, allocate: bool
    ) -> Iterator[tuple[SectionKey, tuple[slice, slice, slice], tuple[slice, slice, slice]]]:
        """Sections meeting the cuboid (clipped to the world), with the slice inside the
        section and the matching slice of an array laid over the cuboid."""
        (x0, y0, z0), (x1, y1, z1) = low, high
        cx0, cx1 = max(x0, -WORLD_BORDER), min(x1, WORLD_BORDER - 1)
        cy0, cy1 = max(y0, 0), min(y1, WORLD_HEIGHT - 1)
        cz0, cz1 = max(z0, -WORLD_BORDER), min(z1, WORLD_BORDER - 1)
        if cx0 > cx1 or cy0 > cy1 or cz0 > cz1:
            return
        span = ((cx1 >> 4) - (cx0 >> 4) + 1) * ((cy1 >> 4) - (cy0 >> 4) + 1)
        span *= (cz1 >> 4) - (cz0 >> 4) + 1
        if allocate or span <= len(self._sections):
            keys: list[SectionKey] = [
                (sx, sy, sz)
                for sx in range(cx0 >> 4, (cx1 >> 4) + 1)
                for sy in range(cy0 >> 4, (cy1 >> 4) + 1)
                for sz in range(cz0 >> 4, (cz1 >> 4) + 1)
            ]
            if not allocate:
                keys = [k for k in keys if k in self._sections]
        else:
            keys = [
                k
                for k in self._sections
                if cx0 >> 4 <= k[0] <= cx1 >> 4
                and cy0 >> 4 <= k[1] <= cy1 >> 4
                and cz0 >> 4 <= k[2] <= cz1 >> 4
            ]
        for key in keys:
            sx, sy, sz = key
            ax0, ax1 = max(cx0, sx * 16), min(cx1, sx * 16 + 15)
            ay0, ay1 = max(cy0, sy * 16), min(cy1, sy * 16 + 15)
            az0, az1 = max(cz0, sz * 16), min(cz1, sz * 16 + 15)
            inner = (
                slice(ay0 & 15, (ay1 & 15) + 1),
                slice(ax0 & 15, (ax1 & 15) + 1),
                slice(az0 & 15, (az1 & 15) + 1),
            )
            outer = (
                slice(ay0 - y0, ay1 - y0 + 1),
                slice(ax0 - x0, ax1 - x0 + 1),
                slice(az0 - z0, az1 - z0 + 1),
            )
            yield key, inner, outer


def _beyond_border(a0: int, a1: int) -> np.ndarray:
    """Mask over a cuboid axis a0..a1: True where it lies beyond the world border."""
    coords = np.arange(a0, a1 + 1, dtype=np.int64)
    return (coords < -WORLD_BORDER) | (coords >= WORLD_BORDER)


def _cells(low: Position, high: Position) -> Iterator[Position]:
    for x in range(low[0], high[0] + 1):
        for y in range(low[1], high[1] + 1):
            for z in range(low[2], high[2] + 1):
                yield (x, y, z)


def _contains(low: Position, high: Position, pos: Position) -> bool:
    return all(lo <= p <= hi for lo, p, hi in zip(low, pos, high, strict=True))
