"""Shared pieces of the sign tables (Dice Bluff, Bribery, Braff, Briscola bugiarda).

Those games are played on wall signs: the public board, each booth's public side, and
inside each enclosed booth private panels (dice, cards, tokens) and action signs. What
they share lives here, so each kit keeps only what is particular to its game:

* **Sign text** that fits: `fit` and `fit_lines` cut a line to what a sign can show,
  measured in pixels by `mcbridge.textfit` (the one width table), `name_then` shortens a
  name so what follows it stays, `spread` lays rows over several signs.
* **Legal actions** in either form: a plain list, or one with compact range entries (an
  `ActionRange` of the core: every `first` with `field` = lowest..last by step). `concrete`
  expands them, `is_legal` asks without expanding, `bounds` gives a range's ends.
* **Action menus** (`Menu`): the legal actions of a seat on a row of sign slots, paged
  with a "more" sign when there are more actions than slots; a click names the action.
* **Drafts**: `cycle` and `clamp` for values composed click by click (face, rank, count).
* **Panels**: a region of a booth whose every cell is a wall sign (a hand of cards, the
  dice under the cup): `panel_spots`, `panel_targets` for clicks, `static_panel` for build.
* **Memoised parts** (`PartMemo`): a scene part rebuilt only when what it shows changed,
  the very same object otherwise (the reconciler skips it unread).
* **Whole scenes**: `table_scene` puts the board and each seat's parts together,
  `lobby_board` draws the board between matches.
* **Common signs**: join, lobby and the turn clock, from the shared `signs.*` locale texts.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from mcbridge.core import CHANCE, Action
from mcbridge.tables.arena import Arena, Region, SeatPlan, SignSpot
from mcbridge.tables.kit import Scene, Texts
from mcbridge.tables.layout import Lines, Structure, wall_sign
from mcbridge.textfit import SIGN_LINE_PX, fit_sign_line, text_px
from mcbridge.world.geometry import Facing, Pos
from mcbridge.world.sanitize import sign_line

if TYPE_CHECKING:
    from mcbridge.tables.table import Table

T = TypeVar("T")
BLANK: Lines = ("", "", "", "")


# -- sign text ------------------------------------------------------------------------------
@functools.lru_cache(maxsize=4096)  # every sign of every table again after each action: the same few texts
def fit(text: str, px: int = SIGN_LINE_PX) -> str:
    """`text` cut to one sign line (`px` wide, measured with the 1.12 font by `textfit`),
    with "…" where it was cut, and made wire-safe the way every sign line is sent (commas
    and parentheses become ; and brackets), so the scene says exactly what the sign will show.

    [decided here] Cut, never wrapped: a name or a card that wraps would push the next
    line off the sign; the full text is in chat and in `!help`.
    """
    return fit_sign_line(sign_line(text), px)


def name_then(name: str, rest: str, px: int = SIGN_LINE_PX) -> str:
    """`name` followed by `rest` on one line, the name (never `rest`) shortened to make room:
    a 16-letter name keeps its score ("Alexander_S… 12")."""
    return fit_sign_line(name, max(px - text_px(rest), 1)) + rest


def fit_lines(lines: Sequence[str]) -> Lines:
    """Four fitted lines (fewer are padded with blanks, more are dropped)."""
    padded = [*lines[:4], "", "", "", ""]
    return fit(padded[0]), fit(padded[1]), fit(padded[2]), fit(padded[3])


def spread(rows: Sequence[str], signs: int, title: str | None = None) -> list[Lines]:
    """Rows laid out over `signs` signs, four lines each (a `title` heads the first one)."""
    lines = [title, *rows] if title is not None else list(rows)
    return [fit_lines(lines[4 * k : 4 * k + 4]) for k in range(signs)]


# -- legal actions, plain or with ranges ----------------------------------------------------
@runtime_checkable
class RangeEntry(Protocol):
    """A compact legal-list entry: every `first` with `field` from its value to `last` by
    `step` (the core's `ActionRange`; matched by shape so either core works)."""

    first: Action
    field: str
    last: int
    step: int

    def at(self, index: int) -> Action: ...

    def __len__(self) -> int: ...


def _is_range(entry: object) -> bool:
    kind = type(entry)
    shaped = _RANGE_SHAPED.get(kind)
    if shaped is None:  # isinstance on a runtime Protocol looks at every member: once per type
        shaped = _RANGE_SHAPED[kind] = isinstance(entry, RangeEntry)
    return shaped and isinstance(getattr(entry, "first", None), Action)


#: type -> whether its instances have `RangeEntry`'s shape (legal lists hold a few types)
_RANGE_SHAPED: dict[type, bool] = {}


def bounds(entry: RangeEntry) -> tuple[int, int]:
    """(lowest, highest) value of a range entry's field."""
    return int(getattr(entry.first, entry.field)), int(entry.last)


def concrete(legal: Sequence[Action]) -> Iterator[Action]:
    """Every concrete action a legal list stands for, in list order."""
    for entry in legal:
        if _is_range(entry):
            ranged: Any = entry
            yield from (ranged.at(i) for i in range(len(ranged)))
        else:
            yield entry


def is_legal(legal: Sequence[Action], action: Action) -> bool:
    """Whether `action` is in the list, looking into range entries without expanding them."""
    for entry in legal:
        if _is_range(entry):
            ranged: Any = entry
            if type(action) is type(ranged.first):
                value = getattr(action, ranged.field, None)
                lo, hi = bounds(ranged)
                if not isinstance(value, int) or not lo <= value <= hi or (value - lo) % ranged.step:
                    continue
                if ranged.at((value - lo) // ranged.step) == action:
                    return True
        elif entry == action:
            return True
    return False


def ranges(legal: Sequence[Action]) -> list[RangeEntry]:
    """The range entries of a legal list (a menu shows each as one sign, its amount set
    with -1/+1 and `in_range`)."""
    return [entry for entry in legal if _is_range(entry)]  # type: ignore[misc]


def in_range(entry: RangeEntry, value: int) -> Action:
    """The range's action nearest `value` (clamped to its ends, down to its step)."""
    lo, hi = bounds(entry)
    index = (clamp(value, lo, hi) - lo) // entry.step
    return entry.at(min(index, len(entry) - 1))


# -- drafts ---------------------------------------------------------------------------------
def cycle(values: Sequence[T], current: T, step: int = 1) -> T:
    """The value `step` places after `current` in `values`, wrapping (the first one if
    `current` is not among them)."""
    if not values:
        return current
    if current not in values:
        return values[0]
    return values[(list(values).index(current) + step) % len(values)]


def clamp(value: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, value))


# -- paged action menus ---------------------------------------------------------------------
@dataclass(frozen=True)
class More:
    """The "more" slot of a paged menu: page `page` of `pages` is showing."""

    page: int
    pages: int


class Menu(Generic[T]):
    """Items (legal actions) on `slots` sign slots, paged.

    With more items than slots the last slot is a "more" sign that shows the next page
    (wrapping); the page is the booth's own draft, reset with `reset()` when the seat faces
    a new decision. `layout` and `click` take the same item list, so what a click names is
    what the sign showed.
    """

    def __init__(self, slots: int) -> None:
        if slots < 2:
            raise ValueError("a paged menu needs at least two slots")
        self.slots = slots
        self.page = 0

    def reset(self) -> None:
        self.page = 0

    def pages(self, items: Sequence[T]) -> int:
        if len(items) <= self.slots:
            return 1
        return math.ceil(len(items) / (self.slots - 1))

    def layout(self, items: Sequence[T]) -> list[T | More | None]:
        """What each slot shows: an item, the "more" sign, or nothing."""
        pages = self.pages(items)
        if pages == 1:
            return [*items, *([None] * (self.slots - len(items)))]
        per = self.slots - 1
        page = self.page % pages
        shown: list[T | More | None] = list(items[page * per : page * per + per])
        shown += [None] * (per - len(shown))
        return [*shown, More(page + 1, pages)]

    def click(self, items: Sequence[T], slot: int) -> T | None:
        """The item on `slot`; a click on "more" turns the page and names nothing."""
        shown = self.layout(items)
        if not 0 <= slot < len(shown):
            return None
        hit = shown[slot]
        if isinstance(hit, More):
            self.page = (self.page + 1) % self.pages(items)
            return None
        return hit


def menu_lines(text: Texts, shown: Sequence[Any], label: Callable[[Any], Sequence[str]]) -> list[Lines]:
    """Sign texts of a menu's layout: items by `label`, "more" from the shared locale."""
    out = []
    for item in shown:
        if item is None:
            out.append(BLANK)
        elif isinstance(item, More):
            out.append(fit_lines(text.lines("signs.more", page=item.page, pages=item.pages)))
        else:
            out.append(fit_lines(label(item)))
    return out


# -- sign panels ----------------------------------------------------------------------------
def panel_cells(region: Region) -> list[Pos]:
    """A panel's cells in reading order for the player in front of it: top row first, then
    left to right as that player sees them (a panel on a back wall facing north reads with
    x falling; `Region.cells` assumes a viewer looking north)."""
    if region.faces is None:
        raise ValueError("a sign panel needs 'faces'")
    look = region.faces.vector * -1
    right = Pos(-look.z, 0, look.x)  # the viewer's right hand
    return sorted(region.cuboid, key=lambda p: (-p.y, p.x * right.x + p.z * right.z))


def panel_spots(region: Region) -> list[SignSpot]:
    """Each cell of a panel region as a wall sign facing the region's `faces`, in reading order."""
    cells = panel_cells(region)
    assert region.faces is not None
    return [SignSpot(cell, region.faces) for cell in cells]


def panel_targets(region: Region, target: str) -> dict[Pos, tuple[str, int]]:
    """Clickable cells of a panel: cell -> (target, slot in reading order)."""
    return {cell: (target, k) for k, cell in enumerate(panel_cells(region))}


def static_panel(structure: Structure, region: Region) -> None:
    """Blank signs on every cell of a panel (for `arena build` and worldgen)."""
    for spot in panel_spots(region):
        structure.sign(spot)


def fill_panel(scene: Scene, region: Region, texts: Sequence[Lines]) -> None:
    """`texts` on the panel's signs in reading order; the rest blank."""
    spots = panel_spots(region)
    for k, spot in enumerate(spots):
        scene.signs[spot.at] = texts[k] if k < len(texts) else BLANK
        scene.blocks[spot.at] = wall_sign(spot.faces)


def fill_slots(scene: Scene, spots: Sequence[SignSpot], texts: Sequence[Lines]) -> None:
    """`texts` on named sign spots in order (a menu's row); the rest blank."""
    for k, spot in enumerate(spots):
        scene.signs[spot.at] = texts[k] if k < len(texts) else BLANK
        scene.blocks[spot.at] = wall_sign(spot.faces)


# -- memoised scene parts -------------------------------------------------------------------
class PartMemo:
    """Scene parts by slot, rebuilt only when their key changed.

    `part(slot, key, build, faces)` returns the very same `Scene` object as last time while
    `key` is unchanged, so the reconciler skips it without looking inside. `faces` places
    the sign block under every sign text the part writes (world.setSign needs both).
    """

    def __init__(self) -> None:
        self.parts: dict[Hashable, tuple[Hashable, Scene]] = {}

    def part(
        self,
        slot: Hashable,
        key: Hashable,
        build: Callable[[Scene], None],
        faces: Mapping[Pos, Facing],
        booth: int | None = None,
    ) -> Scene:
        """`booth`: the part is that booth's private scene (see `Scene`)."""
        hit = self.parts.get(slot)
        if hit is not None and hit[0] == key:
            return hit[1]
        scene = Scene(booth=booth)
        build(scene)
        for at in scene.signs:
            if at not in scene.blocks:
                scene.blocks[at] = wall_sign(faces[at])
        self.parts[slot] = (key, scene)
        return scene

    def clear(self) -> None:
        self.parts.clear()


def faces_of(spots: Mapping[str, SignSpot] | Sequence[SignSpot]) -> dict[Pos, Facing]:
    values = spots.values() if isinstance(spots, Mapping) else spots
    return {spot.at: spot.faces for spot in values}


# -- whole scenes ---------------------------------------------------------------------------
def table_scene(arena: Arena, board: Scene, per_seat: Callable[[SeatPlan], Sequence[Scene]]) -> Scene:
    """The table's scene: the board (its sign blocks added here) then each seat's parts
    (its public side, its booth), in arena order."""
    for spot in arena.board_signs.values():
        board.blocks[spot.at] = wall_sign(spot.faces)
    parts = [board]
    for seat in arena.seats:
        parts.extend(per_seat(seat))
    return Scene.of_parts(parts)


def lobby_board(
    scene: Scene, arena: Arena, text: Texts, occupants: Sequence[str | None], countdown: int | None
) -> None:
    """The board between matches: the lobby on `status`, every sign but `title` blank."""
    for name, spot in arena.board_signs.items():
        if name != "title":
            scene.signs[spot.at] = BLANK
    scene.signs[arena.board_signs["status"].at] = lobby_lines(text, occupants, countdown)


def player_name(public: Mapping[str, Any], seat: int | None) -> str:
    """A rules seat's player name from a public view ("" for no seat)."""
    return "" if seat is None else str(public["players"][seat])


# -- common signs ---------------------------------------------------------------------------
def join_lines(text: Texts, booth: int, occupant: str | None) -> Lines:
    if occupant:
        return fit_lines(text.lines("signs.join_taken", seat=booth + 1, name=occupant))
    return fit_lines(text.lines("signs.join_free", seat=booth + 1))


def lobby_lines(text: Texts, occupants: Sequence[str | None], countdown: int | None) -> Lines:
    """The status sign between matches: seats taken, and the countdown once enough sit."""
    seated = sum(1 for o in occupants if o)
    key = "signs.waiting" if countdown is None else "signs.lobby"
    return fit_lines(text.lines(key, seated=seated, seats=len(occupants), seconds=countdown))


def time_left(table: Table) -> int | None:
    """Whole seconds the waiting seat(s) have left to act (the soonest deadline), or None
    when nobody but chance is waited for or the phase has no timeout."""
    state = table.state
    if state is None or state.is_over:
        return None
    waiting = [s for s in state.to_act() if s != CHANCE]
    deadlines = [table.deadlines[s] for s in waiting if s in table.deadlines]
    if not deadlines or not all(math.isfinite(d) for d in deadlines):
        return None
    return max(0, math.ceil(min(deadlines) - table.clock()))


def turn_lines(text: Texts, names: Sequence[str], seconds: int | None) -> Lines:
    """The board's "whose turn, time left" sign."""
    padded = [*names[:2], "", ""]
    left = "" if seconds is None else text.t("signs.seconds_left", seconds=seconds)
    return fit_lines(text.lines("signs.turn", a=padded[0], b=padded[1], left=left))
