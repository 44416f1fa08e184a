"""Bribery: the poker-like influencer auction of seed 004 (rules/bribery.md)."""

from mcbridge.games.bribery.actions import (
    INFORMANT,
    AllIn,
    ArrangeInfluencers,
    Call,
    FirstStarter,
    Fold,
    Pass,
    Raise,
    Shuffle,
)
from mcbridge.games.bribery.bot import BriberyBot
from mcbridge.games.bribery.game import Bribery
from mcbridge.games.bribery.rules import BriberyState

GAME_CLASS = Bribery

__all__ = [
    "GAME_CLASS",
    "INFORMANT",
    "AllIn",
    "ArrangeInfluencers",
    "Bribery",
    "BriberyBot",
    "BriberyState",
    "Call",
    "FirstStarter",
    "Fold",
    "Pass",
    "Raise",
    "Shuffle",
]
