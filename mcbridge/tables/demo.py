"""Bots that play Wool Bluff in the world the way people do.

Each bot is a simulated player: it walks into a booth (or clicks the join sign), holds a
sword, reads what its booth shows (its own view only), decides with the game's bot policy,
and then clicks the booth's signs: the colour sign until the colour is right, +1/-1 until
the count is right, then BID; or THROUGH / BLUFF; or the wool of its hand to discard. In
`give` mode it places its wool on the wall at Reveal and discards on the discard pad.

Like a person with a real client (which reaches about 4.5 blocks and cannot click through
walls), a bot first walks to where it can reach what it uses: behind its booth for the join
sign, inside for the booth's signs, hand and discard pad, out in front for its walls. The
walks go around the arena's structure (`walking_route`); on the embedded world they cost
nothing, on a real server they take the seconds a player needs.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from typing import Any

from mcbridge.core import Rng
from mcbridge.games.wool_bluff import COLOURS, Bid, Bluff, Discard, Through, WoolBluffBot, WoolBluffState
from mcbridge.tables.arena import Arena
from mcbridge.tables.kits.wool_bluff import WoolBluffKit
from mcbridge.tables.kits.wool_bluff_render import hand_slots
from mcbridge.tables.layout import arena_layout, wall_torch
from mcbridge.tables.table import Table
from mcbridge.world import blocks
from mcbridge.world.blocks import REDSTONE_TORCH_ON, wool
from mcbridge.world.driver import DIAMOND_SWORD, SimPlayer
from mcbridge.world.geometry import Pos

REDSTONE_TORCH = REDSTONE_TORCH_ON.id
#: Blocks a player walks through (signs hang on walls without a collision box).
PASSABLE = frozenset({blocks.AIR.id, blocks.WALL_SIGN.id, blocks.STANDING_SIGN.id})
#: Half a player's width plus a margin: how far a walked line must stay from blocked columns.
CLEARANCE = 0.4
#: Seconds a walk may take beyond a slow walker's 2 blocks a second.
WALK_SLACK_S = 5.0


class Walker:
    """A simulated player at one booth: it walks around the arena's walls to the spots of its
    seat (`spot_cell`) and sword-clicks arena-local cells, as a person with a real client does.
    `TableBot` (Wool Bluff) and `mcbridge.tables.seat_bots.SeatBot` (any kit) play with it."""

    def __init__(self, table: Table, player: SimPlayer, booth: int) -> None:
        self.table = table
        self.player = player
        self.booth = booth
        self.spot: str | None = None  # where it stands: "inside", "back", "front"; None = elsewhere
        self.clicks = 0
        self._blocked = blocked_columns(table.arena)

    def _world(self, local: Pos) -> Pos:
        return self.table.arena.frame.to_world(local)

    def sit_down(self, by_walking: bool) -> None:
        self.player.hold(DIAMOND_SWORD)
        if by_walking:
            self.go("inside")
        else:
            self.go("back")
            self.click(self.table.arena.seats[self.booth].signs["join"].at)

    def go(self, spot: str) -> None:
        """Walk to a spot of this bot's seat (see `spot_cell`) unless it stands there already."""
        if spot == self.spot:
            return
        frame = self.table.arena.frame
        here = frame.to_local(self.player.position())
        for cell in walking_route(self._blocked, here, spot_cell(self.table.arena, self.booth, spot)):
            p = self._world(cell)
            distance = math.dist((here.x, here.z), (cell.x, cell.z))
            self.player.walk_to(p.x + 0.5, p.y, p.z + 0.5, timeout=WALK_SLACK_S + distance / 2)
            here = cell
        self.spot = spot

    def click(self, local: Pos) -> None:
        p = self._world(local)
        self.player.right_click(p.x, p.y, p.z, face=1)
        self.clicks += 1


