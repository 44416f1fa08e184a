"""Legal action lists that stay small: a run of amounts is one `ActionRange` entry.

A betting game with deep stacks has one legal raise per chip amount (Braff with 100 000
starting chips: 1.2 million `Raise` actions, 1.5 s to list). Instead, `legal_actions` may
put an `ActionRange` in the list: it stands for every action that is `first` with its
`field` set to `first.<field>`, `+ step`, ... up to `last`. An entry is not itself applied;
tables show it as a range ("raise C 12..480") and bots pick from it. The helpers here let
any caller treat a list with ranges like the full list: `count`, `expand`, `contains`,
and `Rng.pick`, which draws uniformly over the concrete actions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcbridge.core.game import Action

if TYPE_CHECKING:
    from mcbridge.core.rng import Rng

#: Above this many concrete actions a game lists ranges instead (a few hundred is still a
#: list a bot can scan and a table can page through; a million is not).
MAX_LISTED = 300


@dataclass(frozen=True, eq=False)
class ActionRange(Action):
    """Every `first` with `field` = first.field, first.field + step, ..., `last`.

    An Action only so legal lists keep one element type; no game lists it among its
    action types, so `apply` refuses it ("unknown_action"): apply one of its actions.
    It compares equal to every action it stands for (and to an equal range), so
    `action in state.legal_actions(seat)` keeps meaning "is legal" for lists with ranges;
    for the same reason it is not hashable.
    """

    first: Action
    field: str
    last: int
    step: int = 1

    def __post_init__(self) -> None:
        if self.step < 1 or self.last < self.lowest:
            raise ValueError(f"empty or backwards range {self.lowest}..{self.last} step {self.step}")

    @property
    def lowest(self) -> int:
        value: int = getattr(self.first, self.field)
        return value

    def __len__(self) -> int:
        return (self.last - self.lowest) // self.step + 1

    def at(self, index: int) -> Action:
        if not 0 <= index < len(self):
            raise IndexError(index)
        return dataclasses.replace(self.first, **{self.field: self.lowest + index * self.step})

    def __iter__(self) -> Iterator[Action]:
        return (self.at(i) for i in range(len(self)))

    def __contains__(self, action: object) -> bool:
        if type(action) is not type(self.first):
            return False
        value = getattr(action, self.field)
        if type(value) is not int or not self.lowest <= value <= self.last or (value - self.lowest) % self.step:
            return False
        return dataclasses.replace(self.first, **{self.field: value}) == action

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionRange):
            return (self.first, self.field, self.last, self.step) == (other.first, other.field, other.last, other.step)
        return other in self

    __hash__ = None  # type: ignore[assignment]  # equal to many actions of different hashes

    def to_json(self) -> dict[str, Any]:
        first = self.first.to_json()
        return {"type": "ActionRange", "first": first, "field": self.field, "last": self.last, "step": self.step}


def count(legal: Sequence[Action]) -> int:
    """How many concrete actions the list stands for."""
    return sum(len(e) if isinstance(e, ActionRange) else 1 for e in legal)


def expand(legal: Sequence[Action]) -> Iterator[Action]:
    """Every concrete action, in list order (can be long: that is why ranges exist)."""
    for entry in legal:
        if isinstance(entry, ActionRange):
            yield from entry
        else:
            yield entry


def contains(legal: Sequence[Action], action: Action) -> bool:
    """`action in legal`, spelled out (a range is equal to each action it stands for)."""
    return any(action in e if isinstance(e, ActionRange) else action == e for e in legal)


def pick_concrete(legal: Sequence[Action], rng: Rng) -> Action:
    """A uniformly random concrete action (what `Rng.pick` does for a list with ranges).
    Without ranges this is exactly one `randrange` over the list, like `rng.pick(legal)`."""
    index = rng.randrange(count(legal))
    for entry in legal:
        size = len(entry) if isinstance(entry, ActionRange) else 1
        if index < size:
            return entry.at(index) if isinstance(entry, ActionRange) else entry
        index -= size
    raise AssertionError("index within count")
