"""Briscola bugiarda's kit: cards clicked to play, the auction and trumps on a paged menu.

What only Briscola bugiarda does at a table:

* **Cards**: the seat's hand is a panel of signs inside its booth, one card each, named
  in the table's language, in the order a player fans them (by suit, strongest first);
  clicking a card on your turn plays it.
* **The menu**: in the auction and when naming trumps, the seat's legal actions are the
  signs of its menu (pass and solo first, then the ranks it may bid, paged with "more");
  clicking one makes it.
* **The secret partner** stays secret: the board names the called card, never who holds
  it, until it is played (the rules' public view says so); each booth's info sign tells
  its player their own role, from their own hand.

[decided here] Chat is the game's own parser (English and Japanese); the kit adds nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Mapping
from typing import Any

from mcbridge.core import Action
from mcbridge.games.briscola_bugiarda import BriscolaState
from mcbridge.games.briscola_bugiarda.actions import Dealt, Pass, Play, Solo
from mcbridge.games.briscola_bugiarda.cards import sort_hand
from mcbridge.tables.arena import SeatPlan
from mcbridge.tables.kit import Kit, Scene, TableView
from mcbridge.tables.kits.briscola_bugiarda_arena import PART
from mcbridge.tables.kits.briscola_bugiarda_render import Frame, render
from mcbridge.tables.kits.signs import Menu, PartMemo, panel_targets, sign_texts, time_left
from mcbridge.tables.table import Table
from mcbridge.world.geometry import Pos


class BriscolaKit(Kit):
    part = PART
    #: The board shows that everyone has eight cards.
    quiet_events = (Dealt,)

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.menus = [Menu[Action](len(seat.menu.cells)) for seat in table.arena.seats]
        self.texts = sign_texts(table.text)
        self.memo = PartMemo()

    @property
    def state(self) -> BriscolaState:
        state = self.table.state
        assert isinstance(state, BriscolaState)
        return state

    def menu_items(self, seat: int) -> list[Action]:
        """The seat's legal actions for its menu: pass and solo first (the usual answers),
        then bids strongest first, or the four suits. Cards are played from the hand."""
        legal = [a for a in self.state.legal_actions(seat) if not isinstance(a, Play)]
        first = [a for a in legal if isinstance(a, Pass | Solo)]
        return [*first, *(a for a in legal if not isinstance(a, Pass | Solo))]

    def hand(self, seat: int) -> list[str]:
        """The seat's cards in the order its hand panel shows them."""
        return sort_hand(self.state.hands[seat])

    # -- input ----------------------------------------------------------------------------
    def hit_targets(self, seat: SeatPlan) -> dict[Pos, tuple[str, int]]:
        return {**super().hit_targets(seat), **panel_targets(seat.hand, "hand"), **panel_targets(seat.menu, "menu")}

    def on_click(self, booth: int, seat: int, target: str, slot: int) -> Action | None:
        if target == "menu":
            return self.menus[booth].click(self.menu_items(seat), slot)
        if target == "hand":
            hand = self.hand(seat)
            if slot < len(hand) and Play(hand[slot]) in self.state.legal_actions(seat):
                return Play(hand[slot])
        return None

    def clicks_for(self, booth: int, seat: int, action: Action) -> list[tuple[str, int]]:
        """The clicks (target, slot) that make `action`: a card on the hand panel; anything
        else on the menu, "more" first while it is on another page of the menu as it shows
        now. What a person does, and what sign-clicking bots do."""
        if isinstance(action, Play):
            return [("hand", self.hand(seat).index(action.card))]
        menu = copy.copy(self.menus[booth])
        items = self.menu_items(seat)
        clicks: list[tuple[str, int]] = []
        for _ in range(menu.pages(items)):
            shown = menu.layout(items)
            if action in shown:
                return [*clicks, ("menu", shown.index(action))]
            clicks.append(("menu", len(shown) - 1))
            menu.click(items, len(shown) - 1)
        raise ValueError(f"{action} is not on this seat's menu")

    def decision_key(self) -> Hashable:
        state = self.state
        return (state.deal, state.phase, len(state.bids), len(state.tricks), len(state.trick))

    def on_decision(self, seat: int) -> None:
        self.menus[self.table.booth_of(seat)].reset()

    def on_reset(self) -> None:
        for menu in self.menus:
            menu.reset()

    # -- output ---------------------------------------------------------------------------
    def scene_key(self) -> Hashable:
        return (tuple(menu.page for menu in self.menus), time_left(self.table))

    def render(self, view: TableView) -> Scene:
        state = self.table.state
        public = view.public
        n = len(view.arena.seats)
        menus: list[list[Any]] = [[None] * len(seat.menu.cells) for seat in view.arena.seats]
        playable: list[frozenset[str]] = [frozenset()] * n
        if isinstance(state, BriscolaState) and public is not None:
            for seat, booth in enumerate(self.table.booths):
                if seat in state.to_act():
                    menus[booth] = self.menus[booth].layout(self.menu_items(seat))
                    playable[booth] = frozenset(a.card for a in state.legal_actions(seat) if isinstance(a, Play))
            if state.is_over:
                public = {**public, "standings": state.result()["standings"]}
        frame = Frame(
            public=public,
            private=view.private,
            menus=menus,
            playable=playable,
            occupants=view.occupants,
            seat_of_booth=view.seat_of_booth,
            seconds=time_left(self.table),
            countdown=view.lobby_countdown,
        )
        return render(view.arena, self.texts, frame, self.memo)

    def score_text(self, row: Mapping[str, Any]) -> str:
        return self.table.text.t("briscola_bugiarda.score", chips=row["chips"])


KIT = BriscolaKit
