"""Bribery's part of the arena schema: the hand panel and action signs of each booth, the
board's stake, bets, turn, showdown and standings signs, and the panel checks.

Declared apart from the kit so that `validate`, `schema` and worldgen need no runtime.
"""

from __future__ import annotations

from mcbridge import games
from mcbridge.core import OptionError
from mcbridge.tables.arena import Arena, ArenaPart
from mcbridge.tables.kits.booth_panels import hand_panel_check, phase_timeouts, static_hand_panel

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


PART = ArenaPart(
    game="bribery",
    seat_signs=(*ACTION_SIGNS, *PRIVATE_SIGNS),
    seat_regions=("cards",),
    board_signs=("stake", "bets", "turn", "showdown", "showdown_more", "standings", "standings_more"),
    timeouts={"bet": 60},
    rules_options=lambda arena: {"timeouts": phase_timeouts(arena)},
    static=static_hand_panel,
    checks=(hand_panel_check(card_kinds, "the hand (a sign per luck value and one for informants)"),),
)