class TableBot(Walker):
    def __init__(self, table: Table, player: SimPlayer, booth: int, seed: int) -> None:
        super().__init__(table, player, booth)
        self.policy = WoolBluffBot()
        self.seed = seed
        self.match: int | None = None
        self.acted_on: tuple[Any, ...] | None = None
        self.placed_turn = 0
        self.pending_pad: list[str] = []
        self.torches_up = 0  # torches this bot has put on its wall (torches: players)
        self.pad_wait = 0

    def sign(self, name: str) -> None:
        self.click(self.table.arena.seats[self.booth].signs[name].at)

    # -- playing -----------------------------------------------------------------------------
    @property
    def kit(self) -> WoolBluffKit:
        kit = self.table.kit
        assert isinstance(kit, WoolBluffKit)
        return kit

    def act(self) -> None:
        state = self.table.state
        seat = self.table.rules_seat(self.booth)
        if not isinstance(state, WoolBluffState) or seat is None or state.is_over:
            return
        if self.match != self.table.match_id:  # a new match at this table: start afresh
            self.match, self.acted_on, self.placed_turn, self.torches_up = self.table.match_id, None, 0, 0
            self.pending_pad = []
        if state.phase == "reveal" and self.kit.dispensing == "give":
            self._place_hand(seat)
            return
        if self.booth in self.kit.torch_wait:
            self._light_torches(state.torches[seat])
        self.go("inside")  # back to the booth's signs after the walls or the join sign
        if seat not in state.to_act():
            return
        if self.pending_pad:
            self._refill_pad()
            return
        key = (state.turn, state.phase, state.bid and state.bid.get("count"), len(state.responses))
        if key == self.acted_on:
            return
        view = state.view(seat)
        if state.phase == "discard" and self.kit.dispensing == "give" and not self._holds(view["drawn"]):
            return  # the wool items have not arrived yet; look again next cycle
        self.acted_on = key
        # a stream per decision (match, position in it): a bot restarted mid-match decides the same
        rng = Rng.derived(self.seed, "bot", self.booth, self.table.match_id, self.table.seq)
        action = self.policy.choose(view, state.legal_actions(seat), rng)
        if isinstance(action, Bid):
            self._bid(action)
        elif isinstance(action, Through):
            self.sign("through")
        elif isinstance(action, Bluff):
            self.sign("bluff")
        elif isinstance(action, Discard):
            self._discard(action, view)

    def _place(self, wool_at: Iterable[tuple[Pos, str]]) -> None:
        """Place wool from the inventory (local cell, colour), then take the sword back in
        hand (placing needs the wool in hand, and sign clicks only count with a sword)."""
        for local, colour in wool_at:
            p = self._world(local)
            block = wool(colour)
            self.player.place(p.x, p.y, p.z, block.id, block.data)
        self.player.hold(DIAMOND_SWORD)

    def _holds(self, wool_counts: dict[str, int]) -> bool:
        have = self.player.inventory()
        return all(have.get((wool(c).id, wool(c).data), 0) >= n for c, n in wool_counts.items())

    def _bid(self, bid: Bid) -> None:
        ui = self.kit.ui[self.booth]
        steps = (COLOURS.index(bid.colour) - COLOURS.index(ui.colour)) % len(COLOURS)
        for _ in range(steps):
            self.sign("colour")
        delta = bid.count - ui.count
        for _ in range(abs(delta)):
            self.sign("plus" if delta > 0 else "minus")
        self.sign("bid")

    def _discard(self, action: Discard, view: dict[str, Any]) -> None:
        if self.kit.dispensing == "give":  # no hand display: put the wool on the discard pad
            pad = self.table.arena.seats[self.booth].discard_pad.cells
            pieces = [c for c, n in action.wool for _ in range(n)]
            self._place(zip(pad, pieces, strict=False))  # the table empties the pad after reading it
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
        load, self.pending_pad = self.pending_pad[: len(pad)], self.pending_pad[len(pad) :]
        self._place(zip(pad, load, strict=False))
        self.pad_wait = 3

    def _light_torches(self, total: int) -> None:
        """`torches: players`: put up the red torches the table handed over, one per penalty."""
        wall = self.table.arena.seats[self.booth].torch_wall
        have = self.player.inventory().get((REDSTONE_TORCH, 0), 0)
        if not have or wall.faces is None:
            return  # not given yet
        self.go("front")
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
        assert isinstance(state, WoolBluffState)
        if self.placed_turn == state.turn:
            return
        self.placed_turn = state.turn
        cells = self.table.arena.seats[self.booth].wool_wall.cells
        self.go("front")
        self._place(zip(cells, hand_slots(state.view(seat)["hand"]), strict=False))


