"""The rules kernel: state machines with no I/O, no clock and no world (DESIGN.md §3)."""

from mcbridge.core.errors import IllegalAction, OptionError
from mcbridge.core.game import CHANCE, Action, Event, Game, Policy, State, play_out
from mcbridge.core.rng import Rng

__all__ = [
    "CHANCE",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "OptionError",
    "Policy",
    "Rng",
    "State",
    "play_out",
]
