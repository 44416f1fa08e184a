"""The Wool Bluff game object: options, match creation, restore, parsing, bot."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from mcbridge.core import Action, FirstSeat, Game, OptionError
from mcbridge.core.legal import PLAIN_UP_TO, ActionRange
from mcbridge.games.wool_bluff import parse
from mcbridge.games.wool_bluff.actions import ACTION_TYPES, COLOURS, EVENT_TYPES, Bid
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

    def __init__(self, options: Mapping[str, Any] | None = None, seed_file: Path | None = None) -> None:
        super().__init__(options, seed_file)
        # read on every action and view: looked up once (options do not change)
        self.hand_size = int(self.options["hand_size"])
        self.turns = int(self.options["turns"])
        self.white_multiplier = int(self.options["white_multiplier"])
        self._bids: dict[tuple[int, int], tuple[Action, ...]] = {}

    def bids(self, lowest: int, highest: int) -> tuple[Action, ...]:
        """Every bid from `lowest` to `highest` wool (built once per pair): each count in
        COLOURS order when they are few (PLAIN_UP_TO), else one count range per colour."""
        found = self._bids.get((lowest, highest))
        if found is None:
            if (highest - lowest + 1) * len(COLOURS) <= PLAIN_UP_TO:
                found = tuple(Bid(c, n) for n in range(lowest, highest + 1) for c in COLOURS)
            else:
                found = tuple(ActionRange(Bid(c, lowest), "count", highest) for c in COLOURS)
            self._bids[lowest, highest] = found
        return found

    def _check_options(self) -> None:
        o = self.options
        if sum(o["weights"].values()) == 0:
            raise OptionError("weights", o["weights"], "at least one colour with a weight above 0")
