"""Wool Bluff actions and events (rules/wool_bluff.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Self

from mcbridge.core import Action, Event, FirstSeat

#: Colour order used everywhere: display, tie-breaks, serialisation.
COLOURS = ("red", "blue", "yellow", "green", "black", "white")
WILD = "white"

WoolPairs = tuple[tuple[str, int], ...]


def wool_pairs(wool: Mapping[str, int] | WoolPairs) -> WoolPairs:
    """Canonical form of a wool multiset: (colour, count) pairs in COLOURS order, no zeros."""
    counts = dict(wool)
    for colour, count in counts.items():
        if colour not in COLOURS:
            raise ValueError(f"unknown wool colour {colour!r}; colours are {', '.join(COLOURS)}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError(f"wool count for {colour} must be a whole number >= 0, not {count!r}")
    return tuple((c, counts[c]) for c in COLOURS if counts.get(c, 0) > 0)


class _WoolMultiset:
    """Shared by actions that carry wool: canonical pairs, so equal hands compare equal.

    The field is typed as pairs, but a mapping is accepted too (`Deal(0, {"red": 3})`).
    """

    wool: WoolPairs

    def __post_init__(self) -> None:
        object.__setattr__(self, "wool", wool_pairs(self.wool))

    @classmethod
    def canonical(cls, pairs: WoolPairs) -> Self:
        """For pairs the rules built themselves, already canonical: skips the check (and its
        cost) that wool from a player or a journal needs. Only for wool-only actions."""
        action = cls.__new__(cls)
        object.__setattr__(action, "wool", pairs)
        return action

    @property
    def counts(self) -> dict[str, int]:
        return dict(self.wool)

    @property
    def total(self) -> int:
        return sum(n for _, n in self.wool)


# -- chance actions --------------------------------------------------------------------
#: Who predicts first (the core's one "who goes first" chance action).
FirstPredictor = FirstSeat


@dataclass(frozen=True, slots=True)
class Deal(_WoolMultiset, Action):
    seat: int
    wool: WoolPairs

    @classmethod
    def canonical_for(cls, seat: int, pairs: WoolPairs) -> Deal:
        """`canonical` for a deal: the rules' own draw, already in canonical form."""
        action = cls.__new__(cls)
        object.__setattr__(action, "seat", seat)
        object.__setattr__(action, "wool", pairs)
        return action


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """The walls were read. `tampered` lists (seat, wall minus dealt per colour) mismatches;
    an empty tuple means every wall matched (or the match has no walls)."""

    tampered: tuple[tuple[int, WoolPairs], ...] = ()


# -- player actions ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Bid(Action):
    colour: str
    count: int


@dataclass(frozen=True, slots=True)
class Through(Action):
    pass


@dataclass(frozen=True, slots=True)
class Bluff(Action):
    pass


@dataclass(frozen=True, slots=True)
class Discard(_WoolMultiset, Action):
    wool: WoolPairs


ACTION_TYPES: tuple[type[Action], ...] = (FirstSeat, Deal, Reveal, Bid, Through, Bluff, Discard)


# -- events ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FirstPredictorChosen(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    turn: int
    predictor: int


@dataclass(frozen=True, slots=True)
class WoolDealt(Event):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class DiscardRequired(Event):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class WoolDiscarded(Event):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    seat: int
    colour: str
    count: int


@dataclass(frozen=True, slots=True)
class ThroughSaid(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class BluffCalled(Event):
    seat: int
    bidder: int
    colour: str
    count: int


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    colour: str
    count: int
    actual: int
    hands: tuple[WoolPairs, ...]


@dataclass(frozen=True, slots=True)
class TamperReported(Event):
    seat: int
    difference: WoolPairs  # wall minus dealt; negative = missing


@dataclass(frozen=True, slots=True)
class Penalised(Event):
    seat: int
    torches: int
    total: int
    reason: str  # "over" (caller), "under" (predictor), "exact" (everyone else)


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    seat: int
    turn: int
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winners: tuple[int, ...]
    torches: tuple[int, ...]


EVENT_TYPES: tuple[type[Event], ...] = (
    FirstPredictorChosen,
    TurnStarted,
    WoolDealt,
    DiscardRequired,
    WoolDiscarded,
    BidMade,
    ThroughSaid,
    BluffCalled,
    Revealed,
    TamperReported,
    Penalised,
    Eliminated,
    MatchOver,
)
