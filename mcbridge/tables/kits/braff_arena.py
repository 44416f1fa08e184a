"""Braff's part of the arena schema: each booth's private hand, character and cup signs,
its action signs (discard, cup and stake, raise, call, drop, stand, the two doubts), the
board's pot, meter, doubt and show signs, and the hand panel check.

Declared apart from the kit so that `validate`, `schema` and worldgen need no runtime.
"""

from __future__ import annotations

from mcbridge import games
from mcbridge.core import OptionError
from mcbridge.tables.arena import Arena, ArenaPart
from mcbridge.tables.kits.booth_panels import hand_panel_check, phase_timeouts, static_hand_panel

#: Action signs on the booth's front wall; private signs on its back wall; public outside.
ACTION_SIGNS = ("discard", "cup", "minus", "plus", "raise", "call", "drop", "stand", "fake", "not_enough")
PRIVATE_SIGNS = ("character", "bonuses", "cup_now")
PUBLIC_SIGNS = ("shown",)


def hand_size(arena: Arena) -> int:
    """Cards in a hand (the rules' default unless the arena's options say)."""
    try:
        return int(games.load("braff", arena.game_options()).options["hand_size"])
    except OptionError:  # bad options are reported by the common options check
        return int(arena.options.get("hand_size", 5))


PART = ArenaPart(
    game="braff",
    seat_signs=(*ACTION_SIGNS, *PRIVATE_SIGNS, *PUBLIC_SIGNS),
    seat_regions=("cards",),
    board_signs=("highest", "pot", "turn", "meter", "doubts", "show", "show_more", "standings", "standings_more"),
    timeouts={"discard": 45, "bet": 60, "doubt": 30},
    rules_options=lambda arena: {"timeouts": phase_timeouts(arena)},
    static=static_hand_panel,
    checks=(hand_panel_check(hand_size, "a hand"),),
)
