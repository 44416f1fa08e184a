"""Braff's cards as data: bust-up card colours, cup labels and the character table.

The character and meter numbers are not known (the seed is cut off before the table), so
nothing here hard-codes them: `Character` is built from seeds/braff.yaml and only knows how
to turn a hand into a cup. Cups are ordinals (AAA = -1, AA = 0, A = 1, ... J = 10) because
the rules compare and add them; labels exist for people.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

#: Bust-up card colours in display order: four effort colours, then the two fake colours.
COLOURS = ("red", "yellow", "blue", "green", "black", "white")

_COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}
_BELOW_A = {-1: "AAA", 0: "AA"}
_LETTERS = string.ascii_uppercase


def cup_label(cup: int) -> str:
    """'AAA', 'AA', 'A'..'Z' for ordinals -1..26; other ordinals as numbers (no letter exists)."""
    if cup in _BELOW_A:
        return _BELOW_A[cup]
    if 1 <= cup <= len(_LETTERS):
        return _LETTERS[cup - 1]
    return str(cup)


@lru_cache(maxsize=256)
def cup_ordinal(label: str) -> int | None:
    """The inverse of `cup_label` for letter labels (case-insensitive); None if not a cup."""
    text = label.strip().upper()
    for ordinal, name in _BELOW_A.items():
        if text == name:
            return ordinal
    if len(text) == 1 and text in _LETTERS:
        return _LETTERS.index(text) + 1
    return None


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Canonical order of a multiset of card colours, so equal hands compare equal."""
    items = list(cards)
    for colour in items:
        if colour not in COLOURS:
            raise ValueError(f"unknown card colour {colour!r}; colours are {', '.join(COLOURS)}")
    return tuple(sorted(items, key=COLOURS.index))


@dataclass(frozen=True)
class Character:
    """One character card: base cup, per-colour bonus rows, and whether "fake!" exposes it.

    `rows[colour]` is ((cards, bonus), ...) in ascending card count. A count between two
    rows uses the highest row not above it; counts above the last row add nothing more
    (rules/braff.md, from the seed's A-chan example).
    """

    id: str
    base: int
    exposed_by_fake: bool
    rows: Mapping[str, tuple[tuple[int, int], ...]]

    def bonus(self, colour: str, count: int) -> int:
        best = 0
        for cards, bonus in self.rows.get(colour, ()):
            if cards <= count:
                best = bonus
        return best

    def cup(self, hand: Sequence[str], dealer_bonus: int = 0) -> int:
        return self.base + dealer_bonus + sum(self.bonus(colour, hand.count(colour)) for colour in self.rows)

    def cup_of_packed(self, code: int, dealer_bonus: int = 0) -> int:
        """`cup` for a hand packed by `pack_counts` (what the bot enumerates, thousands of
        hands per decision: the bonuses come from a table built once)."""
        total = self.base + dealer_bonus
        for i, colour, table in self._bonus_table:
            k = (code >> (PACK_BITS * i)) & PACK_MASK
            total += table[k] if k < len(table) else self.bonus(colour, k)
        return total

    @cached_property
    def _bonus_table(self) -> tuple[tuple[int, str, tuple[int, ...]], ...]:
        return tuple((_COLOUR_INDEX[c], c, tuple(self.bonus(c, k) for k in range(16))) for c in self.rows)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "base": self.base,
            "base_label": cup_label(self.base),
            "exposed_by_fake": self.exposed_by_fake,
            "rows": {colour: [list(row) for row in rows] for colour, rows in self.rows.items()},
        }


#: Bits per colour in a packed hand: a hand as one int, the count of COLOURS[i] in bits
#: 8i..8i+7, so "kept cards + drawn cards" is one addition and a hand is a dict key.
PACK_BITS = 8
PACK_MASK = (1 << PACK_BITS) - 1


def pack_counts(counts: Sequence[int]) -> int:
    """Card counts in COLOURS order (each below 256) as one int."""
    return sum(k << (PACK_BITS * i) for i, k in enumerate(counts))


def character_from_option(data: Mapping[str, Any]) -> Character:
    rows = {colour: tuple(sorted((int(k), int(b)) for k, b in pairs)) for colour, pairs in data["rows"].items()}
    return Character(str(data["id"]), int(data["base"]), bool(data["exposed_by_fake"]), rows)


def deck_cards(deck: Mapping[str, int]) -> list[str]:
    """The bust-up deck as a list of colours (in COLOURS order, unshuffled)."""
    return [colour for colour in COLOURS for _ in range(int(deck.get(colour, 0)))]
