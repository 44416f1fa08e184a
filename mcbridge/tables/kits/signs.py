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
  the very same object otherwise (the reconciler skips it unread); the board's clock
  (`clock_part`) is a part of its own, so a countdown second rebuilds one sign.
* **Memoised texts** (`SignTexts`): a language's texts and fitted sign texts, shared by
  every table in that language.
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
from mcbridge.textfit import FIT_CACHE, SIGN_LINE_PX, fit_sign_line, text_px
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import Pos
from mcbridge.world.sanitize import sign_line

if TYPE_CHECKING:
    from mcbridge.tables.table import Table

T = TypeVar("T")
BLANK: Lines = ("", "", "", "")


# -- sign text ------------------------------------------------------------------------------
@functools.lru_cache(maxsize=FIT_CACHE)  # every sign of every table again after each action: the same few texts
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


#: [decided here] Entries per language and kind: 50 tables of the four games in one
#: language asked for about 12k distinct fitted sign texts (random play, one process); the
#: bound holds that almost three times over, a few MB at most.
TEXT_CACHE = 32768


class SignTexts:
    """A locale's texts memoised for renders: `t`, `lines`, and `sign` (four lines fitted to
    a sign, what a render writes). One per language, shared by every table in it
    (`sign_texts`): a table renders the same few hundred texts again and again, and so do
    its neighbours."""

    def __init__(self, text: Texts, size: int = TEXT_CACHE) -> None:
        self.t = functools.lru_cache(maxsize=size)(text.t)
        self.lines = functools.lru_cache(maxsize=size)(text.lines)
        self.sign = functools.lru_cache(maxsize=size)(self._sign)

    def _sign(self, key: str, **fields: Any) -> Lines:
        return fit_lines(self.lines(key, **fields))


#: id(locale) -> (the locale, its shared SignTexts); the locale is held so its id is never reused
_SHARED_TEXTS: dict[int, tuple[Texts, SignTexts]] = {}


def sign_texts(text: Texts) -> SignTexts:
    """The shared `SignTexts` of a locale (`text` itself if it already is one)."""
    if isinstance(text, SignTexts):
        return text
    hit = _SHARED_TEXTS.get(id(text))
    if hit is None:
        if len(_SHARED_TEXTS) >= 64:  # locales are made once per language; tests make more
            _SHARED_TEXTS.clear()
        hit = _SHARED_TEXTS[id(text)] = (text, SignTexts(text))
    return hit[1]


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
            out.append(sign_texts(text).sign("signs.more", page=item.page, pages=item.pages))
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


@functools.lru_cache(maxsize=1024)  # an arena's few panels, asked on every render: computed once each
def panel_spots(region: Region) -> tuple[SignSpot, ...]:
    """Each cell of a panel region as a wall sign facing the region's `faces`, in reading order."""
    cells = panel_cells(region)
    assert region.faces is not None
    return tuple(SignSpot(cell, region.faces) for cell in cells)


def panel_targets(region: Region, target: str) -> dict[Pos, tuple[str, int]]:
    """Clickable cells of a panel: cell -> (target, slot in reading order)."""
    return {cell: (target, k) for k, cell in enumerate(panel_cells(region))}


def static_panel(structure: Structure, region: Region) -> None:
    """Blank signs on every cell of a panel (for `arena build` and worldgen)."""
    for spot in panel_spots(region):
        structure.sign(spot)


def fill_panel(scene: Scene, region: Region, texts: Sequence[Lines]) -> None:
    """`texts` on the panel's signs in reading order; the rest blank."""
    fill_slots(scene, panel_spots(region), texts)


def fill_slots(scene: Scene, spots: Sequence[SignSpot], texts: Sequence[Lines]) -> None:
    """`texts` on named sign spots in order (a menu's row); the rest blank."""
    for k, spot in enumerate(spots):
        scene.signs[spot.at] = texts[k] if k < len(texts) else BLANK
        scene.blocks[spot.at] = wall_sign(spot.faces)


