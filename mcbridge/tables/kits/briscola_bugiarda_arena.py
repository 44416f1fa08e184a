"""Briscola bugiarda's part of the arena schema: the hand panel (the seat's eight cards,
one sign each, on the inside of the booth's back wall), the action menu (auction and
trump signs, paged), the public `played` sign, the board signs, and the timed phases.

Declared apart from the kit so that `validate`, `schema` and worldgen need no runtime.
"""

from __future__ import annotations

from typing import Any

from mcbridge.core.yamlmarks import MarkedYaml
from mcbridge.tables.arena import Arena, ArenaPart, SeatPlan
from mcbridge.tables.kits.signs import static_panel
from mcbridge.tables.layout import Structure

HAND = 8  # cards each: 40 cards, five players
MENU_MIN = 5  # pass, solo, a bid, "more": fewer and the auction cannot be shown


def _rules_options(arena: Arena) -> dict[str, Any]:
    t = arena.timeouts
    # the rules name the auction's timeout "bid"; the table keys timeouts by phase
    return {"timeouts": {"bid": t["auction"], "trump": t["trump"], "play": t["play"]}}


def _static(s: Structure, arena: Arena, seat: SeatPlan) -> None:
    static_panel(s, seat.hand)
    static_panel(s, seat.menu)


def _check_panels(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    if not arena.seats:
        return
    seat = arena.seats[0]
    for name, least in (("hand", HAND), ("menu", MENU_MIN)):
        region = seat.regions[name]
        where = marked.where(("seat_template", name))
        if region.faces is None:
            problems.append(f"{where}: {name} needs 'faces' (the side the player reads)")
        if region.cuboid.volume < least:
            problems.append(f"{where}: {name} holds {region.cuboid.volume} signs; make it at least {least} cells")


PART = ArenaPart(
    game="briscola_bugiarda",
    seat_signs=("played",),
    seat_regions=("hand", "menu"),
    board_signs=("auction", "contract", "turn", "trick", "trick2", "chips", "chips2"),
    timeouts={"auction": 45, "trump": 45, "play": 45},
    rules_options=_rules_options,
    static=_static,
    checks=(_check_panels,),
)
