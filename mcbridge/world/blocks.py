"""Legacy (pre-1.13) block ids and data, by name (protocol/raspberryjuice.md §4).

RaspberryJuice speaks numeric `id[,data]`. mcpi's `mcpi.block` lacks several blocks the
games need (redstone torches, stained terracotta, concrete...) and has a mutable, colour-less
`Block`; this module gives an immutable `Block` value (still accepted wherever mcpi takes a
block, and equal to mcpi's) and names for the 16 colours, so YAML and code can say
"red_wool" or "35:14" and mean the same thing.
"""

from __future__ import annotations

import difflib
import enum
from typing import NamedTuple


class Block(NamedTuple):
    """An immutable (id, data) pair. Iterates as `id, data`, so mcpi calls accept it."""

    id: int
    data: int = 0

    def with_data(self, data: int) -> Block:
        return Block(self.id, data)

    def __str__(self) -> str:
        return block_name(self)


class Color(enum.IntEnum):
    """The 16 dye colours; the value is the data of wool, glass, terracotta, concrete..."""

    WHITE = 0
    ORANGE = 1
    MAGENTA = 2
    LIGHT_BLUE = 3
    YELLOW = 4
    LIME = 5
    PINK = 6
    GRAY = 7
    LIGHT_GRAY = 8
    CYAN = 9
    PURPLE = 10
    BLUE = 11
    BROWN = 12
    GREEN = 13
    RED = 14
    BLACK = 15

    @classmethod
    def parse(cls, name: str) -> Color:
        """'red', 'Light Blue', 'light_grey', 'silver' or '14'."""
        key = _key(name)
        if key.isdigit() and int(key) < 16:
            return cls(int(key))
        key = _COLOR_ALIASES.get(key, key)
        try:
            return cls[key.upper()]
        except KeyError:
            hint = _suggest(key, [c.name.lower() for c in cls])
            raise ValueError(f"unknown colour {name!r}.{hint}") from None


_COLOR_ALIASES = {"silver": "light_gray", "light_grey": "light_gray", "grey": "gray"}

AIR = Block(0)
STONE = Block(1)
GRASS = Block(2)
DIRT = Block(3)
COBBLESTONE = Block(4)
PLANKS = Block(5)
BEDROCK = Block(7)
SAND = Block(12)
GLASS = Block(20)
LAPIS_BLOCK = Block(22)
DISPENSER = Block(23)
WOOL = Block(35)
GOLD_BLOCK = Block(41)
IRON_BLOCK = Block(42)
TNT = Block(46)
OBSIDIAN = Block(49)
TORCH = Block(50)
CHEST = Block(54)
REDSTONE_WIRE = Block(55)
DIAMOND_BLOCK = Block(57)
STANDING_SIGN = Block(63)
LADDER = Block(65)
WALL_SIGN = Block(68)
LEVER = Block(69)
REDSTONE_TORCH_OFF = Block(75)
REDSTONE_TORCH_ON = Block(76)
STONE_BUTTON = Block(77)
GLOWSTONE = Block(89)
STAINED_GLASS = Block(95)
GLASS_PANE = Block(102)
REDSTONE_LAMP_OFF = Block(123)
REDSTONE_LAMP_ON = Block(124)
EMERALD_BLOCK = Block(133)
WOODEN_BUTTON = Block(143)
REDSTONE_BLOCK = Block(152)
DROPPER = Block(158)
STAINED_TERRACOTTA = Block(159)
STAINED_GLASS_PANE = Block(160)
SEA_LANTERN = Block(169)
CARPET = Block(171)
TERRACOTTA = Block(172)
CONCRETE = Block(251)
CONCRETE_POWDER = Block(252)

#: Items (not placeable blocks) the games hand out or check in a hand.
DIAMOND_SWORD_ITEM = 276
SWORD_ITEMS = frozenset({267, 268, 272, 276, 283})  # iron, wood, stone, diamond, gold

