"""Bribery actions and events (rules/bribery.md).

Cards are their values: luck cards 100..500, an informant is 0. A bet is the number of
cards a player has put face down this round; the values stay hidden until the showdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from mcbridge.core import Action, Event, FirstSeat, IllegalAction

INFORMANT = 0
Cards = tuple[int, ...]
REFILLS = ("two_cards", "card_and_informant")


def sorted_cards(cards: Cards | list[int]) -> Cards:
    return tuple(sorted(int(c) for c in cards))


def _canonical_cards(action: Raise | Call) -> None:
    """A bet's cards in one spelling, the listed one (ascending), whatever order they were
    given in: an accepted action then equals one of `legal_actions`, and journals hold one
    spelling. A card is a whole number: 100.0 or True would compare equal to a listed card
    and be played as one, so they are refused here, before anything can accept them."""
    cards = action.cards
    if not isinstance(cards, tuple | list) or not all(type(c) is int for c in cards):
        bad = next((c for c in cards if type(c) is not int), cards) if isinstance(cards, tuple | list) else cards
        raise IllegalAction("bad_cards_syntax", word=repr(bad), example=f"{type(action).__name__.lower()} 300")
    ordered = tuple(sorted(cards))
    if ordered != cards:
        object.__setattr__(action, "cards", ordered)


Bet = TypeVar("Bet", bound="Raise | Call")


def listed_bet(kind: type[Bet], cards: Cards) -> Bet:
    """A bet of cards already in the listed spelling (a sorted tuple of whole numbers, as
    `cards.by_size` makes them), built without `__post_init__`'s check: legal lists are
    built from thousands of these."""
    action = object.__new__(kind)
    object.__setattr__(action, "cards", cards)
    return action


# -- chance actions --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ArrangeInfluencers(Action):
    """Setup: `removed` leave the game unseen, `pile` is the influencer pile, top first."""

    removed: tuple[str, ...]
    pile: tuple[str, ...]


#: Round 1's start player (the seed plays rock-paper-scissors). (the core's one "who goes first" chance action)
FirstStarter = FirstSeat


@dataclass(frozen=True, slots=True)
class Shuffle(Action):
    """The discards (at setup: every luck card) become the draw pile in this order, top first."""

    cards: Cards


# -- player actions ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pass(Action):
    """First action only: sit the round out and refill ("two_cards" or "card_and_informant")."""

    refill: str = "two_cards"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    pass


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Play these cards face down so that your count exceeds the highest count (a bet or raise)."""

    cards: Cards

    def __post_init__(self) -> None:
        _canonical_cards(self)


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Play these cards face down so that your count equals the highest count."""

    cards: Cards

    def __post_init__(self) -> None:
        _canonical_cards(self)


@dataclass(frozen=True, slots=True)
class AllIn(Action):
    """Play every card in your hand, whatever the highest count."""


ACTION_TYPES: tuple[type[Action], ...] = (ArrangeInfluencers, FirstSeat, Shuffle, Pass, Fold, Raise, Call, AllIn)


# -- events ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class InfluencersArranged(Event):
    removed: int
    rounds: int


@dataclass(frozen=True, slots=True)
class StartPlayerChosen(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class PileShuffled(Event):
    cards: int


@dataclass(frozen=True, slots=True)
class DiscardsReshuffled(Event):
    cards: int


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class DrawShort(Event):
    """Neither the pile nor the discards had a card left for this draw."""

    seat: int
    missing: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    seat: int  # the start player
    card: str  # the influencer card just opened
    vp: int
    at_stake: int  # cards at stake, carried-over ones included


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int
    refill: str


@dataclass(frozen=True, slots=True)
class Folded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Raised(Event):
    seat: int
    cards: int  # played now
    count: int  # played this round in all


@dataclass(frozen=True, slots=True)
class Called(Event):
    seat: int
    cards: int
    count: int


@dataclass(frozen=True, slots=True)
class WentAllIn(Event):
    seat: int
    cards: int
    count: int


@dataclass(frozen=True, slots=True)
class Showdown(Event):
    mode: str  # "high" or "low"
    informants: int


@dataclass(frozen=True, slots=True)
class CardsShown(Event):
    seat: int
    luck: Cards
    informants: int
    total: int


@dataclass(frozen=True, slots=True)
class Tie(Event):
    total: int
    players: int


@dataclass(frozen=True, slots=True)
class OutOfRound(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class InfluencerWon(Event):
    winner: int
    card: str
    vp: int


@dataclass(frozen=True, slots=True)
class WinnerDraws(Event):
    """Effect `winner_draws`: the round's winner draws `count` cards."""

    card: str
    winner: int
    count: int


@dataclass(frozen=True, slots=True)
class LosersDraw(Event):
    """Effect `losers_who_bet_draw`: every other player who played a card this round draws."""

    card: str
    count: int


@dataclass(frozen=True, slots=True)
class NoWinner(Event):
    reason: str  # "nobody_bet", "no_luck" or "all_in_tie"


@dataclass(frozen=True, slots=True)
class CarriedOver(Event):
    card: str


@dataclass(frozen=True, slots=True)
class InfluencerRemoved(Event):
    card: str


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    count: int


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winners: tuple[int, ...]
    vp: tuple[int, ...]


EVENT_TYPES: tuple[type[Event], ...] = (
    InfluencersArranged,
    StartPlayerChosen,
    PileShuffled,
    DiscardsReshuffled,
    CardsDrawn,
    DrawShort,
    RoundStarted,
    Passed,
    Folded,
    Raised,
    Called,
    WentAllIn,
    Showdown,
    CardsShown,
    Tie,
    OutOfRound,
    InfluencerWon,
    WinnerDraws,
    LosersDraw,
    NoWinner,
    CarriedOver,
    InfluencerRemoved,
    CardsDiscarded,
    MatchOver,
)
