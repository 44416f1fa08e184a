"""Braff's kit: the hand to pick discards from, a cup and stake composed click by click,
and the call, drop, stand and doubt signs.

Discard: click up to two cards of the hand panel (a third click drops the oldest pick),
then DISCARD (with nothing picked it keeps the hand). Declare or raise: CUP cycles through
the cups above the highest that this seat can afford, -1/+1 set the stake within what
that cup allows, RAISE declares it. CALL is ALL-IN when a call cannot be paid. Doubt:
FAKE! or NOT ENOUGH!. Everything the signs offer comes from `legal_actions(seat)`, in a
plain list or with compact `ActionRange` entries for the stakes (the core's newer form):
`raise_choices` reads both.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from mcbridge.core import Action
from mcbridge.games.braff import BraffState
from mcbridge.games.braff.actions import AllIn, Call, CardDiscarded, Discard, Doubt, Drop, Raise, Stand
from mcbridge.games.braff.cards import cup_ordinal
from mcbridge.tables.kit import Scene, TableView
from mcbridge.tables.kits.braff_arena import PART
from mcbridge.tables.kits.braff_render import BoardInfo, Choices, SeatDraft, render
from mcbridge.tables.kits.hand_table import HandTableKit
from mcbridge.tables.kits.signs import bounds, clamp, cycle, ranges, time_left
from mcbridge.tables.table import Table

DIRECT: dict[str, Action] = {
    "drop": Drop(),
    "stand": Stand(),
    "fake": Doubt("fake"),
    "not_enough": Doubt("not_enough"),
}


def raise_choices(legal: Sequence[Action]) -> tuple[tuple[str, int, int], ...]:
    """(cup, least stake, most stake) of every cup a legal list lets this seat declare,
    smallest cup first; range entries are read by their ends, never expanded."""
    spans: dict[str, tuple[int, int]] = {}

    def add(cup: str, lo: int, hi: int) -> None:
        old = spans.get(cup)
        spans[cup] = (lo, hi) if old is None else (min(old[0], lo), max(old[1], hi))

    ranged = ranges(legal)
    for entry in ranged:
        if isinstance(entry.first, Raise):
            lo, hi = bounds(entry)
            add(entry.first.cup, lo, hi)
    taken = {id(entry) for entry in ranged}
    for action in legal:
        if id(action) not in taken and isinstance(action, Raise):
            add(action.cup, action.stake, action.stake)
    return tuple(sorted(((cup, lo, hi) for cup, (lo, hi) in spans.items()), key=lambda c: cup_ordinal(c[0]) or 0))


def choices_of(legal: Sequence[Action]) -> Choices:
    taken = {id(entry) for entry in ranges(legal)}
    plain = [a for a in legal if id(a) not in taken]
    kinds = {type(a).__name__ for a in plain}
    cups = raise_choices(legal)
    if cups:
        kinds.add("Raise")
    most = max((len(a.cards) for a in plain if isinstance(a, Discard)), default=0)
    return Choices(frozenset(kinds), cups, most)


class BraffKit(HandTableKit[SeatDraft, Choices]):
    part = PART
    #: One per card; the `Discarded` event that follows says the same, and the seat sign shows them.
    quiet_events = (CardDiscarded,)

    def __init__(self, table: Table) -> None:
        super().__init__(table, SeatDraft, choices_of, Choices())

    @property
    def state(self) -> BraffState:
        state = self.table.state
        assert isinstance(state, BraffState)
        return state

    # -- input ----------------------------------------------------------------------------
    def on_click(self, booth: int, seat: int, target: str, slot: int) -> Action | None:
        draft = self.drafts[booth]
        state = self.state
        choices = self.legal_by_booth()[booth]
        if target == "card":
            if state.phase == "discard" and seat in state.to_act() and slot < len(state.hands[seat]):
                self._pick(draft, slot, max(choices.max_discard, 1))
            return None
        if target == "discard":
            hand = state.hands[seat]
            return Discard(tuple(hand[k] for k in draft.picked if k < len(hand)))
        if target in ("cup", "minus", "plus", "raise"):
            return self._raise_click(booth, draft, choices, target)
        if target == "call":
            return AllIn() if "AllIn" in choices.kinds else Call()
        return DIRECT.get(target)

    def clicks_for(self, booth: int, seat: int, action: Action) -> list[tuple[str, int]]:
        """The clicks (target, slot) that make `action` from the booth's draft as its signs
        show it now: what a person does, and what sign-clicking bots do."""
        for target, direct in DIRECT.items():
            if action == direct:
                return [(target, 0)]
        if isinstance(action, Call | AllIn):
            return [("call", 0)]
        draft = self.drafts[booth]
        if isinstance(action, Discard):
            hand, slots = self.state.hands[seat], []
            for colour in action.cards:
                slots.append(next(k for k, c in enumerate(hand) if c == colour and k not in slots))
            unpick = [("card", k) for k in draft.picked]  # a click on a picked card puts it back
            return [*unpick, *(("card", k) for k in slots), ("discard", 0)]
        assert isinstance(action, Raise), action
        choices = self.legal_by_booth()[booth]
        cups = {cup: (lo, hi) for cup, lo, hi in choices.cups}
        shown = SeatDraft(cup=draft.cup, stake=draft.stake)
        if shown.cup not in cups:
            self._fresh_raise(shown, choices)
        clicks: list[tuple[str, int]] = []
        while shown.cup != action.cup and len(clicks) <= len(cups):
            clicks.append(("cup", 0))
            cup = cycle(list(cups), shown.cup or "")
            shown.cup, shown.stake = cup, clamp(shown.stake, *cups[cup])
        step = "plus" if action.stake > shown.stake else "minus"
        return [*clicks, *[(step, 0)] * abs(action.stake - shown.stake), ("raise", 0)]

    def parse_chat(self, seat: int, text: str) -> Action:
        """The rules' parse; but where the server has no private messages, a discard of
        cards not held is refused without the rules' answer, which counts the cards of
        that colour held (it would go to public chat)."""
        action = super().parse_chat(seat, text)
        if isinstance(action, Discard):
            self.refuse_unheld_quietly(action.cards, self.state.hands[seat], "card_not_held_quiet")
        return action

    @staticmethod
    def _pick(draft: SeatDraft, slot: int, most: int) -> None:
        if slot in draft.picked:
            draft.picked.remove(slot)
            return
        draft.picked.append(slot)
        del draft.picked[:-most]  # past the most a discard may hold, the oldest pick goes

    def _raise_click(self, booth: int, draft: SeatDraft, choices: Choices, target: str) -> Action | None:
        cups = {cup: (lo, hi) for cup, lo, hi in choices.cups}
        if not cups:
            if target == "raise":
                self.tell_booth(booth, self.table.text.t("braff.sign.no_raise"))
            return None
        if draft.cup not in cups:
            self._fresh_raise(draft, choices)
        assert draft.cup is not None
        lo, hi = cups[draft.cup]
        if target == "cup":
            draft.cup = cycle([cup for cup, _, _ in choices.cups], draft.cup)
            lo, hi = cups[draft.cup]
            draft.stake = clamp(draft.stake, lo, hi)
        elif target in ("minus", "plus"):
            draft.stake = clamp(draft.stake + (1 if target == "plus" else -1), lo, hi)
        else:
            return Raise(draft.cup, clamp(draft.stake, lo, hi))
        return None

    @staticmethod
    def _fresh_raise(draft: SeatDraft, choices: Choices) -> None:
        """The smallest cup this seat may declare, at its least stake."""
        if choices.cups:
            draft.cup, draft.stake = choices.cups[0][0], choices.cups[0][1]
        else:
            draft.cup, draft.stake = None, 0

    # -- time -----------------------------------------------------------------------------
    def on_decision(self, seat: int) -> None:
        booth = self.table.booth_of(seat)
        draft = self.drafts[booth]
        draft.picked = []
        self._fresh_raise(draft, self.legal_by_booth()[booth])

    # -- output ---------------------------------------------------------------------------
    def scene_key(self) -> Hashable:
        drafts = tuple((tuple(d.picked), d.cup, d.stake) for d in self.drafts)
        return (drafts, time_left(self.table))

    def render(self, view: TableView) -> Scene:
        public = self.board_public(view.public)
        return render(
            view.arena,
            self.texts,
            public,
            view.private,
            view.occupants,
            view.seat_of_booth,
            self.drafts,
            self.legal_by_booth(),
            BoardInfo(seconds=time_left(self.table), countdown=view.lobby_countdown),
            self.memo,
        )

    def score_text(self, row: Mapping[str, Any]) -> str:
        return self.table.text.t("braff.score", chips=row["chips"])


KIT = BraffKit
