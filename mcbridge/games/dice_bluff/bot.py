"""A Dice Bluff bot that plays from its own view only, as a fair player would.

It knows its own cup and every set-aside die; each unseen die counts for a number bid
with probability 2/6 (the face or a wild) and for a wild bid (or in palifico) with 1/6.
It challenges a bid that is more likely false than its threshold, otherwise makes the
highest raise it still believes; when it believes no raise, it sets aside the dice that
already count for its best bid and re-rolls the rest (where the rules allow), then bids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcbridge.core import Action, Rng
from mcbridge.core.probability import binomial_tail
from mcbridge.games.dice_bluff.actions import Bid, Challenge, SetAside, sorted_dice

#: Bid a raise whose chance of holding is at least this.
BID_CONFIDENCE = 0.55
#: Challenge a bid that holds with less than this chance.
CHALLENGE_BELOW = 0.4


class DiceBluffBot:
    def __init__(self, bid_confidence: float = BID_CONFIDENCE, challenge_below: float = CHALLENGE_BELOW) -> None:
        self.bid_confidence = bid_confidence
        self.challenge_below = challenge_below

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        bids = [a for a in legal if isinstance(a, Bid)]
        standing = view["bid"]
        if Challenge() in legal:
            doubt = self.challenge_below + (rng.random() - 0.5) * 0.1  # not perfectly predictable
            if not bids or self.chance(view, standing["count"], standing["face"]) < doubt:
                return Challenge()
        scored = [(self.chance(view, b.count, b.face), b) for b in bids]
        believed = [b for p, b in scored if p >= self.bid_confidence]
        if believed:
            return believed[-1]  # bids come lowest first: the highest one still believed
        best = max(scored, key=lambda pb: pb[0])[1]  # max() keeps the lowest on ties
        keep = self._set_aside_for(view, best, legal)
        return keep if keep is not None else best

    def chance(self, view: Mapping[str, Any], count: int, face: int) -> float:
        """How likely 'at least count dice count for face' is, from this seat's view."""
        rules, palifico = view["rules"], bool(view["palifico_round"])
        wild = rules["wild_face"]
        wild_bid = face == wild and not palifico

        def counts(d: int) -> bool:
            return d == face or (not wild_bid and not palifico and d == wild)

        seat = int(view["seat"])
        own = list(view.get("hidden") or [])
        known = own + [d for dice in view["aside"] for d in dice]
        unseen = sum(n for s, n in enumerate(view["hidden_counts"]) if s != seat)
        p = 1 / 6 if (wild_bid or palifico) else 2 / 6
        return binomial_tail(unseen, p, count - sum(1 for d in known if counts(d)))

    @staticmethod
    def _set_aside_for(view: Mapping[str, Any], bid: Bid, legal: Sequence[Action]) -> Action | None:
        """Show the dice that already count for `bid` and re-roll the others, if that helps."""
        rules, palifico = view["rules"], bool(view["palifico_round"])
        wild = rules["wild_face"]
        hidden = list(view.get("hidden") or [])
        wild_bid = bid.face == wild and not palifico
        useful = [d for d in hidden if d == bid.face or (not wild_bid and not palifico and d == wild)]
        if not useful or len(useful) == len(hidden):
            return None
        action = SetAside(sorted_dice(useful))
        return action if action in legal else None
