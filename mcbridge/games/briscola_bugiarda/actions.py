"""Briscola bugiarda actions and events (rules/briscola_bugiarda.md).

Cards are codes ("Ac", "3d"); events that show a card also carry its rank and suit so a
locale can name them. No event says who the partner is before the called card is played.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcbridge.core import Action, Event, FirstSeat
from mcbridge.games.briscola_bugiarda.cards import DECK

# -- chance actions --------------------------------------------------------------------
#: Who deals first. (the core's one "who goes first" chance action)
FirstDealer = FirstSeat


@dataclass(frozen=True, slots=True)
class Shuffle(Action):
    """The pack in shuffled order: seat s gets cards[8s:8s+8]."""

    cards: tuple[str, ...]


# -- player actions ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Bid(Action):
    rank: str


@dataclass(frozen=True, slots=True)
class Solo(Action):
    """Bid solo: the auction ends at once; no trump, no partner."""


@dataclass(frozen=True, slots=True)
class Pass(Action):
    pass


@dataclass(frozen=True, slots=True)
class CallTrump(Action):
    suit: str


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: str


#: The Play of each card, built once (legal lists and the bot hand these out by the thousand).
PLAY_OF = {c: Play(c) for c in DECK}

ACTION_TYPES: tuple[type[Action], ...] = (FirstSeat, Shuffle, Bid, Solo, Pass, CallTrump, Play)


# -- events ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FirstDealerChosen(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    deal: int
    seat: int  # the dealer


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    cards_each: int


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    seat: int
    rank: str


@dataclass(frozen=True, slots=True)
class SoloBid(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class MustBid(Event):
    """Everyone else passed before any bid: this seat must bid a rank or solo."""

    seat: int


@dataclass(frozen=True, slots=True)
class DeclarerChosen(Event):
    seat: int
    rank: str


@dataclass(frozen=True, slots=True)
class TrumpCalled(Event):
    seat: int
    suit: str
    rank: str
    card: str


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: str
    rank: str
    suit: str


@dataclass(frozen=True, slots=True)
class PartnerRevealed(Event):
    partner: int
    card: str


@dataclass(frozen=True, slots=True)
class HiddenSoloRevealed(Event):
    seat: int  # the declarer, who called their own card
    card: str


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    winner: int
    trick: int
    points: int


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    seat: int  # the declarer
    points: int  # card points of the declarer's side
    unit: int
    outcome: str  # "won" | "lost"
    side: str  # "partner" | "solo" | "hidden_solo"


@dataclass(frozen=True, slots=True)
class ChipsChanged(Event):
    seat: int
    amount: int
    total: int


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winners: tuple[int, ...]
    chips: tuple[int, ...]


EVENT_TYPES: tuple[type[Event], ...] = (
    FirstDealerChosen,
    DealStarted,
    Dealt,
    BidMade,
    SoloBid,
    Passed,
    MustBid,
    DeclarerChosen,
    TrumpCalled,
    CardPlayed,
    PartnerRevealed,
    HiddenSoloRevealed,
    TrickWon,
    DealScored,
    ChipsChanged,
    MatchOver,
)
