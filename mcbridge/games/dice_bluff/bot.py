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
from mcbridge.core.legal import ActionRange
from mcbridge.core.probability import binomial_tail
from mcbridge.games.dice_bluff.actions import Bid, Challenge, SetAside, sorted_dice
from mcbridge.games.dice_bluff.ladder import CHALLENGE, BidKey, bid_key
from mcbridge.games.dice_bluff.options import DiceRules

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
        runs = _bid_runs(legal)
        odds = _Odds(view)
        standing = view["bid"]
        if CHALLENGE in legal:
            doubt = self.challenge_below + (rng.random() - 0.5) * 0.1  # not perfectly predictable
            if not runs or odds.chance(standing["count"], standing["face"]) < doubt:
                return Challenge()
        # The highest bid still believed, else the likeliest (the lowest of equals), "highest"
        # and "lowest" in ladder order. Past the unseen dice a face's chance is exactly 0:
        # no such bid is believed (with a confidence above 0) nor the likeliest, so the scan
        # of that face stops there.
        give_up = self.bid_confidence > 0
        rules = DiceRules(**view["rules"])
        palifico = bool(view["palifico_round"])
        top: tuple[tuple[BidKey, int], int, int] | None = None
        best: tuple[float, tuple[BidKey, int], int, int] | None = None
        for face, lowest, last, step in runs:
            hits, unseen, p_face = odds.of(face)
            for count in range(lowest, last + 1, step):
                if give_up and count - hits > unseen:
                    break
                p = binomial_tail(unseen, p_face, count - hits)
                if p >= self.bid_confidence:
                    position = (bid_key(count, face, rules, palifico), face)  # ladder order
                    if top is None or position > top[0]:
                        top = (position, count, face)
                elif best is None or p >= best[0]:
                    position = (bid_key(count, face, rules, palifico), face)
                    if best is None or p > best[0] or position < best[1]:
                        best = (p, position, count, face)
        if top is not None:
            return Bid(top[1], top[2])
        if best is None:  # every bid is out of reach: the lowest one, as max() over zeros picks
            face, lowest, _, _ = min(runs, key=lambda r: (bid_key(r[1], r[0], rules, palifico), r[0]))
            chosen = Bid(lowest, face)
        else:
            chosen = Bid(best[2], best[3])
        keep = self._set_aside_for(view, chosen, legal)
        return keep if keep is not None else chosen

    def chance(self, view: Mapping[str, Any], count: int, face: int) -> float:
        """How likely 'at least count dice count for face' is, from this seat's view."""
        return _Odds(view).chance(count, face)

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


def _bid_runs(legal: Sequence[Action]) -> list[tuple[int, int, int, int]]:
    """(face, lowest count, last count, step) of every bid a legal list holds, plain or ranged."""
    runs = []
    for entry in legal:
        if isinstance(entry, ActionRange):
            first = entry.first
            if isinstance(first, Bid):
                runs.append((first.face, first.count, entry.last, entry.step))
        elif isinstance(entry, Bid):
            runs.append((entry.face, entry.count, entry.count, 1))
    return runs


class _Odds:
    """What the chance of a bid depends on, read from the view once per decision."""

    __slots__ = ("known", "palifico", "unseen", "wild")

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.wild = view["rules"]["wild_face"]
        self.palifico = bool(view["palifico_round"])
        seat = int(view["seat"])
        self.known = list(view.get("hidden") or []) + [d for dice in view["aside"] for d in dice]
        self.unseen = sum(n for s, n in enumerate(view["hidden_counts"]) if s != seat)

    def of(self, face: int) -> tuple[int, int, float]:
        """(known dice that count for `face`, unseen dice, chance that an unseen one counts)."""
        wild_bid = face == self.wild and not self.palifico
        wild_counts = not wild_bid and not self.palifico
        hits = sum(1 for d in self.known if d == face or (wild_counts and d == self.wild))
        return hits, self.unseen, 1 / 6 if (wild_bid or self.palifico) else 2 / 6

    def chance(self, count: int, face: int) -> float:
        hits, unseen, p = self.of(face)
        return binomial_tail(unseen, p, count - hits)