# -- memoised scene parts -------------------------------------------------------------------
class PartMemo:
    """Scene parts by slot, rebuilt only when their key changed.

    `part(slot, key, build, arena)` returns the very same `Scene` object as last time while
    `key` is unchanged, so the reconciler skips it without looking inside. The arena's
    named signs (board and booths) give the sign block under every sign text the part
    writes without one (world.setSign needs both); panels place their own.

    A key must name everything its part shows: a part whose key misses an input shows
    stale text (tests/tables/test_kit_part_render.py changes each input alone).
    """

    def __init__(self) -> None:
        self.parts: dict[Hashable, tuple[Hashable, Scene]] = {}
        self._derived: dict[Hashable, tuple[object, Any]] = {}
        self._arena: Arena | None = None
        self._sign_blocks: dict[Pos, Block] = {}

    def part(
        self,
        slot: Hashable,
        key: Hashable,
        build: Callable[[Scene], None],
        arena: Arena,
        booth: int | None = None,
    ) -> Scene:
        """`booth`: the part is that booth's private scene (see `Scene`)."""
        hit = self.parts.get(slot)
        if hit is not None and hit[0] == key:
            return hit[1]
        scene = Scene(booth=booth)
        build(scene)
        blocks = self.sign_blocks(arena)
        for at in scene.signs:
            if at not in scene.blocks:
                scene.blocks[at] = blocks[at]
        self.parts[slot] = (key, scene)
        return scene

    def derived(self, slot: Hashable, source: object, compute: Callable[[], T]) -> T:
        """`compute()` once per `source` object (a rules view, which the table keeps while
        the match has not moved): a part key taken from a view costs nothing on the renders
        for a countdown or a draft. The source is held, so its identity is never reused."""
        hit = self._derived.get(slot)
        if hit is not None and hit[0] is source:
            return hit[1]
        value = compute()
        self._derived[slot] = (source, value)
        return value

    def view_key(
        self, slot: Hashable, view: Mapping[str, Any] | None, fields: Sequence[str] | None = None
    ) -> str | None:
        """A part key for what a rules view shows (its `fields`, or all of it): its text,
        taken once per view object (`derived`). Text, not the values, because `0 == False`:
        seat 0 going all in must not read as nobody all in. None for no view."""
        if view is None:
            return None
        if fields is None:
            return self.derived(slot, view, lambda: repr(view))
        return self.derived(slot, view, lambda: repr([view.get(k) for k in fields]))

    def sign_blocks(self, arena: Arena) -> dict[Pos, Block]:
        """The wall sign block of every named sign of `arena` (board and booths), once per arena."""
        if arena is not self._arena:
            spots = [*arena.board_signs.values(), *(spot for seat in arena.seats for spot in seat.signs.values())]
            self._arena, self._sign_blocks = arena, {spot.at: wall_sign(spot.faces) for spot in spots}
        return self._sign_blocks

    def clear(self) -> None:
        self.parts.clear()
        self._derived.clear()


# -- whole scenes ---------------------------------------------------------------------------
def table_scene(arena: Arena, board: Sequence[Scene], per_seat: Callable[[SeatPlan], Sequence[Scene]]) -> Scene:
    """The table's scene: the board's parts, then each seat's parts (its public side, its
    booth), in arena order."""
    parts = list(board)
    for seat in arena.seats:
        parts.extend(per_seat(seat))
    return Scene.of_parts(parts)


def board_part(
    memo: PartMemo,
    arena: Arena,
    text: SignTexts,
    title: str,
    public: Mapping[str, Any] | None,
    occupants: Sequence[str | None],
    countdown: int | None,
    draw: Callable[[Scene, Mapping[str, Any]], None],
    fields: Sequence[str] | None = None,
) -> Scene:
    """The board but its clock (`clock_part`): the `title` sign (with the arena's name), then
    the lobby (no view yet) or what `draw` puts up from the public view. Rebuilt only when
    the view's `fields` (all of it by default), the occupants or the lobby countdown change."""
    key = (memo.view_key("board", public, fields), tuple(occupants), countdown if public is None else None)

    def build(scene: Scene) -> None:
        blocks = memo.sign_blocks(arena)
        for name, spot in arena.board_signs.items():
            if name != CLOCK_SIGN:
                scene.blocks[spot.at] = blocks[spot.at]
        scene.signs[arena.board_signs["title"].at] = text.sign(title, arena=arena.name)
        if public is None:
            lobby_board(scene, arena, text, occupants, countdown)
        else:
            draw(scene, public)

    return memo.part("board", key, build, arena)


