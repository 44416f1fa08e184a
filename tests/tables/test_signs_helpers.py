"""The shared sign-table helpers: fitted text, legal lists with ranges, paged menus."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from mcbridge.core import Action
from mcbridge.tables.arena import Region
from mcbridge.tables.kits.signs import (
    Menu,
    More,
    concrete,
    cycle,
    fit,
    fit_lines,
    in_range,
    is_legal,
    panel_cells,
    panel_spots,
    panel_targets,
    ranges,
    spread,
)
from mcbridge.textfit import SIGN_LINE_PX, text_px
from mcbridge.world.geometry import Cuboid, Facing, Pos
from mcbridge.world.sanitize import sign_line


@dataclass(frozen=True)
class Raise(Action):
    cup: str
    stake: int


@dataclass(frozen=True)
class Fold(Action):
    pass


@dataclass(frozen=True)
class Span(Action):
    """The shape of the core's ActionRange (branch core), defined here so the helpers are
    tested against the shape whichever core is installed."""

    first: Action
    field: str
    last: int
    step: int = 1

    def __len__(self) -> int:
        return (self.last - getattr(self.first, self.field)) // self.step + 1

    def at(self, index: int) -> Action:
        return dataclasses.replace(self.first, **{self.field: getattr(self.first, self.field) + index * self.step})

    def __iter__(self) -> Iterator[Action]:
        return (self.at(i) for i in range(len(self)))


@given(st.text(max_size=40))
def test_fit_never_exceeds_a_line_and_keeps_what_fits(text: str) -> None:
    cut = fit(text)
    sent = sign_line(text)  # what the wire would make of it anyway
    assert text_px(cut) <= SIGN_LINE_PX
    assert cut == sent or cut.endswith("…")
    assert sent.startswith(cut.removesuffix("…"))
    assert not set(cut) & set(",()\n")


def test_japanese_is_wider_than_latin() -> None:
    assert fit("a" * 15) == "a" * 15  # 6 px each: 90 px
    assert fit("あ" * 10) == "あ" * 10  # 9 px each: 90 px
    assert fit("あ" * 11) != "あ" * 11
    assert fit("i" * 30) == "i" * 30  # 2 px each: narrow letters are not counted as wide ones
    assert fit_lines(["x"]) == ("x", "", "", "")


def test_spread_puts_a_title_and_rows_over_signs() -> None:
    first, second = spread(["r1", "r2", "r3", "r4", "r5"], 2, title="T")
    assert first == ("T", "r1", "r2", "r3") and second == ("r4", "r5", "", "")


@given(st.integers(1, 5), st.integers(0, 40), st.integers(1, 4), st.integers(2, 30))
def test_a_range_entry_is_legal_exactly_for_its_concrete_actions(lo: int, span: int, step: int, probe: int) -> None:
    legal: list[Action] = [Fold(), Span(Raise("C", lo), "stake", lo + span, step)]
    listed = list(concrete(legal))
    assert listed[0] == Fold() and all(isinstance(a, Raise) for a in listed[1:])
    assert [a.stake for a in listed[1:]] == list(range(lo, lo + span + 1, step))  # type: ignore[attr-defined]
    for action in (Raise("C", probe), Raise("D", probe), Fold()):
        assert is_legal(legal, action) == (action in listed)
    [entry] = ranges(legal)
    assert in_range(entry, probe) in listed
    assert in_range(entry, -5) == listed[1]


@given(st.integers(0, 30), st.integers(2, 8))
def test_a_menu_shows_every_item_once_over_its_pages(n: int, slots: int) -> None:
    items = [f"a{k}" for k in range(n)]
    menu = Menu[str](slots)
    seen: list[str] = []
    more_slots = []
    for _ in range(menu.pages(items)):
        shown = menu.layout(items)
        assert len(shown) == slots
        seen += [s for s in shown if isinstance(s, str)]
        for k, s in enumerate(shown):
            if isinstance(s, str):
                assert menu.click(items, k) == s  # a click names what the sign shows
        more = [k for k, s in enumerate(shown) if isinstance(s, More)]
        more_slots += more
        if more:
            assert menu.click(items, more[0]) is None
    assert seen == items
    assert all(k == slots - 1 for k in more_slots)
    assert menu.layout(items) == Menu[str](slots).layout(items)  # back on the first page


def test_cycle_wraps_and_recovers_from_an_unknown_value() -> None:
    assert cycle([1, 2, 3], 3) == 1 and cycle([1, 2, 3], 1, -1) == 3 and cycle([1, 2, 3], 9) == 1


def test_a_panel_reads_left_to_right_for_the_player_in_front_of_it() -> None:
    box = Cuboid(Pos(2, 3, 12), Pos(4, 4, 12))
    north = panel_cells(Region(box, Facing.NORTH))  # on a back wall, read facing south: x falls
    south = panel_cells(Region(box, Facing.SOUTH))  # read facing north: x rises
    assert north[:3] == [Pos(4, 4, 12), Pos(3, 4, 12), Pos(2, 4, 12)] and north[3] == Pos(4, 3, 12)
    assert south[:3] == [Pos(2, 4, 12), Pos(3, 4, 12), Pos(4, 4, 12)]
    side = panel_cells(Region(Cuboid(Pos(6, 2, 10), Pos(6, 2, 12)), Facing.WEST))  # read facing east: z rises
    assert side == [Pos(6, 2, 10), Pos(6, 2, 11), Pos(6, 2, 12)]
    assert [s.at for s in panel_spots(Region(box, Facing.NORTH))] == north
    assert panel_targets(Region(box, Facing.NORTH), "card")[Pos(4, 4, 12)] == ("card", 0)
