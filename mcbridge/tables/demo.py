"""Bots that play Wool Bluff in the world the way people do.

Each bot is a simulated player: it walks into a booth (or clicks the join sign), holds a
sword, reads what its booth shows (its own view only), decides with the game's bot policy,
and then clicks the booth's signs: the colour sign until the colour is right, +1/-1 until
the count is right, then BID; or THROUGH / BLUFF; or the wool of its hand to discard. In
`give` mode it places its wool on the wall at Reveal and discards on the discard pad.
"""

from __future__ import annotations

from typing import Any

from mcbridge.core import Rng
from mcbridge.games.wool_bluff import COLOURS, Bid, Bluff, Discard, Through, WoolBluffBot
from mcbridge.tables.layout import wall_torch
from mcbridge.tables.wool_render import hand_slots
from mcbridge.tables.wool_table import WoolBluffTable
from mcbridge.world.blocks import REDSTONE_TORCH_ON, wool
from mcbridge.world.driver import DIAMOND_SWORD, SimPlayer
from mcbridge.world.geometry import Pos

REDSTONE_TORCH = REDSTONE_TORCH_ON.id


class TableBot:
    def __init__(self, table: WoolBluffTable, player: SimPlayer, booth: int, seed: int) -> None:
        self.table = table
        self.player = player
        self.booth = booth
        self.policy = WoolBluffBot()
        self.rng = Rng.derived(seed, "bot", booth)
        self.acted_on: tuple[Any, ...] | None = None
        self.placed_turn = 0
        self.pending_pad: list[str] = []
        self.torches_up = 0  # torches this bot has put on its wall (torches: players)
        self.pad_wait = 0

    # -- moving and clicking ----------------------------------------------------------------
    def _world(self, local: Pos) -> Pos:
        return self.table.arena.frame.to_world(local)

    def sit_down(self, by_walking: bool) -> None:
        seat = self.table.arena.seats[self.booth]
        self.player.hold(DIAMOND_SWORD)
        if by_walking:
            inside = seat.interior.cuboid
            centre = self._world(Pos((inside.lo.x + inside.hi.x) // 2, inside.lo.y, (inside.lo.z + inside.hi.z) // 2))
            self.player.walk_to(centre.x + 0.5, centre.y, centre.z + 0.5)
        else:
            self.click(seat.signs["join"].at)

    def click(self, local: Pos) -> None:
        p = self._world(local)
        self.player.right_click(p.x, p.y, p.z, face=1)

    def sign(self, name: str) -> None:
        self.click(self.table.arena.seats[self.booth].signs[name].at)

    # -- playing -----------------------------------------------------------------------------
    def act(self) -> None:
        state = self.table.state
        seat = self.table.rules_seat(self.booth)
        if state is None or seat is None or state.is_over:
            return
        if state.phase == "reveal" and self.table.dispensing == "give":
            self._place_hand(seat)
            return
        if self.booth in self.table.torch_wait:
            self._light_torches(state.torches[seat])
        if seat not in state.to_act():
            return
        if self.pending_pad:
            self._refill_pad()
            return
        key = (state.turn, state.phase, state.bid and state.bid.get("count"), len(state.responses))
        if key == self.acted_on:
            return
        view = state.view(seat)
        if state.phase == "discard" and self.table.dispensing == "give" and not self._holds(view["drawn"]):
            return  # the wool items have not arrived yet; look again next cycle
        self.acted_on = key
        action = self.policy.choose(view, state.legal_actions(seat), self.rng)
        if isinstance(action, Bid):
            self._bid(action)
        elif isinstance(action, Through):
            self.sign("through")
        elif isinstance(action, Bluff):
            self.sign("bluff")
        elif isinstance(action, Discard):
            self._discard(action, view)

    def _place(self, local: Pos, colour: str) -> None:
        """Place one wool from the inventory, then take the sword back in hand (placing
        needs the wool in hand, and sign clicks only count with a sword)."""
        p = self._world(local)
        block = wool(colour)
        self.player.place(p.x, p.y, p.z, block.id, block.data)
        self.player.hold(DIAMOND_SWORD)

    def _holds(self, wool_counts: dict[str, int]) -> bool:
        have = self.player.inventory()
        return all(have.get((wool(c).id, wool(c).data), 0) >= n for c, n in wool_counts.items())

    def _bid(self, bid: Bid) -> None:
        ui = self.table.ui[self.booth]
        steps = (COLOURS.index(bid.colour) - COLOURS.index(ui.colour)) % len(COLOURS)
        for _ in range(steps):
            self.sign("colour")
        delta = bid.count - ui.count
        for _ in range(abs(delta)):
            self.sign("plus" if delta > 0 else "minus")
        self.sign("bid")

    def _discard(self, action: Discard, view: dict[str, Any]) -> None:
        if self.table.dispensing == "give":  # no hand display: put the wool on the discard pad
            pad = self.table.arena.seats[self.booth].discard_pad.cells
            pieces = [c for c, n in action.wool for _ in range(n)]
            for colour, cell_local in zip(pieces, pad, strict=False):  # the table empties the pad
                self._place(cell_local, colour)
            self.pending_pad = pieces[len(pad) :]
            self.pad_wait = 3
            return
        slots = hand_slots(view["drawn"])
        wanted = action.counts
        cells = self.table.arena.seats[self.booth].hand_display.cells
        for k, colour in enumerate(slots):
            if wanted.get(colour, 0) > 0:
                wanted[colour] -= 1
                self.click(cells[k])

    def _refill_pad(self) -> None:
        """Put the next discards on the pad once the table has read and emptied it.

        The table reads the pad on the next cycle and empties it with the write after that,
        so the bot, like a patient player, waits three cycles between loads.
        """
        self.pad_wait -= 1
        if self.pad_wait > 0:
            return
        pad = self.table.arena.seats[self.booth].discard_pad.cells
        for cell_local in pad:
            if not self.pending_pad:
                break
            self._place(cell_local, self.pending_pad.pop(0))
        self.pad_wait = 3

    def _light_torches(self, total: int) -> None:
        """`torches: players`: put up the red torches the table handed over, one per penalty."""
        wall = self.table.arena.seats[self.booth].torch_wall
        have = self.player.inventory().get((REDSTONE_TORCH, 0), 0)
        if not have or wall.faces is None:
            return  # not given yet
        torch = self.table.arena.frame.block_to_world(wall_torch(wall.faces))
        for cell in wall.cells[self.torches_up : min(total, len(wall.cells))]:
            if not have:
                break
            p = self._world(cell)
            self.player.place(p.x, p.y, p.z, torch.id, torch.data)
            self.torches_up += 1
            have -= 1
        self.player.hold(DIAMOND_SWORD)

    def _place_hand(self, seat: int) -> None:
        state = self.table.state
        assert state is not None
        if self.placed_turn == state.turn:
            return
        self.placed_turn = state.turn
        cells = self.table.arena.seats[self.booth].wool_wall.cells
        for cell_local, colour in zip(cells, hand_slots(state.view(seat)["hand"]), strict=False):
            self._place(cell_local, colour)
