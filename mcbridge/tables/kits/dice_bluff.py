"""Dice Bluff's kit: the bid composed on signs, dice clicked to set aside, cups held up.

What only Dice Bluff does at a table:

* **The bid draft** (face, count): FACE cycles through the faces that have a legal bid
  now, -1/+1 move the count within the legal ones for that face, BID submits it. Each new
  decision starts the draft at the lowest legal bid (on the standing bid's face), so one
  click on BID always makes a legal raise.
* **Set aside**: the dice under the cup are signs on the booth's back wall; clicking one
  picks it (again: unpicks), SET ASIDE submits the picked faces. Then the rest are
  re-rolled in secret and the seat must raise.
* **Cups up**: after a challenge every cup is shown on the seats' outer `shown` signs
  (the rules made them public) for `reveal_hold` seconds before the next roll.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from mcbridge.core import Action, Event
from mcbridge.games.dice_bluff import Bid, Challenge, DiceBluffState, SetAside
from mcbridge.games.dice_bluff.actions import DiceRolled, Roll
from mcbridge.tables.arena import SeatPlan
from mcbridge.tables.kit import Kit, Scene, TableView
from mcbridge.tables.kits.dice_bluff_arena import PART
from mcbridge.tables.kits.dice_bluff_render import DiceUi, Frame, render
from mcbridge.tables.kits.signs import PartMemo, clamp, concrete, cycle, panel_targets, sign_texts, time_left
from mcbridge.tables.table import Table
from mcbridge.world.geometry import Pos


class DiceBluffKit(Kit):
    part = PART
    #: One per seat per round: the board and the seat signs show the dice counts.
    quiet_events = (DiceRolled,)

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.ui = [DiceUi() for _ in table.arena.seats]
        self.texts = sign_texts(table.text)
        self.memo = PartMemo()
        self.hold_until = 0.0

    @property
    def state(self) -> DiceBluffState:
        state = self.table.state
        assert isinstance(state, DiceBluffState)
        return state

    def _bids(self, seat: int) -> list[Bid]:
        return [a for a in concrete(self.state.legal_actions(seat)) if isinstance(a, Bid)]

    # -- input ----------------------------------------------------------------------------
    def hit_targets(self, seat: SeatPlan) -> dict[Pos, tuple[str, int]]:
        return {**super().hit_targets(seat), **panel_targets(seat.cup, "die")}

    def on_click(self, booth: int, seat: int, target: str, slot: int) -> Action | None:
        ui = self.ui[booth]
        legal = list(concrete(self.state.legal_actions(seat)))  # the bids come as one range per face
        bids = [a for a in legal if isinstance(a, Bid)]
        if target == "face" and bids:
            ui.face = cycle(bid_faces(bids, self.state), ui.face)
            ui.count = clamp(ui.count, *count_range(bids, ui.face))
        elif target in ("minus", "plus") and bids:
            ui.count = clamp(ui.count + (1 if target == "plus" else -1), *count_range(bids, ui.face))
        elif target == "bid" and bids:
            return Bid(ui.count, ui.face)
        elif target == "challenge" and Challenge() in legal:
            return Challenge()
        elif target == "die" and any(isinstance(a, SetAside) for a in legal):
            hidden = self.state.hidden[seat] or []
            if slot in ui.picked:
                ui.picked.remove(slot)
            elif slot < len(hidden):
                ui.picked.append(slot)
        elif target == "aside" and ui.picked:
            hidden = self.state.hidden[seat] or []
            return SetAside(tuple(sorted(hidden[k] for k in ui.picked if k < len(hidden))))
        return None

    def clicks_for(self, booth: int, seat: int, action: Action) -> list[tuple[str, int]]:
        """The clicks (target, slot) that make `action` from the booth's draft as its signs
        show it now: what a person does, and what sign-clicking bots do."""
        if isinstance(action, Challenge):
            return [("challenge", 0)]
        if isinstance(action, SetAside):
            hidden = list(self.state.hidden[seat] or [])
            slots: list[int] = []
            for face in action.dice:
                slots.append(next(k for k, d in enumerate(hidden) if d == face and k not in slots))
            return [*(("die", k) for k in slots), ("aside", 0)]
        assert isinstance(action, Bid)
        ui = self.ui[booth]
        bids = self._bids(seat)
        face, count = ui.face, ui.count
        clicks: list[tuple[str, int]] = []
        for _ in range(len(bids)):
            if face == action.face:
                break
            clicks.append(("face", 0))
            face = cycle(bid_faces(bids, self.state), face)
            count = clamp(count, *count_range(bids, face))
        step = "plus" if action.count > count else "minus"
        return [*clicks, *[(step, 0)] * abs(action.count - count), ("bid", 0)]

    # -- chance and time ------------------------------------------------------------------
    def chance(self, now: float) -> Action | None:
        if self.state.phase == "roll" and now < self.hold_until:
            return None  # the cups stay up a moment after a challenge
        return super().chance(now)

    def on_applied(self, seat: int, action: Action, events: list[Event], now: float) -> None:
        if isinstance(action, Challenge):
            self.hold_until = now + self.table.reveal_hold
        if seat >= 0 or isinstance(action, Roll):
            for booth in self.table.booths:
                self.ui[booth].picked = []  # the cup changed under the picks

    def decision_key(self) -> Hashable:
        state = self.state
        return (state.round, len(state.history), state.must_raise)

    def on_decision(self, seat: int) -> None:
        """A fresh draft: the lowest legal bid, on the standing bid's face if it has one."""
        ui = self.ui[self.table.booth_of(seat)]
        ui.picked = []
        bids = self._bids(seat)
        if not bids:
            return
        standing = self.state.bid
        faces = bid_faces(bids, self.state)
        ui.face = standing.face if standing is not None and standing.face in faces else bids[0].face
        ui.count = count_range(bids, ui.face)[0]

    def on_reset(self) -> None:
        self.ui = [DiceUi() for _ in self.table.arena.seats]
        self.hold_until = 0.0

    def shift_timers(self, seconds: float) -> None:
        """After a pause the roll's display hold goes on with the time it had left."""
        self.hold_until += seconds

    # -- output ---------------------------------------------------------------------------
    def revealing(self) -> bool:
        state = self.table.state
        if not isinstance(state, DiceBluffState):
            return False
        return state.phase == "over" or (state.phase == "roll" and self.table.clock() < self.hold_until)

    def scene_key(self) -> Hashable:
        drafts = tuple((ui.face, ui.count, tuple(ui.picked)) for ui in self.ui)
        return (self.revealing(), drafts, time_left(self.table))

    def render(self, view: TableView) -> Scene:
        state = self.table.state
        public = view.public
        legal: list[list[Action]] = [[] for _ in view.arena.seats]
        if isinstance(state, DiceBluffState) and public is not None:
            for seat, booth in enumerate(self.table.booths):
                if seat in state.to_act():
                    legal[booth] = list(concrete(state.legal_actions(seat)))
            if state.is_over:
                public = {**public, "standings": state.result()["standings"]}
        frame = Frame(
            public=public,
            private=view.private,
            legal=legal,
            occupants=view.occupants,
            seat_of_booth=view.seat_of_booth,
            ui=self.ui,
            reveal=self.revealing(),
            seconds=time_left(self.table),
            countdown=view.lobby_countdown,
        )
        return render(view.arena, self.texts, frame, self.memo)

    def score_text(self, row: Mapping[str, Any]) -> str:
        return self.table.text.t("dice_bluff.score", dice=row["dice"])


def bid_faces(bids: list[Bid], state: DiceBluffState) -> list[int]:
    """Faces that have a legal bid, numbers first and the wild face last (as on the dice)."""
    wild = state.rules.wild_face
    return sorted({b.face for b in bids}, key=lambda f: (f == wild and not state.palifico_round, f))


def count_range(bids: list[Bid], face: int) -> tuple[int, int]:
    """(lowest, highest) legal count on `face` (any bid's range when the face has none)."""
    counts = [b.count for b in bids if b.face == face] or [b.count for b in bids]
    return min(counts), max(counts)


KIT = DiceBluffKit
