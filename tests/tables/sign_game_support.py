"""Helpers for the Bribery and Braff table tests, beside `sign_support` (shipped arenas,
journal replays, the public-only check, kill and resume): seated players who play by
sword clicks and by chat, in English and Japanese, mixed, and can be told what to make.

Each decision is chosen by the game's library bot from the seat's own view and legal
list, with a stream derived from the decision's journal position, so a match is
reproducible. A chosen action is clicked as the kit's `clicks_for` says (the signs a
person clicks, given the booth's draft) and typed as the game's `Moves` say.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from mcbridge.core import CHANCE, Action, Rng, State
from mcbridge.tables.journal import JournalMatch
from mcbridge.tables.table import Table
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos

SWORD = 276  # a diamond sword: signs answer only to it


def player_actions(saved: JournalMatch) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, data) for seat, data in saved.actions if seat != CHANCE]


class Moves(Protocol):
    """How one game's actions are typed in the world (clicks are the kit's `clicks_for`)."""

    def typed(self, action: Action, lang: str) -> str:
        """The chat line for `action` in `lang`."""


@dataclass
class Decision:
    seat: int
    action: Action
    how: str  # "click", "en" or "ja"


@dataclass
class SignPlayers:
    """Seated players who act on their turns, alternating clicks, English and Japanese chat.

    `ways` is the rotation of input ways ("click", "en", "ja"), one per decision. `decided`
    lists every decision, in order.
    """

    table: Table
    players: Sequence[EmbeddedPlayer]
    moves: Moves
    ways: Sequence[str] = ("click", "en", "click", "ja")
    seed: int = 7
    decided: list[Decision] = field(default_factory=list)
    choose: Callable[[State, int, Rng], Action] | None = None
    _done: set[tuple[Any, ...]] = field(default_factory=set)

    def __post_init__(self) -> None:
        for player in self.players:
            player.hold(SWORD)

    def act(self) -> None:
        table, state = self.table, self.table.state
        if state is None or state.is_over:
            return
        for seat in sorted(state.to_act() - {CHANCE}):
            key = (table.match_id, table.seq, seat)
            if key in self._done:
                continue
            self._done.add(key)
            rng = Rng.derived(self.seed, "decision", table.match_id, table.seq, seat)
            action = self.choose(state, seat, rng) if self.choose else self._bot(state, seat, rng)
            self.make(seat, action)

    def _bot(self, state: State, seat: int, rng: Rng) -> Action:
        return self.table.game.bot().choose(state.view(seat), state.legal_actions(seat), rng)

    def make(self, seat: int, action: Action, how: str | None = None) -> Decision:
        booth = self.table.booth_of(seat)
        player = self.players[booth]
        if how is None:
            how = self.ways[len(self.decided) % len(self.ways)]
        if how == "click":
            for cell in kit_clicks(self.table, booth, seat, action):
                p = self.table.arena.frame.to_world(cell)
                player.right_click(p.x, p.y, p.z)
        else:
            player.chat(self.moves.typed(action, how))
        decision = Decision(seat, action, how)
        self.decided.append(decision)
        return decision


def kit_clicks(table: Table, booth: int, seat: int, action: Action) -> list[Pos]:
    """The cells to click for `action`: the clicks the kit's `clicks_for` names, found in
    the table's hit map (so a click the booth has no target for fails here)."""
    cells = {(name, slot): at for at, (name, b, slot) in table.hits.items() if b == booth}
    return [cells[click] for click in table.kit.clicks_for(booth, seat, action)]  # type: ignore[attr-defined]


def seat_of_sign(table: Table, booth: int, name: str) -> Pos:
    return table.arena.seats[booth].signs[name].at
