"""Dice Bluff's part of the arena schema: the cup panel (the dice under the seat's cup, as
signs on the inside of the booth's back wall), the bid signs, the public set-aside sign,
the board signs, and the timed phase.

Declared apart from the kit so that `validate`, `schema` and worldgen need no runtime.
"""

from __future__ import annotations

from typing import Any

from mcbridge.core.options import Choice
from mcbridge.core.yamlmarks import MarkedYaml
from mcbridge.tables.arena import Arena, ArenaPart, SeatPlan
from mcbridge.tables.kits.signs import static_panel
from mcbridge.tables.layout import Structure


def _rules_options(arena: Arena) -> dict[str, Any]:
    return {
        "ruleset": arena.setting("ruleset"),
        "max_players": max(len(arena.seats), 2),
        "timeouts": {k: v for k, v in arena.timeouts.items() if k in PART.timeouts},
    }


def _static(s: Structure, arena: Arena, seat: SeatPlan) -> None:
    static_panel(s, seat.cup)


def _check_cup(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    """A cup panel with a sign for every die a seat can hold, facing into the booth."""
    dice = int(arena.game_options().get("dice_per_player", 5))
    cup = arena.seats[0].cup if arena.seats else None
    if cup is None:
        return
    if cup.faces is None:
        problems.append(f"{marked.where(('seat_template', 'cup'))}: cup needs 'faces' (the side the player reads)")
    if cup.cuboid.volume < dice:
        problems.append(
            f"{marked.where(('seat_template', 'cup'))}: cup holds {cup.cuboid.volume} signs but a seat has "
            f"{dice} dice; make it at least {dice} cells"
        )


PART = ArenaPart(
    game="dice_bluff",
    seat_signs=("face", "minus", "bid", "plus", "challenge", "aside", "shown"),
    seat_regions=("cup",),
    board_signs=("bid", "turn", "dice", "dice2", "last", "standings", "standings2"),
    timeouts={"bid": 60},
    # [decided here] the ruleset is a setting of the game's section, not an `options` entry:
    # arena `options` take whole numbers only (mcbridge/tables/config.py)
    settings={"ruleset": Choice("bluff", "perudo")},
    defaults={"ruleset": "bluff"},
    rules_options=_rules_options,
    static=_static,
    checks=(_check_cup,),
)
