"""Card multisets: hands, bets and showdowns are lists of card values (an informant is 0)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache


def sub_multisets(hand: Iterable[int], size: int) -> Iterator[tuple[int, ...]]:
    """Every distinct way to pick `size` cards from a hand (sorted tuples)."""
    yield from by_size(tuple(sorted(hand))).get(size, ())


@lru_cache(maxsize=4096)
def by_size(hand: tuple[int, ...]) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Every distinct pick from a sorted hand, grouped by how many cards it takes, each
    group in the same order as one pass over the per-value counts. Hands repeat (five
    values and informants), so a bet list is one cache hit instead of an enumeration."""
    picks: list[tuple[int, ...]] = [()]
    for value, n in sorted(Counter(hand).items()):  # the order of product(range(n0+1), range(n1+1), ...)
        picks = [pick + (value,) * k for pick in picks for k in range(n + 1)]
    groups: dict[int, list[tuple[int, ...]]] = {}
    for pick in picks:
        groups.setdefault(len(pick), []).append(pick)
    return {size: tuple(group) for size, group in groups.items()}


def luck_total(cards: Iterable[int]) -> int:
    """The showdown total: informants are worth 0."""
    return sum(cards)
