"""Braff actions and events (rules/braff.md).

Cups travel as labels ("C") in actions and events because that is what players say and
read; the rules work on ordinals internally (cards.cup_ordinal). Events never carry hidden
information: drawn cards and characters appear only when the show reveals them.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcbridge.core import Action, Event, FirstSeat, IllegalAction
from mcbridge.games.braff.cards import COLOURS, cup_label, cup_ordinal, sort_cards

DOUBT_KINDS = ("fake", "not_enough")
#: Every cup label as `cup_label` spells it (AAA, AA, A..Z)
LABELS = frozenset(cup_label(cup) for cup in range(-1, 27))


# -- chance actions --------------------------------------------------------------------
#: Who deals first. (the core's one "who goes first" chance action)
FirstDealer = FirstSeat


@dataclass(frozen=True, slots=True)
class Shuffle(Action):
    """Both decks in shuffled order. Seat s gets characters[s] and cards[5s:5s+5]; the
    remaining cards are the draw pile (top first); unused characters leave unseen."""

    characters: tuple[str, ...]
    cards: tuple[str, ...]


# -- player actions ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard these cards face up (0-2 of them) and draw as many; costs the stake."""

    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        cards = self.cards
        if not isinstance(cards, tuple | list) or not all(isinstance(c, str) and c in COLOURS for c in cards):
            raise IllegalAction("unknown_colour", cards=repr(cards), colours=", ".join(COLOURS))
        object.__setattr__(self, "cards", sort_cards(cards))


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Declare `cup` with a total stake of `stake`: the dealer's opening, or a raise."""

    cup: str
    stake: int

    def __post_init__(self) -> None:
        # Cup labels are case-insensitive and may come with spaces ("c ", "aa"): the action
        # holds the listed spelling ("C", "AA"), so an accepted raise equals a listed one and
        # journals hold one spelling. What is not a cup stays as given for `apply` to refuse.
        if not isinstance(self.cup, str) or self.cup in LABELS:  # LABELS: the common case, kept cheap
            return
        ordinal = cup_ordinal(self.cup)
        if ordinal is not None and cup_label(ordinal) != self.cup:
            object.__setattr__(self, "cup", cup_label(ordinal))


@dataclass(frozen=True, slots=True)
class Call(Action):
    pass


@dataclass(frozen=True, slots=True)
class AllIn(Action):
    """Put in every chip when a call (or the dealer's opening) cannot be paid."""


@dataclass(frozen=True, slots=True)
class Drop(Action):
    pass


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """The highest player, when play returns to them, does not raise again."""


@dataclass(frozen=True, slots=True)
class Doubt(Action):
    kind: str  # "fake" | "not_enough"


ACTION_TYPES: tuple[type[Action], ...] = (FirstSeat, Shuffle, Discard, Raise, Call, AllIn, Drop, Stand, Doubt)


# -- events ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FirstDealerChosen(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    lap: int
    seat: int  # the dealer
    discard_cost: int  # chips per discarded card this round


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    hand_size: int


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    seat: int
    colour: str


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    seat: int
    count: int
    stake: int


@dataclass(frozen=True, slots=True)
class Opened(Event):
    seat: int
    cup: str
    stake: int


@dataclass(frozen=True, slots=True)
class OpenedAllIn(Event):
    """The dealer could afford no cup on the meter and opened the lowest with every chip."""

    seat: int
    cup: str
    stake: int


@dataclass(frozen=True, slots=True)
class Raised(Event):
    seat: int
    cup: str
    stake: int


@dataclass(frozen=True, slots=True)
class Called(Event):
    seat: int
    cup: str
    stake: int


@dataclass(frozen=True, slots=True)
class WentAllIn(Event):
    seat: int
    stake: int


@dataclass(frozen=True, slots=True)
class Dropped(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Stood(Event):
    seat: int
    cup: str


@dataclass(frozen=True, slots=True)
class WonUnseen(Event):
    winner: int
    amount: int


@dataclass(frozen=True, slots=True)
class DoubtGiven(Event):
    seat: int  # giver
    player: int  # receiver
    kind: str


@dataclass(frozen=True, slots=True)
class Shown(Event):
    seat: int
    character: str
    cards: tuple[str, ...]
    cup: int
    cup_label: str
    dealer: bool


@dataclass(frozen=True, slots=True)
class Exposed(Event):
    seat: int
    reason: str  # "fake" | "not_enough"


@dataclass(frozen=True, slots=True)
class PotWon(Event):
    winner: int
    amount: int
    cup_label: str
    shared: bool


@dataclass(frozen=True, slots=True)
class NoGame(Event):
    amount: int


@dataclass(frozen=True, slots=True)
class Carried(Event):
    amount: int  # chips waiting for the next round's pot in all


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winners: tuple[int, ...]
    chips: tuple[int, ...]
    unclaimed: int  # carried chips nobody won (the last round's no-game or odd chips)


EVENT_TYPES: tuple[type[Event], ...] = (
    FirstDealerChosen,
    RoundStarted,
    Dealt,
    CardDiscarded,
    Discarded,
    Opened,
    OpenedAllIn,
    Raised,
    Called,
    WentAllIn,
    Dropped,
    Stood,
    WonUnseen,
    DoubtGiven,
    Shown,
    Exposed,
    PotWon,
    NoGame,
    Carried,
    MatchOver,
)
