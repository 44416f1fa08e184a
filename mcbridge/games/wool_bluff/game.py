"""The Wool Bluff game object: options, match creation, restore, parsing, bot."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from mcbridge.core import Action, FirstSeat, Game, OptionError
from mcbridge.core.legal import PLAIN_UP_TO, ActionRange
from mcbridge.games.wool_bluff import parse
from mcbridge.games.wool_bluff.actions import ACTION_TYPES, COLOURS, EVENT_TYPES, Bid, WoolPairs
from mcbridge.games.wool_bluff.bot import WoolBluffBot
from mcbridge.games.wool_bluff.options import SCHEMA
from mcbridge.games.wool_bluff.rules import WoolBluffState

#: Deals `WoolBluff.dealt` keeps (the default 10 wool of 6 colours come in 3003 ways).
MAX_DEALS_KEPT = 50_000


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
        self._weight_keys = tuple(self.options["weights"])
        self._dealt: dict[tuple[int, ...], WoolPairs] = {}

    def dealt(self, tally: list[int]) -> WoolPairs:
        """The canonical wool of a deal from its count per colour in weights order (what
        `Rng.weighted_tally` draws); the same few thousand deals come up again and again."""
        key = tuple(tally)
        found = self._dealt.get(key)
        if found is None:
            if len(self._dealt) >= MAX_DEALS_KEPT:  # big hands: keep the memo bounded
                self._dealt.clear()
            counts = dict(zip(self._weight_keys, tally, strict=True))
            found = self._dealt[key] = tuple((c, counts[c]) for c in COLOURS if counts.get(c))
        return found

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