def spot_cell(arena: Arena, booth: int, spot: str) -> Pos:
    """Where a player stands (arena-local, feet on the floor) to reach a seat's things:
    "inside" the booth (its signs, hand display and discard pad), "back" at the join sign
    (on the cell the sign faces), "front" two steps before the wool and torch walls."""
    seat = arena.seats[booth]
    feet = arena.bounds.lo.y + 1
    if spot == "inside":
        box = seat.interior.cuboid
        return Pos((box.lo.x + box.hi.x) // 2, box.lo.y, (box.lo.z + box.hi.z) // 2)
    if spot == "back":
        join = seat.signs["join"]
        return (join.at + join.faces.vector).offset(dy=feet - join.at.y)
    if spot == "front":
        wall = seat.wool_wall
        assert wall.faces is not None, "a wool wall has a front (checked when the arena loads)"
        box = wall.cuboid
        middle = Pos((box.lo.x + box.hi.x) // 2, feet, (box.lo.z + box.hi.z) // 2)
        return middle + wall.faces.vector * 2
    raise ValueError(f"no spot {spot!r}: use inside, back or front")


def blocked_columns(arena: Arena) -> frozenset[tuple[int, int]]:
    """Arena-local (x, z) columns a player cannot walk through: the structure at foot or head
    height, and the game's own seat regions that fill up during play (any kit region the
    structure leaves without a sign: Wool Bluff's walls, pads and displays; sign panels such
    as Dice Bluff's cup stay passable, a sign has no collision box)."""
    feet = arena.bounds.lo.y + 1
    structure = arena_layout(arena)
    body = (feet, feet + 1)
    blocked = {(p.x, p.z) for p, b in structure.blocks.items() if p.y in body and b.id not in PASSABLE}
    for seat in arena.seats:
        for name in arena.part.seat_regions:
            cells = seat.regions[name].cuboid
            blocked.update((p.x, p.z) for p in cells if p.y in body and p not in structure.signs)
    return frozenset(blocked)


def walking_route(blocked: frozenset[tuple[int, int]], start: Pos, goal: Pos) -> list[Pos]:
    """Cells to walk to, one straight leg each, from `start` to `goal` (at the goal's height).

    A breadth-first path over free columns (ground outside the arena counts as free), then
    shortened to the fewest legs that keep `CLEARANCE` from every blocked column, so a
    walker that only goes straight never bumps into a wall. ValueError if there is no way.
    """
    xs = [x for x, _ in blocked] + [start.x, goal.x]
    zs = [z for _, z in blocked] + [start.z, goal.z]
    x_range, z_range = range(min(xs) - 2, max(xs) + 3), range(min(zs) - 2, max(zs) + 3)
    origin, target = (start.x, start.z), (goal.x, goal.z)
    came_from: dict[tuple[int, int], tuple[int, int] | None] = {origin: None}
    queue = deque([origin])
    while queue and target not in came_from:
        x, z = queue.popleft()
        for step in ((x + 1, z), (x - 1, z), (x, z + 1), (x, z - 1)):
            if step[0] in x_range and step[1] in z_range and step not in blocked and step not in came_from:
                came_from[step] = (x, z)
                queue.append(step)
    if target not in came_from:
        raise ValueError(f"no way to walk from {start} to {goal} around the arena's walls")
    path = [target]
    while (previous := came_from[path[-1]]) is not None:
        path.append(previous)
    path.reverse()
    corners, i = [], 0
    while i < len(path) - 1:
        j = len(path) - 1
        while j > i + 1 and not _clear_line(blocked, path[i], path[j]):
            j -= 1
        corners.append(path[j])
        i = j
    return [Pos(x, goal.y, z) for x, z in corners]


def _clear_line(blocked: frozenset[tuple[int, int]], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether a walker `CLEARANCE` wide keeps off blocked columns going from centre to centre."""
    steps = max(1, math.ceil(math.dist(a, b) / 0.1))
    for k in range(steps + 1):
        x = a[0] + 0.5 + (b[0] - a[0]) * k / steps
        z = a[1] + 0.5 + (b[1] - a[1]) * k / steps
        for dx in (-CLEARANCE, CLEARANCE):
            for dz in (-CLEARANCE, CLEARANCE):
                if (math.floor(x + dx), math.floor(z + dz)) in blocked:
                    return False
    return True
