"""Card multisets: hands, bets and showdowns are lists of card values (an informant is 0)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import product


def sub_multisets(hand: Iterable[int], size: int) -> Iterator[tuple[int, ...]]:
    """Every distinct way to pick `size` cards from a hand (sorted tuples)."""
    counts = sorted(Counter(hand).items())
    for picks in product(*(range(n + 1) for _, n in counts)):
        if sum(picks) == size:
            yield tuple(value for (value, _), k in zip(counts, picks, strict=True) for _ in range(k))


def luck_total(cards: Iterable[int]) -> int:
    """The showdown total: informants are worth 0."""
    return sum(cards)
