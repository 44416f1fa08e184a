"""Dice Bluff: Richard Borg's Bluff / Liar's Dice, with a Perudo ruleset (rules/dice_bluff.md)."""

from mcbridge.games.dice_bluff.actions import (
    FACES,
    Bid,
    Challenge,
    FirstOpener,
    Reroll,
    Roll,
    SetAside,
)
from mcbridge.games.dice_bluff.bot import DiceBluffBot
from mcbridge.games.dice_bluff.game import DiceBluff
from mcbridge.games.dice_bluff.ladder import bid_key, legal_bids, matching
from mcbridge.games.dice_bluff.options import DiceRules, resolve_rules
from mcbridge.games.dice_bluff.rules import DiceBluffState

GAME_CLASS = DiceBluff

__all__ = [
    "FACES",
    "GAME_CLASS",
    "Bid",
    "Challenge",
    "DiceBluff",
    "DiceBluffBot",
    "DiceBluffState",
    "DiceRules",
    "FirstOpener",
    "Reroll",
    "Roll",
    "SetAside",
    "bid_key",
    "legal_bids",
    "matching",
    "resolve_rules",
]
