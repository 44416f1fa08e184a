"""The bets a hand offers, built once per hand and shared by every legal list of that hand.

A legal list holds every distinct call and raise of the hand (a few hundred for a big hand of
many values). Hands repeat across turns and matches (five luck values and informants), so
each hand's bets are made once, as two flat tuples ordered by size: a legal list is then a
slice of each (fewest cards first), whatever the highest count. The action objects are shared
too, one per kind and pick, and built without `__post_init__` (`actions.listed_bet`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from mcbridge.games.bribery.actions import Call, Cards, Raise, listed_bet
from mcbridge.games.bribery.cards import by_size

#: pick -> its shared Call and Raise. The picks are sorted sub-multisets of hands of a few
#: card values, so there are at most some thousands of them.
_CALLS: dict[Cards, Call] = {}
_RAISES: dict[Cards, Raise] = {}


def call_of(cards: Cards) -> Call:
    """The shared Call of these cards (a sorted tuple of whole numbers: the listed spelling)."""
    found = _CALLS.get(cards)
    if found is None:
        found = _CALLS[cards] = listed_bet(Call, cards)
    return found


def raise_of(cards: Cards) -> Raise:
    """The shared Raise of these cards (a sorted tuple of whole numbers: the listed spelling)."""
    found = _RAISES.get(cards)
    if found is None:
        found = _RAISES[cards] = listed_bet(Raise, cards)
    return found


class HandBets(NamedTuple):
    """Every pick of a hand as a Call and as a Raise, fewest cards first (in `by_size`'s
    order within a size); the picks of `size` cards are `[start[size]:start[size + 1]]`."""

    calls: tuple[Call, ...]
    raises: tuple[Raise, ...]
    start: tuple[int, ...]

    def bets(self, need: int) -> tuple[Call | Raise, ...]:
        """The bets when `need` more cards would equal the highest count: the calls of
        exactly `need` cards, then the raises of more (at least one card: there is no check)."""
        start, most = self.start, len(self.start) - 2
        calls = self.calls[start[need] : start[need + 1]] if 1 <= need <= most else ()
        low = max(1, need + 1)
        return (*calls, *self.raises[start[low] :]) if low <= most else calls


@lru_cache(maxsize=4096)
def hand_bets(hand: Cards) -> HandBets:
    """The bets of a sorted hand (built once per hand; hands repeat across turns and matches)."""
    groups = by_size(hand)
    picks = [pick for size in range(len(hand) + 1) for pick in groups.get(size, ())]
    start = [0]
    for size in range(len(hand) + 1):
        start.append(start[-1] + len(groups.get(size, ())))
    return HandBets(tuple(map(call_of, picks)), tuple(map(raise_of, picks)), tuple(start))