#: Blocks that come in the 16 colours, by the name used in "<colour>_<name>".
COLORED = {
    "wool": WOOL.id,
    "stained_glass": STAINED_GLASS.id,
    "stained_glass_pane": STAINED_GLASS_PANE.id,
    "terracotta": STAINED_TERRACOTTA.id,
    "stained_terracotta": STAINED_TERRACOTTA.id,
    "carpet": CARPET.id,
    "concrete": CONCRETE.id,
    "concrete_powder": CONCRETE_POWDER.id,
}

#: Every named constant above, by lower-case name ("redstone_torch_on" -> Block(76)).
NAMES: dict[str, Block] = {
    name.lower(): value for name, value in dict(globals()).items() if isinstance(value, Block)
}
NAMES.update({"redstone_torch": REDSTONE_TORCH_ON, "sign": WALL_SIGN, "wall_torch": TORCH})

_BY_VALUE: dict[Block, str] = {}
for _name, _block in NAMES.items():
    _BY_VALUE.setdefault(_block, _name)
_COLORED_BY_ID = {block_id: name for name, block_id in reversed(list(COLORED.items()))}


def wool(color: Color | str | int) -> Block:
    """The wool block of a colour: `wool("red") == Block(35, 14)`."""
    return colored("wool", color)


def colored(kind: str, color: Color | str | int) -> Block:
    """A coloured block: `colored("concrete", Color.BLUE) == Block(251, 11)`."""
    if kind not in COLORED:
        raise ValueError(f"{kind!r} has no colours; choose one of {', '.join(COLORED)}.")
    if isinstance(color, str):
        color = Color.parse(color)
    return Block(COLORED[kind], Color(color).value)


def color_of(block: Block) -> Color | None:
    """The colour of a coloured block (wool, glass, concrete...), else None."""
    if block.id in _COLORED_BY_ID and 0 <= block.data < 16:
        return Color(block.data)
    return None


def parse_block(text: str) -> Block:
    """Read a block from YAML or a command: 'red_wool', 'wool:red', '35:14', '35', 'stone'.

    Raises ValueError with a suggestion for a near miss ('red_wol' -> 'red_wool').
    """
    raw = str(text).strip()
    key = _key(raw)
    if ":" in key:
        head, _, tail = key.partition(":")
        ident = int(head) if head.isdigit() else _named(head, raw).id
        if tail.isdigit():
            return Block(ident, _data(int(tail), raw))
        color = Color.parse(tail)
        return Block(ident, color.value)
    if key.isdigit():
        return Block(int(key))
    if key in NAMES:
        return NAMES[key]
    for kind, block_id in COLORED.items():
        if key.endswith("_" + kind):
            prefix = key[: -len(kind) - 1]
            try:
                return Block(block_id, Color.parse(prefix).value)
            except ValueError:
                continue
    return _named(key, raw)


def block_name(block: Block) -> str:
    """A readable name ('red_wool', 'wall_sign:3'), or 'id:data' for blocks without one."""
    block = Block(*block)
    color = color_of(block)
    if color is not None:
        return f"{color.name.lower()}_{_COLORED_BY_ID[block.id]}"
    name = _BY_VALUE.get(block)
    if name is not None:
        return name
    base = _BY_VALUE.get(Block(block.id))
    return f"{base}:{block.data}" if base else f"{block.id}:{block.data}"


def _named(key: str, raw: str) -> Block:
    if key in NAMES:
        return NAMES[key]
    candidates = list(NAMES) + [f"{c.name.lower()}_{k}" for c in Color for k in COLORED]
    raise ValueError(f"unknown block {raw!r}.{_suggest(key, candidates)}")


def _data(value: int, raw: str) -> int:
    if not 0 <= value <= 15:
        raise ValueError(f"block data in {raw!r} must be 0-15.")
    return value


def _key(text: str) -> str:
    return str(text).strip().lower().replace(" ", "_").replace("-", "_")


def _suggest(key: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(key, candidates, n=3)
    return f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
