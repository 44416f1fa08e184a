"""A block grid: what every format reads into and writes from, and what the planner pastes.

Cells hold legacy keys (``id << 4 | data``, see :mod:`worldgen.states`) because that is
what the world takes and returns. The array is indexed ``[y, z, x]``, so its C order is
exactly the Sponge and MCEdit order ``x + z*W + y*W*L``: reading and writing those
formats is a reshape, not a loop.

Block entities (sign text, chest contents) are kept as the NBT the file had, minus the
position and id fields each format spells differently, so nothing is lost on a round trip.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import nbtlib
import numpy as np
import numpy.typing as npt

from worldgen.states import ConversionReport, key_of, split_key

Pos = tuple[int, int, int]
SIGN_ENTITY_ID = "minecraft:sign"
SIGN_LINES = 4


@dataclass(frozen=True, eq=False)
class BlockEntity:
    """A block entity as stored: its resource id and the rest of its NBT."""

    id: str
    nbt: nbtlib.Compound = field(default_factory=nbtlib.Compound)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BlockEntity):
            return NotImplemented
        return self.id == other.id and self.nbt == other.nbt

    def __hash__(self) -> int:
        return hash(self.id)

    @classmethod
    def sign(cls, lines: Sequence[str]) -> BlockEntity:
        """A sign with these lines, as 1.13-1.19 store them (JSON text in Text1..Text4)."""
        if len(lines) > SIGN_LINES:
            raise ValueError(f"a sign has {SIGN_LINES} lines, got {len(lines)}")
        padded = [*lines, *[""] * (SIGN_LINES - len(lines))]
        nbt = nbtlib.Compound(
            {
                f"Text{i + 1}": nbtlib.String(json.dumps({"text": text}, ensure_ascii=False))
                for i, text in enumerate(padded)
            }
        )
        return cls(SIGN_ENTITY_ID, nbt)

    def sign_lines(self) -> tuple[str, ...] | None:
        """Plain text of a sign's four lines, whatever version wrote it; None if not a sign.

        1.8-1.19 store ``Text1..Text4`` as JSON text components, older files plain
        strings, 1.20+ ``front_text.messages``. Formatting (colour, bold) is not
        something RaspberryJuice can set, so only the text is returned.
        """
        if "Text1" in self.nbt:
            raw = [self.nbt.get(f"Text{i}", "") for i in range(1, SIGN_LINES + 1)]
        elif "front_text" in self.nbt:
            raw = list(self.nbt["front_text"].get("messages", []))
        else:
            return None
        texts = [_plain_text(item) for item in raw[:SIGN_LINES]]
        return tuple(texts + [""] * (SIGN_LINES - len(texts)))


def _plain_text(component: Any) -> str:
    if isinstance(component, str):
        try:
            component = json.loads(component)
        except ValueError:
            return str(component)  # pre-1.8: the line itself
    if isinstance(component, str):
        return component
    if isinstance(component, list):
        return "".join(_plain_text(part) for part in component)
    if isinstance(component, Mapping):
        text = str(component.get("text", ""))
        return text + "".join(_plain_text(part) for part in component.get("extra", []))
    return str(component)


class BlockGrid:
    """A box of legacy blocks with its block entities.

    ``offset`` is the paste offset WorldEdit uses: where the low corner lands relative to
    the player (Sponge v1/v2 ``Metadata.WEOffset``, v3 ``Offset``, MCEdit ``WEOffset``),
    kept so a conversion keeps it; pasting takes the low corner from the operator.
    ``origin`` is where that player stood when the build was copied (absolute), when
    the file says; it is carried along for the writers, never compared.
    """

    def __init__(
        self,
        cells: npt.NDArray[np.integer[Any]],
        block_entities: Mapping[Pos, BlockEntity] | None = None,
        offset: Pos = (0, 0, 0),
        *,
        origin: Pos | None = None,
    ) -> None:
        if cells.ndim != 3:
            raise ValueError("cells must be a 3-D array indexed [y, z, x]")
        self.cells: npt.NDArray[np.uint16] = np.ascontiguousarray(cells, dtype=np.uint16)
        self.block_entities: dict[Pos, BlockEntity] = dict(block_entities or {})
        self.offset = offset
        self.origin = origin
        for pos in self.block_entities:
            if not self.contains(pos):
                raise ValueError(f"block entity at {pos} lies outside the {self.size} grid")

    @classmethod
    def filled(
        cls, width: int, height: int, length: int, block_id: int = 0, data: int = 0
    ) -> BlockGrid:
        cells = np.full((height, length, width), key_of(block_id, data), dtype=np.uint16)
        return cls(cells)

    # -- shape ---------------------------------------------------------------------------

    @property
    def width(self) -> int:
        return int(self.cells.shape[2])

    @property
    def height(self) -> int:
        return int(self.cells.shape[0])

    @property
    def length(self) -> int:
        return int(self.cells.shape[1])

    @property
    def size(self) -> Pos:
        """(width, height, length) = extent along x, y, z."""
        return self.width, self.height, self.length

    @property
    def volume(self) -> int:
        return int(self.cells.size)

    def contains(self, pos: Pos) -> bool:
        x, y, z = pos
        return 0 <= x < self.width and 0 <= y < self.height and 0 <= z < self.length

    # -- cells ---------------------------------------------------------------------------

    @property
    def ids(self) -> npt.NDArray[np.integer[Any]]:
        return self.cells >> 4

    @property
    def data(self) -> npt.NDArray[np.integer[Any]]:
        return self.cells & 0x0F

    def get(self, x: int, y: int, z: int) -> tuple[int, int]:
        return split_key(int(self.cells[y, z, x]))

    def set(self, x: int, y: int, z: int, block_id: int, data: int = 0) -> None:
        """Set one cell; a block entity there is dropped, as the game would."""
        self.cells[y, z, x] = key_of(block_id, data)
        self.block_entities.pop((x, y, z), None)

    def fill(self, low: Pos, high: Pos, block_id: int, data: int = 0) -> None:
        """Set the box between two corners (inclusive)."""
        (x1, y1, z1), (x2, y2, z2) = low, high
        xs, ys, zs = sorted((x1, x2)), sorted((y1, y2)), sorted((z1, z2))
        self.cells[ys[0] : ys[1] + 1, zs[0] : zs[1] + 1, xs[0] : xs[1] + 1] = key_of(
            block_id, data
        )
        for pos in [p for p in self.block_entities if _inside(p, xs, ys, zs)]:
            del self.block_entities[pos]

    def set_sign(
        self, x: int, y: int, z: int, block_id: int, data: int, lines: Sequence[str]
    ) -> None:
        """Place a sign block (63 standing or 68 wall) with its text."""
        self.cells[y, z, x] = key_of(block_id, data)
        self.block_entities[(x, y, z)] = BlockEntity.sign(lines)

    # -- whole-grid operations ------------------------------------------------------------

    def copy(self) -> BlockGrid:
        return BlockGrid(
            self.cells.copy(), dict(self.block_entities), self.offset, origin=self.origin
        )

    def same_blocks(self, other: BlockGrid) -> bool:
        return self.cells.shape == other.cells.shape and bool(
            np.array_equal(self.cells, other.cells)
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BlockGrid):
            return NotImplemented
        return (
            self.same_blocks(other)
            and self.block_entities == other.block_entities
            and self.offset == other.offset
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        w, h, length = self.size
        return f"<BlockGrid {w}x{h}x{length}, {len(self.block_entities)} block entities>"

    def rotated(
        self,
        quarter_turns: int,
        turn_key: Callable[[int, int], int | None],
        report: ConversionReport | None = None,
    ) -> BlockGrid:
        """This grid turned clockwise seen from above, block facings turned with it.

        ``turn_key(key, quarter_turns)`` gives a block's turned key, or None when it does
        not know the block: such a block keeps its data and is counted in ``report``.
        The low corner of the result is again (0, 0, 0).
        """
        turns = quarter_turns % 4
        if turns == 0:
            return self.copy()
        cells = self.cells
        entities = dict(self.block_entities)
        for _ in range(turns):
            length = cells.shape[1]
            # new[y, x, L-1-z] = old[y, z, x]: x' = L-1-z, z' = x
            cells = cells.transpose(0, 2, 1)[:, :, ::-1]
            entities = {(length - 1 - z, y, x): be for (x, y, z), be in entities.items()}
        keys, inverse = np.unique(cells, return_inverse=True)
        counts = np.bincount(inverse.ravel(), minlength=keys.size)
        turned = np.empty_like(keys)
        for i, key in enumerate(keys.tolist()):
            new_key = turn_key(key, turns)
            if new_key is None:
                new_key = key
                if report is not None:
                    report.notes.append(
                        f"legacy block {key >> 4}:{key & 15} has no known rotation, so its"
                        f" {int(counts[i])} cells keep their data"
                    )
            turned[i] = new_key
        new_cells = turned[inverse].reshape(cells.shape).astype(np.uint16)
        return BlockGrid(new_cells, entities, self.offset)


def _inside(pos: Pos, xs: list[int], ys: list[int], zs: list[int]) -> bool:
    x, y, z = pos
    return xs[0] <= x <= xs[1] and ys[0] <= y <= ys[1] and zs[0] <= z <= zs[1]
