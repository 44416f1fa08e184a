"""Helpers for the Bribery and Braff table tests, beside `sign_support` (shipped arenas,
clicking and chatting players, journal replays, the public-only check, kill and resume).

`Players` are `sign_support.SignPlayers` whose clicks are the kit's `clicks_for` (the signs
a person clicks for an action, given the booth's draft) and whose chat lines are the
game's `Moves.typed`; a test can also make one chosen action, by clicks or chat, with
`make`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sign_support import Click, SignPlayers, click_at
from table_support import Rig

from mcbridge.core import CHANCE, Action
from mcbridge.tables.journal import JournalMatch
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos


class Moves(Protocol):
    def typed(self, action: Action, lang: str) -> str:
        """The chat line for `action` in `lang` ("en" or "ja")."""


def kit_clicks(rig: Rig, booth: int, seat: int, action: Action) -> list[Click]:
    return list(rig.table.kit.clicks_for(booth, seat, action))  # type: ignore[attr-defined]


class Players(SignPlayers):
    """Seated people playing the game's bot by clicks and chat, by turns ("click", "en",
    "click", "ja"); `sent` lists (seat, action, how) for every decision, in order."""

    def __init__(self, rig: Rig, people: Sequence[EmbeddedPlayer], moves: Moves, seed: int = 3) -> None:
        super().__init__(rig, people, rig.table.game.bot(), kit_clicks, moves.typed, seed=seed)

    def make(self, seat: int, action: Action, how: str) -> None:
        """Make `action` for `seat` now: by its clicks, or typed in `how` ("en", "ja")."""
        booth = self.rig.table.booth_of(seat)
        if how == "click":
            for click in kit_clicks(self.rig, booth, seat, action):
                click_at(self.rig, self.people[booth], booth, click)
        else:
            self.people[booth].chat(self.command(action, how))
        self.sent.append((seat, action, how))


def player_actions(saved: JournalMatch) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, data) for seat, data in saved.actions if seat != CHANCE]


def sign_at(rig: Rig, booth: int, name: str) -> Pos:
    return rig.arena.seats[booth].signs[name].at
