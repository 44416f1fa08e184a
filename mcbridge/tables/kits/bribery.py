"""Bribery's kit: a hand of card-value signs to pick a bet from, and the betting signs.

A bet in Bribery is a number of cards played face down, so a player composes it by
clicking the hand's value signs (each click picks one more card of that value, wrapping
back to none after the last one held), then RAISE or CALL; ALL-IN, FOLD, PASS and
PASS + INFORMANT act at once, CLEAR forgets the picks. The action signs are lit from
`legal_actions(seat)`; a click on one that is not legal now still goes to the rules, whose
refusal tells the player what is legal (privately where the server can).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from mcbridge.core import Action, Event
from mcbridge.games.bribery import INFORMANT, AllIn, BriberyState, Call, Fold, Pass, Raise
from mcbridge.games.bribery.actions import CardsDrawn, sorted_cards
from mcbridge.tables.kit import Scene, TableView
from mcbridge.tables.kits.bribery_arena import PART, luck_values
from mcbridge.tables.kits.bribery_render import BoardInfo, SeatDraft, render
from mcbridge.tables.kits.hand_table import HandTableKit
from mcbridge.tables.kits.signs import concrete, time_left
from mcbridge.tables.table import Table

#: Signs that act at once, without picked cards.
DIRECT: dict[str, Action] = {
    "allin": AllIn(),
    "fold": Fold(),
    "pass": Pass("two_cards"),
    "pass_informant": Pass("card_and_informant"),
}


def legal_kinds(legal: Sequence[Action]) -> frozenset[str]:
    """The action kinds a legal list holds ("PassInformant" for the informant refill)."""
    kinds = set()
    for action in concrete(legal):
        kind = type(action).__name__
        if isinstance(action, Pass) and action.refill == "card_and_informant":
            kind = "PassInformant"
        kinds.add(kind)
    return frozenset(kinds)


class BriberyKit(HandTableKit[SeatDraft, frozenset[str]]):
    part = PART
    #: Draws happen after nearly every action; seat signs show every hand's size.
    quiet_events = (CardsDrawn,)

    def __init__(self, table: Table) -> None:
        super().__init__(table, SeatDraft, legal_kinds, frozenset())
        #: the hand panel's values in reading order: luck values ascending, then informants
        self.values = [*luck_values(table.arena), INFORMANT]

    @property
    def state(self) -> BriberyState:
        state = self.table.state
        assert isinstance(state, BriberyState)
        return state

    # -- input ----------------------------------------------------------------------------
    def on_click(self, booth: int, seat: int, target: str, slot: int) -> Action | None:
        draft = self.drafts[booth]
        if target == "card":
            if slot < len(self.values):
                self._pick(draft, self.state.hands[seat], self.values[slot])
            return None
        if target == "clear":
            draft.picked = []
            return None
        if target in ("raise", "call"):
            cards = sorted_cards(draft.picked)
            return Raise(cards) if target == "raise" else Call(cards)
        return DIRECT.get(target)

    def clicks_for(self, booth: int, seat: int, action: Action) -> list[tuple[str, int]]:
        """The clicks (target, slot) that make `action` from the booth's draft as its signs
        show it now: what a person does, and what sign-clicking bots do."""
        for target, direct in DIRECT.items():
            if action == direct:
                return [(target, 0)]
        assert isinstance(action, Raise | Call), action
        clear = [("clear", 0)] if self.drafts[booth].picked else []
        picks = [("card", self.values.index(card)) for card in action.cards]
        return [*clear, *picks, ("raise" if isinstance(action, Raise) else "call", 0)]

    def parse_chat(self, seat: int, text: str) -> Action:
        """The rules' parse; but where the server has no private messages, a bet naming
        cards not held is refused without the rules' answer, which lists the hand (it
        would go to public chat)."""
        action = super().parse_chat(seat, text)
        if isinstance(action, Raise | Call):
            self.refuse_unheld_quietly(action.cards, self.state.hands[seat], "cards_not_held_quiet")
        return action

    @staticmethod
    def _pick(draft: SeatDraft, hand: list[int], value: int) -> None:
        """One more card of `value`; past the last one held, none of it again."""
        if draft.picked.count(value) < hand.count(value):
            draft.picked.append(value)
        else:
            draft.picked = [c for c in draft.picked if c != value]

    # -- time -----------------------------------------------------------------------------
    def on_decision(self, seat: int) -> None:
        self.drafts[self.table.booth_of(seat)].picked = []

    def on_applied(self, seat: int, action: Action, events: list[Event], now: float) -> None:
        if seat >= 0:
            self.drafts[self.table.booth_of(seat)].picked = []

    # -- output ---------------------------------------------------------------------------
    def scene_key(self) -> Hashable:
        return (tuple(tuple(d.picked) for d in self.drafts), time_left(self.table))

    def render(self, view: TableView) -> Scene:
        public = self.board_public(view.public)
        info = BoardInfo(seconds=time_left(self.table), countdown=view.lobby_countdown)
        return render(
            view.arena,
            self.texts,
            public,
            view.private,
            view.occupants,
            view.seat_of_booth,
            self.drafts,
            self.legal_by_booth(),
            self.values,
            info,
            self.memo,
        )

    def score_text(self, row: Mapping[str, Any]) -> str:
        return self.table.text.t("bribery.score", vp=row["vp"], influencers=row["influencers"])


KIT = BriberyKit
