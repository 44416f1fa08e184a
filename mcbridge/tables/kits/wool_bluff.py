"""Wool Bluff's kit: sign clicks and discards, the Reveal read from the walls, torches.

What only Wool Bluff does: the bid draft (colour, count) composed by clicking signs, hand
slots clicked to discard, `give` mode (wool items handed out, the discard pad read back,
hands put up on the walls by the players), the Reveal (walls read and compared with the
deals) and `torches: players` (penalised players put up their own torches).

In booth mode the controller draws the wool walls itself, so it owns them: at the Reveal
any cell that differs from what it drew is written again and nobody is blamed for it
(someone else placed it); only give mode, where players build their own walls, reports
tampering. Where the server reports placements (`placements`), a block someone other than
the seat's player puts on a seat's wool wall is taken down at once, said in chat with the
placer's name and never counted against the seat; a seat's own wool someone else breaks off
(give mode) and a torch broken off a wall the controller lights are put back and reported the
same way.

A world that comes back empty (the arena's shell gone, see `on_world_emptied`) took the items
the table handed out with it: each seated player gets their hand (give mode) and the torches
they still have to put up back from the rules state once they are here again.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcbridge.core import Action, Event
from mcbridge.games.wool_bluff import COLOURS, Bid, Bluff, Deal, Discard, Reveal, Through, WoolBluffState
from mcbridge.games.wool_bluff.actions import Penalised, WoolDealt, WoolDiscarded, wool_pairs
from mcbridge.tables import rules_view
from mcbridge.tables.arena import SeatPlan
from mcbridge.tables.kit import CachedTexts, Kit, ReadKey, Scene, TableView
from mcbridge.tables.kits.wool_bluff_arena import PART
from mcbridge.tables.kits.wool_bluff_render import (
    COLOUR_OF_WOOL,
    MAX_TORCHES_SHOWN,
    Parts,
    SeatUi,
    hand_slots,
    render,
)
from mcbridge.tables.table import Table
from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import Pos
from mcbridge.world.reads import IdCells

log = logging.getLogger(__name__)

#: Cycles between looks at each torch wall the table lights: a torch gone without a placement
#: report (a plain RaspberryJuice server, or knocked off with its support) is back within a second.
#: The seats of a table, and the tables (by name), take their looks on different cycles: 50
#: tables looking at all 200 walls in the same cycle made that cycle the slowest of all.
TORCH_CHECK_EVERY = 20


@dataclass
class Owed:
    """What an emptied world took from a seated player, still to be handed back."""

    name: str
    wool: bool  # give mode, and no Deal since the loss handed the seat its whole hand anew


class WoolBluffKit(Kit):
    part = PART
    #: One per seat per turn: the board shows them.
    quiet_events = (WoolDealt, WoolDiscarded)
    #: "You hold 0 white wool." tells a hand.
    private_refusals = frozenset({"discard_not_held"})

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        arena = table.arena
        wanted = arena.setting("dispensing")
        self.dispensing = wanted if table.can_give or wanted == "booth" else "booth"
        self.torches = arena.setting("torches")
        self.ui = [SeatUi() for _ in arena.seats]
        self.texts = CachedTexts(table.text)
        self.parts: Parts = {}
        self.hold_until = 0.0
        self.reveal_since: float | None = None
        self.wall_reads: dict[int, list[Block]] | None = None
        self.torch_wait: dict[int, int] = {}  # booth -> torches its player must put up
        self.torch_deadline = 0.0
        self.foreign: dict[Pos, str | None] = {}  # wool wall cell -> who (not its seat) put a block there
        self.knocked: dict[Pos, Block] = {}  # give mode: a seat's wool someone else broke, being put back
        self.read_cycles = zlib.crc32(arena.name.encode()) % TORCH_CHECK_EVERY  # this table's turn
        self.checks_owed: set[int] = set()  # booths whose torch wall is due a look (a cycle may leave a read out)
        self.owed: dict[int, Owed] = {}  # booth -> what an emptied world took from its player
        if self.dispensing != wanted:
            table.outbox.chat.append(f"[{arena.name}] server cannot give items: using booth mode")
            log.warning("arena %s: the server cannot give items; falling back to booth mode", arena.name)

    @property
    def state(self) -> WoolBluffState:
        state = self.table.state
        assert isinstance(state, WoolBluffState)
        return state

    # -- input ----------------------------------------------------------------------------
    def hit_targets(self, seat: SeatPlan) -> dict[Pos, tuple[str, int]]:
        targets = super().hit_targets(seat)
        for k, cell in enumerate(seat.hand_display.cells):
            targets[cell] = ("hand", k)
        return targets

    def on_click(self, booth: int, seat: int, target: str, slot: int) -> Action | None:
        ui = self.ui[booth]
        view = self.state.view(seat)
        if target == "colour":
            ui.colour = COLOURS[(COLOURS.index(ui.colour) + 1) % len(COLOURS)]
        elif target in ("minus", "plus"):
            lo = view["min_count"] or 1
            ui.count = max(lo, min(max(view["wool_in_play"], lo), ui.count + (1 if target == "plus" else -1)))
        elif target == "bid":
            return Bid(ui.colour, ui.count)
        elif target == "through":
            return Through()
        elif target == "bluff":
            return Bluff()
        elif target == "hand" and view["phase"] == "discard" and view["must_discard"]:
            return self._toggle_discard(booth, slot, view)
        return None

    def _toggle_discard(self, booth: int, slot: int, view: dict[str, Any]) -> Action | None:
        slots = hand_slots(view["drawn"])
        if slot >= len(slots):
            return None
        picked = self.ui[booth].selected
        if slot in picked:
            picked.remove(slot)
        else:
            picked.append(slot)
        if len(picked) != view["must_discard"]:
            return None
        chosen = [slots[k] for k in picked]
        return Discard(wool_pairs({c: chosen.count(c) for c in set(chosen)}))

    def help_fields(self) -> dict[str, Any]:
        return {"multiplier": self.table.game.options["white_multiplier"]}

    # -- chance and time ------------------------------------------------------------------
    def chance(self, now: float) -> Action | None:
        state = self.state
        if state.phase == "reveal":
            return Reveal(self._tamper_report()) if self._reveal_ready(now) else None
        if state.phase == "deal" and self.torch_wait:
            if now < self.torch_deadline:
                return None
            for booth in list(self.torch_wait):  # too slow: the controller lights them itself
                self._stop_waiting_for_torches(booth)
        if state.phase == "deal" and now < self.hold_until:
            return None
        return super().chance(now)

    def on_applied(self, seat: int, action: Action, events: list[Event], now: float) -> None:
        state = self.state
        if seat >= 0:
            self.ui[self.table.booth_of(seat)].selected = []
        if isinstance(action, Reveal):
            self.foreign, self.knocked = {}, {}
            self.hold_until = now + self.table.reveal_hold
            self.reveal_since = None
            self.wall_reads = None
            if self.torches == "players" and not state.is_over:
                self._await_torches(events, now)
        elif isinstance(action, Deal) and self.dispensing == "give":
            owed = self.owed.get(self.table.booth_of(action.seat))
            if owed is not None:
                owed.wool = False  # this deal hands over the seat's whole hand: not twice
            for colour, n in action.wool:
                wool = blocks.wool(colour)
                self.table.outbox.gives.append((state.players[action.seat], wool.id, wool.data, n))

    def decision_key(self) -> Hashable:
        state = self.state
        return (state.turn, state.bid and state.bid.get("count"))

    def on_decision(self, seat: int) -> None:
        """A fresh bid draft for whoever must bid: the smallest legal count, the standing colour."""
        state = self.state
        if state.phase == "bid":
            ui = self.ui[self.table.booth_of(seat)]
            ui.count = state.view(seat)["min_count"]
            if state.bid:
                ui.colour = str(state.bid["colour"])

    def on_reset(self) -> None:
        self.ui = [SeatUi() for _ in self.table.arena.seats]
        self.hold_until = 0.0
        self.reveal_since = None
        self.wall_reads = None
        self.torch_wait = {}
        self.foreign, self.knocked = {}, {}
        self.owed = {}

    def shift_timers(self, seconds: float) -> None:
        """After a pause: the Reveal wait, the torch deadline and the display hold go on with
        the time they had left, so an outage never times out a Reveal (reporting walls the
        players had no time to build as tampered) nor cuts a hold short."""
        self.hold_until += seconds
        self.torch_deadline += seconds
        if self.reveal_since is not None:
            self.reveal_since += seconds

    # -- an emptied world -----------------------------------------------------------------
    def on_world_emptied(self) -> None:
        """The world came back without the arena, and without what the players held: note
        who is owed their hand (give mode) and their torches, handed back by `_give_back`
        once each is here again. In give mode the walls went too: a Reveal waits afresh.

        [decided here] The floor probe finding the shell gone is the only evidence that
        inventories were lost (RaspberryJuice cannot read one): a reconnect to a world that
        kept its arena hands out nothing, and an operator who clears the arena by hand while
        players keep their items would see them given twice (README, "World restarts").
        """
        self.foreign, self.knocked = {}, {}
        state = self.table.state
        if not isinstance(state, WoolBluffState) or state.is_over:
            return
        give = self.dispensing == "give"
        for booth, occ in enumerate(self.table.occupants):
            if occ is not None and not occ.bot:
                self.owed[booth] = Owed(occ.name, wool=give)
                if give:
                    self.ui[booth].pad, self.ui[booth].selected = [], []  # the whole hand comes back
        if give and self.reveal_since is not None:
            self.reveal_since, self.wall_reads = None, None  # the players put their hands up again
        if self.torch_wait:  # the torch walls start over too: the time to fill them as well
            self.torch_deadline = self.table.clock() + self.table.arena.timeouts["reveal"]

    def _give_back(self) -> None:
        """Hand back what an emptied world took, from the rules state (the source of truth),
        to each owed player who sits here again; one private line says what and why."""
        state = self.state
        for booth, owed in list(self.owed.items()):
            occ = self.table.occupants[booth]
            seat = self.table.rules_seat(booth)
            if occ is None or occ.name != owed.name or seat is None or not state.active[seat]:
                del self.owed[booth]  # no longer this player's seat, or out of the match
                continue
            if not occ.present:
                continue  # not back yet
            del self.owed[booth]
            text = self.table.text_for(owed.name)
            wool = {c: n for c, n in self._dealt(seat).items() if n > 0} if owed.wool else {}
            for colour, n in sorted(wool.items()):
                item = blocks.wool(colour)
                self.table.outbox.gives.append((owed.name, item.id, item.data, n))
            if wool:
                self.table.tell(owed.name, text.t("wool_bluff.wool_given_back", count=sum(wool.values())))
            torches = self.torch_wait.get(booth, 0) if self.table.can_give else 0
            if torches:  # the wall they were filling is empty again: all of it, and time to do it
                self.table.outbox.gives.append((owed.name, blocks.REDSTONE_TORCH_ON.id, 0, torches))
                self.table.tell(owed.name, text.t("wool_bluff.torches_given_back", count=torches))
                self.torch_deadline = max(self.torch_deadline, self.table.clock() + self.table.arena.timeouts["reveal"])

    def _reveal_ready(self, now: float) -> bool:
        """Walls are read (next tick) after the hands are put up; give mode waits for players."""
        if self.reveal_since is None:
            self.reveal_since = now
            return False
        if self.wall_reads is None:
            return False
        if self.dispensing == "booth":
            return True
        complete = all(
            sum(1 for b in self.wall_reads.get(self.table.booth_of(s), []) if b.id == blocks.WOOL.id)
            >= sum(self._dealt(s).values())
            for s in self.state.active_seats()
        )
        return complete or now - self.reveal_since >= self.table.arena.timeouts["reveal"]

    def _dealt(self, seat: int) -> dict[str, int]:
        return dict(self.state.hands[seat] or {})

    def _tamper_report(self) -> tuple[tuple[int, tuple[tuple[str, int], ...]], ...]:
        if self.dispensing == "booth":
            return ()  # the controller drew these walls: a stray block is someone else's doing
        reports = []
        for seat in self.state.active_seats():
            wall: dict[str, int] = {}
            booth = self.table.booth_of(seat)
            cells = self.table.arena.seats[booth].wool_wall.cells
            for cell, b in zip(cells, (self.wall_reads or {}).get(booth, []), strict=False):
                if cell in self.foreign:
                    continue  # someone else put it there (and it is being taken down): not this seat's
                if b.id == blocks.AIR.id and cell in self.knocked:
                    b = self.knocked[cell]  # the seat's own wool, someone else broke (being put back)
                if b.id == blocks.WOOL.id and b.data in COLOUR_OF_WOOL:
                    wall[COLOUR_OF_WOOL[b.data]] = wall.get(COLOUR_OF_WOOL[b.data], 0) + 1
                elif b.id != blocks.AIR.id:
                    wall["?"] = wall.get("?", 0) + 1
            dealt = self._dealt(seat)
            diff = tuple((c, wall.get(c, 0) - dealt.get(c, 0)) for c in COLOURS if wall.get(c, 0) != dealt.get(c, 0))
            if diff or wall.get("?"):
                reports.append((seat, diff))
        return tuple(reports)

    # -- reading the world -------------------------------------------------------------------
    def reads_wanted(self) -> dict[ReadKey, Sequence[Pos]]:
        """The wool walls at Reveal, the discard pads in give mode, torch walls players fill
        (called once a cycle while the match runs: also when owed items are handed back)."""
        if self.owed:
            self._give_back()  # once a cycle, while the table runs: whoever is back gets theirs
        wanted: dict[ReadKey, Sequence[Pos]] = {}
        state = self.state
        if state.phase == "reveal" and self.reveal_since is not None:
            for plan in self.table.arena.seats:
                wanted[("wall", plan.index)] = plan.wool_wall.cells
        if self.dispensing == "give" and state.phase == "discard":
            for seat in sorted(state.discard_due):
                booth = self.table.booth_of(seat)
                wanted[("pad", booth)] = self.table.arena.seats[booth].discard_pad.cells
        seats = self.table.arena.seats
        for booth in self.torch_wait:  # torches are there or not: their ids are enough
            wanted[("torches", booth)] = IdCells(seats[booth].torch_wall.cells)
        self.read_cycles += 1
        for plan in seats:
            turn = self.read_cycles + plan.index * TORCH_CHECK_EVERY // len(seats)
            if turn % TORCH_CHECK_EVERY == 0:
                self.checks_owed.add(plan.index)
        for booth in sorted(self.checks_owed):  # asked again each cycle until looked at (a check can be left out)
            if booth not in self.torch_wait:
                wanted[("torch_check", booth)] = IdCells(seats[booth].torch_wall.cells)
        return wanted

    def on_reads(self, results: dict[ReadKey, list[Block]]) -> None:
        walls = {booth: found for (kind, booth), found in results.items() if kind == "wall"}
        if walls:
            self.wall_reads = walls
            if self.dispensing == "booth":
                self._restore_walls(walls)
        for (kind, booth), found in results.items():
            if kind == "pad":
                self._pad_seen(booth, found)
            elif kind == "torches":
                self._torches_seen(booth, found)
            elif kind == "torch_check":
                self.checks_owed.discard(booth)
                self._torches_checked(booth, found)

    def _torches_checked(self, booth: int, found: list[Block]) -> None:
        """Torches the table lit that are gone: put back, and said where."""
        drawn = self.table.scene().blocks
        for cell, block in zip(self.table.arena.seats[booth].torch_wall.cells, found, strict=True):
            want = drawn.get(cell, blocks.AIR)
            reported = cell in self.table.outbox.refresh  # a placement report saw it this cycle, with who
            if want.id == blocks.REDSTONE_TORCH_ON.id and block.id != want.id and not reported:
                self.table.outbox.refresh.append(cell)
                self._report("torch_missing", booth, cell, None)

    def on_block_change(self, kind: str, pos: Pos, name: str | None, block: Block) -> None:
        """Who put a block on a seat's wool wall, or broke a torch off a wall the table lights."""
        for plan in self.table.arena.seats:
            if pos in plan.wool_wall.cuboid:
                self._wall_changed(kind, plan.index, pos, name, block)
                return
            if pos in plan.torch_wall.cuboid and kind == "broken" and plan.index not in self.torch_wait:
                if self.table.scene().blocks.get(pos, blocks.AIR).id != blocks.AIR.id:
                    self.table.outbox.refresh.append(pos)  # the table lights this wall: put it back
                    self._report("torch_broken", plan.index, pos, name)
                return

    def _wall_changed(self, kind: str, booth: int, pos: Pos, name: str | None, block: Block) -> None:
        occupant = self.table.occupants[booth]
        own = occupant is not None and name == occupant.name and self.dispensing == "give"
        if kind == "broken":
            if own:
                return  # a player taking down their own wool
            if self.table.scene().blocks.get(pos, blocks.AIR).id != blocks.AIR.id:
                self.table.outbox.refresh.append(pos)  # the table's wall (booth mode), drawn again
            elif self.dispensing == "give" and block.id == blocks.WOOL.id and pos not in self.foreign:
                self.knocked[pos] = block  # the seat's own wool: back where it was, never its fault
                self.table.outbox.puts.append((pos, block))
            else:
                return  # nothing of the seat's
            self._report("wall_broken", booth, pos, name)
            return
        if own:
            self.foreign.pop(pos, None)  # their own wool, where someone else's was taken down
            return
        self.foreign[pos] = name
        if self.dispensing == "give":
            self.table.outbox.clears.append(pos)
        else:
            self.table.outbox.refresh.append(pos)
        self._report("wall_intruder", booth, pos, name)

    def _report(self, key: str, booth: int, pos: Pos, name: str | None) -> None:
        at = self.table.arena.frame.to_world(pos)
        who = name if name is not None else self.table.text.t("wool_bluff.someone")
        self.table.outbox.chat.append(
            self.table.text.t(f"wool_bluff.{key}", name=who, seat=booth + 1, x=at.x, y=at.y, z=at.z)
        )

    def _restore_walls(self, walls: dict[int, list[Block]]) -> None:
        """Booth mode: any wall cell the controller did not write is written again."""
        drawn = self.table.scene().blocks
        for booth, found in walls.items():
            for cell, block in zip(self.table.arena.seats[booth].wool_wall.cells, found, strict=True):
                if drawn.get(cell, blocks.AIR) != block:
                    self.table.outbox.refresh.append(cell)

    def _pad_seen(self, booth: int, found: list[Block]) -> None:
        """Wool placed on a discard pad counts as discarded; the pad is emptied again."""
        state = self.state
        seat = self.table.rules_seat(booth)
        if seat is None or seat not in state.discard_due:
            return
        cells = self.table.arena.seats[booth].discard_pad.cells
        pile = self.ui[booth].pad
        for cell, block in zip(cells, found, strict=True):
            if block.id == blocks.AIR.id:
                continue
            self.table.outbox.clears.append(cell)
            if block.id == blocks.WOOL.id and block.data in COLOUR_OF_WOOL:
                pile.append(COLOUR_OF_WOOL[block.data])
        if len(pile) >= state.discard_due[seat]:
            chosen, self.ui[booth].pad = pile[: state.discard_due[seat]], []
            self.table.submit(seat, Discard(wool_pairs({c: chosen.count(c) for c in set(chosen)})))

    def _await_torches(self, events: list[Event], now: float) -> None:
        """`torches: players`: each penalised player puts up their own red torches."""
        state = self.state
        for event in events:
            if isinstance(event, Penalised) and state.active[event.seat]:
                booth = self.table.booth_of(event.seat)
                self.torch_wait[booth] = min(event.total, MAX_TORCHES_SHOWN)
                name = state.players[event.seat]
                if self.table.can_give:
                    self.table.outbox.gives.append((name, blocks.REDSTONE_TORCH_ON.id, 0, event.torches))
                text = self.table.text_for(name)  # their own language, if they chose one
                total = self.torch_wait[booth]
                self.table.tell(name, text.t("wool_bluff.place_torches", count=event.torches, total=total))
        self.torch_deadline = now + self.table.arena.timeouts["reveal"]

    def _torches_seen(self, booth: int, found: list[Block]) -> None:
        lit = sum(1 for b in found if b.id in (blocks.REDSTONE_TORCH_ON.id, blocks.REDSTONE_TORCH_OFF.id))
        if lit == self.torch_wait.get(booth):
            self._stop_waiting_for_torches(booth)

    def _stop_waiting_for_torches(self, booth: int) -> None:
        """The controller owns the wall again: re-assert it on the next write."""
        self.torch_wait.pop(booth, None)
        self.table.outbox.refresh.extend(self.table.arena.seats[booth].torch_wall.cells)

    # -- output ---------------------------------------------------------------------------
    def _showing(self) -> bool:
        state = self.table.state
        if not isinstance(state, WoolBluffState):
            return False
        held = state.phase == "deal" and self.table.clock() < self.hold_until
        return state.phase == "reveal" or state.is_over or held

    def scene_key(self) -> Hashable:
        drafts = tuple((ui.colour, ui.count, tuple(ui.selected), tuple(ui.pad)) for ui in self.ui)
        return (self._showing(), drafts, tuple(sorted(self.torch_wait)))

    def render(self, view: TableView) -> Scene:
        state = self.table.state
        public = view.public
        if isinstance(state, WoolBluffState) and public is not None:
            if state.phase == "reveal":
                # the hands go up now (booth mode draws them; give mode leaves the walls to players)
                hands = [state.hands[s] if state.active[s] else None for s in range(len(state.players))]
                public = {**public, "last_reveal": {"hands": hands}}
            if state.is_over:
                public = {**public, "standings": rules_view.standings(state)}  # the board shows the rules' ranking
        manage = self.dispensing == "booth" or not (state is not None and state.phase == "reveal")
        return render(
            view.arena,
            self.texts,
            public,
            view.private,
            view.occupants,
            view.seat_of_booth,
            self.ui,
            self._showing(),
            manage,
            players_light=frozenset(self.torch_wait),
            countdown=view.lobby_countdown,
            memo=self.parts,
        )

    def score_text(self, row: Mapping[str, Any]) -> str:
        return self.table.text.t("wool_bluff.score", torches=row["torches"])


KIT = WoolBluffKit
