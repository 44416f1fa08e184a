"""The rules kernel: state machines with no I/O, no clock and no world (DESIGN.md §3)."""

from mcbridge.core.errors import BadState, IllegalAction, OptionError
from mcbridge.core.game import CHANCE, Action, Event, FirstSeat, Game, Policy, State, play_out
from mcbridge.core.result import Result, Standing, ViewHeader, ranked
from mcbridge.core.rng import Rng

__all__ = [
    "CHANCE",
    "Action",
    "BadState",
    "Event",
    "FirstSeat",
    "Game",
    "IllegalAction",
    "OptionError",
    "Policy",
    "Result",
    "Rng",
    "Standing",
    "State",
    "ViewHeader",
    "play_out",
    "ranked",
]
