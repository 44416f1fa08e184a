"""Braff's part of the arena schema: each booth's private hand, character and cup signs,
its action signs (discard, cup and stake, raise, call, drop, stand, the two doubts), the
board's pot, meter, doubt and show signs, and the hand panel check.

Declared apart from the kit so that `validate`, `schema` and worldgen need no runtime.
"""

from __future__ import annotations

from typing import Any

from mcbridge import games
from mcbridge.core import OptionError
from mcbridge.core.yamlmarks import MarkedYaml
from mcbridge.tables.arena import Arena, ArenaPart, SeatPlan
from mcbridge.tables.kits.signs import static_panel
from mcbridge.tables.layout import Structure

#: Action signs on the booth's front wall; private signs on its back wall; public outside.
ACTION_SIGNS = ("discard", "cup", "minus", "plus", "raise", "call", "drop", "stand", "fake", "not_enough")
PRIVATE_SIGNS = ("character", "bonuses", "cup_now")
PUBLIC_SIGNS = ("shown",)


def hand_size(arena: Arena) -> int:
    try:
        return int(games.load("braff", arena.game_options()).options["hand_size"])
    except OptionError:  # bad options are reported by the common options check
        return int(arena.options.get("hand_size", 5))


def _rules_options(arena: Arena) -> dict[str, Any]:
    return {"timeouts": {k: v for k, v in arena.timeouts.items() if k in PART.timeouts}}


def _static(s: Structure, arena: Arena, seat: SeatPlan) -> None:
    if seat.cards.faces is not None:
        static_panel(s, seat.cards)


def _check_cards(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    """The hand panel: a sign per card of a hand, and a side to be read from."""
    need = hand_size(arena)
    reported: set[Any] = set()
    for seat in arena.seats:
        own = arena.raw["seats"][seat.index]
        src: tuple[Any, ...] = ("seats", seat.index, "cards") if "cards" in own else ("seat_template", "cards")
        if src in reported:
            continue
        region = seat.cards
        if region.faces is None:
            reported.add(src)
            problems.append(f"{marked.where(src)}: cards needs 'faces' (the side the seated player reads)")
        elif region.cuboid.volume < need:
            reported.add(src)
            problems.append(
                f"{marked.where(src)}: cards holds {region.cuboid.volume} signs but a hand is {need} cards; "
                f"make it at least {need} cells"
            )


PART = ArenaPart(
    game="braff",
    seat_signs=(*ACTION_SIGNS, *PRIVATE_SIGNS, *PUBLIC_SIGNS),
    seat_regions=("cards",),
    board_signs=("highest", "pot", "turn", "meter", "doubts", "show", "show_more", "standings", "standings_more"),
    timeouts={"discard": 45, "bet": 60, "doubt": 30},
    rules_options=_rules_options,
    static=_static,
    checks=(_check_cards,),
)
