"""A simulated player that plays any game with a kit at its table, the way a person does.

The bot walks into its booth (or clicks the join sign from behind it), holds a sword,
decides each of its decisions with the game's library bot (`game.bot()`) from its own
view, and makes the action by the sword clicks the kit names for it (`clicks_for`):
Dice Bluff's face/+1/BID signs and dice, Briscola's cards and menu. A kit without
`clicks_for` cannot be demoed this way (`SeatBot.supports`).

Wool Bluff keeps its own walker (`mcbridge.tables.demo.TableBot`): it also places wool
on the walls and pads and puts up torches, which no click list describes.
"""

from __future__ import annotations

from typing import Any

from mcbridge.core import Action, Rng
from mcbridge.tables.demo import Walker
from mcbridge.tables.kit import Kit
from mcbridge.tables.table import Table
from mcbridge.world.driver import SimPlayer


def decide(table: Table, seat: int, seed: int, booth: int) -> Action:
    """The library bot's choice for `seat` now, from its own view only. One random stream per
    decision (seed, booth, match, journal position): a bot restarted mid-match decides the same."""
    state = table.state
    assert state is not None
    rng = Rng.derived(seed, "seat-bot", booth, table.match_id, table.seq)
    choice: Action = table.game.bot().choose(state.view(seat), state.legal_actions(seat), rng)
    return choice


class SeatBot(Walker):
    """One seated simulated player at a sign table (see the module docstring)."""

    def __init__(self, table: Table, player: SimPlayer, booth: int, seed: int) -> None:
        super().__init__(table, player, booth)
        self.seed = seed
        self.acted_on: tuple[int | None, int] | None = None
        self._cells = {(name, slot): at for at, (name, b, slot) in table.hits.items() if b == booth}

    @staticmethod
    def supports(kit: Kit) -> bool:
        return hasattr(kit, "clicks_for")

    def act(self) -> None:
        """Once per cycle: if this seat has a decision the bot has not answered yet, answer it.
        The table reads the clicks on its next poll."""
        table = self.table
        state = table.state
        seat = table.rules_seat(self.booth)
        if state is None or seat is None or state.is_over:
            return
        self.go("inside")
        if seat not in state.to_act() or self.acted_on == (table.match_id, table.seq):
            return
        self.acted_on = (table.match_id, table.seq)
        action = decide(table, seat, self.seed, self.booth)
        kit: Any = table.kit
        for click in kit.clicks_for(self.booth, seat, action):
            self.click(self._cells[click])
