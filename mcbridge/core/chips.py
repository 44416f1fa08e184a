"""Chip stacks and pots with all-in and side pots, shared by the betting games.

A betting round records how much each seat has put in (`contributions`). Side pots fall
out of those numbers alone: each distinct all-in level cuts a layer, and a layer is won
only by live seats that paid up to it. Keeping contributions (not pots) as the state
makes the arithmetic easy to check: chips are conserved by construction.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from mcbridge.core.errors import IllegalAction


@dataclass(frozen=True)
class SidePot:
    amount: int
    eligible: frozenset[int]


class ChipStacks:
    """Chips in front of each seat plus this round's contributions to the pot."""

    def __init__(self, stacks: Sequence[int], contributions: Sequence[int] | None = None) -> None:
        self.stacks = list(stacks)
        self.contributions = list(contributions) if contributions else [0] * len(stacks)

    def put_in(self, seat: int, amount: int) -> int:
        """Move chips from a stack to the pot; refuses more than the seat has."""
        if amount < 0:
            raise IllegalAction("negative_amount", amount=amount)
        if amount > self.stacks[seat]:
            raise IllegalAction("not_enough_chips", have=self.stacks[seat], need=amount)
        self.stacks[seat] -= amount
        self.contributions[seat] += amount
        return amount

    def is_all_in(self, seat: int) -> bool:
        return self.stacks[seat] == 0 and self.contributions[seat] > 0

    @property
    def pot_total(self) -> int:
        return sum(self.contributions)

    def total(self) -> int:
        """Chips on the table in all: stacks plus pot (conserved)."""
        return sum(self.stacks) + self.pot_total

    def pots(self, live: Collection[int]) -> list[SidePot]:
        return side_pots(self.contributions, live)

    def award(self, pot: SidePot, winners: Sequence[int]) -> int:
        """Split one pot among winners (in odd-chip order); returns the undivided remainder."""
        share, remainder = divmod(pot.amount, len(winners))
        for seat in winners:
            self.stacks[seat] += share
        return remainder

    def clear_pot(self) -> None:
        self.contributions = [0] * len(self.stacks)

    def to_json(self) -> dict[str, list[int]]:
        return {"stacks": list(self.stacks), "contributions": list(self.contributions)}

    @classmethod
    def from_json(cls, data: dict[str, list[int]]) -> ChipStacks:
        """The inverse of `to_json`; ValueError for anything but two equal-length lists of
        whole numbers >= 0 (saved data is checked before a match plays on with it)."""
        stacks, contributions = data["stacks"], data["contributions"]
        for values in (stacks, contributions):
            if not isinstance(values, list) or not all(type(v) is int and v >= 0 for v in values):
                raise ValueError(f"chip counts must be whole numbers >= 0, not {values!r}")
        if len(stacks) != len(contributions):
            raise ValueError("one contribution per stack")
        return cls(stacks, contributions)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChipStacks) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable


def side_pots(contributions: Sequence[int], live: Collection[int]) -> list[SidePot]:
    """Cut the pot into layers at each live seat's contribution level.

    Folded seats' chips stay in the layers they reached but win nothing. A top layer that
    no live seat reached (a folded seat over-contributed) joins the layer below it, so no
    chip is ever left without an owner. Each layer has fewer eligible seats than the one below.
    """
    live_set = frozenset(s for s in live if contributions[s] > 0) or frozenset(live)
    levels = sorted({contributions[s] for s in live_set if contributions[s] > 0})
    if not levels:
        total = sum(contributions)
        return [SidePot(total, frozenset(live))] if total else []
    pots: list[SidePot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        # every level is a live payer's own: that payer is eligible up to it and no higher, so
        # each layer's eligible seats are strictly fewer than the last's (no two to merge)
        pots.append(SidePot(amount, frozenset(s for s in live_set if contributions[s] >= level)))
        previous = level
    overflow = sum(c - min(c, previous) for c in contributions)
    if overflow:
        pots[-1] = SidePot(pots[-1].amount + overflow, pots[-1].eligible)
    return pots


def split_evenly(amount: int, winners: Iterable[int]) -> tuple[dict[int, int], int]:
    """Equal shares per winner and the odd chips left over (the game decides where they go)."""
    seats = list(winners)
    share, remainder = divmod(amount, len(seats))
    return dict.fromkeys(seats, share), remainder
