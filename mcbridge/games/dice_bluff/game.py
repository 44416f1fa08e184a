"""The Dice Bluff game object: options, match creation, restore, parsing, bot."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from mcbridge.core import Action, FirstSeat, Game
from mcbridge.games.dice_bluff import parse
from mcbridge.games.dice_bluff.actions import ACTION_TYPES, EVENT_TYPES
from mcbridge.games.dice_bluff.bot import DiceBluffBot
from mcbridge.games.dice_bluff.ladder import Ladder
from mcbridge.games.dice_bluff.options import SCHEMA, resolve_rules
from mcbridge.games.dice_bluff.rules import DiceBluffState


class DiceBluff(Game):
    name = "dice_bluff"
    schema = SCHEMA
    state_class = DiceBluffState
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    action_aliases: ClassVar[Mapping[str, type[Action]]] = {"FirstOpener": FirstSeat}
    text_parser = staticmethod(parse.parse)
    bot_class = DiceBluffBot

    def __init__(self, options: Mapping[str, Any] | None = None, seed_file: Path | None = None) -> None:
        super().__init__(options, seed_file)
        self.rules = resolve_rules(self.options)
        #: what every view shows as "rules" (a copy of it: views are the caller's to change)
        self.rules_json = self.rules.to_json()
        #: (dice in play, palifico, fixed face, wild allowed) -> its bid ladder, built on first use
        self.ladders: dict[tuple[int, bool, int | None, bool], Ladder] = {}
