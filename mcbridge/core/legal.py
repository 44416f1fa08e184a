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
#: [decided here] Up to this many actions of one kind (bids of a short ladder) are listed
#: one by one: cheaper to scan and to pick from than ranges; more come as ranges. Callers
#: meet both forms in one match (a Dice Bluff ladder shrinks as dice are lost).
PLAIN_UP_TO = 24
#: Concrete actions a range keeps once built (a deep-stack range is not kept whole).
MAX_KEPT = 1024

_init_fields: dict[type, tuple[str, ...]] = {}


def init_fields(kind: type) -> tuple[str, ...]:
    """The names an action type's constructor takes, in order (`dataclasses.fields` walks
    every field each call; a game makes ranges of a handful of types)."""
    try:
        return _init_fields[kind]
    except KeyError:
        names = _init_fields[kind] = tuple(f.name for f in dataclasses.fields(kind) if f.init)
        return names


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
    # Derived once at creation (the range is immutable), so listing, counting and picking
    # stay cheap: the size, the lowest value, the first action's init fields (to build an
    # action as `dataclasses.replace` would, without its walk) and the actions built so far
    # (index -> action; ranges a game keeps hand out the same action objects each time).
    _size: int = dataclasses.field(init=False, repr=False, compare=False)
    _lowest: int = dataclasses.field(init=False, repr=False, compare=False)
    _fields: dict[str, Any] = dataclasses.field(init=False, repr=False, compare=False)
    _made: dict[int, Action] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lowest = getattr(self.first, self.field)
        if self.step < 1 or self.last < lowest:
            raise ValueError(f"empty or backwards range {lowest}..{self.last} step {self.step}")
        first = self.first
        fields = {name: getattr(first, name) for name in init_fields(type(first))}
        setattr_ = object.__setattr__
        setattr_(self, "_size", (self.last - lowest) // self.step + 1)
        setattr_(self, "_lowest", lowest)
        setattr_(self, "_fields", fields)
        setattr_(self, "_made", {})

    @classmethod
    def of(cls, run: Sequence[Action], field: str) -> ActionRange:
        """The range whose actions are `run` (evenly stepped in `field`, the rest equal), and
        which hands out those very objects: a game that keeps its actions (a bid ladder)
        then sees its own objects come back from `at`, `iter` and `Rng.pick`."""
        first, lowest = run[0], getattr(run[0], field)
        step = getattr(run[1], field) - lowest if len(run) > 1 else 1
        entry = cls(first, field, getattr(run[-1], field), step)
        if len(entry) != len(run):
            raise ValueError(f"not an evenly stepped run of {field}: {run!r}")
        # Each action must be the one `at` would build: the same type, `field` on the step,
        # every other init field as in `first`. Compared field by field rather than by
        # building each action to compare with (a ladder of bids is checked per position).
        kind, others = type(first), [name for name in entry._fields if name != field]
        rest = [entry._fields[name] for name in others]
        made = entry._made
        for index, action in enumerate(run):
            if (
                type(action) is not kind
                or getattr(action, field) != lowest + index * step
                or [getattr(action, name) for name in others] != rest
            ):
                raise ValueError(f"not an evenly stepped run of {field}: {run!r}")
            made[index] = action
        return entry

    @property
    def lowest(self) -> int:
        return self._lowest

    def __len__(self) -> int:
        return self._size

    def at(self, index: int) -> Action:
        made = self._made.get(index)
        if made is None:
            if not 0 <= index < self._size:
                raise IndexError(index)
            made = self._with(self._lowest + index * self.step)
            if len(self._made) < MAX_KEPT:
                self._made[index] = made
        return made

    def _with(self, value: int) -> Action:
        """`first` with `field` = value, as `dataclasses.replace` builds it."""
        fields = dict(self._fields)
        fields[self.field] = value
        action: Action = type(self.first)(**fields)
        return action

    def __iter__(self) -> Iterator[Action]:
        return (self.at(i) for i in range(self._size))

    def __contains__(self, action: object) -> bool:
        if type(action) is not type(self.first):
            return False
        value = getattr(action, self.field)
        lowest = self._lowest
        if type(value) is not int or not lowest <= value <= self.last or (value - lowest) % self.step:
            return False
        found = self.at((value - lowest) // self.step)
        return found is action or found == action  # a kept action comes back as itself

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
    return sum(e._size if isinstance(e, ActionRange) else 1 for e in legal)


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
    sizes = [e._size if isinstance(e, ActionRange) else 1 for e in legal]
    total = sum(sizes)
    index = rng.below(total)
    if total == len(legal):  # no ranges (or only one-action ones): the index is the entry
        entry = legal[index]
        return entry.at(0) if isinstance(entry, ActionRange) else entry
    for entry, size in zip(legal, sizes, strict=True):
        if index < size:
            return entry.at(index) if isinstance(entry, ActionRange) else entry
        index -= size
    raise AssertionError("index within count")
