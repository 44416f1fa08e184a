"""Bribery's part of the arena schema: the hand panel and action signs of each booth, the
board's stake, bets, turn, showdown and standings signs, and the panel checks.

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

#: Action signs on the booth's front wall, then the private signs on its back wall.
ACTION_SIGNS = ("raise", "call", "allin", "fold", "pass", "pass_informant", "clear")
PRIVATE_SIGNS = ("played", "picked")


def luck_values(arena: Arena) -> list[int]:
    """The arena's luck card values, ascending (the rules' defaults unless its options say)."""
    try:
        values = games.load("bribery", arena.game_options()).options["luck_values"]
    except OptionError:  # bad options are reported by the common options check
        values = arena.options.get("luck_values", [])
    return sorted(int(v) for v in values)


def card_kinds(arena: Arena) -> int:
    """One hand sign per luck value, plus one for informants."""
    return len(luck_values(arena)) + 1


def _rules_options(arena: Arena) -> dict[str, Any]:
    return {"timeouts": {k: v for k, v in arena.timeouts.items() if k in PART.timeouts}}


def _static(s: Structure, arena: Arena, seat: SeatPlan) -> None:
    if seat.cards.faces is not None:
        static_panel(s, seat.cards)


def _check_cards(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    """The hand panel: a sign per card value, and a side to be read from."""
    need = card_kinds(arena)
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
                f"{marked.where(src)}: cards holds {region.cuboid.volume} signs but the hand needs {need} "
                f"(one per luck value and one for informants); make it at least {need} cells"
            )


PART = ArenaPart(
    game="bribery",
    seat_signs=(*ACTION_SIGNS, *PRIVATE_SIGNS),
    seat_regions=("cards",),
    board_signs=("stake", "bets", "turn", "showdown", "showdown_more", "standings", "standings_more"),
    timeouts={"bet": 60},
    rules_options=_rules_options,
    static=_static,
    checks=(_check_cards,),
)
