"""The arena part of a booth's hand panel (a seat region `cards` of wall signs, read in
`signs.panel_cells` order): its blank signs for `arena build` and worldgen, its check (it
faces a side and holds a hand), and the phase timeouts the rules take from the arena."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcbridge.tables.arena import Arena, ArenaCheck, SeatPlan
from mcbridge.tables.kits.signs import static_panel

if TYPE_CHECKING:
    from mcbridge.core.yamlmarks import MarkedYaml
    from mcbridge.tables.layout import Structure


def phase_timeouts(arena: Arena) -> dict[str, int]:
    """The arena's timeouts for its game's timed phases (the rules' `timeouts` option)."""
    return {k: v for k, v in arena.timeouts.items() if k in arena.part.timeouts}


def static_hand_panel(structure: Structure, arena: Arena, seat: SeatPlan) -> None:
    """`ArenaPart.static` for a seat region `cards`: blank signs on every cell."""
    if seat.cards.faces is not None:
        static_panel(structure, seat.cards)


def hand_panel_check(need: Callable[[Arena], int], what: str) -> ArenaCheck:
    """An arena check of the seats' `cards` panel: it faces a side, and has at least
    `need(arena)` cells (`what` says what they are for)."""

    def check(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
        wanted = need(arena)
        reported: set[tuple[Any, ...]] = set()  # a template too small is one problem, not one per seat
        for seat in arena.seats:
            own = arena.raw["seats"][seat.index]
            src: tuple[Any, ...] = ("seats", seat.index, "cards") if "cards" in own else ("seat_template", "cards")
            if src in reported:
                continue
            region = seat.cards
            if region.faces is None:
                reported.add(src)
                problems.append(f"{marked.where(src)}: cards needs 'faces' (the side the seated player reads)")
            elif region.cuboid.volume < wanted:
                reported.add(src)
                problems.append(
                    f"{marked.where(src)}: cards holds {region.cuboid.volume} signs but {what} needs {wanted}; "
                    f"make it at least {wanted} cells"
                )

    return check
