"""The Wool Bluff game object: options, match creation, restore, parsing, bot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from mcbridge.core import Action, FirstSeat, Game, OptionError
from mcbridge.games.wool_bluff import parse
from mcbridge.games.wool_bluff.actions import ACTION_TYPES, EVENT_TYPES
from mcbridge.games.wool_bluff.bot import WoolBluffBot
from mcbridge.games.wool_bluff.options import SCHEMA
from mcbridge.games.wool_bluff.rules import WoolBluffState


class WoolBluff(Game):
    name = "wool_bluff"
    schema = SCHEMA
    state_class = WoolBluffState
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    action_aliases: ClassVar[Mapping[str, type[Action]]] = {"FirstPredictor": FirstSeat}
    text_parser = staticmethod(parse.parse)
    bot_class = WoolBluffBot

    def _check_options(self) -> None:
        o = self.options
        if sum(o["weights"].values()) == 0:
            raise OptionError("weights", o["weights"], "at least one colour with a weight above 0")
