"""A Wool Bluff bot that plays from its own view only, as a fair player would.

It models the wool it cannot see as draws from the colour weights: for a bid on colour c,
the unseen count is Binomial(unseen, p) with p = (w_c + w_white) / W (only w_white for a
white bid). It bids the count it believes is likely, calls BLUFF when a bid is more likely
false than true, and discards the colours least useful to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from mcbridge.core import Action, Rng
from mcbridge.core.probability import binomial_tail
from mcbridge.games.wool_bluff.actions import COLOURS, WILD, Bid, Bluff, Discard, Through

#: The colours other than white, in COLOURS order.
PLAIN = tuple(c for c in COLOURS if c != WILD)
#: Bid a count whose chance of holding is at least this.
BID_CONFIDENCE = 0.55
#: Call BLUFF when the bid holds with less than this chance.
BLUFF_BELOW = 0.4
#: The answers the bot hands out (actions are immutable: one of each is enough).
_BLUFF, _THROUGH = Bluff(), Through()


class WoolBluffBot:
    def __init__(self, bid_confidence: float = BID_CONFIDENCE, bluff_below: float = BLUFF_BELOW) -> None:
        self.bid_confidence = bid_confidence
        self.bluff_below = bluff_below

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        phase = view["phase"]
        if phase == "discard":
            return _discard_choice(tuple((view["drawn"] or {}).items()), int(view["must_discard"]))
        if phase == "respond":
            bid = view["bid"]
            return _BLUFF if self.chance(view, bid["colour"], bid["count"]) < self.bluff_below else _THROUGH
        if len(legal) == 1 and legal[0] == _BLUFF:  # no raise left
            return _BLUFF
        return self._bid(view, rng)

    def chance(self, view: Mapping[str, Any], colour: str, count: int) -> float:
        """How likely 'at least count of colour' is, from this seat's hand and the weights."""
        hand = view.get("hand") or {}
        own = hand.get(colour, 0) + (hand.get(WILD, 0) if colour != WILD else 0)
        unseen = int(view["wool_in_play"]) - sum(hand.values())
        return binomial_tail(unseen, self._p(view, colour), count - own)

    def _p(self, view: Mapping[str, Any], colour: str) -> float:
        return _hit_chances(tuple(view["weights"].items()))[colour]

    def _bid(self, view: Mapping[str, Any], rng: Rng) -> Action:
        lo = int(view["min_count"])
        hi = int(view["wool_in_play"])
        white_multiplier = int(view["white_multiplier"])
        # what `chance` reads from the view, read once for the whole ladder of counts
        hand = view.get("hand") or {}
        unseen = hi - sum(hand.values())
        hits = _hit_chances(tuple(view["weights"].items()))
        white = hand.get(WILD, 0)
        confidence, random = self.bid_confidence, rng.random
        best_score, best_count, best_colour = -1.0, lo, COLOURS[0]
        for colour in COLOURS:
            own = hand.get(colour, 0) + (white if colour != WILD else 0)
            p_hit = hits[colour]
            # the largest count still believed, but never below the minimum raise (nor above
            # the wool in play): own wool plus the most unseen hits still believed
            count = max(lo, min(hi, own + _most_believed(unseen, p_hit, confidence)))
            p = binomial_tail(unseen, p_hit, count - own)
            score = (p / white_multiplier if colour == WILD else p) + random() * 0.01  # break ties unpredictably
            if score > best_score:  # scores are never negative: the first colour always sets it
                best_score, best_count, best_colour = score, count, colour
        return Bid(best_colour, best_count)


@lru_cache(maxsize=64)
def _hit_chances(weights: tuple[tuple[str, int], ...]) -> dict[str, float]:
    """Each colour's chance that one unseen wool counts for a bid on it (its weight plus
    white's, only white's for a white bid), over the total weight; the weights of a game
    never change, so this is worked out once, not per colour per bid."""
    table = dict(weights)
    total = sum(table.values())
    return {
        colour: (table[colour] + (table[WILD] if colour != WILD else 0)) / total if total else 0.0 for colour in table
    }


@lru_cache(maxsize=4096)
def _most_believed(unseen: int, p_hit: float, confidence: float) -> int:
    """The largest k with P(at least k hits among `unseen`) >= confidence.

    The tail only falls as k grows, in floating point too (`binomial_tail` adds the same
    non-negative terms from a later start, and rounding keeps the order), so this is
    exactly where the count-by-count scan it replaces stopped; a confidence of 0 or less
    believes every count (the tail is never below it)."""
    if confidence <= 0:
        return unseen + 10**9
    k = 0
    while binomial_tail(unseen, p_hit, k + 1) >= confidence:
        k += 1
    return k


#: Discards worked out: the bot's discard depends only on the wool drawn and how many must
#: go, and the same deals come up again and again (3003 ways for 10 wool of 6 colours).
MAX_KEPT = 16384


@lru_cache(maxsize=MAX_KEPT)
def _discard_choice(drawn: tuple[tuple[str, int], ...], need: int) -> Discard:
    """Keep white (counts for everything) and the colours held most; drop the rarest first
    (ties: the earlier colour in COLOURS order goes first)."""
    held = dict(drawn)
    order = sorted(range(len(PLAIN)), key=lambda i: (held.get(PLAIN[i], 0), i))
    out: dict[str, int] = {}
    for colour in [*(PLAIN[i] for i in order), WILD]:
        take = min(need, held.get(colour, 0))
        if take:
            out[colour] = take
            need -= take
        if need == 0:
            break
    return Discard.canonical(tuple((c, out[c]) for c in COLOURS if c in out))  # canonical pairs
