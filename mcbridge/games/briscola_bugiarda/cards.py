"""The 40-card Italian pack: ranks, suits, card points and who wins a trick.

A card is a two-character code, rank then suit letter ("Ac" = A of coppe, "3d" = 3 of
denari): short enough to type in chat, stable in JSON. Suits are the Italian names in
code; the locale decides how they are shown (coppe or hearts, カップ or ハート).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

#: Ranks from strongest to weakest in a trick (A > 3 > K > Q > J > 7 > 6 > 5 > 4 > 2).
#: The auction uses the same order: each bid names a rank weaker than the standing one.
RANKS = ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2")
SUITS = ("coppe", "denari", "spade", "bastoni")
SUIT_CODES = {"c": "coppe", "d": "denari", "s": "spade", "b": "bastoni"}
_CODE_OF_SUIT = {suit: code for code, suit in SUIT_CODES.items()}

#: Card points: 30 per suit, 120 in the pack.
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2, "7": 0, "6": 0, "5": 0, "4": 0, "2": 0}
TOTAL_POINTS = 4 * sum(POINTS.values())

DECK = tuple(f"{rank}{_CODE_OF_SUIT[suit]}" for suit in SUITS for rank in RANKS)


# Per-card tables: bots and tricks ask these questions thousands of times per match.
_SUIT_OF = {c: SUIT_CODES[c[1]] for c in DECK}
#: card -> suit, read-only, for hot loops over cards known to be of the pack (`suit_of` also
#: answers for a code outside it)
SUIT_OF: Mapping[str, str] = MappingProxyType(_SUIT_OF)
_STRENGTH = {c: len(RANKS) - RANKS.index(c[0]) for c in DECK}
_CARD = {(rank, suit): f"{rank}{_CODE_OF_SUIT[suit]}" for rank in RANKS for suit in SUITS}
_POINTS_OF = {c: POINTS[c[0]] for c in DECK}
_HAND_ORDER = {c: (SUITS.index(_SUIT_OF[c]), RANKS.index(c[0])) for c in DECK}
#: (trump, suit led) -> card -> its `play_key`: a trick asks this for every card on the table.
_PLAY_KEYS: dict[tuple[str | None, str], dict[str, tuple[int, int]]] = {
    (trump, led): {c: (2 if _SUIT_OF[c] == trump else 1 if _SUIT_OF[c] == led else 0, _STRENGTH[c]) for c in DECK}
    for trump in (*SUITS, None)
    for led in SUITS
}


def card(rank: str, suit: str) -> str:
    found = _CARD.get((rank, suit))
    return found if found is not None else f"{rank}{_CODE_OF_SUIT[suit]}"


def rank_of(code: str) -> str:
    return code[0]


def suit_of(code: str) -> str:
    found = _SUIT_OF.get(code)
    return found if found is not None else SUIT_CODES[code[1]]


def points_of(code: str) -> int:
    found = _POINTS_OF.get(code)
    return found if found is not None else POINTS[code[0]]


def strength(code: str) -> int:
    """Higher is stronger within a suit."""
    found = _STRENGTH.get(code)
    return found if found is not None else len(RANKS) - RANKS.index(code[0])


def is_card(code: object) -> bool:
    return isinstance(code, str) and len(code) == 2 and code[0] in POINTS and code[1] in SUIT_CODES


def sort_hand(cards: Iterable[str]) -> list[str]:
    """By suit, strongest first: how a player fans their hand."""
    return sorted(cards, key=_hand_order)


def _hand_order(code: str) -> tuple[int, int]:
    found = _HAND_ORDER.get(code)
    return found if found is not None else (SUITS.index(suit_of(code)), RANKS.index(rank_of(code)))


def trick_winner(plays: Sequence[tuple[int, str]], trump: str | None) -> int:
    """The seat that wins a trick: the highest trump in it, else the highest card of the
    suit led. Nobody has to follow suit (may-follow), so other suits simply lose."""
    keys = play_keys(trump, suit_of(plays[0][1]))
    best_seat, best = plays[0][0], (-1, 0)
    for seat, code in plays:
        rank = keys.get(code) or play_key(code, trump, suit_of(plays[0][1]))
        if rank > best:  # the first of equal keys wins, as max() would
            best_seat, best = seat, rank
    return best_seat


def play_keys(trump: str | None, led: str) -> Mapping[str, tuple[int, int]]:
    """Card -> `play_key` for every card of the pack, for this trump and suit led (a table)."""
    found = _PLAY_KEYS.get((trump, led))
    return found if found is not None else {c: play_key(c, trump, led) for c in DECK}


def play_key(code: str, trump: str | None, led: str) -> tuple[int, int]:
    """How a card ranks in a trick: trumps above the suit led above the rest, then strength."""
    found = _PLAY_KEYS.get((trump, led))
    if found is not None and code in found:
        return found[code]
    suit = suit_of(code)
    return (2 if suit == trump else 1 if suit == led else 0, strength(code))
