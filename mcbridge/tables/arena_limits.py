"""Arena checks that guard the server and the players against a file that is legal but harmful.

The schema accepts every shape it can type-check; these checks catch what it cannot:
bounds so large that `arena build` would run the server (or us) out of memory, two signs
on one cell (one silently replaces the other), a prize the table cannot give (it would
hand out something else), block ids the server does not have (the build fails halfway),
booth walls players can see through, and text with control characters (a newline or a
bidi override in a name garbles signs and chat, and a NUL truncates them). Each is one line,
``file:line:column: what is wrong; the fix``, added to the others `validate` reports.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Hashable, Iterator
from typing import Any

from mcbridge.core.yamlmarks import MarkedYaml, describe_character, printable, short_repr
from mcbridge.tables.arena import Arena
from mcbridge.tables.layout import arena_layout
from mcbridge.world import blocks
from mcbridge.world.blocks import block_name

#: [decided here] 1,000,000 blocks (e.g. 200 x 25 x 200) leaves room for 8 booths and a
#: plaza (the shipped arena holds 4,403); at that size `arena build` took 15 s and 135 MB
#: on the embedded world, `worldgen build` 19 s and 147 MB. 256 = the 1.12 build height.
MAX_VOLUME = 1_000_000
MAX_HEIGHT = 256

#: Items a table can give as prizes: name -> (item id, data) on a 1.12 server.
PRIZE_ITEMS: dict[str, tuple[int, int]] = {
    "diamond": (264, 0),
    "emerald": (388, 0),
    "gold_ingot": (266, 0),
    "iron_ingot": (265, 0),
}

#: Block ids of Minecraft 1.12 (253 and 254 are unused): a server answers Fail to others.
BLOCK_IDS = frozenset(range(256)) - {253, 254}
#: [decided here] Blocks a booth's walls and roof must not be made of: players outside would
#: see the hand inside (air, glass and panes, leaves, ice, slime, web, bars, fences, gates,
#: ladders, vines). A modified client sees through anything; this guards the honest viewer.
SEE_THROUGH = frozenset({0, 18, 20, 30, 65, 79, 85, 95, 101, 102, 106, 107, 113, 160, 161, 165, *range(183, 193)})
BOOTH_MATERIALS = ("wall", "roof")

#: Unicode categories no arena text may contain: controls (newline, NUL, ESC), format
#: characters (bidi overrides, zero-width joiners, BOM), line/paragraph separators, and
#: surrogates or private-use code points (no client draws them the same way).
_FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co"}


def check_limits(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    """Append every problem of the kinds above (an arena check: same shape as config's others)."""
    problems += _text_problems(marked)
    problems += _sign_problems(arena, marked)
    problems += _prize_problems(arena, marked)
    root_causes = _bounds_problems(arena, marked) + _material_problems(arena, marked)
    problems += root_causes
    if not root_causes:  # the layout is as large as the bounds; air walls would hold no sign
        problems += _support_problems(arena, marked)


def _bounds_problems(arena: Arena, marked: MarkedYaml) -> list[str]:
    width, height, length = arena.bounds.size
    where = marked.where(("bounds",))
    if height > MAX_HEIGHT:
        return [f"{where}: bounds are {height} blocks high; a world is {MAX_HEIGHT} high: lower 'bounds'"]
    if arena.bounds.volume > MAX_VOLUME:
        return [
            f"{where}: bounds {width} x {height} x {length} hold {arena.bounds.volume:,} blocks; an arena may "
            f"hold at most {MAX_VOLUME:,} (e.g. 200 x 25 x 200): shrink 'bounds'"
        ]
    return []


def _sign_problems(arena: Arena, marked: MarkedYaml) -> list[str]:
    """A cell holds one sign: the second sign written there would replace the first.

    Signs of two different seats on one cell are already a seat overlap (config.py).
    """
    Spot = tuple[str, tuple[Hashable, ...], int | None]  # label, where it is written, seat (None: board)
    spots: list[tuple[Spot, Any]] = [
        ((f"board sign '{name}'", ("board", "signs", name, "at"), None), spot.at)
        for name, spot in arena.board_signs.items()
    ]
    for seat in arena.seats:
        for name, spot in seat.signs.items():
            spots.append(((f"sign '{name}'", ("seat_template", "signs", name, "at"), seat.index), spot.at))
    first_at: dict[Any, Spot] = {}
    problems: list[str] = []
    reported: set[tuple[tuple[Hashable, ...], tuple[Hashable, ...]]] = set()
    for (label, src, owner), cell in spots:
        if cell not in first_at:
            first_at[cell] = (label, src, owner)
            continue
        other_label, other_src, other_owner = first_at[cell]
        if (owner is not None and other_owner is not None and owner != other_owner) or (other_src, src) in reported:
            continue  # a template clash repeats in every seat: say it once
        reported.add((other_src, src))
        problems.append(
            f"{marked.where(src)}: {label} is on the same cell {tuple(cell)} as {other_label} "
            f"({marked.where(other_src)}); a cell holds one sign: move one of them"
        )
    return problems


def _support_problems(arena: Arena, marked: MarkedYaml) -> list[str]:
    """A wall sign hangs on the block behind it; with air there, the server drops it as an item."""
    structure = arena_layout(arena)
    spots = [(f"board sign '{n}'", ("board", "signs", n, "at"), s) for n, s in arena.board_signs.items()]
    for seat in arena.seats:  # template signs, placed per seat (a seat may override its regions)
        spots += [(f"sign '{n}'", ("seat_template", "signs", n, "at"), s) for n, s in seat.signs.items()]
    problems, reported = [], set()
    for label, src, spot in spots:
        if not arena.bounds.contains(spot.at):
            continue  # already a problem: outside the bounds
        behind = structure.blocks.get(spot.support, blocks.AIR)
        if (behind == blocks.AIR or spot.support in structure.signs) and src not in reported:
            reported.add(src)
            problems.append(
                f"{marked.where(src)}: {label} faces {spot.faces.name.lower()} but the block behind it "
                f"{tuple(spot.support)} is empty; a wall sign needs a block to hang on: move it against a wall"
            )
    return problems


def _prize_problems(arena: Arena, marked: MarkedYaml) -> list[str]:
    item = str(arena.prize.get("item", ""))
    if item in PRIZE_ITEMS:
        return []
    close = difflib.get_close_matches(item, PRIZE_ITEMS, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return [
        f"{marked.where(('prize', 'item'))}: prize.item: {item!r} is not an item a table can give; "
        f"{hint}choose one of {', '.join(PRIZE_ITEMS)}"
    ]


def _material_problems(arena: Arena, marked: MarkedYaml) -> list[str]:
    problems = []
    for name, block in arena.materials.items():
        where = marked.where(("materials", name))
        if block.id not in BLOCK_IDS:
            problems.append(
                f"{where}: materials.{name}: block id {block.id} does not exist in Minecraft 1.12 "
                "(ids 0-252 and 255): use a block name such as stone, or a real id:data"
            )
        elif name in BOOTH_MATERIALS and block.id in SEE_THROUGH:
            problems.append(
                f"{where}: materials.{name}: {block_name(block)} is see-through, so players outside a booth "
                "would see the hand inside: pick an opaque block (stone, planks, wool...)"
            )
    return problems


def _text_problems(marked: MarkedYaml) -> list[str]:
    problems = []
    for path, text in _strings(marked.data, ()):
        bad = next((c for c in text if unicodedata.category(c) in _FORBIDDEN_CATEGORIES), None)
        if bad is not None:
            label = printable(".".join(str(p) for p in path))
            problems.append(
                f"{marked.where(path)}: {label}: {short_repr(text)} contains {describe_character(bad)}, which garbles "
                "signs and chat; remove it"
            )
    return problems


def _strings(value: Any, path: tuple[Hashable, ...]) -> Iterator[tuple[tuple[Hashable, ...], str]]:
    """Every text in the file, keys included, with the path of the value it names."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(key, str):
                yield (*path, key), key
            yield from _strings(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _strings(inner, (*path, i))
