"""Braff (ブラふ), the cup-size poker bluff (rules/braff.md)."""

from mcbridge.games.braff.actions import (
    DOUBT_KINDS,
    AllIn,
    Call,
    Discard,
    Doubt,
    Drop,
    FirstDealer,
    Raise,
    Shuffle,
    Stand,
)
from mcbridge.games.braff.bot import BraffBot
from mcbridge.games.braff.cards import COLOURS, Character, cup_label, cup_ordinal
from mcbridge.games.braff.game import Braff
from mcbridge.games.braff.rules import BraffState

GAME_CLASS = Braff

__all__ = [
    "COLOURS",
    "DOUBT_KINDS",
    "GAME_CLASS",
    "AllIn",
    "Braff",
    "BraffBot",
    "BraffState",
    "Call",
    "Character",
    "Discard",
    "Doubt",
    "Drop",
    "FirstDealer",
    "Raise",
    "Shuffle",
    "Stand",
    "cup_label",
    "cup_ordinal",
]
