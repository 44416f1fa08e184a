"""Dice Bluff actions and events (rules/dice_bluff.md).

Dice faces are 1..6. One face is wild (`wild_face`): the star of Bluff (in place of the 6,
or of the 1 in the Tsukuda edition) or the paco (the 1) of Perudo. A bid on the wild face
is a star (wild) bid: only wild dice count for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from mcbridge.core import Action, Event, FirstSeat

_T = TypeVar("_T", Action, Event)

FACES = (1, 2, 3, 4, 5, 6)
Dice = tuple[int, ...]


def sorted_dice(dice: Dice | list[int]) -> Dice:
    return tuple(sorted(int(d) for d in dice))


# -- chance actions --------------------------------------------------------------------
#: Who opens round 1: chosen at random [decided here: the spec names no first opener].
FirstOpener = FirstSeat


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """One seat rolls all its dice in secret at the start of a round."""

    seat: int
    dice: Dice


@dataclass(frozen=True, slots=True)
class Reroll(Action):
    """The dice still under the cup after a set-aside, rolled again in secret."""

    seat: int
    dice: Dice


# -- player actions ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Bid(Action):
    """`count` dice show `face`; face == the wild face makes it a star (wild) bid."""

    count: int
    face: int


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    pass


@dataclass(frozen=True, slots=True)
class SetAside(Action):
    """Put these faces from under the cup out in the open, re-roll the rest, then raise.

    The dice are a multiset: any order is accepted and kept sorted, so an action `apply`
    accepts always equals the one `legal_actions` lists (and journals one spelling). Dice
    that are not all whole numbers are kept as given, for `apply` to refuse by name."""

    dice: Dice

    def __post_init__(self) -> None:
        dice = self.dice
        if isinstance(dice, tuple | list) and all(type(d) is int for d in dice):
            object.__setattr__(self, "dice", tuple(sorted(dice)))


ACTION_TYPES: tuple[type[Action], ...] = (FirstSeat, Roll, Reroll, Bid, Challenge, SetAside)


# -- events ------------------------------------------------------------------------------
# `face` in events is text: "1".."6" for a number bid, "star" (Bluff) or "paco" (Perudo)
# for a wild bid, so a log line can name it through the locale key dice_bluff.face.<face>.
@dataclass(frozen=True, slots=True)
class FirstOpenerChosen(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    seat: int  # the opener
    dice_in_play: int


@dataclass(frozen=True, slots=True)
class PalificoStarted(Event):
    """Perudo: wilds are not wild this round and the opening bid fixes the face."""

    seat: int


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class DiceSetAside(Event):
    seat: int
    dice: Dice  # public from now on
    rerolled: int


@dataclass(frozen=True, slots=True)
class DiceRerolled(Event):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    seat: int
    count: int
    face: str


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    seat: int
    bidder: int
    count: int
    face: str


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    count: int
    face: str
    actual: int
    dice: tuple[Dice, ...]  # per seat, cup and set-aside together; () for a seat that is out


@dataclass(frozen=True, slots=True)
class DiceLost(Event):
    seat: int
    lost: int
    left: int
    reason: str  # "under" (bidder), "over" (challenger), "exact"


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    seat: int
    round: int


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winners: tuple[int, ...]
    dice: tuple[int, ...]


EVENT_TYPES: tuple[type[Event], ...] = (
    FirstOpenerChosen,
    RoundStarted,
    PalificoStarted,
    DiceRolled,
    DiceSetAside,
    DiceRerolled,
    BidMade,
    Challenged,
    Revealed,
    DiceLost,
    Eliminated,
    MatchOver,
)


def shared(cls: Callable[..., _T], size: int = 4096) -> Callable[..., _T]:
    """`cls(...)`, one object per distinct value: actions and events are immutable values and
    most recur match after match (seat 2 rolls five dice, seat 0 bids two 4s), so a lookup
    (about 1,600 instructions) replaces building a frozen dataclass (about 7,700 for a
    four-field event, under valgrind). [decided here] Only for values the rules built themselves from checked ints and
    strs: a memo key does not tell True from 1, so never for what a caller handed in."""
    return lru_cache(maxsize=size)(cls)
