"""Helpers for the sign-table tests (Bribery, Braff): shipped arenas, and seated players
who play by sword clicks and by chat, in English and Japanese, mixed.

Each decision is chosen by the game's library bot from the seat's own view and legal
list, with a stream derived from the decision's journal position, so a match is
reproducible. The game's `Moves` say how a chosen action is clicked (which signs, in
which order, given the booth's draft) and how it is typed in each language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from table_support import Rig

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE, Action, Rng, State
from mcbridge.tables.config import Arena, load_arena
from mcbridge.tables.journal import JournalMatch
from mcbridge.tables.table import Table
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos

SWORD = 276  # a diamond sword: signs answer only to it


def game_arena(game: str, **changes: Any) -> Arena:
    """The shipped arena of `game`, English unless told, with `options` merged."""
    arena = load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml")
    options = {**arena.options, **changes.pop("options", {})}
    return dataclasses.replace(arena, locale=changes.pop("locale", "en"), options=options, **changes)


def replay(game: Any, saved: JournalMatch) -> State:
    """A fresh core state with every journalled action applied."""
    state: State = game.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        state.apply(seat, game.action_from_json(data))
    return state


def player_actions(saved: JournalMatch) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, data) for seat, data in saved.actions if seat != CHANCE]


class Moves(Protocol):
    """How one game's actions are made in the world."""

    def clicks(self, table: Table, booth: int, seat: int, action: Action) -> list[Pos] | None:
        """Arena-local cells to click, in order, to make `action`; None if it cannot be clicked."""

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

    `ways` is the rotation of input ways ("click", "en", "ja"); each decision takes the next
    one its action can be made by. `decided` lists every decision, in order.
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
        cells = self.moves.clicks(self.table, booth, seat, action) if how == "click" else None
        if how == "click" and cells is None:
            how = "en"
        if how == "click":
            assert cells is not None
            for cell in cells:
                p = self.table.arena.frame.to_world(cell)
                player.right_click(p.x, p.y, p.z)
        else:
            player.chat(self.moves.typed(action, how))
        decision = Decision(seat, action, how)
        self.decided.append(decision)
        return decision


def seat_of_sign(table: Table, booth: int, name: str) -> Pos:
    return table.arena.seats[booth].signs[name].at


def drive(rig: Rig, players: SignPlayers, done: Callable[[], bool], max_cycles: int = 20000) -> None:
    """Cycle the rig, the players acting after each cycle, until `done()`."""
    for _ in range(max_cycles):
        if done():
            return
        rig.step()
        players.act()
    state = rig.table.state
    raise AssertionError(f"not done after {max_cycles} cycles; phase {state.phase if state else 'waiting'}")
