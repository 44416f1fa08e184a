"""A Briscola bugiarda bot that plays from its own view only, as a fair player would.

* Auction: rates its hand (card points plus the length of its best suit) and bids the
  next rank down while the hand is strong enough for that rank; solo only with a huge hand.
* Trump: its best suit, preferring one where it does not hold the called card.
* Play: knows its side only as a player would: the declarer learns the partner when the
  called card is played, the partner knows the declarer, a defender knows the declarer.
  It loads points on a trick a friend is safely winning, takes tricks worth taking with the
  cheapest winning card, and otherwise throws its cheapest card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcbridge.core import Action, Rng
from mcbridge.games.briscola_bugiarda.actions import PLAY_OF, Bid, CallTrump, Pass, Solo
from mcbridge.games.briscola_bugiarda.cards import (
    DECK,
    RANKS,
    SUIT_OF,
    SUITS,
    card,
    play_key,
    points_of,
    strength,
    suit_of,
)

#: (minimum hand rating, weakest rank the bot will bid with it), strongest requirement first
BID_LIMITS = ((56, "5"), (48, "J"), (40, "K"), (34, "3"))
SOLO_RATING = 75
#: Points on the table that make a trick worth winning with a trump
WORTH_TRUMPING = 10


def _suit_ratings(hand: Sequence[str]) -> dict[str, int]:
    """Per suit: the card points held in it plus 4 per card (one pass over the hand)."""
    ratings = dict.fromkeys(SUITS, 0)
    for c in hand:
        ratings[_SUIT_OF[c]] += _POINTS[c] + 4
    return ratings


def _best_suit(ratings: Mapping[str, int]) -> str:
    return max(SUITS, key=ratings.__getitem__)  # the first of equal suits, in SUITS order


def _rating(hand: Sequence[str], ratings: Mapping[str, int]) -> int:
    best = _best_suit(ratings)
    return sum(map(_POINTS.__getitem__, hand)) + 3 * list(map(_SUIT_OF.__getitem__, hand)).count(best)


def _cheapness(c: str, trump: str | None) -> tuple[int, bool, int]:
    return points_of(c), suit_of(c) == trump, strength(c)


def _as_int(key: tuple[int, ...]) -> int:
    """A sort key of small non-negative parts (each below 16) as one int in the same order:
    the bot compares keys in every choice, and ints compare faster than tuples. Equal keys
    stay equal, so min and max pick the same card as with the tuples."""
    value = 0
    for part in key:
        value = value * 16 + int(part)
    return value


# Sort keys per card, built once: the bot ranks its hand several times per card it plays.
#: trump -> card -> `_cheapness` (the card to throw away is the cheapest)
_CHEAPNESS = {trump: {c: _as_int(_cheapness(c, trump)) for c in DECK} for trump in (*SUITS, None)}
#: card -> (points, strength): the best card to win a trick with
_WORTH = {c: _as_int((points_of(c), strength(c))) for c in DECK}
#: card -> (points, -strength): the card to load onto a friend's trick
_LOAD = {c: _as_int((points_of(c), 15 - strength(c))) for c in DECK}
#: (trump, suit led) -> card -> its `cards.play_key`: who is winning a trick, and what beats it
_TRICK_RANK = {
    (trump, led): {c: _as_int(play_key(c, trump, led)) for c in DECK} for trump in (*SUITS, None) for led in SUITS
}
_POINTS = {c: points_of(c) for c in DECK}
#: card -> suit as a plain dict (a read-only mapping's lookup costs more; this one is ours)
_SUIT_OF = dict(SUIT_OF)
_SOLO = Solo()
_PASS = Pass()


class BriscolaBot:
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        hand: Sequence[str] = view["hand"]
        phase = view["phase"]
        if phase == "play":  # most choices are card plays
            return self._play(view, hand)
        if phase == "auction":
            return self._bid(view, legal, hand)
        return self._trump(view, hand)

    def _bid(self, view: Mapping[str, Any], legal: Sequence[Action], hand: Sequence[str]) -> Action:
        ratings = _suit_ratings(hand)
        rating = _rating(hand, ratings)
        kinds = set(map(type, legal))  # the actions are shared constants: ask their types
        if rating >= SOLO_RATING and Solo in kinds:
            return _SOLO
        allowed = [a.rank for a in legal if isinstance(a, Bid)]
        if not allowed:
            return _PASS  # after a bid of "2"
        best = _best_suit(ratings)
        # the first bid names the card we would like to call: the strongest of our best
        # suit that we lack; later bids go down one rank at a time
        rank = next(r for r in RANKS if card(r, best) not in hand) if view["standing"] is None else allowed[0]
        limit = next((RANKS.index(weakest) for need, weakest in BID_LIMITS if rating >= need), -1)
        if Pass not in kinds or RANKS.index(rank) <= limit:
            return Bid(rank)
        return _PASS

    def _trump(self, view: Mapping[str, Any], hand: Sequence[str]) -> Action:
        rank = str(view["bid_rank"])
        ratings = _suit_ratings(hand)
        order = sorted(SUITS, key=lambda s: (card(rank, s) not in hand, ratings[s]), reverse=True)
        return CallTrump(order[0])

    @staticmethod
    def _is_friend(view: Mapping[str, Any], other: int) -> bool:
        """Is `other` on this seat's side, as far as this seat knows?"""
        seat, declarer, partner, role = view["seat"], view["declarer"], view["partner"], view["role"]
        if role == "declarer":
            return partner is not None and other == partner
        if role == "partner":
            return other == declarer
        # a defender: the other defenders are friends once the sides are known
        if partner is None and not (view["solo"] or view["hidden_solo"]):
            return False
        return other != seat and other != declarer and other != partner

    def _play(self, view: Mapping[str, Any], hand: Sequence[str]) -> Action:
        suit = _SUIT_OF.__getitem__  # the view's cards are all of the pack
        trump = view["trump"]
        cheapest = _CHEAPNESS[trump].__getitem__
        trick = view["trick"]
        if not trick:
            return PLAY_OF[min(hand, key=cheapest)]
        # who is winning the trick, with what, and the key a card must beat (cards.trick_winner)
        keys = _TRICK_RANK[trump, suit(trick[0][1])]
        winner, winning_card, top = -1, "", -1
        for seat, c in trick:
            if keys[c] > top:
                winner, winning_card, top = seat, c, keys[c]
        last = len(trick) == len(view["players"]) - 1
        if (last or suit(winning_card) == trump) and self._is_friend(view, winner):
            # a friend's trick that is won with a trump, or that nobody is left to beat: load points
            loads = [c for c in hand if suit(c) != trump]
            return PLAY_OF[max(loads or hand, key=_LOAD.__getitem__)]
        # a card played last wins iff it ranks above everything on the table
        winning = [c for c in hand if keys[c] > top]
        plain = [c for c in winning if suit(c) != trump]
        if plain:
            return PLAY_OF[max(plain, key=_WORTH.__getitem__)]
        if winning and sum([_POINTS[c] for _, c in trick]) >= WORTH_TRUMPING:
            return PLAY_OF[min(winning, key=cheapest)]
        return PLAY_OF[min(hand, key=cheapest)]
