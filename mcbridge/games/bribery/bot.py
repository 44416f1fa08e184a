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
from functools import lru_cache
from typing import Any, NamedTuple

from mcbridge.core import Action, Rng
from mcbridge.games.bribery.actions import INFORMANT, AllIn, Fold, Pass
from mcbridge.games.bribery.bets import call_of, raise_of
from mcbridge.games.bribery.cards import luck_total, sub_multisets

#: Chance to raise instead of calling when the hand is strong and the budget allows.
RAISE_CHANCE = 0.35
_PASS_TWO = Pass("two_cards")
_PASS_INFORMANT = Pass("card_and_informant")
_FOLD = Fold()
_ALL_IN = AllIn()


class _Hand(NamedTuple):
    """What the bot reads off its hand and the cards it played this round, worked out once
    per such pair (they repeat across turns and matches)."""

    size: int
    has_informant: bool
    has_luck: bool
    smallest_luck: int  # 0 without luck cards
    biggest_luck: int
    played_plan: str | None  # the plan the played cards commit to (None before playing)
    strong: Mapping[str, bool]  # plan -> is the hand strong for it
    order: Mapping[str, tuple[int, ...]]  # plan -> hand cards in the order it plays them


class BriberyBot:
    def __init__(self, raise_chance: float = RAISE_CHANCE) -> None:
        self.raise_chance = raise_chance
        self._table: Any = None  # the influencer table `_vp_of` was read from
        self._vp_of: dict[str, int] = {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        hand, played = tuple(view["hand"]), tuple(view["played"])
        facts = _facts(hand, played)
        table = view["influencers"]  # Influencer -> VP, read once per table (a match shares one)
        if table is not self._table:
            self._vp_of = {card: int(data["vp"]) for card, data in table.items()}
            self._table = table
        stake_vp = sum(map(self._vp_of.__getitem__, view["stake"]))
        if not played and self._should_pass(facts, stake_vp, rng):
            # the informant pass is listed while the supply (in the view) is not empty
            return _PASS_INFORMANT if not facts.has_informant and view["supply"] > 0 else _PASS_TWO

        showdown = view["extension"] and view["last_showdown"]  # a tie this round: its cards are face up
        if showdown and showdown["round"] == view["round"]:
            return self._tie_move(view, hand, played) or _FOLD
        plan = facts.played_plan or self._plan(facts, rng)
        strong = facts.strong[plan]
        budget = min(facts.size + len(played), 1 + stake_vp + int(strong))
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
        return self._play(target, facts.order[plan], mine, highest)

    @staticmethod
    def _should_pass(facts: _Hand, stake_vp: int, rng: Rng) -> bool:
        if facts.size <= 1 or not facts.has_luck:
            return True
        weak = facts.biggest_luck <= 300 and not facts.has_informant
        return (stake_vp <= 1 and weak) or (facts.size <= 3 and rng.random() < 0.3)

    @staticmethod
    def _tie_move(view: Mapping[str, Any], hand: tuple[int, ...], played: tuple[int, ...]) -> Action | None:
        """In a tie every earlier card is face up: find the fewest cards that would win against
        the tied rivals' shown totals (their new cards are unknown), counting the informants
        they add, which may flip high and low. None when no such play exists. Every bet tried
        is legal: its cards are from the hand and it reaches at least the highest count."""
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
                    return raise_of(cards) if mine + size > highest else call_of(cards)
        return None

    @staticmethod
    def _plan(facts: _Hand, rng: Rng) -> str:
        """Before playing: low with an informant and a small luck card (now and then even
        with a big one), else high."""
        small, big = facts.smallest_luck, facts.biggest_luck
        if facts.has_informant and facts.has_luck and small <= 200 and (big < 400 or rng.random() < 0.3):
            return "low"
        return "high"

    @staticmethod
    def _play(target: int, order: tuple[int, ...], mine: int, highest: int) -> Action:
        k = target - mine
        if k > len(order):
            return _ALL_IN if order else _FOLD
        cards = tuple(sorted(order[:k]))  # hand cards: whole numbers already
        # Always listed: the cards come from the hand, a raise goes past the highest count
        # and a call (target == highest > mine) adds at least one card to reach it exactly.
        return raise_of(cards) if target > highest else call_of(cards)


@lru_cache(maxsize=8192)
def _facts(hand: tuple[int, ...], played: tuple[int, ...]) -> _Hand:
    luck = sorted(c for c in hand if c != INFORMANT)
    informants = [c for c in hand if c == INFORMANT]
    plan = ("low" if played.count(INFORMANT) % 2 else "high") if played else None
    return _Hand(
        size=len(hand),
        has_informant=bool(informants),
        has_luck=bool(luck),
        smallest_luck=luck[0] if luck else 0,
        biggest_luck=luck[-1] if luck else 0,
        played_plan=plan,
        strong={p: _strong(p, hand, played) for p in ("high", "low")},
        order={p: _order(p, luck, informants, played) for p in ("high", "low")},
    )


def _strong(plan: str, hand: tuple[int, ...], played: tuple[int, ...]) -> bool:
    cards = hand + played
    luck = sorted((c for c in cards if c != INFORMANT), reverse=True)
    if plan == "low":
        return INFORMANT in cards and bool(luck) and luck[-1] <= 200
    return bool(luck) and (luck[0] >= 400 or sum(luck[:2]) >= 700)


def _order(plan: str, luck: list[int], informants: list[int], played: tuple[int, ...]) -> tuple[int, ...]:
    """Hand cards (luck cards ascending, informants) in the order this plan would play them."""
    if plan == "high":
        return (*luck[::-1], *informants)
    if INFORMANT in played:
        return (*luck, *informants)
    return (*informants[:1], *luck, *informants[1:])
