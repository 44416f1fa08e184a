"""Sign-table bots on flying-squid: mineflayer clients that walk to their booth and play
every decision by sword clicks on the signs (the clicks the kit's `clicks_for` names for
the chosen action, as in the embedded tests), through `ReachingPlayer`, so a click a real
client could not reach fails the test.
"""

from __future__ import annotations

import math
from typing import Any

from squid_match_support import ReachingPlayer, SquidRig

from mcbridge.core import Rng
from mcbridge.tables.demo import PASSABLE, WALK_SLACK_S, spot_cell, walking_route
from mcbridge.tables.layout import arena_layout
from mcbridge.tables.table import Table
from mcbridge.world.driver import DIAMOND_SWORD


def structure_columns(table: Table) -> frozenset[tuple[int, int]]:
    """Arena-local (x, z) columns a player cannot walk through at foot or head height."""
    arena = table.arena
    feet = arena.bounds.lo.y + 1
    return frozenset(
        (p.x, p.z)
        for p, b in arena_layout(arena).blocks.items()
        if p.y in (feet, feet + 1) and b.id not in PASSABLE
    )


class SignBot:
    """One seated mineflayer player: sits by the join sign, then plays from inside its booth,
    choosing with the game's bot and clicking what a person would click."""

    def __init__(self, table: Table, player: ReachingPlayer, booth: int, seed: int, policy: Any) -> None:
        self.table = table
        self.player = player
        self.booth = booth
        self.seed = seed
        self.policy = policy
        self.spot: str | None = None
        self.done: set[tuple[Any, ...]] = set()
        self.clicks = 0
        self._blocked = structure_columns(table)

    def go(self, spot: str) -> None:
        if spot == self.spot:
            return
        frame = self.table.arena.frame
        here = frame.to_local(self.player.position())
        for cell in walking_route(self._blocked, here, spot_cell(self.table.arena, self.booth, spot)):
            p = frame.to_world(cell)
            distance = math.dist((here.x, here.z), (cell.x, cell.z))
            self.player.walk_to(p.x + 0.5, p.y, p.z + 0.5, timeout=WALK_SLACK_S + distance / 2)
            here = cell
        self.spot = spot

    def click_local(self, local: Any) -> None:
        p = self.table.arena.frame.to_world(local)
        self.player.right_click(p.x, p.y, p.z, face=1)
        self.clicks += 1

    def sit_down(self) -> None:
        self.player.hold(DIAMOND_SWORD)
        self.go("back")
        self.click_local(self.table.arena.seats[self.booth].signs["join"].at)

    def act(self) -> None:
        table = self.table
        state = table.state
        seat = table.rules_seat(self.booth)
        if state is None or seat is None or state.is_over:
            return
        self.go("inside")
        if seat not in state.to_act():
            return
        key = (table.match_id, table.seq)
        if key in self.done:
            return
        self.done.add(key)
        rng = Rng.derived(self.seed, "sign-bot", self.booth, table.match_id, table.seq)
        action = self.policy.choose(state.view(seat), state.legal_actions(seat), rng)
        cells = {(name, slot): at for at, (name, b, slot) in table.hits.items() if b == self.booth}
        for click in table.kit.clicks_for(self.booth, seat, action):  # type: ignore[attr-defined]
            self.click_local(cells[click])


def seat_sign_bots(rig: SquidRig, bots: list[SignBot]) -> None:
    """The bots walk to the back of their booths and click the join signs; returns once seated."""
    rig.in_parallel([bot.sit_down for bot in bots])
    names = [bot.player.name for bot in bots]
    rig.run_until(
        lambda: [o.name if o else None for o in rig.table.occupants[: len(bots)]] == names,
        "the join-sign clicks seat the bots",
        max_cycles=60,
        bots_act=False,
    )
    rig.bots = bots  # type: ignore[assignment]
