"""Briscola bugiarda, the 5-player called Briscola with a hidden partner (rules/briscola_bugiarda.md)."""

from mcbridge.games.briscola_bugiarda.actions import Bid, CallTrump, FirstDealer, Pass, Play, Shuffle, Solo
from mcbridge.games.briscola_bugiarda.bot import BriscolaBot
from mcbridge.games.briscola_bugiarda.cards import DECK, POINTS, RANKS, SUITS, card, trick_winner
from mcbridge.games.briscola_bugiarda.game import BriscolaBugiarda
from mcbridge.games.briscola_bugiarda.rules import BriscolaState

GAME_CLASS = BriscolaBugiarda

__all__ = [
    "DECK",
    "GAME_CLASS",
    "POINTS",
    "RANKS",
    "SUITS",
    "Bid",
    "BriscolaBot",
    "BriscolaBugiarda",
    "BriscolaState",
    "CallTrump",
    "FirstDealer",
    "Pass",
    "Play",
    "Shuffle",
    "Solo",
    "card",
    "trick_winner",
]
