"""Wool Bluff, the headline game (rules/wool_bluff.md)."""

from mcbridge.games.wool_bluff.actions import (
    COLOURS,
    WILD,
    Bid,
    Bluff,
    Deal,
    Discard,
    FirstPredictor,
    Reveal,
    Through,
)
from mcbridge.games.wool_bluff.bot import WoolBluffBot
from mcbridge.games.wool_bluff.game import WoolBluff
from mcbridge.games.wool_bluff.rules import WoolBluffState, count_for

GAME_CLASS = WoolBluff

__all__ = [
    "COLOURS",
    "GAME_CLASS",
    "WILD",
    "Bid",
    "Bluff",
    "Deal",
    "Discard",
    "FirstPredictor",
    "Reveal",
    "Through",
    "WoolBluff",
    "WoolBluffBot",
    "WoolBluffState",
    "count_for",
]