class BoardFrame(Protocol):
    """What `frame_render` reads of a kit's frame (the rest is the kit's own)."""

    @property
    def public(self) -> Mapping[str, Any] | None: ...
    @property
    def occupants(self) -> Sequence[str | None]: ...
    @property
    def countdown(self) -> int | None: ...
    @property
    def seconds(self) -> int | None: ...


FrameT = TypeVar("FrameT", bound=BoardFrame)
SeatPart = Callable[["PartMemo", Arena, SeatPlan, "SignTexts", FrameT], Scene]


def frame_render(
    arena: Arena,
    texts: Texts,
    frame: FrameT,
    memo: PartMemo,
    prefix: str,
    draw_board: Callable[[Scene, Arena, SignTexts, Mapping[str, Any]], None],
    seat_public: SeatPart[FrameT],
    booth: SeatPart[FrameT],
) -> Scene:
    """The scene of a table whose board is its title (`prefix` + "title"), what `draw_board`
    puts up and the clock, and whose seats each show `seat_public` outside and `booth`
    inside: the render of Dice Bluff and Briscola bugiarda."""
    text = sign_texts(texts)
    board = board_part(memo, arena, text, prefix + "title", frame.public, frame.occupants, frame.countdown,
                       lambda scene, public: draw_board(scene, arena, text, public))
    clock = clock_part(memo, arena, text, frame.public, frame.seconds)
    return table_scene(
        arena, (board, clock),
        lambda seat: (seat_public(memo, arena, seat, text, frame), booth(memo, arena, seat, text, frame)),
    )


#: the board sign with whose turn it is and the seconds left: a part of its own
CLOCK_SIGN = "turn"


def clock_part(
    memo: PartMemo,
    arena: Arena,
    text: Texts,
    public: Mapping[str, Any] | None,
    seconds: int | None,
    blank_over: bool = False,
) -> Scene:
    """The board's turn sign alone (`turn_lines`): the one part a render rebuilds when only
    the countdown moved. Blank in the lobby, and once the match is over if `blank_over`."""
    at = arena.board_signs[CLOCK_SIGN].at
    names = None
    if public is not None and not (blank_over and public["phase"] == "over"):
        names = tuple(player_name(public, s) for s in public["to_act"] if s >= 0)

    def build(scene: Scene) -> None:
        scene.signs[at] = BLANK if names is None else turn_lines(text, names, seconds)

    return memo.part("clock", (names, seconds), build, arena)


def lobby_board(
    scene: Scene, arena: Arena, text: Texts, occupants: Sequence[str | None], countdown: int | None
) -> None:
    """The board between matches: the lobby on `status`, every sign but `title` (and the
    clock, its own part) blank."""
    for name, spot in arena.board_signs.items():
        if name not in ("title", CLOCK_SIGN):
            scene.signs[spot.at] = BLANK
    scene.signs[arena.board_signs["status"].at] = lobby_lines(text, occupants, countdown)


def player_name(public: Mapping[str, Any], seat: int | None) -> str:
    """A rules seat's player name from a public view ("" for no seat)."""
    return "" if seat is None else str(public["players"][seat])


# -- common signs ---------------------------------------------------------------------------
def join_lines(text: SignTexts, booth: int, occupant: str | None) -> Lines:
    if occupant:
        return text.sign("signs.join_taken", seat=booth + 1, name=occupant)
    return text.sign("signs.join_free", seat=booth + 1)


def lobby_lines(text: Texts, occupants: Sequence[str | None], countdown: int | None) -> Lines:
    """The status sign between matches: seats taken, and the countdown once enough sit."""
    seated = sum(1 for o in occupants if o)
    key = "signs.waiting" if countdown is None else "signs.lobby"
    return sign_texts(text).sign(key, seated=seated, seats=len(occupants), seconds=countdown)


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
    text = sign_texts(text)
    left = "" if seconds is None else text.t("signs.seconds_left", seconds=seconds)
    return text.sign("signs.turn", a=padded[0], b=padded[1], left=left)
