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

from collections.abc import Iterable

from mcbridge.games.dice_bluff.actions import FACES, Bid
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
    floor = bid_key(standing.count, standing.face, rules, palifico) if standing else None
    bids: list[Bid] = []
    for count in range(1, max_count + 1):
        if palifico:
            faces: tuple[int, ...] = (palifico_face,) if palifico_face is not None else FACES
        else:
            faces = number_faces(rules)
            # Perudo forbids opening on pacos (outside palifico); Bluff allows a star opening.
            if standing is not None or rules.ruleset == "bluff":
                faces = (*faces, rules.wild_face)
        for face in faces:
            if floor is None or bid_key(count, face, rules, palifico) > floor:
                bids.append(Bid(count, face))
    bids.sort(key=lambda b: bid_key(b.count, b.face, rules, palifico))
    return bids
