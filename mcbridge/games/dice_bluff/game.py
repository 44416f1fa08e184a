"""The Dice Bluff game object: options, match creation, restore, parsing, bot."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mcbridge.core import Action, Game, OptionError, Policy, State
from mcbridge.games.dice_bluff import parse
from mcbridge.games.dice_bluff.actions import ACTION_TYPES, EVENT_TYPES
from mcbridge.games.dice_bluff.bot import DiceBluffBot
from mcbridge.games.dice_bluff.options import SCHEMA, resolve_rules
from mcbridge.games.dice_bluff.rules import DiceBluffState


class DiceBluff(Game):
    name = "dice_bluff"
    schema = SCHEMA
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES

    def __init__(self, options: Mapping[str, Any] | None = None, seed_file: Path | None = None) -> None:
        super().__init__(options, seed_file)
        self.rules = resolve_rules(self.options)

    def _check_options(self) -> None:
        o = self.options
        if o["min_players"] > o["max_players"]:
            raise OptionError("min_players", o["min_players"], f"at most max_players ({o['max_players']})")

    def _new_state(self, players: list[str], seed: int | str) -> DiceBluffState:
        return DiceBluffState(self, players, seed)

    def _restore(self, data: dict[str, Any]) -> DiceBluffState:
        return DiceBluffState.restore(self, data)

    def parse_action(self, seat: int, text: str, state: State) -> Action:
        assert isinstance(state, DiceBluffState)
        return parse.parse(seat, text, state)

    def bot(self) -> Policy:
        return DiceBluffBot()
