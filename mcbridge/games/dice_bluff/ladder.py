"""The bid ladder: one total order over number and wild bids, and how dice count.

rules/dice_bluff.md gives Bluff's order as key(number n, f) = (n, f) and key(star m) =
(2m - 0.5, 0). Doubling the first component keeps it in integers: a number bid is
(2n, f), a star bid (4m - 1, 0). Perudo's wild bids sit just above every number bid of
count 2m, key (4m, 7), which is exactly "to wilds m >= ceil(n/2), from wilds n >= 2m + 1".
In a palifico round the face is fixed and only the count rises.

This is the shape of the shared "bid ladder" DESIGN.md §3 asks for; it lives here until
the core grows one (proposed in the issue report).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from mcbridge.core.legal import PLAIN_UP_TO, ActionRange
from mcbridge.games.dice_bluff.actions import FACES, Bid, Challenge
from mcbridge.games.dice_bluff.options import DiceRules

BidKey = tuple[int, int]


def is_wild_bid(face: int, rules: DiceRules, palifico: bool) -> bool:
    """A bid that counts only wild dice (never in palifico, where wilds are plain faces)."""
    return face == rules.wild_face and not palifico


def bid_key(count: int, face: int, rules: DiceRules, palifico: bool = False) -> BidKey:
    """Sort key of a bid: a bid is legal iff its key is greater than the standing one."""
    if palifico:
        return (count, 0)
    if face == rules.wild_face:
        return (4 * count - 1, 0) if rules.ruleset == "bluff" else (4 * count, 7)
    return (2 * count, face)


def matching(dice: Iterable[int], face: int, rules: DiceRules, palifico: bool = False) -> int:
    """Dice that count for a bid on `face`: the face plus wilds, or only wilds for a wild bid."""
    wild_counts = not palifico and face != rules.wild_face
    return sum(1 for d in dice if d == face or (wild_counts and d == rules.wild_face))


def number_faces(rules: DiceRules, palifico: bool = False) -> tuple[int, ...]:
    return FACES if palifico else tuple(f for f in FACES if f != rules.wild_face)


def face_label(face: int, rules: DiceRules, palifico: bool = False) -> str:
    """Text for logs: the digit, or "star"/"paco" for a wild bid."""
    return rules.wild_label if is_wild_bid(face, rules, palifico) else str(face)


#: The one Challenge action legal lists hand out (actions are immutable).
CHALLENGE = Challenge()


class Ladder(NamedTuple):
    """Every bid of one kind of round, lowest first: `keys[i]` is `bid_key(bids[i])` and
    `position[bid]` its index, so "the bids above the standing one" is a suffix found by
    bisection, and checking a bid is one dict lookup (by identity for the ladder's own
    Bid objects, which legal lists hand out). `labels[i]` names the face for logs."""

    bids: list[Bid]  # never changed after it is built; slices are the legal lists
    keys: tuple[BidKey, ...]
    position: dict[Bid, int]
    by_id: dict[int, int]
    labels: tuple[str, ...]
    ranged: dict[int, tuple[ActionRange, ...]]  # start position -> `ranges(start)`, filled on use
    #: (start position, challenge) -> `listing(start, challenge)`, filled on use
    listed: dict[tuple[int, bool], tuple[Bid | ActionRange | Challenge, ...]]

    def listing(self, start: int, challenge: bool = False) -> tuple[Bid | ActionRange | Challenge, ...]:
        """The bids of a legal list from `start` on: one by one for a few (up to
        PLAIN_UP_TO), else `ranges(start)`; then CHALLENGE if `challenge`. Kept per start
        position: a legal list is this, copied (plus set-asides where the rules have them)."""
        key = (start, challenge)
        found = self.listed.get(key)
        if found is None:
            bids = self.bids[start:]
            found = tuple(bids) if len(bids) <= PLAIN_UP_TO else self.ranges(start)
            found = self.listed[key] = (*found, CHALLENGE) if challenge else found
        return found

    def ranges(self, start: int) -> tuple[ActionRange, ...]:
        """The bids from `start` on as one `ActionRange` of counts per face, the face whose
        lowest legal bid comes first in the ladder first (the legal list's compact form:
        at most six entries instead of one per bid; kept per start position)."""
        found = self.ranged.get(start)
        if found is None:
            runs: dict[int, list[Bid]] = {}  # face -> its bids, in the order their lowest comes
            for bid in self.bids[start:]:
                runs.setdefault(bid.face, []).append(bid)
            # each face's legal counts are one run (a key grows with the count), so `of`
            # accepts it; the ranges hand out the ladder's own Bid objects
            found = self.ranged[start] = tuple(ActionRange.of(run, "count") for run in runs.values())
        return found

    def above(self, standing: Bid | None, rules: DiceRules, palifico: bool) -> int:
        """Position of the first bid that beats `standing` (0 when nothing stands)."""
        if standing is None:
            return 0
        return bisect_right(self.keys, bid_key(standing.count, standing.face, rules, palifico))


@lru_cache(maxsize=64)
def ladder(
    max_count: int, rules: DiceRules, palifico: bool = False, palifico_face: int | None = None, wild: bool = True
) -> Ladder:
    """The whole ladder up to `max_count` dice (built once per kind of round, then shared).

    `wild` = may the wild face be bid (outside palifico; Perudo forbids opening on pacos).
    """
    bids: list[Bid] = []
    for count in range(1, max_count + 1):
        if palifico:
            faces: tuple[int, ...] = (palifico_face,) if palifico_face is not None else FACES
        else:
            faces = (*number_faces(rules), rules.wild_face) if wild else number_faces(rules)
        bids += [Bid(count, face) for face in faces]
    bids.sort(key=lambda b: bid_key(b.count, b.face, rules, palifico))  # stable: equal keys keep face order
    keys = tuple(bid_key(b.count, b.face, rules, palifico) for b in bids)
    labels = tuple(face_label(b.face, rules, palifico) for b in bids)
    position = {b: i for i, b in enumerate(bids)}
    return Ladder(bids, keys, position, {id(b): i for i, b in enumerate(bids)}, labels, {}, {})


def ladder_for(
    standing: Bid | None, max_count: int, rules: DiceRules, palifico: bool = False, palifico_face: int | None = None
) -> tuple[Ladder, int]:
    """The ladder a round is on and the position of the lowest legal raise in it."""
    # Perudo forbids opening on pacos (outside palifico); Bluff allows a star opening.
    wild = standing is not None or rules.ruleset == "bluff"
    rungs = ladder(max_count, rules, palifico, palifico_face if palifico else None, wild)
    return rungs, rungs.above(standing, rules, palifico)


def legal_bids(
    standing: Bid | None,
    max_count: int,
    rules: DiceRules,
    palifico: bool = False,
    palifico_face: int | None = None,
) -> list[Bid]:
    """Every bid above `standing`, lowest first, with counts capped at the dice in play.

    [decided here] A count above the dice in play can never be true; capping there keeps
    the action list finite (OpenSpiel does the same) and lets a bid reach the top of the
    ladder, after which the next player can only challenge.
    """
    rungs, start = ladder_for(standing, max_count, rules, palifico, palifico_face)
    return rungs.bids[start:]
