"""What the Bribery and Braff kits share: one seat acts at a time, each booth has a hand
panel of signs (region `cards`) and a draft, and the signs show what `legal_actions`
allows the seat to act.

`HandTableKit` keeps the drafts (fresh at every decision and every match), the hand
panel's click targets, the per-booth reading of the legal list (cached per journal
position, since renders ask for it often), the rules' final ranking on the board, and the
guard that keeps a hand out of public chat when the server has no private messages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from mcbridge.core import Action, IllegalAction
from mcbridge.tables import rules_view
from mcbridge.tables.arena import SeatPlan
from mcbridge.tables.kit import Kit
from mcbridge.tables.kits.signs import PartMemo, panel_targets, sign_texts
from mcbridge.tables.table import Table
from mcbridge.world.geometry import Pos

D = TypeVar("D")  # a booth's draft
C = TypeVar("C")  # what a booth's seat may do now, read from its legal list


class HandTableKit(Kit, Generic[D, C]):
    """A kit whose booths each hold a hand panel and a draft of type `D`."""

    def __init__(self, table: Table, new_draft: Callable[[], D], read_legal: Callable[[Sequence[Action]], C],
                 nothing: C) -> None:
        super().__init__(table)
        self.new_draft = new_draft
        self.drafts = [new_draft() for _ in table.arena.seats]
        self.read_legal = read_legal
        self.nothing = nothing  # what a booth may do when its seat is not to act
        self.texts = sign_texts(table.text)
        self.memo = PartMemo()
        self._legal: tuple[Hashable, list[C]] = (None, [])

    def hit_targets(self, seat: SeatPlan) -> dict[Pos, tuple[str, int]]:
        return {**super().hit_targets(seat), **panel_targets(seat.cards, "card")}

    def decision_key(self) -> Hashable:
        return self.table.seq  # one seat acts at a time: every action is a new decision

    def on_reset(self) -> None:
        self.drafts = [self.new_draft() for _ in self.table.arena.seats]

    def legal_by_booth(self) -> list[C]:
        """What each booth's seat may do now (cached per match and journal position)."""
        at = (self.table.match_id, self.table.seq)
        if self._legal[0] != at:
            found = [self.nothing for _ in self.table.arena.seats]
            state = self.table.state
            if state is not None and not state.is_over:
                for seat in state.to_act():
                    if seat >= 0:
                        found[self.table.booth_of(seat)] = self.read_legal(state.legal_actions(seat))
            self._legal = (at, found)
        return self._legal[1]

    def board_public(self, public: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
        """The public view, with the rules' final ranking once the match is over."""
        state = self.table.state
        if state is not None and state.is_over and public is not None:
            return {**public, "standings": rules_view.standings(state)}
        return public

    def refuse_unheld_quietly(self, cards: Iterable[Any], hand: Iterable[Any], code: str) -> None:
        """Where the server has no private messages a refusal goes to public chat, and the
        rules' answer to cards not held names the hand: refuse with `code` instead."""
        if not self.table.can_tell and Counter(cards) - Counter(hand):
            raise IllegalAction(code)

    def tell_booth(self, booth: int, text: str) -> None:
        occupant = self.table.occupants[booth]
        if occupant is not None:
            self.table.tell(occupant.name, text)
