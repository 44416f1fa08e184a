"""The Wool Bluff game object: options, match creation, restore, parsing, bot."""

from __future__ import annotations

from typing import Any

from mcbridge.core import Action, Game, OptionError, Policy, State
from mcbridge.games.wool_bluff import parse
from mcbridge.games.wool_bluff.actions import ACTION_TYPES, EVENT_TYPES
from mcbridge.games.wool_bluff.bot import WoolBluffBot
from mcbridge.games.wool_bluff.options import SCHEMA
from mcbridge.games.wool_bluff.rules import WoolBluffState


class WoolBluff(Game):
    name = "wool_bluff"
    schema = SCHEMA
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES

    def _check_options(self) -> None:
        o = self.options
        if o["min_players"] > o["max_players"]:
            raise OptionError("min_players", o["min_players"], f"at most max_players ({o['max_players']})")
        if sum(o["weights"].values()) == 0:
            raise OptionError("weights", o["weights"], "at least one colour with a weight above 0")

    def _new_state(self, players: list[str], seed: int | str) -> WoolBluffState:
        return WoolBluffState(self, players, seed)

    def _restore(self, data: dict[str, Any]) -> WoolBluffState:
        return WoolBluffState.restore(self, data)

    def parse_action(self, seat: int, text: str, state: State) -> Action:
        assert isinstance(state, WoolBluffState)
        return parse.parse(seat, text, state)

    def bot(self) -> Policy:
        return WoolBluffBot()
