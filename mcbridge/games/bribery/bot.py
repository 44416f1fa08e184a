"""A Bribery bot that plays from its own view only, as a fair player would.

Each round it picks a plan: "high" (play its biggest luck cards) or, holding an informant
and a small luck card, "low" (one informant plus its smallest luck cards, to flip the
round to lowball). It commits at most a budget of cards that grows with the VP at stake
and the strength of its hand, passes for cards when its hand is thin or the prize small,
raises now and then when strong, calls within budget, and folds otherwise. In a tie, where
the earlier cards are face up, it looks for the fewest cards that beat the shown totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcbridge.core import Action, Rng
from mcbridge.games.bribery.actions import INFORMANT, AllIn, Call, Fold, Pass, Raise, listed_bet
from mcbridge.games.bribery.cards import luck_total, sub_multisets

#: Chance to raise instead of calling when the hand is strong and the budget allows.
RAISE_CHANCE = 0.35
_PASS_TWO = Pass("two_cards")
_PASS_INFORMANT = Pass("card_and_informant")
_FOLD = Fold()


class BriberyBot:
    def __init__(self, raise_chance: float = RAISE_CHANCE) -> None:
        self.raise_chance = raise_chance

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        hand, played = list(view["hand"]), list(view["played"])
        luck = [c for c in hand if c != INFORMANT]
        table = view["influencers"]
        stake_vp = sum([int(table[card]["vp"]) for card in view["stake"]])
        if not played and self._should_pass(hand, luck, stake_vp, rng):
            # the informant pass is listed while the supply (in the view) is not empty
            return _PASS_INFORMANT if INFORMANT not in hand and view["supply"] > 0 else _PASS_TWO

        if self._in_tie(view):
            return self._tie_move(view, hand, played, legal) or _FOLD
        plan = self._plan(view, hand, played, rng)
        strong = self._strong(plan, hand, played)
        budget = min(len(hand) + len(played), 1 + stake_vp + int(strong))
        mine, highest = len(played), int(view["highest"])
        if highest > mine:  # someone bet more: call, raise or get out
            if highest > budget:
                return _FOLD
            raising = strong and highest + 1 <= budget and rng.random() < self.raise_chance
            target = highest + 1 if raising else highest
        else:  # the first bet of the round (there is no check): one card, or informant + luck card
            target = max(highest + 1, 2 if plan == "low" else 1)
            if target > budget:
                return _PASS_TWO
        return self._play(target, self._order(plan, hand, played), mine, highest)

    @staticmethod
    def _should_pass(hand: list[int], luck: list[int], stake_vp: int, rng: Rng) -> bool:
        if len(hand) <= 1 or not luck:
            return True
        weak = max(luck) <= 300 and INFORMANT not in hand
        return (stake_vp <= 1 and weak) or (len(hand) <= 3 and rng.random() < 0.3)

    @staticmethod
    def _in_tie(view: Mapping[str, Any]) -> bool:
        showdown = view["last_showdown"]
        return bool(view["extension"]) and bool(showdown) and showdown["round"] == view["round"]

    @staticmethod
    def _tie_move(
        view: Mapping[str, Any], hand: list[int], played: list[int], legal: Sequence[Action]
    ) -> Action | None:
        """In a tie every earlier card is face up: find the fewest cards that would win against
        the tied rivals' shown totals (their new cards are unknown), counting the informants
        they add, which may flip high and low. None when no such play exists."""
        showdown = view["last_showdown"]
        seat, highest, mine = int(view["seat"]), int(view["highest"]), len(played)
        rivals = [showdown["totals"][str(s)] for s in showdown["tied"] if s != seat and view["status"][s] == "in"]
        informants = int(showdown["informants"]) + played[len(view["revealed"][seat]) :].count(INFORMANT)
        lowest = max(1, highest - mine)
        for size in range(lowest, min(len(hand), lowest + 2) + 1):
            for cards in sub_multisets(hand, size):
                low = (informants + cards.count(INFORMANT)) % 2 == 1
                total = luck_total(played) + luck_total(cards)
                if all(total < t if low else total > t for t in rivals):
                    action: Action = Raise(cards) if mine + size > highest else Call(cards)
                    if action in legal:
                        return action
        return None

    @staticmethod
    def _plan(view: Mapping[str, Any], hand: list[int], played: list[int], rng: Rng) -> str:
        if played:
            return "low" if played.count(INFORMANT) % 2 else "high"
        luck = [c for c in hand if c != INFORMANT]
        small, big = min(luck, default=0), max(luck, default=0)
        if INFORMANT in hand and small and small <= 200 and (big < 400 or rng.random() < 0.3):
            return "low"
        return "high"

    @staticmethod
    def _strong(plan: str, hand: list[int], played: list[int]) -> bool:
        cards = hand + played
        luck = sorted((c for c in cards if c != INFORMANT), reverse=True)
        if plan == "low":
            return INFORMANT in cards and bool(luck) and luck[-1] <= 200
        return bool(luck) and (luck[0] >= 400 or sum(luck[:2]) >= 700)

    @staticmethod
    def _order(plan: str, hand: list[int], played: list[int]) -> list[int]:
        """Hand cards in the order this plan would play them."""
        luck = sorted(c for c in hand if c != INFORMANT)
        informants = [c for c in hand if c == INFORMANT]
        if plan == "high":
            return luck[::-1] + informants
        if INFORMANT in played:
            return luck + informants
        return informants[:1] + luck + informants[1:]

    @staticmethod
    def _play(target: int, order: list[int], mine: int, highest: int) -> Action:
        k = target - mine
        if k > len(order):
            return AllIn() if order else Fold()
        cards = tuple(sorted(order[:k]))  # hand cards: whole numbers already
        # Always listed: the cards come from the hand, a raise goes past the highest count
        # and a call (target == highest > mine) adds at least one card to reach it exactly.
        return listed_bet(Raise if target > highest else Call, cards)
